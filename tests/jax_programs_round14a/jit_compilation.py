"""JAX's "Just-in-time compilation" page: jaxprs of a traced function (side effects at trace
time only), static_argnums/static_argnames and their recompilation, functools.partial with
jit, jit as a decorator on a function of keyword arguments, jit of methods with a static
self (hash/eq), jit's cache (recompiling on shape, dtype, weak type changes), the errors of
Python control flow on traced values, and lower/compile text-free stages."""

import functools

import jax
import jax.numpy as jnp
import numpy as np

global_list = []
trace_count = []


def log2(x):
    global_list.append(x)
    ln_x = jnp.log(x)
    ln_2 = jnp.log(2.0)
    return ln_x / ln_2


print(jax.make_jaxpr(log2)(3.0))
print(len(global_list), type(global_list[0]).__name__.endswith("Tracer"))


def log2_with_print(x):
    trace_count.append(1)
    return jnp.log(x) / jnp.log(2.0)


f = jax.jit(log2_with_print)
print(f(3.0), f(4.0), f(jnp.array([3.0, 4.0])), f(jnp.array([5.0, 6.0])), len(trace_count))


def fct(x):
    if x > 0:
        return x
    return 2 * x


try:
    jax.jit(fct)(10.0)
except jax.errors.ConcretizationTypeError as e:
    print("ConcretizationTypeError", type(e).__mro__[1].__name__)


def g(x, n):
    i = 0
    while i < n:
        i += 1
    return x + i


print(jax.jit(g, static_argnums=1)(10, 20), jax.jit(g, static_argnames=["n"])(10, n=20))
try:
    jax.jit(g)(10, 20)
except jax.errors.TracerBoolConversionError:
    print("TracerBoolConversionError")


@functools.partial(jax.jit, static_argnames=["n"])
def g_jit_decorated(x, n):
    i = 0
    while i < n:
        i += 1
    return x + i


print(g_jit_decorated(10, 20), g_jit_decorated(10.5, n=3))


def loop_body(prev_i):
    return prev_i + 1


def g_inner_jitted_partial(x, n):
    i = 0
    while i < n:
        i = jax.jit(functools.partial(loop_body))(i)
    return x + i


def g_inner_jitted_normal(x, n):
    i = 0
    while i < n:
        i = jax.jit(loop_body)(i)
    return x + i


print(g_inner_jitted_partial(10, 5), g_inner_jitted_normal(10, 5))


class CustomClass:
    def __init__(self, x: jnp.ndarray, mul: bool):
        self.x = x
        self.mul = mul

    def calc(self, y):
        return _calc(self.mul, self.x, y)

    @functools.partial(jax.jit, static_argnums=0)
    def calc_static(self, y):
        if self.mul:
            return self.x * y
        return y

    def __hash__(self):
        return hash((id(self.x), self.mul))

    def __eq__(self, other):
        return isinstance(other, CustomClass) and (self.x is other.x and self.mul == other.mul)


@functools.partial(jax.jit, static_argnums=0)
def _calc(mul, x, y):
    if mul:
        return x * y
    return y


c = CustomClass(jnp.array(2.0), True)
print(c.calc(3.0), c.calc_static(3.0))
c2 = CustomClass(c.x, False)
print(c2.calc(3.0), c2.calc_static(3.0), c == CustomClass(c.x, True))

calls = []


@jax.jit
def kwfun(x, *, scale=1.0, shift=None):
    calls.append(1)
    out = x * scale
    return out if shift is None else out + shift


print(kwfun(jnp.ones(2), scale=3.0), kwfun(jnp.ones(2), scale=4.0), kwfun(jnp.ones(2), shift=1.0))
print(len(calls))

sig = []


@jax.jit
def typed(x):
    sig.append((x.shape, str(x.dtype), getattr(x, "weak_type", None)))
    return x * 2


typed(1.0)
typed(2.0)
typed(jnp.float32(1.0))
typed(np.ones(3, np.float32))
typed(np.zeros(3, np.float32))
typed(np.ones(3, np.int32))
print(len(sig), [s[:2] for s in sig])

lowered = jax.jit(lambda x, y: jnp.sin(x) @ y).lower(jnp.ones((2, 3)), jnp.ones(3))
compiled = lowered.compile()
print(type(compiled).__name__, compiled(jnp.ones((2, 3)), jnp.arange(3.0)))
print(
    jax.jit(lambda x: x.sum())
    .lower(jax.ShapeDtypeStruct((4,), jnp.float32))
    .compile()(jnp.arange(4, dtype=jnp.float32))
)
try:
    compiled(jnp.ones((3, 3)), jnp.ones(3))
except TypeError:
    print("TypeError from compiled")
print(jax.jit(lambda a, b: a + b, static_argnums=(1,))(jnp.ones(2), 3))
print(jax.jit(lambda a, b: a + b, donate_argnums=0)(jnp.ones(2), jnp.ones(2)))
print(jax.jit(lambda d: d["a"] * d["b"])({"a": 2.0, "b": jnp.arange(3)}))
