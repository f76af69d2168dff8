"""`BCSR`: the batched compressed-sparse-row array of ``jax.experimental.sparse`` (the last
two non-dense dimensions are the rows and columns of each batch element's matrix).

``data (*batch, nse, *dense)``, ``indices (*batch, nse)`` (column of each stored
element) and ``indptr (*batch, rows + 1)`` (stored elements of row ``r`` are
``indptr[r]:indptr[r + 1]``; elements past ``indptr[-1]`` are padding).  A pytree of its
three buffers.  Operations go through the equivalent BCOO array (`to_bcoo`): the row of
each stored element comes from ``indptr`` by a sorted search, so gradients and transforms
are those of the BCOO operations.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

import fgrad.numpy as fnp
from ...tree_util import register_pytree_node
from ._base import JAXSparse
from ._batching import broadcast_batch, map_batch
from ._bcoo import BCOO
from ._convert import bcoo_extract, bcoo_fromdense, bcoo_todense
from ._dot import bcoo_dot_general, bcoo_matmul
from ._layout import bcoo_sum_duplicates

__all__ = [
    "BCSR",
    "bcsr_dot_general",
    "bcsr_extract",
    "bcsr_fromdense",
    "bcsr_sum_duplicates",
    "bcsr_todense",
]


def _rows_of(indptr: Any, nse: int, dtype: Any) -> Any:
    return (fnp.searchsorted(indptr, fnp.arange(nse, dtype=indptr.dtype), side="right") - 1).astype(dtype)


class BCSR(JAXSparse):
    """A batched compressed-sparse-row (BCSR) array: ``BCSR((data, indices, indptr),
    shape=shape)``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> b = sparse.BCSR.fromdense(fnp.array([[0., 1., 2.], [3., 0., 0.]]))
        >>> b, b.indices.tolist(), b.indptr.tolist()
        (BCSR(float64[2, 3], nse=3), [1, 2, 0], [0, 2, 3])
        >>> (b @ fnp.ones(3)).tolist()
        [3.0, 3.0]
    """

    def __init__(
        self,
        args: tuple[Any, Any, Any],
        *,
        shape: Sequence[int],
        indices_sorted: bool = False,
        unique_indices: bool = False,
    ) -> None:
        data, indices, indptr = args
        self.data, self.indices, self.indptr = fnp.asarray(data), fnp.asarray(indices), fnp.asarray(indptr)
        self.shape = tuple(int(n) for n in shape)
        self.indices_sorted, self.unique_indices = bool(indices_sorted), bool(unique_indices)
        n_batch = self.indices.ndim - 1
        if n_batch < 0 or len(self.shape) < n_batch + 2:
            raise ValueError(
                f"BCSR: invalid indices.shape={tuple(self.indices.shape)} for shape={self.shape}"
            )
        rows = self.shape[n_batch]
        if tuple(self.indptr.shape) != tuple(self.indices.shape[:-1]) + (rows + 1,):
            raise ValueError(
                f"BCSR: indptr.shape={tuple(self.indptr.shape)} must be (*batch, {rows + 1}) for "
                f"shape={self.shape} and indices.shape={tuple(self.indices.shape)}"
            )
        n_dense = len(self.shape) - n_batch - 2
        if tuple(self.data.shape) != tuple(self.indices.shape) + self.shape[len(self.shape) - n_dense :]:
            raise ValueError(
                f"BCSR: invalid data.shape={tuple(self.data.shape)} for indices.shape="
                f"{tuple(self.indices.shape)} and shape={self.shape}"
            )

    @property
    def n_batch(self) -> int:
        return self.indices.ndim - 1

    @property
    def n_sparse(self) -> int:
        return 2

    @property
    def n_dense(self) -> int:
        return self.data.ndim - 1 - self.n_batch

    @property
    def nse(self) -> int:
        return int(self.indices.shape[-1])

    def __repr__(self) -> str:
        extra = "".join(f", {k}={v}" for k, v in (("n_batch", self.n_batch), ("n_dense", self.n_dense)) if v)
        return f"BCSR({np.dtype(self.dtype).name}{list(self.shape)}, nse={self.nse}{extra})"

    # -- conversions -------------------------------------------------------------------
    def to_bcoo(self) -> BCOO:
        """The same array as BCOO (row indices recovered from ``indptr``)."""
        n_batch = self.n_batch
        batch = self.shape[:n_batch]
        nse = self.nse

        def rows_cols(indices, indptr):
            return fnp.stack([_rows_of(indptr, nse, indices.dtype), indices], axis=-1)

        coo = map_batch(rows_cols, n_batch, (0, 0))(
            broadcast_batch(self.indices, batch), broadcast_batch(self.indptr, batch)
        )
        return BCOO(
            (self.data, coo),
            shape=self.shape,
            indices_sorted=self.indices_sorted,
            unique_indices=self.unique_indices,
        )

    @classmethod
    def from_bcoo(cls, arr: BCOO) -> "BCSR":
        """A BCSR array from a BCOO array with two sparse dimensions (its stored elements
        sorted by row first).

        Example::

            >>> import fgrad.numpy as fnp
            >>> from fgrad.experimental import sparse
            >>> sparse.BCSR.from_bcoo(sparse.BCOO.fromdense(fnp.eye(2))).indptr.tolist()
            [0, 1, 2]
        """
        if arr.n_sparse != 2:
            raise ValueError(
                f"BCSR.from_bcoo: the BCOO array needs 2 sparse dimensions; got n_sparse={arr.n_sparse}"
            )
        if not arr.indices_sorted:
            arr = arr.sort_indices()
        n_batch = arr.n_batch
        rows = arr.shape[n_batch]
        batch = arr.shape[:n_batch]

        def compress(indices):
            row = fnp.where(indices[:, 0] < rows, indices[:, 0], rows)
            counts = fnp.zeros((rows + 1,), indices.dtype).at[row + 1].add(1, mode="drop")
            return indices[:, 1], fnp.cumsum(counts).astype(indices.dtype)

        cols, indptr = map_batch(compress, n_batch, (0,))(broadcast_batch(arr.indices, batch))
        return cls(
            (arr.data, cols, indptr), shape=arr.shape, indices_sorted=True, unique_indices=arr.unique_indices
        )

    @classmethod
    def fromdense(
        cls,
        mat: Any,
        *,
        nse: int | None = None,
        index_dtype: Any = np.int32,
        n_dense: int = 0,
        n_batch: int = 0,
    ) -> "BCSR":
        """A BCSR array of a dense array's nonzeros (see `bcsr_fromdense`).

        Example::

            >>> import fgrad.numpy as fnp
            >>> from fgrad.experimental import sparse
            >>> sparse.BCSR.fromdense(fnp.eye(2)).data.tolist()
            [1.0, 1.0]
        """
        return bcsr_fromdense(mat, nse=nse, index_dtype=index_dtype, n_dense=n_dense, n_batch=n_batch)

    def todense(self) -> Any:
        """The dense array."""
        return bcoo_todense(self.to_bcoo())

    def transpose(self, axes=None):
        raise NotImplementedError("BCSR.transpose is not implemented (as in JAX); use .to_bcoo().T")

    def sum_duplicates(self, nse: int | None = None, remove_zeros: bool = True) -> "BCSR":
        """Duplicate stored elements summed (through BCOO; explicit zeros dropped with
        ``remove_zeros``)."""
        return BCSR.from_bcoo(self.to_bcoo().sum_duplicates(nse=nse, remove_zeros=remove_zeros))

    def __matmul__(self, other: Any) -> Any:
        return bcoo_matmul(self.to_bcoo(), other.to_bcoo() if isinstance(other, BCSR) else other)

    def __rmatmul__(self, other: Any) -> Any:
        return bcoo_matmul(other, self.to_bcoo())

    def block_until_ready(self) -> "BCSR":
        return self

    # -- pytree ---------------------------------------------------------------------------
    def tree_flatten(self):
        return (self.data, self.indices, self.indptr), {
            "shape": self.shape,
            "indices_sorted": self.indices_sorted,
            "unique_indices": self.unique_indices,
            "n_batch": self.n_batch,
        }

    @classmethod
    def tree_unflatten(cls, aux: dict, children) -> "BCSR":
        obj = object.__new__(cls)
        obj.data, obj.indices, obj.indptr = children
        obj.indices_sorted, obj.unique_indices = aux["indices_sorted"], aux["unique_indices"]
        shape = aux["shape"]
        ind_shape = getattr(obj.indices, "shape", None)
        if isinstance(ind_shape, tuple) and ind_shape:
            delta = len(ind_shape) - 1 - aux["n_batch"]
            shape = shape[-delta:] if delta < 0 else tuple(ind_shape[:delta]) + shape
        obj.shape = shape
        return obj


register_pytree_node(BCSR, BCSR.tree_flatten, lambda aux, ch: BCSR.tree_unflatten(aux, ch))


def bcsr_fromdense(
    mat: Any, *, nse: int | None = None, n_batch: int = 0, n_dense: int = 0, index_dtype: Any = np.int32
) -> BCSR:
    """A BCSR array of a dense array's nonzeros, row by row, padded to ``nse``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> b = sparse.bcsr_fromdense(fnp.array([[0., 1.], [2., 3.]]), nse=4)
        >>> b.indices.tolist(), b.indptr.tolist()
        ([1, 0, 1, 2], [0, 1, 3])
    """
    mat = fnp.asarray(mat)
    if mat.ndim - n_batch - n_dense != 2:
        raise ValueError(
            f"bcsr_fromdense: BCSR needs exactly 2 sparse dimensions; got shape {tuple(mat.shape)} "
            f"with n_batch={n_batch}, n_dense={n_dense}"
        )
    return BCSR.from_bcoo(
        bcoo_fromdense(mat, nse=nse, n_batch=n_batch, n_dense=n_dense, index_dtype=index_dtype)
    )


def bcsr_todense(mat: BCSR) -> Any:
    """The dense array of a BCSR array.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> sparse.bcsr_todense(sparse.BCSR.fromdense(fnp.eye(2))).tolist()
        [[1.0, 0.0], [0.0, 1.0]]
    """
    return mat.todense()


def bcsr_dot_general(
    lhs: BCSR | Any,
    rhs: Any,
    *,
    dimension_numbers: Any,
    precision: Any = None,
    preferred_element_type: Any = None,
    out_sharding: Any = None,
) -> Any:
    """``lax.dot_general`` with a BCSR operand (computed through BCOO).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> b = sparse.BCSR.fromdense(fnp.array([[1., 0.], [0., 2.]]))
        >>> sparse.bcsr_dot_general(b, fnp.ones(2), dimension_numbers=(((1,), (0,)), ((), ()))).tolist()
        [1.0, 2.0]
    """
    lhs = lhs.to_bcoo() if isinstance(lhs, BCSR) else lhs
    rhs = rhs.to_bcoo() if isinstance(rhs, BCSR) else rhs
    return bcoo_dot_general(
        lhs,
        rhs,
        dimension_numbers=dimension_numbers,
        precision=precision,
        preferred_element_type=preferred_element_type,
    )


def bcsr_sum_duplicates(mat: BCSR, nse: int | None = None) -> BCSR:
    """A BCSR array with duplicate (row, column) entries summed (through BCOO).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> b = sparse.BCSR((fnp.array([1., 2.]), fnp.array([0, 0]), fnp.array([0, 2, 2])), shape=(2, 2))
        >>> sparse.bcsr_sum_duplicates(b).data.tolist()
        [3.0]
    """
    return BCSR.from_bcoo(bcoo_sum_duplicates(mat.to_bcoo(), nse=nse))


def bcsr_extract(indices: Any, indptr: Any, mat: Any) -> Any:
    """The values of the dense ``mat`` at the positions of a BCSR structure (``indices``,
    ``indptr``): the ``data`` of the BCSR array with that structure (padding gets 0).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> mat = fnp.array([[1., 2.], [3., 4.]])
        >>> sparse.bcsr_extract(fnp.array([1, 0]), fnp.array([0, 1, 2]), mat).tolist()
        [2.0, 3.0]
    """
    indices, indptr, mat = fnp.asarray(indices), fnp.asarray(indptr), fnp.asarray(mat)
    n_batch = indices.ndim - 1
    dense = tuple(mat.shape[n_batch + 2 :])
    structure = BCSR((fnp.zeros(tuple(indices.shape) + dense, mat.dtype), indices, indptr), shape=mat.shape)
    return bcoo_extract(structure.to_bcoo(), mat, assume_unique=True).data
