"""Indexing primitives: ``gather`` (NumPy ``x[idx]``) and ``scatter`` (``x.at[idx].op(v)``).

Both take the *static* structure of a NumPy index as a hashable param and the index *arrays*
as operands.  The ``indexer`` param is a tuple with one entry per position of the
(Ellipsis-expanded) index:

* ``("s", start, stop, step)``  a slice with static bounds (``None`` allowed);
* ``("i", k)``                  a static integer;
* ``("n",)``                    ``None`` / ``newaxis``;
* ``("a", j)``                  the ``j``-th index-array operand (any integer dtype/shape);
* ``("e",)``                    an Ellipsis covering no axis (it still separates advanced
  indices, which moves their dimensions to the front, as in NumPy).

Boolean masks never reach the primitives: `parse_index` turns a concrete mask into integer
arrays with ``nonzero``.  The implementation *is* NumPy indexing, so the result layout
(including NumPy's rule that separated advanced indices put their dimensions first) matches
NumPy exactly.

Out-of-bounds handling follows JAX: negative indices wrap once (``-n <= i < 0``); beyond
that, ``oob="clip"`` clamps (the default for gathers), ``oob="fill"`` returns
``fill_value`` (gathers) and ``oob="drop"`` skips the update (the default for scatters).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from ..core.narrow_floats import dtype_kind

from ..backends import NUMPY, backend_of_buffer, xp_of
from ..core.array import ArrayImpl, ShapedArray, Tracer, get_aval, wrap
from ..core.constants import cached_constant_like, constant_like, full_like, ones_like, zeros_like
from ..core.placement import backend_of
from ..core.primitive import Primitive
from ..core.rules import defbatch, deflinear, is_undefined
from ..core.trace import ConcretizationError, ConcretizationTypeError, NonConcreteBooleanIndexError
from . import elementwise as ew
from ._util import shape
from .host_scatter import host_ufunc_at, linear_positions
from .shape import move_or_broadcast, moveaxis, reshape, transpose

FULL = ("s", None, None, None)

# ---------------------------------------------------------------------------------------
# index parsing (user index -> static indexer + index arrays)

_INDEX_HELP = (
    "only integers, slices (`:`), ellipsis (`...`), None (`newaxis`) and integer or "
    "boolean arrays are valid indices"
)


def _concrete(x, what: str, hint: str, error: type = ConcretizationTypeError):
    """Concrete numpy value of ``x`` (a tracer is asked for its value; if it has none,
    raise ``error`` naming the operation and a traceable alternative)."""
    if isinstance(x, Tracer):
        try:
            x = x._concrete(what)
        except ConcretizationError as e:
            raise error(
                f"{what} needs a concrete value, but got an abstract tracer "
                f"{x.aval.str_short()}: the result's shape would depend on traced data. {hint}"
                f"\n(underlying error: {e})"
            ) from None
    return np.asarray(x)


_MASK_HINT = (
    "Boolean-mask indexing selects a data-dependent number of elements. Use "
    "`fgrad.numpy.where(mask, x, 0)` (or `x.at[...].set` with `fnp.where`) to keep the "
    "shape static, or pass `size=` to `fnp.nonzero`."
)


class TracedSliceError(IndexError, ConcretizationTypeError):
    """A slice bound that is traced (``x[i:i + 2]`` under jit): an IndexError, as JAX's ("Slice
    entries must be static integers"), and a ConcretizationTypeError, as fgrad raised before.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> try:
        ...     fgrad.jit(lambda i, v: v[i:i + 2])(1, fnp.arange(5))
        ... except IndexError as e:
        ...     print(type(e).__name__)
        TracedSliceError
    """


def _slice_bound(v, what):
    if v is None:
        return None
    if isinstance(v, (bool, np.bool_)):
        raise IndexError(f"slice {what} must be an integer or None, got a boolean")
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, Tracer):
        try:
            v = v._concrete("a slice bound")
        except ConcretizationError:
            raise TracedSliceError(
                f"Array slice indices must have static (concrete) bounds; got a traced {what} "
                f"({v.aval.str_short()}). Slice sizes are part of the result's shape. To select "
                "a window at a traced offset use lax.dynamic_slice or an index array, e.g. "
                "`x[start + fnp.arange(size)]`."
            ) from None
    try:
        return int(v.__index__())
    except (AttributeError, TypeError):
        raise IndexError(f"slice {what} must be an integer or None, got {type(v).__name__}") from None


def _to_index_array(v):
    """An fgrad array (or tracer) for an array-like index entry."""
    if isinstance(v, (ArrayImpl, Tracer)):
        return v
    if isinstance(v, (list, tuple)) and _contains_tracer(v):
        raise TypeError(
            "indexing: an index list holding traced values must be stacked into one array first "
            "(fgrad.numpy's indexing does that: `x[fnp.stack([i, j])]`)")
    a = np.asarray(v)
    if a.dtype == object:
        raise IndexError(_INDEX_HELP)
    if a.size == 0 and dtype_kind(a.dtype) == "f":  # `x[[]]` indexes with an empty integer array
        a = a.astype(np.intp)
    return wrap(a)


def _contains_tracer(v) -> bool:
    if isinstance(v, Tracer):
        return True
    if isinstance(v, (list, tuple)):
        return any(_contains_tracer(e) for e in v)
    return False


def _parse_basic(nd: int, idx: tuple):
    """`parse_index`'s indexer for the common basic index (Python ints, slices of Python
    ints or None, and None entries; no Ellipsis): the same entries, without the general
    path's bookkeeping; None for any other index (or one that indexes too many axes: the
    general path raises)."""
    indexer = []
    consumed = 0
    for item in idx:
        t = type(item)
        if t is slice:
            a, b, c = item.start, item.stop, item.step
            if not ((a is None or type(a) is int) and (b is None or type(b) is int)
                    and (c is None or (type(c) is int and c != 0))):
                return None
            indexer.append(("s", a, b, c))
            consumed += 1
        elif t is int:
            indexer.append(("i", item))
            consumed += 1
        elif item is None:
            indexer.append(("n",))
        else:
            return None
    if consumed > nd:
        return None
    while indexer and indexer[-1] == FULL:  # trailing full slices are implicit
        indexer.pop()
    return tuple(indexer)


def parse_index(xshape, idx, op: str = "indexing"):
    """Turn a NumPy index into ``(indexer, arrays)`` for an operand of shape ``xshape``."""
    if not isinstance(idx, tuple):
        idx = (idx,)
    basic = _parse_basic(len(xshape), idx)
    if basic is not None:
        return basic, []
    entries = []  # (kind, payload) before Ellipsis expansion
    arrays: list = []
    n_ell = 0
    for item in idx:
        if item is None:
            entries.append(("n",))
        elif item is Ellipsis:
            n_ell += 1
            if n_ell > 1:
                raise IndexError("an index can only have a single ellipsis ('...')")
            entries.append(("e",))
        elif isinstance(item, slice):
            entries.append(("s", _slice_bound(item.start, "start"), _slice_bound(item.stop, "stop"),
                            _slice_bound(item.step, "step")))
            if entries[-1][3] == 0:
                raise ValueError("slice step cannot be zero")
        elif isinstance(item, (bool, np.bool_)):
            entries.append(("mask", np.asarray(bool(item))))
        elif isinstance(item, (int, np.integer)):
            entries.append(("i", int(item)))
        else:
            a = _to_index_array(item)
            av = get_aval(a)
            kind = dtype_kind(av.dtype)
            if kind == "b":
                m = _concrete(a, f"{op} with a boolean mask", _MASK_HINT, NonConcreteBooleanIndexError)
                entries.append(("mask", m))
            elif kind in "iu":
                if av.ndim == 0 and not isinstance(a, Tracer):
                    entries.append(("i", int(np.asarray(a))))
                else:
                    entries.append(("arr", a))
            else:
                raise IndexError(f"{_INDEX_HELP}; got an array of dtype {av.dtype} in {op}")
    consumed = sum(1 if e[0] in ("s", "i", "arr") else (e[1].ndim if e[0] == "mask" else 0)
                   for e in entries)
    nd = len(xshape)
    if consumed > nd:
        raise IndexError(
            f"too many indices for array: array is {nd}-dimensional, but {consumed} were indexed"
        )
    indexer = []
    ax = 0
    for e in entries:
        k = e[0]
        if k == "e":
            # an Ellipsis that covers no axis still separates advanced indices in NumPy,
            # so it stays in the indexer as a zero-width marker
            indexer.extend([FULL] * (nd - consumed) if nd > consumed else [("e",)])
            ax += nd - consumed
        elif k == "n":
            indexer.append(e)
        elif k in ("s", "i"):
            indexer.append(e)
            ax += 1
        elif k == "arr":
            indexer.append(("a", len(arrays)))
            arrays.append(e[1])
            ax += 1
        else:  # boolean mask over m axes -> m integer arrays
            m = e[1]
            if m.ndim == 0:  # x[True] adds a length-1 axis; x[False] would add an empty one
                if not bool(m):
                    raise NotImplementedError(f"{op}: a scalar False index is not supported")
                indexer.append(("n",))
                continue
            for i, s in enumerate(m.shape):
                if xshape[ax + i] != s:
                    raise IndexError(
                        f"boolean index did not match indexed array along axis {ax + i}; size of "
                        f"axis is {xshape[ax + i]} but size of corresponding boolean axis is {s}"
                    )
            for nz in np.nonzero(m):
                indexer.append(("a", len(arrays)))
                arrays.append(wrap(nz.astype(np.intp)))
            ax += m.ndim
    # a zero-width Ellipsis marker matters only between advanced indices
    adv = [i for i, e in enumerate(indexer) if e[0] in ("a", "i")]
    indexer = [e for i, e in enumerate(indexer)
               if e != ("e",) or (adv and adv[0] < i < adv[-1])]
    if ("e",) not in indexer:  # trailing full slices are implicit (an Ellipsis would not be)
        while indexer and indexer[-1] == FULL:
            indexer.pop()
    return tuple(indexer), arrays


# ---------------------------------------------------------------------------------------
# shapes and layout


@lru_cache(maxsize=4096)
def indexed_shape(xshape: tuple, indexer: tuple, array_shapes: tuple) -> tuple:
    """Shape of ``x[idx]`` (computed by NumPy on a zero-strided dummy, so it is exact)."""
    dims = list(xshape)
    ax = 0
    idx = []
    for e in indexer:
        t = e[0]
        if t == "n" or t == "e":
            idx.append(None if t == "n" else Ellipsis)
            continue
        if ax >= len(dims):
            raise IndexError(f"too many indices for array of shape {xshape}")
        if t == "s":
            idx.append(slice(e[1], e[2], e[3]))
        elif t == "i":
            dims[ax] = max(dims[ax], 1)
            idx.append(0)
        else:
            dims[ax] = max(dims[ax], 1)
            idx.append(np.broadcast_to(np.zeros((), np.intp), array_shapes[e[1]]))
        ax += 1
    dummy = np.broadcast_to(np.empty((), np.int8), tuple(dims))
    try:
        return np.shape(dummy[tuple(idx)])
    except IndexError as err:
        raise IndexError(f"indexing an array of shape {xshape}: {err}") from None


def _adv_layout(indexer, array_shapes):
    """``(R, q, adjacent)`` for an index with arrays: the rank of the broadcast
    advanced-index block, its position in the output (0 when the advanced indices -- arrays
    and, alongside them, integers -- are separated by a slice or None, as in NumPy), and
    whether they are adjacent.  ``None`` when there are no index arrays."""
    if not array_shapes:
        return None
    pos = [i for i, e in enumerate(indexer) if e[0] in "ia"]
    adjacent = pos == list(range(pos[0], pos[0] + len(pos)))
    r = len(np.broadcast_shapes(*array_shapes))
    # entries before the first advanced one are slices / None (one output dim each) or a
    # zero-width Ellipsis marker
    q = sum(1 for e in indexer[:pos[0]] if e[0] in "sn") if adjacent else 0
    return r, q, adjacent


# ---------------------------------------------------------------------------------------
# implementations


_UINTP = np.dtype(np.uintp)
_INTP = np.dtype(np.intp)


def device_xp(xp, *bufs):
    """The array module for a call whose buffers may mix backends (host constants such as
    index arrays or zeros next to device data): the device one wins."""
    for b in bufs:
        t = type(b)
        if t is np.ndarray:
            continue
        if t.__module__.startswith("cupy"):
            return xp_of(b)
    return xp


def _np_index(xp, xshape, indexer, arrays, oob):
    """The buffer-level NumPy index, plus the axes that need one extra (padding) slot to
    receive out-of-bounds indices under ``oob`` in ('fill', 'drop').  On a device backend
    every index-array axis counts as padded: finding out whether an index is out of bounds
    would read the indices on the host (a synchronisation per gather)."""
    idx = []
    pad = set()
    ax = 0
    for e in indexer:
        t = e[0]
        if t == "n" or t == "e":
            idx.append(None if t == "n" else Ellipsis)
            continue
        n = xshape[ax]
        if t == "s":
            idx.append(slice(e[1], e[2], e[3]))
        elif t == "i":
            k = e[1] + n if e[1] < 0 else e[1]
            if oob == "clip":
                k = min(max(k, 0), n - 1)
            elif not 0 <= k < n:
                k = n
                pad.add(ax)
            idx.append(k)
        else:
            a = xp.asarray(arrays[e[1]]).astype(xp.intp, copy=False)
            # in bounds, nothing to change: one reduction (a negative index is huge unsigned)
            if xp is np and a.size and a.view(_UINTP).max() < n:
                idx.append(a)
                ax += 1
                continue
            a = xp.where(a < 0, a + n, a)
            if oob == "clip":
                a = xp.clip(a, 0, n - 1)
            else:
                bad = (a < 0) | (a >= n)
                if xp is not np or bool(bad.any()):
                    a = xp.where(bad, n, a)
                    pad.add(ax)
            idx.append(a)
        ax += 1
    return tuple(idx), pad


def _pad_axes(xp, x, pad, value):
    widths = [(0, 1 if i in pad else 0) for i in range(x.ndim)]
    return xp.pad(x, widths, mode="constant", constant_values=value)


def _gather_impl(xp, x, *arrays, indexer, oob, fill_value):
    xp = device_xp(xp, x, *arrays)
    x = xp.asarray(x)
    idx, pad = _np_index(xp, x.shape, indexer, arrays, oob)
    fill = 0 if fill_value is None else fill_value
    if pad and xp is not np and all(x.shape[ax] for ax in pad):
        with _device_of(x):
            return _gather_masked(xp, x, idx, pad, fill)
    if pad:
        x = _pad_axes(xp, x, pad, fill)
    elif xp is np and len(idx) == 1 and x.ndim > 1 and isinstance(idx[0], np.ndarray):
        return _take_rows(x, idx[0])
    elif (xp is np and len(idx) == x.ndim > 1 and x.flags.c_contiguous
          and all(type(e) is np.ndarray for e in idx)):
        # an index array per axis (gather along a dim): one take at the linear positions,
        # 2-3x faster than NumPy's fancy indexing with several arrays (the same values)
        out = np.take(x.reshape(-1), linear_positions(idx, x.shape, checked=True))
        return out if isinstance(out, np.ndarray) else np.asarray(out)
    out = x[idx]
    return out if isinstance(out, xp.ndarray) else xp.asarray(out)


def _take_rows(x, a):
    """``x[a]`` for host ``x`` with rows (``ndim > 1``) and indices in ``[0, len(x))``:
    ``np.take`` copies whole rows, 2-4x faster than fancy indexing for rows of up to a few
    hundred elements (the same values)."""
    return np.take(x, a, axis=0, mode="clip")  # in bounds already: clipping changes nothing


def _device_of(buf):
    """A ``with`` block creating new ``xp`` arrays on ``buf``'s device."""
    be = backend_of_buffer(buf)
    return be.device_scope(be.device_of(buf))


