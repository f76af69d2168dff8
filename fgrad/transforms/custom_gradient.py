"""`custom_gradient`: a function that returns its value and its own VJP, as
``jax.custom_gradient`` (and TensorFlow's ``tf.custom_gradient``).

``fun(*args) -> (value, vjp_fn)`` with ``vjp_fn(ct) -> one cotangent per argument`` (a
tuple; a bare value for a single argument).  It is built on `custom_vjp`: the forward pass
calls ``fun``, converts ``vjp_fn``'s closure into explicit values (`closure_convert`) and
keeps them as the residuals, so the rule survives ``jit`` (the residuals are arrays), is
batched by ``vmap``, and is differentiable again through the values it closes over
(``grad(grad(f))``), as in JAX.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ..tree_util import register_pytree_node, tree_structure, treedef_is_leaf
from .closure_convert import closure_convert
from .custom import custom_vjp


class _RuleResiduals:
    """A converted VJP function (static: the pytree's auxiliary data) and the values it
    closes over (the pytree's leaves): residuals a staged `custom_vjp` can carry."""

    __slots__ = ("rule", "consts")

    def __init__(self, rule: Callable, consts: list) -> None:
        self.rule = rule
        self.consts = consts


register_pytree_node(_RuleResiduals, lambda r: (list(r.consts), r.rule),
                     lambda rule, consts: _RuleResiduals(rule, list(consts)))


def custom_gradient(fun: Callable[..., tuple[Any, Callable]]) -> Callable[..., Any]:
    """``fun`` returns ``(value, vjp_fn)``; the result computes ``value`` and is
    differentiated (grad, vjp, jacrev) with ``vjp_fn``: ``vjp_fn(ct)`` returns the
    cotangent of each positional argument.  Works under ``jit`` and ``vmap``; the rule is
    differentiable again through the values it closes over (``grad(grad(f))``).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> @fgrad.custom_gradient
        ... def f(x):
        ...     return fnp.log1p(fnp.exp(x)), lambda g: (g * fgrad.nn.sigmoid(x),)
        >>> fgrad.grad(f)(fnp.asarray(2.0))
        Array(0.88079708, dtype=float64, weak_type=True)
    """

    @custom_vjp
    def wrapped(*args):
        value, _ = fun(*args)
        return value

    def fwd(*args):
        value, vjp_fn = fun(*args)
        if not callable(vjp_fn):
            raise TypeError(
                f"custom_gradient function {getattr(fun, '__name__', fun)!r} must return a pair "
                f"(value, vjp_fn) with vjp_fn callable, but its second output is "
                f"{type(vjp_fn).__name__} {vjp_fn!r}")
        converted, consts = closure_convert(vjp_fn, value)
        return value, _RuleResiduals(converted, consts)

    def bwd(res: _RuleResiduals, ct):
        cts = res.rule(ct, *res.consts)
        if treedef_is_leaf(tree_structure(cts)):
            cts = (cts,)
        return tuple(cts)

    wrapped.defvjp(fwd, bwd)
    functools.update_wrapper(wrapped, fun)
    return wrapped


__all__ = ["custom_gradient"]
