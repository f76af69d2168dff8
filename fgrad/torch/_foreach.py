"""``torch._foreach_*``: the list-of-tensors ops that optimizers and weight-averaging code
(timm's ModelEmaV3, nanoGPT-style EMA) call directly, e.g. ``torch._foreach_mul_(ema, decay)``.

Each is a loop over the Tensor method of the same name -- no op is defined again -- with
PyTorch's argument forms: a scalar, a list of scalars, a list of tensors or (binary ops) one
tensor for every entry.  The in-place forms (trailing ``_``) modify the tensors and return the
list, as PyTorch 2.13 does; the others return a tuple.

    >>> import fgrad.torch as torch
    >>> ema = [torch.ones(2), torch.zeros(1)]
    >>> _ = torch._foreach_lerp_(ema, [torch.zeros(2), torch.ones(1)], 0.25)
    >>> ema
    [tensor([0.7500, 0.7500]), tensor([0.2500])]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ._faces import BINOPS
from ._ops import vector_norm
from ._tensor import Tensor

UNARY = ("abs", "acos", "asin", "atan", "ceil", "cos", "cosh", "erf", "erfc", "exp", "expm1", "floor",
         "frac", "lgamma", "log", "log10", "log1p", "log2", "neg", "reciprocal", "round", "rsqrt",
         "sigmoid", "sign", "sin", "sinh", "sqrt", "tan", "tanh", "trunc", "zero")
BINARY = ("add", "sub", "mul", "div", "pow", "maximum", "minimum", "clamp_min", "clamp_max")
TERNARY = ("addcmul", "addcdiv", "lerp")


def _same_length(name: str, *lists: Sequence) -> None:
    n = len(lists[0])
    for other in lists[1:]:
        if len(other) != n:
            raise RuntimeError(f"torch._foreach_{name}: Tensor lists must have the same number of tensors, "
                               f"got {n} and {len(other)}")


def _per_entry(name: str, tensors: Sequence[Tensor], arg: Any) -> list:
    """``arg`` as one value per tensor: a list/tuple is taken entry by entry, anything else
    (a scalar or one tensor) is shared."""
    if isinstance(arg, (list, tuple)):
        _same_length(name, tensors, arg)
        return list(arg)
    return [arg] * len(tensors)


def _method(name: str, inplace: bool) -> str:
    return name + ("_" if inplace else "")


def _unary(name: str, inplace: bool) -> Callable[..., Any]:
    def op(self: Sequence[Tensor]) -> Any:
        if name == "zero":
            for t in self:
                t.zero_()
            return list(self) if inplace else None
        outs = [getattr(t, _method(name, inplace))() for t in self]
        return list(self) if inplace else tuple(outs)
    return op


def _binary(name: str, inplace: bool) -> Callable[..., Any]:
    def op(self: Sequence[Tensor], other: Any, *, alpha: float | None = None) -> Any:
        others = _per_entry(name, self, other)
        kw = {} if alpha is None else {"alpha": alpha}
        if name in ("maximum", "minimum"):
            # (a scalar is PyTorch's ``_foreach_maximum.Scalar``: the binop itself, which
            # ``Tensor.maximum`` refuses a number for)
            binop = BINOPS[name]
            outs = [binop(t, o) for t, o in zip(self, others)]
            if inplace:
                outs = [t.copy_(r) for t, r in zip(self, outs)]
        else:
            outs = [getattr(t, _method(name, inplace))(o, **kw) for t, o in zip(self, others)]
        return list(self) if inplace else tuple(outs)
    return op


def _ternary(name: str, inplace: bool) -> Callable[..., Any]:
    def op(self: Sequence[Tensor], tensor1: Any, tensor2: Any = None, value: Any = 1) -> Any:
        firsts = _per_entry(name, self, tensor1)
        if name == "lerp":
            weights = _per_entry(name, self, tensor2)
            outs = [getattr(t, _method(name, inplace))(e, w) for t, e, w in zip(self, firsts, weights)]
        else:
            seconds = _per_entry(name, self, tensor2)
            values = _per_entry(name, self, value)
            outs = [getattr(t, _method(name, inplace))(a, b, value=v)
                    for t, a, b, v in zip(self, firsts, seconds, values)]
        return list(self) if inplace else tuple(outs)
    return op


def _foreach_norm(self: Sequence[Tensor], ord: float = 2, dtype: Any = None) -> tuple:  # noqa: A002
    """The ``ord``-norm of each tensor (``torch.linalg.vector_norm``)."""
    return tuple(vector_norm(t, ord, dtype=dtype) for t in self)


def _foreach_copy_(self: Sequence[Tensor], src: Sequence[Tensor], non_blocking: bool = False) -> list:
    """Copies ``src[i]`` into ``self[i]``."""
    _same_length("copy_", self, src)
    for t, s in zip(self, src):
        t.copy_(s)
    return list(self)


def export(namespace: dict) -> None:
    """Puts every ``_foreach_*`` function into ``namespace`` (the ``fgrad.torch`` module's)."""
    makers = [(UNARY, _unary), (BINARY, _binary), (TERNARY, _ternary)]
    for names, make in makers:
        for name in names:
            for inplace in (False, True):
                if name == "zero" and not inplace:
                    continue
                full = f"_foreach_{name}{'_' if inplace else ''}"
                fn = make(name, inplace)
                fn.__name__ = fn.__qualname__ = full
                fn.__doc__ = (f"``torch.{full}``: ``Tensor.{_method(name, inplace)}`` on each tensor of "
                              f"a list{' (in place; returns the list)' if inplace else ''}.")
                namespace[full] = fn
    namespace["_foreach_norm"] = _foreach_norm
    namespace["_foreach_copy_"] = _foreach_copy_
