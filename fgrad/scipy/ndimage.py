"""`fgrad.scipy.ndimage`: `map_coordinates`, interpolation of an n-d array at arbitrary
coordinates (order 0, nearest, or 1, linear), as ``jax.scipy.ndimage``.

Each output is a weighted sum of gathered input values: for order 1 the ``2**ndim`` corners
around the coordinate with the product of the 1-d linear weights, for order 0 the rounded
coordinate (halves away from zero) with weight 1.  So the result is linear in ``input`` (its
gradient is a scatter of the weights) and piecewise linear in the coordinates (order 1;
order 0 is piecewise constant, derivative zero).  Out-of-range corners are mapped back by
``mode``: ``constant`` (use ``cval``; SciPy's ``grid-constant``), ``nearest`` (clamp),
``wrap`` (periodic; SciPy's ``grid-wrap``), ``mirror`` (reflect about the edge samples) and
``reflect`` (reflect about the edges, repeating the edge sample), JAX's semantics throughout.

Example::

    >>> import fgrad.numpy as fnp
    >>> from fgrad.scipy.ndimage import map_coordinates
    >>> image = fnp.arange(12.0).reshape(3, 4)
    >>> map_coordinates(image, [fnp.asarray([0.5, 1.5]), fnp.asarray([1.5, 2.5])], order=1)
    Array([3.5, 8.5], dtype=float64)
"""

from __future__ import annotations

from ..typing import Array, ArrayLike

import itertools
from collections.abc import Callable, Sequence

import numpy as np

from .. import lax
from .. import numpy as fnp
from ..core.narrow_floats import dtype_kind as _dtype_kind

__all__ = ["map_coordinates"]


def _mirror(index, size: int):
    """Reflect about the first and last samples: period ``2 (size - 1)``, a triangle wave."""
    if size == 1:
        return fnp.zeros_like(index)
    half = size - 1
    return fnp.abs((index + half) % (2 * half) - half)


def _reflect(index, size: int):
    """Reflect about the array's edges (half a sample outside), repeating the edge sample:
    period ``2 size``."""
    folded = index % (2 * size)
    return fnp.where(folded < size, folded, 2 * size - 1 - folded)


_FIXERS: dict[str, Callable] = {
    "constant": lambda index, size: fnp.clip(index, 0, size - 1),
    "nearest": lambda index, size: fnp.clip(index, 0, size - 1),
    "wrap": lambda index, size: index % size,
    "mirror": _mirror,
    "reflect": _reflect,
}


def _nodes(coordinate, order: int):
    """(integer index, weight) pairs of the 1-d interpolation at ``coordinate``."""
    if order == 0:
        if _dtype_kind(coordinate.dtype) in "iu":
            return [(coordinate.astype(np.int64), None)]
        return [(lax.round(coordinate).astype(np.int64), None)]
    lower = fnp.floor(coordinate)
    upper_weight = coordinate - lower
    index = lower.astype(np.int64)
    return [(index, 1 - upper_weight), (index + 1, upper_weight)]


def map_coordinates(input: ArrayLike, coordinates: Sequence, order: int, mode: str = "constant",
                    cval: ArrayLike = 0.0) -> Array:
    """Interpolate ``input`` at ``coordinates`` (a sequence of ``input.ndim`` arrays of one
    shape, the coordinate along each axis) with spline ``order`` 0 or 1 and boundary ``mode``
    (``scipy.ndimage.map_coordinates``, JAX's modes: see the module docstring).  Integer input
    is rounded back to its dtype.  Differentiable in ``input``, in ``cval`` and (order 1) in the
    coordinates.

    Example::

        >>> import fgrad.numpy as fnp
        >>> x = fnp.asarray([0.0, 10.0, 20.0])
        >>> map_coordinates(x, [fnp.asarray([-0.5, 0.25, 2.5])], order=1, mode="nearest")
        Array([ 0. ,  2.5, 20. ], dtype=float64)
    """
    input = fnp.asarray(input)
    if isinstance(coordinates, (list, tuple)):
        coords = [fnp.asarray(c) for c in coordinates]
    else:
        coordinates = fnp.asarray(coordinates)
        coords = [coordinates[i] for i in range(coordinates.shape[0])]
    if len(coords) != input.ndim:
        raise ValueError(f"fgrad.scipy.ndimage.map_coordinates: coordinates must be a sequence of length "
                         f"input.ndim, but {len(coords)} != {input.ndim} (input shape {input.shape})")
    if mode not in _FIXERS:
        raise NotImplementedError(f"fgrad.scipy.ndimage.map_coordinates does not support mode {mode!r}; "
                                  f"the supported modes are {sorted(_FIXERS)}")
    if order not in (0, 1):
        raise NotImplementedError(f"fgrad.scipy.ndimage.map_coordinates: only order 0 (nearest) and 1 "
                                  f"(linear) are supported, got order={order}")
    if input.ndim == 0:
        return input
    shapes = {tuple(c.shape) for c in coords}
    if len(shapes) > 1:
        raise ValueError(f"fgrad.scipy.ndimage.map_coordinates: the coordinate arrays must have one "
                         f"shape, got {sorted(shapes)}")
    fix = _FIXERS[mode]
    per_axis = []
    for coord, size in zip(coords, input.shape):
        axis_nodes = []
        for index, weight in _nodes(coord, order):
            valid = (index >= 0) & (index < size) if mode == "constant" else None
            axis_nodes.append((fix(index, size), valid, weight))
        per_axis.append(axis_nodes)
    float_dtype = input.dtype if _dtype_kind(input.dtype) in "fc" else np.dtype(np.float64)
    cval = fnp.asarray(cval).astype(input.dtype)
    result = None
    for corner in itertools.product(*per_axis):
        value = input[tuple(index for index, _, _ in corner)]
        valids = [v for _, v, _ in corner if v is not None]
        if valids:
            all_valid = valids[0]
            for v in valids[1:]:
                all_valid = all_valid & v
            value = fnp.where(all_valid, value, cval)
        weights = [w for _, _, w in corner if w is not None]
        term = value.astype(float_dtype)
        for w in weights:
            term = term * w.astype(float_dtype) if _dtype_kind(float_dtype) != "c" else term * w
        result = term if result is None else result + term
    if _dtype_kind(input.dtype) in "biu":
        result = lax.round(result)
    return result.astype(input.dtype)
