"""Sparse CSR matrices (``layout=torch.sparse_csr``), the basics: ``torch.sparse_csr_tensor``,
``Tensor.to_sparse_csr()`` / ``to_sparse(layout=torch.sparse_csr)``, ``crow_indices()``,
``col_indices()``, ``values()``, ``is_sparse_csr``, ``to_dense()``, ``to_sparse()`` (COO) and
the products with a dense operand.

A CSR matrix is a coalesced COO `SparseTensor` (row-major sorted, unique indices: the CSR
order) that answers with CSR's layout and compressed row pointers, so every product and
gradient is the COO one, written once; the values tensor is shared, so gradients reach the
values given to ``sparse_csr_tensor``.  Operations other than the conversions and products
return COO tensors.

Example::

    >>> import fgrad.torch as torch
    >>> s = torch.tensor([[0.0, 2.0], [3.0, 4.0]]).to_sparse_csr()
    >>> s.crow_indices(), s.col_indices()
    (tensor([0, 1, 3]), tensor([1, 0, 1]))
"""

from __future__ import annotations

from typing import Any

import numpy as np

import fgrad.torch._device as _dev
import fgrad.torch._dtypes as D
from .._ops_creation import tensor as _tensor
from .._tensor import Tensor
from ..autograd.grad_mode import no_grad
from fgrad.torch.types import Device, DType, Layout, SizeLike
from .._layout import sparse_csr
from ._coo import SparseTensor, sparse_coo, to_sparse as _to_sparse_coo



def _host_ints(x: Any, name: str) -> np.ndarray:
    if isinstance(x, Tensor):
        if x.is_floating_point() or x.is_complex():
            raise RuntimeError(f"{name} must be an int32 or int64 type, but got: {x.dtype}")
        return np.asarray(_dev.to_host(x.detach()._buf)).astype(np.int64)
    return np.asarray(x, np.int64)


class SparseCsrTensor(SparseTensor):
    """A 2-D sparse CSR matrix: made by ``torch.sparse_csr_tensor`` or
    ``Tensor.to_sparse_csr()``; stored as its coalesced COO form.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.eye(2).to_sparse_csr().values()
        tensor([1., 1.])
    """

    @staticmethod
    def from_coo(coo: SparseTensor) -> "SparseCsrTensor":
        coo = coo.coalesce()
        s = object.__new__(SparseCsrTensor)
        Tensor._vc.__set__(s, None)
        s.__dict__.update({k: coo.__dict__[k] for k in ("_sp_ind", "_sp_val", "_sp_shape", "_sp_coal")})
        return s

    @property
    def is_sparse(self) -> bool:
        return False

    @property
    def is_sparse_csr(self) -> bool:
        return True

    @property
    def layout(self) -> Any:
        return sparse_csr

    def crow_indices(self) -> Tensor:
        """The compressed row pointers (``nrows + 1``, int64)."""
        counts = np.bincount(self._sp_ind[0], minlength=self._sp_shape[0])
        return _tensor(np.concatenate([[0], np.cumsum(counts)]).astype(np.int64), dtype=D.int64)

    def col_indices(self) -> Tensor:
        """The column of each stored value (int64)."""
        return _tensor(self._sp_ind[1].copy(), dtype=D.int64)

    def values(self) -> Tensor:
        return self._sp_val

    def indices(self) -> Tensor:
        raise RuntimeError("indices expected sparse coordinate tensor layout but got SparseCsr")

    def _indices(self) -> Tensor:
        raise RuntimeError("_indices expected sparse coordinate tensor layout but got SparseCsr")

    def to_sparse(self, sparse_dim: int | None = None, *, layout: Layout | None = None,
                  blocksize: Any = None, dense_dim: int | None = None) -> SparseTensor:
        if layout is sparse_csr:
            return self
        return SparseTensor.make(self._sp_ind, self._sp_val, self._sp_shape, True).to_sparse(
            sparse_dim, layout=layout)

    def to_sparse_coo(self) -> SparseTensor:
        return SparseTensor.make(self._sp_ind, self._sp_val, self._sp_shape, True)

    def to_sparse_csr(self, dense_dim: int | None = None) -> "SparseCsrTensor":
        return self

    # the copies that keep the sparsity pattern keep the CSR layout (as PyTorch)
    def detach(self) -> "SparseCsrTensor":
        return SparseCsrTensor.from_coo(self.to_sparse_coo().detach())

    def clone(self, *, memory_format: Any = None) -> "SparseCsrTensor":
        return SparseCsrTensor.from_coo(self.to_sparse_coo().clone())

    def to(self, *args: Any, **kwargs: Any) -> "SparseCsrTensor":
        return SparseCsrTensor.from_coo(self.to_sparse_coo().to(*args, **kwargs))

    def __repr__(self, *, tensor_contents: Any = None) -> str:
        with no_grad():
            crow = repr(self.crow_indices())
            col = repr(self.col_indices())
            vals = repr(self._sp_val.detach())
        fields = [f"size={tuple(self._sp_shape)}", f"nnz={self._nnz()}"]
        if self.dtype not in (D.get_default_dtype(), D.int64, D.bool_):
            vals = vals.replace(f", dtype={self.dtype}", "")
            fields.append(f"dtype={self.dtype}")
        fields.append("layout=torch.sparse_csr")
        if self._sp_val.grad_fn is not None:
            fields.append(f"grad_fn=<{type(self._sp_val.grad_fn).__name__}>")
        elif self._sp_val.requires_grad:
            fields.append("requires_grad=True")
        text = f"tensor(crow_indices={crow},\n       col_indices={col},\n       values={vals}"
        last = len(text) - text.rfind("\n") + 1
        for field in fields:  # PyTorch's _add_suffixes: wrap at 80 columns, indent 7
            if last + len(field) + 2 > 80:
                text += ",\n       " + field
                last = 7 + len(field)
            else:
                text += ", " + field
                last += len(field) + 2
        return text + ")"

    __str__ = __repr__


