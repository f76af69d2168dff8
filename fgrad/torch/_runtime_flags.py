"""PyTorch's process-wide switches and queries that CPU programs call at start-up:
``set_float32_matmul_precision`` (and its getter), deterministic-algorithm flags, thread
counts, ``set_warn_always``, ``set_flush_denormal``, the ``has_*`` build flags, ``get_device``
and ``torch.version``.  The settings are remembered and reported back; fgrad's CPU kernels
are deterministic and compute float32 products in float32 whatever the precision setting
(PyTorch on a CPU does the same).

Example::

    >>> import fgrad.torch as torch
    >>> torch.set_float32_matmul_precision("high")
    >>> torch.get_float32_matmul_precision()
    'high'
    >>> torch.set_float32_matmul_precision("highest")
"""

from __future__ import annotations

import types
from typing import Any

from ._tensor import Tensor

__all__ = [
    "are_deterministic_algorithms_enabled",
    "get_deterministic_debug_mode",
    "get_device",
    "get_float32_matmul_precision",
    "get_num_interop_threads",
    "get_num_threads",
    "has_lapack",
    "has_mkl",
    "has_openmp",
    "has_spectral",
    "init_num_threads",
    "is_deterministic_algorithms_warn_only_enabled",
    "is_warn_always_enabled",
    "set_deterministic_debug_mode",
    "set_flush_denormal",
    "set_float32_matmul_precision",
    "set_num_interop_threads",
    "set_num_threads",
    "set_warn_always",
    "use_deterministic_algorithms",
]

_STATE: dict[str, Any] = {
    "matmul_precision": "highest",
    "deterministic": False,
    "deterministic_warn_only": False,
    "warn_always": False,
    "num_threads": None,
    "num_interop_threads": None,
}
_DEBUG_MODES = {"default": 0, "warn": 1, "error": 2}


def _check_bool(what: str, value: Any) -> None:
    """PyTorch's RuntimeError for a non-bool switch (``"flush_denormal expects a bool, ..."``)."""
    if not isinstance(value, bool):
        raise RuntimeError(f"{what} expects a bool, but got {type(value).__name__}")

has_lapack = True
has_mkl = False
has_openmp = False
has_spectral = True


def set_float32_matmul_precision(precision: str) -> None:
    """Record the float32 matrix-product precision (``"highest"``, ``"high"`` or ``"medium"``).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.set_float32_matmul_precision("medium")
        >>> torch.set_float32_matmul_precision("highest")
    """
    if precision not in ("highest", "high", "medium"):
        raise RuntimeError(f"Invalid precision {precision}: expected one of highest, high, medium")
    _STATE["matmul_precision"] = precision


def get_float32_matmul_precision() -> str:
    """The recorded float32 matrix-product precision (``"highest"`` by default).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.get_float32_matmul_precision()
        'highest'
    """
    return _STATE["matmul_precision"]


def use_deterministic_algorithms(mode: bool, *, warn_only: bool = False) -> None:
    """Record the deterministic-algorithms switch (fgrad's CPU kernels are deterministic).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.use_deterministic_algorithms(True)
        >>> torch.are_deterministic_algorithms_enabled()
        True
        >>> torch.use_deterministic_algorithms(False)
    """
    if not isinstance(mode, bool):
        raise TypeError(
            f"use_deterministic_algorithms(): argument 'mode' (position 1) must be bool, not "
            f"{type(mode).__name__}"
        )
    _STATE["deterministic"] = mode
    _STATE["deterministic_warn_only"] = bool(warn_only) and mode


def are_deterministic_algorithms_enabled() -> bool:
    """Whether `use_deterministic_algorithms` was switched on.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.are_deterministic_algorithms_enabled()
        False
    """
    return _STATE["deterministic"]


def is_deterministic_algorithms_warn_only_enabled() -> bool:
    """Whether the deterministic switch was set with ``warn_only=True``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.is_deterministic_algorithms_warn_only_enabled()
        False
    """
    return _STATE["deterministic_warn_only"]


