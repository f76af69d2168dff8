"""Sharpness-aware minimization (Foret et al.) in the style of the google-research/sam code
written in JAX: a global gradient norm by jax.tree_util.tree_reduce, the adversarial weight
perturbation eps = rho g / |g| applied with tree_map, the SAM gradient at the perturbed point,
m-sharpness by jax.vmap over micro-batches (in_axes with None for the parameters), SGD with
momentum from jax.example_libraries.optimizers for both rules, and the sharpness of the minima
found: the top Hessian eigenvalue by power iteration on Hessian-vector products (jvp of grad
on a ravel_pytree vector) against jnp.linalg.eigvalsh of the full jax.hessian, and the loss
increase under random perturbations of fixed norm."""

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.example_libraries import optimizers
from jax.flatten_util import ravel_pytree

jnp.set_printoptions(precision=4, suppress=True)

key = random.PRNGKey(5)
k_x, k_noise, k_init, k_dir = random.split(key, 4)
X = random.normal(k_x, (96, 2))
labels = ((X[:, 0] ** 2 + X[:, 1] ** 2) < 1.2).astype(jnp.float32)
labels = jnp.where(random.uniform(k_noise, labels.shape) < 0.1, 1.0 - labels, labels)  # label noise


def init(key, sizes=(2, 12, 1)):
    keys = random.split(key, len(sizes) - 1)
    return [{"w": random.normal(k, (m, n)) * jnp.sqrt(1.0 / m), "b": jnp.zeros(n)}
            for k, m, n in zip(keys, sizes[:-1], sizes[1:])]


def logits(params, x):
    for layer in params[:-1]:
        x = jnp.tanh(x @ layer["w"] + layer["b"])
    return (x @ params[-1]["w"] + params[-1]["b"])[..., 0]


def loss(params, x, y):
    z = logits(params, x)
    return jnp.mean(jax.nn.softplus(z) - y * z)


def global_norm(tree):
    return jnp.sqrt(jax.tree_util.tree_reduce(lambda acc, g: acc + jnp.sum(g * g), tree, 0.0))


def sam_gradient(params, x, y, rho):
    g = jax.grad(loss)(params, x, y)
    scale = rho / (global_norm(g) + 1e-12)
    perturbed = jax.tree_util.tree_map(lambda p, gi: p + scale * gi, params, g)
    return jax.grad(loss)(perturbed, x, y)


def m_sam_gradient(params, x, y, rho, m):
    """m-sharpness: a separate perturbation per micro-batch of size m, gradients averaged."""
    xs, ys = x.reshape(-1, m, x.shape[-1]), y.reshape(-1, m)
    grads = jax.vmap(sam_gradient, in_axes=(None, 0, 0, None))(params, xs, ys, rho)
    return jax.tree_util.tree_map(lambda g: g.mean(axis=0), grads)


params0 = init(k_init)
print("parameters", sum(p.size for p in jax.tree_util.tree_leaves(params0)),
      "global norm", f"{float(global_norm(params0)):.4f}")
g = jax.grad(loss)(params0, X, labels)
print("tree_reduce norm equals ravel_pytree norm:",
      bool(jnp.allclose(global_norm(g), jnp.linalg.norm(ravel_pytree(g)[0]), rtol=1e-5)))
gs = sam_gradient(params0, X, labels, 0.05)
cos = jnp.dot(ravel_pytree(g)[0], ravel_pytree(gs)[0]) / (global_norm(g) * global_norm(gs))
print(f"cosine(SGD gradient, SAM gradient) at init {float(cos):.4f}")
# the first-order view: L(w + eps) - L(w) ~ rho |g|
rho = 0.01
eps = jax.tree_util.tree_map(lambda gi: rho * gi / global_norm(g), g)
rise = loss(jax.tree_util.tree_map(jnp.add, params0, eps), X, labels) - loss(params0, X, labels)
print(f"loss rise {float(rise):.3e} vs rho |g| {float(rho * global_norm(g)):.3e}")
gm = m_sam_gradient(params0, X, labels, 0.05, 16)
print("m-SAM gradient leaves", [tuple(a.shape) for a in jax.tree_util.tree_leaves(gm)])


def train(grad_fn, steps=300):
    opt_init, opt_update, get_params = optimizers.momentum(0.1, mass=0.9)

    @jax.jit
    def step(i, state):
        return opt_update(i, grad_fn(get_params(state)), state)

    state = lax.fori_loop(0, steps, step, opt_init(params0))
    return get_params(state)


trained = {
    "SGD": train(lambda p: jax.grad(loss)(p, X, labels)),
    "SAM rho=0.05": train(lambda p: sam_gradient(p, X, labels, 0.05)),
    "m-SAM m=16": train(lambda p: m_sam_gradient(p, X, labels, 0.05, 16)),
}


def top_eigenvalue(params, iters=50):
    flat, unravel = ravel_pytree(params)
    f = lambda v: loss(unravel(v), X, labels)
    hvp = lambda v: jax.jvp(jax.grad(f), (flat,), (v,))[1]

    def body(_, v):
        w = hvp(v)
        return w / jnp.linalg.norm(w)

    v = lax.fori_loop(0, iters, body, jnp.ones_like(flat) / jnp.sqrt(flat.size))
    return jnp.dot(v, hvp(v)), jnp.linalg.eigvalsh(jax.hessian(f)(flat))


directions = random.normal(k_dir, (20, ravel_pytree(params0)[0].size))
directions = directions / jnp.linalg.norm(directions, axis=1, keepdims=True)
for name, params in trained.items():
    lam, eigs = top_eigenvalue(params)
    flat, unravel = ravel_pytree(params)
    base = loss(params, X, labels)
    bumps = jax.vmap(lambda d: loss(unravel(flat + 0.5 * d), X, labels))(directions) - base
    accuracy = jnp.mean((logits(params, X) > 0) == (labels > 0.5))
    print(f"{name:13s} loss {float(base):.4f} accuracy {float(accuracy):.3f} "
          f"top eigenvalue {float(lam):.4f} (eigvalsh {float(eigs[-1]):.4f}) "
          f"mean rise at radius 0.5 {float(bumps.mean()):.4f}")
