"""``torch.backends.mha``: the switch of PyTorch's fast path for ``nn.MultiheadAttention`` and
``nn.TransformerEncoder`` inference.  fgrad reads it where the fast path changes what a program
sees: `nn.TransformerEncoder` in eval mode with a key padding mask returns zeros at the padded
positions (PyTorch runs the batch as a nested tensor), unless the fast path is off.

Example::

    >>> import fgrad.torch as torch
    >>> torch.backends.mha.get_fastpath_enabled()
    True
"""

from __future__ import annotations

__all__ = ["get_fastpath_enabled", "set_fastpath_enabled"]

_is_fastpath_enabled: bool = True


def get_fastpath_enabled() -> bool:
    """Whether the fast path may run (True unless `set_fastpath_enabled` turned it off).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.backends.mha.get_fastpath_enabled()
        True
    """
    return _is_fastpath_enabled


def set_fastpath_enabled(value: bool) -> None:
    """Turn the fast path on or off.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.backends.mha.set_fastpath_enabled(False)
        >>> torch.backends.mha.get_fastpath_enabled()
        False
        >>> torch.backends.mha.set_fastpath_enabled(True)
    """
    global _is_fastpath_enabled
    _is_fastpath_enabled = bool(value)
