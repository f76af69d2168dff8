"""Set operations on 1-D arrays with NumPy names: `isin`, `union1d`, `intersect1d`,
`setdiff1d`, `setxor1d`.

`isin` keeps its input's shape and works under every transform.  The others return sorted
unique values, so their length depends on the values: they need concrete inputs unless a
static ``size`` is given (JAX), in which case the result is truncated or padded with
``fill_value`` (JAX's defaults: the smallest result value for `union1d`/`intersect1d`/
`setxor1d`, 0 for `setdiff1d` or an empty result; `intersect1d`'s indices are padded with
the inputs' lengths).

Derivatives follow JAX's: without ``size`` the result is computed from the inputs' values
(JAX's ``concrete_or_error``), so it carries no derivative (0), except where
``assume_unique=True`` skips the `unique` step (`intersect1d`, `setdiff1d`, `setxor1d`),
where each value's cotangent goes to the element it was taken from.  With ``size`` the
derivative flows through the selection; JAX's default padding of `intersect1d` and
`setxor1d` is the minimum of its ``where(valid, vals, max(vals))``, whose derivative is
split among equal values (`_jax_min_padding`).

>>> import fgrad.numpy as fnp
>>> fnp.setdiff1d(fnp.asarray([5, 1, 3, 1]), fnp.asarray([3]))
Array([1, 5], dtype=int64)
"""

from __future__ import annotations

from ..typing import Array, ArrayLike

import numpy as np

from ..core.array import get_aval
from ..ops.bits import stop_gradient
from ..ops.elementwise import promote_joined, strip_weak
import fgrad.numpy._building_blocks as fnp
from ._indexing import _concrete

__all__ = ["isin", "union1d", "intersect1d", "setdiff1d", "setxor1d"]


def isin(element: ArrayLike, test_elements: ArrayLike, assume_unique: bool = False, invert: bool = False, *,
         method: str = "auto") -> Array:
    """``numpy.isin``: whether each element of ``element`` occurs in ``test_elements``
    (``invert``: does not).  NaN is never found (NaN != NaN).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.isin(fnp.asarray([[1, 2], [3, 4]]), fnp.asarray([4, 1]))
        Array([[ True, False],
               [False,  True]], dtype=bool)
    """
    if method not in ("auto", "compare_all", "binary_search", "sort"):
        raise ValueError(
            f"fgrad.numpy.isin: method={method!r} is not one of 'auto', 'compare_all', "
            "'binary_search', 'sort'"
        )
    e = fnp.asarray(element)
    t = fnp.ravel(fnp.asarray(test_elements))
    n = get_aval(t).shape[0]
    if n == 0:
        found = fnp.zeros(get_aval(e).shape, bool)
    elif get_aval(t).dtype.kind == "c" or get_aval(e).dtype.kind == "c" or method == "compare_all":
        found = fnp.any(fnp.equal(e[..., None], t), axis=-1)
    else:
        s = fnp.sort(t)
        i = fnp.clip(fnp.searchsorted(s, e), 0, n - 1)
        found = strip_weak(fnp.equal(fnp.take(s, i), e))  # (JAX's found is a reduction's: strong)
    return fnp.logical_not(found) if invert else found


def _first_of_runs(s):
    """True at the first element of each run of equal values of the sorted 1-D ``s``."""
    if get_aval(s).shape[0] == 0:
        return fnp.zeros(0, bool)
    return fnp.concatenate([fnp.ones(1, bool), fnp.not_equal(s[1:], s[:-1])])


def _compress(values, mask, size, fill_value, default_fill, name: str):
    """``values[mask]``: concrete when ``size`` is None, else the first ``size`` selected
    values padded with ``fill_value`` (None: ``default_fill(selected)``)."""
    if size is None:
        keep = _concrete(mask, name, "Pass size=... (and fill_value=...) for a fixed-length result.")
        return values[np.flatnonzero(keep)]
    size = int(size)
    (idx,) = fnp.nonzero(mask, size=size, fill_value=0)
    out = fnp.take(values, idx) if get_aval(values).shape[0] else fnp.zeros(size, get_aval(values).dtype)
    count = fnp.sum(fnp.astype(mask, np.int64))
    if fill_value is None:
        fill_value = default_fill(out, count)
    return fnp.where(
        fnp.less(fnp.arange(size), count), out, fnp.astype(fnp.asarray(fill_value), get_aval(values).dtype)
    )


def _smallest(out, count):
    """JAX's default padding: the smallest (first) selected value, 0 when none is."""
    return fnp.where(fnp.greater(count, 0), out[0], 0) if get_aval(out).shape[0] else 0


def _jax_min_padding(values, count):
    """JAX's padding of `intersect1d`/`setxor1d` with ``size`` and no ``fill_value``:
    invalid slots (0 there) take ``max(values)``, then every invalid slot takes the minimum
    of that, so the smallest result value, with its derivative split among equal values as
    JAX's ``max``/``min`` split it."""
    if get_aval(values).shape[0] == 0:
        return 0
    valid = fnp.less(fnp.arange(get_aval(values).shape[0]), count)
    vals = fnp.where(valid, values, fnp.zeros((), get_aval(values).dtype))
    vals = fnp.where(valid, vals, fnp.max(vals))
    return fnp.where(valid, vals, fnp.min(vals))


