"""`bcoo_update_layout`: move dimensions between the batch, sparse and dense groups of a
BCOO array without densifying it.  Four steps, each for one batch element and mapped over
the others: dense -> sparse (each stored element splits into one per position of the
moved dense axes), batch -> sparse (batch positions become leading index columns),
sparse -> dense (values scattered into the new dense axes) and sparse -> batch (values
scattered to their batch position, explicit zeros elsewhere)."""

from __future__ import annotations

import math
import warnings
from typing import Any

import fgrad.numpy as fnp
from ._batching import broadcast_batch, map_batch
from ._bcoo import BCOO
from ._errors import SparseEfficiencyError, SparseEfficiencyWarning

__all__ = ["bcoo_update_layout"]


def _complain(msg: str, on_inefficient: str | None) -> None:
    if on_inefficient == "error":
        raise SparseEfficiencyError(
            msg + " To disable this error, set the on_inefficient argument of "
            "bcoo_update_layout to 'warn' or None."
        )
    if on_inefficient == "warn":
        warnings.warn(
            msg + " To disable this warning, set the on_inefficient argument of bcoo_update_layout to None.",
            SparseEfficiencyWarning,
            stacklevel=3,
        )


def _mesh_columns(sizes: tuple[int, ...], dtype: Any) -> Any:
    """Row-major coordinates of every position of ``sizes``: ``(prod(sizes), len(sizes))``."""
    grids = fnp.meshgrid(*(fnp.arange(n, dtype=dtype) for n in sizes), indexing="ij")
    return fnp.stack([g.ravel() for g in grids], axis=-1) if grids else fnp.zeros((1, 0), dtype)


def _dense_to_sparse(data, indices, n):  # one stored element
    moved = data.shape[:n]
    new_data = data.reshape((math.prod(moved),) + tuple(data.shape[n:]))
    cols = _mesh_columns(tuple(moved), indices.dtype)
    new_indices = fnp.concatenate(
        [fnp.broadcast_to(indices, (cols.shape[0], indices.shape[0])), cols], axis=1
    )
    return new_data, new_indices


def _batch_to_sparse(data, indices, n):  # the last n batch axes of one outer batch element
    sizes = tuple(indices.shape[:n]) + (indices.shape[n],)
    cols = _mesh_columns(sizes, indices.dtype)[:, :n]
    new_data = data.reshape((math.prod(sizes),) + tuple(data.shape[n + 1 :]))
    new_indices = fnp.concatenate([cols, indices.reshape((math.prod(sizes), indices.shape[-1]))], axis=1)
    return new_data, new_indices


def _sparse_to_dense(data, indices, n, dense_shape):  # one stored element
    where = tuple(indices[indices.shape[0] - n + k] for k in range(n))
    new_data = fnp.zeros(dense_shape, data.dtype).at[where].set(data, mode="drop")
    return new_data, indices[: indices.shape[0] - n]


def _sparse_to_batch(data, indices, n, batch_sizes):  # one batch element
    nse = indices.shape[0]
    where = tuple(indices[:, k] for k in range(n)) + (fnp.arange(nse),)
    new_data = fnp.zeros(tuple(batch_sizes) + tuple(data.shape), data.dtype).at[where].set(data, mode="drop")
    new_indices = fnp.broadcast_to(indices[:, n:], tuple(batch_sizes) + (nse, indices.shape[1] - n))
    return new_data, new_indices


def bcoo_update_layout(
    mat: BCOO, *, n_batch: int | None = None, n_dense: int | None = None, on_inefficient: str | None = "error"
) -> BCOO:
    """``mat`` with ``n_batch`` batch and ``n_dense`` dense dimensions (the same dense
    array).  Making sparse dimensions into batch or dense ones can store many more elements:
    that raises `SparseEfficiencyError` (``on_inefficient='error'``), warns (``'warn'``) or
    goes ahead (None), as in JAX.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> s = sparse.BCOO.fromdense(fnp.array([[0., 1.], [2., 0.]]), n_batch=1)
        >>> t = sparse.bcoo_update_layout(s, n_batch=0)
        >>> t, t.todense().tolist()
        (BCOO(float64[2, 2], nse=2), [[0.0, 1.0], [2.0, 0.0]])
    """
    if not isinstance(mat, BCOO):
        raise TypeError(f"bcoo_update_layout: expected a BCOO array; got {type(mat).__name__}")
    n_batch = mat.n_batch if n_batch is None else int(n_batch)
    n_dense = mat.n_dense if n_dense is None else int(n_dense)
    if on_inefficient not in ("error", "warn", None):
        raise ValueError(f"on_inefficent={on_inefficient!r}; expected one of ['error', 'warn', None].")
    if n_batch < 0:
        raise ValueError(f"n_batch must be non-negative; got {n_batch}")
    if n_dense < 0:
        raise ValueError(f"n_dense must be non-negative; got {n_dense}")
    if n_batch + n_dense > mat.ndim:
        raise ValueError(
            f"sum of n_batch={n_batch} and n_dense={n_dense} cannot be larger than mat.ndim={mat.ndim}."
        )
    shape = mat.shape
    if n_dense > mat.n_dense and any(d > 1 for d in shape[mat.ndim - n_dense : mat.ndim - mat.n_dense]):
        _complain(
            f"For matrix of shape {shape}, increasing n_dense from {mat.n_dense} to {n_dense} results in "
            "inefficient storage.",
            on_inefficient,
        )
    if n_batch > mat.n_batch and any(d > 1 for d in shape[mat.n_batch : n_batch]):
        _complain(
            f"For matrix of shape {shape}, increasing n_batch from {mat.n_batch} to {n_batch} results in "
            "inefficient storage.",
            on_inefficient,
        )
    cur_batch, cur_dense = mat.n_batch, mat.n_dense
    batch = shape[:cur_batch]
    data, indices = broadcast_batch(mat.data, batch), broadcast_batch(mat.indices, batch)
    if n_dense < cur_dense:
        n = cur_dense - n_dense
        data, indices = map_batch(lambda d, i: _dense_to_sparse(d, i, n), cur_batch + 1, (0, 0))(
            data, indices
        )
        merged = math.prod(data.shape[cur_batch : cur_batch + 2])
        data = data.reshape(data.shape[:cur_batch] + (merged,) + data.shape[cur_batch + 2 :])
        indices = indices.reshape(indices.shape[:cur_batch] + (merged, indices.shape[-1]))
        cur_dense = n_dense
    if n_batch < cur_batch:
        n = cur_batch - n_batch
        data, indices = map_batch(lambda d, i: _batch_to_sparse(d, i, n), n_batch, (0, 0))(data, indices)
        cur_batch = n_batch
    if n_dense > cur_dense:
        n = n_dense - cur_dense
        dense_shape = shape[len(shape) - n_dense :]
        data, indices = map_batch(lambda d, i: _sparse_to_dense(d, i, n, dense_shape), cur_batch + 1, (0, 0))(
            data, indices
        )
        cur_dense = n_dense
    if n_batch > cur_batch:
        n = n_batch - cur_batch
        sizes = shape[cur_batch:n_batch]
        data, indices = map_batch(lambda d, i: _sparse_to_batch(d, i, n, sizes), cur_batch, (0, 0))(
            data, indices
        )
    return BCOO((data, indices), shape=shape)
