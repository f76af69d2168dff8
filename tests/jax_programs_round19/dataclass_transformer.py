"""A Flax-free decoder-only transformer in the style of modern minimal-JAX LM code: parameters
in frozen dataclasses registered with jax.tree_util.register_dataclass (data and meta fields),
jax.nn.initializers (variance_scaling, normal, zeros), RoPE, grouped-query attention through
jax.nn.dot_product_attention (is_causal, a key-padding mask, bias), RMSNorm, a hand-written
AdamW with warmup-cosine schedule, global-norm clipping and a weight-decay mask from
jax.tree_util.tree_map_with_path, trained on a toy copy task under jit."""

import dataclasses
import math
from functools import partial

import jax
import jax.numpy as jnp
from jax import random
from jax.tree_util import register_dataclass

jnp.set_printoptions(precision=5, suppress=True)
VOCAB, D, HEADS, KV_HEADS, T = 11, 32, 4, 2, 12
init_w = jax.nn.initializers.variance_scaling(1.0, "fan_in", "truncated_normal")
init_emb = jax.nn.initializers.normal(stddev=0.02)


@partial(register_dataclass, data_fields=["wq", "wk", "wv", "wo", "w1", "w2", "norm1", "norm2"],
         meta_fields=["n_heads", "n_kv"])
@dataclasses.dataclass(frozen=True)
class Block:
    wq: jax.Array
    wk: jax.Array
    wv: jax.Array
    wo: jax.Array
    w1: jax.Array
    w2: jax.Array
    norm1: jax.Array
    norm2: jax.Array
    n_heads: int
    n_kv: int


@partial(register_dataclass, data_fields=["embed", "blocks", "norm_f"], meta_fields=[])
@dataclasses.dataclass(frozen=True)
class Model:
    embed: jax.Array
    blocks: list
    norm_f: jax.Array


def init_block(key):
    k = random.split(key, 6)
    hd = D // HEADS
    return Block(wq=init_w(k[0], (D, HEADS * hd)), wk=init_w(k[1], (D, KV_HEADS * hd)),
                 wv=init_w(k[2], (D, KV_HEADS * hd)), wo=init_w(k[3], (HEADS * hd, D)),
                 w1=init_w(k[4], (D, 4 * D)), w2=init_w(k[5], (4 * D, D)),
                 norm1=jnp.ones(D), norm2=jnp.ones(D), n_heads=HEADS, n_kv=KV_HEADS)


def init_model(key, n_layers=2):
    ke, *kb = random.split(key, n_layers + 1)
    return Model(embed=init_emb(ke, (VOCAB, D)), blocks=[init_block(k) for k in kb],
                 norm_f=jax.nn.initializers.ones(ke, (D,)))


def rms_norm(x, w, eps=1e-6):
    return x * jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + eps) * w


def rope(x, base=10000.0):
    t, hd = x.shape[-3], x.shape[-1]
    freqs = base ** (-jnp.arange(0, hd, 2, dtype=jnp.float32) / hd)
    ang = jnp.arange(t, dtype=jnp.float32)[:, None] * freqs[None, :]
    cos, sin = jnp.cos(ang)[:, None, :], jnp.sin(ang)[:, None, :]
    x1, x2 = x[..., ::2], x[..., 1::2]
    out = jnp.stack([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=-1)
    return out.reshape(x.shape).astype(x.dtype)


def block_apply(b, x, mask):
    B_, T_, _ = x.shape
    hd = D // b.n_heads
    h = rms_norm(x, b.norm1)
    q = rope((h @ b.wq).reshape(B_, T_, b.n_heads, hd))
    k = rope((h @ b.wk).reshape(B_, T_, b.n_kv, hd))
    v = (h @ b.wv).reshape(B_, T_, b.n_kv, hd)
    att = jax.nn.dot_product_attention(q, k, v, mask=mask, is_causal=True, implementation="xla")
    x = x + att.reshape(B_, T_, -1) @ b.wo
    h = rms_norm(x, b.norm2)
    return x + jax.nn.silu(h @ b.w1) @ b.w2


def forward(m, tokens, lengths):
    x = m.embed[tokens]
    valid = jnp.arange(tokens.shape[1])[None, :] < lengths[:, None]  # key padding
    mask = valid[:, None, None, :]
    for b in m.blocks:
        x = block_apply(b, x, mask)
    return rms_norm(x, m.norm_f) @ m.embed.T


def loss_fn(m, tokens, lengths):
    logits = forward(m, tokens[:, :-1], lengths - 1)
    targets = tokens[:, 1:]
    logp = jax.nn.log_softmax(logits)
    nll = -jnp.take_along_axis(logp, targets[..., None], axis=-1)[..., 0]
    w = (jnp.arange(targets.shape[1])[None, :] < (lengths - 1)[:, None]).astype(nll.dtype)
    return jnp.sum(nll * w) / jnp.sum(w)


def schedule(step, peak=3e-3, warmup=10, total=80):
    warm = peak * step / warmup
    cos = 0.5 * peak * (1 + jnp.cos(jnp.pi * jnp.clip((step - warmup) / (total - warmup), 0, 1)))
    return jnp.where(step < warmup, warm, cos)


def decay_mask(params):
    return jax.tree_util.tree_map_with_path(
        lambda path, leaf: (not any(getattr(p, "name", "").startswith("norm") for p in path)
                            and leaf.ndim == 2),
        params)


def adamw_update(grads, state, params, step, b1=0.9, b2=0.98, eps=1e-8, wd=0.01, max_norm=1.0):
    gnorm = jnp.sqrt(sum(jnp.sum(g * g) for g in jax.tree.leaves(grads)))
    grads = jax.tree.map(lambda g: g * jnp.minimum(1.0, max_norm / (gnorm + 1e-6)), grads)
    mu = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, state["mu"], grads)
    nu = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g * g, state["nu"], grads)
    t = step + 1
    lr = schedule(step)
    new = jax.tree.map(
        lambda p, m, v, dm: p - lr * ((m / (1 - b1**t)) / (jnp.sqrt(v / (1 - b2**t)) + eps) + wd * p * dm),
        params, mu, nu, decay_mask(params))
    return new, {"mu": mu, "nu": nu}, gnorm


