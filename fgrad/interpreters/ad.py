"""``jax.interpreters.ad``: derivative rules of user primitives, in JAX's conventions.

``primitive_jvps[p] = rule`` with ``rule(primals, tangents, **params) -> (out, tangent_out)``
and ``primitive_transposes[p] = rule`` with ``rule(ct, *args, **params)`` (the linear inputs
are `UndefinedPrimal`; one cotangent or None per input).  Symbolic zeros are `Zero` objects
on this side; fgrad's own rules see None (the adapters below convert both ways), so a user
rule and fgrad's engine meet exactly where JAX's would.

Example::

    >>> import numpy as np
    >>> import fgrad
    >>> from fgrad.extend import core
    >>> from fgrad.interpreters import ad
    >>> cube_p = core.Primitive("doc_cube")
    >>> _ = cube_p.def_impl(lambda x: np.power(x, 3))
    >>> _ = cube_p.def_abstract_eval(lambda x: core.ShapedArray(x.shape, x.dtype))
    >>> ad.defjvp(cube_p, lambda g, x: g * 3 * x ** 2)
    >>> fgrad.grad(cube_p.bind)(2.0)
    Array(12., dtype=float64, weak_type=True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core import rules as _rules
from ..core.array import get_aval
from ..core.primitive import Primitive
from ..core.rules import UndefinedPrimal


class Zero:
    """A symbolic zero tangent or cotangent of abstract value ``aval``.

    Example::

        >>> from fgrad.interpreters.ad import Zero
        >>> from fgrad.core.array import ShapedArray
        >>> Zero(ShapedArray((2,), "float32")).aval.shape
        (2,)
    """

    __slots__ = ("aval",)

    def __init__(self, aval: Any) -> None:
        self.aval = aval

    @staticmethod
    def from_primal_value(value: Any) -> "Zero":
        """The zero tangent of a primal value."""
        return Zero(get_aval(value))

    def __repr__(self) -> str:
        return f"Zero({self.aval})"


def is_undefined_primal(x: Any) -> bool:
    """Whether ``x`` is the placeholder of a linear input in a transpose rule.

    Example::

        >>> from fgrad.interpreters import ad
        >>> ad.is_undefined_primal(1.0)
        False
    """
    return _rules.is_undefined(x)


def zeros_like_aval(aval: Any) -> Any:
    """A zero array of ``aval``'s shape and dtype.

    Example::

        >>> from fgrad.interpreters import ad
        >>> from fgrad.core.array import ShapedArray
        >>> ad.zeros_like_aval(ShapedArray((2,), "float32"))
        Array([0., 0.], dtype=float32)
    """
    import fgrad.numpy as fnp

    return fnp.zeros(aval.shape, aval.dtype)


def instantiate_zeros(tangent: Any) -> Any:
    """``tangent`` with a `Zero` replaced by an array of zeros.

    Example::

        >>> from fgrad.interpreters import ad
        >>> from fgrad.core.array import ShapedArray
        >>> ad.instantiate_zeros(ad.Zero(ShapedArray((1,), "float64")))
        Array([0.], dtype=float64)
    """
    return zeros_like_aval(tangent.aval) if type(tangent) is Zero else tangent


def add_tangents(a: Any, b: Any) -> Any:
    """The sum of two tangents, either of which may be a `Zero`.

    Example::

        >>> from fgrad.interpreters import ad
        >>> ad.add_tangents(1.0, 2.0)
        Array(3., dtype=float64, weak_type=True)
    """
    if type(a) is Zero:
        return b
    if type(b) is Zero:
        return a
    return _rules.add_tangents(a, b)


add_jaxvals = add_tangents


def _to_jax(value: Any, like: Any) -> Any:
    if value is None:
        return Zero(like.aval if isinstance(like, UndefinedPrimal) else get_aval(like))
    return value


def _from_jax(value: Any) -> Any:
    return None if type(value) is Zero else value


def _adapt_jvp(prim: Primitive, rule: Callable[..., Any]) -> Callable[..., Any]:
    def jvp(primals, tangents, **params):
        out, t_out = rule(list(primals), [_to_jax(t, p) for p, t in zip(primals, tangents)], **params)
        if prim.multiple_results:
            return out, [_from_jax(t) for t in t_out]
        return out, _from_jax(t_out)

    return jvp


def _adapt_transpose(prim: Primitive, rule: Callable[..., Any]) -> Callable[..., Any]:
    def transpose(ct, *args, **params):
        if prim.multiple_results:
            ct = [Zero(a) if c is None else c for c, a in zip(ct, _out_avals(prim, args, params))]
        elif ct is None:
            ct = Zero(_out_avals(prim, args, params))
        cts = rule(ct, *args, **params)
        return [_from_jax(c) for c in cts]

    return transpose


def _out_avals(prim: Primitive, args: tuple, params: dict) -> Any:
    avals = [a.aval if isinstance(a, UndefinedPrimal) else get_aval(a) for a in args]
    return prim.abstract_eval(*avals, **params)


class _RuleTable(dict):
    """A JAX rule table: assigning ``table[p] = rule`` installs the adapted rule on ``p``."""

    def __init__(self, install: Callable[[Primitive, Callable[..., Any]], None]) -> None:
        super().__init__()
        self._install = install

    def __setitem__(self, prim: Primitive, rule: Callable[..., Any]) -> None:
        super().__setitem__(prim, rule)
        self._install(prim, rule)


def _install_jvp(prim: Primitive, rule: Callable[..., Any]) -> None:
    _rules.defjvp_rule(prim, _adapt_jvp(prim, rule))


def _install_transpose(prim: Primitive, rule: Callable[..., Any]) -> None:
    _rules.deflinear_in(prim, _adapt_transpose(prim, rule))


primitive_jvps = _RuleTable(_install_jvp)
primitive_transposes = _RuleTable(_install_transpose)


def get_primitive_transpose(p: Primitive) -> Callable[..., Any]:
    """The transpose rule registered for ``p`` (KeyError-free: JAX raises NotImplementedError).

    Example::

        >>> from fgrad.interpreters import ad
        >>> from fgrad.ops.elementwise import neg_p
        >>> callable(ad.get_primitive_transpose(neg_p))
        True
    """
    if p in primitive_transposes:
        return dict.__getitem__(primitive_transposes, p)
    if p.transpose is None:
        raise NotImplementedError(f"Transpose rule (for reverse-mode differentiation) for '{p.name}' not "
                                  "implemented")
    return p.transpose


def defjvp(primitive: Primitive, *jvprules: Callable[..., Any] | None) -> None:
    """Per-argument JVP rules ``jvprules[i](g, *primals, **params)`` (None: not differentiable
    in that argument); the output tangent is their sum.

    Example::

        >>> from fgrad.interpreters import ad
        >>> callable(ad.defjvp)
        True
    """
    _rules.defjvp(primitive, *jvprules)


def defjvp2(primitive: Primitive, *jvprules: Callable[..., Any] | None) -> None:
    """As `defjvp`, the rules also get the primal output: ``rule(g, ans, *primals, **params)``.

    Example::

        >>> from fgrad.interpreters import ad
        >>> callable(ad.defjvp2)
        True
    """
    _rules.defjvp2(primitive, *jvprules)


def deflinear(primitive: Primitive, transpose_rule: Callable[..., Any]) -> None:
    """``primitive`` is linear in all inputs; ``transpose_rule(ct, **params)`` returns the
    cotangents of all inputs.

    Example::

        >>> from fgrad.interpreters import ad
        >>> callable(ad.deflinear)
        True
    """
    _rules.deflinear(primitive, lambda ct, *args, **params: [_from_jax(c) for c in
                                                              transpose_rule(ct, **params)])


def deflinear2(primitive: Primitive, transpose_rule: Callable[..., Any]) -> None:
    """As `deflinear`, with ``transpose_rule(ct, *args, **params)``.

    Example::

        >>> from fgrad.interpreters import ad
        >>> callable(ad.deflinear2)
        True
    """
    _rules.deflinear(primitive, lambda ct, *args, **params: [_from_jax(c) for c in
                                                              transpose_rule(ct, *args, **params)])


def defbilinear(prim: Primitive, lhs_rule: Callable[..., Any], rhs_rule: Callable[..., Any]) -> None:
    """``prim(x, y)`` linear in each argument: ``lhs_rule(ct, x, y, **params)`` transposes in
    ``x``, ``rhs_rule`` in ``y``.

    Example::

        >>> from fgrad.interpreters import ad
        >>> callable(ad.defbilinear)
        True
    """
    _rules.defbilinear(prim, lhs_rule, rhs_rule)


def jvp(fun: Callable[..., Any], primals: Any, tangents: Any) -> Any:
    """``fgrad.jvp`` (``jax.interpreters.ad.jvp`` is an internal transformation there).

    Example::

        >>> from fgrad.interpreters import ad
        >>> ad.jvp(lambda x: x * x, (3.0,), (1.0,))[1]
        Array(6., dtype=float64, weak_type=True)
    """
    from ..transforms.ad import jvp as _jvp

    return _jvp(fun, primals, tangents)


__all__ = ["UndefinedPrimal", "Zero", "add_jaxvals", "add_tangents", "defbilinear", "defjvp", "defjvp2",
           "deflinear", "deflinear2", "get_primitive_transpose", "instantiate_zeros", "is_undefined_primal",
           "jvp", "primitive_jvps", "primitive_transposes", "zeros_like_aval"]
