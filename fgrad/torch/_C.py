"""``torch._C``: the few names of PyTorch's C extension that Python programs use directly
(the ``__torch_function__`` switches, defined in `fgrad.torch.overrides`).

Example::

    >>> import fgrad.torch as torch
    >>> torch._C._is_torch_function_enabled()
    True
"""

from .overrides import (  # noqa: F401
    DisableTorchFunction,
    DisableTorchFunctionSubclass,
    _disabled_torch_function_impl,
    _is_torch_function_enabled,
)