def _gather_masked(xp, x, idx, pad, fill):
    """``x[idx]`` where index ``n`` on an axis in ``pad`` (of length ``n``) means out of
    bounds: ``fill`` there.  The gather reads clamped indices and a mask of the same index
    into zero-stride flags replaces the out-of-bounds values -- no copy of ``x`` padded,
    nothing read on the host."""
    safe, ax = [], 0
    for e in idx:
        if e is None or e is Ellipsis:
            safe.append(e)
            continue
        n = x.shape[ax]
        if ax in pad:
            e = min(e, n - 1) if isinstance(e, int) else xp.minimum(e, n - 1)
        safe.append(e)
        ax += 1
    out = x[tuple(safe)]
    padded = tuple(n + (ax in pad) for ax, n in enumerate(x.shape))
    ok = None
    for ax in sorted(pad):
        flags = xp.ones(padded[ax], dtype=bool)
        flags[-1] = False
        view = xp.broadcast_to(flags.reshape([-1 if i == ax else 1 for i in range(x.ndim)]), padded)
        m = view[idx]
        ok = m if ok is None else ok & m
    return xp.where(ok, out, out.dtype.type(fill))


_UFUNC = {"add": "add", "mul": "multiply", "min": "minimum", "max": "maximum"}


def _ufunc_at(xp, mode, out, idx, u):
    if xp is np:
        host_ufunc_at(getattr(np, _UFUNC[mode]), out, idx, u)
        return
    if mode != "add":
        # cupy's ``minimum.at``/``maximum.at`` are CUDA atomics built on fminf/fmaxf (float64
        # rounded to float32, NaNs ignored) and it has no ``multiply.at``: devices use
        # duplicate-free fancy assignments instead
        with _device_of(out):
            if mode == "mul":
                _scatter_in_rounds(xp, out, idx, u, xp.multiply)
            else:
                _scatter_extreme(xp, out, idx, u, xp.minimum if mode == "min" else xp.maximum)
        return
    try:
        getattr(xp, _UFUNC[mode]).at(out, idx, u)
    except (NotImplementedError, TypeError):
        with _device_of(out):  # a dtype without a CUDA atomic add (bool, 8/16-bit integers)
            _scatter_in_rounds(xp, out, idx, u, xp.add)


