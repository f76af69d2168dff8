"""The remaining sections of "JAX - The Sharp Bits": out-of-bounds indexing (clamped reads,
dropped updates, the mode= options of .at and take), non-array inputs (lists/tuples refused by
jnp.sum, accepted via jnp.array), random numbers, dynamic shapes (boolean masks under jit and
their static alternatives), NaN debugging of division (jnp.where's double-where trick),
double (64-bit) precision and weak types of Python scalars, in-place updates, and
miscellaneous divergences from NumPy (integer overflow wrapping, float -> int casts)."""

import jax
import jax.numpy as jnp
import numpy as np

x = jnp.arange(10)
print(x[11], x[-11], x[jnp.array([0, 11, -11])])
print(jnp.arange(10.0).at[11].get(), jnp.arange(10.0).at[11].get(mode="fill", fill_value=jnp.nan))
print(jnp.arange(10).at[11].add(23), jnp.arange(5).at[jnp.array([1, 7])].set(-1))
print(jnp.arange(5.0).at[jnp.array([1, 7])].set(-1, mode="clip"), jnp.arange(5.0).at[-1].set(9))
print(
    jnp.take(jnp.arange(5.0), jnp.array([0, 7]), mode="fill", fill_value=-1.0),
    jnp.take(jnp.arange(5.0), 7, mode="clip"),
)
try:
    jnp.take(jnp.arange(5.0), jnp.array([7]), mode="bogus")
except (NotImplementedError, IndexError, ValueError) as e:
    print(type(e).__name__)
print(np.arange(10)[-1], jnp.arange(10)[-1], jnp.arange(10)[2:100], jnp.arange(10)[-100:3])
try:
    np.arange(10)[11]
except IndexError:
    print("numpy IndexError")
try:
    jnp.sum([1, 2, 3])
except TypeError as e:
    print("TypeError", "sum requires ndarray or scalar arguments" in str(e))


def permissive_sum(x):
    return jnp.sum(jnp.array(x))


x_list = list(range(10))
print(permissive_sum(x_list), jax.make_jaxpr(permissive_sum)(x_list).jaxpr.invars.__len__())
print(jnp.sum(jnp.array(x_list)), jnp.sum(np.array(x_list)), jnp.sum(jnp.asarray((1.0, 2.5))))
for fn in (jnp.mean, jnp.max, jnp.cumsum, jnp.sort, jnp.abs):
    try:
        fn([1.0, 2.0])
        print(fn.__name__, "accepted")
    except TypeError:
        print(fn.__name__, "TypeError")
try:
    jnp.concatenate([[1, 2], jnp.array([3])])
    print("concatenate list ok")
except TypeError:
    print("concatenate TypeError")
print(jnp.concatenate([jnp.array([1, 2]), jnp.array([3])]), jnp.stack([np.ones(2), jnp.zeros(2)]))


def nansum_mask(x):
    return x[~jnp.isnan(x)].sum()


xm = jnp.array([1.0, jnp.nan, 2.0])
print(nansum_mask(xm))
try:
    jax.jit(nansum_mask)(xm)
except jax.errors.NonConcreteBooleanIndexError as e:
    print("NonConcreteBooleanIndexError", isinstance(e, IndexError))
print(jax.jit(lambda x: jnp.where(jnp.isnan(x), 0, x).sum())(xm), jax.jit(lambda x: jnp.nansum(x))(xm))
print(jax.jit(lambda x: x.sum(where=~jnp.isnan(x)))(xm))
try:
    jax.jit(lambda x: jnp.nonzero(x))(xm)
except jax.errors.ConcretizationTypeError:
    print("ConcretizationTypeError nonzero")
print(jax.jit(lambda x: jnp.nonzero(x > 1, size=2, fill_value=-1))(jnp.array([0.0, 2.0, 3.0, 0.5])))
try:
    jax.jit(lambda n: jnp.ones(n))(3)
except TypeError as e:
    print("TypeError shape", type(e).__name__)
print(jax.jit(lambda n: jnp.ones(n), static_argnums=0)(3))


def safe_f(x):
    x_safe = jnp.where(x > 0.0, x, 1.0)
    return jnp.where(x > 0.0, jnp.log(x_safe), 0.0)


def unsafe_f(x):
    return jnp.where(x > 0.0, jnp.log(x), 0.0)


print(jax.grad(unsafe_f)(0.0), jax.grad(safe_f)(0.0), jax.grad(safe_f)(2.0))
print(
    jax.grad(lambda x: jnp.sqrt(x))(0.0),
    jax.grad(lambda x: jnp.where(x == 0, 0.0, jnp.sqrt(jnp.where(x == 0, 1.0, x))))(0.0),
)
print(jnp.float32(1) / 0, jnp.array(0.0) / 0.0, jnp.int32(1) // jnp.int32(0) if False else "skip")
x = jax.random.uniform(jax.random.key(0), (1000,), dtype=jnp.float64)
print(x.dtype, jnp.array(1.0).dtype, jnp.array(2**40).dtype if jax.config.jax_enable_x64 else "x32")
print(jnp.zeros(3, dtype=np.float64).dtype, jnp.arange(3.0).astype(np.float64).dtype)
print(jnp.array([2**31 - 1], dtype=jnp.int32) + 1, jnp.array([255], dtype=jnp.uint8) + jnp.uint8(1))
print(jnp.array([1.7e10]).astype(jnp.int32), jnp.array([-1.5, 1.5, jnp.nan]).astype(jnp.int32))
print(jnp.array([1, 2, 3]) / 2, jnp.array([1, 2, 3]) // 2, jnp.array([-7]) % 3, jnp.array([-7.5]) % 2)
print(jnp.arange(3) * 1.5, (jnp.arange(3, dtype=jnp.int8) * 2.0).dtype, (jnp.float16(2) * 3).dtype)
try:
    jnp.arange(3).at[0].set(1.5) if False else jnp.array([1, 2]).__setitem__(0, 5)
except TypeError:
    print("TypeError setitem")
y = jnp.arange(4.0)
z = y.at[1:3].multiply(10)
print(
    y,
    z,
    y.at[::2].divide(2),
    y.at[jnp.array([0, 0])].add(1),
    y.at[0].min(-1),
    y.at[jnp.array([True, False, True, False])].set(0) if False else "skip",
)
print(jnp.array([0.1, 0.2]).sum() == 0.3, np.isclose(float(jnp.array([0.1, 0.2]).sum()), 0.3))
print(
    jnp.round(jnp.array([0.5, 1.5, 2.5, -0.5])),
    jnp.floor_divide(-7, 2),
    jnp.remainder(-7, 2),
    jnp.fmod(-7, 2),
)
