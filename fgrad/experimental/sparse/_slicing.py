"""Slicing and joining BCOO arrays: `bcoo_slice` (static bounds and strides),
`bcoo_dynamic_slice` (traced starts, clamped as ``lax.dynamic_slice``), ``BCOO[...]``
(integers and slices), and `bcoo_concatenate`.

Batch and dense axes slice the buffers themselves; a sparse axis keeps every stored
element and moves the ones outside the slice to padding (zero value, index = the new
shape), so ``nse`` does not change -- JAX's layout, bit for bit."""

from __future__ import annotations

import operator
from typing import Any, Sequence

import numpy as np

import fgrad.numpy as fnp
from ...lax import dynamic_slice as _dynamic_slice
from ._batching import broadcast_batch
from ._bcoo import BCOO
from ._shape import bcoo_reshape, bcoo_squeeze

__all__ = [
    "basic_index_from_indexer",
    "bcoo_basic_index",
    "bcoo_concatenate",
    "bcoo_dynamic_slice",
    "bcoo_getitem",
    "bcoo_rev",
    "bcoo_slice",
]


def _check(mat: Any, op: str) -> None:
    if not isinstance(mat, BCOO):
        raise TypeError(f"{op}: input should be BCOO array, got type(mat)={type(mat)}")


def _restrict_sparse(data, indices, n_batch, sparse_shape, starts, sizes, strides, index_dtype):
    """Stored elements inside the window (start, size, stride per sparse axis) get window
    coordinates; the others become padding with value 0."""
    keep = fnp.ones(indices.shape[:-1], dtype=bool)
    cols = []
    for k in range(len(sparse_shape)):
        i = indices[..., k]
        offset = i - starts[k]
        keep = keep & (offset >= 0) & (offset < sizes[k] * strides[k])
        if strides[k] != 1:
            keep = keep & (offset % strides[k] == 0)
            offset = offset // strides[k]
        cols.append(offset)
    new_shape = fnp.array([int(s) for s in sizes], dtype=index_dtype)
    new_indices = (
        fnp.where(keep[..., None], fnp.stack(cols, axis=-1).astype(index_dtype), new_shape)
        if cols
        else indices
    )
    dense_axes = data.ndim - keep.ndim
    new_data = fnp.where(keep.reshape(keep.shape + (1,) * dense_axes), data, 0).astype(data.dtype)
    return new_data, new_indices


