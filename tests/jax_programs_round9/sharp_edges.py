"""jax.numpy's sharp edges beyond "Sharp bits": integer division by zero, out-of-bounds
indexing that clamps, .at[].get with mode= and fill_value=, integer overflow that wraps,
weak-type promotion, lists passed to jnp functions, in-place updates, jnp.array of a list of
arrays, NaN in reductions and sorting."""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

# integer division and remainders by zero: XLA defines them, no error and no warning
a = jnp.array([7, -7, 0, 5])
z = jnp.zeros(4, dtype=a.dtype)
print(a // z, a % z, jnp.fmod(a, z), jnp.divmod(a, z))
print(lax.div(a, z), lax.rem(a, z))
print(jnp.array([7, 0, 200], jnp.uint8) // jnp.zeros(3, jnp.uint8), lax.div(jnp.uint32(9), jnp.uint32(0)))
print(jnp.array([1.0, -1.0, 0.0]) / 0.0, jnp.array([1.0, -1.0]) // 0.0, jnp.array([5.0, -5.0]) % 0.0)
print(jax.jit(lambda x, y: (x // y, x % y))(a, jnp.array([2, 0, 3, -2])))
print(lax.div(a, jnp.array([2, 2, 2, -2])), lax.rem(a, jnp.array([2, 2, 2, -2])))
print(a // jnp.array([2, 2, 2, -2]))

# out-of-bounds: gathers clamp, scatters drop, .at[].get modes
x = jnp.arange(10.0)
print(x[11], x[-11], x[jnp.array([0, 12, -12])])
print(x.at[11].get(), x.at[11].get(mode="fill", fill_value=-1.0), x.at[jnp.array([3, 30])].get(mode="fill"))
print(x.at[jnp.array([1, 15])].get(mode="clip"))
print(x.at[jnp.array([2, 12])].get(mode="fill", fill_value=jnp.nan))
print(x.at[11].set(100.0), x.at[jnp.array([0, 20])].add(5.0), x.at[-1].multiply(3.0))
print(x.at[jnp.array([9, 10])].set(-1.0, mode="drop"), x.at[jnp.array([9, 10])].set(-1.0, mode="clip"))
print(jnp.arange(12).reshape(3, 4).at[1:, ::2].set(0), jnp.arange(5).at[jnp.array([0, 0, 1])].add(1))
print(jnp.take(x, jnp.array([0, 20]), mode="fill", fill_value=-5.0))
print(jnp.take(x, jnp.array([0, 20]), mode="clip"))
print(jnp.take_along_axis(jnp.arange(6.0).reshape(2, 3), jnp.array([[0, 5], [2, 1]]), axis=1, mode="clip"))

# overflow wraps
print(jnp.array([127], jnp.int8) + 1, jnp.array([0], jnp.uint8) - 1, jnp.array([2 ** 31 - 1], jnp.int32) + 1)
print(jnp.array([200], jnp.uint8) * 2, jnp.int16(300) * jnp.int16(300))
print(jnp.iinfo(jnp.int32).max + jnp.int32(1))
print(jnp.array([60000.0], jnp.float16) * 2, jnp.array([1e38], jnp.float32) * 10)
print(jnp.arange(5, dtype=jnp.uint8) - 3, (-jnp.arange(3, dtype=jnp.uint16)))

# weak types
print(repr(jnp.float16(1.0) + 1.0), repr(jnp.int8(1) + 300 - 300), repr(jnp.array(2, jnp.uint8) * 3))
print(repr(jnp.ones(2, jnp.bfloat16) * 2.5), repr(jnp.ones(2, jnp.int32) * 2))
print(repr(jnp.ones(2, jnp.int16) + 1.5))
print(repr(jnp.asarray(3.0) * jnp.ones(2, jnp.float16)), repr(jnp.array(1) + jnp.array(1.0, jnp.float16)))
print(jnp.result_type(1, 1.0, jnp.int8), jnp.result_type(jnp.float16, 2.0), jnp.result_type(jnp.uint8, -1))
print(jnp.promote_types(jnp.int8, jnp.uint8), jnp.promote_types(jnp.bfloat16, jnp.float16))

# lists are not arrays
for fn in (jnp.sin, jnp.exp, jnp.abs, jnp.sum, jnp.cumsum, jnp.argmax, jnp.clip, jnp.sort, jnp.dot):
    try:
        if fn is jnp.clip:
            fn([1.0, 2.0], 0.0, 1.0)
        elif fn is jnp.dot:
            fn([1.0, 2.0], jnp.ones(2))
        else:
            fn([1.0, 2.0])
    except TypeError as e:
        print(str(e))
try:
    jnp.add(jnp.ones(2), [1.0, 2.0])
except TypeError as e:
    print(str(e))
print(jnp.sin(jnp.array([1.0, 2.0])), jnp.asarray([1, 2]), jnp.array((1.0, 2.0)), jnp.add(1, 2.0))
print(jnp.array([jnp.array(1.0), jnp.array(2.0)]), jnp.array([jnp.ones(2), jnp.zeros(2)]).shape)
print(repr(jnp.array([jnp.float32(1.0), 2])), repr(jnp.array([1, 2.5], dtype=jnp.float16)))
print(jnp.stack([jnp.ones(2), jnp.zeros(2)]), jnp.concatenate([jnp.ones(1), jnp.array([2.0, 3.0])]))

# immutability
try:
    x[0] = 1.0
except TypeError as e:
    print(type(e).__name__, "immutable" in str(e))
y = np.asarray(jnp.arange(3))
print(type(y).__name__, y.flags.writeable)

# NaNs in reductions, sorting and comparisons
v = jnp.array([3.0, jnp.nan, 1.0, -jnp.inf])
print(jnp.max(v), jnp.nanmax(v), jnp.argmax(v), jnp.nanargmax(v), jnp.sort(v), jnp.argsort(v))
print(jnp.min(v), jnp.nanmin(v), jnp.nansum(v), jnp.nanmean(v), jnp.maximum(v, 0.0), jnp.fmax(v, 0.0))
print(jnp.unique(jnp.array([1.0, jnp.nan, 1.0, jnp.nan])), v == v, jnp.isnan(v).sum())
print(jnp.round(jnp.array([0.5, 1.5, 2.5, -0.5])), jnp.round(jnp.array([1.234, 5.678]), 1), jnp.rint(2.5))
print(jnp.array([-0.0]) == 0.0, jnp.signbit(jnp.array([-0.0, 0.0])), jnp.sign(jnp.array([-0.0, 0.0, -2.0])))
print(jnp.float32(0.1) + jnp.float32(0.2), jnp.arange(0.0, 1.0, 0.1).shape)
print(jnp.linspace(0, 1, 5, dtype=jnp.int32))
