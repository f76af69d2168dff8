"""``torch.accelerator``: the device-agnostic accelerator API. fgrad.torch's accelerator is
CUDA through CuPy (`fgrad.torch.cuda`); without it, ``is_available()`` is False and
``current_accelerator()`` is None, as PyTorch on a CPU-only machine.

Example::

    >>> import fgrad.torch as torch
    >>> device = torch.accelerator.current_accelerator() if torch.accelerator.is_available() else "cpu"
    >>> torch.zeros(2, device=device).sum().item()
    0.0
"""

from __future__ import annotations

import fgrad.torch.cuda as _cuda
from ._tensor import device as _device
from fgrad.torch.types import Device

__all__ = [
    "is_available",
    "current_accelerator",
    "device_count",
    "current_device_index",
    "set_device_index",
    "current_device_idx",
    "set_device_idx",
    "synchronize",
    "device_index",
]


def is_available() -> bool:
    """Whether an accelerator (a CUDA device through CuPy) can be used.

    Example::

        >>> import fgrad.torch as torch
        >>> isinstance(torch.accelerator.is_available(), bool)
        True
    """
    return _cuda.is_available()


def current_accelerator(check_available: bool = False) -> Device:
    """``device('cuda')`` when CUDA is usable, else None (``check_available`` as PyTorch).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.accelerator.current_accelerator() in (None, torch.device("cuda"))
        True
    """
    return _device("cuda") if _cuda.is_available() else None


def device_count() -> int:
    """How many accelerator devices there are (0 without one).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.accelerator.device_count() >= 0
        True
    """
    return _cuda.device_count() if _cuda.is_available() else 0


def _require(name: str) -> None:
    if not _cuda.is_available():
        raise RuntimeError(
            f"torch.accelerator.{name}: no accelerator is available (fgrad.torch's accelerator "
            "is CUDA through CuPy); check torch.accelerator.is_available() first"
        )


def current_device_index() -> int:
    """The index of the current accelerator device (RuntimeError without one).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.accelerator.current_device_index() if torch.accelerator.is_available() else 0
        0
    """
    _require("current_device_index")
    return _cuda.current_device()


def set_device_index(device: Device | str | int) -> None:
    """Make ``device`` (an index or device) the current accelerator device.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.accelerator.set_device_index(0) if torch.accelerator.is_available() else None
    """
    _require("set_device_index")
    _cuda.set_device(device)


current_device_idx = current_device_index
set_device_idx = set_device_index


def synchronize(device: Device = None) -> None:
    """Wait for all work on the accelerator to finish.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.accelerator.synchronize() if torch.accelerator.is_available() else None
    """
    _require("synchronize")
    _cuda.synchronize(device)


class device_index:
    """``with torch.accelerator.device_index(i): ...`` (``None`` does nothing).

    Example::

        >>> import fgrad.torch as torch
        >>> with torch.accelerator.device_index(None):
        ...     print(torch.zeros(1))
        ...
        tensor([0.])
    """

    def __init__(self, device: int | None) -> None:
        self.idx = device
        self._ctx = None

    def __enter__(self):
        if self.idx is not None:
            self._ctx = _cuda.device(self.idx)
            self._ctx.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        if self._ctx is not None:
            self._ctx.__exit__(*exc)
