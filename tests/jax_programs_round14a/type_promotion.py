"""JAX's "Type promotion semantics" page: the promotion table over bool, the integer and
float widths, bfloat16 and complex computed with jnp.promote_types and with actual array
arithmetic; weak types of Python scalars (int, float, complex) next to arrays of each dtype;
jnp.result_type with mixed inputs; dtypes.canonicalize_dtype in 32/64-bit mode; the
int/uint mix; what `jnp.array(x, dtype)` and `astype` give; and the strict promotion
error."""

import jax
import jax.numpy as jnp
import numpy as np

names = ["b1", "u1", "u2", "u4", "i1", "i2", "i4", "bf", "f2", "f4", "c8"]
types = [
    jnp.bool_,
    jnp.uint8,
    jnp.uint16,
    jnp.uint32,
    jnp.int8,
    jnp.int16,
    jnp.int32,
    jnp.bfloat16,
    jnp.float16,
    jnp.float32,
    jnp.complex64,
]
short = {
    "bool": "b1",
    "uint8": "u1",
    "uint16": "u2",
    "uint32": "u4",
    "uint64": "u8",
    "int8": "i1",
    "int16": "i2",
    "int32": "i4",
    "int64": "i8",
    "bfloat16": "bf",
    "float16": "f2",
    "float32": "f4",
    "float64": "f8",
    "complex64": "c8",
    "complex128": "c16",
}
print("   " + " ".join(f"{n:>3}" for n in names))
for n, a in zip(names, types):
    row = [short[jnp.promote_types(a, b).name] for b in types]
    print(f"{n:>3} " + " ".join(f"{r:>3}" for r in row))
print("arrays:")
for a in types:
    row = []
    for b in types:
        out = (
            jnp.ones(2, a) + jnp.ones(2, b)
            if a != jnp.bool_ or b != jnp.bool_
            else jnp.logical_or(jnp.ones(2, a), jnp.ones(2, b))
        )
        row.append(short[out.dtype.name])
    print(" ".join(f"{r:>3}" for r in row))
print("weak scalars:")
for a in types:
    x = jnp.ones(2, a)
    outs = []
    for s in (1, 1.0, 1j):
        try:
            outs.append(short[(x * s).dtype.name] + ("w" if (x * s).weak_type else ""))
        except TypeError:
            outs.append("err")
    print(short[jnp.dtype(a).name], outs)
print(
    jnp.result_type(jnp.int8, 1.0),
    jnp.result_type(jnp.uint8, jnp.int8),
    jnp.result_type(1, 2.0),
    jnp.result_type(np.float64, jnp.float16),
    jnp.result_type(jnp.int32, jnp.float16),
)
print(jnp.result_type(3), jnp.result_type(3.0), jnp.result_type(3j), jnp.result_type(True))
print(
    jnp.promote_types("int64", "uint64"),
    jnp.promote_types(jnp.uint32, jnp.int32),
    jnp.promote_types(jnp.int64, jnp.float16),
)
print(
    jax.dtypes.canonicalize_dtype(jnp.float64),
    jax.dtypes.canonicalize_dtype(jnp.int64),
    jax.dtypes.canonicalize_dtype(jnp.uint8),
)
print(
    jnp.array(1).dtype,
    jnp.array(1.0).dtype,
    jnp.array(1j).dtype,
    jnp.array(True).dtype,
    jnp.arange(3).dtype,
    jnp.linspace(0, 1, 3).dtype,
    jnp.zeros(1).dtype,
)
print(
    jnp.array([1, 2], dtype=jnp.int16) + np.int64(3), (jnp.array([1, 2], dtype=jnp.int16) + np.int64(3)).dtype
)
print(
    (jnp.float16(1) + np.float32(1)).dtype,
    (jnp.array([1.0], jnp.float16) * np.array([2.0], np.float32)).dtype,
)
print((jnp.int8(100) + 100), (jnp.uint8(250) + 10), (jnp.int8(-1)).astype(jnp.uint8))
print(jnp.array(3.7).astype(jnp.int32), jnp.array(-3.7).astype(jnp.int32), jnp.array(300).astype(jnp.uint8))
print(
    jnp.float32(1) / 3,
    jnp.int32(7) // 2,
    jnp.int32(7) / 2,
    (jnp.int32(7) / 2).dtype,
    jnp.int8(7) / jnp.int8(2),
)
print(jnp.array([1, 2], jnp.uint32) - 3 if False else jnp.array([5, 6], jnp.uint32) - 3)
print(
    jax.numpy.bfloat16(1.5) + 1.0, (jnp.bfloat16(1.5) + 1.0).dtype, (jnp.bfloat16(1) + jnp.float16(1)).dtype
)
print(
    jnp.iinfo(jnp.int8).min,
    jnp.finfo(jnp.bfloat16).eps,
    jnp.finfo(jnp.float16).max,
    jnp.iinfo(jnp.uint16).max,
)
with jax.numpy_dtype_promotion("strict"):
    try:
        jnp.ones(2, jnp.int32) + jnp.ones(2, jnp.float32)
    except jax.dtypes.TypePromotionError as e:
        print("strict:", type(e).__name__, isinstance(e, TypeError), isinstance(e, ValueError))
    print((jnp.ones(2, jnp.float32) + 1.0).dtype)
print(
    jax.dtypes.issubdtype(jnp.bfloat16, jnp.floating),
    jnp.issubdtype(jnp.int8, jnp.signedinteger),
    jnp.issubdtype(jnp.uint8, jnp.integer),
    jnp.issubdtype(jnp.complex64, jnp.inexact),
)
print((jnp.array(1.0) * 2).weak_type, jnp.float32(1.0).weak_type, (jnp.float32(1.0) * 2).weak_type)
