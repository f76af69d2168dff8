"""Sparse COO tensors: `SparseTensor`, a ``torch.Tensor`` of layout ``torch.sparse_coo``.

A sparse tensor is a pair: ``indices`` (int64, ``sparse_dim x nnz``, kept on the host: they
are bookkeeping, as in PyTorch's CPU kernels) and ``values`` (an ordinary shim tensor of shape
``(nnz, *dense_shape)``).  Every computation on a sparse tensor is a dense shim op on its
values (gathers, ``index_add``, elementwise maps), so autograd, dtypes and devices come from
the dense ops: gradients reach the values, and a leaf sparse tensor's ``.grad`` is the sparse
tensor of its values' gradient.  A dense op that has no sparse rule raises PyTorch's
``NotImplementedError`` ("Could not run 'aten::exp' with arguments from the 'SparseCPU'
backend"), a ``RuntimeError``, instead of densifying silently.

Example::

    >>> import fgrad.torch as torch
    >>> s = torch.sparse_coo_tensor([[0, 1, 1], [2, 0, 2]], [3.0, 4.0, 5.0], (2, 3))
    >>> s.to_dense()
    tensor([[0., 0., 3.],
            [4., 0., 5.]])
"""

from __future__ import annotations

import sys

import numpy as np

import fgrad.torch._device as _dev
import fgrad.torch._dtypes as D
from .._device import DEV as _DEV
from .._ops_creation import tensor as _tensor, zeros as _zeros
from .._ops_shape import index_add as _index_add, index_put as _index_put
from .._tensor import Size, Tensor
from ..overrides import _disabled_torch_function_impl
from ..autograd.grad_mode import no_grad
from fgrad.torch.types import Device, DType, Layout, SizeLike
from .._layout import sparse_coo
from typing import Any
from collections.abc import Sequence
from fgrad.torch.types import memory_format

__all__ = ["SparseTensor", "sparse_coo", "sparse_coo_tensor", "to_sparse"]



def _op_name_from_stack() -> str:
    """The shim op that touched a sparse tensor's dense buffer: the outermost fgrad.torch
    frame (generated faces keep their torch name in a local ``name``, public entry points in
    ``op``)."""
    frame = sys._getframe(2)
    found = None
    while frame is not None:
        mod = frame.f_globals.get("__name__", "")
        if mod.startswith("fgrad.torch") and not mod.startswith("fgrad.torch.sparse"):
            found = frame
        elif found is not None:
            break
        frame = frame.f_back
    if found is None:
        return "this operator"
    local = found.f_locals.get("name")
    if not isinstance(local, str):  # public entry points (`_errors.public`) keep it in ``op``
        local = found.f_locals.get("op")
    name = local if isinstance(local, str) and local else found.f_code.co_name
    return name.strip("_") or "this operator"


