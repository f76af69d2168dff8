"""Covariance and counting statistics with NumPy names: `cov`, `corrcoef`, `bincount`,
`histogram_bin_edges`, `histogram`, `histogram2d`, `histogramdd`.

`cov`/`corrcoef` are differentiable in the data and the weights; the histograms are
differentiable in ``weights`` (counts are a scatter-add) and their bin edges in ``range``.
`bincount` needs a concrete input unless ``length`` is given (JAX).

>>> import fgrad.numpy as fnp
>>> fnp.bincount(fnp.asarray([0, 1, 1, 3]))
Array([1, 2, 0, 1], dtype=int64)
"""

from __future__ import annotations

from collections.abc import Sequence

from ..typing import Array, ArrayLike, DTypeLike

import builtins
import math

import numpy as np
from ..core.narrow_floats import dtype_kind as _dtype_kind
from ..core.narrow_floats import promote_types as _promote_types

from ..core.array import Tracer, get_aval
from ..core.inexact import to_inexact_dtype
from ..core.x64_mode import canonical_dtype
from ._dtypes import result_type
from ..core.trace import ConcretizationError
import fgrad.numpy._building_blocks as fnp
from ._indexing import _concrete

__all__ = ["cov", "corrcoef", "bincount", "histogram_bin_edges", "histogram", "histogram2d", "histogramdd"]


class _StringBinsError(TypeError, NotImplementedError):
    """String ``bins`` ("auto", ...): JAX raises TypeError (it takes no strings there); this
    is also the NotImplementedError fgrad raised before."""


def cov(m: ArrayLike, y: ArrayLike | None = None, rowvar=True, bias: ArrayLike = False,
        ddof: int | None = None, fweights=None, aweights=None, dtype: DTypeLike | None = None) -> Array:
    """``numpy.cov``: the covariance matrix of the variables in the rows (``rowvar``) or
    columns of ``m`` (and ``y``), with frequency and analytic weights.  A single variable
    gives a 0-d array.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.cov(fnp.asarray([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]]))
        Array([[ 1., -1.],
               [-1.,  1.]], dtype=float64)
    """
    if ddof is not None and ddof != int(ddof):
        raise ValueError("fgrad.numpy.cov: ddof must be an integer")
    m = fnp.asarray(m)
    if get_aval(m).ndim > 2:
        raise ValueError(f"fgrad.numpy.cov: m has more than 2 dimensions (shape {get_aval(m).shape})")
    dt = to_inexact_dtype(result_type(m) if y is None else result_type(m, y)) if dtype is None \
        else np.dtype(dtype)
    if aweights is not None and dtype is None:
        aw_dt = get_aval(fnp.asarray(aweights)).dtype
        if _dtype_kind(aw_dt) in "fc":  # float analytic weights promote the result (JAX)
            dt = _promote_types(dt, aw_dt)
    x = fnp.atleast_2d(fnp.astype(m, dt))
    if not rowvar and get_aval(x).shape[0] != 1:
        x = fnp.transpose(x)
    if y is not None:
        y = fnp.asarray(y)
        if get_aval(y).ndim > 2:
            raise ValueError(f"fgrad.numpy.cov: y has more than 2 dimensions (shape {get_aval(y).shape})")
        y = fnp.atleast_2d(fnp.astype(y, dt))
        if not rowvar and get_aval(y).shape[0] != 1:
            y = fnp.transpose(y)
        x = fnp.concatenate([x, y], axis=0)
    if ddof is None:
        ddof = 0 if bias else 1
    n = get_aval(x).shape[1]
    w = None
    if fweights is not None:
        fw = fnp.asarray(fweights)
        if get_aval(fw).ndim > 1 or get_aval(fw).shape[0] != n:
            raise RuntimeError(
                f"fgrad.numpy.cov: fweights must be 1-D of length {n}, got shape {get_aval(fw).shape}"
            )
        w = fnp.astype(fw, dt)
    if aweights is not None:
        aw = fnp.asarray(aweights)
        if get_aval(aw).ndim > 1 or get_aval(aw).shape[0] != n:
            raise RuntimeError(
                f"fgrad.numpy.cov: aweights must be 1-D of length {n}, got shape {get_aval(aw).shape}"
            )
        aw = fnp.astype(aw, dt)
        w = aw if w is None else fnp.multiply(w, aw)
    if w is None:
        avg = fnp.mean(x, axis=1)
        fact = float(builtins.max(n - ddof, 0))
    else:
        w_sum = fnp.sum(w)
        avg = fnp.divide(fnp.sum(fnp.multiply(x, w), axis=1), w_sum)
        if ddof == 0:
            fact = w_sum
        elif aweights is None:
            fact = fnp.subtract(w_sum, ddof)
        else:
            fact = fnp.subtract(w_sum, fnp.divide(fnp.multiply(ddof, fnp.sum(fnp.multiply(w, aw))), w_sum))
        fact = fnp.maximum(fact, 0.0)
    xc = fnp.subtract(x, avg[:, None])
    xw = xc if w is None else fnp.multiply(xc, w)
    c = fnp.divide(fnp.matmul(xw, fnp.conj(fnp.transpose(xc))), fact)
    return fnp.squeeze(c)


