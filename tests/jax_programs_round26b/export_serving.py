"""Exporting a model for serving as JAX's jax.export guide writes it: a classifier exported at
concrete shapes and with a symbolic batch dimension (export.symbolic_shape,
symbolic_args_specs, constraints), its in_avals/out_avals/trees/platforms, calls at several
batch sizes, inside jit, under grad, an export for several platforms, the dimension
expressions' arithmetic, and the ValueErrors of calls that do not fit the exported types."""

import jax
import jax.numpy as jnp
import numpy as np
from jax import export


def classifier(params, x):
    h = jax.nn.relu(x @ params["w1"] + params["b1"])
    logits = h @ params["w2"] + params["b2"]
    return jax.nn.log_softmax(logits, axis=-1)


key1, key2 = jax.random.split(jax.random.key(42))
params = {"w1": jax.random.normal(key1, (6, 16)) * 0.4, "b1": jnp.full((16,), 0.1),
          "w2": jax.random.normal(key2, (16, 3)) * 0.3, "b2": jnp.zeros(3)}
x = jnp.asarray(np.linspace(-2, 2, 24, dtype=np.float32).reshape(4, 6))

exp = export.export(jax.jit(classifier))(params, x)
print(type(exp).__name__, exp.fun_name)
print("in_tree:", exp.in_tree)
print("in_avals:", exp.in_avals)
print("out_avals:", exp.out_avals, "out_tree:", exp.out_tree)
print("platforms:", exp.platforms, "devices:", exp.nr_devices)
print("calling convention:",
      exp.calling_convention_version >= export.minimum_supported_calling_convention_version)
out = exp.call(params, x)
print("call:", out.sum(axis=-1))
print("same as jit:", bool(jnp.allclose(out, jax.jit(classifier)(params, x))))
print("argmax:", jnp.argmax(exp.call(params, x), axis=-1))

# a symbolic batch dimension
b, = export.symbolic_shape("b")
print("dim:", b, export.is_symbolic_dim(b), export.is_symbolic_dim(4))
x_spec = jax.ShapeDtypeStruct((b, 6), jnp.float32)
exp_b = export.export(jax.jit(classifier))(params, x_spec)
print("poly in:", exp_b.in_avals[-1], "out:", exp_b.out_avals)
for n in (1, 3, 7):
    xs = jnp.asarray(np.cos(np.arange(n * 6, dtype=np.float32)).reshape(n, 6))
    print(n, "rows:", exp_b.call(params, xs).shape, float(exp_b.call(params, xs)[0, 0]))

# the exported function composes with transformations
def nll(params, x, labels):
    logp = exp_b.call(params, x)
    return -jnp.mean(jnp.take_along_axis(logp, labels[:, None], axis=1))


labels = jnp.array([0, 1, 2, 1])
print("nll:", nll(params, x, labels))
g = jax.grad(nll)(params, x, labels)
print("grad b2:", g["b2"])
print("grad w1 norm:", jnp.linalg.norm(g["w1"]))
print("jit(call):", jax.jit(exp.call)(params, x)[1])

# symbolic_args_specs and shape arithmetic
specs = export.symbolic_args_specs((x, jnp.ones(4)), ("n, 6", "n"))
print("specs:", specs)
def concat_pairs(x):
    return jnp.concatenate([x, x[::-1]], axis=0).reshape(-1, 2)


exp_c = export.export(jax.jit(concat_pairs))(jax.ShapeDtypeStruct(export.symbolic_shape("m, 4"), jnp.float32))
print("concat:", exp_c.out_avals)
print(exp_c.call(jnp.arange(8.0, dtype=jnp.float32).reshape(2, 4))[:3])
pairs = export.export(jax.jit(lambda x: x[: x.shape[0] // 2] - x[x.shape[0] // 2:]))(
    jax.ShapeDtypeStruct(export.symbolic_shape("2*k, 4"), jnp.float32))
print("halves:", pairs.in_avals, pairs.out_avals, pairs.call(jnp.ones((6, 4), jnp.float32)).shape)
try:
    pairs.call(jnp.ones((5, 4), jnp.float32))
except ValueError:
    print("ValueError for an odd number of rows")
a, c = export.symbolic_shape("a, c", constraints=("a >= c",))
print("exprs:", a + c, 2 * a, a * c, a - 1)
exp_m = export.export(jax.jit(lambda u, v: u[: v.shape[0]] * v))(
    jax.ShapeDtypeStruct((a,), jnp.float32), jax.ShapeDtypeStruct((c,), jnp.float32))
print("constrained:", exp_m.out_avals,
      exp_m.call(jnp.arange(5.0, dtype=jnp.float32), jnp.full(3, 2.0, jnp.float32)))

# several platforms in one export
exp_p = export.export(jax.jit(classifier), platforms=["cpu", "cuda"])(params, x)
print("platforms:", exp_p.platforms, exp_p.call(params, x).shape)

# calls that do not fit
for bad in (x[:, :5], x.astype(jnp.int32)):
    try:
        exp.call(params, bad)
    except ValueError:
        print("ValueError for", bad.shape, bad.dtype)
try:
    exp_b.call(params, jnp.ones((0, 6), jnp.float32))
except ValueError:
    print("ValueError for an empty batch")
