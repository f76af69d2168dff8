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
from ._shape import bcoo_squeeze

__all__ = ["bcoo_concatenate", "bcoo_dynamic_slice", "bcoo_getitem", "bcoo_slice"]


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
    start, limit, strides, squeeze = [], [], [], []
    for axis, (i, n) in enumerate(zip(idx, mat.shape)):
        if isinstance(i, slice):
            s, lim, st = i.indices(n)
            if st <= 0:
                raise NotImplementedError(
                    "BCOO indexing with a negative step (use bcoo_rev on the dense array)"
                )
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