def corrcoef(x: ArrayLike, y: ArrayLike | None = None, rowvar=True, dtype: DTypeLike | None = None) -> Array:
    """``numpy.corrcoef``: Pearson correlation coefficients, `cov` normalized by the standard
    deviations, real (and imaginary) parts clipped to [-1, 1].

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.corrcoef(fnp.asarray([1.0, 2.0, 3.0]), fnp.asarray([2.0, 4.0, 5.0]))
        Array([[1.        , 0.98198051],
               [0.98198051, 1.        ]], dtype=float64)
    """
    c = cov(x, y, rowvar, dtype=dtype)
    if get_aval(c).ndim == 0:
        return fnp.divide(c, c)
    d = fnp.diagonal(c)
    std = fnp.sqrt(fnp.real(d))
    c = fnp.divide(fnp.divide(c, std[:, None]), std[None, :])
    if get_aval(c).dtype.kind == "c":
        re = fnp.clip(fnp.real(c), -1, 1)
        im = fnp.clip(fnp.imag(c), -1, 1)
        return fnp.add(fnp.astype(re, get_aval(c).dtype), fnp.multiply(1j, fnp.astype(im, get_aval(c).dtype)))
    return fnp.clip(c, -1, 1)


def bincount(x: ArrayLike, weights: ArrayLike | None = None, minlength=0, *, length=None) -> Array:
    """``numpy.bincount``: how often each non-negative integer occurs in the 1-D ``x`` (the
    sum of ``weights`` where given).  The length is ``max(x) + 1`` (at least ``minlength``),
    which needs a concrete ``x``; under `jit` pass a static ``length`` (JAX): values outside
    ``[0, length)`` are then dropped.  Negative values are counted in bin 0, as in JAX
    (NumPy raises): ``bincount([-1, 1])`` is ``[1, 1]``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.bincount(fnp.asarray([1, 1, 3]), weights=fnp.asarray([0.5, 1.0, 2.0]), length=5)
        Array([0. , 1.5, 0. , 2. , 0. ], dtype=float64)
    """
    x = fnp.asarray(x)
    if get_aval(x).dtype.kind not in "iub":
        raise TypeError(f"fgrad.numpy.bincount: x must be an integer array, got {get_aval(x).dtype}")
    if get_aval(x).ndim != 1:
        raise ValueError(f"fgrad.numpy.bincount: x must be one-dimensional, got shape {get_aval(x).shape}")
    if minlength < 0:
        raise ValueError("fgrad.numpy.bincount: minlength must be non-negative")
    hint = "Pass a static length=... to use bincount under jit/vmap."
    if length is None:
        concrete = _concrete(x, "bincount", hint)  # raises ConcretizationTypeError for a traced x
    else:
        try:
            concrete = _concrete(x, "bincount", hint)
        except ConcretizationError:
            concrete = None  # traced with a static length: JAX's semantics
    if length is None:
        length = builtins.max(int(minlength), int(concrete.max()) + 1 if concrete.size else 0)
    length = int(length)
    if weights is None:
        w = fnp.ones(get_aval(x).shape, np.int64)
    else:
        w = fnp.asarray(weights)
        if get_aval(w).shape != get_aval(x).shape:
            raise ValueError(
                f"fgrad.numpy.bincount: the shape of weights {get_aval(w).shape} must match "
                f"the shape of x {get_aval(x).shape}"
            )
    idx = fnp.clip(fnp.astype(x, np.int64), 0, None)
    return fnp.zeros(length, get_aval(w).dtype).at[idx].add(w, mode="drop")


def _float_like(a) -> np.dtype:
    return to_inexact_dtype(get_aval(a).dtype)


