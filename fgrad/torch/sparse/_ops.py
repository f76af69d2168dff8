"""Operations on sparse COO tensors, each written with dense shim ops on the values (so
autograd reaches the values): products with dense matrices (a gather of rows, a product and
an ``index_add`` segment sum), sums, softmax over the specified entries, addition (PyTorch's
merge of the two index lists), and products with scalars and tensors.

Example::

    >>> import fgrad.torch as torch
    >>> s = torch.sparse_coo_tensor([[0, 1], [1, 0]], [2.0, 3.0], (2, 2))
    >>> torch.sparse.mm(s, torch.ones(2, 1))
    tensor([[2.],
            [3.]])
"""

from __future__ import annotations

import numbers

import numpy as np

import fgrad.torch._dtypes as D
from .._ops_creation import tensor as _tensor, zeros as _zeros
from .._ops_shape import index_add as _index_add, index_put as _index_put, index_select as _index_select
from .._tensor import Tensor
from .._dispatch import apply_op as _apply_op
from ...ops import elementwise as ew
import fgrad.numpy as fnp
from ._coo import SparseTensor
from fgrad.torch.types import Dims, DType
from typing import Any

__all__ = ["addmm", "log_softmax", "mm", "softmax", "sparse_add", "sum"]


def _index(rows: np.ndarray, like: Tensor) -> Tensor:
    return _tensor(np.ascontiguousarray(rows, np.int64), dtype=D.int64, device=like.device)


def _check_matrix(s: SparseTensor, name: str) -> None:
    if s.sparse_dim() != 2 or s.dense_dim() != 0:
        raise RuntimeError(f"{name}: expected a 2-D sparse matrix (2 sparse and 0 dense dimensions), but got "
                           f"{s.sparse_dim()} sparse and {s.dense_dim()} dense dimensions")


def _check_dtypes(a: Tensor, b: Tensor) -> None:
    if a.dtype != b.dtype:
        raise RuntimeError(f"expected mat1 and mat2 to have the same dtype, but got: {a.dtype} != {b.dtype}")


def _sparse_dense(s: SparseTensor, d: Tensor) -> Tensor:
    """``s @ d``: ``out[r] += v * d[c]`` over the coalesced entries."""
    _check_matrix(s, "mm")
    if d.dim() != 2:
        raise RuntimeError(f"mm: expected a 2-D dense matrix as the second argument, got {d.dim()}-D")
    if s.shape[1] != d.shape[0]:
        raise RuntimeError(f"addmm: Argument #3 (dense): Expected dim 0 size {s.shape[1]}, got {d.shape[0]}")
    _check_dtypes(s, d)
    c = s.coalesce()
    vals = c._sp_val
    out = _zeros((s.shape[0], d.shape[1]), dtype=d.dtype, device=d.device)
    if c._nnz() == 0:
        return out + (d.sum() + vals.sum()) * 0
    rows = _index(c._sp_ind[0], d)
    cols = _index(c._sp_ind[1], d)

    def fn(v, dm, z, r, cc):  # out[r] += v * d[c]: one node, PyTorch's SparseAddmmBackward0
        prod = ew.mul(fnp.expand_dims(ew.convert_element_type(v, dm.dtype), 1), fnp.take(dm, cc, axis=0))
        return fnp._scatter(z, (r,), prod, "add")

    return _apply_op("SparseAddmmBackward0", ("sparse_mm",), fn, (vals, d, out._buf, rows._buf, cols._buf),
                     edges=(0, 1))


def _dense_sparse(d: Tensor, s: SparseTensor) -> Tensor:
    """``d @ s``: ``out[:, c] += d[:, r] * v`` over the coalesced entries."""
    _check_matrix(s, "mm")
    if d.dim() != 2:
        raise RuntimeError(f"mm: expected a 2-D dense matrix as the first argument, got {d.dim()}-D")
    if d.shape[1] != s.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({d.shape[0]}x{d.shape[1]} and "
                           f"{s.shape[0]}x{s.shape[1]})")
    _check_dtypes(d, s)
    c = s.coalesce()
    vals = c._sp_val
    out = _zeros((d.shape[0], s.shape[1]), dtype=d.dtype, device=d.device)
    if c._nnz() == 0:
        return out + (d.sum() + vals.sum()) * 0
    rows = _index(c._sp_ind[0], d)
    cols = _index(c._sp_ind[1], d)
    return _index_add(out, 1, cols, _index_select(d, 1, rows) * vals.unsqueeze(0))


