"""A Mamba-style selective state-space layer in pure JAX: input-dependent step sizes
(softplus), zero-order-hold discretization exp(delta * A), the linear recurrence
h_t = a_t * h_{t-1} + b_t computed three ways -- lax.associative_scan with a binary
operator on (a, b) pairs, a sequential lax.scan, and a reverse associative scan -- a causal
depthwise conv1d by lax.conv_general_dilated with left padding, gating by SiLU, vmap over
a batch, gradients through the associative scan checked against the sequential one, and a
few steps of training on a copy-delay task."""

import jax
import jax.numpy as jnp
from jax import lax, random

D_MODEL, D_STATE, D_CONV, T = 4, 6, 3, 24


def binop(left, right):
    a1, b1 = left
    a2, b2 = right
    return a1 * a2, a2 * b1 + b2


def recurrence_assoc(a, b, reverse=False):
    return lax.associative_scan(binop, (a, b), reverse=reverse, axis=0)[1]


def recurrence_seq(a, b):
    def step(h, ab):
        h = ab[0] * h + ab[1]
        return h, h
    return lax.scan(step, jnp.zeros_like(b[0]), (a, b))[1]


def init(key):
    ks = random.split(key, 6)
    A_log = jnp.log(jnp.tile(jnp.arange(1, D_STATE + 1, dtype=jnp.float32), (D_MODEL, 1)))
    return {
        "A_log": A_log,
        "W_in": random.normal(ks[0], (1, 2 * D_MODEL)) * 0.5,
        "conv": random.normal(ks[1], (D_CONV, 1, D_MODEL)) * 0.5,
        "W_dt": random.normal(ks[2], (D_MODEL, D_MODEL)) * 0.3,
        "b_dt": jnp.full((D_MODEL,), -1.0),
        "W_B": random.normal(ks[3], (D_MODEL, D_STATE)) * 0.3,
        "W_C": random.normal(ks[4], (D_MODEL, D_STATE)) * 0.3,
        "D": jnp.ones(D_MODEL),
        "W_out": random.normal(ks[5], (D_MODEL, 1)) * 0.5,
    }


def causal_conv(x, w):
    # x: (T, D), depthwise conv with left padding so the output at t sees only <= t
    y = lax.conv_general_dilated(x[None], w, (1,), [(D_CONV - 1, 0)],
                                 dimension_numbers=("NWC", "WIO", "NWC"),
                                 feature_group_count=D_MODEL)
    return y[0]


def mamba(params, u, scan="assoc"):
    xz = u @ params["W_in"]                                  # (T, 2D)
    x, z = jnp.split(xz, 2, axis=-1)
    x = jax.nn.silu(causal_conv(x, params["conv"]))
    delta = jax.nn.softplus(x @ params["W_dt"] + params["b_dt"])  # (T, D)
    A = -jnp.exp(params["A_log"])                             # (D, N)
    Bt = x @ params["W_B"]                                    # (T, N)
    Ct = x @ params["W_C"]
    a = jnp.exp(delta[..., None] * A)                         # (T, D, N)
    b = delta[..., None] * Bt[:, None, :] * x[..., None]
    h = recurrence_assoc(a, b) if scan == "assoc" else recurrence_seq(a, b)
    y = jnp.einsum("tdn,tn->td", h, Ct) + params["D"] * x
    y = y * jax.nn.silu(z)
    return y @ params["W_out"]


key = random.PRNGKey(0)
a = random.uniform(key, (T, 3), minval=0.5, maxval=1.0)
b = random.normal(random.PRNGKey(1), (T, 3))
h1, h2 = recurrence_assoc(a, b), recurrence_seq(a, b)
print("assoc vs seq max diff small:", bool(jnp.max(jnp.abs(h1 - h2)) < 1e-5))
print("h last:", h1[-1])
print("cumsum by associative_scan:", lax.associative_scan(jnp.add, jnp.arange(8.0)))
print("reverse cumprod:", lax.associative_scan(jnp.multiply, jnp.arange(1.0, 6.0), reverse=True))
hr = recurrence_assoc(a, b, reverse=True)
print("reverse recurrence first:", hr[0])
nested = lax.associative_scan(lambda x, y: {"s": x["s"] + y["s"], "m": jnp.maximum(x["m"], y["m"])},
                              {"s": jnp.arange(6.0), "m": jnp.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0])})
print("pytree scan:", nested["s"], nested["m"])
print("2-D axis=1:", lax.associative_scan(jnp.add, jnp.arange(12.0).reshape(3, 4), axis=1))

params = init(random.PRNGKey(2))
u = random.normal(random.PRNGKey(3), (T, 1))
y_a = mamba(params, u)
y_s = mamba(params, u, scan="seq")
print("layer output:", y_a[:4, 0])
print("layers agree:", bool(jnp.allclose(y_a, y_s, atol=1e-5)))
causal = jax.jacrev(lambda v: mamba(params, v)[:, 0])(u)[..., 0]
print("causal (upper triangle zero):", bool(jnp.all(jnp.triu(causal, 1) == 0)))

batch = random.normal(random.PRNGKey(4), (8, T, 1))
target = jnp.roll(batch, 2, axis=1).at[:, :2].set(0.0)


def loss(params, scan):
    pred = jax.vmap(lambda v: mamba(params, v, scan))(batch)
    return jnp.mean((pred - target) ** 2)


ga = jax.grad(loss)(params, "assoc")
gs = jax.grad(loss)(params, "seq")
close = jax.tree_util.tree_map(lambda x, y: bool(jnp.allclose(x, y, rtol=1e-4, atol=1e-6)), ga, gs)
print("grads agree:", close)
print("grad A_log norm:", jnp.linalg.norm(ga["A_log"]))

step = jax.jit(lambda p: jax.tree_util.tree_map(lambda w, d: w - 0.1 * d, p, jax.grad(loss)(p, "assoc")))
for i in range(40):
    params = step(params)
    if i % 10 == 0:
        print(f"step {i}: loss {loss(params, 'assoc'):.5f}")
print("final loss:", loss(params, "assoc"))
