"""`Flatten` and `Unflatten`.

Example::

    >>> import fgrad.torch as torch
    >>> torch.nn.Flatten()(torch.zeros(2, 3, 4)).shape
    torch.Size([2, 12])
"""

from __future__ import annotations

from .module import Module
from fgrad.torch.types import SizeLike, Tensor

__all__ = ["Flatten", "Unflatten"]


class Flatten(Module):
    """Flattens dims ``start_dim`` to ``end_dim`` into one (by default all but the batch dim).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.Flatten()(torch.zeros(2, 3, 4)).shape
        torch.Size([2, 12])
        >>> torch.nn.Flatten(0, 1)(torch.zeros(2, 3, 4)).shape
        torch.Size([6, 4])
    """

    __constants__ = ["start_dim", "end_dim"]

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input: Tensor) -> Tensor:
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Splits dim ``dim`` into ``unflattened_size``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.Unflatten(1, (2, 3))(torch.zeros(4, 6)).shape
        torch.Size([4, 2, 3])
    """

    def __init__(self, dim: int, unflattened_size: SizeLike | list[int] | tuple[int, ...]) -> None:
        super().__init__()
        self.dim = dim
        self.unflattened_size = tuple(unflattened_size) if isinstance(unflattened_size,
                                                                      list) else unflattened_size

    def forward(self, input: Tensor) -> Tensor:
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
