"""``torch.amp``: automatic mixed precision -- `autocast` (PyTorch's per-op casting lists)
and `GradScaler` (dynamic loss scaling).

Example::

    >>> import fgrad.torch as torch
    >>> with torch.amp.autocast("cpu"):
    ...     torch.mm(torch.ones(2, 2), torch.ones(2, 2)).dtype
    torch.bfloat16
"""

from .autocast_mode import autocast, custom_bwd, custom_fwd, is_autocast_available  # noqa: F401
from .grad_scaler import GradScaler, OptState  # noqa: F401

__all__ = ["autocast", "custom_bwd", "custom_fwd", "is_autocast_available", "GradScaler"]