def histogram_bin_edges(a: ArrayLike, bins: int | ArrayLike = 10, range: Sequence[ArrayLike] | None = None,  # noqa: A002 (NumPy's name)
                        weights: ArrayLike | None = None) -> Array:
    """``numpy.histogram_bin_edges``: ``bins + 1`` equal-width edges over ``range`` (default
    the data's min and max, widened by 0.5 each side when they are equal), or ``bins``
    itself when it is an array.  String rules (``"auto"``, ...) are not supported (JAX).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.histogram_bin_edges(fnp.asarray([0.0, 1.0, 4.0]), bins=4)
        Array([0., 1., 2., 3., 4.], dtype=float64)
    """
    if isinstance(bins, str):
        raise _StringBinsError(
            "fgrad.numpy.histogram_bin_edges: string values for bins are not "
            "supported (as in JAX); pass a number of bins or the edges"
        )
    a = fnp.asarray(a)
    dt = _float_like(a)
    if np.ndim(bins) == 1 or (hasattr(bins, "shape") and len(bins.shape) == 1):
        edges = fnp.astype(fnp.asarray(bins), dt)
        return edges
    nbins = int(bins)
    if nbins < 1:
        raise ValueError("fgrad.numpy.histogram_bin_edges: bins must be a positive integer")
    if range is None:
        if get_aval(a).size == 0:
            lo, hi = fnp.asarray(0.0, dt), fnp.asarray(1.0, dt)
        else:
            lo, hi = fnp.astype(fnp.min(a), dt), fnp.astype(fnp.max(a), dt)
    else:
        if len(range) != 2:
            raise ValueError(f"fgrad.numpy.histogram_bin_edges: range must be a pair, got {range!r}")
        lo, hi = (fnp.astype(fnp.asarray(v), dt) for v in range)
        lo_c, hi_c = lo, hi
        if not isinstance(lo_c, Tracer) and not isinstance(hi_c, Tracer) and float(lo_c) > float(hi_c):
            raise ValueError(
                "fgrad.numpy.histogram_bin_edges: max must be larger than min in range parameter"
            )
    same = fnp.equal(lo, hi)
    lo = fnp.where(same, fnp.subtract(lo, 0.5), lo)
    hi = fnp.where(same, fnp.add(hi, 0.5), hi)
    return fnp.linspace(lo, hi, nbins + 1, dtype=dt)  # (JAX's edges, bit for bit)


def _bin_index(values, edges):
    """The bin of each value counted from 1 (0: below the first edge, len(edges): above the
    last); a value on the last edge goes into the last bin."""
    idx = fnp.searchsorted(edges, values, side="right")
    return fnp.where(fnp.equal(values, edges[-1]), idx - 1, idx)


def histogramdd(sample: ArrayLike, bins: int | ArrayLike | Sequence[int | ArrayLike] = 10,
                range: Sequence[Sequence[ArrayLike] | None] | None = None, weights: ArrayLike | None = None,  # noqa: A002 (NumPy's name)
                density: bool | None = None) -> tuple[Array, list[Array]]:
    """``numpy.histogramdd``: counts of the ``(N, D)`` samples in a D-dimensional grid of
    bins; returns ``(hist, [edges per dimension])``.  As in JAX, the counts are integers
    (the default int) without weights and of the weights' inexact dtype with them; with
    ``density`` they are floats normalized to integrate to 1.

    Example::

        >>> import fgrad.numpy as fnp
        >>> h, edges = fnp.histogramdd(fnp.asarray([[0.0, 0.0], [1.0, 1.0], [1.0, 0.0]]), bins=2)
        >>> h
        Array([[1, 0],
               [1, 1]], dtype=int64)
    """
    sample = fnp.asarray(sample)
    if get_aval(sample).ndim == 1:
        sample = sample[:, None]
    if get_aval(sample).ndim != 2:
        raise ValueError(
            f"fgrad.numpy.histogramdd: sample must be (N, D), got shape {get_aval(sample).shape}"
        )
    n, d = get_aval(sample).shape
    if weights is None:
        sample = fnp.astype(sample, _float_like(sample))
    else:
        weights = fnp.asarray(weights)
        if get_aval(weights).shape != (n,):
            raise ValueError(
                f"fgrad.numpy.histogramdd: expected one weight for each of the {n} samples, got "
                f"shape {get_aval(weights).shape}"
            )
        dt = to_inexact_dtype(result_type(sample, weights))
        sample, weights = fnp.astype(sample, dt), fnp.astype(weights, dt)
    if range is not None and len(range) != d:
        raise ValueError(f"fgrad.numpy.histogramdd: range must be a sequence of {d} pairs or Nones")
    try:
        n_bins = len(bins)
    except TypeError:
        per_dim = [bins] * d
    else:
        if n_bins != d:
            raise ValueError(
                f"fgrad.numpy.histogramdd: the dimension of bins ({n_bins}) must equal "
                f"the dimension of the sample ({d})"
            )
        per_dim = list(bins)
    edges_list, index_list = [], []
    for i in builtins.range(d):
        col = sample[:, i]
        edges = histogram_bin_edges(col, per_dim[i], None if range is None else range[i])
        edges_list.append(edges)
        index_list.append(_bin_index(col, edges))
    nbins = tuple(get_aval(e).shape[0] + 1 for e in edges_list)
    flat = fnp.zeros(n, np.int64)
    for idx, nb in zip(index_list, nbins, strict=True):
        flat = fnp.add(fnp.multiply(flat, nb), fnp.astype(idx, np.int64))
    # JAX: integer counts (the default int) without weights, the weights' dtype with them
    w = fnp.ones(n, canonical_dtype(np.int64)) if weights is None else weights
    hist = fnp.zeros(math.prod(nbins), get_aval(w).dtype).at[flat].add(w)
    hist = fnp.reshape(hist, nbins)[(slice(1, -1),) * d]
    if density:
        hist = fnp.astype(hist, get_aval(sample).dtype)
        hist = fnp.divide(hist, fnp.sum(hist))
        for i, e in enumerate(edges_list):
            shape = [1] * d
            shape[i] = get_aval(e).shape[0] - 1
            hist = fnp.divide(hist, fnp.reshape(fnp.diff(e), shape))
    return hist, edges_list


