"""A deep equilibrium model (Bai et al., 2019) in JAX, following the implicit-layers
tutorial style: the fixed point z* = tanh(W z* + U x + b) found by Anderson acceleration
inside lax.while_loop, gradients through the fixed point by jax.custom_vjp with the adjoint
fixed point solved the same way (never differentiating the solver), checked against
unrolled differentiation of many plain iterations and against finite differences, vmapped
over a batch, and trained for a few steps on a classification task with optax-free SGD."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax, random

H, D_IN, N_CLASSES = 16, 4, 3


def anderson(f, z0, m=5, lam=1e-4, max_iter=50, tol=1e-6, beta=1.0):
    n = z0.size
    f0 = f(z0)
    X = jnp.zeros((m, n), z0.dtype).at[0].set(z0.ravel()).at[1].set(f0.ravel())
    F = jnp.zeros((m, n), z0.dtype).at[0].set(f0.ravel()).at[1].set(f(f0).ravel())
    res = jnp.ones(max_iter, z0.dtype)

    def cond(state):
        k, _, _, res = state
        return (k < max_iter) & (res[k - 1] > tol)

    def body(state):
        k, X, F, res = state
        n_ = jnp.minimum(k, m)
        G = F - X
        mask = jnp.arange(m) < n_
        G = jnp.where(mask[:, None], G, 0.0)
        # unused slots decoupled (zero constraint row/column, unit diagonal): their alpha is 0
        GTG = G @ G.T + lam * jnp.eye(m) + jnp.diag(jnp.where(mask, 0.0, 1.0))
        ones = mask.astype(z0.dtype)
        H_ = jnp.block([[jnp.zeros((1, 1)), ones[None, :]],
                        [ones[:, None], GTG]])
        y = jnp.zeros(m + 1).at[0].set(1.0)
        alpha = jnp.linalg.solve(H_, y)[1:]
        alpha = jnp.where(mask, alpha, 0.0)
        x_new = beta * alpha @ F + (1 - beta) * alpha @ X
        f_new = f(x_new.reshape(z0.shape)).ravel()
        X = X.at[k % m].set(x_new)
        F = F.at[k % m].set(f_new)
        res = res.at[k].set(jnp.linalg.norm(f_new - x_new) / (1e-5 + jnp.linalg.norm(f_new)))
        return k + 1, X, F, res

    k, X, F, res = lax.while_loop(cond, body, (jnp.array(2), X, F, res))
    return X[(k - 1) % m].reshape(z0.shape), k, res[k - 1]


def layer(params, z, x):
    return jnp.tanh(params["W"] @ z + params["U"] @ x + params["b"])


@partial(jax.custom_vjp, nondiff_argnums=(0,))
def fixed_point(f, params, x, z_init):
    z, _, _ = anderson(lambda z: f(params, z, x), z_init)
    return z


def fixed_point_fwd(f, params, x, z_init):
    z = fixed_point(f, params, x, z_init)
    return z, (params, x, z)


def fixed_point_bwd(f, res, z_bar):
    params, x, z = res
    _, vjp_a = jax.vjp(lambda p, x: f(p, z, x), params, x)
    _, vjp_z = jax.vjp(lambda z: f(params, z, x), z)
    u, _, _ = anderson(lambda u: vjp_z(u)[0] + z_bar, z_bar)
    p_bar, x_bar = vjp_a(u)
    return p_bar, x_bar, jnp.zeros_like(z)


fixed_point.defvjp(fixed_point_fwd, fixed_point_bwd)


def deq(params, x):
    z = fixed_point(layer, params, x, jnp.zeros(H))
    return params["out"] @ z


def unrolled(params, x, n=200):
    z = lax.fori_loop(0, n, lambda i, z: layer(params, z, x), jnp.zeros(H))
    return params["out"] @ z


key = random.PRNGKey(0)
kw, ku, ko, kx, kc = random.split(key, 5)
W = random.normal(kw, (H, H))
W = 0.5 * W / jnp.linalg.norm(W, 2)  # a contraction: the fixed point exists and is unique
params = {"W": W, "U": random.normal(ku, (H, D_IN)) * 0.5, "b": jnp.zeros(H),
          "out": random.normal(ko, (N_CLASSES, H)) * 0.5}
x = random.normal(kx, (D_IN,))
z, iters, res = anderson(lambda z: layer(params, z, x), jnp.zeros(H))
print("anderson iterations", iters, "residual small", res < 1e-5)
print("fixed point residual", jnp.linalg.norm(layer(params, z, x) - z) < 1e-5)
print("deq output", deq(params, x), "unrolled", unrolled(params, x))

loss_deq = lambda p, x: jnp.sum(jnp.sin(deq(p, x)))  # noqa: E731
loss_unr = lambda p, x: jnp.sum(jnp.sin(unrolled(p, x)))  # noqa: E731
g_deq = jax.grad(loss_deq)(params, x)
g_unr = jax.grad(loss_unr)(params, x)
print("implicit grad vs unrolled grad (max abs diff < 1e-4)", {
    k: bool(jnp.max(jnp.abs(g_deq[k] - g_unr[k])) < 1e-4) for k in g_deq})
gx = jax.grad(loss_deq, argnums=1)(params, x)
eps = 1e-3 if jnp.zeros(()).dtype == jnp.float32 else 1e-6
e0 = jnp.zeros(D_IN).at[0].set(eps)
fd = (loss_deq(params, x + e0) - loss_deq(params, x - e0)) / (2 * eps)
print("input grad", gx[0], "agrees with a central difference", jnp.abs(gx[0] - fd) < 1e-2)

X = random.normal(kc, (48, D_IN))
labels = jnp.argmax(X[:, :N_CLASSES] + 0.3 * X[:, 1:N_CLASSES + 1], axis=1)


def batch_loss(p):
    logits = jax.vmap(deq, in_axes=(None, 0))(p, X)
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), labels[:, None], 1)), logits


step = jax.jit(jax.value_and_grad(batch_loss, has_aux=True))
for i in range(40):
    (loss, logits), g = step(params)
    params = jax.tree.map(lambda p, g: p - 0.5 * g, params, g)
    params["W"] = params["W"] * jnp.minimum(1.0, 0.9 / jnp.linalg.norm(params["W"], 2))
    if i % 10 == 0 or i == 39:
        print(f"step {i:2d} loss {loss:.5f} accuracy {jnp.mean(jnp.argmax(logits, 1) == labels):.4f}")
