"""A small causal Transformer language model in pure jnp (in the style of "Transformers
from scratch in JAX" notebooks): embeddings with jnp.take, jax.nn.dot_product_attention
with is_causal and with an explicit mask, layer norm, GELU MLP, weight tying, a
hand-written Adam (optax-style, over pytrees with tree_map), gradient clipping by global
norm, a warmup-cosine schedule, and greedy decoding with lax.fori_loop."""

import math

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.tree_util import tree_leaves, tree_map

VOCAB, D, HEADS, LAYERS, SEQ = 11, 16, 2, 2, 8


def init(key):
    keys = iter(random.split(key, 4 + 6 * LAYERS))
    p = {"embed": random.normal(next(keys), (VOCAB, D)) * 0.1,
         "pos": random.normal(next(keys), (SEQ, D)) * 0.1,
         "ln_f": {"scale": jnp.ones(D), "bias": jnp.zeros(D)}, "blocks": []}
    for _ in range(LAYERS):
        p["blocks"].append({
            "qkv": random.normal(next(keys), (D, 3 * D)) / math.sqrt(D),
            "out": random.normal(next(keys), (D, D)) / math.sqrt(D),
            "fc1": random.normal(next(keys), (D, 4 * D)) / math.sqrt(D),
            "fc2": random.normal(next(keys), (4 * D, D)) / math.sqrt(4 * D),
            "ln1": {"scale": jnp.ones(D), "bias": jnp.zeros(D)},
            "ln2": {"scale": jnp.ones(D), "bias": jnp.zeros(D)}})
    return p


def layer_norm(p, x, eps=1e-5):
    mean = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True)
    return (x - mean) * lax.rsqrt(var + eps) * p["scale"] + p["bias"]


def attention(blk, x, explicit_mask=False):
    T = x.shape[0]
    q, k, v = jnp.split(x @ blk["qkv"], 3, axis=-1)
    q, k, v = (a.reshape(T, HEADS, D // HEADS) for a in (q, k, v))
    if explicit_mask:
        mask = jnp.tril(jnp.ones((T, T), dtype=bool))[None]
        o = jax.nn.dot_product_attention(q, k, v, mask=mask)
    else:
        o = jax.nn.dot_product_attention(q, k, v, is_causal=True)
    return o.reshape(T, D) @ blk["out"]


def model(p, tokens, explicit_mask=False):
    x = jnp.take(p["embed"], tokens, axis=0) + p["pos"][: tokens.shape[0]]
    for blk in p["blocks"]:
        x = x + attention(blk, layer_norm(blk["ln1"], x), explicit_mask)
        h = jax.nn.gelu(layer_norm(blk["ln2"], x) @ blk["fc1"])
        x = x + h @ blk["fc2"]
    return layer_norm(p["ln_f"], x) @ p["embed"].T


def manual_attention(blk, x):
    T = x.shape[0]
    q, k, v = jnp.split(x @ blk["qkv"], 3, axis=-1)
    q, k, v = (a.reshape(T, HEADS, D // HEADS).transpose(1, 0, 2) for a in (q, k, v))
    s = jnp.einsum("htd,hsd->hts", q, k) / math.sqrt(D // HEADS)
    s = jnp.where(jnp.tril(jnp.ones((T, T), bool)), s, -jnp.inf)
    return jnp.einsum("hts,hsd->thd", jax.nn.softmax(s, -1), v).reshape(T, D) @ blk["out"]


params = init(random.PRNGKey(0))
print("n params", sum(x.size for x in tree_leaves(params)))
x = random.normal(random.PRNGKey(1), (SEQ, D))
blk = params["blocks"][0]
print("attention matches", jnp.allclose(attention(blk, x), manual_attention(blk, x), atol=1e-5),
      jnp.allclose(attention(blk, x, True), attention(blk, x), atol=1e-6))

# data: sequences counting upward modulo VOCAB
starts = jnp.arange(16) % VOCAB
data = (starts[:, None] + jnp.arange(SEQ + 1)[None]) % VOCAB


def loss_fn(p, batch):
    logits = jax.vmap(model, in_axes=(None, 0))(p, batch[:, :-1])
    logp = jax.nn.log_softmax(logits)
    return -jnp.take_along_axis(logp, batch[:, 1:, None], -1).mean()


def schedule(step, peak=3e-2, warmup=5, total=40):
    warm = peak * step / warmup
    cos = 0.5 * peak * (1 + jnp.cos(jnp.pi * (step - warmup) / (total - warmup)))
    return jnp.where(step < warmup, warm, cos)


def adam_init(p):
    return {"m": tree_map(jnp.zeros_like, p), "v": tree_map(jnp.zeros_like, p), "t": jnp.zeros([], jnp.int32)}


def clip_by_global_norm(g, max_norm):
    norm = jnp.sqrt(sum(jnp.sum(x ** 2) for x in tree_leaves(g)))
    return tree_map(lambda x: x * jnp.minimum(1.0, max_norm / norm), g), norm


@jax.jit
def update(p, state, batch):
    loss, g = jax.value_and_grad(loss_fn)(p, batch)
    g, gnorm = clip_by_global_norm(g, 1.0)
    t = state["t"] + 1
    m = tree_map(lambda m, g: 0.9 * m + 0.1 * g, state["m"], g)
    v = tree_map(lambda v, g: 0.999 * v + 0.001 * g * g, state["v"], g)
    lr = schedule(t)
    mhat_c, vhat_c = 1 - 0.9 ** t, 1 - 0.999 ** t
    p = tree_map(lambda p, m, v: p - lr * (m / mhat_c) / (jnp.sqrt(v / vhat_c) + 1e-8), p, m, v)
    return p, {"m": m, "v": v, "t": t}, loss, gnorm


state = adam_init(params)
for step in range(40):
    params, state, loss, gnorm = update(params, state, data)
    if step % 8 == 0:
        print(step, loss, gnorm, schedule(step + 1))
print("final loss", loss_fn(params, data), state["t"])


def greedy(p, prompt, n_new):
    buf = jnp.zeros(SEQ, jnp.int32).at[: prompt.shape[0]].set(prompt)

    def body(i, buf):
        logits = model(p, buf)
        nxt = jnp.argmax(logits[i - 1]).astype(jnp.int32)
        return buf.at[i].set(nxt)

    return lax.fori_loop(prompt.shape[0], prompt.shape[0] + n_new, body, buf)


print("greedy", greedy(params, jnp.array([3, 4, 5], jnp.int32), 5))
print("bias+scale", jax.nn.dot_product_attention(x[:, None, :4], x[:, None, 4:8], x[:, None, 8:12],
                                                  bias=jnp.ones((1, SEQ, SEQ)), scale=0.5)[0])
