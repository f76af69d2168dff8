"""Ahead-of-time compilation as JAX's AOT guide writes it: an MLP's loss lowered from
jax.ShapeDtypeStruct stand-ins (no data), compiled once and called on real batches; the stages'
types (jax.stages), the traced jaxpr, in_tree/out_tree/out_info/args_info (with a donated
argument and a static one), the cost and memory analyses, and the errors a Compiled gives for
arguments of other types."""

import jax
import jax.numpy as jnp
import jax.stages
import numpy as np


def init(key, sizes):
    params = []
    for k, (m, n) in zip(jax.random.split(key, len(sizes) - 1), zip(sizes[:-1], sizes[1:])):
        params.append({"w": jax.random.normal(k, (m, n)) / jnp.sqrt(m), "b": jnp.zeros(n)})
    return params


def mlp(params, x):
    for layer in params[:-1]:
        x = jnp.tanh(x @ layer["w"] + layer["b"])
    return x @ params[-1]["w"] + params[-1]["b"]


def loss(params, x, y):
    return jnp.mean((mlp(params, x) - y) ** 2)


params = init(jax.random.key(0), [4, 8, 1])
spec = jax.tree.map(lambda p: jax.ShapeDtypeStruct(p.shape, p.dtype), params)
batch = jax.ShapeDtypeStruct((16, 4), jnp.float32)
target = jax.ShapeDtypeStruct((16, 1), jnp.float32)

jitted = jax.jit(loss)
print("wrapped:", isinstance(jitted, jax.stages.Wrapped))
traced = jitted.trace(spec, batch, target)
print("traced:", isinstance(traced, jax.stages.Traced), traced.out_info)
print("jaxpr ops:", sorted({e.primitive.name for e in traced.jaxpr.eqns} & {"tanh", "dot_general"}))
lowered = traced.lower()
print("lowered:", isinstance(lowered, jax.stages.Lowered), isinstance(lowered.as_text(), str))
print("in_tree:", lowered.in_tree)
print("out_tree:", lowered.out_tree, "out_info:", lowered.out_info)
print("args_info[0][0]:", lowered.args_info[0][0])
print("args_info[1]:", lowered.args_info[0][1])
compiled = lowered.compile()
print("compiled:", isinstance(compiled, jax.stages.Compiled))

xs = np.linspace(-1, 1, 64, dtype=np.float32).reshape(16, 4)
ys = np.sin(xs.sum(axis=1, keepdims=True))
print("loss (compiled):", compiled(params, xs, ys))
print("loss (jit):", jitted(params, xs, ys))
print("same:", bool(jnp.allclose(compiled(params, xs, ys), jitted(params, xs, ys))))

# the gradient step, compiled ahead of time with the parameters donated
@jax.jit
def sgd(params, x, y):
    g = jax.grad(loss)(params, x, y)
    return jax.tree.map(lambda p, d: p - 0.1 * d, params, g)


step = jax.jit(sgd.__wrapped__ if hasattr(sgd, "__wrapped__") else sgd, donate_argnums=0)
lowered_step = step.lower(spec, batch, target)
print("donated:", [a.donated for a in jax.tree.leaves(lowered_step.args_info)])
compiled_step = lowered_step.compile()
p = jax.tree.map(jnp.array, params)
for _ in range(5):
    p = compiled_step(p, xs, ys)
print("loss after 5 steps:", loss(p, xs, ys))
print("out_info:", jax.tree.map(lambda s: s.shape, compiled_step.out_info))

# costs: two matmuls and a tanh layer
def layer(w, x):
    return jnp.tanh(x @ w)


lowered_layer = jax.jit(layer).lower(jax.ShapeDtypeStruct((5, 3), jnp.float32),
                                     jax.ShapeDtypeStruct((7, 5), jnp.float32))
cost = lowered_layer.compile().cost_analysis()
print("flops:", cost["flops"], "transcendentals:", cost["transcendentals"])
mem = lowered_layer.compile().memory_analysis()
print("memory: arguments", mem.argument_size_in_bytes, "outputs", mem.output_size_in_bytes)

# static arguments are fixed at lowering
def power(x, n):
    return x ** n


lowered_pow = jax.jit(power, static_argnums=1).lower(jnp.float32(2.0), 3)
print("static in_tree:", lowered_pow.in_tree)
compiled_pow = lowered_pow.compile()
print("2**3 =", compiled_pow(jnp.float32(2.0)))

# a Compiled takes the types it was compiled for only
try:
    compiled(params, xs[:8], ys[:8])
except TypeError:
    print("TypeError: other shapes")
try:
    compiled(params, xs.astype(np.int32), ys)
except TypeError:
    print("TypeError: other dtype")

# eval_shape from the same stand-ins
print("eval_shape:", jax.eval_shape(loss, spec, batch, target))
print("jit eval_shape:", jitted.eval_shape(spec, batch, target))
