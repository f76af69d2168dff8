"""The linear side of JAX's autodiff, as the "Autodiff Cookbook" and Autodidax explain it, on a
small pytree-valued model: jax.linearize once and apply the linear map to many tangents,
jax.linear_transpose of that map giving the VJP (checked against jax.vjp and jax.grad), a
Jacobian assembled column by column with vmap of the linearized function (in_axes on a dict
of tangents) and row by row from its transpose, jax.hessian of a function of a dict (a
nested dict of blocks) against jacfwd(jacrev), Hessian-vector products by forward-over-
reverse, vmap with in_axes given as a dict and out_axes=None for unbatched outputs, and
lax.scan with unroll= and reverse=True against a Python loop."""

import jax
import jax.numpy as jnp
from jax import lax

jnp.set_printoptions(precision=5, suppress=True)

params = {"w": jnp.array([[0.5, -1.0, 0.3], [0.2, 0.8, -0.4]]), "b": jnp.array([0.1, -0.2])}
x = jnp.array([1.0, 2.0, -0.5])


def model(p, x):
    h = jnp.tanh(p["w"] @ x + p["b"])
    return {"out": h**2, "norm": jnp.sum(h**2)}


y, f_lin = jax.linearize(lambda p: model(p, x), params)
print("primal", y)
tangents = {"w": jnp.ones((2, 3)), "b": jnp.array([1.0, 0.0])}
print("linearized", f_lin(tangents))
_, jvp_out = jax.jvp(lambda p: model(p, x), (params,), (tangents,))
print("== jvp:", jax.tree.all(jax.tree.map(lambda a, b: bool(jnp.allclose(a, b)), f_lin(tangents), jvp_out)))

f_t = jax.linear_transpose(f_lin, params)
ct = {"out": jnp.array([1.0, -1.0]), "norm": jnp.asarray(0.5)}
(transposed,) = f_t(ct)
_, vjp_fn = jax.vjp(lambda p: model(p, x), params)
(vjp_out,) = vjp_fn(ct)
print("transpose", transposed)
print("== vjp:", jax.tree.all(jax.tree.map(lambda a, b: bool(jnp.allclose(a, b)), transposed, vjp_out)))
g = jax.grad(lambda p: model(p, x)["norm"])(params)
print("grad of norm == transpose of e_norm:",
      jax.tree.all(jax.tree.map(lambda a, b: bool(jnp.allclose(a, b)), g,
                                f_t({"out": jnp.zeros(2), "norm": jnp.asarray(1.0)})[0])))

# the Jacobian of the "out" entry wrt w, by columns (pushforward of a basis) and by rows
basis = jnp.eye(6).reshape(6, 2, 3)
cols = jax.vmap(lambda t: f_lin(t)["out"], in_axes=({"w": 0, "b": None},))({"w": basis, "b": jnp.zeros(2)})
rows = jax.vmap(lambda c: f_t({"out": c, "norm": jnp.asarray(0.0)})[0]["w"])(jnp.eye(2))
print("jacobian by columns\n", cols.T)
print("rows == columns:", bool(jnp.allclose(rows.reshape(2, 6), cols.T)),
      "== jacrev:",
      bool(jnp.allclose(jax.jacrev(lambda p: model(p, x)["out"])(params)["w"].reshape(2, 6), cols.T)))


def energy(p):
    return model(p, x)["norm"] + 0.1 * jnp.sum(p["w"] ** 2) + jnp.sum(jnp.sin(p["b"]) * p["w"][:, 0])


H = jax.hessian(energy)(params)
print("hessian blocks", jax.tree.map(jnp.shape, H))
print("H[b][b]", H["b"]["b"])
print("H[b][w]", H["b"]["w"][0])
H2 = jax.jacfwd(jax.jacrev(energy))(params)
print("hessian == jacfwd(jacrev):", jax.tree.all(jax.tree.map(lambda a, b: bool(jnp.allclose(a, b)), H, H2)))
v = {"w": jnp.full((2, 3), 0.1), "b": jnp.array([1.0, -1.0])}
hvp = jax.jvp(jax.grad(energy), (params,), (v,))[1]
dense = {k: sum(jnp.tensordot(H[k][j], v[j], axes=v[j].ndim) for j in v) for k in v}
print("hvp", hvp)
print("hvp == H.v:", jax.tree.all(jax.tree.map(lambda a, b: bool(jnp.allclose(a, b, atol=1e-6)), hvp, dense)))

# vmap with a dict of in_axes and an unbatched output (out_axes=None)
batch = {"x": jnp.stack([x, 2 * x, -x]), "scale": jnp.asarray(2.0)}
out = jax.vmap(lambda d: (model(params, d["x"] * d["scale"])["norm"], d["scale"] ** 2),
               in_axes=({"x": 0, "scale": None},), out_axes=(0, None))(batch)
print("vmap dict in_axes", out)
per_example_grads = jax.vmap(jax.grad(lambda p, xi: model(p, xi)["norm"]),
                             in_axes=(None, 0))(params, batch["x"])
print("per-example grad shapes", jax.tree.map(jnp.shape, per_example_grads))


# scan with unroll and reverse
def step(c, xs):
    a, b = xs
    c = 0.9 * c + a * jnp.sin(b)
    return c, c * b


xs = (jnp.linspace(0.0, 1.0, 10), jnp.linspace(-1.0, 2.0, 10))
carry1, ys1 = lax.scan(step, 0.0, xs)
carry3, ys3 = lax.scan(step, 0.0, xs, unroll=3)
carryr, ysr = lax.scan(step, 0.0, xs, reverse=True)
c, loop = 0.0, []
for a, b in zip(reversed(xs[0]), reversed(xs[1])):
    c, yy = step(c, (a, b))
    loop.append(yy)
print("unroll=3 == unroll=1:", bool(jnp.allclose(ys1, ys3)), float(carry1), float(carry3))
print("reverse scan ys", ysr)
print("reverse == reversed loop:", bool(jnp.allclose(ysr, jnp.stack(loop[::-1]))), f"{float(carryr):.6f}")
gr = jax.grad(lambda xs: lax.scan(step, 0.0, xs, reverse=True, unroll=2)[0])(xs)
print("grad through reverse scan", gr[0])