def mm(mat1: Tensor, mat2: Tensor, reduce: str = "sum") -> Tensor:
    """The product of two matrices, at least one sparse: sparse @ dense and dense @ sparse
    give a dense tensor, sparse @ sparse a sparse one; differentiable in the sparse operand's
    values and in the dense operand.

    Example::

        >>> import fgrad.torch as torch
        >>> s = torch.sparse_coo_tensor([[0, 1, 1], [2, 0, 2]], [3.0, 4.0, 5.0], (2, 3))
        >>> torch.sparse.mm(s, torch.ones(3, 2))
        tensor([[3., 3.],
                [9., 9.]])
    """
    if reduce != "sum":
        raise RuntimeError(f"sparse.mm: reduce={reduce!r} is not supported by fgrad.torch (only 'sum')")
    a_sparse, b_sparse = isinstance(mat1, SparseTensor), isinstance(mat2, SparseTensor)
    if a_sparse and b_sparse:
        _check_matrix(mat2, "mm")
        return _sparse_dense(mat1, mat2.to_dense()).to_sparse()
    if a_sparse:
        return _sparse_dense(mat1, mat2)
    if b_sparse:
        return _dense_sparse(mat1, mat2)
    return mat1.mm(mat2)


def addmm(mat: Tensor, mat1: Tensor, mat2: Tensor, *, beta: float = 1.0, alpha: float = 1.0) -> Tensor:
    """``beta * mat + alpha * (mat1 @ mat2)`` with a sparse ``mat1`` (or ``mat2``).

    Example::

        >>> import fgrad.torch as torch
        >>> s = torch.sparse_coo_tensor([[0], [1]], [2.0], (2, 2))
        >>> torch.sparse.addmm(torch.ones(2, 2), s, torch.ones(2, 2), beta=0.5)
        tensor([[2.5000, 2.5000],
                [0.5000, 0.5000]])
    """
    prod = mm(mat1, mat2)
    if isinstance(prod, SparseTensor):
        prod = prod.to_dense()
    return mat * beta + prod * alpha if beta != 0 else prod * alpha + mat * 0


def _dims(dim, n: int) -> list:
    dims = [dim] if isinstance(dim, int) else list(dim)
    out = []
    for d in dims:
        if not -n <= d < n:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got "
                             f"{d})")
        out.append(d % n)
    if len(set(out)) != len(out):
        raise RuntimeError(f"sparse.sum: dim {dims} contains a repeated dimension")
    return sorted(out)


def sum(input: Tensor, dim: Dims = None, dtype: DType | None = None) -> Tensor:  # noqa: A001 (PyTorch's name)
    """The sum of a sparse tensor's entries: all of them (a dense scalar), or over ``dim``:
    a sparse tensor over the remaining sparse dimensions, or a dense one when every sparse
    dimension is summed.

    Example::

        >>> import fgrad.torch as torch
        >>> s = torch.sparse_coo_tensor([[0, 1, 1], [2, 0, 2]], [3.0, 4.0, 5.0], (2, 3))
        >>> torch.sparse.sum(s), torch.sparse.sum(s, dim=1).to_dense()
        (tensor(12.), tensor([3., 9.]))
    """
    if not isinstance(input, SparseTensor):
        return input.sum() if dim is None else input.sum(dim)
    s = input.coalesce()
    vals = s._sp_val if dtype is None else s._sp_val.to(dtype)
    if dim is None:
        return vals.sum()
    dims = _dims(dim, s.dim())
    k = s.sparse_dim()
    dense_dims = [d - k + 1 for d in dims if d >= k]
    if dense_dims:
        vals = vals.sum(dense_dims)
    keep = [d for d in range(k) if d not in dims]
    if not keep:
        return vals.sum(0)
    shape = [n for d, n in enumerate(s.shape) if d not in dims]
    ind = s._sp_ind[keep]
    return SparseTensor.make(ind, vals, shape, False).coalesce()