def histogram(a: ArrayLike, bins: int | ArrayLike = 10, range: Sequence[ArrayLike] | None = None,  # noqa: A002 (NumPy's name)
              weights: ArrayLike | None = None, density: bool | None = None) -> tuple[Array, Array]:
    """``numpy.histogram``: counts of the (flattened) values of ``a`` in ``bins`` (a number
    of equal bins over ``range``, or the edges); returns ``(hist, edges)``.  The counts are
    floats, as in JAX (NumPy counts in integers): the inexact dtype of ``a`` (and of the
    weights); ``density`` divides by the total and the bin widths.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.histogram(fnp.asarray([0.0, 0.5, 1.0, 3.0]), bins=3)[0]
        Array([2., 1., 1.], dtype=float64)
    """
    a = fnp.ravel(fnp.asarray(a))
    if weights is None:
        a = fnp.astype(a, _float_like(a))
        w = fnp.ones(get_aval(a).shape, get_aval(a).dtype)
    else:
        weights = fnp.ravel(fnp.asarray(weights))
        if get_aval(weights).shape != get_aval(a).shape:
            raise ValueError("fgrad.numpy.histogram: weights should have the same shape as a")
        dt = to_inexact_dtype(result_type(a, weights))
        a, w = fnp.astype(a, dt), fnp.astype(weights, dt)
    edges = histogram_bin_edges(a, bins, range)
    idx = fnp.astype(_bin_index(a, edges), np.int64)
    nb = get_aval(edges).shape[0] + 1
    counts = fnp.zeros(nb, get_aval(w).dtype).at[idx].add(w)[1:-1]
    if density:
        counts = fnp.divide(fnp.divide(counts, fnp.diff(edges)), fnp.sum(counts))
    return counts, edges


def histogram2d(x: ArrayLike, y: ArrayLike, bins: int | ArrayLike | Sequence[int | ArrayLike] = 10,
                range: Sequence[Sequence[ArrayLike] | None] | None = None, weights: ArrayLike | None = None,  # noqa: A002 (NumPy's name)
                density: bool | None = None) -> tuple[Array, Array, Array]:
    """``numpy.histogram2d``: `histogramdd` of the pairs ``(x, y)``; returns ``(hist, xedges,
    yedges)``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.histogram2d(fnp.asarray([0.0, 1.0]), fnp.asarray([0.0, 1.0]), bins=2)[0]
        Array([[1, 0],
               [0, 1]], dtype=int64)
    """
    x, y = fnp.asarray(x), fnp.asarray(y)
    if get_aval(x).shape != get_aval(y).shape or get_aval(x).ndim != 1:
        raise ValueError(
            f"fgrad.numpy.histogram2d: x and y must be 1-D of the same length, got shapes "
            f"{get_aval(x).shape} and {get_aval(y).shape}"
        )
    try:
        n = len(bins)
    except TypeError:
        n = 1
    if n != 1 and n != 2:
        bins = [bins, bins]
    hist, edges = histogramdd(fnp.stack([x, y], axis=1), bins, range, weights, density)
    return hist, edges[0], edges[1]
