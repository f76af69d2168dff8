"""Custom reductions with `lax.reduce` (one and several operands: an argmax-with-value
reduction), `lax.reduce_window` with a user computation, strides, padding and base/window
dilation, `lax.cummax/cummin/cumlogsumexp/cumprod` in both directions, `lax.associative_scan`
over a pytree (a linear recurrence), and `lax.reduce_precision`."""

import jax
import jax.numpy as jnp
from jax import lax

x = jnp.array([[3.0, -1.0, 4.0, 1.0], [5.0, 9.0, -2.0, 6.0], [5.0, 3.0, 5.0, 8.0]])
print(
    lax.reduce(x, 0.0, lax.add, (0,)),
    lax.reduce(x, -jnp.inf, lax.max, (1,)),
    lax.reduce(x, 1.0, lax.mul, (0, 1)),
)
print(lax.reduce(x, -jnp.inf, jnp.logaddexp, (1,)), lax.reduce(x, 0.0, lambda a, b: a + b, (0,)))


def argmax_pair(a, b):
    (va, ia), (vb, ib) = a, b
    take_b = (vb > va) | ((vb == va) & (ib < ia))
    return jnp.where(take_b, vb, va), jnp.where(take_b, ib, ia)


idx = lax.broadcasted_iota(jnp.int32, x.shape, 1)
print(lax.reduce((x, idx), (-jnp.inf, jnp.int32(0)), argmax_pair, (1,)))
print(lax.reduce_window(x, 0.0, lax.add, (2, 2), (1, 1), "VALID"))
print(lax.reduce_window(x, -jnp.inf, lax.max, (2, 2), (1, 2), "SAME"))
print(lax.reduce_window(x, 0.0, lax.add, (1, 3), (1, 1), [(0, 0), (1, 1)]))
print(
    lax.reduce_window(x, 0.0, lax.add, (2, 2), (1, 1), "VALID", base_dilation=(1, 2), window_dilation=(1, 1))
)
print(lax.reduce_window(x, 0.0, lax.add, (2, 2), (1, 1), "VALID", window_dilation=(2, 1)))
print(lax.reduce_window(x, 1.0, lax.mul, (1, 2), (1, 1), "VALID"))
print(jax.grad(lambda v: jnp.sum(lax.reduce_window(v, -jnp.inf, lax.max, (2, 2), (1, 1), "VALID") ** 2))(x))
print(jax.grad(lambda v: jnp.sum(lax.reduce_window(v, 0.0, lax.add, (2, 2), (2, 2), "SAME")))(x))

v = jnp.array([0.5, 2.0, -1.0, 3.0, 1.0])
print(lax.cummax(v), lax.cummin(v), lax.cummax(v, reverse=True), lax.cumprod(v), lax.cumsum(v, reverse=True))
print(lax.cumlogsumexp(v), lax.cumlogsumexp(v, reverse=True), lax.cummax(x, axis=1))
print(jax.grad(lambda t: jnp.sum(lax.cumlogsumexp(t) * jnp.arange(5.0)))(v))
print(jax.grad(lambda t: jnp.sum(lax.cumprod(t)))(v))
print(jax.grad(lambda t: jnp.sum(lax.cummax(t) * jnp.arange(5.0)))(v))


def combine(left, right):
    a1, b1 = left
    a2, b2 = right
    return a1 * a2, a2 * b1 + b2


a = jnp.array([0.9, 0.8, 1.1, 0.5, 0.7, 1.2])
b = jnp.array([1.0, -0.5, 0.25, 2.0, 0.0, 1.0])
A, B = lax.associative_scan(combine, (a, b))
print(A, B)
h, hs = 0.0, []
for ai, bi in zip(a.tolist(), b.tolist()):
    h = ai * h + bi
    hs.append(h)
print(jnp.array(hs))
print(lax.associative_scan(combine, (a, b), reverse=True)[1])
print(lax.associative_scan(jnp.add, jnp.arange(12.0).reshape(3, 4), axis=1))
print(lax.associative_scan(jnp.maximum, x, axis=0))
print(lax.reduce_precision(jnp.array([1.0 / 3.0, 1e-5, 1000.7]), exponent_bits=5, mantissa_bits=10))
print(lax.reduce_precision(jnp.array([1.0 / 3.0, 3e38]), exponent_bits=8, mantissa_bits=7))
