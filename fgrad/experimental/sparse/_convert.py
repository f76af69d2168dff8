"""Conversions between dense arrays and BCOO: `bcoo_todense` (a scatter-add of the stored
values, padding dropped), `bcoo_fromdense` (the nonzeros, padded to ``nse``) and
`bcoo_extract` (a dense array's values at a sparse array's indices).

Each is a composite of fgrad's indexing ops on one unbatched array, mapped over batch
dimensions: ``todense`` is linear in ``data`` (its transpose gathers the cotangent at the
indices), ``fromdense`` and ``extract`` are gathers (their transposes scatter), exactly the
derivatives JAX defines for its primitives.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import fgrad.numpy as fnp
from ...core.trace import ConcretizationError, ConcretizationTypeError
from ._batching import broadcast_batch, map_batch
from ._bcoo import BCOO
from ._indices import first_occurrence, in_bounds

__all__ = ["bcoo_extract", "bcoo_fromdense", "bcoo_todense", "concrete_int"]


def concrete_int(value: Any, op: str, arg: str) -> int:
    """``int(value)``, or JAX's ConcretizationTypeError naming ``arg`` when it is traced.

    Example::

        >>> import fgrad.numpy as fnp
        >>> concrete_int(fnp.array(3), "bcoo_fromdense", "nse")
        3
    """
    try:
        return int(value)
    except ConcretizationError:
        raise ConcretizationTypeError(
            f"Abstract tracer value encountered where concrete value is expected: the {arg} argument "
            f"of {op}. In order for {op}() to be used in traced/compiled code (jit, vmap, grad), you "
            f"must pass a concrete value to the {arg} (number of stored elements) argument."
        ) from None


# ---- todense ---------------------------------------------------------------------------------


def _todense_unbatched(data: Any, indices: Any, *, dense_shape: tuple[int, ...]) -> Any:
    n_sparse = indices.shape[1]
    if n_sparse == 0:
        return data.sum(0)
    out = fnp.zeros(dense_shape, data.dtype)
    return out.at[tuple(indices[:, k] for k in range(n_sparse))].add(data, mode="drop")


def bcoo_todense(mat: BCOO) -> Any:
    """The dense array of a BCOO array (duplicates summed, padding dropped).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> s = sparse.BCOO((fnp.array([1., 2., 5.]), fnp.array([[0], [2], [0]])), shape=(3,))
        >>> sparse.bcoo_todense(s)
        Array([6., 0., 2.], dtype=float64)
    """
    if not isinstance(mat, BCOO):
        raise TypeError(f"bcoo_todense: expected a BCOO array; got {type(mat).__name__}")
    n_batch = mat.n_batch
    batch = mat.shape[:n_batch]
    fn = map_batch(lambda d, i: _todense_unbatched(d, i, dense_shape=mat.shape[n_batch:]), n_batch, (0, 0))
    return fn(broadcast_batch(mat.data, batch), broadcast_batch(mat.indices, batch))


# ---- fromdense -------------------------------------------------------------------------------


def _nonzero_mask(mat: Any, n_dense: int) -> Any:
    mask = mat != 0
    if n_dense:
        mask = fnp.any(mask, axis=tuple(range(mask.ndim - n_dense, mask.ndim)))
    return mask


def _fromdense_unbatched(mat: Any, *, nse: int, n_dense: int, index_dtype: Any) -> tuple[Any, Any]:
    n_sparse = mat.ndim - n_dense
    sparse_shape = mat.shape[:n_sparse]
    if n_sparse == 0:  # one stored element: the whole (dense) array, then padding
        data = fnp.concatenate([mat[None], fnp.zeros((max(nse - 1, 0),) + mat.shape, mat.dtype)])[:nse]
        return data, fnp.zeros((nse, 0), index_dtype)
    mask = _nonzero_mask(mat, n_dense)
    found = fnp.argwhere(mask, size=nse, fill_value=0)
    valid = fnp.arange(nse) < mask.sum()
    where = tuple(found[:, k] for k in range(n_sparse))
    data = fnp.where(valid.reshape((nse,) + (1,) * n_dense), mat[where], 0).astype(mat.dtype)
    pad = fnp.array(sparse_shape, dtype=index_dtype)
    indices = fnp.where(valid[:, None], found.astype(index_dtype), pad)
    return data, indices


def bcoo_fromdense(
    mat: Any, *, nse: int | None = None, n_batch: int = 0, n_dense: int = 0, index_dtype: Any = np.int32
) -> BCOO:
    """A BCOO array of a dense array's nonzeros (row-major order), padded to ``nse`` stored
    elements per batch element with zeros at out-of-bound indices.  Without ``nse`` it is
    the largest count of nonzeros, which needs a concrete array (pass ``nse`` under jit).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> s = sparse.bcoo_fromdense(fnp.array([[0., 1.], [2., 0.]]), nse=3)
        >>> s.data, s.indices.tolist()
        (Array([1., 2., 0.], dtype=float64), [[0, 1], [1, 0], [2, 2]])
    """
    mat = fnp.asarray(mat)
    n_batch, n_dense = int(n_batch), int(n_dense)
    if n_batch < 0 or n_dense < 0 or n_batch + n_dense > mat.ndim:
        raise ValueError(
            f"bcoo_fromdense: n_batch={n_batch} and n_dense={n_dense} must be non-negative and "
            f"sum to at most mat.ndim={mat.ndim} (shape {mat.shape})"
        )
    n_sparse = mat.ndim - n_batch - n_dense
    if nse is None and n_sparse == 0:
        nse = 1
    elif nse is None:
        mask = _nonzero_mask(mat, n_dense)
        counts = mask.sum(axis=tuple(range(n_batch, mask.ndim)))
        nse = concrete_int(counts.max(), "bcoo_fromdense", "nse") if counts.size else 0
    nse = concrete_int(nse, "bcoo_fromdense", "nse")
    fn = map_batch(
        lambda m: _fromdense_unbatched(m, nse=nse, n_dense=n_dense, index_dtype=index_dtype), n_batch, (0,)
    )
    data, indices = fn(mat)
    return BCOO((data, indices), shape=mat.shape, indices_sorted=True, unique_indices=True)


# ---- extract ---------------------------------------------------------------------------------


def _extract_unbatched(indices: Any, arr: Any, *, assume_unique: bool) -> Any:
    n_sparse = indices.shape[1]
    nse = indices.shape[0]
    if n_sparse == 0:
        return fnp.broadcast_to(arr[None], (nse,) + arr.shape)
    where = tuple(indices[:, k] for k in range(n_sparse))
    values = arr.at[where].get(mode="fill", fill_value=0)
    if assume_unique:
        return values
    keep = in_bounds(indices, arr.shape[:n_sparse])
    if nse:
        perm, new_run, _ = first_occurrence(indices)
        keep = keep & fnp.zeros((nse,), bool).at[perm].set(new_run)
    return fnp.where(keep.reshape((nse,) + (1,) * (values.ndim - 1)), values, 0).astype(values.dtype)


def bcoo_extract(sparr: BCOO, arr: Any, *, assume_unique: bool | None = None) -> BCOO:
    """A BCOO array with ``sparr``'s indices and the values of the dense ``arr`` there.  With
    duplicate indices (``assume_unique=False``, the default unless ``sparr.unique_indices``),
    only the first of equal indices gets the value, so ``todense`` gives back the values of
    ``arr`` where ``sparr`` stores elements.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> s = sparse.BCOO.fromdense(fnp.array([[0., 1.], [1., 0.]]))
        >>> sparse.bcoo_extract(s, fnp.array([[10., 20.], [30., 40.]])).data
        Array([20., 30.], dtype=float64)
    """
    if not isinstance(sparr, BCOO):
        raise TypeError(
            f"First argument to bcoo_extract should be a BCOO array. Got type(sparr)={type(sparr)}"
        )
    arr = fnp.asarray(arr)
    if tuple(arr.shape) != sparr.shape:
        raise ValueError(f"shape mismatch: sparr.shape={sparr.shape} a.shape={tuple(arr.shape)}")
    unique = sparr.unique_indices if assume_unique is None else bool(assume_unique)
    n_batch = sparr.n_batch
    batch = sparr.shape[:n_batch]
    fn = map_batch(lambda i, a: _extract_unbatched(i, a, assume_unique=unique), n_batch, (0, 0))
    data = fn(broadcast_batch(sparr.indices, batch), arr)
    return BCOO(
        (data, sparr.indices),
        shape=sparr.shape,
        indices_sorted=sparr.indices_sorted,
        unique_indices=sparr.unique_indices,
    )
