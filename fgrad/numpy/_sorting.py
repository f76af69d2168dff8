"""Cumulative ops, sorting, order statistics, searching, unique and NaN-aware reductions with
NumPy names, as composites over the cumulative and sort primitives.

Sorting is stable (ties keep their order) and differentiable through the permutation;
`median`/`quantile`/`percentile` are differentiable in the data and in ``q``.  `searchsorted`
and the ``arg*`` functions return integers (no derivative); `unique` has a data-dependent
shape and needs a concrete input.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

from ..typing import Array, ArrayLike, Axis, DTypeLike

from typing import Any, NamedTuple

import numpy as np
from ..core.inexact import to_inexact_dtype
from ..core.narrow_floats import dtype_kind as _dtype_kind, sortable
from ..core.x64_mode import canonical_dtype

from ..core.array import ArrayImpl, Tracer, get_aval, is_python_scalar
from ..core.trace import ConcretizationError, ConcretizationTypeError
from ..ops import cumulative as cumulative_ops
from ..ops import sorting as sorting_ops
from ..ops._util import normalize_axes, normalize_axis
from ..ops.elementwise import convert_element_type
from ..ops.shape import broadcast_to
from ..transforms.jit import jit_when_staged
import fgrad.numpy._math as fnp_math
import fgrad.numpy._reductions as fnp_reductions
from . import _creation
from ._creation import asarray, constant_like
from ._shape import moveaxis, ravel, reshape
from ..ops.structural import concatenate as _concat

__all__ = [
    "cumsum", "cumprod", "cumulative_sum", "cumulative_prod", "nancumsum", "nancumprod",
    "sort", "argsort", "lexsort", "partition", "argpartition",
    "median", "quantile", "percentile", "nanmedian", "nanquantile", "nanpercentile",
    "searchsorted", "digitize",
    "unique", "unique_values", "unique_counts", "unique_inverse", "unique_all",
    "nanmax", "nanmin", "nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanargmax", "nanargmin",
]


def _arr(a):
    if isinstance(a, (Tracer, ArrayImpl)):
        return a
    return asarray(a)


# ---------------------------------------------------------------------------------------
# cumulative


def _cum_dtype(dt: np.dtype, dtype) -> np.dtype:
    if dtype is not None:
        return np.dtype(dtype)
    if _dtype_kind(dt) == "b":  # JAX: bools count in the default integer; integers keep their
        return np.dtype(np.int64)  # dtype (NumPy widens them to the default integer)
    return dt


def _cumulative(prim_fn, name):
    def f(a: ArrayLike, axis: int | None = None, dtype: DTypeLike | None = None, out: None = None) -> Array:
        if out is not None:
            raise NotImplementedError(f"fgrad.numpy.{name}: out= is not supported (arrays are immutable)")
        a = _arr(a)
        if axis is None:
            a, axis = ravel(a), 0
        av = get_aval(a)
        a = convert_element_type(a, _cum_dtype(av.dtype, dtype))
        if av.ndim == 0:
            raise ValueError(f"fgrad.numpy.{name}: axis {axis} is out of bounds for a 0-d array")
        return prim_fn(a, normalize_axis(axis, av.ndim, name))

    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"``numpy.{name}``: along ``axis`` (None: of the flattened array); bool inputs "
                 "accumulate in the default integer, integers in their own dtype (JAX).")
    return f


# JAX's jnp.cumsum is jit[name=cumsum] in programs (axis, dtype and out static)
cumsum = jit_when_staged(_cumulative(cumulative_ops.cumsum, "cumsum"), static_argnums=(1, 2, 3),
                         static_argnames=("axis", "dtype", "out"))
cumprod = _cumulative(cumulative_ops.cumprod, "cumprod")


def _with_initial(res, axis, initial):
    n = get_aval(res).shape[axis]
    nd = get_aval(res).ndim
    after_first = sorting_ops.static_index(n, axis, nd, np.arange(1, n + 1))
    shifted = sorting_ops.scatter_add_along_axis(res, after_first, axis, n + 1)
    first = np.zeros(tuple(1 if i == axis else s for i, s in enumerate(get_aval(res).shape)),
                     get_aval(res).dtype)
    if initial != 0:
        first = first + initial
        at_zero = sorting_ops.static_index(n + 1, axis, nd, [0])
        first = sorting_ops.scatter_add_along_axis(constant_like(first, res), at_zero, axis, n + 1)
        return fnp_math.add(shifted, first)
    return shifted


def _sum_dtype(dt):
    """JAX's ``cumulative_sum`` dtype: integers narrower than the default integer widen to it
    (unsigned to the default unsigned), as ``sum``'s ``promote_integers``; bools count in
    the default integer (``cumulative_prod`` keeps integer dtypes)."""
    if _dtype_kind(dt) == "b":
        return canonical_dtype(np.int64)
    if _dtype_kind(dt) in "iu":
        wide = canonical_dtype(np.uint64 if _dtype_kind(dt) == "u" else np.int64)
        return wide if dt.itemsize < wide.itemsize else dt
    return None


def _cumulative_api(fn, name, initial):
    def f(x: ArrayLike, /, *, axis: int | None = None, dtype: DTypeLike | None = None,
          include_initial: bool = False) -> Array:
        x = _arr(x)
        if dtype is None and initial == 0:
            dtype = _sum_dtype(get_aval(x).dtype)
        nd = get_aval(x).ndim
        if axis is None:
            if nd > 1:
                raise ValueError(f"fgrad.numpy.{name}: axis is required for arrays of rank > 1")
            axis = 0
        if nd == 0:
            x, axis = ravel(x), 0
        res = fn(x, axis, dtype)
        if not include_initial:
            return res
        return _with_initial(res, normalize_axis(axis, get_aval(res).ndim, name), initial)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"Array-API ``{name}`` (``include_initial`` prepends the identity)."
    return f


cumulative_sum = _cumulative_api(cumsum, "cumulative_sum", 0)  # initial 0: a sum (widens integers)
cumulative_prod = _cumulative_api(cumprod, "cumulative_prod", 1)


def nancumsum(a: ArrayLike, axis: int | None = None, dtype: DTypeLike | None = None,
              out: None = None) -> Array:
    """`cumsum` treating NaN as zero."""
    a = _arr(a)
    return cumsum(fnp_math.where(fnp_math.isnan(a), 0, a), axis, dtype, out)


def nancumprod(a: ArrayLike, axis: int | None = None, dtype: DTypeLike | None = None,
               out: None = None) -> Array:
    """`cumprod` treating NaN as one."""
    a = _arr(a)
    return cumprod(fnp_math.where(fnp_math.isnan(a), 1, a), axis, dtype, out)


# ---------------------------------------------------------------------------------------
# sorting


def _flat_axis(a, axis):
    if axis is None:
        return ravel(a), 0
    nd = get_aval(a).ndim
    if nd == 0:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension 0")
    return a, normalize_axis(axis, nd, "sort")


def sort(a: ArrayLike, axis: int | None = -1, kind: str | None = None, order: str | None = None, *,
         stable: bool = True, descending: bool = False) -> Array:
    """Sorted copy along ``axis`` (None: flattened).  Stable; NaNs go last; differentiable
    (the tangent follows the permutation)."""
    if order is not None:
        raise NotImplementedError("fgrad.numpy.sort: order= (structured arrays) is not supported")
    a, axis = _flat_axis(_arr(a), axis)
    return sorting_ops.sort_along(a, axis, descending=bool(descending))


def argsort(a: ArrayLike, axis: int | None = -1, kind: str | None = None, order: str | None = None, *,
            stable: bool = True, descending: bool = False) -> Array:
    """Indices that sort ``a`` along ``axis`` (stable, also when ``descending``)."""
    if order is not None:
        raise NotImplementedError("fgrad.numpy.argsort: order= (structured arrays) is not supported")
    a, axis = _flat_axis(_arr(a), axis)
    return sorting_ops.argsort(a, axis, descending=bool(descending))


def lexsort(keys: ArrayLike | Sequence[ArrayLike], axis: int | None = -1) -> Array:
    """Indirect stable sort by several keys; the *last* key is the primary one (NumPy)."""
    if isinstance(keys, (list, tuple)):
        ks = [_arr(k) for k in keys]
    else:
        keys = _arr(keys)
        ks = [reshape(sorting_ops.take_static(keys, [i], 0), get_aval(keys).shape[1:])
              for i in range(get_aval(keys).shape[0])]
    if not ks:
        raise TypeError("fgrad.numpy.lexsort: need at least one key")
    shp = np.broadcast_shapes(*[get_aval(k).shape for k in ks])
    ks = [_broadcast(k, shp) for k in ks]
    if len(shp) == 0:
        raise ValueError("fgrad.numpy.lexsort: keys must be at least 1-d")
    ax = normalize_axis(axis, len(shp), "lexsort")
    iota = sorting_ops.iota_along(shp, ax, like=ks[0])
    outs = sorting_ops.sort_p.bind(*ks[::-1], iota, dimension=ax, is_stable=True, num_keys=len(ks))
    return outs[-1]


def _broadcast(x, shp):
    return x if get_aval(x).shape == tuple(shp) else broadcast_to(x, shp)


def _partition_parts(a, kth, axis, name):
    """``a`` with ``axis`` moved last, its stable sorting permutation, and ``kth`` normalized
    (JAX's partitions take one integer ``kth`` and no complex arrays)."""
    a = _arr(a)
    if _dtype_kind(get_aval(a).dtype) == "c":
        raise NotImplementedError(f"jnp.{name} for complex dtype is not implemented.")
    if axis is None:
        a, axis = ravel(a), 0
    arr = moveaxis(a, normalize_axis(axis, get_aval(a).ndim, name), -1)
    n = get_aval(arr).shape[-1]
    k = operator.index(kth)
    k = normalize_axis(k, n, name)
    return arr, sorting_ops.argsort(arr, -1), k, axis


def partition(a: ArrayLike, kth: int, axis: int | None = -1, kind: str = "introselect",
              order: str | None = None) -> Array:
    """``numpy.partition`` as JAX arranges it: the ``kth + 1`` smallest values ascending, then
    the others descending (``lax.top_k`` of each side).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.partition(fnp.asarray([3, 1, 4, 1, 5, 9, 2]), 2)
        Array([1, 1, 2, 9, 5, 4, 3], dtype=int64)
    """
    arr, perm, k, axis = _partition_parts(a, kth, axis, "partition")
    srt = sorting_ops.take_along_axis(arr, perm, -1)
    n = get_aval(arr).shape[-1]
    nd = get_aval(arr).ndim
    out = _concat([srt[..., :k + 1], sorting_ops.flip_axis(srt[..., k + 1:], nd - 1)], nd - 1) if n else srt
    return moveaxis(out, -1, axis)


def argpartition(a: ArrayLike, kth: int, axis: int | None = -1, kind: str = "introselect",
                 order: str | None = None) -> Array:
    """``numpy.argpartition`` as JAX arranges it (int32 indices): the indices of the ``kth + 1``
    smallest values in sorted order, then the others' in increasing index order.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.argpartition(fnp.asarray([3, 1, 4, 1, 5]), 1)
        Array([1, 3, 0, 2, 4], dtype=int32)
    """
    arr, perm, k, axis = _partition_parts(a, kth, axis, "argpartition")
    rest = sort(perm[..., k + 1:], -1)
    out = _concat([perm[..., :k + 1], rest], get_aval(perm).ndim - 1)
    return moveaxis(convert_element_type(out, np.int32), -1, axis)


# ---------------------------------------------------------------------------------------
# order statistics

_METHODS = ("linear", "lower", "higher", "nearest", "midpoint", "inverted_cdf")  # JAX's six


def _check_method(name, method, weights):
    """JAX's methods; ``weights`` only with ``inverted_cdf`` (``NotImplementedError``)."""
    if method not in _METHODS:
        raise ValueError(f"fgrad.numpy.{name}: method {method!r} is not supported; use one of {_METHODS}")
    if weights is not None and method != "inverted_cdf":
        raise NotImplementedError(f"fgrad.numpy.{name}: method {method!r} does not take weights; "
                                  "only method='inverted_cdf' does")


def _inverted_cdf(name, a, q, axis, keepdims, weights, skip_nan):
    """The weighted inverted-CDF quantile, JAX's rule: the first sorted value whose
    cumulative weight reaches ``q`` times the total (negative or NaN weights, and for
    `quantile` a NaN value, make the slice NaN; `nanquantile` gives NaN weight 0)."""
    a = _arr(a)
    w = _arr(weights)
    if _dtype_kind(get_aval(w).dtype) == "c":
        raise ValueError(f"fgrad.numpy.{name}: weights cannot be complex")
    out_dt = to_inexact_dtype(np.result_type(get_aval(a).dtype, get_aval(w).dtype))
    if _dtype_kind(out_dt) == "c":
        raise ValueError(f"fgrad.numpy.{name}: complex input is not supported (JAX)")
    a = convert_element_type(a, out_dt)
    shape = get_aval(a).shape
    if get_aval(w).shape != shape:
        if axis is None:
            raise ValueError(f"fgrad.numpy.{name}: weights shape {get_aval(w).shape} must match a's "
                             f"{shape} when axis is None")
        axes = normalize_axes(axis, len(shape), name)
        if get_aval(w).shape != tuple(shape[i] for i in axes):
            raise ValueError(f"fgrad.numpy.{name}: weights shape {get_aval(w).shape} must match the "
                             f"reduced axes {tuple(shape[i] for i in axes)}")
        order = sorted(range(len(axes)), key=lambda i: axes[i])
        w = moveaxis(w, order, list(range(len(axes)))) if len(axes) > 1 else w
        w = reshape(w, tuple(s if i in axes else 1 for i, s in enumerate(shape)))
    w = broadcast_to(convert_element_type(w, out_dt), shape)
    flat, n, rest = _move_reduced_last(a, axis, keepdims)
    wflat, _, _ = _move_reduced_last(w, axis, keepdims)
    if n == 0:
        raise ValueError(f"fgrad.numpy.{name}: cannot take a quantile of an empty array")
    order = sorting_ops.argsort(flat, -1)  # NaNs last
    srt = sorting_ops.take_along_axis(flat, order, get_aval(flat).ndim - 1)
    ws = sorting_ops.take_along_axis(wflat, order, get_aval(flat).ndim - 1)
    nan = fnp_math.isnan(srt)
    bad_w = fnp_math.logical_or(fnp_math.less(ws, 0), fnp_math.isnan(ws))
    clean = fnp_math.where(fnp_math.logical_or(bad_w, nan), 0, ws)
    cum = cumulative_ops.cumsum(clean, get_aval(clean).ndim - 1)
    total = cum[..., -1:]  # kept + (1,)
    qa = _arr(q) if not is_python_scalar(q) else asarray(np.float64(q))
    qshape = get_aval(qa).shape
    qf = reshape(convert_element_type(qa, out_dt), (-1,) + (1,) * (get_aval(cum).ndim))
    below = fnp_math.less(cum[None], fnp_math.multiply(qf, total[None]))  # (m,) + kept + (n,)
    idx = fnp_reductions.sum(convert_element_type(below, np.int32), axis=-1)  # (m,) + kept
    valid = (fnp_reductions.sum(convert_element_type(fnp_math.logical_not(nan), np.int32), axis=-1)
             if skip_nan else None)
    top = fnp_math.subtract(valid, 1)[None] if skip_nan else n - 1
    idx = fnp_math.maximum(fnp_math.minimum(idx, top), 0)
    m = get_aval(idx).shape[0]
    src = moveaxis(broadcast_to(srt[None], (m,) + get_aval(srt).shape), 0, -2)  # kept + (m, n)
    res = sorting_ops.take_along_axis(src, moveaxis(idx, 0, -1)[..., None], get_aval(src).ndim - 1)[..., 0]
    res = moveaxis(res, -1, 0)  # (m,) + kept
    force = fnp_reductions.any(bad_w, axis=-1)
    empty = fnp_math.equal(valid, 0) if skip_nan else fnp_reductions.any(nan, axis=-1)
    force = fnp_math.logical_or(force, empty)
    res = fnp_math.where(force[None], constant_like(np.asarray(np.nan, out_dt), res), res)
    return convert_element_type(reshape(res, tuple(qshape) + tuple(rest)), out_dt)


def _quantile_dtype(a_dtype, q, method="linear"):
    """JAX's: ``a``'s inexact dtype (core.inexact: int8 -> float32), whatever ``q``'s dtype
    (``quantile(float32_array, float64_q)`` is float32)."""
    return to_inexact_dtype(a_dtype)


def _move_reduced_last(a, axis, keepdims):
    """``a`` with the reduced axes flattened into the last one, and the output's shape for
    the kept axes."""
    av = get_aval(a)
    if axis is None:
        axes = tuple(range(av.ndim))
    else:
        axes = normalize_axes(axis, av.ndim, "quantile")
    kept = [i for i in range(av.ndim) if i not in axes]
    moved = moveaxis(a, list(axes), list(range(av.ndim - len(axes), av.ndim))) if axes else a
    kept_shape = tuple(av.shape[i] for i in kept)
    n = int(np.prod([av.shape[i] for i in axes], dtype=np.int64))
    flat = reshape(moved, kept_shape + (n,))
    out_rest = tuple(1 if i in axes else s for i, s in enumerate(av.shape)) if keepdims else kept_shape
    return flat, n, out_rest


def _nan_slices_constant(flat):
    """``flat`` with every last-axis slice that holds a NaN replaced by a constant NaN (JAX's
    quantile/median): the result there is NaN and no gradient flows into such a slice
    (``grad(median)([nan, 1.]) == [0., 0.]``)."""
    if _dtype_kind(get_aval(flat).dtype) not in "fc":
        return flat
    poisoned = fnp_reductions.any(fnp_math.isnan(flat), axis=-1, keepdims=True)
    return fnp_math.where(poisoned, constant_like(np.asarray(np.nan, get_aval(flat).dtype), flat), flat)


def quantile(a: ArrayLike, q: ArrayLike, axis: Axis = None, out: None = None, overwrite_input: bool = False,
             method: str = "linear", keepdims: bool = False, *, weights: ArrayLike | None = None,
             interpolation: str | None = None) -> Array:
    """``numpy.quantile`` with JAX's methods: linear, lower, higher, nearest, midpoint and
    inverted_cdf (output shape ``q.shape + reduced shape``).  Differentiable in ``a`` and, for linear,
    in ``q``.  A NaN in a slice makes its quantile NaN with zero gradient (JAX)."""
    if out is not None:
        raise NotImplementedError("fgrad.numpy.quantile: out= is not supported (arrays are immutable)")
    method = interpolation or method
    _check_method("quantile", method, weights)
    if weights is not None:  # inverted_cdf with weights (unweighted: the rank rule below)
        return _inverted_cdf("quantile", a, _check_q(q, 1, "quantile"), axis, keepdims, weights, False)
    return quantile_ranked(a, q, axis, method, keepdims)


def quantile_ranked(a: ArrayLike, q: ArrayLike, axis: Axis = None, method: str = "linear",
                    keepdims: bool = False, rank_dtype: Any = None) -> Array:
    """`quantile` with the ranks ``q * (n - 1)`` computed in ``rank_dtype`` (default: float64,
    as NumPy does for a float64 ``q``).  PyTorch computes them in the input's dtype, so in
    float32 ``0.1 * 100`` is exactly rank 10 and ``lower``/``higher`` pick the same entry
    (in float64 the rank is just above 10 and ``higher`` takes entry 11).

    Example::

        >>> import numpy as np
        >>> import fgrad.numpy as fnp
        >>> x = fnp.arange(101.0, dtype=np.float32)
        >>> quantile_ranked(x, np.float32(0.1), method="higher", rank_dtype=np.float32)
        Array(10., dtype=float32)
    """
    _check_method("quantile", method, None)
    a = _arr(a)
    out_dt = _quantile_dtype(get_aval(a).dtype, q, method)
    if isinstance(q, (list, tuple)):
        q = np.asarray(q, dtype=np.float64)
    if isinstance(q, (np.ndarray, np.generic, float, int)):
        qn = np.asarray(q, dtype=np.float64)
        if np.any((qn < 0) | (qn > 1)):
            raise ValueError("fgrad.numpy.quantile: quantiles must be in the range [0, 1]")
    flat, n, rest = _move_reduced_last(a, axis, keepdims)
    if n == 0:
        raise ValueError("fgrad.numpy.quantile: cannot take a quantile of an empty array")
    if get_aval(flat).dtype != out_dt:
        flat = convert_element_type(flat, out_dt)
    srt = sorting_ops.sort_along(_nan_slices_constant(flat), -1)
    q = _arr(q) if not is_python_scalar(q) else asarray(np.float64(q))
    qshape = get_aval(q).shape
    rdt = np.result_type(get_aval(q).dtype, np.float64) if rank_dtype is None else rank_dtype
    qf = reshape(convert_element_type(q, rdt), (-1,))
    virtual = fnp_math.multiply(float(n - 1), qf)
    if method == "inverted_cdf":  # the first sorted value whose rank (1..n) reaches q n
        virtual = fnp_math.subtract(fnp_math.ceil(fnp_math.multiply(float(n), qf)), 1.0)
    elif method == "lower":
        virtual = fnp_math.floor(virtual)
    elif method == "higher":
        virtual = fnp_math.ceil(virtual)
    elif method == "nearest":
        virtual = fnp_math.ceil(fnp_math.subtract(virtual, 0.5))  # JAX: a tie takes the lower value
    elif method == "midpoint":
        virtual = fnp_math.multiply(0.5, fnp_math.add(fnp_math.floor(virtual), fnp_math.ceil(virtual)))
    lo_f = fnp_math.clip(fnp_math.floor(virtual), 0.0, float(n - 1))
    lo = convert_element_type(lo_f, np.int64)
    nd = get_aval(srt).ndim
    kept = get_aval(srt).shape[:-1]
    m = get_aval(qf).shape[0]

    def gather(idx):
        idx = reshape(idx, (1,) * (nd - 1) + (m,))
        g = sorting_ops.take_along_axis(srt, idx, nd - 1)  # kept + (m,)
        return moveaxis(g, -1, 0)  # (m,) + kept

    x_lo = gather(lo)
    if method in ("lower", "higher", "nearest", "inverted_cdf"):
        res = x_lo
    else:
        hi = convert_element_type(fnp_math.minimum(fnp_math.add(lo_f, 1.0), float(n - 1)), np.int64)
        x_hi = gather(hi)
        gamma = convert_element_type(fnp_math.subtract(virtual, lo_f), out_dt)
        gamma = reshape(gamma, (m,) + (1,) * len(kept))
        diff = fnp_math.subtract(x_hi, x_lo)
        # NumPy's _lerp: a + d t below t = 1/2, b - d (1 - t) from there (exact at both ends)
        from_hi = fnp_math.subtract(x_hi, fnp_math.multiply(diff, fnp_math.subtract(1.0, gamma)))
        from_lo = fnp_math.add(x_lo, fnp_math.multiply(diff, gamma))
        res = fnp_math.where(fnp_math.greater_equal(gamma, 0.5), from_hi, from_lo)
    res = reshape(res, tuple(qshape) + tuple(rest))
    return convert_element_type(res, out_dt)


def percentile(a: ArrayLike, q: ArrayLike, axis: Axis = None, out: None = None, overwrite_input: bool = False,
               method: str = "linear", keepdims: bool = False, *, weights: ArrayLike | None = None,
               interpolation: str | None = None) -> Array:
    """``numpy.percentile``: `quantile` at ``q / 100``."""
    if isinstance(q, (list, tuple)):
        q = np.asarray(q, dtype=np.float64)
    if isinstance(q, (np.ndarray, np.generic)):
        qq = np.true_divide(q, 100)
        if np.any((qq < 0) | (qq > 1)):
            raise ValueError("fgrad.numpy.percentile: percentiles must be in the range [0, 100]")
    else:
        qq = fnp_math.true_divide(q, 100) if not is_python_scalar(q) else q / 100
    return quantile(a, qq, axis, out, overwrite_input, method, keepdims, weights=weights,
                    interpolation=interpolation)


def median(a: ArrayLike, axis: Axis = None, out: None = None, overwrite_input: bool = False,
           keepdims: bool = False) -> Array:
    """``numpy.median``: the middle value, or the mean of the two middle values for even
    counts (JAX's inexact dtype for bool/integer input, `fgrad.core.inexact`).  A NaN in a
    slice makes its median NaN with zero gradient (JAX)."""
    if out is not None:
        raise NotImplementedError("fgrad.numpy.median: out= is not supported (arrays are immutable)")
    a = _arr(a)
    dt = get_aval(a).dtype
    flat, n, rest = _move_reduced_last(a, axis, keepdims)
    if n == 0:
        raise ValueError("fgrad.numpy.median: cannot take the median of an empty array")
    flat = convert_element_type(flat, to_inexact_dtype(dt))
    srt = sorting_ops.sort_along(_nan_slices_constant(flat), -1)
    nd = get_aval(srt).ndim
    lo = reshape(sorting_ops.take_static(srt, [(n - 1) // 2], nd - 1), rest)
    if n % 2:
        return lo
    hi = reshape(sorting_ops.take_static(srt, [n // 2], nd - 1), rest)
    return fnp_math.divide(fnp_math.add(lo, hi), 2)


def _check_q(q, scale, name):
    if isinstance(q, (list, tuple)):
        q = np.asarray(q, dtype=np.float64)
    if isinstance(q, (np.ndarray, np.generic, float, int)):
        qn = np.asarray(q, dtype=np.float64) / scale
        if np.any((qn < 0) | (qn > 1)):
            raise ValueError(f"fgrad.numpy.{name}: q must be in the range [0, {scale}]")
    return q


def nanquantile(a: ArrayLike, q: ArrayLike, axis: Axis = None, out: None = None,
                overwrite_input: bool = False, method: str = "linear", keepdims: bool = False, *,
                weights: ArrayLike | None = None, interpolation: str | None = None) -> Array:
    """``numpy.nanquantile``: `quantile` ignoring NaNs (each slice uses its own count of
    non-NaN values; an all-NaN slice gives NaN).  Differentiable in ``a`` and, for linear, in
    ``q``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.nanquantile(fnp.asarray([1.0, fnp.nan, 3.0, 2.0]), 0.5)
        Array(2., dtype=float64)
    """
    if out is not None:
        raise NotImplementedError("fgrad.numpy.nanquantile: out= is not supported (arrays are immutable)")
    method = interpolation or method
    _check_method("nanquantile", method, weights)
    if weights is not None:  # inverted_cdf with weights (unweighted: the rank rule below)
        return _inverted_cdf("nanquantile", a, _check_q(q, 1, "nanquantile"), axis, keepdims, weights, True)
    a = _arr(a)
    if get_aval(a).dtype.kind not in "fc":
        return quantile(a, q, axis, None, False, method, keepdims)
    q = _check_q(q, 1, "nanquantile")
    out_dt = _quantile_dtype(get_aval(a).dtype, q, method)
    flat, n, rest = _move_reduced_last(a, axis, keepdims)
    if n == 0:
        raise ValueError("fgrad.numpy.nanquantile: cannot take a quantile of an empty array")
    if get_aval(flat).dtype != out_dt:
        flat = convert_element_type(flat, out_dt)
    srt = sorting_ops.sort_along(flat, -1)  # NaNs sort last
    count = fnp_reductions.sum(convert_element_type(fnp_math.logical_not(fnp_math.isnan(flat)), np.float64),
                               axis=-1, keepdims=True)  # kept + (1,)
    q = _arr(q) if not is_python_scalar(q) else asarray(np.float64(q))
    qshape = get_aval(q).shape
    qf = reshape(convert_element_type(q, np.result_type(get_aval(q).dtype, np.float64)), (-1,))
    last = fnp_math.maximum(fnp_math.subtract(count, 1.0), 0.0)
    virtual = fnp_math.multiply(last, qf)  # kept + (m,)
    if method == "inverted_cdf":  # the first sorted value whose rank (1..count) reaches q count
        virtual = fnp_math.maximum(fnp_math.subtract(fnp_math.ceil(fnp_math.multiply(count, qf)), 1.0), 0.0)
    elif method == "lower":
        virtual = fnp_math.floor(virtual)
    elif method == "higher":
        virtual = fnp_math.ceil(virtual)
    elif method == "nearest":
        virtual = fnp_math.ceil(fnp_math.subtract(virtual, 0.5))  # JAX: a tie takes the lower value
    elif method == "midpoint":
        virtual = fnp_math.multiply(0.5, fnp_math.add(fnp_math.floor(virtual), fnp_math.ceil(virtual)))
    lo_f = fnp_math.minimum(fnp_math.floor(virtual), last)
    nd = get_aval(srt).ndim
    x_lo = sorting_ops.take_along_axis(srt, convert_element_type(lo_f, np.int64), nd - 1)
    if method in ("lower", "higher", "nearest", "inverted_cdf"):
        res = x_lo
    else:
        hi_f = fnp_math.minimum(fnp_math.add(lo_f, 1.0), last)
        x_hi = sorting_ops.take_along_axis(srt, convert_element_type(hi_f, np.int64), nd - 1)
        gamma = convert_element_type(fnp_math.subtract(virtual, lo_f), out_dt)
        diff = fnp_math.subtract(x_hi, x_lo)
        from_hi = fnp_math.subtract(x_hi, fnp_math.multiply(diff, fnp_math.subtract(1.0, gamma)))
        from_lo = fnp_math.add(x_lo, fnp_math.multiply(diff, gamma))
        res = fnp_math.where(fnp_math.greater_equal(gamma, 0.5), from_hi, from_lo)
    res = fnp_math.where(fnp_math.equal(count, 0.0), constant_like(np.asarray(np.nan, out_dt), res), res)
    res = moveaxis(res, -1, 0)  # (m,) + kept
    return convert_element_type(reshape(res, tuple(qshape) + tuple(rest)), out_dt)


def nanpercentile(a: ArrayLike, q: ArrayLike, axis: Axis = None, out: None = None,
                  overwrite_input: bool = False, method: str = "linear", keepdims: bool = False, *,
                  weights: ArrayLike | None = None, interpolation: str | None = None) -> Array:
    """``numpy.nanpercentile``: `nanquantile` at ``q / 100``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.nanpercentile(fnp.asarray([1.0, fnp.nan, 3.0]), 50)
        Array(2., dtype=float64)
    """
    q = _check_q(q, 100, "nanpercentile")
    qq = np.true_divide(q, 100) if isinstance(q, (np.ndarray, np.generic)) else (
        q / 100 if is_python_scalar(q) else fnp_math.true_divide(q, 100))
    return nanquantile(a, qq, axis, out, overwrite_input, method, keepdims, weights=weights,
                       interpolation=interpolation)


def nanmedian(a: ArrayLike, axis: Axis = None, out: None = None, overwrite_input: bool = False,
              keepdims: bool = False) -> Array:
    """``numpy.nanmedian``: the median of the non-NaN values of each slice (NaN for an
    all-NaN slice).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.nanmedian(fnp.asarray([[1.0, fnp.nan, 4.0], [2.0, 5.0, 3.0]]), axis=1)
        Array([2.5, 3. ], dtype=float64)
    """
    a = _arr(a)
    if get_aval(a).dtype.kind not in "fc":
        return median(a, axis, out, overwrite_input, keepdims)
    return nanquantile(a, 0.5, axis, out, overwrite_input, "linear", keepdims)


# ---------------------------------------------------------------------------------------
# searching


def searchsorted(a: ArrayLike, v: ArrayLike, side: str = "left", sorter: ArrayLike | None = None, *,
                 method: str | None = None) -> Array:
    """Insertion points of ``v`` into the sorted 1-d ``a`` (no derivative), int32 as JAX
    0.10.2 gives them (an index type that holds ``len(a)``: int64 only past 2**31 - 1).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.searchsorted(fnp.asarray([1.0, 2.0, 3.0]), 2.5)
        Array(2, dtype=int32)
    """
    if side not in ("left", "right"):
        raise ValueError(f"fgrad.numpy.searchsorted: side must be 'left' or 'right', got {side!r}")
    a = _arr(a)
    if get_aval(a).ndim != 1:
        raise ValueError("fgrad.numpy.searchsorted: a must be 1-d")
    if sorter is not None:
        a = sorting_ops.take_along_axis(a, _arr(sorter), 0)
    idx = sorting_ops.searchsorted(a, _arr(v), side=side)
    return convert_element_type(idx, np.int32 if get_aval(a).shape[0] <= np.iinfo(np.int32).max else np.int64)


def digitize(x: ArrayLike, bins: ArrayLike, right: bool = False) -> Array:
    """``numpy.digitize``: the bin index of each ``x`` (bins increasing or decreasing;
    traced bins are taken as increasing)."""
    bins = _arr(bins)
    side = "left" if right else "right"
    if not isinstance(bins, Tracer):
        b = np.asarray(bins)
        if b.ndim != 1:
            raise ValueError("fgrad.numpy.digitize: bins must be 1-d")
        if b.size > 1 and b[0] > b[-1]:
            n = b.size
            rev = sorting_ops.flip_axis(bins, 0)
            idx = searchsorted(rev, x, side=side)
            return fnp_math.subtract(constant_like(np.asarray(n, get_aval(idx).dtype), idx), idx)
    return searchsorted(bins, x, side=side)


# ---------------------------------------------------------------------------------------
# unique (concrete inputs only)


def _concrete(ar, name):
    try:
        return np.asarray(ar)
    except ConcretizationError as e:
        raise ConcretizationTypeError(
            f"{e}\nfgrad.numpy.{name} has an output shape that depends on the values, so it needs "
            "a concrete array (call it outside jit/vmap, or on a value you pass in as static)."
        ) from None


def unique(ar: ArrayLike, return_index: bool = False, return_inverse: bool = False,
           return_counts: bool = False, axis: int | None = None, *, equal_nan: bool = True,
           size: int | None = None,
           fill_value: ArrayLike | None = None, sorted: bool = True) -> Array | tuple[Array, ...]:
    """``numpy.unique`` on a concrete array.  With ``size`` (and no ``axis``), the result is
    padded (with ``fill_value``, default: the smallest unique value; indices with the
    smallest value's index, counts with 0) or truncated to that length, as in JAX, and the
    input may be traced (under jit, vmap).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> fgrad.jit(lambda a: fnp.unique(a, size=4, fill_value=-1))(fnp.asarray([3, 1, 3]))
        Array([ 1,  3, -1, -1], dtype=int64)
    """
    if size is not None and axis is None:
        return _unique_sized(ar, int(size), fill_value, return_index, return_inverse, return_counts,
                             equal_nan)
    buf = _concrete(ar, "unique")
    wide = sortable(buf)  # bfloat16: NumPy's sort misplaces NaNs
    res = np.unique(wide, return_index=return_index, return_inverse=return_inverse,
                    return_counts=return_counts, axis=axis, equal_nan=equal_nan)
    parts = list(res) if isinstance(res, tuple) else [res]
    parts[0] = parts[0].astype(buf.dtype) if wide is not buf else parts[0]
    if size is not None:
        vals = parts[0]
        k = vals.shape[0 if axis is None else axis] if vals.ndim else 0
        ax = 0 if axis is None else axis
        if k >= size:
            sel = np.arange(size)
        else:
            sel = np.concatenate([np.arange(k), np.zeros(size - k, np.int64)])
        out = [np.take(vals, sel, axis=ax)]
        if k < size:
            fv = np.take(vals, [0], axis=ax) if fill_value is None else fill_value
            pad_mask = np.arange(size) >= k
            shape = [1] * out[0].ndim
            shape[ax] = size
            out[0] = np.where(pad_mask.reshape(shape), fv, out[0])
        i = 1
        if return_index:
            out.append(np.where(np.arange(size) < k, np.take(parts[i], sel), 0))
            i += 1
        if return_inverse:
            out.append(parts[i])
            i += 1
        if return_counts:
            out.append(np.where(np.arange(size) < k, np.take(parts[i], sel), 0))
        parts = out
    parts = [constant_like(np.asarray(p), ar) for p in parts]
    return tuple(parts) if len(parts) > 1 else parts[0]


def _unique_sized(ar, size, fill_value, return_index, return_inverse, return_counts, equal_nan):
    """`unique` with a static ``size`` by sorting (traceable): each sorted value that differs
    from its predecessor starts a group; scatters with ``mode="drop"`` place the groups'
    first values, first indices and counts in ``size`` slots (JAX's padding)."""
    x = _arr(ar)
    shape = get_aval(x).shape
    flat = ravel(x)
    n = get_aval(flat).shape[0]
    if n == 0:
        raise ValueError("fgrad.numpy.unique: size= needs a non-empty array (there is no value to pad with)")
    perm = argsort(flat, stable=True)
    srt = flat[perm]
    starts = fnp_math.not_equal(srt[1:], srt[:-1])
    if equal_nan and _dtype_kind(get_aval(flat).dtype) in "fc":
        both_nan = fnp_math.logical_and(fnp_math.isnan(srt[1:]), fnp_math.isnan(srt[:-1]))
        starts = fnp_math.logical_and(starts, fnp_math.logical_not(both_nan))
    first = _concat([_creation.ones(1, bool), starts], 0)
    group = cumsum(first) - 1
    slot = fnp_math.where(first, group, size)  # later members of a group, and groups past size, are dropped
    fill = srt[0] if fill_value is None else fill_value
    out = [_creation.full(size, fill, get_aval(flat).dtype).at[slot].set(srt, mode="drop")]
    if return_index:
        out.append(_creation.full(size, perm[0], get_aval(perm).dtype).at[slot].set(perm, mode="drop"))
    if return_inverse:
        out.append(reshape(_creation.zeros(n, get_aval(group).dtype).at[perm].set(group), shape))
    if return_counts:
        out.append(_creation.zeros(size, get_aval(group).dtype).at[group].add(1, mode="drop"))
    return tuple(out) if len(out) > 1 else out[0]


class _UniqueAllResult(NamedTuple):
    values: Any
    indices: Any
    inverse_indices: Any
    counts: Any


class _UniqueCountsResult(NamedTuple):
    values: Any
    counts: Any


class _UniqueInverseResult(NamedTuple):
    values: Any
    inverse_indices: Any


def unique_values(x: ArrayLike) -> Array:
    """The distinct values of ``x``, sorted (each NaN counts as distinct, as the array API
    and `numpy.unique_values` say).

    >>> import fgrad.numpy as fnp
    >>> fnp.unique_values(fnp.asarray([2, 1, 2]))
    Array([1, 2], dtype=int64)
    """
    return unique(x, equal_nan=False)


def unique_counts(x: ArrayLike) -> tuple[Array, ...]:
    """``(values, counts)`` as a named tuple (NaNs distinct).

    >>> import fgrad.numpy as fnp
    >>> fnp.unique_counts(fnp.asarray([2, 1, 2])).counts
    Array([1, 2], dtype=int64)
    """
    return _UniqueCountsResult(*unique(x, return_counts=True, equal_nan=False))


def unique_inverse(x: ArrayLike) -> tuple[Array, ...]:
    """``(values, inverse_indices)`` as a named tuple; ``values[inverse_indices]`` is ``x``.

    >>> import fgrad.numpy as fnp
    >>> fnp.unique_inverse(fnp.asarray([2, 1, 2])).inverse_indices
    Array([1, 0, 1], dtype=int64)
    """
    vals, inv = unique(x, return_inverse=True, equal_nan=False)
    return _UniqueInverseResult(vals, reshape(inv, get_aval(_arr(x)).shape))


def unique_all(x: ArrayLike) -> tuple[Array, ...]:
    """``(values, indices, inverse_indices, counts)`` as a named tuple (NaNs distinct).

    >>> import fgrad.numpy as fnp
    >>> fnp.unique_all(fnp.asarray([2, 1, 2])).indices
    Array([1, 0], dtype=int64)
    """
    vals, idx, inv, counts = unique(ravel(_arr(x)), return_index=True, return_inverse=True,
                                    return_counts=True, equal_nan=False)
    return _UniqueAllResult(vals, idx, reshape(inv, get_aval(_arr(x)).shape), counts)


# ---------------------------------------------------------------------------------------
# NaN-aware reductions


def _nan_to(a, value):
    a = _arr(a)
    if _dtype_kind(get_aval(a).dtype) not in "fc":
        return a, None
    nan = fnp_math.isnan(a)
    return fnp_math.where(nan, value, a), nan


def nansum(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: None = None,
           keepdims: bool = False, initial: ArrayLike | None = None, where: ArrayLike | None = None) -> Array:
    """Sum treating NaN as zero (``initial`` and ``where`` as `sum`'s)."""
    b, _ = _nan_to(a, 0)
    return fnp_reductions.sum(b, axis, dtype=dtype, keepdims=keepdims, initial=initial, where=where)


def nanprod(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: None = None,
            keepdims: bool = False, initial: ArrayLike | None = None,
            where: ArrayLike | None = None) -> Array:
    """Product treating NaN as one (``initial`` and ``where`` as `prod`'s)."""
    b, _ = _nan_to(a, 1)
    return fnp_reductions.prod(b, axis, dtype=dtype, keepdims=keepdims, initial=initial, where=where)


def _nan_ext(fill, red, name):
    def f(a: ArrayLike, axis: Axis = None, out: None = None, keepdims: bool = False,
          initial: ArrayLike | None = None, where: ArrayLike | None = None) -> Array:
        b, nan = _nan_to(a, fill)
        res = red(b, axis, keepdims=keepdims, initial=initial, where=where)
        if nan is None or initial is not None:  # with initial an all-NaN slice gives it (JAX)
            return res
        all_nan = fnp_reductions.all(nan, axis, keepdims=keepdims)
        return fnp_math.where(all_nan, np.nan, res)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"``numpy.{name}``: ignores NaNs (an all-NaN slice gives NaN, or ``initial``)."
    return f


nanmax = _nan_ext(-np.inf, fnp_reductions.max, "nanmax")
nanmin = _nan_ext(np.inf, fnp_reductions.min, "nanmin")


def _count_valid(nan, axis, keepdims, dtype, where=None):
    valid = fnp_math.logical_not(nan)
    if where is not None:
        valid = fnp_math.logical_and(valid, where)
    return fnp_reductions.sum(convert_element_type(valid, dtype), axis, keepdims=keepdims)


def nanmean(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: None = None,
            keepdims: bool = False, *, where: ArrayLike | None = None) -> Array:
    """Mean over the non-NaN entries (an all-NaN slice gives NaN); with ``where``, over the
    non-NaN entries it selects (JAX).

    Example::

        >>> import fgrad.numpy as jnp
        >>> float(jnp.nanmean(jnp.asarray([1.0, jnp.nan, 3.0, 10.0]), where=jnp.asarray([1, 1, 1, 0]) > 0))
        2.0
    """
    a = _arr(a)
    if _dtype_kind(get_aval(a).dtype) not in "fc":
        return fnp_reductions.mean(a, axis, dtype=dtype, keepdims=keepdims, where=where)
    b, nan = _nan_to(a, 0)
    dt = np.dtype(dtype) if dtype is not None else get_aval(a).dtype
    total = fnp_reductions.sum(b, axis, dtype=dt, keepdims=keepdims, where=where)
    return fnp_math.divide(total, _count_valid(nan, axis, keepdims, dt, where))


def nanvar(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: None = None, ddof: int = 0,
           keepdims: bool = False, *, where: ArrayLike | None = None) -> Array:
    """Variance over the non-NaN entries (those ``where`` selects); NaN where fewer than
    ``ddof + 1`` count (JAX).

    Example::

        >>> import fgrad.numpy as jnp
        >>> float(jnp.nanvar(jnp.asarray([1.0, jnp.nan, 3.0])))
        1.0
    """
    a = _arr(a)
    if _dtype_kind(get_aval(a).dtype) not in "fc":
        return fnp_reductions.var(a, axis, dtype=dtype, ddof=ddof, keepdims=keepdims, where=where)
    dt = np.dtype(dtype) if dtype is not None else get_aval(a).dtype
    m = nanmean(a, axis, dtype=dt, keepdims=True, where=where)
    b, nan = _nan_to(a, 0)
    d = fnp_math.where(nan, 0, fnp_math.subtract(b, m))
    sq = (fnp_math.real(fnp_math.multiply(d, fnp_math.conj(d))) if _dtype_kind(dt) == "c"
          else fnp_math.multiply(d, d))
    cnt = fnp_math.subtract(_count_valid(nan, axis, keepdims, get_aval(sq).dtype, where), float(ddof))
    total = fnp_reductions.sum(sq, axis, keepdims=keepdims, where=where)
    too_few = fnp_math.less_equal(cnt, 0)
    return fnp_math.where(too_few, np.nan, fnp_math.divide(total, fnp_math.where(too_few, 1, cnt)))


def nanstd(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: None = None, ddof: int = 0,
           keepdims: bool = False, *, where: ArrayLike | None = None) -> Array:
    """Standard deviation over the non-NaN entries (``sqrt(nanvar(...))``)."""
    return fnp_math.sqrt(nanvar(a, axis, dtype, out, ddof, keepdims, where=where))


def nanargmax(a: ArrayLike, axis: int | None = None, out: None = None, keepdims: bool = False) -> Array:
    """`argmax` ignoring NaNs; -1 for a slice of NaNs only, as JAX (NumPy raises).

    >>> import fgrad.numpy as fnp
    >>> fnp.nanargmax(fnp.asarray([[fnp.nan, fnp.nan], [1.0, fnp.nan]]), axis=1)
    Array([-1,  0], dtype=int64)
    """
    return _nanarg(fnp_reductions.argmax, a, -np.inf, axis, keepdims)


def nanargmin(a: ArrayLike, axis: int | None = None, out: None = None, keepdims: bool = False) -> Array:
    """`argmin` ignoring NaNs; -1 for a slice of NaNs only, as JAX (NumPy raises)."""
    return _nanarg(fnp_reductions.argmin, a, np.inf, axis, keepdims)


def _nanarg(arg, a, fill, axis, keepdims):
    a = _arr(a)
    aval = get_aval(a)
    if _dtype_kind(aval.dtype) == "c" and axis is not None:
        ax = normalize_axis(axis, aval.ndim, arg.__name__)
        out_shape = tuple(1 if d == ax else n for d, n in enumerate(aval.shape) if keepdims or d != ax)
        if aval.shape[ax] > 0 and 0 in out_shape:  # JAX compares nothing: an empty result, no TypeError
            return _creation.zeros(out_shape, canonical_dtype(np.int64))
    b, nan = _nan_to(a, fill)
    res = arg(b, axis, keepdims=keepdims)
    if nan is None:
        return res
    all_nan = fnp_reductions.all(nan, axis, keepdims=keepdims)
    return fnp_math.where(all_nan, convert_element_type(-1, get_aval(res).dtype), res)
