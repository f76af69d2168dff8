"""Shape operations on BCOO arrays that move no values between stored elements:
`bcoo_transpose` (permute the buffers' batch and dense axes and the index columns),
`bcoo_reshape` (batch, sparse and dense groups reshaped separately; sparse indices
re-raveled) and `bcoo_reduce_sum` (summed batch axes join the stored elements, summed
sparse axes drop their index column, summed dense axes sum ``data``)."""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

import fgrad.numpy as fnp
from ._batching import broadcast_batch
from ._bcoo import BCOO
from ._indices import in_bounds
from ._batching import map_batch

__all__ = ["bcoo_broadcast_in_dim", "bcoo_reduce_sum", "bcoo_reshape", "bcoo_squeeze", "bcoo_transpose"]


def _check(mat: Any, op: str) -> None:
    if not isinstance(mat, BCOO):
        raise TypeError(f"{op}: expected a BCOO array; got {type(mat).__name__}")


def _normalize_axes(axes: Sequence[int], ndim: int, op: str) -> tuple[int, ...]:
    out = []
    for a in axes:
        a = int(a)
        if not -ndim <= a < ndim:
            raise ValueError(f"{op}: axis {a} is out of bounds for an array of dimension {ndim}")
        out.append(a % ndim)
    return tuple(out)


# ---- transpose -------------------------------------------------------------------------------


def bcoo_transpose(mat: BCOO, *, permutation: Sequence[int]) -> BCOO:
    """The transpose of a BCOO array by ``permutation``; batch, sparse and dense axes may only
    be permuted among themselves (JAX's NotImplementedError otherwise).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> s = sparse.BCOO.fromdense(fnp.array([[0., 1., 2.], [0., 0., 3.]]))
        >>> sparse.bcoo_transpose(s, permutation=(1, 0)).todense().tolist()
        [[0.0, 0.0], [1.0, 0.0], [2.0, 3.0]]
    """
    _check(mat, "bcoo_transpose")
    if not isinstance(permutation, (tuple, list, np.ndarray)):
        raise TypeError(f"transpose permutation must be a tuple/list/ndarray, got {type(permutation)}.")
    perm = tuple(int(p) for p in permutation)
    if sorted(perm) != list(range(mat.ndim)):
        raise TypeError(
            "transpose permutation isn't a permutation of operand dimensions, "
            f"got permutation {perm} for shape {mat.shape}."
        )
    n_batch, n_sparse = mat.n_batch, mat.n_sparse
    batch_perm, sparse_perm, dense_perm = (
        perm[:n_batch],
        perm[n_batch : n_batch + n_sparse],
        perm[n_batch + n_sparse :],
    )
    if sorted(batch_perm) != list(range(n_batch)):
        raise NotImplementedError(
            "transpose permutation cannot permute batch axes with non-batch axes; "
            f"got permutation={perm}, with n_batch={n_batch}."
        )
    if sorted(dense_perm) != list(range(n_batch + n_sparse, mat.ndim)):
        raise NotImplementedError(
            "transpose permutation cannot permute dense axes with non-dense axes; "
            f"got permutation={perm}, with n_dense={mat.n_dense}."
        )
    columns = [p - n_batch for p in sparse_perm]
    data = fnp.transpose(mat.data, batch_perm + (n_batch,) + tuple(d - n_sparse + 1 for d in dense_perm))
    indices = fnp.transpose(mat.indices, batch_perm + (n_batch, n_batch + 1))
    if columns != list(range(n_sparse)):
        indices = indices[..., np.array(columns, dtype=np.int64)]
    shape = tuple(mat.shape[p] for p in perm)
    still_sorted = (
        mat.indices_sorted and columns == list(range(n_sparse)) and batch_perm == tuple(range(n_batch))
    )
    return BCOO((data, indices), shape=shape, indices_sorted=still_sorted, unique_indices=mat.unique_indices)


