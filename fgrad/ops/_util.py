"""Helpers shared by primitive families: dtype probing, shape checks, batching utilities."""

from __future__ import annotations

import numpy as np
from ..core.narrow_floats import dtype_kind

from ..core.array import ShapedArray, get_aval

_PROBE = {bool: True, int: 1, float: 1.0, complex: 1.0 + 0j}
_WEAK_PROBE = {"b": True, "i": 1, "u": 1, "f": 1.0, "c": 1.0 + 0j}


def probe_dtype(prim, avals, params) -> np.dtype:
    """Result dtype of an elementwise primitive, found by running its implementation on
    one-element inputs of the same dtypes (cached), so dtype rules match NumPy exactly."""
    key = tuple([(a.dtype, a.weak_type) for a in avals])
    if params:
        key += tuple(sorted(params.items()))
    cache = prim.dtype_cache
    dt = cache.get(key)
    if dt is None:
        args = [
            _WEAK_PROBE[dtype_kind(a.dtype)] if a.weak_type else np.ones((), a.dtype) for a in avals
        ]
        with np.errstate(all="ignore"):
            out = prim.impl(np, *args, **params)
        dt = np.asarray(out).dtype
        cache[key] = dt
    return dt


class BroadcastShapeError(TypeError, ValueError):
    """Operands of an elementwise primitive whose shapes do not broadcast: JAX raises TypeError
    (``add got incompatible shapes for broadcasting``), NumPy ValueError; this is both, so
    ``except TypeError`` (code written for JAX) and ``except ValueError`` (for NumPy) catch it.

    Example::

        >>> import fgrad.numpy as fnp
        >>> try:
        ...     fnp.ones((1, 3)) - fnp.ones((2, 2))
        ... except TypeError as e:
        ...     print(isinstance(e, ValueError))
        True
    """


def broadcast_shapes(prim_name: str, *shapes) -> tuple:
    """The broadcast shape of an elementwise primitive's operands, or `BroadcastShapeError`
    naming the primitive and the shapes."""
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        shown = ", ".join(str(tuple(s)) for s in shapes)
        raise BroadcastShapeError(
            f"{prim_name}: operands could not be broadcast together with shapes {shown}. "
            "Shapes are aligned from the right and each dimension must match or be 1; "
            "reshape or use expand_dims to line them up."
        ) from None


def ndim(x) -> int:
    return get_aval(x).ndim


def shape(x) -> tuple:
    try:
        return x.shape
    except AttributeError:
        return get_aval(x).shape


def dtype(x) -> np.dtype:
    try:
        return x.dtype
    except AttributeError:
        return get_aval(x).dtype


def normalize_axis(axis: int, nd: int, op: str) -> int:
    if not -nd <= axis < nd:
        raise np.exceptions.AxisError(f"{op}: axis {axis} is out of bounds for an array of dimension {nd}")
    return axis % nd


def normalize_axes(axis, nd: int, op: str) -> tuple:
    if axis is None:
        return tuple(range(nd))
    if isinstance(axis, (int, np.integer)):
        axis = (int(axis),)
    axes = tuple(normalize_axis(int(a), nd, op) for a in axis)
    if len(set(axes)) != len(axes):
        raise ValueError(f"{op}: repeated axis in {axis}")
    return axes


def shaped(shape, dtype) -> ShapedArray:
    return ShapedArray(shape, dtype)