def _targets_in_order(xp, out, idx, u):
    """The updates of ``out[idx] <- u`` as flat target positions and values, sorted by target
    and, within a target, in NumPy's update order; ``None`` when there are no updates."""
    lin = xp.arange(out.size).reshape(out.shape)[idx]
    u = xp.broadcast_to(u, lin.shape).reshape(-1)
    lin = lin.reshape(-1)
    n = lin.size
    if n == 0:
        return None
    order = xp.argsort(lin * n + xp.arange(n))  # by target, then in update order
    return lin[order], u[order]


def _set_last_wins(xp, out, idx, u) -> None:
    """``out[idx] = u`` where the last update to a repeated target wins, as in NumPy.  cupy's
    fancy assignment writes repeated targets in parallel (any one may land), so only each
    target's last update is assigned: one duplicate-free assignment."""
    got = _targets_in_order(xp, out, idx, u)
    if got is None:
        return
    lin, u = got
    last = xp.concatenate([lin[1:] != lin[:-1], xp.ones(1, dtype=bool)])
    out[xp.unravel_index(lin[last], out.shape)] = u[last]


def _scatter_extreme(xp, out, idx, u, op) -> None:
    """``op.at(out, idx, u)`` for ``op`` = minimum/maximum (exact in any order): each
    target's updates are reduced by a segmented scan over the target-sorted updates
    (``ceil(log2(n))`` elementwise steps), then one duplicate-free assignment applies them.
    NaNs propagate as in NumPy's ``minimum.at``."""
    got = _targets_in_order(xp, out, idx, u)
    if got is None:
        return
    lin, u = got
    n = lin.size
    step = 1
    while step < n:  # after this, u[i] reduces u[i - 2**k + 1 .. i] within i's target
        same = lin[step:] == lin[:-step]
        u = xp.concatenate([u[:step], xp.where(same, op(u[step:], u[:-step]), u[step:])])
        step *= 2
    last = xp.concatenate([lin[1:] != lin[:-1], xp.ones(1, dtype=bool)])
    t = xp.unravel_index(lin[last], out.shape)  # ``out`` may not be C-contiguous (``xp.pad``)
    out[t] = op(out[t], u[last])


