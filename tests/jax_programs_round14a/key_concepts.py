"""JAX's "Key concepts" and "Tracing" pages: jax.Array basics (devices, sharding, is_fully
addressable), transformations as function->function, tracers seen inside jit (their
type's name, shape, dtype), jaxprs of small functions printed in full (with literals, pjit,
cond and scan sub-jaxprs counted), pytrees as inputs, eval_shape, ShapeDtypeStruct, static
vs traced operations (np vs jnp inside jit), and jax.device_get / device_put round trips."""

import jax
import jax.numpy as jnp
import numpy as np

x = jnp.arange(5)
print(isinstance(x, jax.Array), x.devices() == {jax.devices()[0]}, x.is_fully_addressable)
print(type(x.sharding).__name__, x.sharding.device_set == {jax.devices()[0]})


@jax.jit
def selu(x, alpha=1.67, lambda_=1.05):
    return lambda_ * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)


print(selu(jnp.arange(-2.0, 3.0)))


@jax.jit
def inspect(x):
    print("tracer:", type(x).__name__.endswith("Tracer"), x.shape, x.dtype)
    return x + 1


inspect(jnp.ones((2, 3)))


def selu_plain(x, alpha=1.67, lambda_=1.05):
    return lambda_ * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)


print(jax.make_jaxpr(selu_plain)(3.0))
print(jax.make_jaxpr(lambda x, y: jnp.dot(x, y) + 1.0)(jnp.ones((2, 3)), jnp.ones(3)))
print(jax.make_jaxpr(lambda x: jnp.sum(x**2, axis=0))(jnp.ones((4, 2))))
print(jax.make_jaxpr(lambda x: x.astype(jnp.int32) * 2)(jnp.ones(3)))
jp = jax.make_jaxpr(lambda p: jax.lax.cond(p > 0, lambda: p, lambda: -p))(1.0)
print([e.primitive.name for e in jp.jaxpr.eqns])
jp = jax.make_jaxpr(lambda xs: jax.lax.scan(lambda c, x: (c + x, c * x), 0.0, xs))(jnp.ones(3))
print([e.primitive.name for e in jp.jaxpr.eqns], len(jp.jaxpr.invars), len(jp.jaxpr.outvars))
print(jax.make_jaxpr(jax.grad(lambda x: jnp.sin(x) * 2.0))(1.0))


def f(params, x):
    return jnp.tanh(x @ params["w"] + params["b"])


params = {"w": jnp.ones((3, 2)), "b": jnp.zeros(2)}
print(jax.eval_shape(f, params, jnp.ones((5, 3))))
spec = jax.ShapeDtypeStruct((7, 3), jnp.float32)
print(jax.eval_shape(f, params, spec).shape, spec.shape, spec.dtype, spec.ndim, spec.size)
print(jax.tree.map(lambda a: a.shape, jax.eval_shape(jax.grad(lambda p, x: f(p, x).sum()), params, spec)))


@jax.jit
def static_vs_traced(x):
    print("np shape product:", np.prod(x.shape))
    return x.reshape(np.prod(x.shape))


print(static_vs_traced(jnp.ones((2, 3))).shape)
host = jax.device_get(jnp.arange(3.0))
print(type(host).__name__, host)
dev = jax.device_put(np.arange(3.0))
print(isinstance(dev, jax.Array), dev)
print(jax.device_get({"a": jnp.ones(2), "b": 3}))
print(jax.block_until_ready(jnp.ones(2) * 3))
print(jnp.ones(3).block_until_ready(), jax.devices()[0].platform, jax.default_backend(), jax.device_count())
print(jax.numpy.asarray(np.float32(1.5)), jnp.array([1, 2]).copy(), np.asarray(jnp.arange(3)))