def _grouped_softmax(input: SparseTensor, dim: int, log: bool, dtype) -> SparseTensor:
    n = input.dim()
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got "
                         f"{dim})")
    dim %= n
    s = input.coalesce()
    vals = s._sp_val if dtype is None else s._sp_val.to(dtype)
    k = s.sparse_dim()
    if dim >= k:  # a dense dimension: the values' own softmax
        out = vals.log_softmax(dim - k + 1) if log else vals.softmax(dim - k + 1)
        return s._replace(s._sp_ind, out)
    if s._nnz() == 0:
        return s._replace(s._sp_ind, vals)
    others = [d for d in range(k) if d != dim]
    if others:
        key = np.ravel_multi_index(tuple(s._sp_ind[others]), tuple(s.shape[d] for d in others))
    else:
        key = np.zeros(s._nnz(), np.int64)
    groups, member = np.unique(key, return_inverse=True)
    member_t = _index(member.reshape(-1), vals)
    host = vals.detach().cpu().numpy()
    top = np.full((len(groups),) + host.shape[1:], -np.inf, host.dtype)
    np.maximum.at(top, member.reshape(-1), host)
    shift = _tensor(top, dtype=vals.dtype, device=vals.device)
    z = vals - _index_select(shift, 0, member_t)  # softmax is shift-invariant: the shift is a constant
    totals = _index_add(_zeros(tuple(top.shape), dtype=vals.dtype, device=vals.device), 0, member_t, z.exp())
    per_entry = _index_select(totals, 0, member_t)
    out = z - per_entry.log() if log else z.exp() / per_entry
    return s._replace(s._sp_ind, out)


def softmax(input: Tensor, dim: int, *, dtype: DType | None = None) -> Tensor:
    """Softmax over ``dim`` of the specified entries only (unspecified ones count as -inf,
    so they stay unspecified), as ``torch.sparse.softmax``.

    Example::

        >>> import fgrad.torch as torch
        >>> s = torch.sparse_coo_tensor([[0, 0, 1], [0, 2, 1]], [1.0, 1.0, 5.0], (2, 3))
        >>> torch.sparse.softmax(s, 1).to_dense()
        tensor([[0.5000, 0.0000, 0.5000],
                [0.0000, 1.0000, 0.0000]])
    """
    if not isinstance(input, SparseTensor):
        return input.softmax(dim, dtype=dtype)
    return _grouped_softmax(input, dim, False, dtype)


def log_softmax(input: Tensor, dim: int, *, dtype: DType | None = None) -> Tensor:
    """Log-softmax over ``dim`` of the specified entries only (see `softmax`).

    Example::

        >>> import fgrad.torch as torch
        >>> s = torch.sparse_coo_tensor([[0, 2]], [1.0, 1.0], (3,))
        >>> torch.sparse.log_softmax(s, 0)._values()
        tensor([-0.6931, -0.6931])
    """
    if not isinstance(input, SparseTensor):
        return input.log_softmax(dim, dtype=dtype)
    return _grouped_softmax(input, dim, True, dtype)


# -- addition and products -----------------------------------------------------------------------


def _merge(a_lin: np.ndarray, b_lin: np.ndarray) -> tuple:
    """PyTorch's merge of two index lists (each assumed sorted): equal heads are one output
    entry, otherwise the smaller head goes first; the rest of either list is appended.
    Returns (positions of a's entries, positions of b's entries, number of outputs, the
    output linear indices)."""
    pa = np.empty(len(a_lin), np.int64)
    pb = np.empty(len(b_lin), np.int64)
    out = []
    i = j = 0
    al, bl = a_lin.tolist(), b_lin.tolist()
    while i < len(al) and j < len(bl):
        if al[i] == bl[j]:
            pa[i] = pb[j] = len(out)
            out.append(al[i])
            i += 1
            j += 1
        elif al[i] < bl[j]:
            pa[i] = len(out)
            out.append(al[i])
            i += 1
        else:
            pb[j] = len(out)
            out.append(bl[j])
            j += 1
    for rest in range(i, len(al)):
        pa[rest] = len(out)
        out.append(al[rest])
    for rest in range(j, len(bl)):
        pb[rest] = len(out)
        out.append(bl[rest])
    return pa, pb, len(out), np.array(out, np.int64)


