"""Windowed reductions (``lax.reduce_window``): max, min and sum over sliding windows.

* ``reduce_window_max`` / ``reduce_window_min`` are primitives.  The windows of the
  (base-dilated, padded) operand are a strided view; the reduction runs over the window axes.
  Their JVP gathers the tangent at each window's first maximum (minimum) --
  ``select_and_gather_add`` -- and the transpose of that gather is
  ``select_and_scatter_add``, which sends each cotangent back to its window's argmax with one
  strided add per window offset (no ``add.at``); the two transpose into each other.
* ``reduce_window_sum`` is a convolution with a kernel of ones over the windowed axes (the
  others fold into the batch), so its derivatives and batching are the convolution's.

Every rule here is written with fgrad ops.  ``vmap`` adds a size-1 window over the mapped
axis.

Example::

    >>> import fgrad.numpy as fnp
    >>> reduce_window(fnp.arange(6.0), -fnp.inf, "max", (2,), (2,), "VALID")
    Array([1., 3., 5.], dtype=float64)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from ..typing import Array, ArrayLike

import functools
import itertools
import math
import operator

import numpy as np
from ..core.narrow_floats import dtype_kind

from ..core.array import ShapedArray, get_aval
from ..core import native_pool
from ..core.host_pool import empty as pooled_empty
from ..core.constants import ones_like
from ..core.primitive import Primitive
from ..core.rules import defbatch, defjvp, deflinear_in
from .convolution import (
    ConvDimensionNumbers,
    conv_general_dilated_p,
    dilate_and_pad,
    padtype_to_pads,
    window_view,
)
from .elementwise import add, maximum as _max, minimum as _min
from .shape import move_or_broadcast, reshape, transpose

_PARAMS = ("window_dimensions", "window_strides", "padding", "base_dilation", "window_dilation")


def _identity(kind: str, dtype: np.dtype):
    dtype = np.dtype(dtype)
    if kind == "sum":
        return dtype.type(0)
    if dtype_kind(dtype) == "f" or dtype_kind(dtype) == "c":
        return dtype.type(-np.inf if kind == "max" else np.inf)
    if dtype_kind(dtype) == "b":
        return kind == "min"
    info = np.iinfo(dtype)
    return dtype.type(info.min if kind == "max" else info.max)


def _dil(n: int, d: int) -> int:
    return 0 if n == 0 else 1 + d * (n - 1)


def _out_shape(shape, window_dimensions, window_strides, padding, base_dilation, window_dilation) -> tuple:
    out = []
    for n, k, s, (lo, hi), bd, wd in zip(
        shape, window_dimensions, window_strides, padding, base_dilation, window_dilation
    ):
        span = _dil(n, bd) + lo + hi - _dil(k, wd)
        out.append(span // s + 1 if span >= 0 else 0)
    return tuple(out)


def _windows(xp, x, fill, window_dimensions, window_strides, padding, base_dilation, window_dilation):
    """The strided view ``out + window`` of ``x``'s windows (padding and holes hold ``fill``)."""
    xd = dilate_and_pad(xp, x, 0, base_dilation, padding, fill)
    out = _out_shape(
        xd.shape, window_dimensions, window_strides, ((0, 0),) * x.ndim, (1,) * x.ndim, window_dilation
    )
    return window_view(xp, xd, window_dimensions, window_strides, window_dilation, out, 0), out


def argselect(xp, kind, x, params):
    """Flat index (into the window) of each window's first max/min (NaN counts as the
    extreme, as in ``argmax``), and the output shape.  One pass per window offset over
    output-shaped strided views: no copy of the windows."""
    v, out = _windows(xp, x, _identity(kind, x.dtype), **params)
    offsets = list(np.ndindex(*params["window_dimensions"]))
    idx_dtype = np.int8 if len(offsets) <= 127 else np.int32
    if dtype_kind(x.dtype) in "fc" and xp is not np:
        # on a device, asking whether a NaN occurred is a host synchronisation: take the
        # NaN-aware pass, which gives the same indices where there is none
        return _argselect_nan(xp, kind, v, offsets, out, idx_dtype), out
    best = v[(Ellipsis,) + offsets[0]].copy()
    idx = xp.zeros(out, dtype=idx_dtype)
    take = xp.empty(out, dtype=bool)
    step = xp.empty(out, dtype=idx_dtype)
    beats = xp.greater if kind == "max" else xp.less
    keep_best = xp.maximum if kind == "max" else xp.minimum  # NaN propagates into best
    for k, offs in enumerate(offsets[1:], 1):
        cand = v[(Ellipsis,) + offs]
        beats(cand, best, out=take)
        keep_best(best, cand, out=best)
        # idx = k where cand took the lead; k grows, so the last lead is the max of k * take
        # (arithmetic: several times faster than a masked copy)
        xp.multiply(take, idx_dtype(k), out=step)
        xp.maximum(idx, step, out=idx)
    if dtype_kind(x.dtype) in "fc" and bool(xp.isnan(best).any()):
        idx = _argselect_nan(xp, kind, v, offsets, out, idx_dtype)
    return idx, out


