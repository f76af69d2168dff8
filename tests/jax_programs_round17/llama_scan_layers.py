"""A small Llama-style decoder in pure JAX as in research codebases that stack layer weights
and run them with lax.scan: RMSNorm, rotary position embeddings, grouped-query attention
through jax.nn.dot_product_attention (fewer key/value heads than query heads, is_causal,
local_window_size, query_seq_lengths/key_value_seq_lengths for padding), SwiGLU MLP,
jax.checkpoint with a policy (dots_with_no_batch_dims_saveable, save_only_these_names with
checkpoint_name), tied embeddings, a masked cross-entropy, and greedy decoding."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.ad_checkpoint import checkpoint_name

V, D, H, KV, F, NL, T = 17, 16, 4, 2, 32, 3, 10
HD = D // H


def init(key):
    ks = random.split(key, 6)
    s = lambda k, shape, fan: random.normal(k, shape) / jnp.sqrt(fan)
    return {
        "embed": s(ks[0], (V, D), 1.0) * 0.5,
        "layers": {
            "wq": s(ks[1], (NL, D, H * HD), D),
            "wkv": s(ks[2], (NL, D, 2, KV * HD), D),
            "wo": s(ks[3], (NL, H * HD, D), H * HD),
            "w13": s(ks[4], (NL, D, 2, F), D),
            "w2": s(ks[5], (NL, F, D), F),
            "n1": jnp.ones((NL, D)),
            "n2": jnp.ones((NL, D)),
        },
        "norm": jnp.ones(D),
    }


def rms_norm(x, w, eps=1e-6):
    return x * lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + eps) * w


def rope(x, positions, base=10000.0):
    half = x.shape[-1] // 2
    freqs = base ** (-jnp.arange(half, dtype=jnp.float32) / half)
    ang = positions[:, None].astype(jnp.float32) * freqs[None]
    cos, sin = jnp.cos(ang)[None, :, None, :], jnp.sin(ang)[None, :, None, :]
    x1, x2 = x[..., :half], x[..., half:]
    return jnp.concatenate([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=-1).astype(x.dtype)


def layer(x, p, lengths, window):
    b, t, _ = x.shape
    pos = jnp.arange(t)
    h = rms_norm(x, p["n1"])
    q = (h @ p["wq"]).reshape(b, t, H, HD)
    kv = jnp.einsum("btd,dcf->cbtf", h, p["wkv"]).reshape(2, b, t, KV, HD)
    q, k = rope(q, pos), rope(kv[0], pos)
    q = checkpoint_name(q, "query")
    o = jax.nn.dot_product_attention(q, k, kv[1], is_causal=True, local_window_size=window,
                                     query_seq_lengths=lengths, key_value_seq_lengths=lengths)
    x = x + o.reshape(b, t, H * HD) @ p["wo"]
    h = rms_norm(x, p["n2"])
    gate, up = jnp.einsum("btd,dcf->cbtf", h, p["w13"])
    return x + (jax.nn.silu(gate) * up) @ p["w2"]


def forward(params, tokens, lengths, policy=None, window=None):
    x = params["embed"][tokens]
    body = partial(layer, lengths=lengths, window=window)
    if policy is not None:
        body = jax.checkpoint(body, policy=policy)
    x, _ = lax.scan(lambda c, p: (body(c, p), None), x, params["layers"])
    return rms_norm(x, params["norm"]) @ params["embed"].T


def loss_fn(params, tokens, lengths, policy=None):
    logits = forward(params, tokens[:, :-1], lengths - 1, policy)
    logp = jax.nn.log_softmax(logits)
    nll = -jnp.take_along_axis(logp, tokens[:, 1:, None], axis=-1)[..., 0]
    mask = jnp.arange(T - 1)[None] < (lengths - 1)[:, None]
    return jnp.sum(nll * mask) / jnp.sum(mask)


params = init(random.PRNGKey(0))
print("n params:", sum(x.size for x in jax.tree_util.tree_leaves(params)))
# data: arithmetic sequences mod V, padded with 0 after their length
starts = jnp.arange(6) % V
steps = jnp.array([1, 2, 3, 1, 2, 3])
tokens = (starts[:, None] + steps[:, None] * jnp.arange(T)[None]) % V
lengths = jnp.array([10, 10, 8, 7, 10, 9], dtype=jnp.int32)
tokens = jnp.where(jnp.arange(T)[None] < lengths[:, None], tokens, 0)
print("tokens[3]:", tokens[3])

logits = forward(params, tokens, lengths)
print("logits shape:", logits.shape, "row mean:", logits[0, :3].mean(axis=-1))
local = forward(params, tokens, lengths, window=(2, 0))
print("local window changes late positions only:", bool(jnp.allclose(local[:, :3], logits[:, :3], atol=1e-5)),
      bool(jnp.allclose(local[:, -1], logits[:, -1], atol=1e-5)))

l0 = loss_fn(params, tokens, lengths)
print("initial loss:", l0, "log V:", jnp.log(V))
policies = {
    "none": None,
    "nothing_saveable": jax.checkpoint_policies.nothing_saveable,
    "dots_no_batch": jax.checkpoint_policies.dots_with_no_batch_dims_saveable,
    "names": jax.checkpoint_policies.save_only_these_names("query"),
}
grads = {n: jax.grad(loss_fn)(params, tokens, lengths, pol) for n, pol in policies.items()}
ref = grads["none"]
for n, g in grads.items():
    same = all(bool(jnp.allclose(a, b, rtol=1e-5, atol=1e-6)) for a, b in
               zip(jax.tree_util.tree_leaves(g), jax.tree_util.tree_leaves(ref)))
    print(f"policy {n}: grads equal {same}")
print("grad norms:",
      jax.tree_util.tree_map(lambda g: jnp.round(jnp.linalg.norm(g.ravel()), 4), ref["layers"]))

# GQA equals MHA with repeated key/value heads
q = random.normal(random.PRNGKey(1), (1, 5, H, HD))
kk = random.normal(random.PRNGKey(2), (1, 5, KV, HD))
vv = random.normal(random.PRNGKey(3), (1, 5, KV, HD))
gqa = jax.nn.dot_product_attention(q, kk, vv, is_causal=True)
mha = jax.nn.dot_product_attention(q, jnp.repeat(kk, H // KV, axis=2), jnp.repeat(vv, H // KV, axis=2),
                                   is_causal=True)
print("gqa == repeated mha:", bool(jnp.allclose(gqa, mha, atol=1e-6)), gqa[0, -1, 0, :3])


@jax.jit
def train_step(params, mom):
    loss, g = jax.value_and_grad(loss_fn)(params, tokens, lengths,
                                          jax.checkpoint_policies.dots_with_no_batch_dims_saveable)
    mom = jax.tree_util.tree_map(lambda m, gg: 0.9 * m + gg, mom, g)
    return jax.tree_util.tree_map(lambda p, m: p - 0.05 * m, params, mom), mom, loss


mom = jax.tree_util.tree_map(jnp.zeros_like, params)
for step in range(80):
    params, mom, loss = train_step(params, mom)
    if step % 20 == 0:
        print(f"step {step}: loss {loss:.4f}")
print("final loss:", loss_fn(params, tokens, lengths))


def greedy(params, prompt, n):
    buf = jnp.zeros(T, jnp.int32).at[:prompt.shape[0]].set(prompt)

    def body(i, buf):
        logits = forward(params, buf[None], jnp.array([i], jnp.int32))[0, i - 1]
        return buf.at[i].set(jnp.argmax(logits).astype(jnp.int32))
    return lax.fori_loop(prompt.shape[0], prompt.shape[0] + n, body, buf)


print("greedy:", jax.jit(greedy, static_argnums=2)(params, jnp.array([2, 4, 6], jnp.int32), 5))
