"""``torch.backends.cudnn``: flags only (fgrad.torch does not use cuDNN); PyTorch's defaults."""
from typing import Any as _Any

enabled: bool = True
benchmark: bool = False
benchmark_limit: int = 10
deterministic: bool = False
allow_tf32: bool = True


def is_available() -> bool:
    """False: fgrad.torch has no cuDNN backend.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.backends.cudnn.is_available()
        False
    """
    return False


def version() -> None:
    """None, as PyTorch without cuDNN.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.backends.cudnn.version()
    """
    return None


class flags:
    """``with torch.backends.cudnn.flags(enabled=False, ...):`` sets the flags for the block.

    Example::

        >>> import fgrad.torch as torch
        >>> with torch.backends.cudnn.flags(enabled=False):
        ...     print(torch.backends.cudnn.enabled)
        ...
        False
        >>> torch.backends.cudnn.enabled
        True
    """

    def __init__(self, enabled: bool = False, benchmark: _Any = False, benchmark_limit: _Any = 10,
                 deterministic: _Any = False,
                 allow_tf32: _Any = True) -> None:
        self.new = dict(enabled=enabled, benchmark=benchmark, benchmark_limit=benchmark_limit,
                        deterministic=deterministic, allow_tf32=allow_tf32)
        self.old: dict = {}

    def __enter__(self):
        g = globals()
        self.old = {k: g[k] for k in self.new}
        g.update(self.new)
        return self

    def __exit__(self, *exc) -> None:
        globals().update(self.old)