def _argselect_nan(xp, kind, v, offsets, out, idx_dtype):
    """`argselect` where NaNs occur: the first NaN of a window wins."""
    best = v[(Ellipsis,) + offsets[0]].copy()
    idx = xp.zeros(out, dtype=idx_dtype)
    worse_or_equal = xp.less_equal if kind == "max" else xp.greater_equal
    take = xp.empty(out, dtype=bool)
    keep = xp.empty(out, dtype=bool)
    for k, offs in enumerate(offsets[1:], 1):
        cand = v[(Ellipsis,) + offs]
        worse_or_equal(cand, best, out=take)  # False where cand beats best or either is NaN
        xp.logical_not(take, out=take)
        xp.equal(best, best, out=keep)  # best is not NaN
        take &= keep
        xp.copyto(best, cand, where=take)
        xp.copyto(idx, idx_dtype(k), where=take)
    return idx


def window_sum(xp, x, **params):
    """Eager sum over each window (NumPy/CuPy buffers; zero padding): one strided add per
    window offset.  The differentiable form is `reduce_window_sum`."""
    v, out = _windows(xp, x, x.dtype.type(0), **params)
    offsets = list(np.ndindex(*params["window_dimensions"]))
    res = v[(Ellipsis,) + offsets[0]].copy()
    for offs in offsets[1:]:
        xp.add(res, v[(Ellipsis,) + offs], out=res)
    return res


def _reduce_offsets(xp, kind, v, window, window_first=False):
    """Max/min over the trailing window axes of ``v`` (``window_first``: the leading
    ones), one elementwise pass per offset (NaN propagates, as in ``max``)."""
    offsets = list(np.ndindex(*window))
    lead = () if window_first else (Ellipsis,)
    shape = v.shape[len(window):] if window_first else v.shape[: v.ndim - len(window)]
    res = pooled_empty(xp, shape, v.dtype)
    res[...] = v[lead + offsets[0]]
    op = xp.maximum if kind == "max" else xp.minimum
    for offs in offsets[1:]:
        op(res, v[lead + offs], out=res)
    return res


# -- max / min ---------------------------------------------------------------------------------


def _make_extremum(kind: str) -> Primitive:
    def impl(xp, x, **params):
        window = native_pool.applies(x, params) if xp is np else None
        fwd = None if window is None else native_pool.pool_forward(x, window, kind)
        if fwd is not None:  # (disjoint 2-D windows: in C, the same extrema)
            return fwd[0]
        v, out = _windows(xp, x, _identity(kind, x.dtype), **params)
        return _reduce_offsets(xp, kind, v, params["window_dimensions"])

    def abstract(x, **params):
        return ShapedArray(_out_shape(x.shape, **params), x.dtype, x.weak_type)

    return Primitive(f"reduce_window_{kind}", impl, abstract, family="window")


reduce_window_max_p = _make_extremum("max")
reduce_window_min_p = _make_extremum("min")
_EXTREMA = {"max": reduce_window_max_p, "min": reduce_window_min_p}


def _gather_impl(xp, t, x, *, select, **params):
    am, out = argselect(xp, select, x, params)
    v, _ = _windows(xp, t, t.dtype.type(0), **params)
    flat = v.reshape(out + (-1,))
    return xp.take_along_axis(flat, am[..., None], axis=-1)[..., 0]


def _gather_abstract(t, x, *, select, **params):
    return ShapedArray(_out_shape(x.shape, **params), t.dtype, t.weak_type)


select_and_gather_add_p = Primitive("select_and_gather_add", _gather_impl, _gather_abstract, family="window")


