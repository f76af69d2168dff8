"""`Parameter` and `Buffer`: tensors a `Module` registers as its state.

A `Parameter` is a `Tensor` subclass that shares its data's memory, requires grad by default
and prints as ``Parameter containing:\\ntensor(...)``.

Example::

    >>> import fgrad.torch as torch
    >>> p = torch.nn.Parameter(torch.ones(2))
    >>> p
    Parameter containing:
    tensor([1., 1.], requires_grad=True)
"""

from __future__ import annotations

import fgrad.torch as torch

from .._tensor import Tensor
from typing import Any

__all__ = ["Parameter", "Buffer", "is_lazy"]


class Parameter(Tensor):
    """A tensor that is a module parameter: ``Parameter(data=None, requires_grad=True)``."""

    _is_param = True

    def __new__(cls, data=None, requires_grad: bool = True):
        if data is None:
            data = torch.empty(0)
        if not isinstance(data, Tensor):
            raise TypeError(f"Parameter(): expected a Tensor for data, got {type(data).__name__}")
        return Tensor._make_subclass(cls, data, requires_grad)

    def __init__(self, data: Any = None, requires_grad: bool = True) -> None:
        pass

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(self.data.clone(), self.requires_grad)
        memo[id(self)] = result
        return result

    def __reduce_ex__(self, proto):
        return (_rebuild_parameter, (self.data, self.requires_grad))


def _rebuild_parameter(data, requires_grad):
    return Parameter(data, requires_grad)


class _BufferMeta(type):
    def __instancecheck__(cls, inst) -> bool:
        return isinstance(inst, Tensor) and getattr(inst, "_is_buffer", False)


class Buffer(metaclass=_BufferMeta):
    """``nn.Buffer(data, persistent=True)``: marks a tensor to be registered as a buffer when
    assigned to a module attribute.  Returns a plain `Tensor` carrying the mark."""

    def __new__(cls, data=None, *, persistent: bool = True):
        if data is None:
            data = torch.empty(0)
        t = Tensor._make_subclass(Tensor, data.detach(), data.requires_grad and data.is_leaf)
        t._is_buffer = True
        t._persistent = persistent
        return t


def is_lazy(param: Any) -> bool:
    return False
