"""``torch.nn.attention``: choosing the kernels of ``F.scaled_dot_product_attention``.

fgrad has one kernel (the math one, on every device), so ``sdpa_kernel`` sets and restores
the ``torch.backends.cuda.*_sdp_enabled`` flags, as PyTorch's does; the attention numbers are
the same whichever backends are listed.  What is enforced is PyTorch's **CPU** choice (see
`check_backends`): with MATH and FLASH_ATTENTION both off, ``F.scaled_dot_product_attention``
raises "No viable backend..."; with only FLASH_ATTENTION on, an input the CPU flash kernel
cannot take (dropout, not 4-d) warns PyTorch's reasons and raises "No available kernel".
``torch.nn.attention.bias`` holds the causal biases (``causal_lower_right``, ...).

Example::

    >>> import fgrad.torch as torch
    >>> from fgrad.torch.nn.attention import SDPBackend, sdpa_kernel
    >>> with sdpa_kernel(SDPBackend.MATH):
    ...     torch.backends.cuda.flash_sdp_enabled(), torch.backends.cuda.math_sdp_enabled()
    (False, True)
    >>> torch.backends.cuda.flash_sdp_enabled()
    True
"""

from __future__ import annotations

import contextlib
import enum
from collections.abc import Iterator
from typing import Any

from ...backends import cuda as _cuda

__all__ = ["SDPBackend", "sdpa_kernel", "WARN_FOR_UNFUSED_KERNELS", "can_use_flash_attention",
           "can_use_efficient_attention"]

WARN_FOR_UNFUSED_KERNELS = False


class SDPBackend(enum.IntEnum):
    """The scaled-dot-product-attention backends (PyTorch's names and numbers).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.attention.SDPBackend.MATH
        <SDPBackend.MATH: 0>
    """

    ERROR = -1
    MATH = 0
    FLASH_ATTENTION = 1
    EFFICIENT_ATTENTION = 2
    CUDNN_ATTENTION = 3
    OVERRIDEABLE = 4

    def __repr__(self) -> str:
        return f"<SDPBackend.{self.name}: {self.value}>"


_FLAGS = {SDPBackend.CUDNN_ATTENTION: "cudnn", SDPBackend.FLASH_ATTENTION: "flash",
          SDPBackend.MATH: "math", SDPBackend.EFFICIENT_ATTENTION: "mem_efficient"}


def _enabled() -> list[SDPBackend]:
    return [b for b, name in _FLAGS.items() if getattr(_cuda, f"{name}_sdp_enabled")()]


def _enable_only(backends: list[SDPBackend]) -> None:
    for b, name in _FLAGS.items():
        getattr(_cuda, f"enable_{name}_sdp")(b in backends)


@contextlib.contextmanager
def sdpa_kernel(backends: list[SDPBackend] | SDPBackend, set_priority: bool = False) -> Iterator[dict]:
    """Enable only ``backends`` (one or a list) for ``scaled_dot_product_attention`` inside the
    block, restoring the flags after it (``set_priority`` is accepted; fgrad has one kernel).

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.nn.functional as F
        >>> from fgrad.torch.nn.attention import SDPBackend, sdpa_kernel
        >>> q = torch.ones(1, 1, 2, 2)
        >>> with sdpa_kernel([SDPBackend.MATH, SDPBackend.EFFICIENT_ATTENTION]):
        ...     F.scaled_dot_product_attention(q, q, q).shape
        torch.Size([1, 1, 2, 2])
    """
    if not isinstance(backends, (list, SDPBackend)):
        raise AssertionError("Backend must be an instance of SDPBackend or a list of SDPBackend instances, "
                             f"got {type(backends).__name__}")
    wanted = list(dict.fromkeys([backends] if isinstance(backends, SDPBackend) else backends))
    previous = _enabled()
    try:
        _enable_only(wanted)
        yield {}
    finally:
        _enable_only(previous)


def can_use_flash_attention(params: Any, debug: bool = False) -> bool:
    """Whether the fused flash kernel can run ``params``: never in fgrad (the math kernel runs).

    Example::

        >>> can_use_flash_attention(None)
        False
    """
    return False


def can_use_efficient_attention(params: Any, debug: bool = False) -> bool:
    """Whether the memory-efficient kernel can run ``params``: never in fgrad.

    Example::

        >>> can_use_efficient_attention(None)
        False
    """
    return False


def check_backends(query: Any, key: Any, value: Any, dropout_p: float) -> None:
    """PyTorch's CPU kernel choice for ``F.scaled_dot_product_attention`` under the flags:
    raise (after warning the reasons) where no enabled CPU kernel takes these inputs.

    Example::

        >>> import fgrad.torch as torch
        >>> q = torch.ones(1, 1, 2, 2)
        >>> check_backends(q, q, q, 0.0)  # MATH is on: nothing to say
    """
    if _cuda.math_sdp_enabled():
        return
    if not _cuda.flash_sdp_enabled():
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


from . import bias  # noqa: E402,F401  (torch.nn.attention.bias)
