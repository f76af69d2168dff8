"""`fgrad.scipy.interpolate`: `RegularGridInterpolator`, linear or nearest interpolation on a
rectilinear grid (``jax.scipy.interpolate``).

The interpolator is a pytree (children: the grid axes, the values and the fill value; method
and ``bounds_error`` are static), so it passes through `fgrad.jit`, `fgrad.vmap` and `fgrad.grad`:
the result is differentiable in the query points (piecewise linear, for ``linear``), in the
values (linear) and in the grid coordinates.  As in JAX, each grid axis must be strictly
increasing (not checked: a traced grid cannot be) and ``bounds_error=True`` is not supported;
points outside the grid get ``fill_value`` (NaN by default) or, with ``fill_value=None``, are
extrapolated from the edge cells.

Example::

    >>> import fgrad.numpy as fnp
    >>> from fgrad.scipy.interpolate import RegularGridInterpolator
    >>> grid = (fnp.asarray([1.0, 2.0, 3.0]), fnp.asarray([4.0, 5.0, 6.0]))
    >>> values = fnp.asarray([[10.0, 20.0, 30.0], [40.0, 50.0, 60.0], [70.0, 80.0, 90.0]])
    >>> interp = RegularGridInterpolator(grid, values)
    >>> interp(fnp.asarray([[1.5, 4.5], [2.2, 5.8]]))
    Array([30., 64.], dtype=float64)
"""

from __future__ import annotations

import itertools

import numpy as np

from .. import numpy as fnp
from ..core.narrow_floats import dtype_kind as _dtype_kind
from ..tree_util import register_pytree_node as _register_pytree_node
from ._dtypes import inexact_dtype as _inexact_dtype

__all__ = ["RegularGridInterpolator"]

_METHODS = ("linear", "nearest")


def _query_points(xi, ndim: int):
    """The query points as an ``(..., ndim)`` array: a tuple of coordinate arrays is broadcast
    and stacked; a 1-d array is one point per ``ndim`` entries."""
    if isinstance(xi, tuple) and len(xi) == 1:
        xi = xi[0]
    if isinstance(xi, tuple):
        return fnp.stack(fnp.broadcast_arrays(*[fnp.asarray(p) for p in xi]), axis=-1)
    xi = fnp.asarray(xi)
    if xi.ndim == 1:
        xi = xi.reshape(-1, ndim)
    return xi


