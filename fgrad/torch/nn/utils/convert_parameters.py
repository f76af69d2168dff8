"""``parameters_to_vector`` / ``vector_to_parameters``."""

from __future__ import annotations

import fgrad.torch as torch
from collections.abc import Iterable
from fgrad.torch.types import Tensor

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def parameters_to_vector(parameters: Iterable[Tensor]) -> Tensor:
    """All parameters flattened and concatenated into one vector."""
    return torch.cat([p.view(-1) for p in parameters])


def vector_to_parameters(vec: Tensor, parameters: Iterable[Tensor]) -> None:
    """Copy consecutive slices of ``vec`` into the parameters' data."""
    if not isinstance(vec, torch.Tensor):
        raise TypeError("expected torch.Tensor, but got: "
                        f"{torch.typename(vec) if hasattr(torch, 'typename') else type(vec)}")
    pointer = 0
    for param in parameters:
        n = param.numel()
        param.data = vec[pointer:pointer + n].view_as(param).data
        pointer += n
