"""Second-order training of a small network in the style of Martens' "Deep learning via
Hessian-free optimization" written in JAX: an MLP whose parameters are a pytree flattened by
jax.flatten_util.ravel_pytree, Gauss-Newton-vector products J^T H_L J v from jax.linearize and
jax.linear_transpose, Hessian-vector products by forward-over-reverse (jax.jvp of jax.grad)
checked against a finite difference of gradients, the Gauss-Newton matrix's positive
semi-definiteness, conjugate gradients in lax.fori_loop on the damped system, Levenberg-
Marquardt damping adapted by the reduction ratio with lax.cond, and a comparison with plain
gradient descent on the same budget of epochs."""

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.flatten_util import ravel_pytree

jnp.set_printoptions(precision=4, suppress=True)

key = random.PRNGKey(11)
k_data, k_init, k_vec = random.split(key, 3)
X = random.uniform(k_data, (256, 2), minval=-2.0, maxval=2.0)
Y = (jnp.sin(X[:, 0]) * jnp.cos(X[:, 1]) + 0.1 * X[:, 0] ** 2)[:, None]


def init(key, sizes=(2, 16, 16, 1)):
    params = []
    for k, (m, n) in zip(random.split(key, len(sizes) - 1), zip(sizes[:-1], sizes[1:])):
        params.append({"w": random.normal(k, (m, n)) / jnp.sqrt(m), "b": jnp.zeros(n)})
    return params


def mlp(params, x):
    for layer in params[:-1]:
        x = jnp.tanh(x @ layer["w"] + layer["b"])
    return x @ params[-1]["w"] + params[-1]["b"]


params0 = init(k_init)
flat0, unravel = ravel_pytree(params0)
print("parameters:", flat0.shape[0], "leaves:", len(jax.tree_util.tree_leaves(params0)))


def outputs(flat):
    return mlp(unravel(flat), X)


def loss(flat):
    return 0.5 * jnp.mean((outputs(flat) - Y) ** 2)


def gnvp(flat, v):
    """Gauss-Newton product J^T (d^2 L / d out^2) J v for the squared loss (H_L = I / N)."""
    out, jvp_fn = jax.linearize(outputs, flat)
    vjp_fn = jax.linear_transpose(jvp_fn, flat)
    return vjp_fn(jvp_fn(v) / out.shape[0])[0]


def hvp(flat, v):
    return jax.jvp(jax.grad(loss), (flat,), (v,))[1]


v = random.normal(k_vec, flat0.shape)
fd = (jax.grad(loss)(flat0 + 1e-3 * v) - jax.grad(loss)(flat0 - 1e-3 * v)) / 2e-3
print("Hessian-vector product matches a finite difference of gradients:",
      bool(jnp.allclose(hvp(flat0, v), fd, rtol=2e-2, atol=2e-3)))
curv_gn, curv_h = v @ gnvp(flat0, v), v @ hvp(flat0, v)
print(f"curvature along v: Gauss-Newton {float(curv_gn):.4f} (>= 0: {bool(curv_gn >= 0)}), Hessian "
      f"{float(curv_h):.4f}")
G = jax.vmap(lambda e: gnvp(flat0, e))(jnp.eye(flat0.shape[0]))
eigs = jnp.linalg.eigvalsh(0.5 * (G + G.T))
print("Gauss-Newton matrix: rank <= 256 outputs, smallest eigenvalue >= -1e-5:", bool(eigs[0] > -1e-5),
      f"largest {float(eigs[-1]):.4f}")


def conjugate_gradient(matvec, b, iters=10):
    def body(_, state):
        x, r, p, rs = state
        active = rs > 1e-12 * (b @ b)  # truncated: no update once the residual is negligible
        Ap = matvec(p)
        alpha = jnp.where(active, rs / (p @ Ap), 0.0)
        x, r = x + alpha * p, r - alpha * Ap
        rs_new = r @ r
        return x, r, r + jnp.where(active, rs_new / rs, 0.0) * p, rs_new

    x, r, _, _ = lax.fori_loop(0, iters, body, (jnp.zeros_like(b), b, b, b @ b))
    return x, jnp.sqrt(r @ r) / jnp.sqrt(b @ b)


@jax.jit
def hf_step(flat, damping):
    g = jax.grad(loss)(flat)
    step, rel_res = conjugate_gradient(lambda d: gnvp(flat, d) + damping * d, -g)
    predicted = g @ step + 0.5 * step @ gnvp(flat, step)
    actual = loss(flat + step) - loss(flat)
    rho = actual / predicted
    damping = lax.cond(rho > 0.75, lambda d: d * 2 / 3, lambda d: jnp.where(rho < 0.25, d * 1.5, d), damping)
    flat = jnp.where(rho > 0.0, flat + step, flat)  # reject steps that raise the loss
    return flat, damping, rho, rel_res


flat, damping = flat0, jnp.asarray(1.0)
print(f"initial loss {float(loss(flat)):.5f}")
for it in range(6):
    flat, damping, rho, rel_res = hf_step(flat, damping)
    if it % 2 == 1:
        print(f"HF iteration {it + 1:2d}: loss {float(loss(flat)):.4e}, damping {float(damping):.4f},",
              f"rho > 0.25: {bool(rho > 0.25)}")
hf_loss = loss(flat)


@jax.jit
def gradient_descent(flat):
    return lax.fori_loop(0, 300, lambda _, f: f - 0.2 * jax.grad(loss)(f), flat)


gd_loss = loss(gradient_descent(flat0))
print(f"after 6 HF steps (60 Gauss-Newton products) {float(hf_loss):.3e} vs 300 gradient steps "
      f"{float(gd_loss):.3e}")
trained = unravel(flat)
print("trained layer norms", [round(float(jnp.linalg.norm(layer["w"])), 2) for layer in trained])
test = jnp.array([[0.5, -0.5], [1.5, 1.0], [-1.0, 0.0]])
print("predictions", jnp.round(mlp(trained, test).ravel(), 2), "targets",
      (jnp.sin(test[:, 0]) * jnp.cos(test[:, 1]) + 0.1 * test[:, 0] ** 2))
