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
from ..overrides import _disabled_torch_function_impl
from typing import Any

__all__ = ["Parameter", "Buffer", "UninitializedParameter", "UninitializedBuffer", "is_lazy"]


class Parameter(Tensor):
    """A tensor that is a module parameter: ``Parameter(data=None, requires_grad=True)``.

    Example::

        >>> import fgrad.torch as torch
        >>> p = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
        >>> p
        Parameter containing:
        tensor([1., 2.], requires_grad=True)
        >>> torch.nn.Linear(2, 1).weight.__class__.__name__
        'Parameter'
    """

    __torch_function__ = _disabled_torch_function_impl  # as PyTorch: not a subclass override

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
    assigned to a module attribute.  Returns a plain `Tensor` carrying the mark.

    Example::

        >>> import fgrad.torch as torch
        >>> m = torch.nn.Module()
        >>> m.stats = torch.nn.Buffer(torch.zeros(2))
        >>> list(m.state_dict()), list(m.parameters())
        (['stats'], [])
    """

    def __new__(cls, data=None, *, persistent: bool = True):
        if data is None:
            data = torch.empty(0)
        t = Tensor._make_subclass(Tensor, data.detach(), data.requires_grad and data.is_leaf)
        t._is_buffer = True
        t._persistent = persistent
        return t


class UninitializedTensorMixin:
    """A tensor with no shape yet: ``materialize(shape)`` gives it storage and turns it into
    ``cls_to_become`` (what lazy modules hold until their first forward)."""

    __torch_function__ = _disabled_torch_function_impl  # as PyTorch: not a subclass override

    cls_to_become: type = Tensor

    def materialize(self, shape: torch.types.SizeLike, device: torch.types.Device = None,
                    dtype: torch.types.DType | None = None) -> None:
        """Allocate (uninitialised) storage of ``shape`` and become ``cls_to_become``.

        Example::

            >>> p = UninitializedParameter()
            >>> p.materialize((2, 3))
            >>> type(p).__name__, tuple(p.shape)
            ('Parameter', (2, 3))
        """
        if device is None:
            device = self.data.device
        if dtype is None:
            dtype = self.data.dtype
        self.data = torch.empty(shape, device=device, dtype=dtype)
        self.__class__ = self.cls_to_become

    @property
    def shape(self) -> torch.Size:
        raise RuntimeError("Can't access the shape of an uninitialized parameter or buffer. This error "
                           "usually "
                           "happens in `load_state_dict` when trying to load an uninitialized parameter "
                           "into an "
                           "initialized one. Call `forward` to initialize the parameters before accessing "
                           "their "
                           "attributes.")

    def __repr__(self) -> str:
        return f"<{self.__class__.__name__}>"

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(requires_grad=self.requires_grad, device=self.data.device, dtype=self.data.dtype)
        memo[id(self)] = result
        return result

    def __reduce_ex__(self, proto):
        return (self.__class__, (self.requires_grad,))


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """A `Parameter` whose shape is decided later (``materialize``).

    Example::

        >>> UninitializedParameter()
        <UninitializedParameter>
    """

    cls_to_become = Parameter

    def __new__(cls, requires_grad: bool = True, device=None, dtype=None):
        data = torch.empty(0, device=device, dtype=dtype)
        return Tensor._make_subclass(cls, data, requires_grad)

    def __init__(self, requires_grad: bool = True, device: torch.types.Device = None,
                 dtype: torch.types.DType | None = None) -> None:
        pass


class UninitializedBuffer(UninitializedTensorMixin, Tensor):
    """A buffer whose shape is decided later (``materialize``).

    Example::

        >>> UninitializedBuffer()
        <UninitializedBuffer>
    """

    cls_to_become = Tensor

    def __new__(cls, requires_grad: bool = False, device=None, dtype=None, persistent: bool = True):
        data = torch.empty(0, device=device, dtype=dtype)
        t = Tensor._make_subclass(cls, data, requires_grad)
        t._is_buffer = True
        t._persistent = persistent
        return t

    def __init__(self, requires_grad: bool = False, device: torch.types.Device = None,
                 dtype: torch.types.DType | None = None, persistent: bool = True) -> None:
        pass


def is_lazy(param: Any) -> bool:
    """True for a parameter or buffer not yet materialized.

    Example::

        >>> is_lazy(UninitializedParameter())
        True
    """
    return isinstance(param, UninitializedTensorMixin)
