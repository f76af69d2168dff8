"""The Python array API standard's names that NumPy's API lacks or spells otherwise:
dtype kinds (`isdtype`), the inspection namespace (`__array_namespace_info__`), `to_device`,
the shift/invert aliases and `nextafter`/`diff`.

>>> import fgrad.numpy as fnp
>>> fnp.isdtype(fnp.float32, "real floating"), fnp.bitwise_left_shift(fnp.asarray(1), 3)
(True, Array(8, dtype=int64, weak_type=True))
"""

from __future__ import annotations

import numpy as np
from ..core.narrow_floats import dtype_kind as _dtype_kind

from ..backends import Device, default_device, devices as _devices
from ..core.array import get_aval
from ..typing import Array, ArrayLike, Shaped
from ..core.placement import device_put
from ..ops import bits
from ..ops.elementwise import convert_element_type, invert_p
from ..ops.shape import broadcast_to, expand_dims
from ..ops.structural import slice_in_dim
from ._creation import asarray
from ._elementwise import not_equal, subtract
from ._indexing import concatenate as _np_concatenate

_KINDS: dict[str, str] = {
    "bool": "b", "signed integer": "i", "unsigned integer": "u", "integral": "iu",
    "real floating": "f", "complex floating": "c", "numeric": "iufc",
}

_DTYPES = {
    "bool": (np.bool_,),
    "signed integer": (np.int8, np.int16, np.int32, np.int64),
    "unsigned integer": (np.uint8, np.uint16, np.uint32, np.uint64),
    "real floating": (np.float32, np.float64),
    "complex floating": (np.complex64, np.complex128),
}


def isdtype(dtype, kind) -> bool:
    """Whether ``dtype`` is of ``kind``: a dtype, one of ``"bool"``, ``"signed integer"``,
    ``"unsigned integer"``, ``"integral"``, ``"real floating"``, ``"complex floating"``,
    ``"numeric"``, or a tuple of those (any matches).

    >>> import fgrad.numpy as fnp
    >>> fnp.isdtype(fnp.int8, ("integral", "bool")), fnp.isdtype(fnp.float64, fnp.float32)
    (True, False)
    """
    dt = np.dtype(dtype)
    if isinstance(kind, tuple):
        return any(isdtype(dt, k) for k in kind)
    if isinstance(kind, str):
        if kind not in _KINDS:
            raise ValueError(f"isdtype: unknown kind {kind!r}; expected a dtype or one of {sorted(_KINDS)}")
        return _dtype_kind(dt) in _KINDS[kind]
    return dt == np.dtype(kind)


class ArrayNamespaceInfo:
    """What `fgrad.numpy` supports, as the array API's inspection namespace.

    >>> import fgrad.numpy as fnp
    >>> fnp.__array_namespace_info__().default_dtypes()["real floating"]
    dtype('float64')
    """

    def capabilities(self) -> dict:
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}

    def default_device(self):
        return default_device()

    def devices(self) -> list:
        return _devices()

    def default_dtypes(self, *, device=None) -> dict:
        return {"real floating": np.dtype(np.float64), "complex floating": np.dtype(np.complex128),
                "integral": np.dtype(np.int64), "indexing": np.dtype(np.int64)}

    def dtypes(self, *, device=None, kind=None) -> dict:
        if kind is None:
            kind = tuple(_DTYPES)
        kinds = kind if isinstance(kind, tuple) else (kind,)
        out = {}
        for k in kinds:
            if k in _DTYPES:
                members = _DTYPES[k]
            elif k in ("integral", "numeric"):
                members = sum((_DTYPES[g] for g in _DTYPES if np.dtype(_DTYPES[g][0]).kind in _KINDS[k]), ())
            else:
                raise ValueError(f"__array_namespace_info__().dtypes: unknown kind {k!r}")
            out.update({np.dtype(t).name: np.dtype(t) for t in members})
        return out


def __array_namespace_info__() -> ArrayNamespaceInfo:
    """The array API inspection namespace of `fgrad.numpy`.

    >>> import fgrad.numpy as fnp
    >>> fnp.__array_namespace_info__().capabilities()["boolean indexing"]
    True
    """
    return ArrayNamespaceInfo()


def to_device(x: ArrayLike, device: str | Device | None, /, *, stream: None = None) -> Array:
    """``x`` on ``device`` (`fgrad.device_put` of one array; ``stream`` must be None).

    >>> import fgrad.numpy as fnp
    >>> str(fnp.to_device(fnp.ones(2), "cpu").device)
    'cpu:0'
    """
    if stream is not None:
        raise ValueError("to_device: fgrad has no streams; pass stream=None")
    return device_put(x, device)


