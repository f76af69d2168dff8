"""``jax.interpreters.mlir``: lowering registrations are accepted and recorded.

fgrad compiles ``jit`` programs itself (its executor and fusion run each primitive's
implementation), so a user primitive needs no MLIR lowering: `register_lowering` keeps the
rule for reference and the primitive runs its ``def_impl`` under ``jit``.

Example::

    >>> from fgrad.interpreters import mlir
    >>> mlir.register_lowering(object(), lambda ctx, *args: args, platform="cpu")
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_lowerings: dict = {}


def register_lowering(prim: Any, rule: Callable[..., Any], platform: str | None = None) -> None:
    """Record an MLIR lowering rule (not used by fgrad: see the module docstring).

    Example::

        >>> from fgrad.interpreters import mlir
        >>> mlir.register_lowering(object(), lambda ctx, x: [x])
    """
    _lowerings[(prim, platform)] = rule


def lower_fun(fun: Callable[..., Any], multiple_results: bool = True) -> Callable[..., Any]:
    """A lowering rule from a Python function (returned as a marker; fgrad needs none).

    Example::

        >>> from fgrad.interpreters import mlir
        >>> callable(mlir.lower_fun(lambda x: x, multiple_results=False))
        True
    """
    def rule(ctx: Any, *args: Any, **params: Any) -> Any:
        return fun(*args, **params)

    rule.fun = fun
    rule.multiple_results = multiple_results
    return rule


__all__ = ["lower_fun", "register_lowering"]
