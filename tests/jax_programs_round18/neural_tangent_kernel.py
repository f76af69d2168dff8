"""The empirical neural tangent kernel of a small MLP computed three ways, as in the
"Fast finite width NTK" tutorial: Jacobian contraction (jacrev per input, tree-mapped
einsum over parameter leaves), NTK-vector products (vmap of vjp then jvp), and the
implicit form with jax.linear_transpose; kernel regression with the NTK by
jnp.linalg.solve, the kernel's eigenvalues, and a check that gradient descent on the
linearized network (jax.linearize) follows the kernel prediction."""

import jax
import jax.numpy as jnp
import numpy as np
from jax import random

np.set_printoptions(precision=5, suppress=True)


def init(key, sizes):
    keys = random.split(key, len(sizes) - 1)
    return [{"w": random.normal(k, (m, n)) / jnp.sqrt(m), "b": jnp.zeros(n)}
            for k, m, n in zip(keys, sizes[:-1], sizes[1:])]


def mlp(params, x):
    for layer in params[:-1]:
        x = jnp.tanh(x @ layer["w"] + layer["b"])
    return x @ params[-1]["w"] + params[-1]["b"]


params = init(random.PRNGKey(0), [2, 16, 16, 1])
x1 = random.normal(random.PRNGKey(1), (5, 2))
x2 = random.normal(random.PRNGKey(2), (4, 2))
f = lambda p, x: mlp(p, x)[..., 0]


def ntk_jacobian(p, xa, xb):
    ja = jax.vmap(jax.jacrev(f), (None, 0))(p, xa)
    jb = jax.vmap(jax.jacrev(f), (None, 0))(p, xb)
    prods = jax.tree.map(lambda a, b: jnp.einsum("i...,j...->ij", a, b), ja, jb)
    return sum(jax.tree.leaves(prods))


def ntk_vp(p, xa, xb):
    _, vjp_b = jax.vjp(lambda q: f(q, xb), p)

    def column(e):
        (ct,) = vjp_b(e)
        return jax.jvp(lambda q: f(q, xa), (p,), (ct,))[1]

    return jax.vmap(column, out_axes=1)(jnp.eye(xb.shape[0]))


def ntk_transpose(p, xa, xb):
    lin = lambda t: jax.jvp(lambda q: f(q, xb), (p,), (t,))[1]
    zero = jax.tree.map(jnp.zeros_like, p)
    transpose = jax.linear_transpose(lin, zero)

    def column(e):
        (ct,) = transpose(e)
        return jax.jvp(lambda q: f(q, xa), (p,), (ct,))[1]

    return jax.vmap(column, out_axes=1)(jnp.eye(xb.shape[0]))


K1 = ntk_jacobian(params, x1, x2)
K2 = ntk_vp(params, x1, x2)
K3 = jax.jit(ntk_transpose)(params, x1, x2)
print("NTK:\n", K1)
print("vjp/jvp agrees:", bool(jnp.allclose(K1, K2, rtol=1e-4, atol=1e-5)),
      "transpose agrees:", bool(jnp.allclose(K1, K3, rtol=1e-4, atol=1e-5)))

Kxx = ntk_jacobian(params, x1, x1)
print("Kxx eigenvalues:", jnp.linalg.eigvalsh(Kxx))
y1 = jnp.sin(x1[:, 0]) + 0.5 * x1[:, 1]
f0_train, f0_test = f(params, x1), f(params, x2)
alpha = jnp.linalg.solve(Kxx + 1e-3 * jnp.eye(5), y1 - f0_train)
pred_ntk = f0_test + K1.T @ alpha
print("NTK regression prediction:", pred_ntk)

# gradient descent on the linearized model converges to the kernel regression solution
_, f_lin_train = jax.linearize(lambda q: f(q, x1), params)
_, f_lin_test = jax.linearize(lambda q: f(q, x2), params)
loss = lambda d: 0.5 * jnp.sum((f0_train + f_lin_train(d) - y1) ** 2) + 0.5e-3 * sum(
    jnp.sum(v**2) for v in jax.tree.leaves(d))
delta = jax.tree.map(jnp.zeros_like, params)
lr = 1.0 / float(jnp.linalg.eigvalsh(Kxx)[-1])
step = jax.jit(lambda d: jax.tree.map(lambda v, g: v - lr * g, d, jax.grad(loss)(d)))
for _ in range(3000):
    delta = step(delta)
pred_lin = f0_test + f_lin_test(delta)
print("linearized GD prediction:", pred_lin)
print("matches NTK regression:", bool(jnp.allclose(pred_lin, pred_ntk, atol=2e-2)))
print("trace of NTK per layer:", [float(jnp.round(jnp.sum(jax.vmap(
    lambda x: jnp.sum(jax.grad(f)(params, x)[i]["w"] ** 2))(x1)), 4)) for i in range(3)])
