"""``torch.autograd.forward_ad``: forward-mode AD with dual tensors, as PyTorch's.

Inside ``with dual_level():``, ``make_dual(x, t)`` gives a tensor that carries the tangent
``t`` with the value ``x``; every op on it computes the output's tangent too (the op's JVP
rule, the same rule ``fgrad.jvp`` uses), and ``unpack_dual(y)`` returns ``(primal, tangent)``.
When the level exits, dual tensors become plain tensors (their primal values).

Example::

    >>> import fgrad.torch as torch
    >>> import fgrad.torch.autograd.forward_ad as fwAD
    >>> with fwAD.dual_level():
    ...     x = fwAD.make_dual(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 1.0]))
    ...     fwAD.unpack_dual(x.sin() * 2).tangent
    tensor([2.0000, 1.0806])

A dual level is an fgrad forward-mode trace (`ForwardTrace`) left open while the block runs;
a dual tensor holds one of its tracers, so ops on it run in the PyTorch face's functional
mode (as under ``torch.func``).  ``torch.no_grad`` does not stop tangents (PyTorch's rule:
grad mode is about reverse mode); ``detach`` and ``inference_mode`` do.  One difference: the
result of an op on a dual tensor does not record a backward graph, so reverse mode through
forward AD (``.backward()`` of a function of dual tensors) is not supported; use
``torch.func.jacrev(torch.func.jacfwd(f))``-style composition for mixed modes.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, NamedTuple

from ...core.array import ArrayImpl, Tracer
from ...core.trace import new_trace
from ...transforms.jvp_trace import ForwardTrace, JVPTracer
from .._dispatch import fgrad_value, from_fgrad_value
from .._tensor import Tensor, _wrap
from .._dual_marks import mark_no_reverse, requires_reverse
from ..autograd.grad_mode import STATE
from .._dual_state import LEVEL


class UnpackedDualTensor(NamedTuple):
    """``(primal, tangent)`` of a dual tensor, what `unpack_dual` returns.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.autograd.forward_ad import UnpackedDualTensor
        >>> UnpackedDualTensor(torch.tensor(1.0), None).tangent is None
        True
    """

    primal: Tensor
    tangent: Tensor | None


def enter_dual_level() -> int:
    """Open the forward-AD level (only one may be open, as in PyTorch); returns its number, 0.

    Example::

        >>> import fgrad.torch.autograd.forward_ad as fwAD
        >>> fwAD.enter_dual_level()
        0
        >>> fwAD.exit_dual_level()
    """
    if LEVEL.trace is not None:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    scope = new_trace(ForwardTrace, "torch.autograd.forward_ad.dual_level")
    LEVEL.trace = scope.__enter__()
    LEVEL.scope = scope
    LEVEL.tensors = []
    return 0


def _strip(value: Any, trace: Any) -> Any:
    """``value`` without the tangents of ``trace`` (at any depth of nested tracers)."""
    if type(value) is JVPTracer:
        if value._trace is trace:
            return _strip(value.primal, trace)
        primal, tangent = _strip(value.primal, trace), _strip(value.tangent, trace)
        if primal is value.primal and tangent is value.tangent:
            return value
        return JVPTracer(value._trace, primal, tangent)
    return value


def exit_dual_level(*, level: int | None = None) -> None:
    """Close the forward-AD level: every dual tensor becomes its primal value.

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.autograd.forward_ad as fwAD
        >>> _ = fwAD.enter_dual_level()
        >>> x = fwAD.make_dual(torch.tensor(2.0), torch.tensor(1.0))
        >>> fwAD.exit_dual_level()
        >>> fwAD.unpack_dual(x * 3)
        UnpackedDualTensor(primal=tensor(6.), tangent=None)
    """
    if LEVEL.trace is None or level not in (None, 0):
        raise RuntimeError("Trying to exit a forward AD level that was not the last one that was "
                           "created. This is not supported.")
    trace, scope, tensors = LEVEL.trace, LEVEL.scope, LEVEL.tensors
    LEVEL.trace = LEVEL.scope = None
    LEVEL.tensors = []
    scope.__exit__(None, None, None)
    for ref in tensors:
        t = ref()
        if t is None or not isinstance(t._buf, Tracer):
            continue
        v = _strip(t._buf, trace)
        if v is not t._buf:
            t._buf = v._buf if type(v) is ArrayImpl else v
            if not isinstance(t._buf, Tracer):  # a concrete value again: an ordinary tensor
                t._buf = from_fgrad_value(v)._buf
        t.__dict__.pop("_fw_given", None)
        t.__dict__.pop("_fw_src", None)


def _check_level(level: int | None) -> Any:
    if level not in (None, 0):
        raise RuntimeError(f"forward AD level {level} does not exist: fgrad supports one level, 0")
    return LEVEL.trace


def make_dual(tensor: Tensor, tangent: Tensor, *, level: int | None = None) -> Tensor:
    """A dual tensor: ``tensor``'s value carrying ``tangent`` through forward-mode AD.

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.autograd.forward_ad as fwAD
        >>> with fwAD.dual_level():
        ...     y = fwAD.make_dual(torch.tensor(3.0), torch.tensor(1.0)) ** 2
        ...     fwAD.unpack_dual(y).tangent
        tensor(6.)
    """
    trace = _check_level(level)
    if trace is None:
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level exists, make sure "
                           "to enter_dual_level() first.")
    if not isinstance(tensor, Tensor) or not isinstance(tangent, Tensor):
        raise TypeError(f"make_dual(): expected Tensors, got {type(tensor).__name__} and "
                        f"{type(tangent).__name__}")
    if not (tensor.is_floating_point() or tensor.is_complex()):
        raise ValueError(f"Expected primal to be floating point or complex, but got: {tensor.dtype}")
    if not (tangent.is_floating_point() or tangent.is_complex()):
        raise ValueError(f"Expected tangent to be floating point or complex, but got: {tangent.dtype}")
    if tuple(tensor.shape) != tuple(tangent.shape):
        raise RuntimeError(
            "Trying to set a forward gradient that has a different size than that of the original "
            f"Tensor, this is not supported. Tensor is of size {list(tensor.shape)} while the given "
            f"forward gradient is of size {list(tangent.shape)}.")
    primal = fgrad_value(tensor)
    if type(primal) is JVPTracer and primal._trace is trace:
        primal = primal.primal
    given = fgrad_value(tangent)
    if type(given) is ArrayImpl:
        given = ArrayImpl(given._buf.copy())  # the tangent's value now, as the tracer sees it
    dual = JVPTracer(trace, primal, given)
    out = _wrap(dual)
    LEVEL.track(out)
    if STATE.enabled and requires_reverse((tensor, tangent)):
        mark_no_reverse(out)
    if not isinstance(tensor._buf, Tracer):  # in-place writes to the dual write here too
        out._fw_src = tensor
    if tensor.stride() == tangent.stride():  # PyTorch keeps the tangent object as-is then
        out._fw_given = (dual, tangent)
    return out


def unpack_dual(tensor: Any, *, level: int | None = None) -> UnpackedDualTensor:
    """``(primal, tangent)`` of ``tensor``; the tangent is None for a tensor that is not dual.

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.autograd.forward_ad as fwAD
        >>> with fwAD.dual_level():
        ...     x = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([0.5, 0.5]))
        ...     fwAD.unpack_dual(x.exp())
        UnpackedDualTensor(primal=tensor([2.7183, 7.3891]), tangent=tensor([1.3591, 3.6945]))
    """
    trace = _check_level(level)
    if trace is None or not isinstance(tensor, Tensor):
        return UnpackedDualTensor(tensor, None)
    value = fgrad_value(tensor)
    if type(value) is not JVPTracer or value._trace is not trace:
        return UnpackedDualTensor(tensor, None)
    given = tensor.__dict__.get("_fw_given")
    primal = from_fgrad_value(value.primal)
    if given is not None and given[0] is value:
        tangent = given[1]
    else:
        tangent = from_fgrad_value(value.tangent)
        if STATE.enabled and requires_reverse((tensor,)):
            mark_no_reverse(tangent)
    if STATE.enabled and requires_reverse((tensor,)):
        mark_no_reverse(primal)
    return UnpackedDualTensor(primal, tangent)


def _tangent_of(tensor: Tensor) -> Tensor | None:
    """The forward-AD tangent of ``tensor`` (None: none or no level), for printing.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.autograd.forward_ad import _tangent_of
        >>> _tangent_of(torch.tensor(1.0)) is None
        True
    """
    if LEVEL.trace is None or type(tensor._buf) is not JVPTracer or tensor._buf._trace is not LEVEL.trace:
        return None
    return unpack_dual(tensor).tangent


class dual_level:
    """Context manager (or decorator) for a forward-AD level: `enter_dual_level` on entry,
    `exit_dual_level` on exit.

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.autograd.forward_ad as fwAD
        >>> with fwAD.dual_level():
        ...     x = fwAD.make_dual(torch.tensor(1.0), torch.tensor(2.0))
        ...     fwAD.unpack_dual(x * x).tangent
        tensor(4.)
    """

    def __enter__(self) -> int:
        return enter_dual_level()

    def __exit__(self, *exc: Any) -> None:
        exit_dual_level()

    def __call__(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self.__class__():
                return fn(*args, **kwargs)

        return wrapper


__all__ = ["UnpackedDualTensor", "dual_level", "enter_dual_level", "exit_dual_level", "make_dual",
           "unpack_dual"]
