"""``torch.backends.cpu``."""


def get_cpu_capability() -> str:
    """The CPU's vector capability name (``'DEFAULT'``: fgrad.torch's kernels are NumPy's).

    Example::

        >>> import fgrad.torch as torch
        >>> isinstance(torch.backends.cpu.get_cpu_capability(), str)
        True
    """
    return "DEFAULT"
