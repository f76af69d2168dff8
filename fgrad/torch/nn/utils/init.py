"""``skip_init``: build a module without running its parameter initialisation.

PyTorch builds the module on the ``meta`` device and then allocates uninitialised storage,
so no generator state is consumed.  fgrad builds it normally with the default generator's
state saved and restored, then replaces every parameter and buffer by uninitialised storage
of the same shape, dtype and device: the generator is left as PyTorch leaves it and the
values are as arbitrary as PyTorch's.

Example::

    >>> import fgrad.torch as torch
    >>> m = skip_init(torch.nn.Linear, 3, 2)
    >>> tuple(m.weight.shape)
    (2, 3)
"""

from __future__ import annotations

import inspect
from typing import Any

import fgrad.torch as torch

from ..modules.module import Module

__all__ = ["skip_init"]


def skip_init(module_cls: type, *args: Any, **kwargs: Any) -> Any:
    """Instantiate ``module_cls(*args, **kwargs)`` with uninitialised parameters and buffers.

    Example::

        >>> import fgrad.torch as torch
        >>> skip_init(torch.nn.Linear, 1, 1, bias=False).bias is None
        True
    """
    if not (isinstance(module_cls, type) and issubclass(module_cls, Module)):
        raise RuntimeError(f"Expected a Module; got {module_cls}")
    if "device" not in inspect.signature(module_cls).parameters:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    final_device = kwargs.pop("device", "cpu")
    state = torch.get_rng_state()
    try:
        module = module_cls(*args, device=final_device, **kwargs)
    finally:
        torch.set_rng_state(state)
    with torch.no_grad():
        for m in module.modules():
            for p in list(m._parameters.values()):
                if p is not None:
                    p.data = torch.empty_like(p)
            for name, b in list(m._buffers.items()):
                if b is not None:
                    m._buffers[name] = torch.empty_like(b)
    return module
