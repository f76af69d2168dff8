"""The ``grad_fn`` forward-AD results get when PyTorch would record reverse mode through
them (`ForwardADBackward0`), shared by the dispatcher, ``autograd.Function`` and
``autograd.forward_ad``."""

from __future__ import annotations

from typing import Any

from ._dual_state import NO_REVERSE as _NO_REVERSE
from ._tensor import Tensor
from .autograd import graph as G


class ForwardADBackward0(G.Node):
    """The ``grad_fn`` of a result of forward AD computed from tensors that require grad:
    fgrad does not record reverse mode through dual tensors, so a backward pass that reaches
    one raises instead of dropping those gradients."""

    __slots__ = ()

    def _apply(self, cts, create_graph: bool):
        raise NotImplementedError(
            "backward through a forward-AD computation (a result of ops on dual tensors made "
            f"from tensors that require grad): {_NO_REVERSE}")


def mark_no_reverse(t: Tensor) -> Tensor:
    """Give forward-AD result ``t`` the raising grad_fn (see `ForwardADBackward0`)."""
    t._gfn = ForwardADBackward0()
    t._rg = False
    return t


def requires_reverse(args: Any) -> bool:
    """Whether a forward-AD op's operands would make its result require grad in PyTorch."""
    for a in args:
        if isinstance(a, Tensor) and (a._rg or a._gfn is not None):
            return True
    return False

