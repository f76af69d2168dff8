"""Typed library code as JAX's type-annotation guide writes it: functions annotated with
jax.typing.ArrayLike/DTypeLike, dtype handling through jax.dtypes (canonicalize_dtype,
issubdtype with extended and prng_key, float0 tangents, bfloat16, finfo/iinfo, result_type),
and jit's tracing errors caught by their jax.errors classes."""

import numpy as np

import jax
import jax.numpy as jnp
from jax import dtypes, errors
from jax.typing import ArrayLike, DTypeLike


def scale(x: ArrayLike, factor: ArrayLike = 2, dtype: DTypeLike | None = None) -> jax.Array:
    x = jnp.asarray(x, dtype=dtype)
    if not dtypes.issubdtype(x.dtype, jnp.inexact):
        x = x.astype(dtypes.canonicalize_dtype(jnp.float64))
    return x * factor


print(scale([1, 2]), scale(3, dtype="float16").dtype, scale(np.arange(3), 0.5, jnp.bfloat16))
print(scale(jnp.int8(4)).dtype, scale(np.float32(1.5), jnp.float32(3)).dtype)
print("canonical:", dtypes.canonicalize_dtype(np.float64), dtypes.canonicalize_dtype(np.int64),
      dtypes.canonicalize_dtype(np.complex128), dtypes.canonicalize_dtype(jnp.bfloat16))
print("issubdtype:", dtypes.issubdtype(jnp.bfloat16, jnp.floating), dtypes.issubdtype(jnp.int8, jnp.integer),
      dtypes.issubdtype(jnp.float32, jnp.integer), dtypes.issubdtype(jnp.uint4, jnp.unsignedinteger))
print("float0:", dtypes.float0, np.dtype(dtypes.float0).itemsize)
print("bfloat16:", dtypes.bfloat16 is jnp.dtype("bfloat16").type, dtypes.finfo(jnp.bfloat16).eps,
      dtypes.finfo(jnp.bfloat16).bits, dtypes.iinfo(jnp.int8).max, dtypes.iinfo(jnp.uint16).max)
print("result_type:", dtypes.result_type(jnp.float16, 1.0), dtypes.result_type(jnp.int8, jnp.uint8),
      dtypes.result_type(jnp.bfloat16, jnp.float16), dtypes.result_type(3, 2.5))
key = jax.random.key(0)
print("key:", key.dtype, dtypes.issubdtype(key.dtype, dtypes.prng_key),
      dtypes.issubdtype(key.dtype, dtypes.extended), dtypes.issubdtype(jnp.float32, dtypes.extended))
_, int_grad = jax.grad(lambda x, n: x * n, argnums=(0, 1), allow_int=True)(1.5, 3)
print("integer tangent shape:", np.shape(int_grad))
print("scalar types:", dtypes.scalar_type_of(1.5), dtypes.scalar_type_of(np.int8(1)),
      dtypes.scalar_type_of(True))
print("bf16 eps*1024:", jnp.asarray(dtypes.finfo(jnp.bfloat16).eps, jnp.float32) * 1024)


@jax.jit
def absolute(x):
    if x > 0:
        return x
    return -x


try:
    absolute(1.0)
except errors.TracerBoolConversionError as e:
    print("TracerBoolConversionError", isinstance(e, errors.ConcretizationTypeError),
          isinstance(e, TypeError))
try:
    jax.jit(lambda x: np.asarray(x))(jnp.ones(2))
except errors.TracerArrayConversionError as e:
    print("TracerArrayConversionError", isinstance(e, TypeError))
try:
    jax.jit(lambda x: [0, 1, 2][x])(1)
except errors.TracerIntegerConversionError as e:
    print("TracerIntegerConversionError", isinstance(e, TypeError))
try:
    jax.jit(lambda x: jnp.ones(3)[x > 0])(jnp.ones(3))
except errors.NonConcreteBooleanIndexError as e:
    print("NonConcreteBooleanIndexError", isinstance(e, IndexError))
try:
    jax.jit(lambda x: x.reshape(int(x.sum()), -1))(jnp.ones(4))
except errors.ConcretizationTypeError:
    print("ConcretizationTypeError")
leaked = []
jax.jit(lambda x: leaked.append(x) or x)(1.0)
try:
    jnp.sin(leaked[0])
except errors.UnexpectedTracerError:
    print("UnexpectedTracerError")
print("runtime error:", issubclass(errors.JaxRuntimeError, RuntimeError),
      errors.KeyReuseError.__mro__[1].__name__)
static = jax.jit(lambda x, n: x * n, static_argnums=1)
print("static:", static(jnp.float32(2), 3))
