"""``torch.backends.mkl``: not used by fgrad.torch."""

enabled: bool = False


def is_available() -> bool:
    """Whether MKL is used (False: fgrad.torch's kernels are NumPy's).

    Example::

        >>> import fgrad.torch as torch
        >>> isinstance(torch.backends.mkl.is_available(), bool)
        True
    """
    return False
