"""Segment reductions (``jax.ops.segment_sum`` and friends): rows of ``data`` combined by
``segment_ids``, the building block of graph networks (messages summed per node).

``out[s] = reduce(data[i] for i with segment_ids[i] == s)``; ids outside
``[0, num_segments)`` are dropped (JAX's default ``mode``); an empty segment holds the
reduction's identity (0 for sum, 1 for prod, -inf/+inf -- or the integer limits -- for
max/min).  Each is one indexed update (``.at[ids].add/mul/max/min``), so derivatives,
batching and devices follow from that primitive.  ``num_segments`` is static; without it it is
``max(segment_ids) + 1`` and the ids must be concrete.
"""

from __future__ import annotations

import numpy as np

from ..core.array import get_aval
from ..core.constants import full_like
from ..core.narrow_floats import dtype_kind
from .bits import bitcast_convert_type
from .elementwise import convert_element_type, lt, minimum, select

__all__ = ["segment_sum", "segment_prod", "segment_max", "segment_min"]


def _num_segments(segment_ids, num_segments, name: str) -> int:
    if num_segments is not None:
        return int(num_segments)
    try:
        ids = np.asarray(segment_ids)
    except Exception:
        raise TypeError(f"jax.ops.{name}: num_segments must be given when segment_ids are traced (under "
                        "jit or vmap): the output shape depends on it") from None
    return int(ids.max()) + 1 if ids.size else 0


def _identity(dtype, kind: str):
    dt = np.dtype(dtype)
    if kind == "add":
        return 0
    if kind == "mul":
        return 1
    if dtype_kind(dt) == "f":
        return -np.inf if kind == "max" else np.inf
    if dt == np.bool_:
        return kind == "min"
    info = np.iinfo(dt)
    return info.min if kind == "max" else info.max


def _segment(data, segment_ids, num_segments, mode, kind: str, name: str):
    aval = get_aval(data)
    mode = "drop" if mode is None else str(getattr(mode, "value", mode))  # a GatherScatterMode too
    mode = "drop" if mode == "fill" else mode
    if mode not in ("drop", "clip", "promise_in_bounds"):
        raise ValueError(f"jax.ops.{name}: unknown mode {mode!r}; use 'drop' (the default), 'clip' or "
                         "'promise_in_bounds'")
    n = _num_segments(segment_ids, num_segments, name)
    init = full_like(data, _identity(aval.dtype, kind), shape=(n,) + tuple(aval.shape[1:]))
    if dtype_kind(get_aval(segment_ids).dtype) == "i":
        # a negative id is out of range, not counted from the end (``.at[]`` would wrap -1 to
        # the last segment): dropped, or clipped to segment 0, as JAX's (unnormalized) scatter
        segment_ids = _negative_ids_out(segment_ids, n, mode)
    return getattr(init.at[segment_ids], kind)(data, mode=mode)


def segment_sum(data, segment_ids, num_segments=None, indices_are_sorted=False, unique_indices=False,
                bucket_size=None, mode=None):
    """The sum of ``data``'s rows per segment.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.ops import segment_sum
        >>> segment_sum(fnp.array([1.0, 2.0, 3.0, 4.0]), fnp.array([0, 0, 2, 1]), num_segments=3)
        Array([3., 4., 3.], dtype=float64)
    """
    return _segment(data, segment_ids, num_segments, mode, "add", "segment_sum")


def segment_prod(data, segment_ids, num_segments=None, indices_are_sorted=False, unique_indices=False,
                 bucket_size=None, mode=None):
    """The product of ``data``'s rows per segment (1 for an empty one).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.ops import segment_prod
        >>> segment_prod(fnp.array([2.0, 3.0, 4.0]), fnp.array([1, 1, 0]), num_segments=3)
        Array([4., 6., 1.], dtype=float64)
    """
    return _segment(data, segment_ids, num_segments, mode, "mul", "segment_prod")


def segment_max(data, segment_ids, num_segments=None, indices_are_sorted=False, unique_indices=False,
                bucket_size=None, mode=None):
    """The maximum of ``data``'s rows per segment (-inf, or the integer minimum, for an
    empty one).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.ops import segment_max
        >>> segment_max(fnp.array([2.0, 3.0, 4.0]), fnp.array([1, 1, 0]), num_segments=3)
        Array([  4.,   3., -inf], dtype=float64)
    """
    return _segment(data, segment_ids, num_segments, mode, "max", "segment_max")


def segment_min(data, segment_ids, num_segments=None, indices_are_sorted=False, unique_indices=False,
                bucket_size=None, mode=None):
    """The minimum of ``data``'s rows per segment (+inf, or the integer maximum, for an
    empty one).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.ops import segment_min
        >>> segment_min(fnp.array([2.0, 3.0, 4.0]), fnp.array([1, 1, 0]), num_segments=3)
        Array([ 4.,  2., inf], dtype=float64)
    """
    return _segment(data, segment_ids, num_segments, mode, "min", "segment_min")


def _negative_ids_out(ids, n: int, mode: str):
    """``ids`` with every negative id made out of range (``mode="drop"``) or 0 (else).  A
    dropped id is read as its unsigned twin, where a negative one is at least ``2**(b-1)``
    (``b`` bits): out of range when ``n <= 2**(b-1)``, at no cost (a bitcast); 64-bit ids are
    also capped at ``n`` (the scatter reads indices as signed 64-bit).  8/16-bit ids with more
    segments than that are widened to int32 first.  ``clip``: a select."""
    dt = np.dtype(get_aval(ids).dtype)
    if mode == "drop" and n > 2 ** (8 * dt.itemsize - 1) and dt.itemsize < 4:
        ids, dt = convert_element_type(ids, np.int32), np.dtype(np.int32)
    if mode == "drop" and n <= 2 ** (8 * dt.itemsize - 1):
        unsigned = bitcast_convert_type(ids, np.dtype(f"u{dt.itemsize}"))
        return minimum(unsigned, full_like(unsigned, n)) if dt.itemsize == 8 else unsigned
    return select(lt(ids, 0), full_like(ids, n if mode == "drop" else 0), ids)
