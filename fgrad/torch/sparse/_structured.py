"""Sparse matrices built from a structure: ``torch.sparse.spdiags`` (a matrix from its
diagonals, SciPy's convention) and ``torch.sparse.sampled_addmm`` (a dense product evaluated
only at a CSR matrix's stored entries).  Both gather the stored values from dense tensors with
shim indexing, so gradients reach ``diagonals``, ``mat1``, ``mat2`` and the input's values.

Example::

    >>> import fgrad.torch as torch
    >>> torch.sparse.spdiags(torch.tensor([[1.0, 2.0, 3.0]]), torch.tensor([0]), (3, 3)).to_dense()
    tensor([[1., 0., 0.],
            [0., 2., 0.],
            [0., 0., 3.]])
"""

from __future__ import annotations

from typing import Any

import numpy as np

import fgrad.torch._dtypes as D
from .._layout import sparse_coo, sparse_csr, strided
from .._ops_creation import tensor as _tensor
from .._tensor import Tensor
from ..linalg import solve as _solve
from ._coo import SparseTensor
from ._csr import SparseCsrTensor, _host_ints, layout_name

__all__ = ["sampled_addmm", "spdiags", "spsolve"]

_LAYOUT_NAMES = {strided: "Strided", sparse_coo: "Sparse", sparse_csr: "SparseCsr"}


def _index(ints: np.ndarray, like: Tensor) -> Tensor:
    return _tensor(np.ascontiguousarray(ints, np.int64), dtype=D.int64, device=like.device)


def spdiags(diagonals: Tensor, offsets: Tensor, shape: Any, layout: Any = None) -> SparseTensor:
    """The ``shape`` matrix whose diagonal ``offsets[k]`` holds row ``k`` of ``diagonals``,
    SciPy's convention: entry ``(i, i + offsets[k])`` is ``diagonals[k, i + offsets[k]]`` (so
    a super-diagonal skips the row's first values, a sub-diagonal its last).  COO by default
    (uncoalesced, diagonal by diagonal, as PyTorch), or ``layout=torch.sparse_csr``.
    Differentiable in ``diagonals`` (PyTorch raises "derivative for aten::_spdiags is not
    implemented"); an offset outside the matrix gives an empty diagonal (PyTorch fails
    creating a tensor of negative size).

    Example::

        >>> import fgrad.torch as torch
        >>> d = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]])
        >>> torch.sparse.spdiags(d, torch.tensor([0, -1]), (4, 4)).to_dense()
        tensor([[1., 0., 0., 0.],
                [5., 2., 0., 0.],
                [0., 6., 3., 0.],
                [0., 0., 7., 4.]])
    """
    if not isinstance(diagonals, Tensor) or not isinstance(offsets, Tensor):
        raise TypeError("spdiags(): argument 'diagonals' and 'offsets' must be Tensors, but got "
                        f"{type(diagonals).__name__} and {type(offsets).__name__}")
    if diagonals.dim() not in (1, 2):
        raise RuntimeError("Diagonals must be vector or matrix")
    if offsets.dim() > 1:
        raise RuntimeError("Offsets must be scalar or vector")
    shape = tuple(int(n) for n in shape)
    if len(shape) != 2:
        raise RuntimeError("Output shape must be 2d")
    if layout is not None and layout not in (sparse_coo, sparse_csr):
        raise RuntimeError("Only output layouts (Sparse, SparseCsc, SparseCsr) are supported, got "
                           f"{_LAYOUT_NAMES.get(layout, layout)} (fgrad.torch has no CSC layout: "
                           "use torch.sparse_coo or torch.sparse_csr)")
    if offsets.dtype != D.int64:
        raise RuntimeError(f"Offset Tensor must have dtype Long but got {offsets.dtype._legacy}")
    offs = _host_ints(offsets, "offsets").reshape(-1)
    diags = diagonals.reshape(1, -1) if diagonals.dim() == 1 else diagonals
    if diags.shape[0] != len(offs):
        raise RuntimeError(f"Number of diagonals ({diags.shape[0]}) does not match the number of offsets "
                           f"({len(offs)})")
    if len(np.unique(offs)) != len(offs):
        raise RuntimeError("Offset tensor contains duplicate values")
    rows_all, cols_all, flat_all = [], [], []
    length = diags.shape[1]
    for k, off in enumerate(offs):
        first, stop = max(0, -off), min(shape[0], shape[1] - off, length - off)
        rows = np.arange(first, max(first, stop), dtype=np.int64)
        rows_all.append(rows)
        cols_all.append(rows + off)
        flat_all.append(k * length + rows + off)
    indices = np.stack([np.concatenate(rows_all), np.concatenate(cols_all)])
    values = diags.reshape(-1)[_index(np.concatenate(flat_all), diags)]
    coo = SparseTensor.make(indices, values, shape, False)
    return SparseCsrTensor.from_coo(coo) if layout is sparse_csr else coo


