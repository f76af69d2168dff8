"""JAX's "Introduction to debugging" page: jax.debug.print inside jit, vmap, grad and scan
(format strings with positional and keyword fields, ordered=True), jax.debug.callback,
checkify with user checks and automatic checks (NaN, division, index), err.get() and
err.throw(), checkify under jit and vmap, and jax.debug_nans/jax.disable_jit style toggles."""

import jax
import jax.numpy as jnp
from jax.experimental import checkify


@jax.jit
def f(x):
    jax.debug.print("jax.debug.print(x) -> {x}", x=x)
    y = jnp.sin(x)
    jax.debug.print("jax.debug.print(y) -> {y}", y=y)
    return y


result = f(2.0)
print("result", result)
jax.vmap(lambda x: jax.debug.print("vmapped {}", x) or x * 2)(jnp.arange(3.0))
jax.grad(lambda x: (jax.debug.print("primal {x:.3f}", x=x), x**2)[1])(1.5)


def body(carry, x):
    jax.debug.print("step {i} carry {c}", i=x, c=carry)
    return carry + x, None


jax.lax.scan(body, 0, jnp.arange(3))
jax.jit(lambda x: jax.debug.print("ordered {} {}", x, x + 1, ordered=True))(jnp.int32(4))
jax.debug.print("plain {a} and {b}", a=jnp.array([1, 2]), b="text")
seen = []
jax.jit(lambda x: jax.debug.callback(lambda v: seen.append(float(v)), x * 3))(2.0)
print("callback saw", seen)


def g(x):
    checkify.check(x > 0, "x must be positive, got {}", x)
    return jnp.log(x)


checked_g = checkify.checkify(g)
err, out = checked_g(jnp.array(1.0))
print(err.get(), out)
err, out = checked_g(jnp.array(-1.0))
print(err.get())
err, out = jax.jit(checked_g)(jnp.array(-2.0))
print(err.get())
try:
    err.throw()
except checkify.JaxRuntimeError as e:
    print("JaxRuntimeError", str(e).splitlines()[0])
errs, outs = jax.vmap(checked_g)(jnp.array([1.0, -1.0, 2.0]))
print(errs.get())


def h(x, i):
    return (x / x)[i], jnp.sin(x)


checked_h = checkify.checkify(h, errors=checkify.all_checks)
err, _ = checked_h(jnp.array([1.0, 0.0]), 0)
print(err.get())
err, _ = checked_h(jnp.array([1.0, 2.0]), 5)
print(err.get())
err, _ = checkify.checkify(lambda x: jnp.log(x), errors=checkify.nan_checks)(-1.0)
print(err.get())
err, _ = checkify.checkify(lambda a, b: a // b, errors=checkify.div_checks)(jnp.int32(3), jnp.int32(0))
print(err.get())
err, _ = checkify.checkify(lambda x: jnp.log(x), errors=checkify.nan_checks)(1.0)
print(err.get())
with jax.disable_jit():
    print(jax.jit(lambda x: x * 2)(jnp.arange(3)))
with jax.debug_nans(True):
    try:
        jnp.log(-1.0) * 0
    except FloatingPointError as e:
        print("FloatingPointError", "nan" in str(e).lower())
print(jax.jit(lambda x: jnp.log(x))(-1.0))
