"""JAX's "Type promotion semantics" page and the dtype helpers: `jnp.iinfo`/`jnp.finfo`
fields (bfloat16 and the float8 types too), `jnp.promote_types` over a table of types,
`jnp.result_type` with weakly-typed Python scalars, `jnp.can_cast`, `jnp.issubdtype`,
`jax.dtypes.canonicalize_dtype`, and the dtypes of mixed arithmetic."""

import jax
import jax.numpy as jnp
import numpy as np

for t in [jnp.int8, jnp.uint8, jnp.int16, jnp.uint16, jnp.int32, jnp.uint32, jnp.int64]:
    i = jnp.iinfo(t)
    print(i.dtype, i.bits, i.min, i.max)

for t in [jnp.float16, jnp.bfloat16, jnp.float32, jnp.float64, jnp.float8_e4m3fn, jnp.float8_e5m2]:
    fi = jnp.finfo(t)
    print(
        fi.dtype,
        fi.bits,
        float(fi.eps),
        float(fi.max),
        float(fi.tiny),
        float(fi.resolution),
        fi.nmant,
        fi.nexp,
    )

types = [
    jnp.bool_,
    jnp.uint8,
    jnp.int8,
    jnp.int32,
    jnp.uint32,
    jnp.bfloat16,
    jnp.float16,
    jnp.float32,
    jnp.complex64,
]
for a in types:
    print(np.dtype(a).name, [str(jnp.promote_types(a, b)) for b in types])

x8 = jnp.ones(2, jnp.int8)
xb = jnp.ones(2, jnp.bfloat16)
xh = jnp.ones(2, jnp.float16)
xu = jnp.ones(2, jnp.uint8)
for name, v in [
    ("int8+1", x8 + 1),
    ("int8+1.0", x8 + 1.0),
    ("bf16+1.0", xb + 1.0),
    ("bf16*f16", xb * xh),
    ("u8+i8", xu + x8),
    ("u8*2", xu * 2),
    ("int8+True", x8 + True),
    ("bf16+1j", xb + 1j),
    ("i32/i32", jnp.arange(3) / 2),
    ("u8//2", xu // 2),
    ("f16**2", xh**2),
]:
    print(name, v.dtype, jax.typeof(v).weak_type)

print(
    jnp.result_type(1, 2.0),
    jnp.result_type(jnp.int8, 3),
    jnp.result_type(jnp.bfloat16, 2.0),
    jnp.result_type(jnp.uint8, jnp.int8),
    jnp.result_type(1j, jnp.float16),
    jnp.result_type(True, 1),
)
print(jnp.result_type(jnp.int16, jnp.float16), jnp.result_type(x8, xb), jnp.result_type(xu, 300))
for a, b in [
    (jnp.int8, jnp.int16),
    (jnp.int16, jnp.int8),
    (jnp.float32, jnp.int32),
    (jnp.int32, jnp.float32),
    (jnp.uint8, jnp.int8),
    (jnp.bool_, jnp.int8),
    (jnp.float16, jnp.bfloat16),
    (jnp.complex64, jnp.float32),
]:
    print(np.dtype(a).name, np.dtype(b).name, jnp.can_cast(a, b), jnp.can_cast(a, b, casting="same_kind"))
print(
    jnp.issubdtype(jnp.bfloat16, jnp.floating),
    jnp.issubdtype(jnp.int8, jnp.signedinteger),
    jnp.issubdtype(jnp.uint32, jnp.signedinteger),
    jnp.issubdtype(jnp.complex64, jnp.inexact),
    jnp.issubdtype(jnp.float8_e4m3fn, jnp.floating),
    jnp.issubdtype(jnp.bool_, jnp.integer),
)
print(
    jax.dtypes.canonicalize_dtype(jnp.float64),
    jax.dtypes.canonicalize_dtype(jnp.int64),
    jax.dtypes.canonicalize_dtype(jnp.complex128),
    jax.dtypes.canonicalize_dtype(jnp.uint64),
)
print(
    jnp.dtype("bfloat16"),
    jnp.dtype(jnp.bfloat16).itemsize,
    jnp.zeros(3, "bfloat16").dtype,
    jnp.array(1.5, dtype=jnp.float16).dtype,
    jnp.asarray([1, 2], dtype="uint16").dtype,
)
print(
    jnp.array(300).astype(jnp.uint8),
    jnp.array(-1).astype(jnp.uint8),
    jnp.array(3.7).astype(jnp.int32),
    jnp.array(-3.7).astype(jnp.int32),
    jnp.array(1e10).astype(jnp.float16),
    jnp.array(0.1, jnp.bfloat16),
)
print(jnp.array([1.0, 2.5], jnp.bfloat16) * jnp.array(3, jnp.int32), jnp.float16(65504) * 2)
print(
    jnp.sum(jnp.ones(10, jnp.int8)).dtype,
    jnp.sum(jnp.ones(10, jnp.bool_)).dtype,
    jnp.mean(jnp.ones(3, jnp.int8)).dtype,
    jnp.cumsum(jnp.ones(3, jnp.uint8)).dtype,
    jnp.prod(jnp.ones(3, jnp.float16)).dtype,
)