def bcoo_slice(
    mat: BCOO,
    *,
    start_indices: Sequence[int],
    limit_indices: Sequence[int],
    strides: Sequence[int] | None = None,
) -> BCOO:
    """``lax.slice`` of a BCOO array.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> s = sparse.BCOO.fromdense(fnp.array([[0., 1., 2.], [3., 0., 4.]]))
        >>> sparse.bcoo_slice(s, start_indices=(0, 1), limit_indices=(2, 3)).todense().tolist()
        [[1.0, 2.0], [0.0, 4.0]]
    """
    _check(mat, "bcoo_slice")
    start = tuple(operator.index(i) for i in start_indices)
    limit = tuple(operator.index(i) for i in limit_indices)
    if len(start) != mat.ndim or len(limit) != mat.ndim:
        raise ValueError(f"bcoo_slice: indices must have size mat.ndim={mat.ndim}")
    strides = (1,) * mat.ndim if strides is None else tuple(operator.index(s) for s in strides)
    if len(strides) != mat.ndim:
        raise ValueError(f"len(strides) = {len(strides)}; expected {mat.ndim}")
    if any(s <= 0 for s in strides):
        raise ValueError(f"strides must be a sequence of positive integers; got {strides}")
    if not all(0 <= s <= lim <= n for s, lim, n in zip(start, limit, mat.shape)):
        raise ValueError(
            f"bcoo_slice: invalid indices. Got start_indices={start}, limit_indices={limit} and "
            f"shape={mat.shape}"
        )
    sizes = tuple(max(0, -(-(lim - s) // st)) for s, lim, st in zip(start, limit, strides))
    n_batch, n_sparse = mat.n_batch, mat.n_sparse
    data, indices = mat.data, mat.indices

    def batch_slices(buf):
        out = []
        for b in range(n_batch):
            if buf.shape[b] == 1:  # a broadcast batch axis stays size 1
                out.append(slice(None))
            else:
                out.append(slice(start[b], limit[b], strides[b]))
        return tuple(out)

    data = data[batch_slices(data)]
    indices = indices[batch_slices(indices)]
    dense_sl = tuple(
        slice(s, lim, st)
        for s, lim, st in zip(
            start[n_batch + n_sparse :], limit[n_batch + n_sparse :], strides[n_batch + n_sparse :]
        )
    )
    data = data[(slice(None),) * (n_batch + 1) + dense_sl]
    batch = sizes[:n_batch]
    data, indices = broadcast_batch(data, batch), broadcast_batch(indices, batch)
    sp = slice(n_batch, n_batch + n_sparse)
    data, indices = _restrict_sparse(
        data, indices, n_batch, mat.shape[sp], start[sp], sizes[sp], strides[sp], indices.dtype
    )
    return BCOO((data, indices), shape=sizes)


def bcoo_dynamic_slice(mat: BCOO, start_indices: Sequence[Any], slice_sizes: Sequence[int]) -> BCOO:
    """``lax.dynamic_slice`` of a BCOO array: starts may be traced and are clamped so the
    window fits, as in lax.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> s = sparse.BCOO.fromdense(fnp.array([0., 1., 2., 3.]))
        >>> fgrad.jit(lambda s, i: sparse.bcoo_dynamic_slice(s, (i,), (2,)))(s, 3).todense().tolist()
        [2.0, 3.0]
    """
    _check(mat, "bcoo_dynamic_slice")
    sizes = tuple(operator.index(n) for n in slice_sizes)
    if len(start_indices) != mat.ndim or len(sizes) != mat.ndim:
        raise ValueError(f"bcoo_dynamic_slice: indices must have size mat.ndim={mat.ndim}")
    if not all(0 <= n <= d for n, d in zip(sizes, mat.shape)):
        raise TypeError(
            "slice_sizes must be less than or equal to operand shape, got slice_sizes "
            f"{sizes} for operand shape {mat.shape}"
        )
    starts = [fnp.clip(fnp.asarray(s), 0, d - n) for s, n, d in zip(start_indices, sizes, mat.shape)]
    n_batch, n_sparse = mat.n_batch, mat.n_sparse
    batch = mat.shape[:n_batch]
    data, indices = broadcast_batch(mat.data, batch), broadcast_batch(mat.indices, batch)
    zero = fnp.zeros((), starts[0].dtype) if starts else 0
    if n_batch:
        data = _dynamic_slice(
            data,
            tuple(starts[:n_batch]) + (zero,) * (data.ndim - n_batch),
            sizes[:n_batch] + tuple(data.shape[n_batch:]),
        )
        indices = _dynamic_slice(
            indices, tuple(starts[:n_batch]) + (zero, zero), sizes[:n_batch] + tuple(indices.shape[n_batch:])
        )
    if mat.n_dense:
        dense_starts = tuple(starts[n_batch + n_sparse :])
        data = _dynamic_slice(
            data,
            (zero,) * (n_batch + 1) + dense_starts,
            tuple(data.shape[: n_batch + 1]) + sizes[n_batch + n_sparse :],
        )
    sp = slice(n_batch, n_batch + n_sparse)
    data, indices = _restrict_sparse(
        data,
        indices,
        n_batch,
        mat.shape[sp],
        [s.astype(indices.dtype) for s in starts[sp]],
        sizes[sp],
        (1,) * n_sparse,
        indices.dtype,
    )
    return BCOO((data, indices), shape=sizes)


def bcoo_getitem(mat: BCOO, idx: Any) -> BCOO:
    """``mat[idx]`` for integers, slices and ``...``: a BCOO array (integers slice one
    position and squeeze it out).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> s = sparse.BCOO.fromdense(fnp.array([[0., 1., 2.], [3., 0., 4.]]))
        >>> s[1].todense().tolist(), s[:, ::2].todense().tolist()
        ([3.0, 0.0, 4.0], [[0.0, 2.0], [3.0, 4.0]])
    """
    idx = idx if isinstance(idx, tuple) else (idx,)
    if sum(i is Ellipsis for i in idx) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if Ellipsis in idx:
        at = idx.index(Ellipsis)
        idx = idx[:at] + (slice(None),) * (mat.ndim - len(idx) + 1) + idx[at + 1 :]
    if len(idx) > mat.ndim:
        raise IndexError(
            f"Too many indices for array: {len(idx)} non-None/Ellipsis indices for dim {mat.ndim}."
        )
    idx = idx + (slice(None),) * (mat.ndim - len(idx))
    start, limit, strides, squeeze, reversed_axes = [], [], [], [], []
    for axis, (i, n) in enumerate(zip(idx, mat.shape)):
        if isinstance(i, slice):
            s, lim, st = i.indices(n)
            if st < 0:  # walk the reversed axis forwards: position j becomes n - 1 - j
                reversed_axes.append(axis)
                s, lim, st = n - 1 - s, n - 1 - lim, -st
            start.append(s)
            limit.append(max(lim, s))
            strides.append(st)
        elif isinstance(i, (int, np.integer)):
            i = int(i)
            if not -n <= i < n:
                raise IndexError(f"index {i} is out of bounds for axis {axis} with size {n}")
            i %= n
            start.append(i)
            limit.append(i + 1)
            strides.append(1)
            squeeze.append(axis)
        else:
            raise NotImplementedError(
                f"BCOO indexing with {type(i).__name__} (fgrad supports integers, slices and "
                "...): use bcoo_extract, or sparse.todense(x)[idx]"
            )
    if reversed_axes:
        mat = bcoo_rev(mat, reversed_axes)
    out = bcoo_slice(mat, start_indices=start, limit_indices=limit, strides=strides)
    return bcoo_squeeze(out, dimensions=squeeze) if squeeze else out


def bcoo_concatenate(operands: Sequence[BCOO], *, dimension: int) -> BCOO:
    """Concatenation of BCOO arrays along ``dimension``: along a sparse axis the stored
    elements are joined (indices offset), along a batch axis the buffers are (equal ``nse``
    needed); dense axes are not supported (as in JAX).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> s = sparse.BCOO.fromdense(fnp.array([[0., 1.], [2., 0.]]))
        >>> sparse.bcoo_concatenate([s, s], dimension=1).todense().tolist()
        [[0.0, 1.0, 0.0, 1.0], [2.0, 0.0, 2.0, 0.0]]
    """
    operands = list(operands)
    if not operands or not all(isinstance(o, BCOO) for o in operands):
        raise ValueError(
            f"bcoo_concatenate: expected operands to be a sequence of BCOO arrays. Got {operands}"
        )
    first = operands[0]
    dim = operator.index(dimension)
    if not -first.ndim <= dim < first.ndim:
        raise ValueError(f"bcoo_concatenate: dimension {dim} out of range for arrays of rank {first.ndim}")
    dim %= first.ndim
    if any(
        o.ndim != first.ndim or o.n_batch != first.n_batch or o.n_dense != first.n_dense for o in operands
    ):
        raise ValueError(
            "bcoo_concatenate: operands must have the same rank, n_batch and n_dense; got "
            f"{[(o.shape, o.n_batch, o.n_dense) for o in operands]}"
        )
    for axis in range(first.ndim):
        if axis != dim and len({o.shape[axis] for o in operands}) != 1:
            raise ValueError(
                f"bcoo_concatenate: shapes {[o.shape for o in operands]} differ outside dimension {dim}"
            )
    n_batch, n_sparse = first.n_batch, first.n_sparse
    shape = list(first.shape)
    shape[dim] = sum(o.shape[dim] for o in operands)
    dtype = fnp.result_type(*[o.dtype for o in operands])
    itype = fnp.result_type(*[o.indices.dtype for o in operands])
    if dim < n_batch:
        if len({o.nse for o in operands}) != 1:
            raise ValueError("bcoo_concatenate requires inputs to have matching nse dimensions.")
        full = [broadcast_batch(o.data, o.shape[:n_batch]) for o in operands]
        inds = [broadcast_batch(o.indices, o.shape[:n_batch]) for o in operands]
        data = fnp.concatenate([d.astype(dtype) for d in full], axis=dim)
        indices = fnp.concatenate([i.astype(itype) for i in inds], axis=dim)
        return BCOO((data, indices), shape=shape)
    if dim >= n_batch + n_sparse:
        raise NotImplementedError("Concatenation along dense dimensions.")
    batch = first.shape[:n_batch]
    offset = 0
    datas, inds = [], []
    for o in operands:
        ind = broadcast_batch(o.indices, batch).astype(itype)
        if offset:
            shift = np.zeros(n_sparse, dtype=np.int64)
            shift[dim - n_batch] = offset
            ind = ind + fnp.asarray(shift.astype(np.dtype(itype)))
        datas.append(broadcast_batch(o.data, batch).astype(dtype))
        inds.append(ind)
        offset += o.shape[dim]
    return BCOO((fnp.concatenate(datas, axis=n_batch), fnp.concatenate(inds, axis=n_batch)), shape=shape)


def bcoo_rev(operand: BCOO, dimensions: Sequence[int]) -> BCOO:
    """``lax.rev`` of a BCOO array: the order of ``dimensions`` reversed (batch and dense
    axes flip the buffers, sparse axes mirror the indices; padding stays padding).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> s = sparse.BCOO.fromdense(fnp.array([[0., 1., 2.], [3., 0., 0.]]))
        >>> sparse.bcoo_rev(s, dimensions=(1,)).todense().tolist()
        [[2.0, 1.0, 0.0], [0.0, 0.0, 3.0]]
    """
    _check(operand, "bcoo_rev")
    dims = sorted({operator.index(d) % operand.ndim for d in dimensions})
    n_batch, n_sparse = operand.n_batch, operand.n_sparse
    data, indices = operand.data, operand.indices
    batch_dims = [d for d in dims if d < n_batch]
    if batch_dims:
        data, indices = fnp.flip(data, batch_dims), fnp.flip(indices, batch_dims)
    dense_dims = [d - n_sparse + 1 for d in dims if d >= n_batch + n_sparse]
    if dense_dims:
        data = fnp.flip(data, dense_dims)
    sparse_dims = [d - n_batch for d in dims if n_batch <= d < n_batch + n_sparse]
    if sparse_dims:
        sizes = operand.shape[n_batch : n_batch + n_sparse]
        cols = []
        for k in range(n_sparse):
            col = indices[..., k]
            if k in sparse_dims:
                n = sizes[k]
                col = fnp.where((col >= 0) & (col < n), n - 1 - col, n).astype(indices.dtype)
            cols.append(col)
        indices = fnp.stack(cols, axis=-1)
    return BCOO((data, indices), shape=operand.shape)


def basic_index_from_indexer(indexer: Any, ndim: int) -> tuple[tuple, tuple[int, ...]] | None:
    """fgrad's traced basic-indexing ``gather`` parameter as ``(index without None, positions
    of new axes in the result)``; None when it holds index arrays.

    Example::

        >>> basic_index_from_indexer((("s", 1, None, None), ("n",), ("i", 2)), 2)
        ((slice(1, None, None), 2), (1,))
    """
    index, new_axes, out_axis = [], [], 0
    for entry in indexer:
        kind = entry[0]
        if kind == "s":
            index.append(slice(*entry[1:4]))
            out_axis += 1
        elif kind == "i" and isinstance(entry[1], (int, np.integer)):
            index.append(int(entry[1]))
        elif kind == "n":
            new_axes.append(out_axis)
            out_axis += 1
        else:
            return None
    return tuple(index), tuple(new_axes)


def bcoo_basic_index(mat: BCOO, index: tuple, new_axes: tuple[int, ...]) -> BCOO:
    """``mat[index]`` with size-1 axes inserted at ``new_axes`` of the result.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> s = sparse.BCOO.fromdense(fnp.array([0., 1., 2.]))
        >>> bcoo_basic_index(s, (slice(1, None),), (1,)).shape
        (2, 1)
    """
    out = bcoo_getitem(mat, index) if index else mat
    if not new_axes:
        return out
    shape = list(out.shape)
    for axis in new_axes:
        shape.insert(axis, 1)
    return bcoo_reshape(out, new_sizes=tuple(shape))
