"""A physics-informed neural network (PINN) for a 1-D Poisson problem, and differentially
private SGD (as in the "per-example gradients" and DP-SGD tutorials): second derivatives
of an MLP with jacfwd(jacrev) and hessian, residuals vmapped over collocation points,
boundary losses, per-example gradients with vmap(grad), per-example clipping by the
global norm, Gaussian noise from split keys, and the Laplacian of a 2-D network."""

import jax
import jax.numpy as jnp
from jax import random
from jax.flatten_util import ravel_pytree


def init_mlp(key, sizes):
    params = []
    for k, (m, n) in zip(random.split(key, len(sizes) - 1), zip(sizes[:-1], sizes[1:])):
        w = random.normal(k, (m, n)) * jnp.sqrt(1.0 / m)
        params.append((w, jnp.zeros(n)))
    return params


def mlp(params, x):
    for w, b in params[:-1]:
        x = jnp.tanh(x @ w + b)
    w, b = params[-1]
    return (x @ w + b).squeeze(-1)


params = init_mlp(random.PRNGKey(0), [1, 16, 16, 1])
u = lambda p, x: mlp(p, jnp.atleast_1d(x))  # noqa: E731
u_x = jax.grad(u, argnums=1)
u_xx = jax.grad(u_x, argnums=1)
xs = jnp.linspace(0.0, 1.0, 16)
print("u", u(params, 0.5), "u_x", u_x(params, 0.5), "u_xx", u_xx(params, 0.5))
print("jacfwd(jacrev)", jax.jacfwd(jax.jacrev(u, argnums=1), argnums=1)(params, 0.5))
print("hessian", jax.hessian(u, argnums=1)(params, 0.5))


# -u'' = pi^2 sin(pi x), u(0) = u(1) = 0: u = sin(pi x)
def pinn_loss(p):
    res = -jax.vmap(u_xx, (None, 0))(p, xs) - jnp.pi ** 2 * jnp.sin(jnp.pi * xs)
    bc = u(p, 0.0) ** 2 + u(p, 1.0) ** 2
    return jnp.mean(res ** 2) + 10.0 * bc


print("pinn loss", pinn_loss(params))
lr = 2e-3
opt = jax.jit(lambda p: jax.tree_util.tree_map(lambda a, g: a - lr * g, p, jax.grad(pinn_loss)(p)))
for _ in range(30):
    params = opt(params)
print("after 30 steps", pinn_loss(params))
flat, unravel = ravel_pytree(params)
print("flat", flat.shape, flat.dtype, jnp.allclose(ravel_pytree(unravel(flat))[0], flat))


# Laplacian of a 2-D network through the Hessian's trace
p2 = init_mlp(random.PRNGKey(1), [2, 8, 1])
lap = lambda x: jnp.trace(jax.hessian(lambda y: mlp(p2, y))(x))  # noqa: E731
pts = jnp.array([[0.1, 0.2], [0.5, -0.3], [1.0, 1.0]])
print("laplacian", jax.vmap(lap)(pts))
print("jvp-of-grad",
      jax.vmap(lambda x: jax.jvp(jax.grad(lambda y: mlp(p2, y)), (x,), (jnp.ones(2),))[1])(pts))

# DP-SGD on logistic regression
key = random.PRNGKey(2)
kx, kw = random.split(key)
X = random.normal(kx, (32, 4))
y = (X @ jnp.array([1.0, -1.0, 0.5, 0.0]) > 0).astype(jnp.float32)
w = {"w": jnp.zeros(4), "b": jnp.zeros(())}


def example_loss(w, x, t):
    logit = x @ w["w"] + w["b"]
    return jax.nn.softplus(logit) - t * logit


per_example = jax.vmap(jax.grad(example_loss), in_axes=(None, 0, 0))
g = per_example(w, X, y)
print("per-example shapes", jax.tree_util.tree_map(jnp.shape, g))


def clip(g, c):
    norm = jnp.sqrt(sum(jnp.sum(l ** 2) for l in jax.tree_util.tree_leaves(g)))
    return jax.tree_util.tree_map(lambda l: l * jnp.minimum(1.0, c / (norm + 1e-12)), g), norm


@jax.jit
def dp_step(w, key, X, y):
    g = per_example(w, X, y)
    g, norms = jax.vmap(clip, in_axes=(0, None))(g, 0.5)
    leaves, tree = jax.tree_util.tree_flatten(g)
    keys = random.split(key, len(leaves))
    noisy = [l.sum(0) + 0.1 * 0.5 * random.normal(k, l.shape[1:]) for l, k in zip(leaves, keys)]
    g = jax.tree_util.tree_unflatten(tree, noisy)
    return jax.tree_util.tree_map(lambda a, b: a - 0.5 * b / X.shape[0], w, g), norms


for i in range(5):
    key, sub = random.split(key)
    w, norms = dp_step(w, sub, X, y)
    print(i, jnp.mean(jax.vmap(example_loss, (None, 0, 0))(w, X, y)), norms.max())
print("w", w)