class SparseTensor(Tensor):
    """A sparse COO tensor (``layout=torch.sparse_coo``): made by ``torch.sparse_coo_tensor``
    or ``Tensor.to_sparse()``; ``to_dense()`` turns it back.

    Example::

        >>> import fgrad.torch as torch
        >>> s = torch.tensor([[0.0, 2.0], [3.0, 0.0]]).to_sparse()
        >>> s.indices(), s.values()
        (tensor([[0, 1],
                [1, 0]]), tensor([2., 3.]))
    """

    __torch_function__ = _disabled_torch_function_impl  # as PyTorch: not a subclass override

    # -- construction (internal: `make`) ------------------------------------------------
    @staticmethod
    def make(indices: np.ndarray, values: Tensor, shape: Any, coalesced: bool) -> "SparseTensor":
        s = object.__new__(SparseTensor)
        Tensor._vc.__set__(s, None)
        s.__dict__["_sp_ind"] = np.ascontiguousarray(indices, np.int64)
        s.__dict__["_sp_val"] = values
        s.__dict__["_sp_shape"] = tuple(int(n) for n in shape)
        s.__dict__["_sp_coal"] = bool(coalesced) or indices.shape[1] <= 1
        return s

    def _replace(self, indices, values, shape=None, coalesced=None) -> "SparseTensor":
        """A new sparse tensor sharing this one's metadata defaults."""
        return SparseTensor.make(indices, values, self._sp_shape if shape is None else shape,
                                 self._sp_coal if coalesced is None else coalesced)

    # -- the dense buffer does not exist: dense ops raise PyTorch's error ----------------------
    @property
    def _buf(self):
        op = _op_name_from_stack()
        raise NotImplementedError(
            f"Could not run 'aten::{op}' with arguments from the 'Sparse{self._backend()}' backend. This "
            f"could be because the operator doesn't exist for this backend (fgrad.torch: call .to_dense() "
            f"first, or use the torch.sparse functions)")

    @_buf.setter
    def _buf(self, value) -> None:
        raise RuntimeError("set_: cannot set the data of a sparse tensor; build a new one with "
                           "torch.sparse_coo_tensor")

    def _backend(self) -> str:
        return "CUDA" if type(self._sp_val._buf) in _DEV else "CPU"

    # autograd state is the values' (a sparse tensor is a view of its values for autograd)
    @property
    def _rg(self):
        return self._sp_val._rg

    @_rg.setter
    def _rg(self, value) -> None:
        self._sp_val._rg = value

    @property
    def _gfn(self):
        return self._sp_val._gfn

    @_gfn.setter
    def _gfn(self, value) -> None:
        self._sp_val._gfn = value

    # -- metadata ------------------------------------------------------------------------
    @property
    def shape(self) -> Size:
        return Size(self._sp_shape)

    def size(self, dim: int | None = None) -> Any:
        if dim is None:
            return Size(self._sp_shape)
        n = len(self._sp_shape)
        if not -n <= dim < n:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got "
                             f"{dim})")
        return self._sp_shape[dim % n]

    @property
    def dtype(self) -> Any:
        return self._sp_val.dtype

    @property
    def device(self) -> Any:
        return self._sp_val.device

    @property
    def is_sparse(self) -> bool:
        return True

    @property
    def layout(self) -> Any:
        return sparse_coo

    def dim(self) -> int:
        return len(self._sp_shape)

    ndimension = dim

    @property
    def ndim(self) -> int:
        return len(self._sp_shape)

    def numel(self) -> int:
        return int(np.prod(self._sp_shape, dtype=np.int64))

    nelement = numel

    def element_size(self) -> int:
        return self._sp_val.element_size()

    def __len__(self) -> int:
        if not self._sp_shape:
            raise TypeError("len() of a 0-d tensor")
        return self._sp_shape[0]

    def is_floating_point(self) -> bool:
        return self._sp_val.is_floating_point()

    def is_complex(self) -> bool:
        return self._sp_val.is_complex()

    def is_signed(self) -> bool:
        return self._sp_val.is_signed()

    def get_device(self) -> int:
        return self._sp_val.get_device()

    @property
    def data(self) -> "SparseTensor":
        return self.detach()

    def __deepcopy__(self, memo) -> "SparseTensor":
        out = self._replace(self._sp_ind.copy(), self._sp_val.detach().clone())
        if self._sp_val.is_leaf and self._sp_val.requires_grad:
            out.requires_grad_(True)
        memo[id(self)] = out
        return out

    def sparse_dim(self) -> int:
        return int(self._sp_ind.shape[0])

    def dense_dim(self) -> int:
        return len(self._sp_shape) - self.sparse_dim()

    def _nnz(self) -> int:
        return int(self._sp_ind.shape[1])

    def is_coalesced(self) -> bool:
        return self._sp_coal

    def _coalesced_(self, coalesced: bool) -> "SparseTensor":
        self.__dict__["_sp_coal"] = bool(coalesced)
        return self

    def stride(self, dim: int | None = None) -> Any:
        raise RuntimeError("Cannot access strides of a sparse tensor (layout torch.sparse_coo)")

    def is_contiguous(self, memory_format: memory_format | None = None) -> bool:
        raise RuntimeError("is_contiguous: sparse tensors do not have is_contiguous")

    def numpy(self, *, force: bool = False) -> Any:
        raise TypeError("can't convert Sparse layout tensor to numpy. Use Tensor.to_dense() first.")

    def __array__(self, dtype=None, copy=None):
        return self.numpy()

    def tolist(self) -> Any:
        raise RuntimeError("tolist() is not supported for sparse tensors (layout torch.sparse_coo); call "
                           ".to_dense() first")

    def item(self) -> Any:
        if self.numel() != 1:
            raise RuntimeError(f"a Tensor with {self.numel()} elements cannot be converted to Scalar")
        return self.to_dense().item()

    # -- indices and values ----------------------------------------------------------------
    def _index_tensor(self) -> Tensor:
        t = _tensor(self._sp_ind, dtype=D.int64)
        return t if self._backend() == "CPU" else t.to(self.device)

    def _indices(self) -> Tensor:
        return self._index_tensor()

    def _values(self) -> Tensor:
        return self._sp_val

    def indices(self) -> Tensor:
        if not self._sp_coal:
            raise RuntimeError("Cannot get indices on an uncoalesced tensor, please call .coalesce() first")
        return self._index_tensor()

    def values(self) -> Tensor:
        if not self._sp_coal:
            raise RuntimeError("Cannot get values on an uncoalesced tensor, please call .coalesce() first")
        return self._sp_val

    # -- autograd ----------------------------------------------------------------------------
    @property
    def requires_grad(self) -> bool:
        return self._sp_val.requires_grad

    @requires_grad.setter
    def requires_grad(self, value) -> None:
        self.requires_grad_(bool(value))

    def requires_grad_(self, requires_grad: bool = True) -> "SparseTensor":
        self._sp_val.requires_grad_(requires_grad)
        return self

    @property
    def is_leaf(self) -> bool:
        return self._sp_val.is_leaf

    @property
    def grad_fn(self) -> Any:
        return self._sp_val.grad_fn

    @property
    def grad(self) -> Any:
        g = self._sp_val.grad
        if g is None:
            return None
        if not self._sp_coal:
            # the gradient is dL/dS at S's positions (PyTorch's): entries at one position all
            # carry it, so an uncoalesced leaf's gradient keeps one entry per position
            lin = self._linear_index()
            uniq, first = np.unique(lin, return_index=True)
            if len(uniq) < len(lin):
                keep = _tensor(first, dtype=D.int64, device=g.device)
                return self._replace(self._sp_ind[:, first], g[keep], coalesced=True)
        return self._replace(self._sp_ind, g)

    @grad.setter
    def grad(self, value) -> None:
        if value is not None:
            raise RuntimeError("fgrad.torch: only None can be assigned to the .grad of a sparse tensor")
        self._sp_val.grad = None

    def detach(self) -> "SparseTensor":
        return self._replace(self._sp_ind, self._sp_val.detach())

    def detach_(self) -> "SparseTensor":
        self._sp_val.detach_()
        return self

    def clone(self, *, memory_format: memory_format | None = None) -> "SparseTensor":
        return self._replace(self._sp_ind.copy(), self._sp_val.clone())

    # -- conversions -------------------------------------------------------------------------
    def to_dense(self, dtype: DType | None = None, *, masked_grad: Any = None) -> Tensor:
        """The dense tensor (duplicate entries summed), differentiable in the values."""
        vals = self._sp_val if dtype is None else self._sp_val.to(dtype)
        dense = _zeros(self._sp_shape, dtype=vals.dtype, device=vals.device)
        if self._nnz() == 0:
            return dense + vals.sum() * 0 if vals.requires_grad else dense
        index = tuple(_tensor(row, dtype=D.int64, device=vals.device) for row in self._sp_ind)
        return _index_put(dense, index, vals, accumulate=True)

    def to_sparse(self, sparse_dim: Any = None, *, layout: Any = None, blocksize: Any = None,
                  dense_dim: Any = None) -> "SparseTensor":
        if layout is not None and layout is not sparse_coo:
            raise RuntimeError(f"to_sparse: conversion to {layout} is not supported by fgrad.torch")
        if sparse_dim is not None and sparse_dim != self.sparse_dim():
            raise RuntimeError(f"to_sparse: conversion from Sparse to Sparse with sparse_dim argument !="
                               f" self.sparse_dim() is not supported (got {sparse_dim}, have "
                               f"{self.sparse_dim()})")
        return self

    def to_sparse_coo(self) -> "SparseTensor":
        return self

    def to(self, *args: Any, **kwargs: Any) -> "SparseTensor":
        return self._replace(self._sp_ind, self._sp_val.to(*args, **kwargs))

    def type(self, dtype: DType | None = None, non_blocking: bool = False, **kwargs: Any) -> Any:
        if dtype is None:
            return "torch.sparse." + self._sp_val.type().split(".")[-1]
        return self._replace(self._sp_ind, self._sp_val.type(dtype))

    def float(self) -> "SparseTensor":
        return self.to(D.float32)

    def double(self) -> "SparseTensor":
        return self.to(D.float64)

    def half(self) -> "SparseTensor":
        return self.to(D.float16)

    def long(self) -> "SparseTensor":
        return self.to(D.int64)

    def cpu(self) -> "SparseTensor":
        return self.to("cpu")

    def cuda(self, device: Device = None, non_blocking: bool = False) -> "SparseTensor":
        return self.to("cuda" if device is None else device)

    # -- coalescing --------------------------------------------------------------------------
    def _linear_index(self) -> np.ndarray:
        sparse_shape = self._sp_shape[: self.sparse_dim()]
        if self._nnz() == 0:
            return np.zeros(0, np.int64)
        return np.ravel_multi_index(tuple(self._sp_ind), sparse_shape) if sparse_shape else np.zeros(
            self._nnz(), np.int64)

    def coalesce(self) -> "SparseTensor":
        """Indices sorted (row-major) and unique, duplicate entries' values summed."""
        if self._sp_coal:
            return self
        lin = self._linear_index()
        uniq, first, inverse = np.unique(lin, return_index=True, return_inverse=True)
        vals = self._sp_val
        out = _zeros((len(uniq),) + tuple(vals.shape[1:]), dtype=vals.dtype, device=vals.device)
        inv = _tensor(inverse.reshape(-1), dtype=D.int64, device=vals.device)
        return self._replace(self._sp_ind[:, first], _index_add(out, 0, inv, vals), coalesced=True)

    # -- shape ---------------------------------------------------------------------------------
    def transpose(self, dim0: int, dim1: int) -> "SparseTensor":
        n = self.dim()
        d0, d1 = dim0 % n if n else 0, dim1 % n if n else 0
        k = self.sparse_dim()
        if (d0 < k) != (d1 < k):
            raise RuntimeError("transpose(): a sparse dim and a dense dim cannot be transposed")
        shape = list(self._sp_shape)
        shape[d0], shape[d1] = shape[d1], shape[d0]
        if d0 < k:
            ind = self._sp_ind.copy()
            ind[[d0, d1]] = ind[[d1, d0]]
            return self._replace(ind, self._sp_val, shape, coalesced=False if d0 != d1 else None)
        return self._replace(self._sp_ind, self._sp_val.transpose(d0 - k + 1, d1 - k + 1), shape)

    def transpose_(self, dim0: int, dim1: int) -> "SparseTensor":
        t = self.transpose(dim0, dim1)
        self.__dict__.update({k: t.__dict__[k] for k in ("_sp_ind", "_sp_val", "_sp_shape", "_sp_coal")})
        return self

    def t(self) -> "SparseTensor":
        if self.dim() > 2:
            raise RuntimeError(f"t() expects a tensor with <= 2 sparse and 0 dense dimensions, but got "
                               f"{self.sparse_dim()} sparse and {self.dense_dim()} dense dimensions")
        return self.transpose(0, 1) if self.dim() == 2 else self

    def t_(self) -> "SparseTensor":
        return self.transpose_(0, 1) if self.dim() == 2 else self

    @property
    def T(self) -> "SparseTensor":  # noqa: N802 (PyTorch's name)
        return self.t()

    # -- zero-preserving elementwise maps (on the values) ------------------------------------------
    def _map(self, fn) -> "SparseTensor":
        return self._replace(self._sp_ind, fn(self._sp_val))

    def __neg__(self) -> "SparseTensor":
        return self._map(lambda v: -v)

    neg = __neg__

    def abs(self) -> "SparseTensor":
        return self._map(lambda v: v.abs())

    def relu(self) -> "SparseTensor":
        return self._map(lambda v: v.relu())

    def sqrt(self) -> "SparseTensor":
        return self._map(lambda v: v.sqrt())

    def sin(self) -> "SparseTensor":
        return self._map(lambda v: v.sin())

    def tanh(self) -> "SparseTensor":
        return self._map(lambda v: v.tanh())

    def square(self) -> "SparseTensor":
        return self._map(lambda v: v * v)

    def pow(self, exponent: Any) -> "SparseTensor":
        if isinstance(exponent, Tensor) or not exponent > 0:
            raise RuntimeError(f"pow: a sparse tensor can only be raised to a positive scalar power, got "
                               f"{exponent!r}")
        return self._map(lambda v: v.pow(exponent))

    __pow__ = pow

    def zero_(self) -> "SparseTensor":
        vals = self._sp_val
        empty = _zeros((0,) + tuple(vals.shape[1:]), dtype=vals.dtype, device=vals.device)
        self.__dict__.update(_sp_ind=np.zeros((self.sparse_dim(), 0), np.int64), _sp_val=empty, _sp_coal=True)
        return self

    # -- printing ------------------------------------------------------------------------------
    def __repr__(self, *, tensor_contents=None) -> str:
        with no_grad():
            if self._nnz() == 0:  # PyTorch prints empty indices and values with their sizes
                ind = f"tensor([], size=({self.sparse_dim()}, 0))"
                vals = f"tensor([], size={(0,) + tuple(self._sp_shape[self.sparse_dim():])})"
            else:
                ind = repr(self._index_tensor().detach()).replace("\n", "\n" + " " * len("tensor(indices="))
                vals = repr(self._sp_val.detach()).replace("\n", "\n" + " " * len("       values="))
        if self.device.type == "cuda":
            ind = ind.replace(f", device='{self.device}'", "")
            vals = vals.replace(f", device='{self.device}'", "")
        fields = [f"size={tuple(self._sp_shape)}", f"nnz={self._nnz()}"]
        default = self.dtype in (D.get_default_dtype(), D.int64, D.bool_)
        if not default:
            vals = vals.replace(f", dtype={self.dtype}", "")
            fields.append(f"dtype={self.dtype}")
        if self.device.type == "cuda":
            fields.append(f"device='{self.device}'")
        fields.append("layout=torch.sparse_coo")
        tail = ""
        if self._sp_val.grad_fn is not None:
            tail = f"grad_fn=<{type(self._sp_val.grad_fn).__name__}>"
        elif self._sp_val.requires_grad:
            tail = "requires_grad=True"
        line = ", ".join(fields)
        text = f"tensor(indices={ind},\n       values={vals},\n       {line}"
        if tail:
            text += ",\n       " + tail if len(line) + len(tail) + 9 > 80 else ", " + tail
        return text + ")"

    __str__ = __repr__


