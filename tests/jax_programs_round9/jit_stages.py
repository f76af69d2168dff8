"""JAX's "Just-in-time compilation" idioms: static_argnums/static_argnames, donate_argnums,
jit of bound methods and of functools.partial, retracing rules (shapes, dtypes, static values,
weak types), the ahead-of-time stages (.trace, .lower, .compile), and ShapeDtypeStruct."""

from functools import partial

import jax
import jax.numpy as jnp

traces = []


def f(x, n, mode="sum"):
    traces.append((type(x).__name__ == "ArrayImpl", n, mode))
    y = x ** n
    return y.sum() if mode == "sum" else y.max()


fj = jax.jit(f, static_argnums=1, static_argnames="mode")
x = jnp.arange(4.0)
print(fj(x, 2), fj(x, 2), fj(x, 3), fj(x, 2, mode="max"), fj(x + 1, 2))
print(len(traces))
print(fj(jnp.arange(5.0), 2), fj(jnp.arange(4), 2), len(traces))

try:
    jax.jit(f)(x, 2)
    print("no error")
except Exception as e:  # noqa: BLE001
    print(type(e).__name__)


@partial(jax.jit, static_argnames=("k",))
def topk_sum(v, k):
    return jnp.sort(v)[-k:].sum()


print(topk_sum(jnp.array([3.0, 1.0, 4.0, 1.0, 5.0]), k=2), topk_sum(jnp.array([3.0, 1.0, 4.0]), k=1))


@partial(jax.jit, donate_argnums=0)
def update(params, g):
    return jax.tree.map(lambda p, gi: p - 0.1 * gi, params, g)


p = {"w": jnp.ones(3), "b": jnp.zeros(())}
p = update(p, {"w": jnp.arange(3.0), "b": jnp.ones(())})
print(p)


class Model:
    def __init__(self, scale):
        self.scale = scale

    def apply(self, x):
        return jnp.tanh(x * self.scale)


m = Model(2.0)
print(jax.jit(m.apply)(jnp.array([0.1, 0.5])), jax.jit(partial(Model.apply, m))(jnp.array([0.1])))
print(jax.jit(partial(jnp.linspace, num=4))(0.0, 1.0))

# ahead-of-time stages
def g(a, b):
    return jnp.dot(a, b) + 1.0


lowered = jax.jit(g).lower(jnp.ones((2, 3)), jnp.ones((3,)))
compiled = lowered.compile()
print(type(lowered).__name__, type(compiled).__name__)
print(compiled(jnp.arange(6.0).reshape(2, 3), jnp.array([1.0, 0.0, -1.0])))
spec = jax.ShapeDtypeStruct((4, 3), jnp.float32)
c2 = jax.jit(g).lower(spec, jax.ShapeDtypeStruct((3,), jnp.float32)).compile()
print(c2(jnp.ones((4, 3), jnp.float32), jnp.ones(3, jnp.float32)))
try:
    c2(jnp.ones((5, 3), jnp.float32), jnp.ones(3, jnp.float32))
except TypeError:
    print("TypeError: compiled for other shapes")
traced = jax.jit(g).trace(jnp.ones((2, 3)), jnp.ones(3))
print(traced.jaxpr.out_avals if hasattr(traced.jaxpr, "out_avals") else None)
print(jax.eval_shape(g, spec, jax.ShapeDtypeStruct((3,), jnp.float32)))
print(jax.eval_shape(lambda t: jax.tree.map(jnp.sum, t), {"a": jnp.ones((2, 2)), "b": 1.0}))

# weak types and retracing
count = []


@jax.jit
def h(v):
    count.append(1)
    return v * 2


print(repr(h(1.0)), repr(h(jnp.float32(1.0))), repr(h(2)), len(count))
print(repr(h(jnp.array([1, 2], jnp.int8))), len(count))

# jit with pytrees, None and closure constants
const = jnp.array([1.0, 2.0, 3.0])
print(jax.jit(lambda t: (t["a"] @ const, None, t["b"]))({"a": jnp.ones(3), "b": (1, 2.0)}))
print(jax.jit(lambda *args: sum(args))(1.0, 2.0, jnp.float32(3.0)))
print(jax.jit(lambda x, **kw: x * kw["s"])(jnp.ones(2), s=3.0))
print(jax.block_until_ready(jax.jit(lambda v: v + 1)(jnp.zeros(2))))
print(jax.jit(jnp.cumsum)(jnp.arange(5)), jax.jit(jnp.where)(jnp.array([True, False]), 1.0, 2.0))
