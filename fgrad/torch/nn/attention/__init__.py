"""``torch.nn.attention``: choose the kernels ``F.scaled_dot_product_attention`` may use.

`sdpa_kernel` sets the same switches as ``torch.backends.cuda.enable_*_sdp`` for the block
it guards.  On the CPU, PyTorch has two kernels: MATH (always usable) and FLASH_ATTENTION
(4-d inputs, no dropout); EFFICIENT_ATTENTION and CUDNN_ATTENTION are GPU kernels.  fgrad
computes one way (its math kernel), and enforces PyTorch's CPU rules on the choice: with MATH
and FLASH_ATTENTION both off, a call raises "No viable backend..."; with only FLASH_ATTENTION
on, an input it cannot take warns its reasons and raises "No available kernel".

Example::

    >>> import fgrad.torch as torch
    >>> from fgrad.torch.nn.attention import SDPBackend, sdpa_kernel
    >>> q = torch.ones(1, 1, 2, 4)
    >>> with sdpa_kernel(SDPBackend.MATH):
    ...     torch.nn.functional.scaled_dot_product_attention(q, q, q).shape
    torch.Size([1, 1, 2, 4])
"""

from __future__ import annotations

import contextlib
import enum
from collections.abc import Iterator
from typing import Any

from ...backends import cuda as _cuda

__all__ = ["SDPBackend", "sdpa_kernel", "WARN_FOR_UNFUSED_KERNELS"]

WARN_FOR_UNFUSED_KERNELS = False


class SDPBackend(enum.IntEnum):
    """The scaled-dot-product-attention kernels (PyTorch's values)."""

    ERROR = -1
    MATH = 0
    FLASH_ATTENTION = 1
    EFFICIENT_ATTENTION = 2
    CUDNN_ATTENTION = 3
    OVERRIDEABLE = 4


# SDPBackend -> the torch.backends.cuda switch that holds it
_SWITCH = {SDPBackend.MATH: "math", SDPBackend.FLASH_ATTENTION: "flash",
           SDPBackend.EFFICIENT_ATTENTION: "mem_efficient", SDPBackend.CUDNN_ATTENTION: "cudnn"}
_PRIORITY: list[SDPBackend] = [SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH,
                               SDPBackend.CUDNN_ATTENTION, SDPBackend.OVERRIDEABLE]


def _current() -> list[SDPBackend]:
    return [b for b, name in _SWITCH.items() if _cuda._sdp[name]]


def _set(backends: list[SDPBackend]) -> None:
    for b, name in _SWITCH.items():
        _cuda._sdp[name] = b in backends


@contextlib.contextmanager
def sdpa_kernel(backends: list[SDPBackend] | SDPBackend,
                set_priority: bool = False) -> Iterator[dict[Any, Any]]:
    """Allow only ``backends`` inside the block (``set_priority``: in this order of preference).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.nn.attention import SDPBackend, sdpa_kernel
        >>> with sdpa_kernel([SDPBackend.MATH]):
        ...     torch.backends.cuda.flash_sdp_enabled()
        False
    """
    if not isinstance(backends, (list, SDPBackend)):
        raise AssertionError("Backend must be an instance of SDPBackend or a list of SDPBackend "
                             "instances, "
                             f"got {type(backends).__name__}")
    chosen = list(dict.fromkeys([backends] if isinstance(backends, SDPBackend) else backends))
    previous, previous_priority = _current(), list(_PRIORITY)
    try:
        _set(chosen)
        if set_priority:
            _PRIORITY[:] = chosen + [b for b in previous_priority if b not in chosen]
        yield {}
    finally:
        _set(previous)
        _PRIORITY[:] = previous_priority


def check_backends(query: Any, key: Any, value: Any, dropout_p: float) -> None:
    """PyTorch's CPU kernel choice for ``F.scaled_dot_product_attention`` under the switches:
    raise (and warn the reasons) where no allowed kernel takes these inputs."""
    if _cuda._sdp["math"]:
        return
    if not _cuda._sdp["flash"]:
        raise RuntimeError("No viable backend for scaled_dot_product_attention was found. This is likely "
                           "due to turning off both the math kernel and the fused kernels.")
    reasons = []
    if dropout_p > 0.0:
        reasons.append("Both fused kernels do not support non-zero dropout.")
    if not (query.dim() == key.dim() == value.dim() == 4):
        reasons.append("All fused kernels requires query, key and value to be 4 dimensional, but got "
                       f"Query dim: {query.dim()}, Key dim: {key.dim()}, Value dim: {value.dim()} instead.")
    if reasons:
        import warnings

        warnings.warn("Flash attention kernel not used because:", UserWarning, stacklevel=3)
        for r in reasons:
            warnings.warn(r, UserWarning, stacklevel=3)
        raise RuntimeError("No available kernel.  Aborting execution.")


from . import bias  # noqa: E402,F401
