"""``parameters_to_vector`` / ``vector_to_parameters``."""

from __future__ import annotations

import fgrad.torch as torch
from collections.abc import Iterable
from fgrad.torch.types import Tensor

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def parameters_to_vector(parameters: Iterable[Tensor]) -> Tensor:
    """All parameters flattened and concatenated into one vector.

    Example::

        >>> import fgrad.torch as torch
        >>> m = torch.nn.Linear(2, 1)
        >>> torch.nn.init.ones_(m.weight), torch.nn.init.zeros_(m.bias)
        (Parameter containing:
        tensor([[1., 1.]], requires_grad=True), Parameter containing:
        tensor([0.], requires_grad=True))
        >>> torch.nn.utils.parameters_to_vector(m.parameters())
        tensor([1., 1., 0.], grad_fn=<CatBackward0>)
    """
    return torch.cat([p.view(-1) for p in parameters])


def vector_to_parameters(vec: Tensor, parameters: Iterable[Tensor]) -> None:
    """Copy consecutive slices of ``vec`` into the parameters' data.

    Example::

        >>> import fgrad.torch as torch
        >>> m = torch.nn.Linear(2, 1)
        >>> torch.nn.utils.vector_to_parameters(torch.tensor([1.0, 2.0, 3.0]), m.parameters())
        >>> m.weight.data, m.bias.data
        (tensor([[1., 2.]]), tensor([3.]))
    """
    if not isinstance(vec, torch.Tensor):
        raise TypeError("expected torch.Tensor, but got: "
                        f"{torch.typename(vec) if hasattr(torch, 'typename') else type(vec)}")
    pointer = 0
    for param in parameters:
        n = param.numel()
        param.data = vec[pointer:pointer + n].view_as(param).data
        pointer += n
