"""The Tensors a torch.func transform's function reads from outside its arguments.

PyTorch's torch.func transforms compose with ordinary autograd: a function that closes over
a module's parameters (``jacrev(lambda x: model(x))(x)``) returns a result whose ``grad_fn``
reaches those parameters, so a Jacobian penalty trains the model.  fgrad traces the function
with its arguments only; while the outermost transform runs, the ops note here every concrete
Tensor that requires grad among their operands (`note`: the functional-mode path and the
autograd recorders call it), and `fgrad.torch.func` runs the transform again with them as
extra inputs of its one autograd node.

Example::

    >>> import fgrad.torch as torch
    >>> w = torch.tensor(3.0, requires_grad=True)
    >>> g = torch.func.grad(lambda x: w * x ** 2)(torch.tensor(2.0))
    >>> g.backward(); g.item(), w.grad.item()
    (12.0, 4.0)
"""

from __future__ import annotations

import typing
import weakref

import numpy as np

from ._device import DEV as _DEV
from ._tensor import Tensor

SEEN: list = [None]  # the outermost transform's WeakValueDictionary (id -> Tensor) while it runs


def note(args: typing.Iterable[typing.Any]) -> None:
    """Remember the concrete Tensors requiring grad among an op's operands ``args``."""
    seen = SEEN[0]
    for a in args:
        if isinstance(a, Tensor) and (a._rg or a._gfn is not None) and (
                type(a._buf) is np.ndarray or type(a._buf) in _DEV):
            seen[id(a)] = a


def start() -> weakref.WeakValueDictionary:
    """Begin noting (the outermost transform); returns the dictionary filled."""
    SEEN[0] = weakref.WeakValueDictionary()
    return SEEN[0]
