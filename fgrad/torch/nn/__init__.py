# ruff: noqa: F401
"""``fgrad.torch.nn``: modules, functional ops, initialisers (PyTorch's ``torch.nn``).

Example::

    >>> import fgrad.torch as torch
    >>> from fgrad.torch import nn
    >>> net = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 10))
    >>> net(torch.zeros(2, 784)).shape
    torch.Size([2, 10])
"""

import fgrad.torch.nn.functional as functional  # noqa: F401
import fgrad.torch.nn.init as init
import fgrad.torch.nn.utils as utils
import fgrad.torch.nn.parallel as parallel
import fgrad.torch.nn.grad as grad
import fgrad.torch.nn.attention as attention
from .modules import *  # noqa: F401,F403
from .modules import Module  # noqa: F401
from .parameter import Buffer, Parameter, UninitializedBuffer, UninitializedParameter  # noqa: F401
from .parallel import DataParallel  # noqa: F401

__all__ = ["Parameter", "Buffer", "UninitializedParameter", "UninitializedBuffer", "DataParallel", "Module",
           "functional", "init", "utils", "parallel", "grad", "attention"]
from .modules import __all__ as _mods  # noqa: E402

__all__ += _mods
