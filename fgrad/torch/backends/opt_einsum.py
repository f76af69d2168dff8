"""``torch.backends.opt_einsum``: the einsum contraction-order switch (flags only)."""
from typing import Any as _Any

enabled: bool = True
strategy: str = "auto"


def is_available() -> bool:
    """True: fgrad's einsum orders contractions itself (NumPy's ``optimize``).

    Example::

        >>> import fgrad.torch as torch
        >>> isinstance(torch.backends.opt_einsum.is_available(), bool)
        True
    """
    return True


def get_opt_einsum() -> _Any:
    """The ``opt_einsum`` module PyTorch would use (None: fgrad's einsum orders contractions itself).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.backends.opt_einsum.get_opt_einsum() is None or True
        True
    """
    return None
