"""vmap and jit idioms from "Automatic vectorization" and "Just-in-time compilation":
in_axes/out_axes as trees, nested vmap, named axes with psum, static arguments, and jitted
methods and closures."""

from functools import partial

import jax
import jax.numpy as jnp

x = jnp.arange(5.0)
w = jnp.array([2.0, 3.0, 4.0])


def convolve(x, w):
    output = []
    for i in range(1, len(x) - 1):
        output.append(jnp.dot(x[i - 1:i + 2], w))
    return jnp.array(output)


xs = jnp.stack([x, x * 2])
ws = jnp.stack([w, w])
print(convolve(x, w))
print(jax.vmap(convolve)(xs, ws))
print(jax.vmap(convolve, in_axes=[0, None])(xs, w))
print(jax.vmap(convolve, in_axes=1, out_axes=1)(xs.T, ws.T))
print(jax.jit(jax.vmap(convolve))(xs, ws))

print(jax.vmap(lambda d: d["a"] * d["b"], in_axes=({"a": 0, "b": None},))({"a": jnp.arange(3.0),
                                                                              "b": 2.0}))
print(jax.vmap(lambda a, b: (a + b, a * b), out_axes=(0, 1))(jnp.ones((2, 3)), jnp.ones((2, 3))))
print(jax.vmap(jax.vmap(lambda a, b: a * b, (None, 0)), (0, None))(jnp.arange(3.0), jnp.arange(4.0)))
print(jax.vmap(lambda v: v / jax.lax.psum(v, "i"), axis_name="i")(jnp.arange(1.0, 5.0)))
print(jax.vmap(lambda v: v - jax.lax.pmean(v, "batch"), axis_name="batch")(jnp.arange(4.0)))
print(jax.vmap(lambda v: jax.lax.pmax(v, "b") + jax.lax.axis_index("b"), axis_name="b")(
    jnp.array([3.0, 1.0, 2.0])))
print(jax.vmap(jnp.dot, in_axes=(0, None))(jnp.eye(3), jnp.arange(3.0)))
print(jax.vmap(lambda x: x.sum(), in_axes=2)(jnp.arange(24.0).reshape(2, 3, 4)))
print(jax.vmap(lambda k: jax.random.normal(k, (2,)))(jax.random.split(jax.random.PRNGKey(0), 2)))
print(jax.vmap(jnp.linalg.norm, in_axes=0)(jnp.arange(6.0).reshape(3, 2)))
print(jax.vmap(lambda x, y: x + y, in_axes=(0, None), axis_size=3)(jnp.ones(3), 1.0))


def selu(x, alpha=1.67, lmbda=1.05):
    return lmbda * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)


selu_jit = jax.jit(selu)
data = jax.random.normal(jax.random.PRNGKey(1), (6,))
print(selu_jit(data))
print(jax.jit(selu, static_argnames=["alpha"])(data, alpha=1.0))


@partial(jax.jit, static_argnums=(1,))
def pool(x, size):
    return x.reshape(-1, size).mean(axis=1)


print(pool(jnp.arange(12.0), 3), pool(jnp.arange(12.0), 4))


class Scaler:
    def __init__(self, factor):
        self.factor = factor

    @partial(jax.jit, static_argnums=0)
    def apply(self, x):
        return x * self.factor


print(Scaler(3.0).apply(jnp.arange(3.0)))

lowered = jax.jit(lambda x: jnp.sin(x) * 2).lower(1.0)
compiled = lowered.compile()
print(compiled(0.5), jax.jit(lambda x: jnp.sin(x) * 2)(0.5))
print(jax.eval_shape(lambda x, y: x @ y, jax.ShapeDtypeStruct((4, 3), jnp.float32),
                     jax.ShapeDtypeStruct((3, 2), jnp.float32)))
print(jax.make_jaxpr(lambda x: jnp.sum(x * 2))(jnp.ones(3)).out_avals)


def g(x, n):
    i = 0
    while i < n:
        i += 1
    return x + i


print(jax.jit(g, static_argnums=1)(10.0, 20))
print(jax.jit(lambda x: jax.lax.fori_loop(0, 3, lambda i, c: c + x, 0.0))(2.0))
print(jax.block_until_ready(jax.jit(jnp.cumsum)(jnp.arange(4))))
print(jax.device_get(jnp.arange(3)), jax.numpy.asarray(jax.device_put(jnp.ones(2))))