key = random.PRNGKey(0)
model = init_model(key)
leaves, treedef = jax.tree.flatten(model)
print("leaves", len(leaves), "params", sum(x.size for x in leaves))
b0_ = model.blocks[0]
print("meta kept:", b0_.n_heads, b0_.n_kv, jax.tree.structure(b0_).num_leaves)
print("decay mask", [bool(x) for x in jax.tree.leaves(decay_mask(model.blocks[0]))])
paths = [jax.tree_util.keystr(p) for p, _ in jax.tree_util.tree_flatten_with_path(model)[0][:4]]
print("paths", paths)

# data: sequences "a b c ... a b c" (repeat the first half), variable lengths
dk = random.PRNGKey(1)
half = random.randint(dk, (16, T // 2), 1, VOCAB)
tokens = jnp.concatenate([half, half], axis=1)
lengths = jnp.array([T, T - 2] * 8)
tokens = jnp.where(jnp.arange(T)[None, :] < lengths[:, None], tokens, 0)
print(f"initial loss {loss_fn(model, tokens, lengths):.5f} (log V = {math.log(VOCAB):.5f})")
print("schedule", jnp.array([schedule(s) for s in (0, 5, 10, 45, 80)]))

state = {"mu": jax.tree.map(jnp.zeros_like, model), "nu": jax.tree.map(jnp.zeros_like, model)}


@jax.jit
def train_step(model, state, step):
    loss, grads = jax.value_and_grad(loss_fn)(model, tokens, lengths)
    model, state, gnorm = adamw_update(grads, state, model, step)
    return model, state, loss, gnorm


for step in range(40):
    model, state, loss, gnorm = train_step(model, state, step)
    if step % 10 == 0 or step == 39:
        print(f"step {step:2d} loss {loss:.5f} grad-norm {gnorm:.5f}")
print("type preserved:", type(model).__name__, type(model.blocks[1]).__name__)
print("replace:", dataclasses.replace(model.blocks[0], n_heads=4).n_heads)

# attention checks: GQA vs repeated heads, bias, and the reference formula
q = random.normal(random.PRNGKey(2), (2, 5, 4, 8))
k = random.normal(random.PRNGKey(3), (2, 5, 2, 8))
v = random.normal(random.PRNGKey(4), (2, 5, 2, 8))
bias = 0.1 * jnp.arange(25.0).reshape(1, 1, 5, 5)
out = jax.nn.dot_product_attention(q, k, v, bias=bias, is_causal=True)
kr, vr = jnp.repeat(k, 2, axis=2), jnp.repeat(v, 2, axis=2)
s = jnp.einsum("bqhd,bkhd->bhqk", q, kr) / jnp.sqrt(8.0) + bias
s = jnp.where(jnp.tril(jnp.ones((5, 5), bool)), s, -jnp.inf)
ref = jnp.einsum("bhqk,bkhd->bqhd", jax.nn.softmax(s, axis=-1), vr)
print("dpa == reference:", bool(jnp.allclose(out, ref, atol=1e-5)), out.shape)
print("dpa[0, -1, 0]", out[0, -1, 0])
print("scale kw", jax.nn.dot_product_attention(q, k, v, scale=0.5)[1, 2, 3, :4])