# ---- reduce_sum ------------------------------------------------------------------------------


def bcoo_reduce_sum(mat: BCOO, *, axes: Sequence[int]) -> BCOO:
    """Sum of a BCOO array over ``axes``: a BCOO array (duplicates may appear; call
    `bcoo_sum_duplicates` to merge them).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> s = sparse.BCOO.fromdense(fnp.array([[0., 1., 2.], [4., 0., 3.]]))
        >>> sparse.bcoo_reduce_sum(s, axes=(0,)).todense().tolist()
        [4.0, 1.0, 5.0]
    """
    _check(mat, "bcoo_reduce_sum")
    axes = tuple(sorted(set(_normalize_axes(axes, mat.ndim, "bcoo_reduce_sum"))))
    n_batch, n_sparse = mat.n_batch, mat.n_sparse
    batch = mat.shape[:n_batch]
    data = broadcast_batch(mat.data, batch)
    indices = broadcast_batch(mat.indices, batch)
    sparse_shape = mat.shape[n_batch : n_batch + n_sparse]
    # padding must stay padding after index columns are dropped: mark it in a kept column
    # (or, with no column left, zero its values)
    dense_axes = tuple(a for a in axes if a >= n_batch + n_sparse)
    if dense_axes:
        data = data.sum(tuple(a - n_sparse + 1 for a in dense_axes))
    sparse_axes = [a - n_batch for a in axes if n_batch <= a < n_batch + n_sparse]
    if sparse_axes:
        keep = [k for k in range(n_sparse) if k not in sparse_axes]
        valid = map_batch(lambda i: in_bounds(i, sparse_shape), n_batch, (0,))(indices)
        if keep:
            pad = fnp.array([sparse_shape[k] for k in keep], dtype=indices.dtype)
            indices = fnp.where(valid[..., None], indices[..., np.array(keep, dtype=np.int64)], pad)
        else:
            indices = indices[..., :0]
            data = fnp.where(valid.reshape(valid.shape + (1,) * (data.ndim - valid.ndim)), data, 0).astype(
                data.dtype
            )
    batch_axes = [a for a in axes if a < n_batch]
    if batch_axes:  # summed batch axes become more stored elements
        rest = [a for a in range(n_batch) if a not in batch_axes]
        order = tuple(rest) + tuple(batch_axes)
        data = fnp.transpose(data, order + tuple(range(n_batch, data.ndim)))
        indices = fnp.transpose(indices, order + tuple(range(n_batch, indices.ndim)))
        n_rest = len(rest)
        merged = math.prod(data.shape[n_rest : n_batch + 1])  # explicit: -1 is ambiguous for empty buffers
        data = data.reshape(data.shape[:n_rest] + (merged,) + data.shape[n_batch + 1 :])
        indices = indices.reshape(indices.shape[:n_rest] + (merged,) + indices.shape[n_batch + 1 :])
    shape = tuple(n for a, n in enumerate(mat.shape) if a not in axes)
    return BCOO((data, indices), shape=shape)


# ---- reshape ---------------------------------------------------------------------------------


def _split(sizes: Sequence[int], target: int, op: str, what: str) -> int:
    """The number of leading ``sizes`` whose product is ``target``."""
    prod = 1
    for k, n in enumerate(sizes):
        if prod == target:
            return k
        prod *= n
    if prod == target:
        return len(sizes)
    raise ValueError(f"{op}: new shape cannot mix {what} dimensions; got new_sizes={tuple(sizes)}")


def _ravel(indices: Any, shape: Sequence[int]) -> Any:
    flat = fnp.zeros(indices.shape[:-1], np.int64)
    for k, n in enumerate(shape):
        flat = flat * n + indices[..., k].astype(np.int64)
    return flat


def _unravel(flat: Any, shape: Sequence[int], dtype: Any) -> Any:
    cols = []
    for n in reversed(shape):
        cols.append(flat % n)
        flat = flat // n
    return fnp.stack(cols[::-1], axis=-1).astype(dtype) if cols else fnp.zeros(flat.shape + (0,), dtype)


