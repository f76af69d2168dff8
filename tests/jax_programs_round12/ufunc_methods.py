"""NumPy-style ufunc objects in `jax.numpy`: `jnp.add.reduce/accumulate/outer/at/reduceat`,
`jnp.multiply`, `maximum`, `logical_and` and `bitwise_or` as ufuncs, their attributes
(`nin`, `nout`, `identity`), and user ufuncs from `jnp.frompyfunc` with reduce/accumulate/
outer, under jit and vmap."""

import jax
import jax.numpy as jnp

x = jnp.arange(1.0, 7.0).reshape(2, 3)
print(
    jnp.add.reduce(x), jnp.add.reduce(x, axis=1), jnp.add.reduce(x, axis=None), jnp.multiply.reduce(x, axis=0)
)
print(jnp.add.accumulate(x, axis=1), jnp.multiply.accumulate(jnp.arange(1.0, 6.0)))
print(
    jnp.add.outer(jnp.arange(3), jnp.arange(4)),
    jnp.multiply.outer(jnp.array([1.0, 2.0]), jnp.array([3.0, 4.0, 5.0])),
)
print(
    jnp.maximum.reduce(jnp.array([3.0, -1.0, 7.0, 2.0])),
    jnp.maximum.accumulate(jnp.array([3.0, -1.0, 7.0, 2.0])),
)
print(jnp.logical_and.reduce(jnp.array([True, True, False])), jnp.bitwise_or.reduce(jnp.array([1, 2, 8])))
print(jnp.add.at(jnp.zeros(5), jnp.array([0, 1, 1, 4]), 1.0, inplace=False))
print(jnp.add.reduceat(jnp.arange(8.0), jnp.array([0, 4, 1, 5])))
print(
    jnp.add.nin, jnp.add.nout, jnp.add.identity, jnp.multiply.identity, jnp.maximum.identity, jnp.add.__name__
)
print(jnp.add.reduce(x, axis=1, keepdims=True), jnp.add.reduce(x, axis=0, where=x > 2))
print(jnp.add.reduce(jnp.arange(4), dtype=jnp.float32), jnp.multiply.reduce(jnp.ones(0)))


def smooth_max(a, b):
    return jnp.logaddexp(a, b)


smax = jnp.frompyfunc(smooth_max, nin=2, nout=1, identity=-jnp.inf)
print(smax.nin, smax.nout, smax.identity)
v = jnp.array([0.5, 2.0, -1.0, 1.5])
print(smax(v, 1.0), smax.reduce(v), smax.accumulate(v), smax.outer(v[:2], v[2:]))
print(jax.jit(smax.reduce)(v), jax.vmap(smax.reduce)(jnp.stack([v, 2 * v])))
print(jax.grad(lambda t: smax.reduce(t))(v))

hyp = jnp.frompyfunc(lambda a, b: jnp.sqrt(a * a + b * b), nin=2, nout=1, identity=0.0)
print(hyp.reduce(jnp.array([3.0, 4.0, 12.0])), hyp.accumulate(jnp.array([3.0, 4.0, 12.0])))
print(hyp.at(jnp.array([3.0, 0.0, 5.0]), jnp.array([0, 2]), jnp.array([4.0, 12.0]), inplace=False))
