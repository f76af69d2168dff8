"""``torch.backends.mps``: no Apple-GPU backend in fgrad.torch."""


def is_available() -> bool:
    """False: fgrad.torch has no Apple-GPU backend.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.backends.mps.is_available()
        False
    """
    return False


def is_built() -> bool:
    """False: fgrad.torch is not built with MPS.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.backends.mps.is_built()
        False
    """
    return False
