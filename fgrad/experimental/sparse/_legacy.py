"""The unbatched 2-D formats JAX kept from before BCOO: `COO` (``data, row, col``), `CSR`
(``data, indices, indptr`` by rows) and `CSC` (by columns), with ``coo_*``/``csr_*``
functions.  Padding is JAX's for these formats: index 0 with value 0.  Every product
goes through the equivalent BCOO array, so derivatives and transforms are BCOO's."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

import fgrad.numpy as fnp
from ...tree_util import register_pytree_node
from ._base import JAXSparse
from ._bcoo import BCOO
from ._convert import bcoo_todense, concrete_int
from ._dot import bcoo_matmul

__all__ = [
    "COO",
    "CSC",
    "CSR",
    "coo_fromdense",
    "coo_matmat",
    "coo_matvec",
    "coo_todense",
    "csr_fromdense",
    "csr_matmat",
    "csr_matvec",
    "csr_todense",
]


def _nonzeros(mat: Any, nse: int | None, index_dtype: Any, op: str) -> tuple[Any, Any, Any]:
    """Row-major nonzeros of a 2-D array padded to ``nse`` with index (0, 0) and value 0."""
    mat = fnp.asarray(mat)
    if mat.ndim != 2:
        raise ValueError(f"{op}: expected a 2-D array; got shape {tuple(mat.shape)}")
    mask = mat != 0
    nse = concrete_int(mask.sum() if nse is None else nse, op, "nse")
    found = fnp.argwhere(mask, size=nse, fill_value=0)
    valid = fnp.arange(nse) < mask.sum()
    row, col = found[:, 0].astype(index_dtype), found[:, 1].astype(index_dtype)
    data = fnp.where(valid, mat[found[:, 0], found[:, 1]], 0).astype(mat.dtype)
    row, col = fnp.where(valid, row, 0).astype(index_dtype), fnp.where(valid, col, 0).astype(index_dtype)
    return data, row, col


def _indptr(major: Any, n: int, count: Any, dtype: Any) -> Any:
    """Compressed pointers of sorted major indices; only the first ``count`` elements count."""
    valid = fnp.arange(major.shape[0]) < count
    counts = fnp.zeros((n + 1,), dtype).at[fnp.where(valid, major + 1, n + 1)].add(1, mode="drop")
    return fnp.cumsum(counts).astype(dtype)


def _expand(indptr: Any, nse: int, dtype: Any) -> Any:
    """The major index of each stored element; elements past ``indptr[-1]`` (padding, value
    0) belong to the last row or column, as in JAX (their gradients are JAX's too)."""
    pos = fnp.arange(nse, dtype=indptr.dtype)
    major = fnp.searchsorted(indptr, pos, side="right") - 1
    return fnp.clip(major, 0, indptr.shape[0] - 2).astype(dtype)


class _Legacy(JAXSparse):
    def to_bcoo(self) -> BCOO:  # pragma: no cover - each format defines it
        raise NotImplementedError

    def todense(self) -> Any:
        """The dense array."""
        return bcoo_todense(self.to_bcoo())

    def __matmul__(self, other: Any) -> Any:
        if isinstance(other, JAXSparse):
            raise NotImplementedError("matmul between two sparse objects.")
        return bcoo_matmul(self.to_bcoo(), fnp.asarray(other))

    def __rmatmul__(self, other: Any) -> Any:
        return bcoo_matmul(fnp.asarray(other), self.to_bcoo())

    def block_until_ready(self) -> "_Legacy":
        return self

    def __repr__(self) -> str:
        return f"{type(self).__name__}({np.dtype(self.dtype).name}{list(self.shape)}, nse={self.nse})"

    @property
    def nse(self) -> int:
        return int(self.data.shape[0])


class COO(_Legacy):
    """A 2-D coordinate-format sparse matrix: ``COO((data, row, col), shape=shape)``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> c = sparse.COO.fromdense(fnp.array([[0., 1.], [2., 0.]]))
        >>> c, c.row.tolist(), c.col.tolist(), (c @ fnp.ones(2)).tolist()
        (COO(float64[2, 2], nse=2), [0, 1], [1, 0], [1.0, 2.0])
    """

    def __init__(
        self,
        args: tuple[Any, Any, Any],
        *,
        shape: Sequence[int],
        rows_sorted: bool = False,
        cols_sorted: bool = False,
    ) -> None:
        data, row, col = args
        self.data, self.row, self.col = fnp.asarray(data), fnp.asarray(row), fnp.asarray(col)
        self.shape = tuple(int(n) for n in shape)
        self._rows_sorted, self._cols_sorted = bool(rows_sorted), bool(cols_sorted)
        if (
            len(self.shape) != 2
            or self.data.ndim != 1
            or self.row.shape != self.data.shape
            or self.col.shape != self.data.shape
        ):
            raise ValueError(
                f"COO: data, row and col must be 1-D of one length and shape 2-D; got "
                f"{tuple(self.data.shape)}, {tuple(self.row.shape)}, {tuple(self.col.shape)}, {self.shape}"
            )

    @classmethod
    def fromdense(cls, mat: Any, *, nse: int | None = None, index_dtype: Any = np.int32) -> "COO":
        """The nonzeros of a 2-D array (see `coo_fromdense`)."""
        return coo_fromdense(mat, nse=nse, index_dtype=index_dtype)

    def to_bcoo(self) -> BCOO:
        return BCOO((self.data, fnp.stack([self.row, self.col], axis=1)), shape=self.shape)

    def transpose(self, axes: Any = None) -> "COO":
        if axes is not None and tuple(axes) != (1, 0):
            raise NotImplementedError("axes argument to transpose()")
        return COO(
            (self.data, self.col, self.row),
            shape=self.shape[::-1],
            rows_sorted=self._cols_sorted,
            cols_sorted=self._rows_sorted,
        )

    def tree_flatten(self):
        return (self.data, self.row, self.col), {
            "shape": self.shape,
            "rows_sorted": self._rows_sorted,
            "cols_sorted": self._cols_sorted,
        }

    @classmethod
    def tree_unflatten(cls, aux: dict, children) -> "COO":
        obj = object.__new__(cls)
        obj.data, obj.row, obj.col = children
        obj.shape, obj._rows_sorted, obj._cols_sorted = aux["shape"], aux["rows_sorted"], aux["cols_sorted"]
        return obj


class CSR(_Legacy):
    """A 2-D compressed-sparse-row matrix: ``CSR((data, indices, indptr), shape=shape)``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> r = sparse.CSR.fromdense(fnp.array([[0., 1.], [2., 3.]]))
        >>> r.indices.tolist(), r.indptr.tolist(), (r @ fnp.ones(2)).tolist()
        ([1, 0, 1], [0, 1, 3], [1.0, 5.0])
    """

    _major = 0  # rows are compressed

    def __init__(self, args: tuple[Any, Any, Any], *, shape: Sequence[int]) -> None:
        data, indices, indptr = args
        self.data, self.indices, self.indptr = fnp.asarray(data), fnp.asarray(indices), fnp.asarray(indptr)
        self.shape = tuple(int(n) for n in shape)
        if len(self.shape) != 2 or tuple(self.indptr.shape) != (self.shape[self._major] + 1,):
            raise ValueError(
                f"{type(self).__name__}: indptr.shape={tuple(self.indptr.shape)} does not fit "
                f"shape={self.shape}"
            )

    @classmethod
    def fromdense(cls, mat: Any, *, nse: int | None = None, index_dtype: Any = np.int32) -> "CSR":
        """The nonzeros of a 2-D array, row by row (see `csr_fromdense`)."""
        data, row, col = _nonzeros(mat, nse, index_dtype, "csr_fromdense")
        count = (fnp.asarray(mat) != 0).sum()
        return cls(
            (data, col, _indptr(row, fnp.asarray(mat).shape[0], count, index_dtype)),
            shape=fnp.asarray(mat).shape,
        )

    def to_bcoo(self) -> BCOO:
        major = _expand(self.indptr, self.nse, self.indices.dtype)
        cols = (major, self.indices) if self._major == 0 else (self.indices, major)
        return BCOO((self.data, fnp.stack(cols, axis=1)), shape=self.shape)

    def transpose(self, axes: Any = None) -> "CSC":
        if axes is not None and tuple(axes) != (1, 0):
            raise NotImplementedError("axes argument to transpose()")
        return CSC((self.data, self.indices, self.indptr), shape=self.shape[::-1])

    def tree_flatten(self):
        return (self.data, self.indices, self.indptr), {"shape": self.shape}

    @classmethod
    def tree_unflatten(cls, aux: dict, children):
        obj = object.__new__(cls)
        obj.data, obj.indices, obj.indptr = children
        obj.shape = aux["shape"]
        return obj


class CSC(CSR):
    """A 2-D compressed-sparse-column matrix: ``CSC((data, indices, indptr), shape=shape)``
    (``indices`` are rows, ``indptr`` runs over columns).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> k = sparse.CSC.fromdense(fnp.array([[0., 1.], [2., 3.]]))
        >>> k.data.tolist(), k.indices.tolist(), k.indptr.tolist()
        ([2.0, 1.0, 3.0], [1, 0, 1], [0, 1, 3])
    """

    _major = 1  # columns are compressed

    @classmethod
    def fromdense(cls, mat: Any, *, nse: int | None = None, index_dtype: Any = np.int32) -> "CSC":
        """The nonzeros of a 2-D array, column by column."""
        mat = fnp.asarray(mat)
        return CSR.fromdense(mat.T, nse=nse, index_dtype=index_dtype).transpose()

    def transpose(self, axes: Any = None) -> CSR:
        if axes is not None and tuple(axes) != (1, 0):
            raise NotImplementedError("axes argument to transpose()")
        return CSR((self.data, self.indices, self.indptr), shape=self.shape[::-1])


for _cls in (COO, CSR, CSC):
    register_pytree_node(_cls, _cls.tree_flatten, _cls.tree_unflatten)


def coo_fromdense(mat: Any, *, nse: int | None = None, index_dtype: Any = np.int32) -> COO:
    """A `COO` matrix of a 2-D array's nonzeros (row-major; padding at (0, 0) with value 0).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> sparse.coo_fromdense(fnp.array([[0., 1.], [2., 0.]]), nse=3).row.tolist()
        [0, 1, 0]
    """
    data, row, col = _nonzeros(mat, nse, index_dtype, "coo_fromdense")
    return COO((data, row, col), shape=fnp.asarray(mat).shape, rows_sorted=True)


def coo_todense(mat: COO) -> Any:
    """The dense matrix of a `COO` matrix.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> sparse.coo_todense(sparse.COO.fromdense(fnp.eye(2))).tolist()
        [[1.0, 0.0], [0.0, 1.0]]
    """
    return mat.todense()


def _matprod(mat: _Legacy, other: Any, transpose: bool) -> Any:
    sp = mat.to_bcoo()
    return bcoo_matmul(sp.T if transpose else sp, fnp.asarray(other))


def coo_matvec(mat: COO, v: Any, transpose: bool = False) -> Any:
    """``mat @ v`` (``mat.T @ v`` with ``transpose``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> sparse.coo_matvec(sparse.COO.fromdense(fnp.array([[0., 1.], [2., 0.]])), fnp.ones(2)).tolist()
        [1.0, 2.0]
    """
    return _matprod(mat, v, transpose)


def coo_matmat(mat: COO, B: Any, *, transpose: bool = False) -> Any:  # noqa: N803 (JAX's name)
    """``mat @ B`` (``mat.T @ B`` with ``transpose``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> c = sparse.COO.fromdense(fnp.array([[0., 1.], [2., 0.]]))
        >>> sparse.coo_matmat(c, fnp.ones((2, 1)), transpose=True).tolist()
        [[2.0], [1.0]]
    """
    return _matprod(mat, B, transpose)


def csr_fromdense(mat: Any, *, nse: int | None = None, index_dtype: Any = np.int32) -> CSR:
    """A `CSR` matrix of a 2-D array's nonzeros.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> sparse.csr_fromdense(fnp.array([[0., 1.], [2., 0.]])).indptr.tolist()
        [0, 1, 2]
    """
    return CSR.fromdense(mat, nse=nse, index_dtype=index_dtype)


def csr_todense(mat: CSR) -> Any:
    """The dense matrix of a `CSR` matrix.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> sparse.csr_todense(sparse.CSR.fromdense(fnp.eye(2))).tolist()
        [[1.0, 0.0], [0.0, 1.0]]
    """
    return mat.todense()


def csr_matvec(mat: CSR, v: Any, transpose: bool = False) -> Any:
    """``mat @ v`` (``mat.T @ v`` with ``transpose``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> r = sparse.CSR.fromdense(fnp.array([[0., 1.], [2., 0.]]))
        >>> sparse.csr_matvec(r, fnp.array([1., 10.]), transpose=True).tolist()
        [20.0, 1.0]
    """
    return _matprod(mat, v, transpose)


def csr_matmat(mat: CSR, B: Any, *, transpose: bool = False) -> Any:  # noqa: N803 (JAX's name)
    """``mat @ B`` (``mat.T @ B`` with ``transpose``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> sparse.csr_matmat(sparse.CSR.fromdense(fnp.eye(2)), fnp.ones((2, 3))).shape
        (2, 3)
    """
    return _matprod(mat, B, transpose)
