"""Layout of a BCOO array's stored elements: `bcoo_sort_indices` (lexicographic order),
`bcoo_sum_duplicates` (one stored element per index, sorted, padding at the end) and
`bcoo_eliminate_zeros`.  Values move by gathers and scatter-adds, so gradients reach
``data``; the indices are integer bookkeeping."""

from __future__ import annotations

from typing import Any

import fgrad.numpy as fnp
from ._batching import broadcast_batch, map_batch
from ._bcoo import BCOO
from ._convert import concrete_int
from ._indices import first_occurrence, in_bounds, lexsort_indices

__all__ = ["bcoo_eliminate_zeros", "bcoo_sort_indices", "bcoo_sum_duplicates"]


def _check(mat: Any, op: str) -> None:
    if not isinstance(mat, BCOO):
        raise TypeError(f"{op}: expected a BCOO array; got {type(mat).__name__}")


def _sort_unbatched(data: Any, indices: Any) -> tuple[Any, Any]:
    perm = lexsort_indices(indices)
    return data[perm], indices[perm]


def bcoo_sort_indices(mat: BCOO) -> BCOO:
    """``mat`` with its stored elements in lexicographic order of their indices (stable).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> s = sparse.BCOO((fnp.array([1., 2.]), fnp.array([[1, 0], [0, 1]])), shape=(2, 2))
        >>> t = sparse.bcoo_sort_indices(s)
        >>> t.indices.tolist(), t.data.tolist(), t.indices_sorted
        ([[0, 1], [1, 0]], [2.0, 1.0], True)
    """
    _check(mat, "bcoo_sort_indices")
    if mat.n_sparse == 0:
        return mat
    batch = mat.shape[: mat.n_batch]
    data, indices = map_batch(_sort_unbatched, mat.n_batch, (0, 0))(
        broadcast_batch(mat.data, batch), broadcast_batch(mat.indices, batch)
    )
    return BCOO((data, indices), shape=mat.shape, indices_sorted=True, unique_indices=mat.unique_indices)


def _runs(indices: Any, sparse_shape: tuple[int, ...]) -> tuple[Any, Any, Any, Any]:
    """Padding-normalised indices, which are valid, each row's run id and the run count."""
    valid = in_bounds(indices, sparse_shape)
    pad = fnp.array(sparse_shape, dtype=indices.dtype)
    rows = fnp.where(valid[:, None], indices, pad)
    perm, new_run, run_id = first_occurrence(rows)
    n_runs = fnp.sum(new_run & valid[perm])
    return rows, valid, run_id, n_runs


def _sum_duplicates_unbatched(
    data: Any, indices: Any, *, sparse_shape: tuple[int, ...], nse: int
) -> tuple[Any, Any]:
    rows, _, target, _ = _runs(indices, sparse_shape)  # out-of-bound rows form the last run, as in JAX
    pad = fnp.array(sparse_shape, dtype=indices.dtype)
    out_indices = fnp.broadcast_to(pad, (nse, len(sparse_shape))).at[target].set(rows, mode="drop")
    out_data = fnp.zeros((nse,) + tuple(data.shape[1:]), data.dtype).at[target].add(data, mode="drop")
    return out_data, out_indices


def _count_unique(mat: BCOO) -> Any:
    sparse_shape = mat.shape[mat.n_batch : mat.n_batch + mat.n_sparse]
    count = map_batch(lambda i: _runs(i, sparse_shape)[3], mat.n_batch, (0,))(mat.indices)
    return count.max() if count.size else fnp.array(0)


def bcoo_sum_duplicates(mat: BCOO, nse: int | None = None) -> BCOO:
    """``mat`` with one stored element per distinct in-bound index (their values summed),
    sorted, followed by padding up to ``nse`` (default: the largest number of distinct
    indices, which needs concrete indices: pass ``nse`` under jit or vmap).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> s = sparse.BCOO((fnp.array([1., 2., 3.]), fnp.array([[1, 1], [0, 0], [1, 1]])), shape=(2, 2))
        >>> t = sparse.bcoo_sum_duplicates(s)
        >>> t.data.tolist(), t.indices.tolist()
        ([2.0, 4.0], [[0, 0], [1, 1]])
    """
    _check(mat, "bcoo_sum_duplicates")
    if nse is None:
        try:
            nse = int(_count_unique(mat))
        except Exception as e:  # a tracer: JAX's message
            if not isinstance(e, TypeError):
                raise
            raise ValueError(
                "bcoo_sum_duplicates: nse must be specified when using the function within jit, "
                "vmap, and other transformations requiring abstract evaluation."
            ) from None
    nse = concrete_int(nse, "bcoo_sum_duplicates", "nse")
    n_batch, n_sparse = mat.n_batch, mat.n_sparse
    sparse_shape = mat.shape[n_batch : n_batch + n_sparse]
    if n_sparse == 0:  # every stored element is at the one position: sum them
        data = mat.data.sum(n_batch, keepdims=True)
        if nse != 1:
            data = fnp.concatenate(
                [
                    data,
                    fnp.zeros(
                        data.shape[:n_batch] + (max(nse - 1, 0),) + data.shape[n_batch + 1 :], data.dtype
                    ),
                ],
                axis=n_batch,
            )
            data = data[(slice(None),) * n_batch + (slice(0, nse),)]
        indices = fnp.zeros(mat.indices.shape[:n_batch] + (nse, 0), mat.indices.dtype)
        return BCOO((data, indices), shape=mat.shape, indices_sorted=True, unique_indices=True)
    batch = mat.shape[:n_batch]
    fn = map_batch(
        lambda d, i: _sum_duplicates_unbatched(d, i, sparse_shape=sparse_shape, nse=nse), n_batch, (0, 0)
    )
    data, indices = fn(broadcast_batch(mat.data, batch), broadcast_batch(mat.indices, batch))
    return BCOO((data, indices), shape=mat.shape, indices_sorted=True, unique_indices=True)


def bcoo_eliminate_zeros(mat: BCOO, nse: int | None = None) -> BCOO:
    """``mat`` without its explicitly stored zeros (their indices become padding), then
    `bcoo_sum_duplicates` with ``nse``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> s = sparse.BCOO((fnp.array([0., 2.]), fnp.array([[0, 0], [1, 1]])), shape=(2, 2))
        >>> sparse.bcoo_eliminate_zeros(s).nse
        1
    """
    _check(mat, "bcoo_eliminate_zeros")
    n_batch, n_sparse = mat.n_batch, mat.n_sparse
    zero = mat.data == 0
    if mat.n_dense:
        zero = fnp.all(zero, axis=tuple(range(n_batch + 1, zero.ndim)))
    batch = mat.shape[:n_batch]
    pad = fnp.array(mat.shape[n_batch : n_batch + n_sparse], dtype=mat.indices.dtype)
    indices = fnp.where(broadcast_batch(zero, batch)[..., None], pad, broadcast_batch(mat.indices, batch))
    data = broadcast_batch(mat.data, batch)
    return bcoo_sum_duplicates(BCOO((data, indices), shape=mat.shape), nse=nse)
