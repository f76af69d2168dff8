"""``DataParallel``: PyTorch's single-process multi-device wrapper, on one device.

fgrad runs a module on one device, so ``DataParallel(module)`` calls ``module`` directly
(PyTorch does the same when no accelerator is present or one device is given); its
``state_dict`` keys carry the ``module.`` prefix, as PyTorch's.  Asking for several devices
raises, rather than silently running on one.

Example::

    >>> import fgrad.torch as torch
    >>> dp = torch.nn.DataParallel(torch.nn.Linear(2, 1))
    >>> list(dp.state_dict())
    ['module.weight', 'module.bias']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import fgrad.torch as torch
from ..modules.module import Module

__all__ = ["DataParallel"]


class DataParallel(Module):
    """Run ``module`` (on its one device); see the module docstring.

    Example::

        >>> import fgrad.torch as torch
        >>> m = torch.nn.DataParallel(torch.nn.Identity())
        >>> m(torch.tensor([1.0, 2.0])), type(m.module).__name__
        (tensor([1., 2.]), 'Identity')
    """

    def __init__(self, module: Module, device_ids: Sequence[int | torch.device] | None = None,
                 output_device: int | torch.device | None = None, dim: int = 0) -> None:
        super().__init__()
        self.module = module
        self.dim = dim
        if not torch.cuda.is_available():
            self.device_ids = []
            return
        if device_ids is None:
            device_ids = [0]
        ids = [d.index if isinstance(d, torch.device) else int(d) for d in device_ids]
        if len(ids) > 1:
            raise NotImplementedError(f"fgrad.torch.nn.DataParallel runs on one device; got "
                                      f"device_ids={ids}. "
                                      "Use DistributedDataParallel for several devices.")
        self.device_ids = ids
        self.output_device = ids[0] if output_device is None else output_device

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        return self.module(*inputs, **kwargs)
