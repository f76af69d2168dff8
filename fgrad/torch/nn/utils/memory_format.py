"""``convert_conv2d_weight_memory_format`` / ``convert_conv3d_weight_memory_format``.

fgrad's convolutions do not depend on the weight's memory layout, so these functions only
validate the format and return the module unchanged (the numbers are the same either way).

Example::

    >>> import fgrad.torch as torch
    >>> conv = torch.nn.Conv2d(1, 1, 1)
    >>> convert_conv2d_weight_memory_format(conv, torch.channels_last) is conv
    True
"""

from __future__ import annotations

from typing import Any, TypeVar

import fgrad.torch as torch

from ..modules.module import Module

__all__ = ["convert_conv2d_weight_memory_format", "convert_conv3d_weight_memory_format"]

M = TypeVar("M", bound=Module)


def _check(memory_format: Any) -> None:
    formats = tuple(getattr(torch, n) for n in ("contiguous_format", "channels_last", "channels_last_3d",
                                                "preserve_format") if hasattr(torch, n))
    if memory_format not in formats:
        raise TypeError(f"expected a torch.memory_format, got {memory_format!r}")


def convert_conv2d_weight_memory_format(module: M, memory_format: Any) -> M:
    """Return ``module``: the weight layout is not observable in fgrad (see the module doc).

    Example::

        >>> import fgrad.torch as torch
        >>> m = torch.nn.Sequential(torch.nn.Conv2d(1, 1, 1))
        >>> convert_conv2d_weight_memory_format(m, torch.channels_last) is m
        True
    """
    _check(memory_format)
    return module


def convert_conv3d_weight_memory_format(module: M, memory_format: Any) -> M:
    """Return ``module``: the weight layout is not observable in fgrad (see the module doc).

    Example::

        >>> import fgrad.torch as torch
        >>> m = torch.nn.Conv3d(1, 1, 1)
        >>> convert_conv3d_weight_memory_format(m, torch.contiguous_format) is m
        True
    """
    _check(memory_format)
    return module
