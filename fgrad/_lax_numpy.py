"""The `fgrad.lax` functions written over `fgrad.numpy` (so they sit above it in the layer
stack; `fgrad.lax` re-exports them).

Example::

    >>> import fgrad.numpy as fnp
    >>> from fgrad import _lax_numpy
    >>> _lax_numpy.full((2,), 3.0)
    Array([3., 3.], dtype=float64, weak_type=True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from . import numpy as _fnp
from .core.array import get_aval as _get_aval
from .ops import elementwise as _ew
from .ops._util import normalize_axis as _normalize_axis
from .typing import Array, ArrayLike, DTypeLike, Shape, Shaped
from .ops.lax_ops import (  # noqa: A004
    dynamic_starts, slice, slice_in_dim, squeeze, static_ints,
)


def broadcast_shapes(*shapes: Shape) -> tuple[int, ...]:
    """The shape that arrays of ``shapes`` broadcast to (NumPy's rules: shorter shapes are
    padded with leading 1s); a ``ValueError`` when they do not broadcast, as JAX.

    >>> broadcast_shapes((2, 1), (3,))
    (2, 3)
    """
    try:
        return tuple(int(n) for n in np.broadcast_shapes(*shapes))
    except ValueError:
        raise ValueError(f"Incompatible shapes for broadcasting: shapes={list(shapes)} "
                         "(lax.broadcast_shapes)") from None


def full(shape: Shape | int, fill_value: ArrayLike, dtype: DTypeLike | None = None) -> Array:
    return _fnp.full(shape, fill_value, dtype)


def full_like(x: ArrayLike, fill_value: ArrayLike, dtype: DTypeLike | None = None,
              shape: Shape | int | None = None) -> Array:
    return _fnp.full_like(x, fill_value, dtype, shape)


def zeros_like_array(x: Shaped[ArrayLike, "*shape"]) -> Shaped[Array, "*shape"]:
    return _fnp.zeros_like(x)


def dynamic_slice(operand: ArrayLike, start_indices: ArrayLike | Sequence[ArrayLike],
                  slice_sizes: Sequence[int]) -> Array:
    """``operand[s0:s0+k0, s1:s1+k1, ...]`` where the starts may be traced.  As in JAX, a
    negative start counts from the end and each start is then clamped so the slice stays
    inside the operand (no error).

    Example::

        >>> import fgrad.numpy as fnp, fgrad.lax as lax
        >>> lax.dynamic_slice(fnp.arange(5.0), (4,), (2,))
        Array([3., 4.], dtype=float64)
    """
    sizes = static_ints(slice_sizes, "slice_sizes", "dynamic_slice")
    shp = _get_aval(operand).shape
    if len(sizes) != len(shp):
        raise TypeError(
            f"dynamic_slice: slice_sizes must have one entry per operand dimension, got "
            f"{sizes} for operand shape {shp}."
        )
    starts = dynamic_starts(operand, start_indices, sizes, "dynamic_slice")
    if all(isinstance(st, int) for st in starts):
        return slice(operand, starts, [st + k for st, k in zip(starts, sizes)])
    out = operand
    for d, (st, k) in enumerate(zip(starts, sizes)):
        if isinstance(st, int):
            out = slice_in_dim(out, st, st + k, axis=d)
        else:
            out = _fnp.take(out, _ew.add(st, np.arange(k, dtype=np.int64)), axis=d, mode="clip")
    return out


def dot(lhs: ArrayLike, rhs: ArrayLike, precision: Any = None,
        preferred_element_type: DTypeLike | None = None) -> Array:
    """Vector/matrix products (``numpy.dot`` for rank <= 2); ``precision`` is validated (fgrad
    contracts at full precision)."""
    return _fnp.dot(lhs, rhs, precision=precision, preferred_element_type=preferred_element_type)


def dynamic_slice_in_dim(operand: ArrayLike, start_index: ArrayLike, slice_size: int, axis: int = 0) -> Array:
    """`dynamic_slice` along one ``axis`` (the start is clamped, as in JAX).

    Example::

        >>> import fgrad.numpy as fnp, fgrad.lax as lax
        >>> lax.dynamic_slice_in_dim(fnp.arange(5.0), 1, 2)
        Array([1., 2.], dtype=float64)
    """
    shp = _get_aval(operand).shape
    axis = _normalize_axis(axis, len(shp), "dynamic_slice_in_dim")
    starts = [0] * len(shp)
    sizes = list(shp)
    starts[axis] = start_index
    sizes[axis] = slice_size
    return dynamic_slice(operand, starts, sizes)


def dynamic_index_in_dim(operand: ArrayLike, index: ArrayLike, axis: int = 0, keepdims: bool = True) -> Array:
    """``operand`` at (clamped) ``index`` along ``axis``.

    Example::

        >>> import fgrad.numpy as fnp, fgrad.lax as lax
        >>> lax.dynamic_index_in_dim(fnp.arange(5.0), 9, keepdims=False)
        Array(4., dtype=float64)
    """
    out = dynamic_slice_in_dim(operand, index, 1, axis)
    return out if keepdims else squeeze(out, (axis,))
