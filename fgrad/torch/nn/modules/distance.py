"""`CosineSimilarity` and `PairwiseDistance`: the module forms of ``F.cosine_similarity``
and ``F.pairwise_distance``.

Example::

    >>> import fgrad.torch as torch
    >>> torch.nn.CosineSimilarity(dim=0)(torch.tensor([1.0, 0.0]), torch.tensor([1.0, 1.0]))
    tensor(0.7071)
"""

from __future__ import annotations

import fgrad.torch.nn.functional as F
from .module import Module
from fgrad.torch.types import Tensor

__all__ = ["CosineSimilarity", "PairwiseDistance"]


class PairwiseDistance(Module):
    """``||x1 - x2 + eps||_p`` over the last dim.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.PairwiseDistance()(torch.tensor([[0.0, 0.0]]), torch.tensor([[3.0, 4.0]]))
        tensor([5.0000])
    """

    __constants__ = ["norm", "eps", "keepdim"]

    def __init__(self, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> None:
        super().__init__()
        self.norm = p
        self.eps = eps
        self.keepdim = keepdim

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)


class CosineSimilarity(Module):
    """The cosine of the angle between ``x1`` and ``x2`` along ``dim``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.CosineSimilarity(dim=1)(torch.tensor([[1.0, 0.0]]), torch.tensor([[1.0, 1.0]]))
        tensor([0.7071])
    """

    __constants__ = ["dim", "eps"]

    def __init__(self, dim: int = 1, eps: float = 1e-8) -> None:
        super().__init__()
        self.dim = dim
        self.eps = eps

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.cosine_similarity(x1, x2, self.dim, self.eps)
