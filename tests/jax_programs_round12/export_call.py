"""JAX's "Exporting and serializing staged-out computations" page without the serialized
bytes (this JAX lacks flatbuffers): `jax.export.export` of jitted functions with pytrees,
control flow and several outputs, the `Exported` attributes (fun_name, in_avals, out_avals,
in_tree, out_tree, nr_devices, platforms), and `Exported.call` eagerly, under jit
and grad."""

import jax
import jax.numpy as jnp
from jax import export, lax

f32 = jnp.float32


def f(x, y):
    return jnp.sin(x) * y + jnp.sum(x)


exp = export.export(jax.jit(f))(jax.ShapeDtypeStruct((3,), f32), jax.ShapeDtypeStruct((3,), f32))
print(exp.fun_name, exp.in_avals, exp.out_avals)
print(exp.in_tree, exp.out_tree, exp.nr_devices, exp.platforms)
print(type(exp).__name__, isinstance(exp, export.Exported))
x = jnp.array([0.5, 1.0, 2.0], f32)
y = jnp.array([1.0, -2.0, 3.0], f32)
print(exp.call(x, y))
print(jax.jit(exp.call)(x, y))
print(jax.jit(lambda a, b: exp.call(a, b) * 2)(x, y))


def model(params, batch):
    h = jnp.tanh(batch["x"] @ params["w"] + params["b"])
    return {"mean": h.mean(axis=0), "out": h}, jnp.sum(h**2)


params = {"w": jnp.linspace(-1.0, 1.0, 6, dtype=f32).reshape(3, 2), "b": jnp.array([0.1, -0.2], f32)}
batch = {"x": jnp.arange(12.0, dtype=f32).reshape(4, 3) / 10}
spec = jax.tree.map(lambda a: jax.ShapeDtypeStruct(a.shape, a.dtype), (params, batch))
exp2 = export.export(jax.jit(model))(*spec)
print(exp2.fun_name, exp2.in_tree)
print(exp2.out_tree)
print(exp2.in_avals)
print(exp2.out_avals)
out, energy = exp2.call(params, batch)
print(out["mean"], energy)
print(jax.tree.map(lambda a, b: bool(jnp.allclose(a, b)), exp2.call(params, batch), model(params, batch)))


def loop(x, n):
    def body(i, c):
        return lax.cond(i % 2 == 0, lambda v: v * 1.5, lambda v: jnp.cos(v), c)

    return lax.fori_loop(0, n, body, x), lax.cumsum(x)


exp3 = export.export(jax.jit(loop, static_argnums=1))(jax.ShapeDtypeStruct((4,), f32), 5)
print(exp3.in_avals, exp3.out_avals, exp3.in_tree)
v = jnp.array([0.1, 0.2, 0.3, 0.4], f32)
print(exp3.call(v))
print([exp3.call(r) for r in jnp.stack([v, 2 * v])])

# differentiating an exported function: the exported jaxpr carries its derivative
exp4 = export.export(jax.jit(lambda w: jnp.sum(jnp.exp(w) * jnp.sin(w))))(jax.ShapeDtypeStruct((3,), f32))
print(exp4.call(x), jax.grad(exp4.call)(x))
print(jax.grad(lambda w: exp4.call(w) ** 2)(x))

# integer and boolean arguments, scalars
exp5 = export.export(jax.jit(lambda i, m: jnp.where(m, i * 2, -i)))(
    jax.ShapeDtypeStruct((4,), jnp.int32), jax.ShapeDtypeStruct((4,), jnp.bool_)
)
print(exp5.in_avals, exp5.out_avals)
print(exp5.call(jnp.arange(4, dtype=jnp.int32), jnp.array([True, False, True, False])))
exp6 = export.export(jax.jit(lambda s: s * 3.0))(jax.ShapeDtypeStruct((), f32))
print(exp6.in_avals, exp6.call(jnp.float32(2.0)))

# a call with the wrong shape is an error
try:
    exp.call(jnp.ones(4, f32), jnp.ones(4, f32))
except ValueError:
    print("ValueError")