def _scatter_impl(
    xp, ct, x, *, select, window_dimensions, window_strides, padding, base_dilation, window_dilation
):
    params = dict(
        window_dimensions=window_dimensions,
        window_strides=window_strides,
        padding=padding,
        base_dilation=base_dilation,
        window_dilation=window_dilation,
    )
    window = native_pool.applies(x, params) if xp is np else None
    if window is not None:  # (disjoint 2-D windows: one C pass each way)
        fwd = native_pool.pool_forward(x, window, select)
        g = None if fwd is None or fwd[2] else native_pool.pool_gradient(ct, fwd[1], x.shape, window)
        if g is not None:
            return g
    if _planes_apply(xp, x, params):
        g = _scatter_from_planes(ct, x, _window_planes(x, select, params), select, params)
        if g is not None:
            return g
        # a NaN in some window (it propagates into the maximum): the NaN-aware selection
    return _scatter_selected(xp, ct, x, select, params)


def _planes_apply(xp, x, params) -> bool:
    """Whether the host gradient of a max/min over ``x``'s windows runs on the windows' cells
    copied into contiguous planes (`_window_planes`): disjoint windows of more than one cell,
    real numbers on the host."""
    wd, ws, wdil = params["window_dimensions"], params["window_strides"], params["window_dilation"]
    spans = [(k - 1) * d + 1 for k, d in zip(wd, wdil)]
    return (xp is np and type(x) is np.ndarray and dtype_kind(x.dtype) in "fiu" and math.prod(wd) > 1
            and all(s >= sp for s, sp in zip(ws, spans)))


def _window_planes(x, kind, params):
    """The cells of ``x``'s windows as contiguous planes, window offset first (shape
    ``window + out``; padding holds ``kind``'s identity): one strided copy, after which every
    comparison runs on contiguous data (a strided one is ~5x slower)."""
    v, out = _windows(np, x, _identity(kind, x.dtype), **params)
    nd = x.ndim
    planes = pooled_empty(np, tuple(params["window_dimensions"]) + out, x.dtype)
    planes[...] = v.transpose(tuple(range(nd, 2 * nd)) + tuple(range(nd)))
    return planes


def _scatter_from_planes(ct, x, planes, select, params, best=None):
    """`_scatter_impl` on the host from the windows' planes (`_window_planes`) and their
    extrema ``best`` (None: taken here), or None where a window holds a NaN (the caller then
    takes the NaN-aware selection)."""
    wd = params["window_dimensions"]
    if best is None:
        best = _reduce_offsets(np, select, planes, wd, window_first=True)
    if dtype_kind(x.dtype) == "f" and np.isnan(np.maximum.reduce(best, axis=None)):
        return None
    return _scatter_first_hits(ct, x, planes, best, planes.shape[len(wd):], list(np.ndindex(*wd)), params)


def planes_key(shape, dtype, params, kind: str) -> tuple | None:
    """For a compiled program to share the windows' planes between a ``reduce_window_max``
    (``min``: ``kind``) and the ``select_and_scatter_add`` of the same operand (its gradient):
    a key of the operand's geometry, ``kind`` and window parameters when the host gradient
    works on planes (`_planes_apply`), None otherwise.  Equal keys on the same operand mean
    equal planes.  The primitives carry it as ``kept_key`` (with their kind bound), with
    ``keeping`` (the forward that also returns its planes) and ``from_kept`` (the gradient
    that reads them): code generation pairs them without importing this module.

    Example::

        >>> import numpy as np
        >>> p = dict(window_dimensions=(1, 2), window_strides=(1, 2), padding=((0, 0), (0, 0)),
        ...          base_dilation=(1, 1), window_dilation=(1, 1))
        >>> planes_key((4, 8), np.dtype(np.float32), p, "max") is not None
        True
    """
    if dtype_kind(np.dtype(dtype)) not in "fiu":
        return None
    params = {k: params[k] for k in _PARAMS}
    if not _planes_apply(np, np.empty((0,) * len(shape), dtype), params):
        return None
    return (kind, tuple(shape), str(np.dtype(dtype))) + tuple(
        tuple(map(tuple, params[k])) if k == "padding" else tuple(params[k]) for k in _PARAMS)


