"""Descriptive statistics of ``jax.scipy.stats``: `mode`, `rankdata` and `sem`.

Ranks and modes come from a sort and two binary searches (the first and one past the last
position of each value among the sorted values), batched over the other axes with ``vmap``,
so they trace under ``jit`` and run on any backend.

Example::

    >>> import fgrad.numpy as fnp
    >>> rankdata(fnp.asarray([3, 1, 4, 1]))
    Array([3. , 1.5, 4. , 1.5], dtype=float64)
"""

from __future__ import annotations

from ...typing import Array, ArrayLike

import math
from typing import NamedTuple

import numpy as np

from ...core.x64_mode import canonical_dtype

from ... import numpy as fnp
from ...transforms.batching import vmap
from ._util import promote

_NAN_POLICIES = ("propagate", "omit", "raise")
_RANK_METHODS = ("average", "min", "max", "dense", "ordinal")


class ModeResult(NamedTuple):
    """`mode`'s result: the most common value and how often it occurs.

    Example::

        >>> import fgrad.numpy as jnp
        >>> from fgrad.scipy import stats
        >>> res = stats.mode(jnp.array([1.0, 2.0, 2.0, 3.0]))
        >>> res.mode, res.count
        (Array(2., dtype=float64), Array(2, dtype=int64))
    """

    mode: object
    count: object


def _check_nan_policy(op: str, nan_policy: str) -> None:
    if nan_policy not in _NAN_POLICIES:
        raise ValueError(f"{op}: illegal nan_policy value {nan_policy!r}; expected one of {_NAN_POLICIES}")
    if nan_policy != "propagate":
        raise NotImplementedError(f"{op}: nan_policy={nan_policy!r} is not implemented (as in JAX); "
                                  "remove NaNs first or use nan_policy='propagate'")


def _run_bounds(values):
    """The sorted 1-d ``values`` and, for each element of ``values``, the first and
    one-past-last index of its value among them."""
    ordered = fnp.sort(values)
    return ordered, fnp.searchsorted(ordered, values, side="left"), fnp.searchsorted(ordered, values,
                                                                                      side="right")


def _columns(a, axis):
    """``a`` with ``axis`` first and the other axes flattened into one: ``(n, rest)``."""
    moved = fnp.moveaxis(a, axis, 0)
    return moved.reshape(moved.shape[0], math.prod(moved.shape[1:])), moved.shape[1:]


def _mode_1d(values):
    ordered = fnp.sort(values)
    _, first, last = _run_bounds(ordered)
    counts = fnp.astype(last - first, canonical_dtype(np.int64))  # JAX's counts: the default int
    best = fnp.argmax(counts)  # the first maximum among the sorted values: the smallest mode
    return ordered[best], counts[best]


def mode(a: ArrayLike, axis: int | None = 0, nan_policy: str = "propagate",
         keepdims: bool = False) -> ModeResult:
    """The most common value along ``axis`` and its count (``ModeResult(mode, count)``; the
    smallest such value on ties, as SciPy; ``axis=None`` uses the flattened array).  Not
    differentiable.

    Example::

        >>> import fgrad.numpy as fnp
        >>> mode(fnp.asarray([[1, 2, 2], [3, 3, 1], [1, 2, 1]]))
        ModeResult(mode=Array([1, 2, 1], dtype=int64), count=Array([2, 2, 2], dtype=int64))
    """
    _check_nan_policy("mode", nan_policy)
    x = fnp.atleast_1d(fnp.asarray(a))
    if axis is None:
        out_shape = (1,) * x.ndim if keepdims else ()
        x, axis = x.reshape(-1), 0
    else:
        if not -x.ndim <= axis < x.ndim:
            raise np.exceptions.AxisError(f"mode: axis {axis} is out of bounds for an array of "
                                          f"dimension {x.ndim}")
        axis = axis % x.ndim
        out_shape = tuple(1 if i == axis else s for i, s in enumerate(x.shape)) if keepdims else \
            tuple(s for i, s in enumerate(x.shape) if i != axis)
    if x.shape[axis] == 0:
        return ModeResult(fnp.full(out_shape, np.nan), fnp.zeros(out_shape, np.float64))
    cols, _ = _columns(x, axis)
    if cols.shape[1] == 0:
        return ModeResult(fnp.zeros(out_shape, x.dtype), fnp.zeros(out_shape, np.int64))
    values, counts = vmap(_mode_1d, in_axes=1)(cols)
    return ModeResult(values.reshape(out_shape), counts.reshape(out_shape))


