"""``fgrad.torch.utils.dlpack``: old-style DLPack capsules (``torch.utils.dlpack``).

Example::

    >>> import fgrad.torch as torch
    >>> from fgrad.torch.utils.dlpack import from_dlpack, to_dlpack
    >>> from_dlpack(to_dlpack(torch.arange(3)))
    tensor([0, 1, 2])
"""

from __future__ import annotations

from fgrad.torch._dlpack import from_dlpack
from fgrad.torch._tensor import Tensor
from typing import Any


def to_dlpack(tensor: Tensor) -> Any:
    """A DLPack capsule sharing ``tensor``'s memory: a versioned (DLPack 1.0) one, so consumers
    (the shim, NumPy, PyTorch) know it is writable; PyTorch returns a legacy ``"dltensor"``.

    Example::

        >>> import fgrad.torch as torch
        >>> type(to_dlpack(torch.zeros(2))).__name__
        'PyCapsule'
    """
    if not isinstance(tensor, Tensor):
        raise TypeError(f"to_dlpack(): argument 'tensor' must be Tensor, not {type(tensor).__name__}")
    return tensor.__dlpack__(max_version=(1, 0))


__all__ = ["from_dlpack", "to_dlpack"]