def bcoo_reshape(mat: BCOO, *, new_sizes: Sequence[int], dimensions: Sequence[int] | None = None) -> BCOO:
    """A BCOO array reshaped to ``new_sizes`` (row-major); the new batch, sparse and dense
    dimensions must each reshape the old ones (JAX's ValueError otherwise).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> s = sparse.BCOO.fromdense(fnp.array([[0., 1., 2.], [4., 0., 3.]]))
        >>> sparse.bcoo_reshape(s, new_sizes=(3, 2)).todense().tolist()
        [[0.0, 1.0], [2.0, 4.0], [0.0, 3.0]]
    """
    _check(mat, "bcoo_reshape")
    if dimensions is not None:
        mat = bcoo_transpose(mat, permutation=dimensions)
    new_sizes = tuple(int(n) for n in new_sizes)
    if -1 in new_sizes:
        known = math.prod(n for n in new_sizes if n != -1)
        new_sizes = tuple(mat.size // known if n == -1 else n for n in new_sizes)
    if math.prod(new_sizes) != mat.size:
        raise TypeError(
            f"bcoo_reshape: cannot reshape array of shape {mat.shape} (size {mat.size}) into "
            f"shape {new_sizes}"
        )
    n_batch, n_sparse = mat.n_batch, mat.n_sparse
    old_batch, old_sparse = mat.shape[:n_batch], mat.shape[n_batch : n_batch + n_sparse]
    nb = _split(new_sizes, math.prod(old_batch), "bcoo_reshape", "batch and sparse")
    ns = _split(new_sizes[nb:], math.prod(old_sparse), "bcoo_reshape", "sparse and dense") if n_sparse else 0
    new_batch, new_sparse, new_dense = new_sizes[:nb], new_sizes[nb : nb + ns], new_sizes[nb + ns :]
    if n_batch and (
        tuple(mat.data.shape[:n_batch]) != old_batch or tuple(mat.indices.shape[:n_batch]) != old_batch
    ):
        if new_batch != old_batch:
            raise NotImplementedError("reshape of arrays with broadcasted batch dimensions.")
    data, indices = mat.data, mat.indices
    if new_batch != old_batch:
        data = data.reshape(new_batch + data.shape[n_batch:])
        indices = indices.reshape(new_batch + indices.shape[n_batch:])
    if new_sparse != old_sparse:
        valid = (
            map_batch(lambda i: in_bounds(i, old_sparse), len(new_batch), (0,))(
                broadcast_batch(indices, new_batch)
            )
            if new_batch
            else in_bounds(indices, old_sparse)
        )
        flat = _ravel(indices, old_sparse)
        new_idx = _unravel(flat, new_sparse, indices.dtype)
        pad = fnp.array(new_sparse, dtype=indices.dtype)
        indices = fnp.where(valid[..., None], new_idx, pad)
    nbd = len(new_batch)
    data = data.reshape(data.shape[: nbd + 1] + new_dense)
    sorted_ok = mat.indices_sorted and new_batch == old_batch
    return BCOO((data, indices), shape=new_sizes, indices_sorted=sorted_ok, unique_indices=mat.unique_indices)


def bcoo_squeeze(arr: BCOO, *, dimensions: Sequence[int]) -> BCOO:
    """``arr`` without the size-1 axes ``dimensions``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> s = sparse.BCOO.fromdense(fnp.array([[0., 1., 2.]]))
        >>> sparse.bcoo_squeeze(s, dimensions=(0,)).shape
        (3,)
    """
    _check(arr, "bcoo_squeeze")
    dims = _normalize_axes(dimensions, arr.ndim, "bcoo_squeeze")
    if any(arr.shape[d] != 1 for d in dims):
        raise ValueError(
            "cannot select an axis to squeeze out which has size not equal to one, "
            f"got shape={arr.shape} and dimensions={tuple(dimensions)}"
        )
    return bcoo_reshape(arr, new_sizes=tuple(n for a, n in enumerate(arr.shape) if a not in dims))


def bcoo_broadcast_in_dim(
    mat: BCOO, *, shape: Sequence[int], broadcast_dimensions: Sequence[int], sharding: Any = None
) -> BCOO:
    """``lax.broadcast_in_dim`` of a BCOO array: new leading dimensions become batch
    dimensions, new trailing ones (after a dense one) dense dimensions, and sparse dimensions
    may only gain axes of size 1 (JAX's rules and errors).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> s = sparse.BCOO.fromdense(fnp.array([0., 2., 0.]))
        >>> b = sparse.bcoo_broadcast_in_dim(s, shape=(2, 3), broadcast_dimensions=(1,))
        >>> b, b.todense().tolist()
        (BCOO(float64[2, 3], nse=1, n_batch=1), [[0.0, 2.0, 0.0], [0.0, 2.0, 0.0]])
    """
    _check(mat, "bcoo_broadcast_in_dim")
    shape = tuple(int(n) for n in shape)
    dims = tuple(int(d) for d in broadcast_dimensions)
    if len(dims) != mat.ndim:
        raise ValueError(
            f"spinfo.shape={mat.shape} and broadcast_dimensions={dims} must have the same length"
        )
    n_batch, n_sparse, n_dense, nse = mat.n_batch, mat.n_sparse, mat.n_dense, mat.nse
    batch_dims, sparse_dims, dense_dims = (
        dims[:n_batch],
        dims[n_batch : n_batch + n_sparse],
        dims[n_batch + n_sparse :],
    )
    if max(batch_dims, default=0) > min(sparse_dims, default=len(shape)):
        raise ValueError("Cannot mix batch and sparse dimensions during broadcast_in_dim")
    if max(sparse_dims, default=0) > min(dense_dims, default=len(shape)):
        raise ValueError("Cannot mix sparse and dense dimensions during broadcast_in_dim")
    new_batch = min(dims[n_batch:], default=len(shape))  # new axes before any sparse/dense one: batch
    new_dense = len(shape) - min(dense_dims) if n_dense else 0
    new_sparse = len(shape) - new_batch - new_dense
    if math.prod(mat.shape[n_batch : n_batch + n_sparse]) != math.prod(
        shape[new_batch : new_batch + new_sparse]
    ):
        raise NotImplementedError("Adding sparse dimensions with lengths != 1")
    data, indices = mat.data, mat.indices
    if (new_batch, new_dense) != (n_batch, n_dense):
        data = _broadcast_in_dim(
            data,
            shape[:new_batch] + (nse,) + shape[new_batch + new_sparse :],
            batch_dims + (new_batch,) + tuple(d + 1 - new_sparse for d in dense_dims),
        )
        indices = _broadcast_in_dim(
            indices, shape[:new_batch] + (nse, n_sparse), batch_dims + (new_batch, new_batch + 1)
        )
    if new_sparse != n_sparse:
        columns = [d - new_batch for d in sparse_dims]
        cols = [fnp.zeros(indices.shape[:-1], indices.dtype)] * new_sparse
        for k, c in enumerate(columns):
            cols[c] = indices[..., k]
        indices = fnp.stack(cols, axis=-1)
    return BCOO((data, indices), shape=shape)


def _broadcast_in_dim(x: Any, shape: tuple[int, ...], dims: tuple[int, ...]) -> Any:
    """``lax.broadcast_in_dim``: operand axis ``i`` becomes result axis ``dims[i]`` (size 1
    axes broadcast)."""
    expanded = x.reshape(tuple(x.shape[dims.index(a)] if a in dims else 1 for a in range(len(shape))))
    return fnp.broadcast_to(expanded, shape)