def set_deterministic_debug_mode(debug_mode: str | int) -> None:
    """``"default"``/0, ``"warn"``/1 or ``"error"``/2: the deterministic switch as PyTorch maps it.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.set_deterministic_debug_mode("warn")
        >>> torch.get_deterministic_debug_mode()
        1
        >>> torch.set_deterministic_debug_mode(0)
    """
    if isinstance(debug_mode, str):
        if debug_mode not in _DEBUG_MODES:
            raise RuntimeError(
                f"invalid value of debug_mode, expected one of `default`, `warn`, `error`, but "
                f"got {debug_mode}"
            )
        debug_mode = _DEBUG_MODES[debug_mode]
    if debug_mode not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got {debug_mode}")
    use_deterministic_algorithms(debug_mode != 0, warn_only=debug_mode == 1)


def get_deterministic_debug_mode() -> int:
    """0 (off), 1 (warn) or 2 (error).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.get_deterministic_debug_mode()
        0
    """
    if not _STATE["deterministic"]:
        return 0
    return 1 if _STATE["deterministic_warn_only"] else 2


def set_warn_always(b: bool) -> None:
    """Record whether warnings PyTorch gives once should be given every time.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.set_warn_always(False)
    """
    _check_bool("setWarnOnlyOnce", b)
    _STATE["warn_always"] = b


def is_warn_always_enabled() -> bool:
    """Whether `set_warn_always` was switched on.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.is_warn_always_enabled()
        False
    """
    return _STATE["warn_always"]


def set_flush_denormal(mode: bool) -> bool:
    """False: fgrad's host kernels (NumPy's) cannot flush denormals; PyTorch returns False too
    where the CPU does not support it.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.set_flush_denormal(True)
        False
    """
    _check_bool("flush_denormal", mode)
    return False


def set_num_threads(n: int) -> None:
    """Record the intra-op thread count (NumPy's BLAS keeps its own setting).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.set_num_threads(2)
        >>> torch.get_num_threads()
        2
    """
    if isinstance(n, bool) or not isinstance(n, int):
        raise RuntimeError(f"set_num_threads expects an int, but got {type(n).__name__}")
    if n <= 0:
        raise RuntimeError("set_num_threads expects a positive integer")
    _STATE["num_threads"] = int(n)


def get_num_threads() -> int:
    """The recorded thread count (default: the number of CPUs, as PyTorch).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.get_num_threads() >= 1
        True
    """
    import os

    return _STATE["num_threads"] or max(
        1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    )


def set_num_interop_threads(n: int) -> None:
    """Record the inter-op thread count.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.set_num_interop_threads(1)
    """
    if int(n) <= 0:
        raise RuntimeError("Expected positive number of threads")
    _STATE["num_interop_threads"] = int(n)


def get_num_interop_threads() -> int:
    """The recorded inter-op thread count (default: as `get_num_threads`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.get_num_interop_threads() >= 1
        True
    """
    return _STATE["num_interop_threads"] or get_num_threads()


def init_num_threads() -> None:
    """Nothing to initialise.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.init_num_threads()
    """


def get_device(input: Any) -> int:
    """-1 for a CPU tensor, the device index of a CUDA one.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.get_device(torch.zeros(1))
        -1
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"get_device(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    return input.get_device()


def version_module(torch_version: str) -> types.ModuleType:
    """``torch.version``: the PyTorch version this shim follows; no CUDA/HIP build."""
    mod = types.ModuleType("fgrad.torch.version", "torch.version: the PyTorch release fgrad.torch follows.")
    mod.__version__ = torch_version
    mod.cuda = None
    mod.hip = None
    mod.git_version = "fgrad"
    mod.debug = False
    return mod


def install(namespace: dict) -> None:
    """Put the switches into ``fgrad.torch``'s namespace (replacing the earlier stubs)."""
    import sys

    for name in __all__:
        namespace[name] = globals()[name]
    version = version_module(namespace["__version__"])
    sys.modules[version.__name__] = version
    namespace["version"] = version