def sampled_addmm(input: Tensor, mat1: Tensor, mat2: Tensor, *, beta: float = 1.0,  # noqa: A002
                  alpha: float = 1.0, out: Tensor | None = None) -> SparseCsrTensor:
    """``beta * input + alpha * (mat1 @ mat2)`` evaluated only at the stored entries of the
    CSR matrix ``input`` (its sparsity pattern): a CSR matrix with ``input``'s pattern.
    Differentiable in ``input``'s values, ``mat1`` and ``mat2``; the products are formed
    only at the stored entries.  2-D only (fgrad.torch's CSR matrices are 2-D).

    Example::

        >>> import fgrad.torch as torch
        >>> a = torch.eye(2).to_sparse_csr()
        >>> torch.sparse.sampled_addmm(a, torch.ones(2, 3), torch.ones(3, 2), beta=0.5).to_dense()
        tensor([[3.5000, 0.0000],
                [0.0000, 3.5000]])
    """
    if out is not None:
        raise RuntimeError("sampled_addmm: out= is not supported by fgrad.torch (sparse results are new "
                           "tensors)")
    if not isinstance(input, SparseCsrTensor):
        backend = "SparseCPU" if isinstance(input, SparseTensor) else "CPU"
        raise NotImplementedError(
            f"Could not run 'aten::sparse_sampled_addmm' with arguments from the '{backend}' backend "
            "(torch.sparse.sampled_addmm: input must be a sparse CSR matrix; convert it with "
            ".to_sparse_csr())")
    for name, m in (("mat1", mat1), ("mat2", mat2)):
        if not isinstance(m, Tensor) or isinstance(m, SparseTensor):
            got = layout_name(m) if isinstance(m, Tensor) else type(m).__name__
            raise RuntimeError(f"sampled_addmm: Expected {name} to have strided layout, but got {got}")
        if m.dim() != 2:
            raise RuntimeError(f"sampled_addmm: Expected {name} to be a matrix, got {m.dim()}-D tensor")
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise RuntimeError("sparse_sampled_addmm: Expected self to be a floating-point or complex tensor, "
                           f"but got {input.dtype._legacy}")
    if mat1.dtype != mat2.dtype:
        raise RuntimeError("sampled_addmm: Expected mat1 and mat2 to have the same dtype, but got "
                           f"{mat1.dtype._legacy} and {mat2.dtype._legacy}")
    if mat1.dtype != input.dtype:
        raise RuntimeError("sampled_addmm: Expected mat1 and self to have the same dtype, but got "
                           f"{mat1.dtype._legacy} and {input.dtype._legacy}")
    if mat1.shape[1] != mat2.shape[0]:
        raise RuntimeError(f"sampled_addmm: mat1 and mat2 shapes cannot be multiplied ({mat1.shape[0]}x"
                           f"{mat1.shape[1]} and {mat2.shape[0]}x{mat2.shape[1]})")
    if input.shape[0] != mat1.shape[0]:
        raise RuntimeError("sampled_addmm: self.shape[-2] must match mat1.shape[-2]")
    if input.shape[1] != mat2.shape[1]:
        raise RuntimeError("sampled_addmm: self.shape[-1] must match mat2.shape[-1]")
    rows, cols = input._sp_ind
    products = (mat1[_index(rows, mat1)] * mat2.t()[_index(cols, mat2)]).sum(-1)
    values = input._sp_val * beta + products * alpha
    return SparseCsrTensor.from_coo(SparseTensor.make(input._sp_ind, values, input._sp_shape, True))


def spsolve(input: Tensor, other: Tensor, *, left: bool = True) -> Tensor:  # noqa: A002
    """The solution ``x`` of ``input @ x = other`` for a square sparse CSR matrix ``input`` and
    a dense right-hand side ``other`` of shape ``(n,)`` (or ``(n, k)``), as
    ``torch.linalg.solve`` on ``input``'s dense form: differentiable in ``input``'s stored
    values and in ``other``.  Only ``left=True`` exists (as PyTorch).  PyTorch 2.13 implements
    this on CUDA only (its CPU build raises ``NotImplementedError``); fgrad.torch solves on
    every device.

    Example::

        >>> import fgrad.torch as torch
        >>> a = torch.tensor([[4.0, 1.0], [0.0, 2.0]]).to_sparse_csr()
        >>> torch.sparse.spsolve(a, torch.tensor([6.0, 4.0]))
        tensor([1., 2.])
    """
    if not left:
        raise RuntimeError("torch.sparse.spsolve: only left=True is supported (solve input @ out = other)")
    if not isinstance(input, SparseCsrTensor):
        backend = "SparseCPU" if isinstance(input, SparseTensor) else "CPU"
        raise NotImplementedError(
            f"Could not run 'aten::_spsolve' with arguments from the '{backend}' backend "
            "(torch.sparse.spsolve: input must be a sparse CSR matrix; convert it with .to_sparse_csr())")
    if not isinstance(other, Tensor) or isinstance(other, SparseTensor) or other.dim() not in (1, 2):
        raise RuntimeError("torch.sparse.spsolve: other must be a dense vector (n,) or matrix (n, k)")
    n, m = input.shape
    if n != m:
        raise RuntimeError(f"torch.sparse.spsolve: input must be a square matrix, got {n}x{m}")
    if other.shape[0] != n:
        raise RuntimeError(f"torch.sparse.spsolve: input ({n}x{n}) and other {tuple(other.shape)} do not "
                           f"match: other.shape[0] must be {n}")
    if input.dtype != other.dtype:
        raise RuntimeError(f"torch.sparse.spsolve: expected input and other to have the same dtype, but got "
                           f"{input.dtype._legacy} and {other.dtype._legacy}")
    return _solve(input.to_dense(), other)