def extremum_keeping_planes(xp, x, *, kind, **params):
    """``reduce_window_{kind}`` of ``x`` and what the gradient reads, ``(result, kept)``:
    ``kept`` is ``(planes, extrema)``, the windows' planes the result was computed from and a
    copy of the result (the program may write into its result once that is dead), for
    disjoint 2-D windows taken in C (`core.native_pool`) each window's selected cell
    (`_PooledCells`), or None where the gradient does not use them (`_planes_apply`).  A
    compiled program hands them to the gradient (`scatter_from_planes`) instead of copying
    the windows and taking their extrema again (one copy of the result against a pass per
    window cell).  The result is the primitive's, bit for bit (the same maxima taken in the same order).

    Example::

        >>> import numpy as np
        >>> p = dict(window_dimensions=(2,), window_strides=(2,), padding=((0, 0),),
        ...          base_dilation=(1,), window_dilation=(1,))
        >>> res, (planes, maxima) = extremum_keeping_planes(np, np.arange(6.0), kind="max", **p)
        >>> res.tolist(), planes.shape, maxima.tolist()
        ([1.0, 3.0, 5.0], (2, 3), [1.0, 3.0, 5.0])
    """
    if not _planes_apply(xp, x, params):
        return _EXTREMA[kind].impl(xp, x, **params), None
    window = native_pool.applies(x, params)
    fwd = None if window is None else native_pool.pool_forward(x, window, kind)
    if fwd is not None:  # (disjoint 2-D windows: the extrema and each window's cell, in C)
        res, cells, nan = fwd
        return res, _PooledCells(cells, window, nan)
    planes = _window_planes(x, kind, params)
    res = _reduce_offsets(xp, kind, planes, params["window_dimensions"], window_first=True)
    extrema = pooled_empty(np, res.shape, res.dtype)
    extrema[...] = res
    return res, (planes, extrema)


class _PooledCells:
    """What `extremum_keeping_planes` keeps for the gradient of disjoint 2-D windows taken in
    C (`core.native_pool`): each window's selected cell, the window, and whether some
    extremum was NaN (the gradient then takes the NaN-aware selection)."""

    __slots__ = ("cells", "window", "nan")

    def __init__(self, cells, window, nan) -> None:
        self.cells, self.window, self.nan = cells, window, nan


def scatter_from_planes(xp, kept, ct, x, *, select, **params):
    """``select_and_scatter_add(ct, x)`` given what the forward extremum of ``x`` kept
    (`extremum_keeping_planes`: the windows' planes and their extrema; None: made here): the
    same gradient.

    Example::

        >>> import numpy as np
        >>> p = dict(window_dimensions=(2,), window_strides=(2,), padding=((0, 0),),
        ...          base_dilation=(1,), window_dilation=(1,))
        >>> x = np.array([0.0, 1.0, 3.0, 2.0])
        >>> _, kept = extremum_keeping_planes(np, x, kind="max", **p)
        >>> scatter_from_planes(np, kept, np.array([10.0, 20.0]), x, select="max", **p).tolist()
        [0.0, 10.0, 20.0, 0.0]
    """
    if type(kept) is _PooledCells:
        g = None if kept.nan else native_pool.pool_gradient(ct, kept.cells, x.shape, kept.window)
        if g is not None:
            return g
    elif kept is not None and kept[0].dtype == x.dtype:
        g = _scatter_from_planes(ct, x, kept[0], select, params, best=kept[1])
        if g is not None:
            return g
    return _scatter_impl(xp, ct, x, select=select, **params)


def _scatter_selected(xp, ct, x, select, params):
    """`_scatter_impl` through the windows' argselect (any backend, NaNs, overlapping
    windows)."""
    nd = x.ndim
    offsets = list(np.ndindex(*params["window_dimensions"]))
    spans = [(k - 1) * wd + 1 for k, wd in zip(params["window_dimensions"], params["window_dilation"])]
    disjoint = all(s >= sp for s, sp in zip(params["window_strides"], spans))
    base_dilation, padding = params["base_dilation"], params["padding"]
    window_dilation, window_strides = params["window_dilation"], params["window_strides"]
    am, out = argselect(xp, select, x, params)
    full = tuple(_dil(x.shape[i], base_dilation[i]) + padding[i][0] + padding[i][1] for i in range(nd))
    if disjoint:
        # disjoint windows: write every window's cells at once through a strided view of g
        # (no zero fill when the windows tile g exactly)
        g, gv = _disjoint_grad(xp, ct, full, out, params)
        hit = xp.empty(out, dtype=bool)
        sel = _Selector(xp, ct)
        for k, offs in enumerate(offsets):  # one output-shaped strided write per offset
            xp.equal(am, am.dtype.type(k), out=hit)
            sel.put(gv[(Ellipsis,) + offs], hit)
        sel.finish(g)
    else:
        g = xp.zeros(full, dtype=ct.dtype)
        zero = xp.zeros((), dtype=ct.dtype)
        for k, offs in enumerate(offsets):
            sl = tuple(
                slice(o * wd, o * wd + (n - 1) * s + 1, s) if n else slice(0, 0)
                for o, wd, n, s in zip(offs, window_dilation, out, window_strides)
            )
            g[sl] += xp.where(am == k, ct, zero)
    return _undo_padding(xp, g, padding, base_dilation)