def _integer_operands(name: str, x1, x2):
    """Both operands of a shift in JAX's integer dtype (``promote_args_numeric``): bools are
    integers here (two bools shift as int32, a bool beside an integer takes its type), a
    Python int takes the other operand's dtype, and the result is weak only where the join
    is (two Python ints; a Python int and a bool array)."""
    avals = []
    for x in (x1, x2):
        av = get_aval(x)
        if _dtype_kind(av.dtype) not in "iub":
            raise TypeError(f"fgrad.numpy.{name}: needs integer operands, got {av.dtype}")
        avals.append(av)
    ints = [av for av in avals if _dtype_kind(av.dtype) != "b"]
    strong_ints = [av.dtype for av in ints if not av.weak_type]
    if not ints:
        dt, weak = np.dtype(np.int32), False  # JAX: bools are promoted to int32
    elif strong_ints:
        dt, weak = np.result_type(*strong_ints), False
    else:  # Python ints, alone or beside bools
        dt, weak = ints[0].dtype, True
    return tuple(convert_element_type(x, dt, weak_type=weak) for x in (x1, x2))


def bitwise_left_shift(x1: ArrayLike, x2: ArrayLike) -> Array:
    """``x1 << x2`` for integers (shifts of the bit width or more give 0, like NumPy).

    >>> import fgrad.numpy as fnp
    >>> fnp.bitwise_left_shift(fnp.asarray([1, 3]), 2)
    Array([ 4, 12], dtype=int64)
    """
    x1, x2 = _integer_operands("bitwise_left_shift", x1, x2)
    return bits.shift_left_p.bind(x1, x2)


def bitwise_right_shift(x1: ArrayLike, x2: ArrayLike) -> Array:
    """``x1 >> x2`` for integers: arithmetic for signed, logical for unsigned (like NumPy).

    >>> import fgrad.numpy as fnp
    >>> fnp.bitwise_right_shift(fnp.asarray([-8, 8]), 2)
    Array([-2,  2], dtype=int64)
    """
    x1, x2 = _integer_operands("bitwise_right_shift", x1, x2)
    if _dtype_kind(get_aval(x1).dtype) == "u":
        return bits.shift_right_logical_p.bind(x1, x2)
    return bits.shift_right_arithmetic_p.bind(x1, x2)


def bitwise_invert(x: Shaped[ArrayLike, "*shape"]) -> Shaped[Array, "*shape"]:
    """``~x`` (bitwise NOT; logical NOT for bool), the array API's name for `invert`.

    >>> import fgrad.numpy as fnp
    >>> fnp.bitwise_invert(fnp.asarray([0, 1]))
    Array([-1, -2], dtype=int64)
    """
    return invert_p.bind(x)


def diff(x, n: int = 1, axis: int = -1, prepend=None, append=None):
    """``n``-th forward difference along ``axis`` (``x[1:] - x[:-1]``, repeated), with
    optional ``prepend``/``append`` joined first, as `numpy.diff` (differentiable).

    >>> import fgrad.numpy as fnp
    >>> fnp.diff(fnp.asarray([1.0, 4.0, 9.0]))
    Array([3., 5.], dtype=float64)
    """
    if n < 0:
        raise ValueError(f"fgrad.numpy.diff: order n must be non-negative, got {n}")
    nd = get_aval(x).ndim
    if nd == 0:
        raise ValueError("fgrad.numpy.diff: needs an array of at least one dimension, got a scalar")
    if n == 0:
        return x  # NumPy: order 0 is the input itself, prepend/append ignored
    ax = axis + nd if axis < 0 else axis
    parts = []
    for extra in (prepend, append):
        parts.append(None if extra is None else _edge(extra, x, ax))
    if parts[0] is not None or parts[1] is not None:
        # NumPy's concatenate of the pieces: weakly typed Python scalars take x's dtype (JAX)
        x = _np_concatenate([p for p in (parts[0], x, parts[1]) if p is not None], ax)
    step = not_equal if get_aval(x).dtype.kind == "b" else subtract  # bools: where they change (JAX)
    for _ in range(n):
        length = get_aval(x).shape[ax]
        x = step(slice_in_dim(x, 1, length, axis=ax), slice_in_dim(x, 0, max(length - 1, 0), axis=ax))
    return x


def _edge(extra, x, ax):
    e = asarray(extra)
    if get_aval(e).ndim == 0:
        shape = list(get_aval(x).shape)
        shape[ax] = 1
        return broadcast_to(e, tuple(shape))
    if get_aval(e).ndim < get_aval(x).ndim:
        e = expand_dims(e, ax)
    return e


__all__ = ["isdtype", "__array_namespace_info__", "to_device", "bitwise_left_shift", "bitwise_right_shift",
           "bitwise_invert", "diff"]
