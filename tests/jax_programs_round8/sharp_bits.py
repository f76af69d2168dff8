"""The "Sharp bits" and "Thinking in JAX" examples: immutable arrays and .at[] updates,
out-of-bounds indexing, NaN-safe gradients with the double-where trick, dtype promotion with
weak types, and the 32-bit default."""

import jax
import jax.numpy as jnp
import numpy as np

x = jnp.arange(10)
try:
    x[0] = 10
except TypeError:
    print("TypeError: JAX arrays are immutable")
y = x.at[0].set(10)
print(x, y)

jax_array = jnp.zeros((3, 3), dtype=jnp.float32)
new = jax_array.at[1, :].add(7.0)
print(new)
print(jnp.ones((5, 6)).at[::2, 3:].add(7.0))
a = jnp.arange(6.0)
print(a.at[jnp.array([0, 0, 2])].add(1.0))
print(a.at[jnp.array([0, 0, 2])].set(jnp.array([5.0, 6.0, 7.0]), unique_indices=False)[2])
print(a.at[1::2].multiply(3.0), a.at[:3].min(1.0), a.at[3:].max(4.5))
print(a.at[2].power(2), a.at[2].divide(4.0), a.at[jnp.array([1, 3])].apply(jnp.exp))
print(a.at[9].get(mode="fill", fill_value=-1.0), a.at[9].get(), a.at[-1].get())

# out-of-bounds: gathers clamp, scatters drop
print(jnp.arange(10)[11])
print(jnp.arange(10.0).at[11].get(mode="fill", fill_value=jnp.nan))
print(jnp.arange(5).at[10].set(23))
print(jnp.arange(5).at[jnp.array([1, 10])].add(100))
print(jnp.arange(5).at[10].set(23, mode="clip"))
print(jnp.take(jnp.arange(5.0), jnp.array([0, 7]), mode="fill", fill_value=-2.0))
print(jnp.arange(10)[-3:20])

# non-array inputs
try:
    jnp.sum([1, 2, 3])
except TypeError:
    print("TypeError: sum requires ndarray or scalar arguments")
print(jnp.sum(jnp.array([1, 2, 3])))

# NaN in gradients and the double-where trick
def unsafe_log(x):
    return jnp.where(x > 0.0, jnp.log(x), 0.0)


def safe_log(x):
    safe_x = jnp.where(x > 0.0, x, 1.0)
    return jnp.where(x > 0.0, jnp.log(safe_x), 0.0)


print(jax.grad(unsafe_log)(0.0), jax.grad(safe_log)(0.0), jax.grad(safe_log)(2.0))
print(jax.grad(lambda x: jnp.sqrt(x))(0.0))
print(jax.grad(lambda x: jnp.linalg.norm(x))(jnp.zeros(2)))
print(jnp.nan_to_num(jnp.array([jnp.nan, jnp.inf, -jnp.inf, 1.0])))
print(jnp.nanmean(jnp.array([1.0, jnp.nan, 3.0])), jnp.isnan(jnp.array([0.0, jnp.nan])))
print(jnp.divide(1.0, 0.0), jnp.array(0.0) / 0.0, jnp.log(-1.0))

# types and promotion
print(jnp.array(1.0).dtype, jnp.array(1).dtype, jnp.arange(3.0).dtype, jnp.ones(2).dtype)
print(jnp.zeros(3, dtype=jnp.int8) + 1, (jnp.zeros(3, dtype=jnp.int8) + 1).dtype)
print((jnp.zeros(3, dtype=jnp.float16) * 2.5).dtype, (jnp.ones(2, jnp.bfloat16) + 1).dtype)
print((jnp.int8(1) + jnp.uint8(1)).dtype, (jnp.int32(1) + jnp.float16(1)).dtype)
print((jnp.uint8(3) + jnp.int16(4)).dtype, (jnp.bfloat16(1) + jnp.float16(1)).dtype)
print(jnp.promote_types(jnp.int16, jnp.uint32), jnp.result_type(jnp.int8, 1.0))
print(jnp.array(3, dtype=jnp.int8) * 100)
print(jnp.array([255], dtype=jnp.uint8) + jnp.array([1], dtype=jnp.uint8))
print(jnp.float32(1) / 3, jnp.array(2 ** 31 - 1, dtype=jnp.int32) + 1)
print(jax.numpy.array(np.arange(3)).dtype, jnp.asarray(np.float64(2.5)).dtype)
print(jnp.array([1, 2], dtype=jnp.int16).astype(jnp.float32) / 3)
print(jax.dtypes.canonicalize_dtype(np.float64), jnp.dtype(jnp.float_))
print(jnp.arange(5) / 2, jnp.arange(5) // 2, jnp.arange(5) % 3, -jnp.arange(5) >> 1)
print(jnp.array(1e40, dtype=jnp.float32), jnp.float32(1e-46), jnp.finfo(jnp.float32).eps)
print(jnp.round(jnp.array([0.5, 1.5, 2.5, -0.5])), jnp.trunc(-1.7))

# random is functional; numpy is not
print(jax.random.uniform(jax.random.PRNGKey(0)), jax.random.uniform(jax.random.PRNGKey(0)))

# control-flow printing and shapes under jit
@jax.jit
def f(x):
    print("tracing with", x.shape, x.dtype)
    return x.reshape(-1, 2).sum(axis=1)


print(f(jnp.arange(6.0)))
print(f(jnp.arange(6.0) + 1))
print(jnp.where(jnp.arange(4) > 1))
print(jnp.nonzero(jnp.array([0, 3, 0, 5]), size=3, fill_value=-1))
print(jnp.unique(jnp.array([3, 1, 3, 2]), size=4, fill_value=0))