def _undo_padding(xp, g, padding, base_dilation):
    """The gradient of the (base-dilated, padded) operand ``g`` brought back to the
    operand's shape: the padding removed (negative pads: zeros for the cropped cells), then
    the base dilation's holes."""
    g = g[tuple(slice(max(lo, 0), g.shape[i] - max(hi, 0)) for i, (lo, hi) in enumerate(padding))]
    if any(lo < 0 or hi < 0 for lo, hi in padding):
        g = xp.pad(g, tuple((max(-lo, 0), max(-hi, 0)) for lo, hi in padding))
    if any(d != 1 for d in base_dilation):
        g = g[tuple(slice(None, None, d) for d in base_dilation)]
    return xp.ascontiguousarray(g)


def _disjoint_grad(xp, ct, full, out, params):
    """A recycled gradient of the padded operand (shape ``full``) for disjoint windows, and
    its strided view ``out + window``; zero-filled unless the windows tile it exactly."""
    wd, ws, wdil = params["window_dimensions"], params["window_strides"], params["window_dilation"]
    tiles = all(s == k and (k - 1) * d + 1 == k and n * s == f
                for s, k, d, n, f in zip(ws, wd, wdil, out, full))
    g = pooled_empty(xp, full, ct.dtype)
    if not tiles:
        g[...] = 0
    return g, window_view(xp, g, wd, ws, wdil, out, 0)


def _scatter_first_hits(ct, x, planes, best, out, offsets, params):
    """`_scatter_impl` for disjoint windows on the host, with no NaN in any window
    (``planes``: the windows' cells, window offset first): each
    window's cotangent goes to the first cell (in `np.ndindex` order) equal to its extremum
    ``best`` -- `argselect`'s cell, as its strict comparisons keep the first of equal
    values (ReLU's zeros tie often) -- without building the index array: per offset one
    comparison, one "not taken yet" mask and one strided write, and the last offset takes
    what is left."""
    pad = params["padding"]
    full = tuple(_dil(x.shape[i], params["base_dilation"][i]) + pad[i][0] + pad[i][1] for i in range(x.ndim))
    g, gv = _disjoint_grad(np, ct, full, out, params)
    taken = np.empty(out, dtype=bool)
    hit = np.empty(out, dtype=bool)
    sel = _Selector(np, ct)
    last = len(offsets) - 1
    for k, offs in enumerate(offsets):
        cell = (Ellipsis,) + offs
        if k == 0:
            np.equal(planes[offs], best, out=taken)
            sel.put(gv[cell], taken)
        elif k < last:
            np.equal(planes[offs], best, out=hit)
            np.greater(hit, taken, out=hit)  # equal and no earlier cell taken (hit & ~taken)
            sel.put(gv[cell], hit)
            np.logical_or(taken, hit, out=taken)
        else:  # some cell equals the extremum: the last one where no earlier did
            sel.put(gv[cell], taken, negate=True)
    sel.finish(g)
    return _undo_padding(np, g, pad, params["base_dilation"])