# -- construction -------------------------------------------------------------------------------


def _as_index_array(indices) -> np.ndarray:
    if isinstance(indices, SparseTensor):
        raise TypeError("sparse_coo_tensor(): indices must be a dense tensor")
    if isinstance(indices, Tensor):
        ind = np.asarray(_dev.to_host(indices.detach()._buf))
    else:
        ind = np.asarray(indices)
    if ind.dtype.kind not in "iu":
        if ind.size == 0:
            ind = ind.astype(np.int64)
        else:
            raise RuntimeError(f"indices must be an int64 tensor, but got {ind.dtype}")
    return ind.astype(np.int64)


def sparse_coo_tensor(indices: Any, values: Any, size: SizeLike | None = None, *,
                      dtype: DType | None = None, device: Device = None, pin_memory: bool = False,
                      requires_grad: bool = False, check_invariants: bool | None = None,
                      is_coalesced: bool | None = None) -> SparseTensor:
    """A sparse COO tensor with entries ``values`` at ``indices`` (``sparse_dim x nnz``);
    ``size`` defaults to the smallest shape that holds the indices.  Duplicate indices are
    allowed (they sum); out-of-range or negative indices raise, whatever
    ``check_invariants`` says (PyTorch only checks them when asked).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.sparse_coo_tensor([[0, 2]], [1.0, 2.0], (4,))
        tensor(indices=tensor([[0, 2]]),
               values=tensor([1., 2.]),
               size=(4,), nnz=2, layout=torch.sparse_coo)
    """
    ind = _as_index_array(indices)
    if isinstance(values, Tensor):
        vals = values
        if dtype is not None or device is not None:
            vals = vals.to(dtype=dtype if dtype is not None else vals.dtype,
                           device=device if device is not None else vals.device)
    else:
        vals = _tensor(values, dtype=dtype, device=device)
    if ind.ndim != 2:
        raise RuntimeError(f"indices must be sparse_dim x nnz, but got: {list(ind.shape)}")
    if vals.dim() == 0:
        raise RuntimeError("values must be at least one-dimensional (nnz x dense dims), got a 0-d tensor")
    nnz = ind.shape[1]
    if vals.shape[0] != nnz:
        raise RuntimeError(f"indices and values must have same nnz, but got nnz from indices: {nnz}, "
                           f"nnz from values: {vals.shape[0]}")
    sparse_dim, dense_dim = ind.shape[0], vals.dim() - 1
    if size is None:
        top = ind.max(axis=1) + 1 if nnz else np.zeros(sparse_dim, np.int64)
        size = tuple(int(v) for v in top) + tuple(vals.shape[1:])
    size = tuple(int(n) for n in size)
    if len(size) != sparse_dim + dense_dim:
        raise RuntimeError(f"'len(size) == sparse_dim + dense_dim' is not satisfied: len(size) = "
                           f"{len(size)}, sparse_dim = {sparse_dim}, dense_dim = {dense_dim}")
    if tuple(vals.shape[1:]) != size[sparse_dim:]:
        raise RuntimeError(f"values has incorrect size, expected {[nnz] + list(size[sparse_dim:])}, got "
                           f"{list(vals.shape)}")
    if nnz:
        low, high = ind.min(axis=1), ind.max(axis=1)
        for d in range(sparse_dim):
            if low[d] < 0:
                raise RuntimeError(f"found negative index {low[d]} for dim {d}")
            if high[d] >= size[d]:
                raise RuntimeError(f"size is inconsistent with indices: for dim {d}, size is {size[d]} but "
                                   f"found index {high[d]}")
    if requires_grad:
        vals = vals.detach().requires_grad_(True)
    return SparseTensor.make(ind, vals, size, bool(is_coalesced))