class RegularGridInterpolator:
    """Interpolate on the grid ``points`` (a sequence of ``N`` strictly increasing 1-d arrays)
    with ``values`` of shape ``(len(points[0]), ..., len(points[N-1]), *trailing)``
    (``scipy.interpolate.RegularGridInterpolator``).  Call it with points ``xi`` of shape
    ``(..., N)`` (or a tuple of ``N`` coordinate arrays); the result has shape
    ``xi.shape[:-1] + trailing``.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> interp = RegularGridInterpolator((fnp.asarray([0.0, 1.0, 3.0]),), fnp.asarray([0.0, 2.0, 0.0]))
        >>> interp(fnp.asarray([[0.5], [2.0], [4.0]]))
        Array([ 1.,  1., nan], dtype=float64)
        >>> fgrad.grad(lambda x: interp(x)[0])(fnp.asarray([2.0]))
        Array([-1.], dtype=float64)
    """

    def __init__(self, points, values, method: str = "linear", bounds_error: bool = False,
                 fill_value=np.nan):
        if method not in _METHODS:
            raise ValueError(f"fgrad.scipy.interpolate.RegularGridInterpolator: method {method!r} is not "
                             f"defined; use one of {_METHODS}")
        if bounds_error:
            raise NotImplementedError("fgrad.scipy.interpolate.RegularGridInterpolator: bounds_error=True "
                                      "is not supported (it cannot be checked under jit, as in JAX); pass "
                                      "bounds_error=False and a fill_value")
        self.method = method
        self.bounds_error = bounds_error
        values = fnp.asarray(values)
        if _dtype_kind(values.dtype) not in "fc":
            values = values.astype(_inexact_dtype(values))
        if len(points) > values.ndim:
            raise ValueError(f"fgrad.scipy.interpolate.RegularGridInterpolator: there are {len(points)} "
                             f"point arrays, but values has {values.ndim} dimensions (shape {values.shape})")
        grid = tuple(fnp.asarray(p) for p in points)
        for i, g in enumerate(grid):
            if g.ndim != 1:
                raise ValueError(f"fgrad.scipy.interpolate.RegularGridInterpolator: the points in dimension "
                                 f"{i} must be 1-dimensional, got shape {g.shape}")
            if g.shape[0] != values.shape[i]:
                raise ValueError(f"fgrad.scipy.interpolate.RegularGridInterpolator: there are {g.shape[0]} "
                                 f"points and {values.shape[i]} values in dimension {i}")
            if g.shape[0] < 2:
                raise ValueError(f"fgrad.scipy.interpolate.RegularGridInterpolator: dimension {i} needs at "
                                 f"least 2 points, got {g.shape[0]}")
        if fill_value is not None:
            fill_value = fnp.asarray(fill_value)
            if _dtype_kind(fill_value.dtype) == "c" and _dtype_kind(values.dtype) != "c":
                raise ValueError("fgrad.scipy.interpolate.RegularGridInterpolator: fill_value must be either "
                                 f"None or of a type compatible with values ({values.dtype}), got "
                                 f"{fill_value.dtype}")
        self.grid = grid
        self.values = values
        self.fill_value = fill_value

    def __call__(self, xi, method: str | None = None):
        method = self.method if method is None else method
        if method not in _METHODS:
            raise ValueError(f"fgrad.scipy.interpolate.RegularGridInterpolator: method {method!r} is not "
                             f"defined; use one of {_METHODS}")
        ndim = len(self.grid)
        xi = _query_points(xi, ndim)
        if xi.shape[-1] != ndim:
            raise ValueError(f"fgrad.scipy.interpolate.RegularGridInterpolator: the requested sample points "
                             f"xi have dimension {xi.shape[-1]}, but this interpolator has dimension {ndim}")
        batch = xi.shape[:-1]
        xi = xi.reshape(-1, ndim)
        indices, fractions, outside = [], [], None
        for d, g in enumerate(self.grid):
            x = xi[:, d]
            i = fnp.clip(fnp.searchsorted(g, x) - 1, 0, g.shape[0] - 2)
            lo = g[i]
            indices.append(i)
            fractions.append((x - lo) / (g[i + 1] - lo))
            out_d = (x < g[0]) | (x > g[-1])
            outside = out_d if outside is None else outside | out_d
        trailing = (1,) * (self.values.ndim - ndim)
        if method == "linear":
            result = None
            for corner in itertools.product((0, 1), repeat=ndim):
                weight = None
                for upper, t in zip(corner, fractions):
                    w = t if upper else 1 - t
                    weight = w if weight is None else weight * w
                value = self.values[tuple(i + upper for upper, i in zip(corner, indices))]
                term = value * weight.reshape(weight.shape + trailing)
                result = term if result is None else result + term
        else:
            nearest = tuple(fnp.where(t <= 0.5, i, i + 1) for i, t in zip(indices, fractions))
            result = self.values[nearest]
        if self.fill_value is not None:
            fill = self.fill_value.astype(result.dtype)
            result = fnp.where(outside.reshape(outside.shape + trailing), fill, result)
        return result.reshape(batch + self.values.shape[ndim:])


_register_pytree_node(
    RegularGridInterpolator,
    lambda obj: ((obj.grid, obj.values, obj.fill_value), (obj.method, obj.bounds_error)),
    lambda aux, children: _unflatten(aux, children),
)


def _unflatten(aux, children) -> RegularGridInterpolator:
    """Rebuild without re-validating (the children may be tracers or batching placeholders)."""
    obj = object.__new__(RegularGridInterpolator)
    obj.grid, obj.values, obj.fill_value = children
    obj.method, obj.bounds_error = aux
    return obj