class _Selector:
    """Writes ``where(hit, ct, 0)`` into output-shaped (strided) views of the gradient: a
    window's cotangent goes to its selected cell and ``+0`` to the others, as JAX's and
    PyTorch's scatter-add into zeros (a bare product ``hit * ct`` would put ``0 * inf = NaN``
    and ``-0.0`` into cells the window did not select).  A finite float cotangent on the
    host takes the product (NumPy's ``where`` and masked copy take a mispredicted branch
    per element, ten times slower) and `finish` clears the negative zeros; anything else
    takes ``where``."""

    def __init__(self, xp, ct):
        self.xp, self.ct = xp, ct
        # a finite cotangent on the host: the product, then `finish` turns its -0.0 into +0.0
        self.product = (xp is np and type(ct) is np.ndarray and dtype_kind(ct.dtype) == "f"
                        and bool(np.isfinite(ct).all()))
        if not self.product:
            self.zero_ct = xp.zeros((), dtype=ct.dtype)
            self.miss = xp.empty(ct.shape, dtype=bool)

    def put(self, dst, hit, negate=False):
        """``dst[...] = where(hit, ct, 0)`` (``negate``: where ``hit`` is False)."""
        if self.product:
            if negate:
                np.logical_not(hit, out=hit)
            np.multiply(hit, self.ct, out=dst)
        else:
            if negate:
                self.xp.logical_not(hit, out=self.miss)
                hit = self.miss
            dst[...] = self.xp.where(hit, self.ct, self.zero_ct)

    def finish(self, g):
        """``g`` (every cell written by `put` or zero) with ``+0.0`` for ``-0.0``: the sums
        of a scatter-add into zeros (``0 + -0.0`` is ``+0.0``)."""
        if self.product:
            np.add(g, self.ct.dtype.type(0), out=g)




def _scatter_abstract(ct, x, **params):
    return ShapedArray(x.shape, ct.dtype, ct.weak_type)


select_and_scatter_add_p = Primitive(
    "select_and_scatter_add", _scatter_impl, _scatter_abstract, family="window"
)
for _kind, _prim in _EXTREMA.items():  # the planes a compiled forward hands its gradient
    _prim.kept_key = functools.partial(planes_key, kind=_kind)
    _prim.keeping = functools.partial(extremum_keeping_planes, kind=_kind)
select_and_scatter_add_p.kept_key = lambda shape, dtype, params: planes_key(shape, dtype, params,
                                                                             params["select"])
select_and_scatter_add_p.from_kept = scatter_from_planes


def _extremum_jvp(kind):
    def rule(t, x, **params):
        return select_and_gather_add_p.bind(t, x, select=kind, **params)

    return rule


defjvp(reduce_window_max_p, _extremum_jvp("max"))
defjvp(reduce_window_min_p, _extremum_jvp("min"))


def _gather_t(tt, t, x, **params):
    return select_and_gather_add_p.bind(tt, x, **params)


def _scatter_t(tt, ct, x, **params):
    return select_and_scatter_add_p.bind(tt, x, **params)


defjvp(select_and_gather_add_p, _gather_t, None)
defjvp(select_and_scatter_add_p, _scatter_t, None)
deflinear_in(
    select_and_gather_add_p, lambda ct, t, x, **params: (select_and_scatter_add_p.bind(ct, x, **params), None)
)
deflinear_in(
    select_and_scatter_add_p, lambda ct, c, x, **params: (select_and_gather_add_p.bind(ct, x, **params), None)
)


def _with_unit_window(params, axis: int) -> dict:
    """``params`` with a size-1, stride-1, unpadded window inserted at ``axis``."""
    new = dict(params)
    for name, unit in zip(_PARAMS, (1, 1, (0, 0), 1, 1)):
        v = list(params[name])
        v.insert(axis, unit)
        new[name] = tuple(v)
    return new


def _window_batch(prim):
    def rule(axis_size, vals, dims, **params):
        if len(vals) == 1:
            return prim.bind(vals[0], **_with_unit_window(params, dims[0])), dims[0]
        vals = [move_or_broadcast(v, d, 0, axis_size) for v, d in zip(vals, dims)]
        return prim.bind(*vals, **_with_unit_window(params, 0)), 0

    return rule


for _p in (reduce_window_max_p, reduce_window_min_p, select_and_gather_add_p, select_and_scatter_add_p):
    defbatch(_p, _window_batch(_p))


# -- sum: a convolution with ones ---------------------------------------------------------------


