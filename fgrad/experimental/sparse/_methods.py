"""`BCOO`'s methods and operators (``todense``, ``T``, ``reshape``, ``sum``, ``@``, ``*``,
``+``, ...), attached to the container class here so that `_bcoo` stays free of the
operations; and the reflected operators of dense ``fgrad.Array`` with a sparse operand
(``dense @ sparse`` runs `BCOO.__rmatmul__`, as with JAX's arrays)."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

import fgrad.numpy as fnp
from ...core.array import Array
from ._base import JAXSparse
from ._bcoo import BCOO
from ._convert import bcoo_fromdense, bcoo_todense
from ._dot import bcoo_matmul
from ._elementwise import bcoo_map_data
from ._layout import bcoo_eliminate_zeros, bcoo_sort_indices, bcoo_sum_duplicates
from ._rules import apply_rule, densifying_error
from ._update_layout import bcoo_update_layout
from ._slicing import bcoo_getitem
from ._shape import bcoo_reshape, bcoo_transpose

__all__ = ["attach_bcoo_methods", "defer_dense_operators"]


def _fromdense(
    cls, mat: Any, *, nse: int | None = None, index_dtype: Any = np.int32, n_dense: int = 0, n_batch: int = 0
) -> BCOO:
    """``BCOO.fromdense(mat, nse=None, index_dtype=int32, n_dense=0, n_batch=0)``: see
    `bcoo_fromdense`.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> sparse.BCOO.fromdense(fnp.eye(3), n_batch=1)
        BCOO(float64[3, 3], nse=1, n_batch=1)
    """
    return bcoo_fromdense(mat, nse=nse, index_dtype=index_dtype, n_dense=n_dense, n_batch=n_batch)


def _from_scipy_sparse(cls, mat: Any, *, index_dtype: Any = None, n_dense: int = 0, n_batch: int = 0) -> BCOO:
    """``BCOO.from_scipy_sparse(mat)``: a BCOO array of a ``scipy.sparse`` matrix's stored
    elements (duplicates and order kept, as in JAX).

    Example::

        >>> import scipy.sparse
        >>> from fgrad.experimental import sparse
        >>> s = sparse.BCOO.from_scipy_sparse(scipy.sparse.eye(3, format="csr"))
        >>> s, s.todense().trace().item()
        (BCOO(float64[3, 3], nse=3), 3.0)
    """
    if n_dense != 0 or n_batch != 0:
        raise NotImplementedError("BCOO.fromscipy with nonzero n_dense/n_batch")
    coo = mat.tocoo()
    indices = np.column_stack((np.asarray(coo.row), np.asarray(coo.col))).astype(index_dtype or np.int32)
    return cls((fnp.asarray(np.asarray(coo.data)), fnp.asarray(indices)), shape=coo.shape)


def _sum_duplicates(self: BCOO, nse: int | None = None, remove_zeros: bool = True) -> BCOO:
    """``BCOO.sum_duplicates``: duplicates summed and indices sorted; with ``remove_zeros``
    (the default, as in JAX) explicitly stored zeros are dropped first.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> s = sparse.BCOO((fnp.array([0., 2., 1.]), fnp.array([[0], [1], [1]])), shape=(2,))
        >>> s.sum_duplicates().nse, s.sum_duplicates(remove_zeros=False).nse
        (1, 2)
    """
    if remove_zeros:
        return bcoo_eliminate_zeros(self, nse=nse)
    return bcoo_sum_duplicates(self, nse=nse)


def _transpose(self: BCOO, axes: Sequence[int] | None = None) -> BCOO:
    perm = tuple(range(self.ndim))[::-1] if axes is None else tuple(axes)
    return bcoo_transpose(self, permutation=perm)


def _reshape(self: BCOO, *args: Any, **kwargs: Any) -> BCOO:
    sizes = args[0] if len(args) == 1 and isinstance(args[0], (tuple, list)) else args
    sizes = kwargs.pop("new_sizes", kwargs.pop("shape", sizes))
    return bcoo_reshape(self, new_sizes=sizes, dimensions=kwargs.pop("dimensions", None))


def _sum(self: BCOO, axis: Any = None, **kwargs: Any) -> Any:
    if kwargs.get("keepdims"):
        raise NotImplementedError("BCOO.sum: keepdims=True is not supported for sparse arrays")
    axes = (
        tuple(range(self.ndim))
        if axis is None
        else ((axis,) if isinstance(axis, (int, np.integer)) else axis)
    )
    return apply_rule("reduce_sum", self, axes=tuple(int(a) % self.ndim for a in axes))


def _astype(self: BCOO, dtype: Any) -> BCOO:
    return bcoo_map_data(self, lambda d: d.astype(dtype))


def _binary(name: str, reflected: bool = False):
    def op(self: BCOO, other: Any) -> Any:
        if not isinstance(other, JAXSparse) and not hasattr(other, "shape"):
            other = other if isinstance(other, (int, float, complex, bool)) else fnp.asarray(other)
        if isinstance(other, JAXSparse) and not isinstance(other, BCOO):
            other = other.to_bcoo()
        return apply_rule(name, other, self) if reflected else apply_rule(name, self, other)

    op.__name__ = f"__{'r' if reflected else ''}{name}__"
    return op


def _matmul(self: BCOO, other: Any) -> Any:
    return bcoo_matmul(self, other if isinstance(other, JAXSparse) else fnp.asarray(other))


def _rmatmul(self: BCOO, other: Any) -> Any:
    return bcoo_matmul(fnp.asarray(other), self)


def _pow(self: BCOO, other: Any) -> Any:
    return apply_rule("pow", self, other)


def _compare(name: str):
    def op(self: BCOO, other: Any) -> Any:
        raise densifying_error(name)

    return op


def _getitem(self: BCOO, idx: Any) -> Any:
    raise NotImplementedError(
        "BCOO indexing (x[idx]) is not supported by fgrad yet: use bcoo_extract, "
        "sparse.todense(x)[idx], or bcoo_reshape/bcoo_transpose"
    )


def attach_bcoo_methods() -> None:
    """Give `BCOO` its methods and operators (run once, at import of the package).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> (2 * sparse.BCOO.fromdense(fnp.array([0., 1.]))).todense().tolist()
        [0.0, 2.0]
    """
    B = BCOO
    B.todense = bcoo_todense
    B.fromdense = classmethod(_fromdense)
    B.from_scipy_sparse = classmethod(_from_scipy_sparse)
    B.transpose = _transpose
    B.reshape = _reshape
    B.sum = _sum
    B.astype = _astype
    B.sum_duplicates = _sum_duplicates
    B.sort_indices = bcoo_sort_indices
    B.update_layout = lambda self, *, n_batch=None, n_dense=None, on_inefficient="error": bcoo_update_layout(
        self, n_batch=n_batch, n_dense=n_dense, on_inefficient=on_inefficient
    )
    B.block_until_ready = lambda self: self
    B.__matmul__, B.__rmatmul__ = _matmul, _rmatmul
    for name, dunder in (("mul", "mul"), ("add", "add"), ("sub", "sub"), ("div", "truediv")):
        setattr(B, f"__{dunder}__", _binary(name))
        setattr(B, f"__r{dunder}__", _binary(name, reflected=True))
    B.__pow__ = _pow
    B.__neg__ = lambda self: apply_rule("neg", self)
    B.__abs__ = lambda self: apply_rule("abs", self)
    B.__pos__ = lambda self: self
    for name, dunder in (("gt", "gt"), ("ge", "ge"), ("lt", "lt"), ("le", "le"), ("eq", "eq"), ("ne", "ne")):
        setattr(B, f"__{dunder}__", _compare(name))
    B.__hash__ = None
    B.__getitem__ = bcoo_getitem
    B.__iter__ = lambda self: (_ for _ in ()).throw(NotImplementedError("iteration over a BCOO array"))


def _deferring(method):
    def op(self, other):
        if isinstance(other, JAXSparse):
            return NotImplemented
        return method(self, other)

    op.__name__ = method.__name__
    op.__doc__ = method.__doc__
    return op


def defer_dense_operators() -> None:
    """Make ``fgrad.Array``'s binary operators return NotImplemented for a sparse operand,
    so Python calls the sparse array's reflected operator (``dense @ sparse``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> (fnp.array([1., 1.]) @ sparse.BCOO.fromdense(fnp.eye(2))).tolist()
        [1.0, 1.0]
    """
    for dunder in ("matmul", "mul", "add", "sub", "truediv"):
        name = f"__{dunder}__"
        method = getattr(Array, name)
        if not getattr(method, "_defers_to_sparse", False):
            wrapped = _deferring(method)
            wrapped._defers_to_sparse = True
            setattr(Array, name, wrapped)