def _without_derivative_unless(assume_unique: bool, size, *arrays):
    """JAX's `unique` without ``size`` reads its input's value, so the set operations built
    on it carry no derivative; ``assume_unique`` (no `unique` step) or a ``size`` keeps it."""
    if size is None and not assume_unique:
        return tuple(stop_gradient(fnp.asarray(a)) for a in arrays)
    return arrays


def _sorted_unique(ar, assume_unique: bool):
    s = fnp.sort(fnp.ravel(fnp.asarray(ar)))
    return s, (fnp.ones(get_aval(s).shape, bool) if assume_unique else _first_of_runs(s))


def union1d(ar1: ArrayLike, ar2: ArrayLike, *, size: int | None = None,
            fill_value: ArrayLike | None = None) -> Array:
    """``numpy.union1d``: the sorted unique values in either array.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.union1d(fnp.asarray([3, 1]), fnp.asarray([2, 3]))
        Array([1, 2, 3], dtype=int64)
    """
    ar1, ar2 = _without_derivative_unless(False, size, ar1, ar2)
    both = fnp.concatenate([fnp.ravel(fnp.asarray(ar1)), fnp.ravel(fnp.asarray(ar2))])
    s, first = _sorted_unique(both, False)
    return _compress(s, first, size, fill_value, _smallest, "union1d")


def intersect1d(ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False, return_indices: bool = False, *,
                size: int | None = None, fill_value: ArrayLike | None = None) -> Array:
    """``numpy.intersect1d``: the sorted unique values in both arrays; ``return_indices``
    also gives the index of each value's first occurrence in the flattened inputs.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.intersect1d(fnp.asarray([1, 3, 4, 3]), fnp.asarray([3, 1, 2, 1]))
        Array([1, 3], dtype=int64)
    """
    ar1, ar2 = _without_derivative_unless(assume_unique, size, ar1, ar2)
    a1, a2 = fnp.ravel(fnp.asarray(ar1)), fnp.ravel(fnp.asarray(ar2))
    a1, a2 = promote_joined([a1, a2])  # JAX's promote_dtypes: uint64 with int64 is a weak float
    order1 = fnp.argsort(a1)
    s1 = fnp.take(a1, order1)
    first = fnp.ones(get_aval(s1).shape, bool) if assume_unique else _first_of_runs(s1)
    mask = fnp.logical_and(first, isin(s1, a2))
    values = _compress(s1, mask, size, fill_value, _jax_min_padding, "intersect1d")
    if not return_indices:
        return values
    order2 = fnp.argsort(a2)
    s2 = fnp.take(a2, order2)
    n2 = get_aval(s2).shape[0]
    pos = fnp.clip(fnp.searchsorted(s2, s1), 0, max(n2 - 1, 0))
    idx2 = fnp.take(order2, pos) if n2 else fnp.zeros(get_aval(s1).shape, np.int64)
    # JAX pads the indices with the inputs' lengths
    ind1 = _compress(order1, mask, size, get_aval(a1).shape[0], _smallest, "intersect1d")
    ind2 = _compress(idx2, mask, size, n2, _smallest, "intersect1d")
    return values, ind1, ind2


def setdiff1d(ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False, *, size: int | None = None,
              fill_value: ArrayLike | None = None) -> Array:
    """``numpy.setdiff1d``: the sorted unique values of ``ar1`` not in ``ar2`` (with
    ``assume_unique``: ``ar1``'s values in their order, as NumPy).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.setdiff1d(fnp.asarray([1, 2, 3, 2, 4]), fnp.asarray([3, 4, 5]))
        Array([1, 2], dtype=int64)
    """
    (ar1,) = _without_derivative_unless(assume_unique, size, ar1)
    if assume_unique:
        s = fnp.ravel(fnp.asarray(ar1))
        keep = isin(s, ar2, invert=True)
    else:
        s, first = _sorted_unique(ar1, False)
        keep = fnp.logical_and(first, isin(s, ar2, invert=True))
    return _compress(s, keep, size, fill_value, lambda out, count: 0, "setdiff1d")


def setxor1d(ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False, *, size: int | None = None,
             fill_value: ArrayLike | None = None) -> Array:
    """``numpy.setxor1d``: the sorted unique values in exactly one of the arrays.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.setxor1d(fnp.asarray([1, 2, 3, 2, 4]), fnp.asarray([2, 3, 5, 7, 5]))
        Array([1, 4, 5, 7], dtype=int64)
    """
    ar1, ar2 = _without_derivative_unless(assume_unique, size, ar1, ar2)
    a1, a2 = fnp.ravel(fnp.asarray(ar1)), fnp.ravel(fnp.asarray(ar2))
    dt = np.result_type(get_aval(a1).dtype, get_aval(a2).dtype)
    s1, f1 = _sorted_unique(fnp.astype(a1, dt), assume_unique)
    s2, f2 = _sorted_unique(fnp.astype(a2, dt), assume_unique)
    k1 = fnp.logical_and(f1, isin(s1, a2, invert=True))
    k2 = fnp.logical_and(f2, isin(s2, a1, invert=True))
    values = fnp.concatenate([s1, s2])
    keep = fnp.concatenate([k1, k2])
    # sorted order with the kept values first: primary key "not kept", secondary the value
    order = fnp.lexsort((values, fnp.logical_not(keep)))
    values, keep = fnp.take(values, order), fnp.take(keep, order)
    return _compress(values, keep, size, fill_value, _jax_min_padding, "setxor1d")
