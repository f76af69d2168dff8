"""Elementwise operations that keep a BCOO array sparse: products with a dense array
(`bcoo_multiply_dense`: ``data`` times the dense values gathered at the indices) or with
another BCOO array (`bcoo_multiply_sparse`: stored elements paired where their indices
agree), sums of two BCOO arrays (their stored elements concatenated), and zero-preserving
maps of ``data`` (``-x``, ``abs``, ``sin``, ``x * 2``, ...)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

import fgrad.numpy as fnp
from ._batching import broadcast_batch, map_batch
from ._bcoo import BCOO
from ._indices import in_bounds

__all__ = ["bcoo_add", "bcoo_map_data", "bcoo_multiply_dense", "bcoo_multiply_sparse", "multiply_dense"]


def bcoo_map_data(mat: BCOO, fn: Callable[[Any], Any]) -> BCOO:
    """``mat`` with ``fn`` applied to its stored values (``fn(0) == 0`` is the caller's
    promise: the unstored elements stay zero).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> s = sparse.BCOO.fromdense(fnp.array([0., -2.]))
        >>> bcoo_map_data(s, fnp.abs).todense().tolist()
        [0.0, 2.0]
    """
    return BCOO(
        (fn(mat.data), mat.indices),
        shape=mat.shape,
        indices_sorted=mat.indices_sorted,
        unique_indices=mat.unique_indices,
    )


# ---- sparse * dense --------------------------------------------------------------------------


def _gather_broadcast(v: Any, indices: Any) -> Any:
    """``v (sparse..., dense...)`` (axes of size 1 broadcast) at the rows of ``indices``:
    ``(nse, *v's dense axes)``."""
    n_sparse = indices.shape[1]
    where = tuple(
        indices[:, k] if v.shape[k] != 1 else fnp.zeros(indices.shape[:1], indices.dtype)
        for k in range(n_sparse)
    )
    if not where:
        return v[None]
    return v.at[where].get(mode="fill", fill_value=0)


def bcoo_multiply_dense(sp_mat: BCOO, v: Any) -> Any:
    """The elementwise product of a BCOO array and a dense array that broadcasts to its
    shape, as JAX returns it: the product's stored values (the ``data`` of a BCOO array
    with ``sp_mat``'s indices; ``sp_mat * v`` gives that BCOO array).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> s = sparse.BCOO.fromdense(fnp.array([[0., 1.], [2., 0.]]))
        >>> sparse.bcoo_multiply_dense(s, fnp.array([10., 100.]))
        Array([100.,  20.], dtype=float64)
    """
    return multiply_dense(sp_mat, v).data


def multiply_dense(sp_mat: BCOO, v: Any) -> BCOO:
    """`bcoo_multiply_dense` as a BCOO array (``sp_mat * v``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> s = sparse.BCOO.fromdense(fnp.array([[0., 1.], [2., 0.]]))
        >>> multiply_dense(s, fnp.array([10., 100.])).todense().tolist()
        [[0.0, 100.0], [20.0, 0.0]]
    """
    if not isinstance(sp_mat, BCOO):
        raise TypeError(f"bcoo_multiply_dense: expected a BCOO array first; got {type(sp_mat).__name__}")
    v = fnp.asarray(v)
    try:
        out_shape = np.broadcast_shapes(sp_mat.shape, tuple(v.shape))
    except ValueError:
        raise ValueError(
            f"bcoo_multiply_dense: shapes {sp_mat.shape} and {tuple(v.shape)} do not broadcast"
        ) from None
    if out_shape != sp_mat.shape:
        raise NotImplementedError(
            f"bcoo_multiply_dense: the product of a sparse array of shape {sp_mat.shape} and a dense "
            f"array of shape {tuple(v.shape)} has shape {out_shape}, larger than the sparse array's; "
            "multiply the dense arrays (sparse.todense) instead"
        )
    v = v.reshape((1,) * (sp_mat.ndim - v.ndim) + tuple(v.shape))
    n_batch = sp_mat.n_batch
    batch = sp_mat.shape[:n_batch]
    v_axes = tuple(0 if v.shape[b] != 1 else None for b in range(n_batch))
    v = v.reshape(
        tuple(n for b, n in enumerate(v.shape[:n_batch]) if v_axes[b] == 0) + tuple(v.shape[n_batch:])
    )
    dtype = fnp.result_type(sp_mat.dtype, v.dtype)

    def kernel(data, indices, vv):
        values = _gather_broadcast(vv, indices)
        return data.astype(dtype) * values.astype(dtype)

    fn = kernel
    for axis in reversed(v_axes):
        fn = map_batch(fn, 1, (0, 0, axis))
    data = fn(broadcast_batch(sp_mat.data, batch), broadcast_batch(sp_mat.indices, batch), v)
    return BCOO(
        (data, sp_mat.indices),
        shape=sp_mat.shape,
        indices_sorted=sp_mat.indices_sorted,
        unique_indices=sp_mat.unique_indices,
    )


# ---- sparse * sparse -------------------------------------------------------------------------


def _multiply_sparse_unbatched(ldata, lind, rdata, rind, *, sparse_shape, pad_value):
    nl, nr = ldata.shape[0], rdata.shape[0]
    match = in_bounds(lind, sparse_shape)[:, None] & in_bounds(rind, sparse_shape)[None, :]
    for k in range(len(sparse_shape)):
        match = match & (lind[:, k][:, None] == rind[:, k][None, :])
    dense = ldata.shape[1:]
    prod = ldata[:, None] * rdata[None, :]
    prod = fnp.where(match.reshape((nl, nr) + (1,) * len(dense)), prod, 0).reshape(
        (nl * nr,) + tuple(prod.shape[2:])
    )
    pad = fnp.full((len(sparse_shape),), pad_value, dtype=lind.dtype)  # JAX pads with max(shape)
    idx = fnp.where(match[..., None], fnp.broadcast_to(lind[:, None, :], (nl, nr, len(sparse_shape))), pad)
    idx = idx.reshape(nl * nr, len(sparse_shape))
    order = fnp.argsort(~match.reshape(nl * nr), stable=True)  # matched pairs first, as JAX
    return prod[order], idx[order]


def bcoo_multiply_sparse(lhs: BCOO, rhs: BCOO) -> BCOO:
    """The elementwise product of two BCOO arrays of the same shape and layout: one stored
    element per pair of stored elements with equal indices (matches first, then padding;
    ``nse`` is the product of the operands').

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> a = sparse.BCOO.fromdense(fnp.array([[0., 1.], [2., 3.]]))
        >>> sparse.bcoo_multiply_sparse(a, a).todense().tolist()
        [[0.0, 1.0], [4.0, 9.0]]
    """
    if not (isinstance(lhs, BCOO) and isinstance(rhs, BCOO)):
        raise TypeError("bcoo_multiply_sparse: both operands must be BCOO arrays")
    if lhs.ndim != rhs.ndim:
        raise TypeError(
            f"bcoo_multiply_sparse: arrays must have same number of dimensions, got {lhs.shape}, {rhs.shape}"
        )
    if lhs.shape != rhs.shape or lhs.n_batch != rhs.n_batch or lhs.n_dense != rhs.n_dense:
        raise NotImplementedError(
            f"bcoo_multiply_sparse: operands of shapes {lhs.shape} and {rhs.shape} with "
            f"n_batch {lhs.n_batch}/{rhs.n_batch}, n_dense {lhs.n_dense}/{rhs.n_dense}; "
            "fgrad needs equal shapes and layouts (bcoo_update_layout)"
        )
    n_batch = lhs.n_batch
    batch = lhs.shape[:n_batch]
    sparse_shape = lhs.shape[n_batch : n_batch + lhs.n_sparse]
    dtype = fnp.result_type(lhs.dtype, rhs.dtype)
    pad_value = max(lhs.shape[n_batch:], default=0)
    fn = map_batch(
        lambda a, b, c, d: _multiply_sparse_unbatched(
            a, b, c, d, sparse_shape=sparse_shape, pad_value=pad_value
        ),
        n_batch,
        (0, 0, 0, 0),
    )
    data, indices = fn(
        broadcast_batch(lhs.data, batch).astype(dtype),
        broadcast_batch(lhs.indices, batch),
        broadcast_batch(rhs.data, batch).astype(dtype),
        broadcast_batch(rhs.indices, batch),
    )
    return BCOO((data, indices), shape=lhs.shape)


# ---- sparse + sparse -------------------------------------------------------------------------


def bcoo_add(lhs: BCOO, rhs: BCOO) -> BCOO:
    """The sum of two BCOO arrays of the same shape and layout: their stored elements
    concatenated (``nse`` adds up; `bcoo_sum_duplicates` merges equal indices).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> a = sparse.BCOO.fromdense(fnp.array([0., 1., 2.]))
        >>> s = bcoo_add(a, a)
        >>> s.nse, s.todense().tolist()
        (4, [0.0, 2.0, 4.0])
    """
    if lhs.shape != rhs.shape:
        raise ValueError(
            f"add: sparse arrays of shapes {lhs.shape} and {rhs.shape} differ (sparse addition does "
            "not broadcast)"
        )
    if lhs.n_batch != rhs.n_batch or lhs.n_dense != rhs.n_dense:
        raise NotImplementedError(
            f"add: sparse arrays with different layouts (n_batch {lhs.n_batch}/{rhs.n_batch}, "
            f"n_dense {lhs.n_dense}/{rhs.n_dense}); use bcoo_update_layout first"
        )
    n_batch = lhs.n_batch
    batch = lhs.shape[:n_batch]
    dtype = fnp.result_type(lhs.dtype, rhs.dtype)
    itype = fnp.result_type(lhs.indices.dtype, rhs.indices.dtype)
    data = fnp.concatenate(
        [broadcast_batch(lhs.data, batch).astype(dtype), broadcast_batch(rhs.data, batch).astype(dtype)],
        axis=n_batch,
    )
    indices = fnp.concatenate(
        [
            broadcast_batch(lhs.indices, batch).astype(itype),
            broadcast_batch(rhs.indices, batch).astype(itype),
        ],
        axis=n_batch,
    )
    return BCOO((data, indices), shape=lhs.shape)
