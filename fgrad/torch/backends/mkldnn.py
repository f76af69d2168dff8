"""``torch.backends.mkldnn``: not used by fgrad.torch."""

enabled: bool = False


def is_available() -> bool:
    """Whether oneDNN is used (False: fgrad.torch's kernels are NumPy's).

    Example::

        >>> import fgrad.torch as torch
        >>> isinstance(torch.backends.mkldnn.is_available(), bool)
        True
    """
    return False
