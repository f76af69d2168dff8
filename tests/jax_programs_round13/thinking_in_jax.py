"""The "Thinking in JAX" and "Sharp bits" pages end to end, with what they print: jax.Array
vs np.ndarray types, immutability (the TypeError of item assignment), the same function on
NumPy and JAX arrays, jit tracing (a print inside jit runs once per signature and shows
tracer shapes via .shape/.dtype), static vs traced values (the errors of Python control
flow on traced values, caught by class), jnp.where instead of if, static_argnames
recompilation, impure functions reading globals at trace time, iterators in lax loops,
out-of-bounds reads clamped, and the exception types jax.errors exposes."""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

x_np = np.linspace(0, 10, 5)
x_jnp = jnp.linspace(0, 10, 5)
print(type(x_np).__name__, isinstance(x_jnp, jax.Array), x_jnp.dtype, x_np.dtype)
try:
    x_jnp[0] = 10
except TypeError as e:
    print("TypeError", "immutable" in str(e))
print(x_jnp.at[0].set(10), x_jnp)
print(jnp.add(1, 1.0), jnp.add(np.int8(1), 1).dtype, (jnp.arange(3, dtype=jnp.int8) + 200).dtype)
try:
    jnp.sum([1, 2, 3])
except TypeError as e:
    print("TypeError", str(e)[:60])
print(jnp.sum(jnp.array([1, 2, 3])), jnp.sum(np.array([1, 2, 3])))

traces = []


@jax.jit
def f(x, y):
    traces.append((x.shape, str(x.dtype), type(x).__name__ == type(y).__name__))
    return jnp.dot(x + 1, y + 1)


f(jnp.ones((3, 4)), jnp.ones(4))
f(jnp.zeros((3, 4)), jnp.arange(4.0))
f(jnp.ones((2, 4)), jnp.ones(4))
print(len(traces), traces[0], traces[-1])


def g(x, neg):
    return -x if neg else x


try:
    jax.jit(g)(1.0, True)
except jax.errors.TracerBoolConversionError as e:
    print("TracerBoolConversionError", isinstance(e, jax.errors.ConcretizationTypeError))
print(jax.jit(g, static_argnames="neg")(1.0, True), jax.jit(g, static_argnums=1)(2.0, False))


def h(x):
    return x.reshape(jnp.array(x.shape).prod())


try:
    jax.jit(h)(jnp.ones((2, 3)))
except TypeError as e:
    print("TypeError", type(e).__name__)
print(jax.jit(lambda x: x.reshape(np.prod(x.shape)))(jnp.ones((2, 3))).shape)
try:
    jax.jit(lambda x: int(x))(3.0)
except jax.errors.ConcretizationTypeError as e:
    print("ConcretizationTypeError", issubclass(type(e), TypeError))
try:
    jax.jit(lambda x: np.asarray(x))(jnp.ones(2))
except jax.errors.TracerArrayConversionError:
    print("TracerArrayConversionError")
try:
    jax.jit(lambda i, v: v[i:i + 2])(1, jnp.arange(5))
except IndexError:
    print("IndexError")
print(jax.jit(lambda i, v: lax.dynamic_slice(v, (i,), (2,)))(1, jnp.arange(5)))
print(jax.jit(lambda x: jnp.where(x > 0, x, -x))(jnp.array([-1.0, 2.0])))

g_value = 4.0


@jax.jit
def impure(x):
    return x * g_value


print(impure(1.0))
g_value = 10.0
print(impure(2.0), impure(jnp.array(2.0, jnp.float32)), impure(jnp.array([2.0])))
print(lax.fori_loop(0, 3, lambda i, c: c + i, 0), jnp.arange(10)[11], jnp.arange(10.0).at[11].get())
print(jax.jit(lambda v: v[-1] + v[20])(jnp.arange(4.0)))
print(jnp.arange(10.0)[jnp.array([-20, 20])], jnp.zeros(3).at[5].add(1.0))
print(jnp.nan_to_num(jnp.array([jnp.nan, jnp.inf])), jnp.divide(0.0, 0.0), jnp.array(0) // 0)
print(jax.grad(lambda x: jnp.where(x > 0, jnp.sqrt(x), 0.0))(0.0))
print(jax.grad(lambda x: jnp.sqrt(jnp.where(x > 0, x, 1.0)) * (x > 0))(0.0))
print(issubclass(jax.errors.UnexpectedTracerError, Exception), jax.errors.KeyReuseError.__name__)
leaked = []
jax.jit(lambda x: leaked.append(x) or x)(1.0)
try:
    jnp.sin(leaked[0])
except jax.errors.UnexpectedTracerError:
    print("UnexpectedTracerError")
print(jax.make_jaxpr(lambda x, y: jnp.sin(x) * y)(1.0, jnp.ones(2)))
