"""``nn.Embedding(sparse=True)``: the weight's gradient as a sparse COO tensor, PyTorch's:
one entry per looked-up index (duplicates kept, uncoalesced; ``padding_idx`` entries dropped)
whose values are the output gradient's rows.  A later backward appends its entries; a dense
gradient already there gets them added.

The lookup is an `autograd.Function` whose backward, in a ``.backward()`` into the leaves,
puts the sparse gradient into ``weight.grad`` itself and hands the graph no dense gradient;
under ``autograd.grad`` (or a non-leaf weight) it returns the dense gradient instead.

Example::

    >>> import fgrad.torch as torch
    >>> emb = torch.nn.Embedding(5, 2, sparse=True)
    >>> emb(torch.tensor([1, 1, 3])).sum().backward()
    >>> emb.weight.grad._indices()
    tensor([[1, 1, 3]])
"""

from __future__ import annotations

import numpy as np

import fgrad.torch._device as _dev
import fgrad.torch._dtypes as D
from .._ops_creation import tensor as _tensor, zeros as _zeros
from .._ops_shape import cat, index_add as _index_add
from .._tensor import Tensor
from ..autograd._grad import accumulating_into_leaves
from ..autograd.function import Function
from ._coo import SparseTensor
from ._ops import sparse_add, add_dense_sparse

__all__ = ["accumulate_sparse_grad", "embedding_bag_with_sparse_grad", "embedding_with_sparse_grad"]


def accumulate_sparse_grad(leaf: Tensor, grad: SparseTensor) -> None:
    """Add the sparse ``grad`` into ``leaf.grad`` (sparse + sparse appends, as PyTorch;
    dense + sparse stays dense)."""
    old = leaf._grad
    if old is None:
        leaf._grad = grad
    elif isinstance(old, SparseTensor):
        both = sparse_add(old, grad) if old.is_coalesced() and grad.is_coalesced() else _concat(old, grad)
        leaf._grad = both
    else:
        leaf._grad = add_dense_sparse(old, grad)


def _concat(a: SparseTensor, b: SparseTensor) -> SparseTensor:
    return SparseTensor.make(np.concatenate([a._sp_ind, b._sp_ind], axis=1), cat([a._sp_val, b._sp_val]),
                             a.shape, False)


class Embedding(Function):
    """The lookup's node (``EmbeddingBackward``, PyTorch's ``EmbeddingBackward0``)."""

    @staticmethod
    def forward(ctx, weight, rows, flat_index, padding_idx, scale_grad_by_freq):
        ctx.weight = weight
        ctx.flat_index = flat_index
        ctx.padding_idx = padding_idx
        ctx.scale = scale_grad_by_freq
        return rows

    @staticmethod
    def backward(ctx, grad):
        weight, idx = ctx.weight, ctx.flat_index
        width = weight.shape[1]
        keep = idx != ctx.padding_idx if ctx.padding_idx is not None else np.ones(idx.shape, bool)
        rows = grad.reshape(-1, width)
        if ctx.scale:
            raise RuntimeError("embedding_backward: scale_grad_by_freq not supported with sparse gradients")
        if not keep.all():
            rows = rows[_tensor(np.nonzero(keep)[0], dtype=D.int64, device=grad.device)]
        kept = idx[keep]
        if accumulating_into_leaves() and weight.is_leaf:
            g = SparseTensor.make(kept.reshape(1, -1), rows.detach(), weight.shape, False)
            accumulate_sparse_grad(weight, g)
            return None, None, None, None, None
        dense = _zeros(tuple(weight.shape), dtype=grad.dtype, device=grad.device)
        kept_t = _tensor(kept, dtype=D.int64, device=grad.device)
        return _index_add(dense, 0, kept_t, rows), None, None, None, None


def embedding_with_sparse_grad(weight: Tensor, input: Tensor, rows: Tensor, padding_idx,
                               scale_grad_by_freq: bool = False) -> Tensor:
    """``rows`` (the looked-up rows, computed without a graph) recorded so that ``weight``
    gets a sparse gradient.

    Example::

        >>> import fgrad.torch as torch
        >>> w = torch.ones(4, 2, requires_grad=True)
        >>> i = torch.tensor([0, 2])
        >>> out = embedding_with_sparse_grad(w, i, w.detach()[i], None)
        >>> out.sum().backward(); w.grad.to_dense()[:, 0]
        tensor([1., 0., 1., 0.])
    """
    n = weight.shape[0]
    flat = np.asarray(_dev.to_host(input.detach()._buf)).reshape(-1).astype(np.int64)
    flat = np.where(flat < 0, flat + n, flat)
    return Embedding.apply(weight, rows, flat, padding_idx, bool(scale_grad_by_freq))


class _Bags(Function):
    """The bags' outputs (computed without a graph) over the looked-up rows: the backward
    hands each index its bag's output gradient, times 1/count for a mean (PyTorch's
    ``_embedding_bag_sparse_backward``: ``grad.index_select(0, offset2bag) * (1 / bag_size)``)."""

    @staticmethod
    def forward(ctx, rows, out, bag_of_index, inverse_counts):
        ctx.bag_of_index, ctx.inverse_counts = bag_of_index, inverse_counts
        return out.detach()

    @staticmethod
    def backward(ctx, grad):
        per_index = grad[_tensor(ctx.bag_of_index, dtype=D.int64, device=grad.device)]
        if ctx.inverse_counts is not None:
            inv = _tensor(ctx.inverse_counts[ctx.bag_of_index], dtype=grad.dtype, device=grad.device)
            per_index = per_index * inv.unsqueeze(1)
        return per_index, None, None, None


def embedding_bag_with_sparse_grad(weight: Tensor, flat: np.ndarray, bag_of_index: np.ndarray, out: Tensor,
                                   counts: np.ndarray | None, padding_idx) -> Tensor:
    """``out`` (the bags' sums, or means with ``counts``, computed without a graph) recorded
    so that ``weight`` gets PyTorch's sparse gradient of ``nn.EmbeddingBag(sparse=True)``: one
    entry per index of ``flat`` (bag ``bag_of_index``) but ``padding_idx``, uncoalesced.

    Example::

        >>> import numpy as np
        >>> import fgrad.torch as torch
        >>> w = torch.ones(4, 2, requires_grad=True)
        >>> out = embedding_bag_with_sparse_grad(w, np.array([0, 2, 2]), np.array([0, 0, 1]),
        ...                                      torch.tensor([[2.0, 2.0], [1.0, 1.0]]), None, None)
        >>> out.sum().backward(); w.grad._indices()
        tensor([[0, 2, 2]])
    """
    n = weight.shape[0]
    flat = np.where(flat < 0, flat + n, flat).astype(np.int64)
    rows = Embedding.apply(weight, weight.detach()[_tensor(flat, dtype=D.int64, device=weight.device)], flat,
                           padding_idx, False)
    inverse_counts = None if counts is None else 1 / np.asarray(counts, np.float64).reshape(-1)
    return _Bags.apply(rows, out, bag_of_index, inverse_counts)
