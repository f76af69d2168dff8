"""``torch.backends.cuda``: matmul / SDPA switches (flags only; PyTorch's defaults)."""

from types import SimpleNamespace
from typing import Any as _Any

matmul = SimpleNamespace(allow_tf32=False, allow_fp16_reduced_precision_reduction=True,
                         allow_bf16_reduced_precision_reduction=True, fp32_precision="none")
_sdp = {"flash": True, "mem_efficient": True, "math": True, "cudnn": True}


def is_built() -> bool:
    """False: fgrad.torch is not built against CUDA (it reaches GPUs through CuPy).

    Example::

        >>> import fgrad.torch as torch
        >>> isinstance(torch.backends.cuda.is_built(), bool)
        True
    """
    return False


def preferred_linalg_library(backend: _Any = None) -> _Any:
    """The linear-algebra library flag (read only; fgrad.torch's linalg is NumPy's/CuPy's).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.backends.cuda.preferred_linalg_library() is not False
        True
    """
    return backend


def flash_sdp_enabled() -> bool:
    """Whether the flash scaled-dot-product-attention flag is on (PyTorch's default: True).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.backends.cuda.flash_sdp_enabled()
        True
    """
    return _sdp["flash"]


def enable_flash_sdp(enabled: bool) -> None:
    """Set the flash SDPA flag (flags only).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.backends.cuda.enable_flash_sdp(True)
        >>> torch.backends.cuda.flash_sdp_enabled()
        True
    """
    _sdp["flash"] = bool(enabled)


def mem_efficient_sdp_enabled() -> bool:
    """Whether the memory-efficient SDPA flag is on (default True).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.backends.cuda.mem_efficient_sdp_enabled()
        True
    """
    return _sdp["mem_efficient"]


def enable_mem_efficient_sdp(enabled: bool) -> None:
    """Set the memory-efficient SDPA flag (flags only).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.backends.cuda.enable_mem_efficient_sdp(True)
        >>> torch.backends.cuda.mem_efficient_sdp_enabled()
        True
    """
    _sdp["mem_efficient"] = bool(enabled)


def math_sdp_enabled() -> bool:
    """Whether the math SDPA flag is on (default True).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.backends.cuda.math_sdp_enabled()
        True
    """
    return _sdp["math"]


def enable_math_sdp(enabled: bool) -> None:
    """Set the math SDPA flag (flags only).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.backends.cuda.enable_math_sdp(True)
        >>> torch.backends.cuda.math_sdp_enabled()
        True
    """
    _sdp["math"] = bool(enabled)


def cudnn_sdp_enabled() -> bool:
    """Whether the cuDNN SDPA flag is on (default True).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.backends.cuda.cudnn_sdp_enabled()
        True
    """
    return _sdp["cudnn"]


def enable_cudnn_sdp(enabled: bool) -> None:
    """Set the cuDNN SDPA flag (flags only).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.backends.cuda.enable_cudnn_sdp(True)
        >>> torch.backends.cuda.cudnn_sdp_enabled()
        True
    """
    _sdp["cudnn"] = bool(enabled)