def _rank_1d(values, method):
    ordered, first, last = _run_bounds(values)
    if method == "ordinal":
        order = fnp.argsort(values, stable=True)
        return fnp.zeros(values.shape, np.float64).at[order].set(fnp.arange(1, values.shape[0] + 1,
                                                                               dtype=np.float64))
    if method == "min":
        ranks = first + 1
    elif method == "max":
        ranks = last
    elif method == "average":
        ranks = 0.5 * (first + last + 1)
    else:  # dense: 1 + the number of distinct values below
        new_value = fnp.concatenate([fnp.ones(1, bool), ordered[1:] != ordered[:-1]])
        ranks = fnp.cumsum(new_value)[first]
    ranks = ranks.astype(np.float64)
    return fnp.where(fnp.any(fnp.isnan(values)), fnp.full_like(ranks, np.nan), ranks)


def rankdata(a: ArrayLike, method: str = "average", *, axis: int | None = None,
             nan_policy: str = "propagate") -> Array:
    """Ranks of the values, from 1 (``scipy.stats.rankdata``): ties get the ``method``'s rank
    (``average``, ``min``, ``max``, ``dense``, ``ordinal``); float64; all NaN where the data
    hold a NaN (``nan_policy='propagate'``).  ``axis=None`` ranks the flattened array.

    Example::

        >>> import fgrad.numpy as fnp
        >>> rankdata(fnp.asarray([3, 1, 4, 1, 5]), "dense")
        Array([2., 1., 3., 1., 4.], dtype=float64)
    """
    _check_nan_policy("rankdata", nan_policy)
    if method not in _RANK_METHODS:
        raise ValueError(f"rankdata: unknown method {method!r}; expected one of {_RANK_METHODS}")
    x = fnp.asarray(a)
    if axis is None:
        flat = x.reshape(-1)
        return _rank_1d(flat, method) if flat.size else fnp.zeros((0,), np.float64)
    if x.ndim == 0 or not -x.ndim <= axis < x.ndim:
        raise np.exceptions.AxisError(f"rankdata: axis {axis} is out of bounds for an array of "
                                      f"dimension {x.ndim}")
    axis = axis % x.ndim
    if x.size == 0:
        return fnp.zeros(x.shape, np.float64)
    cols, rest = _columns(x, axis)
    ranks = vmap(lambda v: _rank_1d(v, method), in_axes=1, out_axes=1)(cols)
    return fnp.moveaxis(ranks.reshape((x.shape[axis],) + rest), 0, axis)


def sem(a: ArrayLike, axis: int | None = 0, ddof: int = 1, nan_policy: str = "propagate", *,
        keepdims: bool = False) -> Array:
    """The standard error of the mean, ``std(a, ddof) / sqrt(n)`` along ``axis``
    (``nan_policy='omit'`` ignores NaNs); differentiable.

    Example::

        >>> import fgrad.numpy as fnp
        >>> sem(fnp.arange(10.0))
        Array(0.95742711, dtype=float64)
    """
    (b,) = promote(a)
    if nan_policy == "propagate":
        size = b.size if axis is None else b.shape[axis]
        return fnp.std(b, axis=axis, ddof=ddof, keepdims=keepdims) / math.sqrt(size)
    if nan_policy == "omit":
        count = fnp.sum(~fnp.isnan(b), axis=axis, keepdims=keepdims)
        return fnp.nanstd(b, axis=axis, ddof=ddof, keepdims=keepdims) / fnp.sqrt(count).astype(b.dtype)
    raise ValueError(f"sem: nan_policy={nan_policy!r} is not supported; use 'propagate' or 'omit'")


__all__ = ["ModeResult", "mode", "rankdata", "sem"]
