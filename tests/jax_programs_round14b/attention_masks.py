"""Attention as transformer research code writes it with jax only: jax.nn.dot_product_attention
with causal masks, boolean masks, additive bias, key-padding via query/key sequence lengths,
grouped-query attention (fewer KV heads), against a hand-written softmax attention; rotary
position embeddings (RoPE), a KV-cache decode loop with dynamic_update_slice, and gradients
through the fused call."""

import jax
import numpy as np
import jax.numpy as jnp
from jax import lax, random

B, T, N, K, Hd = 2, 5, 4, 2, 8
key = random.PRNGKey(0)
kq, kk, kv, kb = random.split(key, 4)
q = random.normal(kq, (B, T, N, Hd))
k = random.normal(kk, (B, T, K, Hd))
v = random.normal(kv, (B, T, K, Hd))


def reference(q, k, v, mask=None, bias=None):
    rep = q.shape[2] // k.shape[2]
    k, v = jnp.repeat(k, rep, axis=2), jnp.repeat(v, rep, axis=2)
    logits = jnp.einsum("btnh,bsnh->bnts", q, k) / jnp.sqrt(q.shape[-1])
    if bias is not None:
        logits = logits + bias
    if mask is not None:
        logits = jnp.where(mask, logits, jnp.finfo(logits.dtype).min)
    w = jax.nn.softmax(logits, axis=-1)
    return jnp.einsum("bnts,bsnh->btnh", w, v)


out = jax.nn.dot_product_attention(q, k, v)
print("plain", out.shape, out.dtype, jnp.allclose(out, reference(q, k, v), atol=1e-5))
causal = jnp.tril(jnp.ones((T, T), bool))
out_c = jax.nn.dot_product_attention(q, k, v, is_causal=True)
print("causal", jnp.allclose(out_c, reference(q, k, v, mask=causal), atol=1e-5), out_c[0, 0, 0, :3])
bias = 0.1 * random.normal(kb, (1, N, T, T))
out_b = jax.nn.dot_product_attention(q, k, v, bias=bias, mask=causal[None, None])
print("bias+mask", jnp.allclose(out_b, reference(q, k, v, mask=causal, bias=bias), atol=1e-5))
lens = jnp.array([5, 3], dtype=jnp.int32)
out_l = jax.nn.dot_product_attention(q, k, v, key_value_seq_lengths=lens)
pad = (jnp.arange(T)[None, :] < lens[:, None])[:, None, None, :]
print("kv lengths", jnp.allclose(out_l, reference(q, k, v, mask=pad), atol=1e-5))
try:  # int64 lengths (64-bit mode) are refused; in 32-bit mode asarray makes them int32
    jax.nn.dot_product_attention(q, k, v, key_value_seq_lengths=np.array([5, 3]))
    print("int lengths accepted")
except ValueError:
    print("int64 lengths: ValueError")
out_s = jax.nn.dot_product_attention(q, k, v, scale=0.5)
print("scale", out_s[1, 2, 3, :3])


def rope(x, base=10000.0):
    t = jnp.arange(x.shape[1])[:, None]
    inv = base ** (-jnp.arange(0, x.shape[-1], 2) / x.shape[-1])
    ang = (t * inv)[None, :, None, :]
    x1, x2 = x[..., ::2], x[..., 1::2]
    rot = jnp.stack([x1 * jnp.cos(ang) - x2 * jnp.sin(ang), x1 * jnp.sin(ang) + x2 * jnp.cos(ang)], -1)
    return rot.reshape(x.shape)


qr, kr = rope(q), rope(k)
print("rope norms kept", jnp.allclose(jnp.linalg.norm(qr, axis=-1), jnp.linalg.norm(q, axis=-1), atol=1e-5))
s1 = jnp.einsum("h,h->", qr[0, 3, 0], kr[0, 1, 0])
qs, ks = rope(jnp.roll(q, 1, axis=1)), rope(jnp.roll(k, 1, axis=1))
s2 = jnp.einsum("h,h->", qs[0, 4, 0], ks[0, 2, 0])
print("relative", jnp.allclose(s1, s2, atol=1e-4))


def loss(q, k, v):
    return jnp.sum(jax.nn.dot_product_attention(q, k, v, is_causal=True) ** 2)


gq, gk, gv = jax.grad(loss, argnums=(0, 1, 2))(q, k, v)
rq, rk, rv = jax.grad(lambda q, k, v: jnp.sum(reference(q, k, v, mask=causal) ** 2),
                      argnums=(0, 1, 2))(q, k, v)
print("grads", gk.shape, jnp.allclose(gq, rq, atol=1e-4), jnp.allclose(gk, rk, atol=1e-4),
      jnp.allclose(gv, rv, atol=1e-4))
print("dq", gq[0, 1, 0, :3])


def decode(q, k, v):
    cache_k = jnp.zeros((B, T, K, Hd))
    cache_v = jnp.zeros((B, T, K, Hd))

    def step(carry, t):
        ck, cv = carry
        ck = lax.dynamic_update_slice(ck, lax.dynamic_slice_in_dim(k, t, 1, axis=1), (0, t, 0, 0))
        cv = lax.dynamic_update_slice(cv, lax.dynamic_slice_in_dim(v, t, 1, axis=1), (0, t, 0, 0))
        qt = lax.dynamic_slice_in_dim(q, t, 1, axis=1)
        valid = (jnp.arange(T) <= t)[None, None, None, :]
        o = jax.nn.dot_product_attention(qt, ck, cv, mask=valid)
        return (ck, cv), o[:, 0]

    _, outs = lax.scan(step, (cache_k, cache_v), jnp.arange(T))
    return jnp.swapaxes(outs, 0, 1)


dec = jax.jit(decode)(q, k, v)
print("kv-cache decode == causal", jnp.allclose(dec, out_c, atol=1e-5))
try:
    jax.nn.dot_product_attention(q, k[:, :, :1, :3], v)
except ValueError:
    print("ValueError raised")
