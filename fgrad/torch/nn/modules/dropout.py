"""`Dropout` (and the channel-wise `Dropout1d/2d/3d`): active only in training mode.

Example::

    >>> import fgrad.torch as torch
    >>> d = torch.nn.Dropout(0.5).eval()
    >>> d(torch.ones(3))
    tensor([1., 1., 1.])
"""

from __future__ import annotations

import fgrad.torch.nn.functional as F
from .module import Module
from fgrad.torch.types import Tensor

__all__ = ["Dropout", "Dropout1d", "Dropout2d", "Dropout3d"]


class _DropoutNd(Module):
    __constants__ = ["p", "inplace"]

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    """Zeroes each element with probability ``p`` in training and scales the rest by
    ``1 / (1 - p)``; the identity in eval.

    Example::

        >>> import fgrad.torch as torch
        >>> _ = torch.manual_seed(0)
        >>> m = torch.nn.Dropout(p=0.5)
        >>> m(torch.ones(6))
        tensor([0., 0., 2., 0., 0., 0.])
        >>> m.eval()(torch.ones(2))
        tensor([1., 1.])
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout(input, self.p, self.training, self.inplace)


class Dropout1d(_DropoutNd):
    """Zeroes whole channels of ``(N, C, L)`` input with probability ``p`` in training (the identity in eval).

    Example::

        >>> import fgrad.torch as torch
        >>> _ = torch.manual_seed(0)
        >>> torch.nn.Dropout1d(p=0.5)(torch.ones(1, 4, 2))
        tensor([[[0., 0.],
                 [0., 0.],
                 [2., 2.],
                 [0., 0.]]])
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(_DropoutNd):
    """Zeroes whole channels of ``(N, C, H, W)`` input with probability ``p`` in training (the
    identity in eval).

    Example::

        >>> import fgrad.torch as torch
        >>> _ = torch.manual_seed(0)
        >>> torch.nn.Dropout2d(p=0.5)(torch.ones(1, 4, 1, 2)).flatten(2)
        tensor([[[0., 0.],
                 [0., 0.],
                 [2., 2.],
                 [0., 0.]]])
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Dropout3d(_DropoutNd):
    """Zeroes whole channels of ``(N, C, D, H, W)`` input with probability ``p`` in training (the
    identity in eval).

    Example::

        >>> import fgrad.torch as torch
        >>> _ = torch.manual_seed(4)
        >>> torch.nn.Dropout3d(p=0.5)(torch.ones(1, 4, 1, 1, 2)).flatten(2)
        tensor([[[2., 2.],
                 [0., 0.],
                 [2., 2.],
                 [0., 0.]]])
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout3d(input, self.p, self.training, self.inplace)


class AlphaDropout(_DropoutNd):
    """Alpha dropout (keeps SELU's self-normalising mean and variance).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.AlphaDropout(0.2).eval()(torch.ones(2))
        tensor([1., 1.])
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(_DropoutNd):
    """Alpha dropout of whole channels.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.FeatureAlphaDropout(0.2).eval()(torch.ones(1, 2))
        tensor([[1., 1.]])
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.feature_alpha_dropout(input, self.p, self.training)

__all__ += ['AlphaDropout', 'FeatureAlphaDropout']
