"""JAX's "Automatic vectorization" beyond round 8: in_axes as dicts and with None leaves,
out_axes trees and negative axes, axis_size, keyword arguments (always mapped over axis 0),
spmd_axis_name, collectives by axis_name, vmap of functions with structured outputs and of
library functions, and vmap composed with grad, jit and scan."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


def predict(params, x):
    return jnp.tanh(x @ params["w"] + params["b"])


params = {"w": jnp.arange(6.0).reshape(3, 2) / 10, "b": jnp.array([0.1, -0.1])}
xs = jnp.arange(12.0).reshape(4, 3) / 12
print(jax.vmap(predict, in_axes=(None, 0))(params, xs))
stacked = {"w": jnp.stack([params["w"], -params["w"]]), "b": jnp.stack([params["b"], 2 * params["b"]])}
print(jax.vmap(predict, in_axes=({"w": 0, "b": 0}, None))(stacked, xs[0]))
print(jax.vmap(predict, in_axes=({"w": None, "b": 0}, 0))({"w": params["w"], "b": stacked["b"]}, xs[:2]))

# out_axes
f = lambda x: (x * 2, x.sum())  # noqa: E731
print(jax.vmap(f, out_axes=(1, 0))(jnp.arange(6.0).reshape(2, 3)))
print(jax.vmap(lambda x: {"a": x, "b": x ** 2}, out_axes={"a": 0, "b": 1})(jnp.arange(6.0).reshape(3, 2)))
print(jax.vmap(jnp.outer, in_axes=(0, None), out_axes=-1)(jnp.ones((2, 3)), jnp.arange(2.0)).shape)
print(jax.vmap(lambda x: x.sum(), in_axes=-1)(jnp.arange(6.0).reshape(2, 3)))
print(jax.vmap(lambda x: 3.0, axis_size=4, in_axes=None)(1.0))
print(jax.vmap(lambda x: x + 1, in_axes=None, out_axes=None, axis_size=3)(jnp.ones(2)))


# keyword arguments are mapped over their leading axis
def scale(x, *, factor):
    return x * factor


print(jax.vmap(scale)(jnp.arange(3.0), factor=jnp.array([1.0, 10.0, 100.0])))
print(jax.vmap(partial(scale, factor=2.0))(jnp.arange(3.0)))

# named axes: collectives
def normalize(x):
    return x / lax.psum(x, "batch")


print(jax.vmap(normalize, axis_name="batch")(jnp.arange(1.0, 5.0)))
print(jax.vmap(lambda x: x - lax.pmean(x, "i"), axis_name="i")(jnp.array([1.0, 2.0, 6.0])))
print(jax.vmap(lambda x: lax.axis_index("i") * x, axis_name="i")(jnp.ones(4)))
print(jax.vmap(lambda x: (lax.pmax(x, "i"), lax.pmin(x, "i")), axis_name="i")(jnp.array([3.0, -1.0, 2.0])))
print(jax.vmap(jax.vmap(lambda x: lax.psum(x, "rows"), axis_name="cols"), axis_name="rows")(
    jnp.arange(6.0).reshape(2, 3)))
print(jax.vmap(lambda x: lax.psum(x, ("a", "b")) if False else x, spmd_axis_name=None)(jnp.ones(2)))
print(jax.vmap(lambda x: x * 2, spmd_axis_name="data")(jnp.arange(3.0)))

# composing with grad, jit, scan
loss = lambda w, x, y: (jnp.dot(w, x) - y) ** 2  # noqa: E731
w = jnp.array([0.5, -1.0, 2.0])
ys = jnp.array([1.0, 0.0, -1.0, 2.0])
print(jax.jit(jax.vmap(jax.grad(loss), in_axes=(None, 0, 0)))(w, xs, ys))
print(jax.vmap(jax.value_and_grad(loss), in_axes=(None, 0, 0))(w, xs, ys))
scan_c = lambda c: lax.scan(lambda s, x: (s * c + x, s), 0.0, jnp.arange(4.0))[1]  # noqa: E731
print(jax.vmap(scan_c)(jnp.array([0.5, 2.0])))
print(jax.vmap(jax.hessian(lambda x: jnp.sum(jnp.sin(x) * x)))(jnp.arange(4.0).reshape(2, 2)))

# library functions under vmap
mats = jnp.stack([jnp.eye(2) * 2, jnp.array([[2.0, 1.0], [1.0, 3.0]])])
print(jax.vmap(jnp.linalg.det)(mats), jax.vmap(jnp.linalg.inv)(mats))
print(jax.vmap(jnp.linalg.solve)(mats, jnp.ones((2, 2))))
print(jax.vmap(lambda a: jnp.sort(a)[::-1])(jnp.array([[3, 1, 2], [0, 5, 4]])))
print(jax.vmap(jnp.searchsorted, in_axes=(None, 0))(jnp.array([1.0, 2.0, 3.0]), jnp.array([0.5, 2.5, 9.0])))
print(jax.vmap(lambda a, i: a[i])(jnp.arange(12.0).reshape(3, 4), jnp.array([0, 3, 1])))
print(jax.vmap(lambda a, i: a.at[i].set(-1.0))(jnp.zeros((2, 3)), jnp.array([2, 0])))
print(jax.vmap(lambda a: jnp.where(a > 1, a, 0.0))(jnp.arange(6.0).reshape(2, 3)))
print(jax.vmap(jnp.convolve, in_axes=(0, None))(jnp.arange(6.0).reshape(2, 3), jnp.array([1.0, -1.0])))
print(jax.vmap(lambda k: jax.random.normal(k, (2,)))(jax.random.split(jax.random.PRNGKey(0), 3)))
