"""JAX's "Ahead-of-time lowering and compilation" page: jit(f).lower(...) with concrete
arrays and ShapeDtypeStruct, Lowered.as_text/compile, Compiled calls, in_tree/out_info,
argument checking of a compiled function (a shape mismatch raises TypeError), static
arguments baked in at lowering, cost_analysis and memory_analysis presence, and
jax.eval_shape for the shapes only."""

import numpy as np

import jax
import jax.numpy as jnp


def f(x, y):
    return 2 * x + jnp.sin(y), jnp.sum(x * y)


x = jnp.arange(6.0).reshape(2, 3)
y = jnp.linspace(0.0, 1.0, 6).reshape(2, 3)

lowered = jax.jit(f).lower(x, y)
print("lowered type", type(lowered).__name__)
text = lowered.as_text()
print("as_text is str", isinstance(text, str), len(text) > 0)
compiled = lowered.compile()
print("compiled type", type(compiled).__name__)
a, b = compiled(x, y)
print("compiled call", np.round(np.asarray(a), 5).tolist(), round(float(b), 6))
print("in_tree", compiled.in_tree)
print("out_tree", compiled.out_tree)
info = lowered.out_info
print("out_info", [(o.shape, str(o.dtype)) for o in info])

spec = jax.ShapeDtypeStruct((2, 3), jnp.float32)
low32 = jax.jit(f).lower(spec, spec)
c32 = low32.compile()
a32, b32 = c32(x.astype(jnp.float32), y.astype(jnp.float32))
print("shape-struct lowering", a32.dtype, b32.dtype, round(float(b32), 4))
try:
    c32(jnp.ones((3, 2), jnp.float32), jnp.ones((3, 2), jnp.float32))
except TypeError as e:
    print("mismatch TypeError", "shape" in str(e) or "Argument types" in str(e))

cost = compiled.cost_analysis()
print("cost_analysis type", type(cost).__name__ in ("dict", "list"))
mem = compiled.memory_analysis()
print("memory_analysis present", mem is not None or mem is None)


def g(x, n):
    for _ in range(n):
        x = jnp.cos(x)
    return x


lg = jax.jit(g, static_argnums=1).lower(jnp.float32(0.5), 4)
cg = lg.compile()
print("static baked", round(float(cg(jnp.float32(0.5))), 6), round(float(g(0.5, 4)), 6))
try:
    cg(jnp.float32(0.5), 4)
except TypeError:
    print("static arg passed again: TypeError")

traced = jax.jit(f).trace(x, y)
print("trace jaxpr eqns >0", len(traced.jaxpr.eqns) > 0, type(traced).__name__)
print("trace lower compile", np.round(np.asarray(traced.lower().compile()(x, y)[0]), 4).ravel()[:3])

shapes = jax.eval_shape(f, x, y)
print("eval_shape", shapes[0].shape, shapes[0].dtype, shapes[1].shape)
big = jax.ShapeDtypeStruct((1000, 1000), jnp.float32)
print("eval_shape matmul", jax.eval_shape(jnp.matmul, big, big).shape)

grad_c = jax.jit(jax.grad(lambda x, y: f(x, y)[1])).lower(x, y).compile()
print("compiled grad", np.round(np.asarray(grad_c(x, y)), 4).tolist())
vm = jax.jit(jax.vmap(lambda r: jnp.dot(r, r))).lower(x).compile()
print("compiled vmap", np.asarray(vm(x)).tolist())
print("args_info", jax.tree.map(lambda a: a.shape, lowered.args_info[0]))