def _scatter_in_rounds(xp, out, idx, u, op) -> None:
    """``op.at(out, idx, u)`` from duplicate-free fancy assignments only: the k-th update of
    each target is applied in round k, so every target sees its updates in order, exactly
    as NumPy's ``ufunc.at`` applies them.  For backends without that ``ufunc.at`` (cupy's
    ``multiply``); one round per repeat of the most repeated target."""
    got = _targets_in_order(xp, out, idx, u)
    if got is None:
        return
    lin, u = got
    pos = xp.arange(lin.size)
    first = xp.concatenate([xp.ones(1, dtype=bool), lin[1:] != lin[:-1]])
    rank = pos - xp.flatnonzero(first)[xp.cumsum(first) - 1]
    for r in range(int(rank.max()) + 1):
        sel = rank == r
        t = xp.unravel_index(lin[sel], out.shape)  # ``out`` may not be C-contiguous (``xp.pad``)
        out[t] = op(out[t], u[sel])


def _scatter_impl(xp, x, u, *arrays, indexer, mode, oob):
    xp = device_xp(xp, x, u, *arrays)
    x = xp.asarray(x)
    u = xp.asarray(u)
    idx, pad = _np_index(xp, x.shape, indexer, arrays, "clip" if oob == "clip" else "drop")
    out = _pad_axes(xp, x, pad, 0) if pad else x.copy()
    if mode == "set":
        if arrays and xp is not np:
            with _device_of(out):
                _set_last_wins(xp, out, idx, u)
        else:
            out[idx] = u
    elif not arrays:  # basic indexing: no repeated targets
        view = out[idx]
        if mode == "add":
            out[idx] = view + u
        elif mode == "mul":
            out[idx] = view * u
        elif mode == "min":
            out[idx] = xp.minimum(view, u)
        else:
            out[idx] = xp.maximum(view, u)
    else:
        _ufunc_at(xp, mode, out, idx, u)
    if pad:
        out = out[tuple(slice(0, n) for n in x.shape)]
    return out


