"""Shape manipulation with NumPy names (composites of reshape/transpose/broadcast and the
concatenate/slice primitives)."""

from __future__ import annotations

from collections.abc import Sequence

from ..typing import Array, ArrayLike, Axis, Shape

import numpy as np

from ..core.array import get_aval
from ..ops import shape as shape_ops
from ..ops._util import normalize_axis, normalize_axes
from ._creation import asarray

broadcast_to = shape_ops.broadcast_to
moveaxis_one = shape_ops.moveaxis
expand_dims = shape_ops.expand_dims


def reshape(a: ArrayLike, shape: int | Shape | None = None, order: str = "C", *,
            newshape: int | Shape | None = None, copy: bool | None = None, out_sharding=None) -> Array:
    """``a`` with a new ``shape`` (one entry may be -1).  ``order='C'`` reads and writes the
    elements row-major, ``order='F'`` column-major (first index fastest), as NumPy and JAX.
    Arrays are immutable, so the result never shares writes with ``a``: ``copy`` is accepted
    for the array API; ``out_sharding`` has its single-device meaning (the whole array).

    >>> import fgrad.numpy as fnp
    >>> fnp.reshape(fnp.arange(6), (2, -1)).shape
    (2, 3)
    >>> fnp.reshape(fnp.arange(6), (2, 3), order="F")
    Array([[0, 2, 4],
           [1, 3, 5]], dtype=int64)
    """
    shape = newshape if shape is None else shape
    if shape is None:
        raise TypeError("fgrad.numpy.reshape: missing the new shape")
    if order == "C":
        return shape_ops.reshape(a, shape)
    if order == "F":
        return _reshape_column_major(a, shape)
    raise NotImplementedError(f"fgrad.numpy.reshape: order must be 'C' or 'F', got {order!r} "
                              "(JAX does not support it either)")


def _reshape_column_major(a, shape):
    """Column-major reshape: reversing the axes turns column-major into row-major order, so
    reverse ``a``'s axes, reshape to the reversed shape row-major, and reverse back."""
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    reversed_a = shape_ops.transpose(a, tuple(range(get_aval(a).ndim))[::-1])
    flat = shape_ops.reshape(reversed_a, shape[::-1])
    return shape_ops.transpose(flat, tuple(range(get_aval(flat).ndim))[::-1])


def ravel(a: ArrayLike, order: str = "C") -> Array:
    """``a`` as a 1-D array, read row-major (``order='C'``) or column-major (``'F'``).

    >>> import fgrad.numpy as fnp
    >>> fnp.ravel(fnp.asarray([[1, 2], [3, 4]]), order="F")
    Array([1, 3, 2, 4], dtype=int64)
    """
    return reshape(a, (get_aval(a).size,), order=order)


def transpose(a: ArrayLike, axes: Sequence[int] | None = None) -> Array:
    """``a`` with its axes reversed or permuted by ``axes`` (a Python scalar gives a 0-d
    array, as JAX).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.transpose(fnp.ones((2, 3))).shape
        (3, 2)
    """
    if isinstance(a, (bool, int, float, complex)):
        a = asarray(a)
    nd = get_aval(a).ndim
    if axes is None:
        axes = tuple(range(nd))[::-1]
    axes = tuple(normalize_axis(int(x), nd, "transpose") for x in axes)
    return shape_ops.transpose(a, axes)


def permute_dims(a: ArrayLike, axes: Sequence[int] | ArrayLike) -> Array:
    return transpose(a, axes)


def matrix_transpose(a: ArrayLike) -> Array:
    return swapaxes(a, -1, -2)


def moveaxis(a: ArrayLike, source: int | Sequence[int], destination: int | Sequence[int]) -> Array:
    nd = get_aval(a).ndim
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    if len(src) != len(dst):
        raise ValueError("moveaxis: source and destination must have the same number of elements")
    src = [normalize_axis(s, nd, "moveaxis") for s in src]
    dst = [normalize_axis(d, nd, "moveaxis") for d in dst]
    order = [n for n in range(nd) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return shape_ops.transpose(a, order)


def swapaxes(a: ArrayLike, axis1: int, axis2: int) -> Array:
    nd = get_aval(a).ndim
    perm = list(range(nd))
    i, j = normalize_axis(axis1, nd, "swapaxes"), normalize_axis(axis2, nd, "swapaxes")
    perm[i], perm[j] = perm[j], perm[i]
    return shape_ops.transpose(a, perm)


def squeeze(a: ArrayLike, axis: Axis = None) -> Array:
    shp = get_aval(a).shape
    if axis is None:
        axes = tuple(i for i, s in enumerate(shp) if s == 1)
    else:
        axes = normalize_axes(axis, len(shp), "squeeze")
        for i in axes:
            if shp[i] != 1:
                raise ValueError(
                    f"squeeze: cannot select an axis to squeeze out which has size not equal to "
                    f"one (axis {i} of shape {shp})"
                )
    return shape_ops.reshape(a, tuple(s for i, s in enumerate(shp) if i not in axes))


def atleast_1d(*arys: ArrayLike) -> Array | list[Array]:
    res = [shape_ops.reshape(a, (1,)) if get_aval(a).ndim == 0 else a for a in map(_arr, arys)]
    return res[0] if len(res) == 1 else res


def atleast_2d(*arys: ArrayLike) -> Array | list[Array]:
    res = []
    for a in map(_arr, arys):
        nd = get_aval(a).ndim
        res.append(shape_ops.reshape(a, (1,) * (2 - nd) + get_aval(a).shape) if nd < 2 else a)
    return res[0] if len(res) == 1 else res


def atleast_3d(*arys: ArrayLike) -> Array | list[Array]:
    res = []
    for a in map(_arr, arys):
        s = get_aval(a).shape
        if len(s) == 0:
            a = shape_ops.reshape(a, (1, 1, 1))
        elif len(s) == 1:
            a = shape_ops.reshape(a, (1, s[0], 1))
        elif len(s) == 2:
            a = shape_ops.reshape(a, s + (1,))
        res.append(a)
    return res[0] if len(res) == 1 else res


def _arr(x):
    return asarray(x)


def broadcast_arrays(*args: ArrayLike) -> list[Array]:
    shp = tuple(np.broadcast_shapes(*[get_aval(a).shape for a in args]))
    return [shape_ops.broadcast_to(a, shp) for a in args]


def broadcast_shapes(*shapes: int | Shape) -> tuple[int, ...]:
    return tuple(np.broadcast_shapes(*shapes))


def shape(a: ArrayLike) -> tuple[int, ...]:
    return get_aval(a).shape


def ndim(a: ArrayLike) -> int:
    return get_aval(a).ndim


def size(a: ArrayLike, axis: int | Sequence[int] | None = None) -> int:
    """The number of elements of ``a``, or along ``axis`` (an int or a tuple of them: the
    product of those axes' lengths, as JAX).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.size(fnp.ones((2, 3, 4)), axis=(0, 2))
        8
    """
    s = get_aval(a).shape
    if axis is None:
        return int(np.prod(s, dtype=np.int64))
    if isinstance(axis, (tuple, list)):
        return int(np.prod([s[i] for i in axis], dtype=np.int64))
    return s[axis]


def _public_names(namespace, extra=()):
    return sorted({n for n, v in namespace.items() if not n.startswith("_") and callable(v)
                   and getattr(v, "__module__", None) == __name__} | set(extra))


__all__ = _public_names(globals(), ("broadcast_to", "expand_dims"))