def _check_same_size(a: SparseTensor, b: SparseTensor, name: str) -> None:
    if a.shape != b.shape:
        raise RuntimeError(f"{name}: expected 'self' and 'other' to have same size, but self has size "
                           f"{list(a.shape)} while other has size {list(b.shape)} (FYI: dense-sparse "
                           f"addition does not currently support broadcasting)")
    if a.sparse_dim() != b.sparse_dim():
        raise RuntimeError(f"{name}: expected 'self' and 'other' to have the same sparse_dim, but got "
                           f"{a.sparse_dim()} and {b.sparse_dim()}")


def sparse_add(a: SparseTensor, b: SparseTensor, alpha=1) -> SparseTensor:
    """``a + alpha * b`` of two sparse tensors (PyTorch's merge; coalesced when both are)."""
    _check_same_size(a, b, "add")
    if b._nnz() == 0:
        return a.clone() if a.dtype == b.dtype else a.to(b.dtype)
    bv = b._sp_val * alpha if alpha != 1 else b._sp_val
    if a._nnz() == 0:
        return b._replace(b._sp_ind, bv)
    pa, pb, n, lin = _merge(a._linear_index(), b._linear_index())
    av = a._sp_val
    dt = D.promote_types(av.dtype, bv.dtype)
    base = _zeros((n,) + tuple(av.shape[1:]), dtype=dt, device=av.device)
    vals = _index_add(_index_add(base, 0, _index(pa, av), av.to(dt)), 0, _index(pb, av), bv.to(dt))
    sparse_shape = tuple(a.shape[: a.sparse_dim()])
    ind = np.stack(np.unravel_index(lin, sparse_shape)) if sparse_shape else np.zeros((0, n), np.int64)
    return SparseTensor.make(ind.astype(np.int64), vals, a.shape, a.is_coalesced() and b.is_coalesced())


def _add(self: SparseTensor, other: Tensor, *, alpha: int | float = 1) -> Any:
    if isinstance(other, SparseTensor):
        return sparse_add(self, other, alpha)
    if isinstance(other, Tensor):
        raise RuntimeError("add(sparse, dense) is not supported. Use add(dense, sparse) instead.")
    raise RuntimeError(f"add: a sparse tensor can only be added to a sparse tensor or to a dense tensor "
                       f"(dense + sparse), not to a {type(other).__name__}")


def _sub(self: SparseTensor, other: Tensor, *, alpha: int | float = 1) -> Any:
    if isinstance(other, SparseTensor):
        return sparse_add(self, other, -alpha)
    if isinstance(other, Tensor):
        raise RuntimeError("sub(sparse, dense) is not supported. Use sub(dense, sparse) instead.")
    raise RuntimeError(f"sub: cannot subtract a {type(other).__name__} from a sparse tensor")


def add_dense_sparse(dense: Tensor, s: SparseTensor, alpha=1) -> Tensor:
    """``dense + alpha * s`` (a dense tensor; each entry of ``s`` added in turn)."""
    if tuple(dense.shape) != tuple(s.shape):
        raise RuntimeError(f"add: expected 'self' and 'other' to have same size, but self has size "
                           f"{list(dense.shape)} while other has size {list(s.shape)} (FYI: dense-sparse "
                           f"addition does not currently support broadcasting)")
    if s._nnz() == 0:
        return dense.clone()
    vals = s._sp_val * alpha if alpha != 1 else s._sp_val
    index = tuple(_index(row, dense) for row in s._sp_ind)
    return _index_put(dense, index, vals.to(dense.dtype), accumulate=True)


def add_dense_sparse_(dense: Tensor, s: SparseTensor, alpha=1) -> Tensor:
    """In place: ``dense += alpha * s`` (what an optimizer step with a sparse gradient does)."""
    if s._nnz() == 0:
        return dense
    vals = s._sp_val * alpha if alpha != 1 else s._sp_val
    index = tuple(_index(row, dense) for row in s._sp_ind)
    return dense.index_put_(index, vals.to(dense.dtype), accumulate=True)