def _gather_abstract(x, *arrays, indexer, oob, fill_value):
    _check_index_dtypes(arrays, "gather")
    shp = indexed_shape(x.shape, indexer, tuple(a.shape for a in arrays))
    return ShapedArray(shp, x.dtype, x.weak_type)


def _scatter_abstract(x, u, *arrays, indexer, mode, oob):
    _check_index_dtypes(arrays, "scatter")
    shp = indexed_shape(x.shape, indexer, tuple(a.shape for a in arrays))
    if u.shape != shp:
        raise ValueError(f"scatter: updates of shape {u.shape} do not match the indexed shape {shp}")
    if u.dtype != x.dtype:
        raise TypeError(f"scatter: updates dtype {u.dtype} differs from operand dtype {x.dtype}")
    return ShapedArray(x.shape, x.dtype, x.weak_type)


def _check_index_dtypes(arrays, op):
    for a in arrays:
        if dtype_kind(a.dtype) not in "iu":
            raise TypeError(f"{op}: index arrays must have an integer dtype, got {a.dtype}")


gather_p = Primitive("gather", _gather_impl, _gather_abstract, family="indexing")
scatter_p = Primitive("scatter", _scatter_impl, _scatter_abstract, family="indexing")


def _one_index_array(params, avals, n_before: int) -> int | None:
    """The length of the indexed axis when ``params`` index axis 0 with the single intp
    array operand ``avals[n_before]`` (``x[a]``, the common case), else None."""
    xav = avals[0]
    if params["indexer"] != (("a", 0),) or len(avals) != n_before + 1 or not xav.shape:
        return None
    if avals[n_before].dtype != _INTP:
        return None
    return xav.shape[0]


