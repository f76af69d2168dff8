"""Index bookkeeping shared by the BCOO ops (all traceable, for one unbatched array):
which stored elements are in bounds, their lexicographic order, and which are the first of
a run of equal indices."""

from __future__ import annotations

from typing import Any, Sequence

import fgrad.numpy as fnp

__all__ = ["first_occurrence", "in_bounds", "lexsort_indices"]


def in_bounds(indices: Any, sparse_shape: Sequence[int]) -> Any:
    """Boolean ``(nse,)``: the stored elements whose index lies inside ``sparse_shape``
    (padding has out-of-bound indices).

    Example::

        >>> import fgrad.numpy as fnp
        >>> in_bounds(fnp.array([[0, 1], [2, 0], [3, 4]]), (3, 4)).tolist()
        [True, True, False]
    """
    ok = fnp.ones(indices.shape[:1], dtype=bool)
    for k, n in enumerate(sparse_shape):
        ok = ok & (indices[:, k] >= 0) & (indices[:, k] < n)
    return ok


def lexsort_indices(indices: Any) -> Any:
    """The stable permutation that sorts the rows of ``indices (nse, n_sparse)``
    lexicographically (first column most significant).

    Example::

        >>> import fgrad.numpy as fnp
        >>> lexsort_indices(fnp.array([[1, 0], [0, 2], [0, 1]])).tolist()
        [2, 1, 0]
    """
    n_sparse = indices.shape[1]
    if n_sparse == 0:
        return fnp.arange(indices.shape[0])
    return fnp.lexsort(tuple(indices[:, k] for k in reversed(range(n_sparse))))


def first_occurrence(indices: Any) -> tuple[Any, Any, Any]:
    """For ``indices (nse, n_sparse)``: ``(perm, new_run, run_id)`` where ``perm`` sorts the
    rows, ``new_run[j]`` says sorted row ``j`` differs from the one before, and ``run_id[i]``
    numbers the distinct index of (unsorted) row ``i`` in sorted order.

    Example::

        >>> import fgrad.numpy as fnp
        >>> perm, new, run = first_occurrence(fnp.array([[1, 1], [0, 0], [1, 1]]))
        >>> perm.tolist(), new.tolist(), run.tolist()
        ([1, 0, 2], [True, True, False], [1, 0, 1])
    """
    nse = indices.shape[0]
    perm = lexsort_indices(indices)
    if nse == 0:
        return perm, fnp.zeros((0,), bool), fnp.zeros((0,), perm.dtype)
    rows = indices[perm]
    differs = fnp.any(rows[1:] != rows[:-1], axis=1) if indices.shape[1] else fnp.zeros((nse - 1,), bool)
    new_run = fnp.concatenate([fnp.ones((1,), bool), differs])
    run_sorted = fnp.cumsum(new_run.astype(perm.dtype)) - 1
    run_id = fnp.zeros((nse,), perm.dtype).at[perm].set(run_sorted)
    return perm, new_run, run_id
