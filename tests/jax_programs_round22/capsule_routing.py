"""Capsule networks' dynamic routing by agreement as paper re-implementations write it in JAX:
primary capsules from a linear map, the squash nonlinearity (with the safe-norm epsilon),
prediction vectors u_hat by jnp.einsum with a per-pair weight tensor, routing logits updated
for three iterations in lax.fori_loop with softmax over the parent capsules and agreement by
einsum, jax.lax.stop_gradient on the routing coefficients in the inner iterations (as the
reference implementation does), the margin loss on capsule lengths, reconstruction masking
by one-hot, and training on a toy 4-class problem with a jitted Adam written with tree.map."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax

jnp.set_printoptions(precision=4, suppress=True)
IN_DIM, N_PRIMARY, D_PRIMARY, N_CLASSES, D_CLASS = 16, 8, 4, 4, 6


def squash(s, axis=-1, eps=1e-7):
    sq = jnp.sum(s**2, axis=axis, keepdims=True)
    return sq / (1.0 + sq) * s / jnp.sqrt(sq + eps)


v = squash(jnp.array([[3.0, 4.0], [0.0, 0.0], [0.3, 0.4]]))
print("squash lengths", jnp.linalg.norm(v, axis=-1), "zero stays zero", v[1])
print("squash grad at zero finite:", bool(jnp.all(jnp.isfinite(jax.jacfwd(squash)(jnp.zeros(2))))))


def init(key):
    k1, k2, k3 = jax.random.split(key, 3)
    return {
        "primary": jax.random.normal(k1, (IN_DIM, N_PRIMARY * D_PRIMARY)) / jnp.sqrt(IN_DIM),
        "W": 0.5 * jax.random.normal(k2, (N_PRIMARY, N_CLASSES, D_CLASS, D_PRIMARY)),
        "decoder": jax.random.normal(k3, (N_CLASSES * D_CLASS, IN_DIM)) * 0.1,
    }


def route(u_hat, iterations=3, detach=True):
    b = jnp.zeros(u_hat.shape[:2])

    def body(i, b):
        c = jax.nn.softmax(b, axis=1)
        u = lax.stop_gradient(u_hat) if detach else u_hat
        v = squash(jnp.einsum("ij,ijd->jd", c, u))
        return b + jnp.einsum("ijd,jd->ij", u, v)

    b = lax.fori_loop(0, iterations - 1, body, b)
    c = jax.nn.softmax(b, axis=1)
    return squash(jnp.einsum("ij,ijd->jd", c, u_hat)), c


def forward(params, x):
    p = (x @ params["primary"]).reshape(N_PRIMARY, D_PRIMARY)
    p = squash(p)
    u_hat = jnp.einsum("ijdk,ik->ijd", params["W"], p)
    return route(u_hat)


def margin_loss(lengths, label, m_plus=0.9, m_minus=0.1, lam=0.5):
    t = jax.nn.one_hot(label, N_CLASSES)
    return jnp.sum(
        t * jax.nn.relu(m_plus - lengths) ** 2 + lam * (1 - t) * jax.nn.relu(lengths - m_minus) ** 2
    )


def loss(params, x, label):
    v, _ = forward(params, x)
    lengths = jnp.linalg.norm(v, axis=-1)
    masked = v * jax.nn.one_hot(label, N_CLASSES)[:, None]
    recon = jnp.tanh(masked.reshape(-1) @ params["decoder"])
    return margin_loss(lengths, label) + 0.05 * jnp.sum((recon - jnp.tanh(x)) ** 2)


key = jax.random.PRNGKey(8)
k_init, k_proto, k_x = jax.random.split(key, 3)
params = init(k_init)
print({k: v.shape for k, v in params.items()})
protos = 2.0 * jax.random.normal(k_proto, (N_CLASSES, IN_DIM))
labels = jnp.tile(jnp.arange(N_CLASSES), 16)
X = protos[labels] + 0.8 * jax.random.normal(k_x, (labels.shape[0], IN_DIM))

v, c = forward(params, X[0])
print(
    "class capsules",
    v.shape,
    "coupling coefficients",
    c.shape,
    "rows sum to 1:",
    bool(jnp.allclose(c.sum(1), 1.0, atol=1e-5)),
)
u_hat = jnp.einsum(
    "ijdk,ik->ijd", params["W"], squash((X[0] @ params["primary"]).reshape(N_PRIMARY, D_PRIMARY))
)
g_det = jax.grad(lambda u: jnp.sum(route(u, detach=True)[0]))(u_hat)
g_full = jax.grad(lambda u: jnp.sum(route(u, detach=False)[0]))(u_hat)
print(
    "stop_gradient changes the gradient:",
    bool(~jnp.allclose(g_det, g_full)),
    "norms",
    f"{float(jnp.linalg.norm(g_det)):.5f}",
    f"{float(jnp.linalg.norm(g_full)):.5f}",
)


def batch_loss(params, X, y):
    return jnp.mean(jax.vmap(loss, in_axes=(None, 0, 0))(params, X, y))


@partial(jax.jit, donate_argnums=(0, 1))
def adam_step(params, state, t, X, y):
    value, g = jax.value_and_grad(batch_loss)(params, X, y)
    m = jax.tree.map(lambda m, g: 0.9 * m + 0.1 * g, state["m"], g)
    s = jax.tree.map(lambda s, g: 0.999 * s + 0.001 * g**2, state["s"], g)
    mhat = jax.tree.map(lambda m: m / (1 - 0.9**t), m)
    shat = jax.tree.map(lambda s: s / (1 - 0.999**t), s)
    params = jax.tree.map(lambda p, a, b: p - 0.01 * a / (jnp.sqrt(b) + 1e-8), params, mhat, shat)
    return params, {"m": m, "s": s}, value


state = {"m": jax.tree.map(jnp.zeros_like, params), "s": jax.tree.map(jnp.zeros_like, params)}
for t in range(1, 151):
    params, state, value = adam_step(params, state, t, X, labels)
    if t % 50 == 0:
        print(f"step {t} loss {float(value):.4f}")
lengths = jnp.linalg.norm(jax.vmap(lambda x: forward(params, x)[0])(X), axis=-1)
print("train accuracy", f"{float(jnp.mean(jnp.argmax(lengths, 1) == labels)):.3f}")
print(
    "mean capsule length of the true / other classes",
    f"{float(jnp.mean(lengths[jnp.arange(64), labels])):.3f}",
    f"{float(jnp.nanmean(jnp.where(jax.nn.one_hot(labels, 4) > 0, jnp.nan, lengths))):.3f}",
)
_, c = forward(params, X[1])
print("coupling coefficients after training (primary x class)\n", c)