def _gather_host_kernel(params, avals):
    """``x[a]`` on the host for `gather_p` with one index array on axis 0: NumPy's indexing
    when every index is in ``[0, n)`` (one reduction), else the implementation (negative,
    clipped or filled indices).  The straight-line executor's host programs use it."""
    n = _one_index_array(params, avals, 1)
    if n is None:
        return None

    rows = len(avals[0].shape) > 1

    def gather_x_a(x, a):
        if a.size and a.view(_UINTP).max() < n:
            return _take_rows(x, a) if rows else x[a]
        return _gather_impl(np, x, a, **params)

    return gather_x_a


def _scatter_host_kernel(params, avals):
    """``x.at[a].set(u)`` on the host with one index array on axis 0 (see
    `_gather_host_kernel`)."""
    if params["mode"] != "set":
        return None
    n = _one_index_array(params, avals, 2)
    if n is None:
        return None

    def scatter_set_x_a(x, u, a):
        if a.size and a.view(_UINTP).max() < n:
            out = x.copy()
            out[a] = u
            return out
        return _scatter_impl(np, x, u, a, **params)

    return scatter_set_x_a


gather_p.host_kernel = _gather_host_kernel
scatter_p.host_kernel = _scatter_host_kernel


def _norm_fill(v):
    if v is None:
        return None
    if isinstance(v, (float, np.floating)) and math.isnan(v):
        return math.nan  # one NaN object, so params compare equal (cache keys)
    if isinstance(v, np.generic):
        return v.item()
    return v


def gather(x, arrays, indexer, oob: str = "clip", fill_value=None):
    """``x[idx]`` for a parsed index (see `parse_index`)."""
    if oob not in ("clip", "fill"):
        raise ValueError(f"gather: oob must be 'clip' or 'fill', got {oob!r}")
    if not indexer:
        return x
    return gather_p.bind(x, *_place_indices(arrays, x), indexer=tuple(indexer), oob=oob,
                         fill_value=_norm_fill(fill_value))


def scatter(x, updates, arrays, indexer, mode: str, oob: str = "drop"):
    """``x.at[idx].<mode>(updates)`` for a parsed index; ``updates`` must already have the
    indexed shape and ``x``'s dtype."""
    if mode not in ("set", "add", "mul", "min", "max"):
        raise ValueError(f"scatter: unknown mode {mode!r}")
    if oob not in ("clip", "drop"):
        raise ValueError(f"scatter: oob must be 'clip' or 'drop', got {oob!r}")
    return scatter_p.bind(x, updates, *_place_indices(arrays, x), indexer=tuple(indexer), mode=mode,
                          oob=oob)


def _place_indices(arrays, x):
    """Host index arrays (from Python lists, NumPy arrays, boolean masks) are constants: they
    go to ``x``'s device (as with ``cupy_array[numpy_index]``)."""
    if not arrays or (type(x) is ArrayImpl and type(x._buf) is np.ndarray):
        return arrays
    be = backend_of(x)
    if be is None or be is NUMPY:
        return arrays
    out = []
    for a in arrays:
        if type(a) is ArrayImpl and (type(a._buf) is np.ndarray or isinstance(a._buf, np.generic)):
            a = cached_constant_like(np.asarray(a._buf), x)
        elif isinstance(a, np.ndarray):
            a = cached_constant_like(a, x)
        out.append(a)
    return out


# ---------------------------------------------------------------------------------------
# derivative rules


def _zeros(shp, dtype, like):
    """Zeros on ``like``'s device."""
    return zeros_like(like, dtype=dtype, shape=shp)


def _gather_jvp(primals, tangents, indexer, oob, fill_value):
    x, *arrays = primals
    tx = tangents[0]
    out = gather_p.bind(x, *arrays, indexer=indexer, oob=oob, fill_value=fill_value)
    if tx is None:
        return out, None
    return out, gather_p.bind(tx, *arrays, indexer=indexer, oob=oob,
                              fill_value=None if oob == "clip" else 0)


