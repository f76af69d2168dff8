"""Where jax.numpy's documented behaviour differs from NumPy's ("jax.numpy" reference notes
and "Sharp bits: miscellaneous divergences"): integer division and remainder by zero,
integer powers with negative exponents, unsigned and signed wrapping, float arange steps,
copy semantics, NaN ordering in sort/argsort/max/argmax, nanargmax of all-NaN rows, signed
zeros, clip with lower > upper, integer mean/var dtypes, size= arguments of unique/nonzero,
round half to even, and searchsorted with NaN."""

import jax.numpy as jnp

i = jnp.array([7, -7, 0, 5], dtype=jnp.int32)
z = jnp.zeros(4, dtype=jnp.int32)
print(i // z, i % z, jnp.floor_divide(i, 0), jnp.remainder(i, 0), jnp.fmod(i, z))
print(jnp.array([2, 3]) ** jnp.array([3, 2]), jnp.power(jnp.int32(2), 10), jnp.array([2.0]) ** -1)
print(jnp.array([250], jnp.uint8) + jnp.array([10], jnp.uint8), jnp.array([127], jnp.int8) + jnp.int8(1))
print(jnp.array([0], jnp.uint32) - 1, -jnp.array([5], jnp.uint8), jnp.abs(jnp.array([-128], jnp.int8)))
print(jnp.arange(0, 1, 0.1).shape, jnp.arange(1, 2, 0.3), jnp.arange(5, 1, -1.5), jnp.arange(3.0).dtype)
print(jnp.linspace(0, 1, 5, endpoint=False), jnp.linspace(0, 10, 4, dtype=jnp.int32), jnp.logspace(0, 2, 3))
a = jnp.array([1.0, 2.0])
b = a
a = a.at[0].set(10.0)
print(a, b, jnp.array(b, copy=False) is b or True)
x = jnp.array([3.0, jnp.nan, 1.0, -jnp.inf, 2.0])
print(jnp.sort(x), jnp.argsort(x), jnp.max(x), jnp.argmax(x), jnp.min(x), jnp.argmin(x))
print(jnp.nanmax(x), jnp.nanargmax(x), jnp.nanargmin(x), jnp.nanmin(x), jnp.nansum(x), jnp.nanmean(x))
print(jnp.nanargmax(jnp.array([[jnp.nan, jnp.nan], [1.0, jnp.nan]]), axis=1))
print(jnp.maximum(jnp.nan, 1.0), jnp.fmax(jnp.nan, 1.0), jnp.minimum(-0.0, 0.0), jnp.fmin(jnp.nan, jnp.nan))
print(
    jnp.sign(jnp.array([-0.0, 0.0, -2.0, jnp.nan])),
    jnp.signbit(jnp.array([-0.0, 0.0])),
    jnp.copysign(1.0, -0.0),
)
print(jnp.clip(jnp.arange(5.0), 3, 1), jnp.clip(jnp.arange(5), min=1), jnp.clip(jnp.arange(5.0), max=2.5))
print(jnp.mean(jnp.array([1, 2])), jnp.mean(jnp.array([1, 2])).dtype, jnp.var(jnp.array([1, 2, 4])).dtype)
print(
    jnp.mean(jnp.array([1, 2], jnp.int8)).dtype,
    jnp.sum(jnp.array([100, 100], jnp.int8)),
    jnp.sum(jnp.array([100, 100], jnp.int8)).dtype,
)
print(
    jnp.sum(jnp.array([True, True])),
    jnp.sum(jnp.array([200, 100], jnp.uint8)).dtype,
    jnp.prod(jnp.array([2, 3], jnp.int16)).dtype,
)
print(jnp.cumsum(jnp.array([True, True, False])), jnp.cumsum(jnp.array([1, 2], jnp.uint8)).dtype)
print(
    jnp.unique(jnp.array([3, 1, 3, 2]), size=5, fill_value=-1),
    jnp.unique(jnp.array([3, 1, 3, 2]), return_counts=True, size=4),
)
print(jnp.nonzero(jnp.array([0, 2, 0, 3]), size=3), jnp.flatnonzero(jnp.array([0, 2, 0, 3]), size=1))
print(
    jnp.round(jnp.array([0.5, 1.5, 2.5, -1.5, -2.5])),
    jnp.rint(jnp.array([0.5, -0.5])),
    jnp.around(1234.5678, -2),
)
print(
    jnp.searchsorted(jnp.array([1.0, 2.0, jnp.nan]), jnp.array([jnp.nan, 1.5])),
    jnp.searchsorted(jnp.array([1, 2, 3]), 2, side="right"),
)
print(
    jnp.isclose(jnp.nan, jnp.nan),
    jnp.isclose(jnp.nan, jnp.nan, equal_nan=True),
    jnp.array_equal(x, x),
    jnp.array_equal(x, x, equal_nan=True),
)
print(
    jnp.floor(jnp.array([-1.5])).dtype,
    jnp.floor(jnp.array([3])).dtype,
    jnp.ceil(jnp.array([3], jnp.int8)).dtype,
    jnp.trunc(jnp.array([-2.7, 2.7])),
)
print(jnp.divmod(jnp.array([7, -7]), 3), jnp.divmod(jnp.array([7.5, -7.5]), 2.0))
print(
    jnp.true_divide(jnp.array([1], jnp.int8), jnp.array([2], jnp.int8)).dtype,
    (jnp.array([1], jnp.uint8) / 2).dtype,
)
print(jnp.left_shift(jnp.int32(1), 33), jnp.right_shift(jnp.int32(-8), 1), jnp.right_shift(jnp.uint8(255), 9))
print(jnp.bitwise_not(jnp.array([0], jnp.uint8)), ~jnp.array([True, False]), jnp.invert(jnp.int8(5)))
print(
    jnp.gcd(jnp.array([12, -18, 0]), 8),
    jnp.lcm(jnp.array([4, 6]), 6),
    jnp.int32(-7) % 3,
    jnp.float32(-7.0) % 3,
)
print(
    jnp.exp2(jnp.array([0.5, 10])),
    jnp.log2(jnp.array([0.0, -1.0, 8.0])),
    jnp.sqrt(jnp.array([-1.0])),
    jnp.sqrt(jnp.array([-1.0 + 0j])),
)
print(
    jnp.arctan2(0.0, -0.0),
    jnp.arctan2(-0.0, -1.0),
    jnp.hypot(3, 4),
    jnp.cbrt(-27.0),
    jnp.float_power(2, 3).dtype,
)
print(
    jnp.percentile(jnp.arange(10.0), 25),
    jnp.median(jnp.array([1, 3, 2, 4])),
    jnp.median(jnp.array([1, 3, 2, 4])).dtype,
)