def _mul(self: SparseTensor, other: Tensor) -> Any:
    if isinstance(other, SparseTensor):
        _check_same_size(self, other, "mul")
        a, b = self.coalesce(), other.coalesce()
        common, ia, ib = np.intersect1d(a._linear_index(), b._linear_index(), assume_unique=True,
                                        return_indices=True)
        vals = _index_select(a._sp_val, 0, _index(ia, a._sp_val)) * _index_select(b._sp_val, 0,
                                                                                   _index(ib, a._sp_val))
        return SparseTensor.make(a._sp_ind[:, ia], vals, a.shape, True)
    if isinstance(other, Tensor) and other.dim() > 0:
        if tuple(other.shape) != tuple(self.shape):
            raise RuntimeError(f"mul(sparse, dense): expected the dense tensor to have the sparse tensor's "
                               f"size {list(self.shape)}, got {list(other.shape)}")
        c = self.coalesce()
        idx = tuple(_index(row, other) for row in c._sp_ind)
        return c._replace(c._sp_ind, c._sp_val * other[idx])
    if isinstance(other, (numbers.Number, Tensor)):
        return self._replace(self._sp_ind, self._sp_val * other)
    return NotImplemented


def _div(self: SparseTensor, other: Tensor) -> Any:
    if isinstance(other, SparseTensor) or (isinstance(other, Tensor) and other.dim() > 0):
        raise RuntimeError("div(sparse, tensor): only division by a scalar (or a 0-d tensor) is supported "
                           "for sparse tensors")
    if isinstance(other, (numbers.Number, Tensor)):
        return self._replace(self._sp_ind, self._sp_val / other)
    return NotImplemented


def _matmul(self: SparseTensor, other: Tensor) -> Any:
    if not isinstance(other, Tensor):
        return NotImplemented
    if other.dim() == 1 and not isinstance(other, SparseTensor):
        return mm(self, other.unsqueeze(1)).squeeze(1)
    return mm(self, other)


def _rmatmul(self: SparseTensor, other):
    if not isinstance(other, Tensor):
        return NotImplemented
    if other.dim() == 1:
        return mm(other.unsqueeze(0), self).squeeze(0)
    return mm(other, self)


def _radd(self: SparseTensor, other):
    if isinstance(other, Tensor):
        return add_dense_sparse(other, self)
    return NotImplemented


def _rsub(self: SparseTensor, other):
    if isinstance(other, Tensor):
        return add_dense_sparse(other, self, -1)
    return NotImplemented


def _sum_method(self: SparseTensor, dim: Dims = None, keepdim: bool = False,
                dtype: DType | None = None) -> Any:
    if keepdim:
        raise RuntimeError("sum: keepdim=True is not supported for sparse tensors")
    return sum(self, dim, dtype)


def _inplace(name: str, fn):
    def method(self: SparseTensor, *args: Any, **kwargs: Any) -> Any:
        r = fn(self, *args, **kwargs)
        if r is NotImplemented:
            raise RuntimeError(f"{name}: unsupported operand for a sparse tensor")
        self.__dict__.update({k: r.__dict__[k] for k in ("_sp_ind", "_sp_val", "_sp_shape", "_sp_coal")})
        return self

    method.__name__ = name
    return method


for _name, _fn in {
    "add": _add, "__add__": _add, "sub": _sub, "__sub__": _sub, "mul": _mul, "__mul__": _mul,
    "__rmul__": _mul, "div": _div, "__truediv__": _div, "mm": mm, "matmul": _matmul, "__matmul__": _matmul,
    "__rmatmul__": _rmatmul, "__radd__": _radd, "__rsub__": _rsub, "sum": _sum_method,
    "add_": _inplace("add_", _add), "sub_": _inplace("sub_", _sub), "mul_": _inplace("mul_", _mul),
    "div_": _inplace("div_", _div),
}.items():
    setattr(SparseTensor, _name, _fn)