def sparse_csr_tensor(crow_indices: Any, col_indices: Any, values: Any, size: SizeLike | None = None, *,
                      dtype: DType | None = None, device: Device = None, pin_memory: bool = False,
                      requires_grad: bool = False, check_invariants: bool | None = None) -> SparseCsrTensor:
    """A sparse CSR matrix from its row pointers, column indices and values (``size``
    defaults to ``(len(crow_indices) - 1, max(col_indices) + 1)``).  The invariants are
    always checked (PyTorch checks them only with ``check_invariants=True``), with PyTorch's
    messages; the values keep their autograd history.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.sparse_csr_tensor(torch.tensor([0, 1, 3]), torch.tensor([1, 0, 2]),
        ...                         torch.tensor([2.0, 1.0, 3.0]), (2, 3)).to_dense()
        tensor([[0., 2., 0.],
                [1., 0., 3.]])
    """
    crow = _host_ints(crow_indices, "crow_indices")
    col = _host_ints(col_indices, "col_indices")
    vals = values if isinstance(values, Tensor) else _tensor(values)
    if dtype is not None:
        vals = vals.to(dtype)
    if device is not None:
        vals = vals.to(device)
    if crow.ndim != 1 or col.ndim != 1 or vals.dim() != 1:
        raise RuntimeError("sparse_csr_tensor: fgrad.torch supports 2-D CSR matrices only (1-D "
                           "crow_indices, col_indices and values)")
    nnz = vals.shape[0]
    nrows = len(crow) - 1
    shape = (nrows, int(col.max()) + 1 if col.size else 0) if size is None else tuple(int(n) for n in size)
    if len(shape) != 2:
        raise RuntimeError(f"sparse_csr_tensor: fgrad.torch supports 2-D CSR matrices only, got size {shape}")
    if col.shape[0] != nnz:
        raise RuntimeError(f"col_indices.shape[-1] must be equal to nnz (={nnz}) as defined by "
                           f"values.shape[0], but got {col.shape[0]}")
    if len(crow) != shape[0] + 1:
        raise RuntimeError(f"crow_indices.shape[-1] must be equal to the number of rows + 1 "
                           f"(={shape[0] + 1}), but got {len(crow)}")
    if crow[0] != 0:
        raise RuntimeError("`crow_indices[..., 0] == 0` is not satisfied.")
    if crow[-1] != nnz:
        raise RuntimeError("`crow_indices[..., -1] == nnz` is not satisfied.")
    if np.any(np.diff(crow) < 0):
        raise RuntimeError("`0 <= crow_indices[..., 1:] - crow_indices[..., :-1] <= ncols` is not satisfied.")
    if col.size and (col.min() < 0 or col.max() >= shape[1]):
        raise RuntimeError("`0 <= col_indices < ncols` is not satisfied.")
    rows = np.repeat(np.arange(nrows), np.diff(crow))
    if np.any((np.diff(col) <= 0) & (np.diff(rows) == 0)):
        raise RuntimeError("`col_indices[..., crow_indices[..., i - 1]:crow_indices[..., i]] for all i = 1, "
                           "..., nrows are sorted and distinct along the last dimension values` is not "
                           "satisfied.")
    if requires_grad:
        vals = vals.detach().requires_grad_()
    return SparseCsrTensor.from_coo(SparseTensor.make(np.stack([rows, col]), vals, shape, True))


def to_sparse_csr(self: Tensor, dense_dim: int | None = None) -> SparseCsrTensor:
    """``Tensor.to_sparse_csr()``: a 2-D tensor's nonzero entries as a CSR matrix,
    differentiable in ``self``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.tensor([[0.0, 2.0], [3.0, 0.0]]).to_sparse_csr().crow_indices()
        tensor([0, 1, 2])
    """
    if isinstance(self, SparseCsrTensor):
        return self
    if dense_dim:
        raise RuntimeError("to_sparse_csr: dense dimensions are not supported by fgrad.torch")
    if self.dim() != 2:
        raise RuntimeError(f"to_sparse_csr: fgrad.torch supports 2-D tensors only (got {self.dim()}-D)")
    coo = self if isinstance(self, SparseTensor) else _to_sparse_coo(self)
    return SparseCsrTensor.from_coo(coo)


def layout_name(t: Tensor) -> str:
    """PyTorch's name of ``t``'s layout in its kernel errors: Strided, Sparse or SparseCsr."""
    if isinstance(t, SparseCsrTensor):
        return "SparseCsr"
    return "Sparse" if isinstance(t, SparseTensor) else "Strided"


def is_sparse_csr(self: Tensor) -> bool:
    return False


__all__ = ["SparseCsrTensor", "is_sparse_csr", "layout_name", "sparse_coo", "sparse_csr", "sparse_csr_tensor",
           "to_sparse_csr"]