def to_sparse(self: Tensor, sparse_dim: int | None = None, *, layout: Layout | None = None,
              blocksize: Sequence[int] | None = None, dense_dim: int | None = None) -> SparseTensor:
    """``Tensor.to_sparse()``: the nonzero entries (or, with ``sparse_dim``, the nonzero
    slices over the first ``sparse_dim`` dimensions) as a coalesced sparse COO tensor,
    differentiable in ``self``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.tensor([[0.0, 1.0], [2.0, 0.0]]).to_sparse()._nnz()
        2
    """
    if isinstance(self, SparseTensor):
        return self.to_sparse(sparse_dim, layout=layout)
    if layout is not None and layout is not sparse_coo:
        raise RuntimeError(f"to_sparse: conversion to {layout} is not supported by fgrad.torch (only "
                           "torch.sparse_coo)")
    k = self.dim() if sparse_dim is None else int(sparse_dim)
    if not 0 <= k <= self.dim():
        raise RuntimeError(f"sparse_dim argument must be in [0, {self.dim()}] range, but {k} is given")
    host = np.asarray(_dev.to_host(self.detach()._buf))
    mask = host != 0
    if k < host.ndim:
        mask = mask.reshape(host.shape[:k] + (-1,)).any(axis=-1)
    ind = np.stack(np.nonzero(mask)) if k else np.zeros((0, 1 if mask else 0), np.int64)
    ind = ind.astype(np.int64).reshape(k, -1)
    if k == 0:
        vals = self.unsqueeze(0)[: ind.shape[1]]
    else:
        idx = tuple(_tensor(row, dtype=D.int64, device=self.device) for row in ind)
        vals = self[idx]
    return SparseTensor.make(ind, vals, self.shape, True)


def dense_to_dense(self: Tensor, dtype: DType | None = None, *, masked_grad: bool | None = None) -> Tensor:
    """``Tensor.to_dense()`` of a strided tensor: itself (or a cast)."""
    return self if dtype is None else self.to(dtype)
