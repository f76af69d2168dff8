"""Quantization-aware training as in an AQT-style tutorial: symmetric per-channel int8
quantization (round, clip, astype(jnp.int8)), integer matmuls by lax.dot_general with
preferred_element_type=jnp.int32 and jnp.matmul(preferred_element_type=...), dequantization,
a straight-through estimator written with jax.custom_jvp and with the stop_gradient trick, a
small QAT training loop under jit, and int4 packing with bit operations."""

import jax
import jax.numpy as jnp
from jax import lax, random

jnp.set_printoptions(precision=5, suppress=True)


def quantize(x, axis, bits=8):
    qmax = 2 ** (bits - 1) - 1
    scale = jnp.max(jnp.abs(x), axis=axis, keepdims=True) / qmax
    scale = jnp.where(scale == 0, 1.0, scale)
    q = jnp.clip(jnp.round(x / scale), -qmax, qmax).astype(jnp.int8)
    return q, scale


key = random.PRNGKey(3)
k1, k2, k3, k4 = random.split(key, 4)
x = random.normal(k1, (4, 16))
w = random.normal(k2, (16, 5)) * 0.3
qx, sx = quantize(x, axis=1)
qw, sw = quantize(w, axis=0)
print("qx", qx.dtype, qx.shape, "sx", sx.shape, "qw", qw.dtype, qw.shape, "sw", sw.shape)
print("qx[0]", qx[0])
acc = lax.dot_general(qx, qw, (((1,), (0,)), ((), ())), preferred_element_type=jnp.int32)
print("acc dtype", acc.dtype, "acc[0]", acc[0])
acc2 = jnp.matmul(qx, qw, preferred_element_type=jnp.int32)
print("matmul agrees:", bool(jnp.array_equal(acc, acc2)))
y_q = acc.astype(jnp.float32) * sx * sw
y = x @ w
print("dequantized\n", y_q[:2])
rel = jnp.linalg.norm(y_q - y) / jnp.linalg.norm(y)
print(f"max abs error {jnp.max(jnp.abs(y_q - y)):.5f}  relative {rel:.5f}")
# int8 arithmetic wraps; widening first does not
a8 = jnp.array([100, -100, 127], dtype=jnp.int8)
print("int8 sum wraps:", a8 + a8, " widened:", a8.astype(jnp.int16) + a8)
print("int8 dot with int32 accumulation:", jnp.dot(a8, a8, preferred_element_type=jnp.int32))


@jax.custom_jvp
def ste_round(x):
    return jnp.round(x)


@ste_round.defjvp
def _ste_round_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return jnp.round(x), t


def fake_quant(x, axis, bits=8, ste="custom_jvp"):
    qmax = 2 ** (bits - 1) - 1
    scale = lax.stop_gradient(jnp.max(jnp.abs(x), axis=axis, keepdims=True) / qmax)
    if ste == "custom_jvp":
        r = ste_round(x / scale)
    else:
        r = x / scale + lax.stop_gradient(jnp.round(x / scale) - x / scale)
    return jnp.clip(r, -qmax, qmax) * scale


g1 = jax.grad(lambda v: jnp.sum(fake_quant(v, 0) ** 2))(w[:, 0])
g2 = jax.grad(lambda v: jnp.sum(fake_quant(v, 0, ste="sg") ** 2))(w[:, 0])
print("STE grads agree:", bool(jnp.allclose(g1, g2)), g1[:4])
print("plain round grad:", jax.grad(lambda v: jnp.round(v).sum())(jnp.array([0.3, 1.7])))

# QAT: a 2-layer MLP regression with 4-bit fake-quantized weights
X = random.normal(k3, (64, 16))
Y = jnp.sin(X[:, :2].sum(1, keepdims=True)) + 0.1 * X[:, 2:3]
params = {"w1": random.normal(k4, (16, 32)) * 0.25, "b1": jnp.zeros(32),
          "w2": random.normal(random.fold_in(k4, 1), (32, 1)) * 0.2, "b2": jnp.zeros(1)}


def mlp(p, X, bits):
    h = jax.nn.gelu(X @ fake_quant(p["w1"], 0, bits) + p["b1"], approximate=True)
    return h @ fake_quant(p["w2"], 0, bits) + p["b2"]


def loss(p, bits):
    return jnp.mean((mlp(p, X, bits) - Y) ** 2)


@jax.jit
def train_step(p):
    l, g = jax.value_and_grad(loss)(p, 4)
    return jax.tree.map(lambda a, b: a - 0.05 * b, p, g), l


for i in range(60):
    params, l = train_step(params)
    if i % 20 == 0 or i == 59:
        print(f"qat step {i:2d} loss {l:.5f}")
print(f"4-bit loss {loss(params, 4):.5f}, 8-bit {loss(params, 8):.5f}")


# pack pairs of int4 values into uint8 and unpack them
def pack_int4(q):
    u = (q.astype(jnp.int32) & 0xF).astype(jnp.uint8)
    return u[0::2] | (u[1::2] << 4)


def unpack_int4(p):
    lo = (p & 0xF).astype(jnp.int8)
    hi = (p >> 4).astype(jnp.int8)
    lo = jnp.where(lo > 7, lo - 16, lo)
    hi = jnp.where(hi > 7, hi - 16, hi)
    return jnp.stack([lo, hi], axis=1).reshape(-1)


q4, s4 = quantize(params["w2"][:, 0], axis=0, bits=4)
packed = pack_int4(q4)
print("int4", q4[:8], "packed", packed[:4], packed.dtype)
print("unpack roundtrip:", bool(jnp.array_equal(unpack_int4(packed), q4)))
print("bit counts", lax.population_count(packed[:6]), "clz", lax.clz(packed[:6]))
