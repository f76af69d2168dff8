"""The scalar types of `fgrad.numpy` (``fnp.float32``, ``fnp.int32``, ``fnp.bool_``, ...), as
JAX's: calling one converts any value, an Array or a tracer included, to an fgrad Array of
that dtype (``jnp.float32(x)`` is ``jnp.asarray(x, jnp.float32)``), so it works under
``jit``, ``grad`` and ``vmap``.  Each is a subclass of NumPy's scalar type, so it is also a
dtype everywhere NumPy takes one (``fnp.ones(2, fnp.float32)``, ``np.dtype(fnp.int8)``,
``issubclass(fnp.float32, np.floating)``), compares equal to NumPy's type and to its dtype,
and ``isinstance(np.float32(1), fnp.float32)`` holds.

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> fnp.float32(2.5), fgrad.jit(lambda x: fnp.int32(x))(fnp.asarray([1.7, -2.2]))
    (Array(2.5, dtype=float32), Array([ 1, -2], dtype=int32))
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from ..core.narrow_floats import bfloat16 as _BF16
from ._creation import asarray


class _ScalarTypeMeta(type):
    """The metaclass of fgrad's scalar types: instances of NumPy's type count as instances,
    and the type equals (and hashes as) NumPy's."""

    _numpy_type: type

    def __instancecheck__(cls, inst: Any) -> bool:
        return isinstance(inst, cls._numpy_type)

    def __eq__(cls, other: Any) -> bool:
        return cls is other or cls._numpy_type == other

    def __ne__(cls, other: Any) -> bool:
        # (``cls.__eq__`` would find the NumPy scalar type's own method, not this one)
        return not _ScalarTypeMeta.__eq__(cls, other)

    def __hash__(cls) -> int:
        return hash(cls._numpy_type)

    def __repr__(cls) -> str:
        return f"<class 'fgrad.numpy.{cls.__name__}'>"


def _convert(cls, x: Any = 0, /):
    return asarray(x, dtype=cls.dtype)


def _scalar_type(numpy_type: type, name: str) -> type:
    dt = np.dtype(numpy_type)
    value, shown = {"b": ("1", "True"), "i": ("-2", "-2"), "u": ("3", "3"), "f": ("1.5", "1.5"),
                    "c": ("1 + 2j", "1.+2.j")}[dt.kind if dt.kind != "V" else "f"]
    doc = (f"``{name}``: the dtype {dt.name}, and ``{name}(x)`` converts ``x`` (a value, an Array or a "
           f"tracer) to an fgrad Array of dtype {dt.name}, as ``jax.numpy.{name}``.\n\n"
           "Example::\n\n"
           "    >>> import fgrad.numpy as jnp\n"
           f"    >>> jnp.{name}({value})\n"
           f"    Array({shown}, dtype={dt.name})\n"
           f"    >>> jnp.dtype(jnp.{name})\n"
           f"    {dt!r}\n")
    if name.startswith(("float8_", "float6_", "float4_")):  # fgrad makes no arrays of these (dtypes only)
        bits = int(name[5])
        doc = (f"``{name}``: the {bits}-bit float dtype {dt.name} (``ml_dtypes``'s, as "
               f"``jax.numpy.{name}``), "
               "for ``finfo``, ``issubdtype`` and dtype arguments; fgrad computes on no arrays of it.\n\n"
               "Example::\n\n"
               "    >>> import fgrad.numpy as jnp\n"
               f"    >>> jnp.finfo(jnp.{name}).bits, jnp.issubdtype(jnp.{name}, jnp.floating)\n"
               f"    ({bits}, True)\n")
    return _ScalarTypeMeta(name, (numpy_type,), {"__new__": _convert, "_numpy_type": numpy_type,
                                                 "dtype": dt, "__module__": "fgrad.numpy",
                                                 "__doc__": doc, "__slots__": ()})


bool_ = _scalar_type(np.bool_, "bool_")
int8 = _scalar_type(np.int8, "int8")
int16 = _scalar_type(np.int16, "int16")
int32 = _scalar_type(np.int32, "int32")
int64 = _scalar_type(np.int64, "int64")
uint8 = _scalar_type(np.uint8, "uint8")
uint16 = _scalar_type(np.uint16, "uint16")
uint32 = _scalar_type(np.uint32, "uint32")
uint64 = _scalar_type(np.uint64, "uint64")
float16 = _scalar_type(np.float16, "float16")
float32 = _scalar_type(np.float32, "float32")
float64 = _scalar_type(np.float64, "float64")
complex64 = _scalar_type(np.complex64, "complex64")
complex128 = _scalar_type(np.complex128, "complex128")
bfloat16 = _scalar_type(_BF16.type, "bfloat16")
# the 8-bit floats (``ml_dtypes``'s, as JAX's): dtypes for finfo/issubdtype/storage and casts
float8_e4m3fn = _scalar_type(ml_dtypes.float8_e4m3fn, "float8_e4m3fn")
float8_e5m2 = _scalar_type(ml_dtypes.float8_e5m2, "float8_e5m2")
float8_e4m3fnuz = _scalar_type(ml_dtypes.float8_e4m3fnuz, "float8_e4m3fnuz")
float8_e5m2fnuz = _scalar_type(ml_dtypes.float8_e5m2fnuz, "float8_e5m2fnuz")
float8_e4m3b11fnuz = _scalar_type(ml_dtypes.float8_e4m3b11fnuz, "float8_e4m3b11fnuz")
float8_e3m4 = _scalar_type(ml_dtypes.float8_e3m4, "float8_e3m4")
float8_e4m3 = _scalar_type(ml_dtypes.float8_e4m3, "float8_e4m3")
float8_e8m0fnu = _scalar_type(ml_dtypes.float8_e8m0fnu, "float8_e8m0fnu")
# the 4- and 6-bit floats (microscaling formats), likewise dtypes only
float4_e2m1fn = _scalar_type(ml_dtypes.float4_e2m1fn, "float4_e2m1fn")
float6_e2m3fn = _scalar_type(ml_dtypes.float6_e2m3fn, "float6_e2m3fn")
float6_e3m2fn = _scalar_type(ml_dtypes.float6_e3m2fn, "float6_e3m2fn")

__all__ = ["bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
           "float32", "float64", "complex64", "complex128", "bfloat16",
           "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e4m3b11fnuz",
           "float8_e3m4", "float8_e4m3", "float8_e8m0fnu", "float4_e2m1fn", "float6_e2m3fn", "float6_e3m2fn"]
