"""`MaskedTensor`: a tensor with a bool mask of the elements that exist (PyTorch's prototype
``torch.masked.MaskedTensor``, its basics): elementwise ops keep the mask, binary ops need equal
masks, reductions skip the masked-out elements, and gradients flow to the data.

Unlike PyTorch's (a ``__torch_dispatch__`` Tensor subclass), fgrad's is a plain object holding
``data`` and ``mask`` tensors; the ops it supports are its methods.

Example::

    >>> import fgrad.torch as torch
    >>> mt = torch.masked.masked_tensor(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([True, False, True]))
    >>> mt.sum()
    MaskedTensor(  4.0000, True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import fgrad.torch as torch

from .._tensor import Tensor
from . import _reductions

__all__ = ["MaskedTensor", "as_masked_tensor", "is_masked_tensor", "masked_tensor"]

# elementwise methods that keep the mask
_UNARY = ("abs", "neg", "exp", "expm1", "log", "log1p", "log2", "log10", "sqrt", "rsqrt", "sin", "cos", "tan",
          "tanh", "sigmoid", "relu", "sign", "square", "floor", "ceil", "round", "reciprocal", "clamp", "pow",
          "float", "double", "to", "detach", "clone")
_REDUCTIONS = ("sum", "mean", "amax", "amin", "prod")


def _fmt(value: Any, is_float: bool) -> str:
    return f"{value:8.4f}" if is_float else str(value)


class MaskedTensor:
    """``data`` where ``mask`` is True, "--" elsewhere.

    Example::

        >>> import fgrad.torch as torch
        >>> mt = torch.masked.masked_tensor(torch.tensor([1.0, 2.0]), torch.tensor([True, False]))
        >>> mt * 2
        MaskedTensor(
          [  2.0000,       --]
        )
    """

    def __init__(self, data: Tensor, mask: Tensor, requires_grad: bool = False) -> None:
        if not isinstance(data, Tensor) or not isinstance(mask, Tensor):
            raise TypeError("MaskedTensor: data and mask must be Tensors, got "
                            f"{type(data).__name__} and {type(mask).__name__}")
        if mask.dtype != torch.bool:
            raise TypeError(f"mask must have dtype bool, got {mask.dtype}")
        if tuple(data.shape) != tuple(mask.shape):
            raise ValueError(f"data and mask must have the same shape, got {tuple(data.shape)} and "
                             f"{tuple(mask.shape)}")
        self._masked_data = data
        self._masked_mask = mask
        if requires_grad:
            self._masked_data.requires_grad_()

    # -- the parts
    def get_data(self) -> Tensor:
        """The data (values at masked-out places are unspecified)."""
        return self._masked_data

    def get_mask(self) -> Tensor:
        """The bool mask (True = the element exists)."""
        return self._masked_mask

    def to_tensor(self, value: float) -> Tensor:
        """A plain tensor with ``value`` at the masked-out places."""
        return torch.where(self._masked_mask, self._masked_data,
                           torch.full((), value, dtype=self._masked_data.dtype))

    @property
    def shape(self) -> Any:
        return self._masked_data.shape

    @property
    def dtype(self) -> Any:
        return self._masked_data.dtype

    @property
    def requires_grad(self) -> bool:
        return self._masked_data.requires_grad

    @property
    def grad(self) -> MaskedTensor | None:
        g = self._masked_data.grad
        return None if g is None else MaskedTensor(g, self._masked_mask)

    def dim(self) -> int:
        return self._masked_data.dim()

    def size(self, dim: int | None = None) -> Any:
        return self._masked_data.size() if dim is None else self._masked_data.size(dim)

    def backward(self, gradient: Any = None, retain_graph: bool | None = None, create_graph: bool = False,
                 inputs: Any = None) -> None:
        """Backpropagate from this (0-d) masked tensor into the data it came from."""
        g = gradient.get_data() if isinstance(gradient, MaskedTensor) else gradient
        self._masked_data.backward(g, retain_graph=retain_graph, create_graph=create_graph, inputs=inputs)

    # -- ops
    def _same_mask(self, other: Any) -> Any:
        if isinstance(other, MaskedTensor):
            if not torch.equal(self._masked_mask, other._masked_mask):
                raise ValueError("Input masks must match. If you need support for this, please open an "
                                 "issue on Github.")
            return other._masked_data
        return other

    def _binary(self, name: str) -> Callable[[Any], MaskedTensor]:
        def op(other: Any) -> MaskedTensor:
            return MaskedTensor(getattr(self._masked_data, name)(self._same_mask(other)), self._masked_mask)
        return op

    def __add__(self, other: Any) -> MaskedTensor:
        return self._binary("__add__")(other)

    def __radd__(self, other: Any) -> MaskedTensor:
        return self._binary("__radd__")(other)

    def __sub__(self, other: Any) -> MaskedTensor:
        return self._binary("__sub__")(other)

    def __rsub__(self, other: Any) -> MaskedTensor:
        return self._binary("__rsub__")(other)

    def __mul__(self, other: Any) -> MaskedTensor:
        return self._binary("__mul__")(other)

    def __rmul__(self, other: Any) -> MaskedTensor:
        return self._binary("__rmul__")(other)

    def __truediv__(self, other: Any) -> MaskedTensor:
        return self._binary("__truediv__")(other)

    def __rtruediv__(self, other: Any) -> MaskedTensor:
        return self._binary("__rtruediv__")(other)

    def __pow__(self, other: Any) -> MaskedTensor:
        return self._binary("__pow__")(other)

    def __neg__(self) -> MaskedTensor:
        return MaskedTensor(-self._masked_data, self._masked_mask)

    def __getattr__(self, name: str) -> Any:
        if name in _UNARY:
            method = getattr(self._masked_data, name)
            return lambda *a, **k: MaskedTensor(method(*a, **k), self._masked_mask)
        if name in _REDUCTIONS:
            return lambda dim=None, keepdim=False, **k: self._reduce(name, dim, keepdim, **k)
        raise AttributeError(f"'MaskedTensor' object has no attribute {name!r}")

    def _reduce(self, name: str, dim: Any, keepdim: bool, **kwargs: Any) -> MaskedTensor:
        value = getattr(_reductions, name)(self._masked_data, dim, keepdim=keepdim, mask=self._masked_mask,
                                           **kwargs)
        if dim is None:
            return MaskedTensor(value, self._masked_mask.any())
        dims = (dim,) if isinstance(dim, int) else tuple(dim)
        return MaskedTensor(value, self._masked_mask.any(dims, keepdim=keepdim))

    def softmax(self, dim: int) -> MaskedTensor:
        """The softmax over the existing elements along ``dim``."""
        out = _reductions.softmax(self._masked_data, dim, mask=self._masked_mask)
        return MaskedTensor(out, self._masked_mask)

    def log_softmax(self, dim: int) -> MaskedTensor:
        """The log-softmax over the existing elements along ``dim``."""
        return MaskedTensor(_reductions.log_softmax(self._masked_data, dim, mask=self._masked_mask),
                            self._masked_mask)

    # -- printing (PyTorch's layout)
    def __repr__(self) -> str:
        data = self._masked_data.detach()
        is_float = data.is_floating_point()
        if data.dim() == 0:
            shown = _fmt(data.item(), is_float) if bool(self._masked_mask.item()) else "--"
            return f"MaskedTensor({shown}, {bool(self._masked_mask.item())})"

        def lines(d: Any, m: Any, indent: int) -> list[str]:
            pad = " " * indent
            if d.dim() == 1:
                pairs = zip(d.tolist(), m.tolist(), strict=True)
                cells = [_fmt(v, is_float) if k else "      --" for v, k in pairs]
                return [pad + "[" + ", ".join(cells) + "]"]
            out = [pad + "["]
            for i in range(d.shape[0]):
                sub = lines(d[i], m[i], indent + 2)
                if i < d.shape[0] - 1:
                    sub[-1] += ","
                out.extend(sub)
            return out + [pad + "]"]

        return "MaskedTensor(\n" + "\n".join(lines(data, self._masked_mask, 2)) + "\n)"


def is_masked_tensor(obj: Any, /) -> bool:
    """Whether ``obj`` is a `MaskedTensor`.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.masked.is_masked_tensor(torch.ones(1))
        False
    """
    return isinstance(obj, MaskedTensor)


def masked_tensor(data: Any, mask: Any, requires_grad: bool = False) -> MaskedTensor:
    """A `MaskedTensor` of a copy of ``data`` (a leaf: ``requires_grad`` makes it track gradients).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.masked.masked_tensor(torch.tensor(2.0), torch.tensor(False))
        MaskedTensor(--, False)
    """
    return MaskedTensor(torch.as_tensor(data).detach().clone(), torch.as_tensor(mask), requires_grad)


def as_masked_tensor(data: Any, mask: Any) -> MaskedTensor:
    """A `MaskedTensor` over ``data`` itself (differentiable with respect to it).

    Example::

        >>> import fgrad.torch as torch
        >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
        >>> torch.masked.as_masked_tensor(x, torch.tensor([True, False])).sum().backward()
        >>> x.grad
        tensor([1., 0.])
    """
    return MaskedTensor(torch.as_tensor(data), torch.as_tensor(mask))
