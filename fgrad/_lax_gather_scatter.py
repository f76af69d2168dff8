"""JAX's general ``lax.gather`` and ``lax.scatter*`` (XLA's Gather/Scatter with dimension
numbers), lowered onto fgrad's NumPy-indexing primitives.

Every element of a gather's output (of a scatter's updates) reads (writes) one element of
the operand.  From the dimension numbers, the operand's shape and the index vectors, this
module builds, with fgrad ops, one integer index array per operand dimension, broadcast over
the output (updates) shape: ``start + window offset``, where the start is the index vector's
entry (clamped so the whole window fits under ``mode="clip"``), the position along a batching
dimension, or 0, and the window offset is an iota along the output's window dimension.  The
result is then *one* call of `fgrad.ops.indexing.gather` / ``scatter`` with an index array on
every axis, so derivatives (gather's transpose is a scatter-add, scatter-add's a gather, the
masking rule of ``scatter``), batching, jit and device placement are those primitives' rules;
nothing here is differentiated separately.  Under ``mode="fill"`` (JAX's FILL_OR_DROP) a window
that does not fit is sent to the out-of-bounds index ``n`` on the first axis, which the gather
primitive fills with ``fill_value`` and the scatter primitive drops, window by window as in JAX.

Example::

    >>> import fgrad.numpy as fnp
    >>> from fgrad import lax
    >>> x = fnp.arange(12.0).reshape(3, 4)
    >>> dn = lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,),
    ...                                 start_index_map=(0,))
    >>> lax.gather(x, fnp.array([[2], [0]]), dn, slice_sizes=(1, 4))
    Array([[ 8.,  9., 10., 11.],
           [ 0.,  1.,  2.,  3.]], dtype=float64)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np

from . import numpy as fnp
from ._lax_more import GatherScatterMode
from .core.array import ArrayImpl, Tracer, get_aval
from .core.constants import cached_constant_like, constant_like, full_like, zeros_like
from .core.narrow_floats import dtype_kind
from .typing import Array, ArrayLike, Shaped
from .ops import elementwise as _ew
from .ops import indexing as _indexing
from .ops import lax_ops as _lax
from .ops import shape as _shape
from .ops.control_flow import fori_loop

__all__ = [
    "GatherDimensionNumbers", "ScatterDimensionNumbers", "gather", "scatter", "scatter_add", "scatter_sub",
    "scatter_mul", "scatter_min", "scatter_max", "scatter_apply",
]


class GatherDimensionNumbers(NamedTuple):
    """How the dimensions of a `gather`'s operand, start indices and output correspond
    (JAX's and XLA's names; the index vector is always the last dimension of the indices).

    * ``offset_dims``: output dimensions that hold the window (sorted);
    * ``collapsed_slice_dims``: operand dimensions of window size 1 with no output dimension;
    * ``start_index_map``: the operand dimension each entry of an index vector starts;
    * ``operand_batching_dims`` / ``start_indices_batching_dims``: operand and indices
      dimensions that are walked together (the output keeps the indices' one).

    Example::

        >>> from fgrad import lax
        >>> lax.GatherDimensionNumbers((1,), (0,), (0,)).start_index_map
        (0,)
    """

    offset_dims: tuple[int, ...]
    collapsed_slice_dims: tuple[int, ...]
    start_index_map: tuple[int, ...]
    operand_batching_dims: tuple[int, ...] = ()
    start_indices_batching_dims: tuple[int, ...] = ()


class ScatterDimensionNumbers(NamedTuple):
    """How the dimensions of a scatter's operand, indices and updates correspond (the mirror
    image of `GatherDimensionNumbers`).

    * ``update_window_dims``: dimensions of the updates that hold the window (sorted);
    * ``inserted_window_dims``: operand dimensions of window size 1 absent from the updates;
    * ``scatter_dims_to_operand_dims``: the operand dimension each index-vector entry starts;
    * ``operand_batching_dims`` / ``scatter_indices_batching_dims``: operand and indices
      dimensions walked together (the updates carry the indices' one).

    Example::

        >>> from fgrad import lax
        >>> lax.ScatterDimensionNumbers((), (0,), (0,)).inserted_window_dims
        (0,)
    """

    update_window_dims: tuple[int, ...]
    inserted_window_dims: tuple[int, ...]
    scatter_dims_to_operand_dims: tuple[int, ...]
    operand_batching_dims: tuple[int, ...] = ()
    scatter_indices_batching_dims: tuple[int, ...] = ()


# ---------------------------------------------------------------------------------------
# dimension-number checks (JAX's TypeErrors and messages)


def _sorted(dims, op, name):
    if list(dims) != sorted(dims):
        raise TypeError(f"{name} in {op} op must be sorted; got {tuple(dims)}")


def _unique(dims, op, name):
    if len(set(dims)) != len(dims):
        raise TypeError(f"{name} in {op} op must not repeat; got: {tuple(dims)}.")


def _in_range(dims, rank, op, name):
    for d in dims:
        if not 0 <= d < rank:
            raise TypeError(f"Invalid {name} set in {op} op; valid range is [0, {rank}); got: {d}.")


def _disjoint(a, b, op, na, nb):
    if set(a) & set(b):
        raise TypeError(f"{na} and {nb} in {op} op must be disjoint; got: {tuple(a)} and {tuple(b)}.")


def _check_common(op, operand_shape, idx_shape, index_map, dropped, dropped_name, obd, ibd, ibd_name,
                  map_name):
    """Checks shared by gather and scatter: the index map, the operand dimensions without a
    window dimension and the batching dimensions."""
    rank = len(operand_shape)
    if not idx_shape:
        raise TypeError(f"{op}: the indices must have at least one dimension (the index vector, "
                        "last); to use scalar indices add a trailing dimension of size 1")
    ivd = len(idx_shape) - 1
    if len(index_map) != idx_shape[ivd]:
        raise TypeError(f"{op.capitalize()} op has {len(index_map)} elements in {map_name} and the bound "
                        f"of dimension index_vector_dim={ivd} of indices is {idx_shape[ivd]}. These two "
                        "numbers must be equal.")
    for i, d in enumerate(index_map):
        if not 0 <= d < rank:
            raise TypeError(f"Invalid {map_name}; domain is [0, {rank}), got: {i}->{d}.")
    _unique(index_map, op, map_name)
    _sorted(dropped, op, dropped_name)
    _in_range(dropped, rank, op, dropped_name)
    _unique(dropped, op, dropped_name)
    _unique(obd, op, "operand_batching_dims")
    _sorted(obd, op, "operand_batching_dims")
    _in_range(obd, rank, op, "operand_batching_dims")
    _disjoint(dropped, obd, op, dropped_name, "operand_batching_dims")
    _disjoint(index_map, obd, op, map_name, "operand_batching_dims")
    _unique(ibd, op, ibd_name)
    _in_range(ibd, len(idx_shape), op, ibd_name)
    if ivd in ibd:
        raise TypeError(f"{op.capitalize()} op cannot have the index vector dimension as a batching "
                        f"dimension; got {tuple(ibd)}.")
    if len(obd) != len(ibd):
        raise TypeError(f"{op.capitalize()} op requires equal numbers of operand_batching_dims and "
                        f"{ibd_name}, got {tuple(obd)} and {tuple(ibd)}.")
    ob = tuple(operand_shape[d] for d in obd)
    ib = tuple(idx_shape[d] for d in ibd)
    if ob != ib:
        raise TypeError(f"{op.capitalize()} op requires operand batching dimensions and indices batching "
                        f"dimensions to have the same shape, got {ob} and {ib}.")


def _dims(v) -> tuple[int, ...]:
    return tuple(int(d) for d in v)


def _gather_out_shape(operand_shape, idx_shape, dn, slice_sizes) -> tuple[int, ...]:
    offset_dims = _dims(dn.offset_dims)
    collapsed = _dims(dn.collapsed_slice_dims)
    obd, ibd = _dims(dn.operand_batching_dims), _dims(dn.start_indices_batching_dims)
    _sorted(offset_dims, "gather", "offset_dims")
    _unique(offset_dims, "gather", "offset_dims")
    out_rank = len(offset_dims) + len(idx_shape) - 1
    for i, d in enumerate(offset_dims):
        if not 0 <= d < out_rank:
            raise TypeError(f"Offset dimension {i} in gather op is out of bounds; got {d}, but should "
                            f"have been in [0, {out_rank})")
    _check_common("gather", operand_shape, idx_shape, _dims(dn.start_index_map), collapsed,
                  "collapsed_slice_dims", obd, ibd, "start_indices_batching_dims", "start_index_map")
    rank = len(operand_shape)
    if len(slice_sizes) != rank:
        raise TypeError(f"Gather op must have one slice size for every input dimension; got: "
                        f"len(slice_sizes)={len(slice_sizes)}, input_shape.rank={rank}")
    if rank != len(offset_dims) + len(collapsed) + len(obd):
        raise TypeError("All components of the offset index in a gather op must either be a offset "
                        f"dimension or explicitly collapsed/batching; got len(slice_sizes)={rank}, "
                        f"output_slice_sizes={offset_dims}, collapsed_slice_dims={collapsed}, "
                        f"operand_batching_dims={obd}.")
    if _prod(idx_shape):
        for i, (s, n) in enumerate(zip(slice_sizes, operand_shape)):
            if not 0 <= s <= n:
                raise TypeError(f"Slice size at index {i} in gather op is out of range, must be within "
                                f"[0, {n} + 1), got {s}.")
    for i, d in enumerate(collapsed):
        if slice_sizes[d] != 1:
            raise TypeError(f"Gather op can only collapse slice dims with bound 1, but bound is "
                            f"{slice_sizes[d]} for index {d} at position {i}.")
    for i, d in enumerate(obd):
        if slice_sizes[d] > 1:
            raise TypeError(f"Gather op can only have operand batching dims with bound 0/1, but bound "
                            f"is {slice_sizes[d]} for index {d} at position {i}.")
    window = iter(s for d, s in enumerate(slice_sizes) if d not in collapsed and d not in obd)
    batch = iter(idx_shape[:-1])
    return tuple(next(window) if r in offset_dims else next(batch) for r in range(out_rank))


def _check_scatter(op, operand_shape, idx_shape, upd_shape, dn) -> tuple[int, ...]:
    """Validate a scatter's dimension numbers; the window size along each operand dimension."""
    uwd = _dims(dn.update_window_dims)
    inserted = _dims(dn.inserted_window_dims)
    obd, ibd = _dims(dn.operand_batching_dims), _dims(dn.scatter_indices_batching_dims)
    if not idx_shape:
        raise TypeError(f"{op}: the indices must have at least one dimension (the index vector, last)")
    want = len(idx_shape) - 1 + len(uwd)
    if len(upd_shape) != want:
        raise TypeError(f"Updates tensor must be of rank {want}; got {len(upd_shape)}.")
    _sorted(uwd, "scatter", "update_window_dims")
    _unique(uwd, "scatter", "update_window_dims")
    _in_range(uwd, len(upd_shape), "scatter", "update_window_dims")
    _check_common("scatter", operand_shape, idx_shape, _dims(dn.scatter_dims_to_operand_dims), inserted,
                  "inserted_window_dims", obd, ibd, "scatter_indices_batching_dims",
                  "scatter_dims_to_operand_dims")
    rank = len(operand_shape)
    if rank != len(uwd) + len(inserted) + len(obd):
        raise TypeError(f"Scatter op has window of size {len(uwd) + len(inserted) + len(obd)}; doesn't "
                        f"match operand of rank {rank}.")
    batch_pos = [r for r in range(len(upd_shape)) if r not in uwd]
    if tuple(upd_shape[r] for r in batch_pos) != tuple(idx_shape[:-1]):
        raise TypeError(f"{op}: the updates' scatter dimensions {tuple(upd_shape[r] for r in batch_pos)} "
                        f"must equal the indices' batch dimensions {tuple(idx_shape[:-1])}")
    window_dims = [d for d in range(rank) if d not in inserted and d not in obd]
    sizes = [1] * rank
    for w, d in zip(uwd, window_dims):
        if upd_shape[w] > operand_shape[d]:
            raise TypeError("Bounds of the window dimensions of updates must not exceed the bounds of "
                            f"the corresponding dimensions of operand. For dimension {w}, updates bound "
                            f"is {upd_shape[w]}, operand bound is {operand_shape[d]}.")
        sizes[d] = upd_shape[w]
    return tuple(sizes)


def _prod(shape) -> int:
    return int(np.prod(shape, dtype=np.int64))


# ---------------------------------------------------------------------------------------
# the lowering: an index array per operand axis not read whole


def _placed(v, result_rank: int, positions: Sequence[int]):
    """Reshape ``v`` (its dimensions in the order of ``positions``) to rank ``result_rank``
    with its dimensions at ``positions`` and size 1 elsewhere."""
    shp = [1] * result_rank
    for p, n in zip(positions, get_aval(v).shape):
        shp[p] = n
    return _shape.reshape(v, tuple(shp))


def _as_array(v, like):
    """``v`` as an fgrad array; host values become constants placed like ``like``."""
    if isinstance(v, (ArrayImpl, Tracer)):
        return v
    return constant_like(np.asarray(v), like)


def _check_indices(indices, op):
    if dtype_kind(get_aval(indices).dtype) not in "iu":
        raise ValueError(f"{op}: indices must have an integer type, got {get_aval(indices).dtype}")


def _default_fill(dtype):
    kind = dtype_kind(dtype)
    if kind in "fc":
        return np.nan
    if kind == "i":
        return int(np.iinfo(dtype).min)
    if kind == "u":
        return int(np.iinfo(dtype).max)
    if kind == "b":
        return True
    raise ValueError(f"Unsupported dtype for gather fill_value {dtype}")


def gather(operand: ArrayLike, start_indices: ArrayLike, dimension_numbers: GatherDimensionNumbers,
           slice_sizes: Sequence[int], *, unique_indices: bool = False, indices_are_sorted: bool = False,
           mode: str | GatherScatterMode | None = None, fill_value: ArrayLike | None = None) -> Array:
    """XLA's Gather, as ``jax.lax.gather``: windows of ``slice_sizes`` read from ``operand`` at
    the index vectors in ``start_indices`` (the last dimension), laid out by
    ``dimension_numbers``.  ``mode``: ``"clip"`` (and the default, ``"promise_in_bounds"``)
    clamps each start so the window fits; ``"fill"`` returns ``fill_value`` (NaN, the
    smallest signed / largest unsigned integer, True by default) for every window that does
    not fit.  ``unique_indices``/``indices_are_sorted`` are hints and change nothing.

    Example (``take_along_axis`` of rows)::

        >>> import fgrad.numpy as fnp
        >>> from fgrad import lax
        >>> dn = lax.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0,),
        ...                                 start_index_map=(0,))
        >>> lax.gather(fnp.array([10.0, 11.0, 12.0]), fnp.array([[2], [0], [2]]), dn, (1,))
        Array([12., 10., 12.], dtype=float64)
    """
    x = operand if isinstance(operand, (ArrayImpl, Tracer)) else fnp.asarray(operand)
    idx = _as_array(start_indices, x)
    _check_indices(idx, "gather")
    dn = dimension_numbers
    mode = GatherScatterMode.from_any(GatherScatterMode.PROMISE_IN_BOUNDS if mode is None else mode)
    if mode == GatherScatterMode.ONE_HOT:
        raise NotImplementedError("lax.gather: mode='one_hot' is not supported; use 'clip' or 'fill'")
    xshape, ishape = get_aval(x).shape, get_aval(idx).shape
    sizes = tuple(int(s) for s in slice_sizes)
    out_shape = _gather_out_shape(xshape, ishape, dn, sizes)
    offset_dims = _dims(dn.offset_dims)
    window_dims = [d for d in range(len(xshape))
                   if d not in _dims(dn.collapsed_slice_dims) and d not in _dims(dn.operand_batching_dims)]
    low = _lower(xshape, idx, out_shape, offset_dims, window_dims, sizes, dn.start_index_map,
                 dn.operand_batching_dims, dn.start_indices_batching_dims, mode)
    src = x if xshape else _shape.reshape(x, (1,))
    if mode != GatherScatterMode.FILL_OR_DROP:
        y = _indexing.gather(src, low.arrays, low.indexer, "clip")
    else:
        fill = _default_fill(get_aval(x).dtype) if fill_value is None else fill_value
        y = _indexing.gather(src, low.arrays, low.indexer, "fill", fill)
    return _to_layout(y, low.layout)


class _Lowered(NamedTuple):
    """The indexing-primitive call for a gather/scatter: index arrays, the NumPy-style
    indexer (an index array per indexed axis, a full slice per axis read whole) and
    ``layout``: for each dimension of the indexed result, the gather output (scatter
    updates) dimension it holds."""

    arrays: list
    indexer: tuple
    layout: list


def _lower(xshape, idx, result_shape, window_result_dims, window_dims, sizes, index_map, obd, ibd,
           mode) -> _Lowered:
    """Index arrays for every operand axis that is not read whole, broadcast over the result
    dimensions they vary along (see the module docstring)."""
    index_map, obd, ibd = _dims(index_map), _dims(obd), _dims(ibd)
    rank_r = len(result_shape)
    batch_pos = [r for r in range(rank_r) if r not in window_result_dims]
    result_dim = {d: window_result_dims[w] for w, d in enumerate(window_dims)}
    # axes read whole (a window covering the axis, no start): a slice, no index array
    whole = [d for d in window_dims if d not in index_map and sizes[d] == xshape[d]]
    if len(whole) == len(xshape):
        whole = []
    indexed = [d for d in range(len(xshape)) if d not in whole]
    keep = [r for r in range(rank_r) if r not in {result_dim[d] for d in whole}]
    pos = {r: k for k, r in enumerate(keep)}
    rank_k = len(keep)
    i64 = _ew.convert_element_type(idx, np.int64)
    ok = None
    arrays = []
    for d in indexed:
        n, size = xshape[d], sizes[d]
        start = None
        if d in index_map:
            s = _lax.index_in_dim(i64, index_map.index(d), axis=-1, keepdims=False)
            if mode == GatherScatterMode.FILL_OR_DROP:
                fits = _ew.logical_and(_ew.ge(s, 0), _ew.ge(n - size, s))
                ok = fits if ok is None else _ew.logical_and(ok, fits)
            else:  # CLIP and PROMISE_IN_BOUNDS: the whole window in bounds, as XLA clamps
                s = _ew.minimum(_ew.maximum(s, 0), max(n - size, 0))
            start = _placed(s, rank_k, [pos[r] for r in batch_pos])
        elif d in obd:
            r = batch_pos[ibd[obd.index(d)]]
            start = _placed(_iota(result_shape[r], idx), rank_k, [pos[r]])
        if d in result_dim:
            start = _plus(start, _placed(_iota(size, idx), rank_k, [pos[result_dim[d]]]))
        if start is None:
            start = cached_constant_like(np.zeros((1,) * rank_k, np.int64), idx)
        arrays.append(start)
    if not arrays:  # a rank-0 operand, seen as shape (1,): every element is index 0
        arrays.append(cached_constant_like(np.zeros((1,) * rank_k, np.int64), idx))
    kshape = tuple(result_shape[r] for r in keep)
    arrays[0] = _shape.broadcast_to(arrays[0], kshape)
    if ok is not None:  # a window that does not fit: index n on the first indexed axis
        bad = _ew.add(_ew.mul(arrays[0], 0), int(xshape[indexed[0]]))
        arrays[0] = _ew.select(_shape.broadcast_to(_placed(ok, rank_k, [pos[r] for r in batch_pos]), kshape),
                               arrays[0], bad)
    if not xshape:
        return _Lowered(arrays, (("a", 0),), keep)
    entries, k = [], 0
    for d in range(len(xshape)):
        if d in whole:
            entries.append(_indexing.FULL)
        else:
            entries.append(("a", k))
            k += 1
    # NumPy's layout: the index arrays' dimensions replace adjacent indexed axes in place,
    # and go first when a slice separates them
    adjacent = indexed == list(range(indexed[0], indexed[0] + len(indexed)))
    before = [result_dim[d] for d in whole if adjacent and d < indexed[0]]
    after = [result_dim[d] for d in whole if not (adjacent and d < indexed[0])]
    return _Lowered(arrays, tuple(entries), before + keep + after)


def _to_layout(y, layout):
    """The indexed result ``y`` (dimensions in ``layout`` order) in result order."""
    if layout == sorted(layout):
        return y
    return _shape.transpose(y, tuple(layout.index(r) for r in range(len(layout))))


def _from_layout(u, layout):
    """Updates in result order rearranged into the indexed layout."""
    if layout == sorted(layout):
        return u
    return _shape.transpose(u, tuple(layout))


def _iota(n: int, like):
    return cached_constant_like(np.arange(n, dtype=np.int64), like)


def _plus(a, b):
    return b if a is None else _ew.add(a, b)


def _scatter(op: str, kind: str, operand, scatter_indices, updates, dimension_numbers, mode):
    x = operand if isinstance(operand, (ArrayImpl, Tracer)) else fnp.asarray(operand)
    idx = _as_array(scatter_indices, x)
    _check_indices(idx, op)
    u = _as_array(updates, x)
    xav, uav = get_aval(x), get_aval(u)
    if xav.dtype != uav.dtype:
        raise TypeError(f"lax.{op} requires arguments to have the same dtypes, got {xav.dtype}, "
                        f"{uav.dtype}. (Cast the updates with `.astype({xav.dtype})`.)")
    mode = GatherScatterMode.from_any(mode)
    if mode == GatherScatterMode.ONE_HOT:
        raise NotImplementedError(f"lax.{op}: mode='one_hot' is not supported; use 'clip' or 'drop'")
    if mode == GatherScatterMode.PROMISE_IN_BOUNDS:  # XLA drops windows that do not fit
        mode = GatherScatterMode.FILL_OR_DROP
    dn = dimension_numbers
    xshape = xav.shape
    sizes = _check_scatter(op, xshape, get_aval(idx).shape, uav.shape, dn)
    window_dims = [d for d in range(len(xshape))
                   if d not in _dims(dn.inserted_window_dims) and d not in _dims(dn.operand_batching_dims)]
    low = _lower(xshape, idx, uav.shape, _dims(dn.update_window_dims), window_dims, sizes,
                 dn.scatter_dims_to_operand_dims, dn.operand_batching_dims, dn.scatter_indices_batching_dims,
                 mode)
    if kind == "sub":
        kind, u = "add", _ew.neg(u)
    dst = x if xshape else _shape.reshape(x, (1,))
    out = _indexing.scatter(dst, _from_layout(u, low.layout), low.arrays, low.indexer, kind, "drop")
    return out if xshape else _shape.reshape(out, ())


_SCATTER_DOC = """XLA's Scatter{what}, as ``jax.lax.{name}``: each element of ``updates`` goes to the
    operand element its index vector (``scatter_indices``' last dimension), its window offset
    and its batching position name, laid out by ``dimension_numbers``.  ``mode``:
    ``"clip"`` clamps each start so the window fits; ``"fill"``/``"drop"`` (the default) and
    ``"promise_in_bounds"`` drop every window that does not fit.  ``updates`` must have the
    operand's dtype.  ``indices_are_sorted``/``unique_indices`` are hints{hint}.
"""


def scatter(operand: Shaped[ArrayLike, "*shape"], scatter_indices: ArrayLike, updates: ArrayLike,
            dimension_numbers: ScatterDimensionNumbers, *, indices_are_sorted: bool = False,
            unique_indices: bool = False,
            mode: str | GatherScatterMode | None = None) -> Shaped[Array, "*shape"]:
    """Scatter-update: operand elements named by the indices are replaced by the updates;
    when several updates name one element the last one (in the updates' row-major order)
    wins, as with fgrad's ``.at[].set`` (JAX leaves that order unspecified).  Gradients:
    the replaced operand elements get none; only the winning update of an element gets
    the element's cotangent.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad import lax
        >>> dn = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
        ...                                  scatter_dims_to_operand_dims=(0,))
        >>> lax.scatter(fnp.ones(5), fnp.array([[1], [2], [4]]), fnp.array([2.0, 3.0, 4.0]), dn)
        Array([1., 2., 3., 1., 4.], dtype=float64)
    """
    return _scatter("scatter", "set", operand, scatter_indices, updates, dimension_numbers, mode)


def scatter_add(operand: Shaped[ArrayLike, "*shape"], scatter_indices: ArrayLike, updates: ArrayLike,
                dimension_numbers: ScatterDimensionNumbers, *, indices_are_sorted: bool = False,
                unique_indices: bool = False,
                mode: str | GatherScatterMode | None = None) -> Shaped[Array, "*shape"]:
    """Scatter-add: every update is added to the operand element it names (duplicates
    accumulate).  Linear in operand and updates; its transpose in the updates is a gather.

    Example (duplicates accumulate)::

        >>> import fgrad.numpy as fnp
        >>> from fgrad import lax
        >>> dn = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
        ...                                  scatter_dims_to_operand_dims=(0,))
        >>> lax.scatter_add(fnp.zeros(3), fnp.array([[0], [2], [0]]), fnp.array([1.0, 2.0, 3.0]), dn)
        Array([4., 0., 2.], dtype=float64)
    """
    return _scatter("scatter_add", "add", operand, scatter_indices, updates, dimension_numbers, mode)


def scatter_sub(operand: Shaped[ArrayLike, "*shape"], scatter_indices: ArrayLike, updates: ArrayLike,
                dimension_numbers: ScatterDimensionNumbers, *, indices_are_sorted: bool = False,
                unique_indices: bool = False,
                mode: str | GatherScatterMode | None = None) -> Shaped[Array, "*shape"]:
    """Scatter-subtract: `scatter_add` of the negated updates.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad import lax
        >>> dn = lax.ScatterDimensionNumbers((), (0,), (0,))
        >>> lax.scatter_sub(fnp.zeros(3), fnp.array([[1], [1]]), fnp.array([1.0, 2.0]), dn)
        Array([ 0., -3.,  0.], dtype=float64)
    """
    return _scatter("scatter_sub", "sub", operand, scatter_indices, updates, dimension_numbers, mode)


def scatter_mul(operand: Shaped[ArrayLike, "*shape"], scatter_indices: ArrayLike, updates: ArrayLike,
                dimension_numbers: ScatterDimensionNumbers, *, indices_are_sorted: bool = False,
                unique_indices: bool = False,
                mode: str | GatherScatterMode | None = None) -> Shaped[Array, "*shape"]:
    """Scatter-multiply: each operand element is multiplied by every update naming it.
    Differentiable in both operands for any indices (JAX raises NotImplementedError for the
    updates' derivative unless ``unique_indices=True``; fgrad's rule is exact).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad import lax
        >>> dn = lax.ScatterDimensionNumbers((), (0,), (0,))
        >>> lax.scatter_mul(fnp.ones(3), fnp.array([[1], [1]]), fnp.array([2.0, 3.0]), dn)
        Array([1., 6., 1.], dtype=float64)
    """
    return _scatter("scatter_mul", "mul", operand, scatter_indices, updates, dimension_numbers, mode)


def scatter_min(operand: Shaped[ArrayLike, "*shape"], scatter_indices: ArrayLike, updates: ArrayLike,
                dimension_numbers: ScatterDimensionNumbers, *, indices_are_sorted: bool = False,
                unique_indices: bool = False,
                mode: str | GatherScatterMode | None = None) -> Shaped[Array, "*shape"]:
    """Scatter-minimum: each operand element becomes the minimum of itself and the updates
    naming it.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad import lax
        >>> dn = lax.ScatterDimensionNumbers((), (0,), (0,))
        >>> x = fnp.array([5.0, 5.0, 5.0])
        >>> lax.scatter_min(x, fnp.array([[1], [1], [2]]), fnp.array([3.0, 4.0, 9.0]), dn)
        Array([5., 3., 5.], dtype=float64)
    """
    return _scatter("scatter_min", "min", operand, scatter_indices, updates, dimension_numbers, mode)


def scatter_max(operand: Shaped[ArrayLike, "*shape"], scatter_indices: ArrayLike, updates: ArrayLike,
                dimension_numbers: ScatterDimensionNumbers, *, indices_are_sorted: bool = False,
                unique_indices: bool = False,
                mode: str | GatherScatterMode | None = None) -> Shaped[Array, "*shape"]:
    """Scatter-maximum: each operand element becomes the maximum of itself and the updates
    naming it.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad import lax
        >>> dn = lax.ScatterDimensionNumbers((), (0,), (0,))
        >>> lax.scatter_max(fnp.zeros(3), fnp.array([[1], [1], [2]]), fnp.array([3.0, 4.0, -1.0]), dn)
        Array([0., 4., 0.], dtype=float64)
    """
    return _scatter("scatter_max", "max", operand, scatter_indices, updates, dimension_numbers, mode)


def scatter_apply(operand: Shaped[ArrayLike, "*shape"], scatter_indices: ArrayLike, func: Callable,
                  dimension_numbers: ScatterDimensionNumbers, *, update_shape: Sequence[int] = (),
                  indices_are_sorted: bool = False, unique_indices: bool = False,
                  mode: str | GatherScatterMode | None = None) -> Shaped[Array, "*shape"]:
    """Scatter-apply: the operand elements the indices name are replaced by ``func`` of
    themselves, ``func`` applied once per time an element is named (``func(func(v))`` for
    an element named twice), as in JAX.  ``func`` is an elementwise function of fgrad ops;
    ``update_shape`` is the shape the updates of an equivalent `scatter` would have.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad import lax
        >>> dn = lax.ScatterDimensionNumbers((), (0,), (0,))
        >>> lax.scatter_apply(fnp.ones(3), fnp.array([[0], [2], [2]]), lambda v: v * 3, dn,
        ...                   update_shape=(3,))
        Array([3., 1., 9.], dtype=float64)
    """
    x = operand if isinstance(operand, (ArrayImpl, Tracer)) else fnp.asarray(operand)
    shp = tuple(int(s) for s in update_shape)
    ones = full_like(x, 1, dtype=np.int64, shape=shp)
    counts = _scatter("scatter_apply", "add", zeros_like(x, dtype=np.int64), scatter_indices, ones,
                      dimension_numbers, mode)
    if unique_indices:
        return _ew.select(_ew.gt(counts, 0), func(x), x)
    if isinstance(counts, Tracer):  # the repeat count is not known: one round per update
        return fori_loop(0, _prod(shp), lambda r, v: _ew.select(_ew.gt(counts, r), func(v), v), x)
    out = x
    most = int(fnp.max(counts)) if get_aval(counts).size else 0
    for r in range(most):
        out = _ew.select(_ew.gt(counts, r), func(out), out)
    return out
