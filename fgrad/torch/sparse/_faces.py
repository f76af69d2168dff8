"""The dense faces that also take sparse operands: ``torch.mm``/``matmul``/``addmm`` (and
their methods) hand a product with a sparse operand to `fgrad.torch.sparse.mm`, everything
else to the dense op unchanged; ``Tensor.sparse_mask``.

Example::

    >>> import fgrad.torch as torch
    >>> s = torch.sparse_coo_tensor([[0], [1]], [2.0], (2, 2))
    >>> torch.mm(s, torch.ones(2, 1))
    tensor([[2.],
            [0.]])
"""

from __future__ import annotations

import functools

from .._tensor import Tensor
from ._coo import SparseTensor
from ._ops import _matmul, _rmatmul, addmm, mm

__all__ = ["addmm_face", "matmul_face", "mm_face", "mv_face", "sparse_mask"]


def mm_face(dense_mm):
    """``mm`` that takes a sparse operand too."""

    @functools.wraps(dense_mm)
    def mm_any(input, mat2, *, out=None):
        if isinstance(input, SparseTensor) or isinstance(mat2, SparseTensor):
            if out is not None:
                raise RuntimeError("mm: out= is not supported with sparse operands in fgrad.torch")
            return mm(input, mat2)
        return dense_mm(input, mat2, out=out) if out is not None else dense_mm(input, mat2)

    return mm_any


def matmul_face(dense_matmul):
    """``matmul`` that takes a sparse operand too."""

    @functools.wraps(dense_matmul)
    def matmul_any(input, other, *, out=None):
        if isinstance(input, SparseTensor):
            return _matmul(input, other)
        if isinstance(other, SparseTensor):
            return _rmatmul(other, input)
        return dense_matmul(input, other, out=out) if out is not None else dense_matmul(input, other)

    return matmul_any


def mv_face(dense_mv):
    """``mv`` that takes a sparse matrix too."""

    @functools.wraps(dense_mv)
    def mv_any(input, vec, *, out=None):
        if isinstance(input, SparseTensor):
            if vec.dim() != 1:
                raise RuntimeError(f"vector + matrix @ vector expected, got 1, {input.dim()}, {vec.dim()}")
            return mm(input, vec.unsqueeze(1)).squeeze(1)
        return dense_mv(input, vec, out=out) if out is not None else dense_mv(input, vec)

    return mv_any


def addmm_face(dense_addmm):
    """``addmm`` that takes a sparse ``mat1`` or ``mat2`` too."""

    @functools.wraps(dense_addmm)
    def addmm_any(input, mat1, mat2, *, beta=1, alpha=1, out=None):
        if isinstance(mat1, SparseTensor) or isinstance(mat2, SparseTensor):
            return addmm(input, mat1, mat2, beta=beta, alpha=alpha)
        kwargs = {"beta": beta, "alpha": alpha}
        if out is not None:
            kwargs["out"] = out
        return dense_addmm(input, mat1, mat2, **kwargs)

    return addmm_any


def sparse_mask(self: Tensor, mask: SparseTensor) -> SparseTensor:
    """``self``'s entries at ``mask``'s (coalesced) indices, as a sparse tensor.

    Example::

        >>> import fgrad.torch as torch
        >>> m = torch.sparse_coo_tensor([[0, 1], [1, 0]], [1.0, 1.0], (2, 2))
        >>> torch.tensor([[1.0, 2.0], [3.0, 4.0]]).sparse_mask(m)._values()
        tensor([2., 3.])
    """
    if not isinstance(mask, SparseTensor):
        raise RuntimeError("sparse_mask: expected mask to be a sparse COO tensor")
    if tuple(self.shape) != tuple(mask.shape):
        raise RuntimeError(f"sparse_mask(): operands have incompatible sizes; self has size "
                           f"{list(self.shape)} but mask has size {list(mask.shape)}")
    c = mask.coalesce()
    idx = tuple(Tensor.new_tensor(self, row).long() for row in c._sp_ind)
    return c._replace(c._sp_ind, self[idx])


