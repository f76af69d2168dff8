"""`ChannelShuffle`: ``F.channel_shuffle`` as a module.

Example::

    >>> import fgrad.torch as torch
    >>> torch.nn.ChannelShuffle(2)(torch.arange(4.0).view(1, 4, 1)).flatten()
    tensor([0., 2., 1., 3.])
"""

from __future__ import annotations

import fgrad.torch.nn.functional as F
from .module import Module
from fgrad.torch.types import Tensor

__all__ = ["ChannelShuffle"]


class ChannelShuffle(Module):
    """Interleave ``groups`` groups of channels.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.ChannelShuffle(2)(torch.arange(4.0).reshape(1, 4, 1, 1)).flatten()
        tensor([0., 2., 1., 3.])
    """

    __constants__ = ["groups"]

    def __init__(self, groups: int) -> None:
        super().__init__()
        self.groups = groups

    def forward(self, input: Tensor) -> Tensor:
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self) -> str:
        return f"groups={self.groups}"