def reduce_window_sum(x, window_dimensions, window_strides, padding, base_dilation, window_dilation):
    """Sum over each window (normalized parameters: one entry per axis, ``padding`` pairs);
    a convolution of the windowed axes with a kernel of ones, the other axes as its batch.

    Example::

        >>> import fgrad.numpy as fnp
        >>> reduce_window_sum(fnp.arange(4.0), (2,), (1,), ((0, 0),), (1,), (1,))
        Array([1., 3., 5.], dtype=float64)
    """
    aval = get_aval(x)
    shape = aval.shape
    trivial = [
        i
        for i in range(len(shape))
        if (window_dimensions[i], window_strides[i], tuple(padding[i]), base_dilation[i], window_dilation[i])
        == (1, 1, (0, 0), 1, 1)
    ]
    spatial = [i for i in range(len(shape)) if i not in trivial]
    if not spatial:
        return x
    perm = tuple(trivial + spatial)
    xt = transpose(x, perm) if perm != tuple(range(len(shape))) else x
    lead = tuple(shape[i] for i in trivial)
    xt = reshape(xt, (math.prod(lead), 1) + tuple(shape[i] for i in spatial))
    kernel = ones_like(x, shape=(1, 1) + tuple(window_dimensions[i] for i in spatial))
    n = len(spatial) + 2
    iota = tuple(range(n))
    y = conv_general_dilated_p.bind(
        xt,
        kernel,
        window_strides=tuple(window_strides[i] for i in spatial),
        padding=tuple(tuple(padding[i]) for i in spatial),
        lhs_dilation=tuple(base_dilation[i] for i in spatial),
        rhs_dilation=tuple(window_dilation[i] for i in spatial),
        dimension_numbers=ConvDimensionNumbers(iota, iota, iota),
        feature_group_count=1,
        batch_group_count=1,
    )
    ysp = get_aval(y).shape[2:]
    y = reshape(y, lead + ysp)
    inv = [0] * len(perm)
    for k, p in enumerate(perm):
        inv[p] = k
    return transpose(y, tuple(inv)) if perm != tuple(range(len(shape))) else y


# -- the lax face -------------------------------------------------------------------------------


def _normalize(shape, window_dimensions, window_strides, padding, base_dilation, window_dilation) -> dict:
    nd = len(shape)

    def ints(v, name, default=1):
        if v is None:
            return (default,) * nd
        t = tuple(int(a) for a in v)
        if len(t) != nd:
            raise TypeError(
                f"reduce_window: {name} must have one entry per operand dimension ({nd}), got {tuple(v)}"
            )
        if any(a < 1 for a in t):
            raise ValueError(f"reduce_window: {name} must be positive, got {t}")
        return t

    wd = ints(window_dimensions, "window_dimensions")
    ws = ints(window_strides, "window_strides")
    bd = ints(base_dilation, "base_dilation")
    wdl = ints(window_dilation, "window_dilation")
    if isinstance(padding, str):
        pads = padtype_to_pads(
            list(shape), [_dil(k, d) for k, d in zip(wd, wdl)], ws, padding  # JAX: the undilated operand
        )
    else:
        pads = tuple((int(lo), int(hi)) for lo, hi in padding)
        if len(pads) != nd:
            raise TypeError(
                f"reduce_window: padding needs one (low, high) pair per operand dimension ({nd}), got "
                f"{padding}"
            )
    return dict(window_dimensions=wd, window_strides=ws, padding=pads, base_dilation=bd, window_dilation=wdl)


_MONOIDS = {"max": "max", "min": "min", "sum": "sum", "add": "sum"}


def _monoid(computation) -> str | None:
    """"sum"/"max"/"min" for the monoids with their own primitives, else None (a string that
    names none of them is an error)."""
    if isinstance(computation, str):
        kind = _MONOIDS.get(computation)
    else:
        name = getattr(computation, "__name__", "")
        kind = {"add": "sum", "max": "max", "maximum": "max", "min": "min", "minimum": "min"}.get(name)
        if computation is operator.add:
            kind = "sum"
    if kind is None and isinstance(computation, str):
        raise ValueError(f"reduce_window: a computation given by name must be 'sum', 'add', 'max' or "
                         f"'min', got {computation!r}")
    return kind


def _reduce_window_generic(operand, init_value, computation, params: dict):
    """Any associative ``computation``: the operand padded with ``init_value`` (base
    dilation as interior padding), one strided slice per window offset stacked on a new
    leading axis, and `lax.reduce` (which folds ``init_value`` in once, as XLA does per
    window) over that axis.  Differentiable through ``computation``."""
    from .._lax_more import reduce as lax_reduce  # fgrad._lax_more builds on fgrad.ops
    from .structural import concatenate, pad, static_slice

    x = operand if hasattr(operand, "dtype") else np.asarray(operand)
    init = np.asarray(init_value, dtype=get_aval(x).dtype) if not hasattr(init_value, "dtype") else init_value
    shape = get_aval(x).shape
    out_shape = _out_shape(shape, **params)
    config = [(lo, hi, bd - 1) for (lo, hi), bd in zip(params["padding"], params["base_dilation"])]
    padded = pad(x, init, config)
    pieces = []
    for offsets in itertools.product(*(range(k) for k in params["window_dimensions"])):
        starts = [o * d for o, d in zip(offsets, params["window_dilation"])]
        limits = [st + (n - 1) * s + 1 if n else st
                  for st, n, s in zip(starts, out_shape, params["window_strides"])]
        piece = static_slice(padded, starts, limits, params["window_strides"])
        pieces.append(reshape(piece, (1, *out_shape)))
    return lax_reduce(concatenate(pieces, 0), init, computation, (0,))


