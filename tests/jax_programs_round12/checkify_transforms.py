"""The checkify page's transformations section: errors found inside jit, vmap (per-element
errors), grad, scan and while loops, cond branches; `checkify.all_checks` against each error
set; user checks with formatted values; `err.get()`, `err.throw()` and the messages of the
first failing check."""

import re

import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import checkify


def clean(msg):
    return None if msg is None else re.sub(r" \(check failed at .*\)", "", msg.split("\n")[0])


def f(x, i):
    checkify.check(jnp.all(x > -5), "x too small: {}", jnp.min(x))
    y = jnp.log(x)
    return y[i] / (i - 2)


for errors, name in [
    (checkify.user_checks, "user"),
    (checkify.nan_checks, "nan"),
    (checkify.index_checks, "index"),
    (checkify.div_checks, "div"),
    (checkify.float_checks, "float"),
    (checkify.all_checks, "all"),
]:
    cf = checkify.checkify(f, errors=errors)
    for args in [
        (jnp.array([1.0, 2.0, 3.0]), 1),
        (jnp.array([-1.0, 2.0, 3.0]), 0),
        (jnp.array([1.0, 2.0, 3.0]), 5),
        (jnp.array([-9.0, 2.0, 3.0]), 1),
    ]:
        err, out = cf(*args)
        print(name, clean(err.get()))

cf = jax.jit(checkify.checkify(f, errors=checkify.all_checks))
err, out = cf(jnp.array([1.0, 2.0, 3.0]), 1)
print(err.get(), out)
err, out = cf(jnp.array([1.0, 2.0, 3.0]), 2)
print(clean(err.get()))

vf = jax.vmap(checkify.checkify(lambda x: jnp.log(x) + 1, errors=checkify.nan_checks))
err, out = vf(jnp.array([1.0, -1.0, 2.0, -3.0]))
print(clean(err.get()), out)
vf2 = checkify.checkify(jax.vmap(lambda x: jnp.log(x) + 1), errors=checkify.nan_checks)
err, out = vf2(jnp.array([1.0, -1.0, 2.0]))
print(clean(err.get()))

gf = checkify.checkify(jax.grad(lambda x: jnp.sqrt(x) * jnp.sin(x)), errors=checkify.float_checks)
print(clean(gf(0.0)[0].get()), clean(gf(1.0)[0].get()), gf(1.0)[1])


def scanned(xs):
    def body(c, x):
        checkify.check(x != 3.0, "element {} is forbidden at carry {}", x, c)
        return c + x, c * x

    return lax.scan(body, 0.0, xs)


err, (c, ys) = checkify.checkify(scanned)(jnp.array([1.0, 2.0, 4.0]))
print(err.get(), c, ys)
err, _ = checkify.checkify(scanned)(jnp.array([1.0, 3.0, 4.0, 3.0]))
print(clean(err.get()))


def looped(n):
    def body(s):
        i, acc = s
        checkify.check(acc < 50, "overflow at step {}", i)
        return i + 1, acc * 2 + 1

    return lax.while_loop(lambda s: s[0] < n, body, (0, 1))


err, out = jax.jit(checkify.checkify(looped))(4)
print(err.get(), out)
err, out = jax.jit(checkify.checkify(looped))(10)
print(clean(err.get()), out)

branchy = checkify.checkify(
    lambda p, x: lax.cond(p, lambda v: jnp.log(v), lambda v: v * v[jnp.int32(7)], x),
    errors=checkify.all_checks,
)
print(clean(branchy(True, jnp.array([-1.0, 1.0]))[0].get()))
print(clean(branchy(False, jnp.array([-1.0, 1.0]))[0].get()))
try:
    checkify.checkify(f, errors=checkify.all_checks)(jnp.array([1.0, 2.0, 3.0]), 7)[0].throw()
except checkify.JaxRuntimeError as e:
    print("JaxRuntimeError", clean(str(e)))
