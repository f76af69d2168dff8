"""A diagonal state-space layer (S4D/LRU-style, as in the "Annotated S4" and linear-RNN
papers' JAX code) and mixed-precision training: complex diagonal recurrences discretized by
zero-order hold, the recurrence by lax.associative_scan against lax.scan and against an
FFT convolution, jax.checkpoint with a policy inside scan, bfloat16 matmuls with
preferred_element_type, lax.reduce_precision, dynamic loss scaling, and random draws from
multivariate_normal/dirichlet/gamma/orthogonal."""

import jax
import jax.numpy as jnp
from jax import lax, random

N, H, L = 4, 3, 16
key = random.PRNGKey(0)
k1, k2, k3, k4 = random.split(key, 4)
log_dt = jnp.log(jnp.linspace(0.01, 0.1, H))
A = -0.5 + 1j * jnp.pi * jnp.arange(N)
B = random.normal(k1, (H, N)) + 0j
C = random.normal(k2, (H, N)) + 1j * random.normal(k3, (H, N))
u = random.normal(k4, (L, H))


def discretize(A, B, dt):
    dA = jnp.exp(dt * A)
    dB = (dA - 1.0) / A * B
    return dA, dB


dA, dB = jax.vmap(discretize, in_axes=(None, 0, 0))(A, B, jnp.exp(log_dt))
print("dA", dA.shape, dA.dtype, jnp.abs(dA[0]))


def scan_ssm(dA, dB, C, u):
    def step(x, u_t):
        x = dA * x + dB * u_t
        return x, jnp.real(jnp.sum(C * x))
    return lax.scan(step, jnp.zeros(N, dA.dtype), u)[1]


def assoc_ssm(dA, dB, C, u):
    elems = (jnp.broadcast_to(dA, (L, N)), dB[None] * u[:, None])

    def combine(a, b):
        return b[0] * a[0], b[0] * a[1] + b[1]

    _, xs = lax.associative_scan(combine, elems)
    return jnp.real(xs @ C)


def conv_ssm(dA, dB, C, u):
    K = jnp.real(jnp.einsum("n,ln->l", C * dB, dA[None] ** jnp.arange(L)[:, None]))
    n = 2 * L
    return jnp.fft.irfft(jnp.fft.rfft(u, n) * jnp.fft.rfft(K, n), n)[:L]


y_scan = jax.vmap(scan_ssm, in_axes=(0, 0, 0, 1), out_axes=1)(dA, dB, C, u)
y_assoc = jax.vmap(assoc_ssm, in_axes=(0, 0, 0, 1), out_axes=1)(dA, dB, C, u)
y_conv = jax.vmap(conv_ssm, in_axes=(0, 0, 0, 1), out_axes=1)(dA, dB, C, u)
print("y", y_scan.shape, y_scan.dtype, y_scan[L - 1])
print("assoc == scan", jnp.allclose(y_assoc, y_scan, atol=1e-4),
      "conv == scan", jnp.allclose(y_conv, y_scan, atol=1e-4))


def layer_loss(log_dt, C):
    dA, dB = jax.vmap(discretize, in_axes=(None, 0, 0))(A, B, jnp.exp(log_dt))
    y = jax.vmap(assoc_ssm, in_axes=(0, 0, 0, 1), out_axes=1)(dA, dB, C, u)
    return jnp.mean(y ** 2)


g_dt, g_C = jax.grad(layer_loss, argnums=(0, 1))(log_dt, C)
print("grad log_dt", g_dt, "grad C", g_C.dtype, g_C[0, :2])

# remat in a scanned deep stack
Ws = random.normal(random.PRNGKey(5), (6, 8, 8)) / jnp.sqrt(8.0)


def block(h, W):
    return jnp.tanh(h @ W), None


def deep(Ws, h, policy):
    body = jax.checkpoint(block, policy=policy) if policy is not None else block
    return lax.scan(body, h, Ws)[0].sum()


h0 = jnp.linspace(-1.0, 1.0, 8)
g_plain = jax.grad(deep)(Ws, h0, None)
g_remat = jax.grad(deep)(Ws, h0, jax.checkpoint_policies.nothing_saveable)
g_dots = jax.grad(deep)(Ws, h0, jax.checkpoint_policies.dots_with_no_batch_dims_saveable)
print("remat", jnp.allclose(g_plain, g_remat, atol=1e-6), jnp.allclose(g_plain, g_dots, atol=1e-6),
      g_plain[0, 0])

# mixed precision
X = random.normal(random.PRNGKey(6), (32, 8))
Y = X @ jnp.arange(8.0).reshape(8, 1) / 8.0
W = jnp.zeros((8, 1))


def mp_loss(W, scale):
    Xb, Wb = X.astype(jnp.bfloat16), W.astype(jnp.bfloat16)
    pred = lax.dot_general(Xb, Wb, (((1,), (0,)), ((), ())), preferred_element_type=jnp.float32)
    return jnp.mean((pred - Y) ** 2) * scale


print("bf16 dot", lax.dot(X[:2].astype(jnp.bfloat16), X[:2].T.astype(jnp.bfloat16)).dtype,
      jnp.matmul(X[:2].astype(jnp.bfloat16), jnp.ones((8, 1), jnp.bfloat16),
                 preferred_element_type=jnp.float32).dtype)
scale = jnp.float32(2.0 ** 10)
for _ in range(5):
    g = jax.grad(mp_loss)(W, scale) / scale
    finite = jnp.all(jnp.isfinite(g))
    W = jnp.where(finite, W - 0.1 * g, W)
    scale = jnp.where(finite, scale * 2.0, scale / 2.0)
print("mp loss", mp_loss(W, 1.0), W.dtype, scale)
print("reduce_precision", lax.reduce_precision(jnp.float32(1.0 / 3.0), exponent_bits=8, mantissa_bits=7),
      jnp.float32(1.0 / 3.0).astype(jnp.bfloat16))
print("bf16 math", (jnp.bfloat16(1.5) * jnp.bfloat16(3.25)).dtype, jnp.sum(jnp.ones(300, jnp.bfloat16)),
      jnp.finfo(jnp.bfloat16).eps, jnp.finfo(jnp.float16).max)

# distributions
mvn = random.multivariate_normal(random.PRNGKey(7), jnp.array([1.0, -1.0]),
                                 jnp.array([[1.0, 0.5], [0.5, 2.0]]), (3,))
print("mvn", mvn.shape, mvn)
print("dirichlet", random.dirichlet(random.PRNGKey(8), jnp.array([1.0, 2.0, 3.0]), (2,)))
print("gamma", random.gamma(random.PRNGKey(9), jnp.array([0.5, 2.0, 10.0])))
print("orthogonal", random.orthogonal(random.PRNGKey(10), 3).shape, random.ball(random.PRNGKey(11), 3).shape)
print("t", random.t(random.PRNGKey(12), 4.0, (3,)), random.laplace(random.PRNGKey(13), (2,)))
