"""``torch.backends.openmp``: not used by fgrad.torch."""

enabled: bool = False


def is_available() -> bool:
    """Whether OpenMP is used (False: fgrad.torch does not use it).

    Example::

        >>> import fgrad.torch as torch
        >>> isinstance(torch.backends.openmp.is_available(), bool)
        True
    """
    return False