def _gather_transpose(ct, x, *arrays, indexer, oob, fill_value):
    if not is_undefined(x):
        return (None,) * (1 + len(arrays))
    for a in arrays:
        if is_undefined(a):
            raise ValueError("gather is not linear in its index arrays")
    av = x.aval
    z = _zeros(av.shape, av.dtype, ct)
    ct_x = scatter_p.bind(z, ct, *arrays, indexer=indexer, mode="add",
                          oob="clip" if oob == "clip" else "drop")
    return (ct_x,) + (None,) * len(arrays)


deflinear(gather_p, _gather_transpose, jvp=_gather_jvp)


def _gather_back(v, arrays, indexer, oob, fill=0):
    """Gather matching a scatter's index semantics (dropped targets read ``fill``)."""
    return gather_p.bind(v, *arrays, indexer=indexer, oob="clip" if oob == "clip" else "fill",
                         fill_value=None if oob == "clip" else fill)


def _scatter_jvp(primals, tangents, indexer, mode, oob):
    x, u, *arrays = primals
    tx, tu = tangents[0], tangents[1]
    kw = dict(indexer=indexer, oob=oob)
    out = scatter_p.bind(x, u, *arrays, mode=mode, **kw)
    if tx is None and tu is None:
        return out, None
    xav, uav = get_aval(x), get_aval(u)
    if mode in ("set", "add"):
        if tu is None and mode == "add":
            return out, tx
        tx_ = _zeros(xav.shape, xav.dtype, x) if tx is None else tx
        tu_ = _zeros(uav.shape, uav.dtype, x) if tu is None else tu
        return out, scatter_p.bind(tx_, tu_, *arrays, mode=mode, **kw)
    ones = ones_like(x)
    zeros = _zeros(xav.shape, xav.dtype, x)
    if mode == "mul":
        prod = scatter_p.bind(ones, u, *arrays, mode="mul", **kw)  # product of updates per slot
        t = None if tx is None else ew.mul(tx, prod)
        if tu is not None:
            # d prod[p] = sum_k tu_k * others_k with others_k = prod_{j != k} u_j over the
            # updates landing in k's slot.  Split each slot's product into nonzero factors
            # (p_nz, divisible) and zero factors (zp, whose derivative is kept): exact to all
            # orders when a slot holds at most one exact zero, and to first order otherwise.
            isz = ew.eq(u, 0)
            one_u = ew.add(ew.mul(u, 0), 1)
            u_nz = ew.select(isz, one_u, u)
            p_nz = scatter_p.bind(ones, u_nz, *arrays, mode="mul", **kw)
            zp = scatter_p.bind(ones, ew.select(isz, u, one_u), *arrays, mode="mul", **kw)
            nz = scatter_p.bind(_zeros(xav.shape, np.int64, x), ew.convert_element_type(isz, np.int64),
                                *arrays, mode="add", **kw)
            p_g = _gather_back(p_nz, arrays, indexer, oob)
            zp_g = _gather_back(zp, arrays, indexer, oob)
            z_g = _gather_back(nz, arrays, indexer, oob)
            others = ew.select(isz, ew.select(ew.eq(z_g, 1), p_g, ew.mul(p_g, 0)),
                               ew.mul(ew.div(p_g, u_nz), zp_g))
            dprod = scatter_p.bind(zeros, ew.mul(tu, others), *arrays, mode="add", **kw)
            tt = ew.mul(x, dprod)
            t = tt if t is None else ew.add(t, tt)
        return out, t
    # min / max (JAX's rule): a slot's tangent is the mean of the tangents of the operand
    # element and of every update equal to the result there (ties split evenly among all)
    won = ew.convert_element_type(ew.eq(u, _gather_back(out, arrays, indexer, oob, math.nan)), xav.dtype)
    kept = ew.convert_element_type(ew.eq(x, out), xav.dtype)
    refs = ew.add(scatter_p.bind(zeros, won, *arrays, mode="add", **kw), kept)
    refs = ew.select(ew.gt(refs, 0), refs, ew.add(ew.mul(refs, 0), 1))  # 0 only where out is NaN
    t = None if tx is None else ew.div(ew.mul(tx, kept), refs)
    if tu is not None:
        w = ew.div(won, _gather_back(refs, arrays, indexer, oob, 1))
        tt = scatter_p.bind(zeros, ew.mul(tu, w), *arrays, mode="add", **kw)
        t = tt if t is None else ew.add(t, tt)
    return out, t


