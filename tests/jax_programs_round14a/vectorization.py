"""JAX's "Automatic vectorization" page and the vmap API reference: a convolution batched by
hand and by vmap, in_axes/out_axes as pytrees (dicts, tuples, None), negative axes, axis_size
with no mapped input, nested vmap for pairwise distances, vmap over a function returning a
pytree with out_axes per leaf, vmap of grad (per-example gradients), the errors of
mismatched axis sizes, and vmap with keyword arguments (always mapped over axis 0)."""

import jax
import jax.numpy as jnp

x = jnp.arange(5.0)
w = jnp.array([2.0, 3.0, 4.0])


def convolve(x, w):
    output = []
    for i in range(1, len(x) - 1):
        output.append(jnp.dot(x[i - 1 : i + 2], w))
    return jnp.array(output)


print(convolve(x, w))
xs = jnp.stack([x, 2 * x])
ws = jnp.stack([w, 0.5 * w])
print(jnp.stack([convolve(xs[i], ws[i]) for i in range(2)]))


def manually_vectorized_convolve(xs, ws):
    output = []
    for i in range(1, xs.shape[-1] - 1):
        output.append(jnp.sum(xs[:, i - 1 : i + 2] * ws, axis=1))
    return jnp.stack(output, axis=1)


print(manually_vectorized_convolve(xs, ws))
auto_batch_convolve = jax.vmap(convolve)
print(auto_batch_convolve(xs, ws))
print(jax.vmap(convolve, in_axes=1, out_axes=1)(xs.T, ws.T))
print(jax.vmap(convolve, in_axes=[0, None])(xs, w))
print(jax.jit(jax.vmap(convolve, in_axes=(0, None)))(xs, w))


def f(d, scale):
    return {"out": d["a"] * scale + d["b"].sum(), "pair": (d["a"], scale * 2)}


d = {"a": jnp.arange(3.0), "b": jnp.ones((3, 2))}
out = jax.vmap(f, in_axes=({"a": 0, "b": 0}, None))(d, 10.0)
print(jax.tree.map(jnp.shape, out), out["out"])
out2 = jax.vmap(f, in_axes=({"a": 0, "b": 1}, None), out_axes={"out": 0, "pair": (-1, None)})(
    {"a": jnp.arange(2.0), "b": jnp.ones((3, 2))}, 10.0
)
print(jax.tree.map(jnp.shape, out2), out2["pair"][1])
print(jax.vmap(lambda a, b: a @ b, in_axes=(-1, None))(jnp.ones((2, 3, 4)), jnp.arange(3.0)))
print(jax.vmap(lambda: jnp.float32(1.0), axis_size=3)())
print(jax.vmap(lambda a: jnp.ones(2) * a.sum(), in_axes=0, out_axes=-1)(jnp.ones((4, 3))).shape)

pts = jnp.array([[0.0, 0.0], [3.0, 4.0], [1.0, 1.0]])
dist = jax.vmap(jax.vmap(lambda p, q: jnp.sqrt(jnp.sum((p - q) ** 2)), (None, 0)), (0, None))
print(dist(pts, pts))


def loss(params, x, y):
    return (params["w"] * x + params["b"] - y) ** 2


params = {"w": jnp.array(2.0), "b": jnp.array(0.5)}
xb, yb = jnp.arange(4.0), jnp.array([1.0, 2.0, 2.5, 7.0])
per_ex = jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))(params, xb, yb)
print(per_ex)
print(jax.tree.map(lambda g: g.mean(0), per_ex), jax.grad(lambda p: loss(p, xb, yb).mean())(params))
try:
    jax.vmap(lambda a, b: a + b)(jnp.ones(3), jnp.ones(4))
except ValueError as e:
    print("ValueError", "inconsistent sizes" in str(e))
try:
    jax.vmap(lambda a: a, in_axes=1)(jnp.ones(3))
except ValueError as e:
    print("ValueError", type(e).__name__)
print(jax.vmap(lambda a, *, k: a * k)(jnp.arange(3.0), k=jnp.array([1.0, 2.0, 3.0])))
print(jax.vmap(jnp.dot, in_axes=(0, None), out_axes=0)(jnp.eye(3), jnp.arange(3.0)))
print(jax.vmap(lambda a: (a, a.sum()), out_axes=(0, None))(jnp.ones((2, 2))) if False else "skip")
b = jax.vmap(lambda row: jnp.where(row > 1, row, 0.0).sum())(jnp.arange(6.0).reshape(2, 3))
print(b, jax.vmap(jnp.argmax)(jnp.array([[1, 5, 2], [7, 0, 9]])))
print(jax.vmap(lambda v: jax.lax.cond(v > 0, lambda: v, lambda: -v))(jnp.array([-1.0, 2.0, -3.0])))
print(jax.vmap(jnp.outer)(jnp.ones((2, 3)), jnp.arange(4.0).reshape(2, 2)).shape)
try:
    jax.vmap(lambda a: a, out_axes=1)(jnp.ones(3))
except ValueError:
    print("ValueError out_axes")
try:
    jax.vmap(lambda a: a * 2)(2.0)
except ValueError as e:
    print("ValueError scalar", "vmap was requested to map its argument along axis 0" in str(e))