def reduce_window(
    operand: ArrayLike,
    init_value: ArrayLike,
    computation: Callable | str,
    window_dimensions: Sequence[int],
    window_strides: Sequence[int] | None = None,
    padding: str | Sequence[tuple[int, int]] = "VALID",
    base_dilation: Sequence[int] | None = None,
    window_dilation: Sequence[int] | None = None,
) -> Array:
    """Reduce each window of ``operand`` (``jax.lax.reduce_window``) with ``computation``:
    ``lax.add``/``lax.max``/``lax.min`` (or the NumPy functions, or ``'sum'``/``'max'``/
    ``'min'``) run as their window primitives; any other associative function of two arrays
    (``lax.mul``, a user function) as a `lax.reduce` over the stacked windows; ``padding``
    is ``'SAME'``, ``'VALID'`` or ``(low, high)`` pairs, one entry per operand axis like the
    other window parameters.
    Padding cells hold ``init_value``, which is folded into every window as lax does.

    Example::

        >>> import fgrad.numpy as fnp
        >>> reduce_window(fnp.ones((4, 4)), 0.0, "sum", (2, 2), (2, 2), "VALID")
        Array([[4., 4.],
               [4., 4.]], dtype=float64)
    """
    kind = _monoid(computation)
    aval = get_aval(operand)
    params = _normalize(
        aval.shape, window_dimensions, window_strides, padding, base_dilation, window_dilation
    )
    if kind is None:
        return _reduce_window_generic(operand, init_value, computation, params)
    if kind == "sum":
        out = reduce_window_sum(operand, **params)
        if not _is_identity(init_value, 0):
            if any(lo or hi for lo, hi in params["padding"]) or any(d != 1 for d in params["base_dilation"]):
                raise NotImplementedError(
                    "reduce_window: a non-zero init_value with padding or base dilation is "
                    "not supported for sums"
                )
            out = add(out, init_value)
        return out
    prim = reduce_window_max_p if kind == "max" else reduce_window_min_p
    out = prim.bind(operand, **params)
    if not _is_identity(init_value, _identity(kind, aval.dtype)):
        out = (_max if kind == "max" else _min)(out, init_value)
    return out


def _is_identity(value, identity) -> bool:
    """True for a host scalar equal to the monoid's identity (anything else is folded in)."""
    if not isinstance(value, (int, float, bool, np.generic, np.ndarray)):
        return False
    v = np.asarray(value)
    return v.shape == () and bool(v == identity)


def reduce_window_max(
    operand, window_dimensions, window_strides=None, padding="VALID", base_dilation=None, window_dilation=None
):
    """Max over each window (``-inf``-padded).

    Example::

        >>> import fgrad.numpy as fnp
        >>> reduce_window_max(fnp.array([1.0, 3.0, 2.0]), (2,), (1,))
        Array([3., 3.], dtype=float64)
    """
    params = _normalize(
        get_aval(operand).shape, window_dimensions, window_strides, padding, base_dilation, window_dilation
    )
    return reduce_window_max_p.bind(operand, **params)


def reduce_window_min(
    operand, window_dimensions, window_strides=None, padding="VALID", base_dilation=None, window_dilation=None
):
    """Min over each window (``+inf``-padded).

    Example::

        >>> import fgrad.numpy as fnp
        >>> reduce_window_min(fnp.array([1.0, 3.0, 2.0]), (2,), (1,))
        Array([1., 2.], dtype=float64)
    """
    params = _normalize(
        get_aval(operand).shape, window_dimensions, window_strides, padding, base_dilation, window_dilation
    )
    return reduce_window_min_p.bind(operand, **params)


__all__ = [
    "argselect",
    "window_sum",
    "reduce_window",
    "reduce_window_max",
    "reduce_window_min",
    "reduce_window_sum",
    "reduce_window_max_p",
    "reduce_window_min_p",
    "select_and_gather_add_p",
    "select_and_scatter_add_p",
]
