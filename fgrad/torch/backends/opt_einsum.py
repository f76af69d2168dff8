"""``torch.backends.opt_einsum``: the einsum contraction-order switch (flags only)."""
from typing import Any as _Any

enabled: bool = True
strategy: str = "auto"


def is_available() -> bool:
    """True: fgrad's einsum orders contractions itself (NumPy's ``optimize``)."""
    return True


def get_opt_einsum() -> _Any:
    return None