def _scatter_transpose(ct, x, u, *arrays, indexer, mode, oob):
    for a in arrays:
        if is_undefined(a):
            raise ValueError("scatter is not linear in its index arrays")
    if mode not in ("set", "add"):
        raise ValueError(f"scatter with mode={mode!r} is not linear; it has no transpose")
    ct_x = ct_u = None
    if mode == "add":
        if is_undefined(x):
            ct_x = ct
        if is_undefined(u):
            ct_u = _gather_back(ct, arrays, indexer, oob)
        return (ct_x, ct_u) + (None,) * len(arrays)
    uav = u.aval if is_undefined(u) else get_aval(u)
    if is_undefined(x):
        ct_x = scatter_p.bind(ct, _zeros(uav.shape, uav.dtype, ct), *arrays, indexer=indexer, mode="set",
                              oob=oob)
    if is_undefined(u):
        # only the update that lands last in a slot reaches the output: find the winners by
        # scattering update ids and reading them back
        xshape = x.aval.shape if is_undefined(x) else get_aval(x).shape
        ids = constant_like(np.arange(int(np.prod(uav.shape, dtype=np.int64)), dtype=np.int64)
                            .reshape(uav.shape), ct)
        slots = scatter_p.bind(full_like(ct, -1, np.int64, xshape), ids, *arrays, indexer=indexer,
                               mode="set", oob=oob)
        won = ew.eq(_gather_back(slots, arrays, indexer, oob, -1), ids)
        g = _gather_back(ct, arrays, indexer, oob)
        ct_u = ew.select(won, g, ew.mul(g, 0))
    return (ct_x, ct_u) + (None,) * len(arrays)


# linear in (operand, updates) for modes 'set' and 'add' (the others have no transpose)
deflinear(scatter_p, _scatter_transpose, jvp=_scatter_jvp)


# ---------------------------------------------------------------------------------------
# batching


def _batch_operands(size, x, xd, arrays, ads, indexer, force_x):
    """Rewrite a gather/scatter with batched operands as one unbatched-form call.

    Returns ``(x, arrays, indexer, raw)``: ``raw`` lists, for each dimension of the new
    call's indexed result, ``"B"`` (the batch axis) or the logical output dimension it holds.
    """
    xshape = shape(x)
    if xd is not None:
        xshape = xshape[:xd] + xshape[xd + 1:]
    ash = tuple(shape(a)[:d] + shape(a)[d + 1:] if d is not None else shape(a)
                for a, d in zip(arrays, ads, strict=True))
    labels = list(range(len(indexed_shape(tuple(xshape), tuple(indexer), ash))))
    lay = _adv_layout(indexer, ash)
    if all(d is None for d in ads):
        x = move_or_broadcast(x, xd, 0, size)
        if lay is None or lay[2]:
            raw = ["B"] + labels
        else:
            r = lay[0]
            raw = labels[:r] + ["B"] + labels[r:]
        return x, list(arrays), (FULL,) + tuple(indexer), raw
    r, q, _ = lay
    new = []
    for a, d, s in zip(arrays, ads, ash, strict=True):
        if d is None:
            new.append(a)
        else:
            a = moveaxis(a, d, 0)
            new.append(reshape(a, (size,) + (1,) * (r - len(s)) + s))
    if xd is None and not force_x:
        return x, new, tuple(indexer), labels[:q] + ["B"] + labels[q:]
    x = move_or_broadcast(x, xd, 0, size)
    new.append(constant_like(np.arange(size, dtype=np.intp).reshape((size,) + (1,) * r), x))
    raw = ["B"] + labels[q:q + r] + labels[:q] + labels[q + r:]
    return x, new, (("a", len(arrays)),) + tuple(indexer), raw


def _gather_batch(size, vals, dims, indexer, oob, fill_value):
    x, *arrays = vals
    xd, *ads = dims
    x, arrays, indexer, raw = _batch_operands(size, x, xd, arrays, ads, indexer, force_x=False)
    y = gather_p.bind(x, *arrays, indexer=indexer, oob=oob, fill_value=fill_value)
    b = raw.index("B")
    rest = [lab for lab in raw if lab != "B"]
    if rest == sorted(rest):
        return y, b
    return transpose(y, [b] + [raw.index(j) for j in range(len(rest))]), 0


def _scatter_batch(size, vals, dims, indexer, mode, oob):
    x, u, *arrays = vals
    xd, ud, *ads = dims
    x, arrays, indexer, raw = _batch_operands(size, x, xd, arrays, ads, indexer, force_x=True)
    u = move_or_broadcast(u, ud, 0, size)
    u = transpose(u, [0 if lab == "B" else lab + 1 for lab in raw])
    return scatter_p.bind(x, u, *arrays, indexer=indexer, mode=mode, oob=oob), 0


defbatch(gather_p, _gather_batch)
defbatch(scatter_p, _scatter_batch)


__all__ = ["gather_p", "scatter_p", "gather", "scatter", "parse_index", "indexed_shape", "FULL"]
