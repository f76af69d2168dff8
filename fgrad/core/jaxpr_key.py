"""`jaxpr_key`: an exact, hashable description of a traced program, for caches of work
derived from it.

Two jaxprs get equal keys only when they compute the same thing the same way: the same
primitives in the same order, wired the same, on values of the same shapes, dtypes and weak
types, with the same parameters (nested programs compared by their own keys) and literals of
the same dtype and *bits* (``0.0`` and ``-0.0`` differ; a NaN literal equals the same NaN).
Constants that are not literals are inputs of the program, never part of its key, so a cache
keyed on it cannot hold a value that has since changed: the caller passes them in again.
A parameter this module cannot compare exactly (an unhashable object of an unknown type)
makes the key None: "do not cache"; so does a function in a parameter (a custom derivative
rule, a callback), since what it computes when it is called later (a rule, while a gradient
is traced) may depend on state the key cannot see.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .ir import Jaxpr, Literal

_ATOMS = (str, bytes, type(None), type(Ellipsis), np.dtype)


class _Unkeyable(Exception):
    pass


def jaxpr_key(jaxpr: Jaxpr) -> tuple | None:
    """A hashable key equal for two jaxprs exactly when they are the same program (see the
    module docstring), or None when a parameter cannot be compared exactly.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> from fgrad.core.jaxpr_key import jaxpr_key
        >>> key = lambda f: jaxpr_key(fgrad.make_jaxpr(f)(1.0).jaxpr)
        >>> key(lambda x: fnp.sin(x) * 2.0) == key(lambda y: fnp.sin(y) * 2.0)
        True
        >>> key(lambda x: x * 0.0) == key(lambda x: x * -0.0)
        False
    """
    try:
        return _program(jaxpr)
    except _Unkeyable:
        return None


def _aval(aval) -> tuple:
    dtype = aval.dtype
    return (tuple(aval.shape), dtype.str if isinstance(dtype, np.dtype) else _value(dtype),
            bool(getattr(aval, "weak_type", False)))


def _program(jaxpr: Jaxpr) -> tuple:
    names: dict[int, int] = {}

    def define(v) -> tuple:
        names[id(v)] = len(names)
        return _aval(v.aval)

    def use(v) -> Any:
        if type(v) is Literal:
            return ("lit", _aval(v.aval), _value(v.val))
        if id(v) not in names:  # a variable read before it is defined: not a well-formed program
            raise _Unkeyable
        return names[id(v)]

    head = (tuple(define(v) for v in jaxpr.constvars), tuple(define(v) for v in jaxpr.invars))
    eqns = []
    for e in jaxpr.eqns:
        ins = tuple(use(v) for v in e.invars)
        eqns.append((e.prim, ins, _value(dict(e.params)), tuple(define(v) for v in e.outvars)))
    consts = getattr(jaxpr, "consts", None)
    if consts:  # a ClosedJaxpr's constants are part of what it computes
        head += (tuple(_value(c) for c in consts),)
    return head + (tuple(eqns), tuple(use(v) for v in jaxpr.outvars))


def value_key(x: Any) -> Any:
    """``x`` (a parameter, a literal's value, a static argument) as a hashable value whose
    equality is exact: type, dtype and bits; nested programs by `jaxpr_key`.  Raises
    TypeError for an unhashable object of a type it does not know.

    Example::

        >>> from fgrad.core.jaxpr_key import value_key
        >>> value_key(0.0) == value_key(-0.0), value_key(1) == value_key(True)
        (False, False)
    """
    try:
        return _value(x)
    except _Unkeyable:
        raise TypeError(f"value_key: {type(x).__name__} cannot be compared exactly") from None


def _value(x: Any) -> Any:
    """`value_key`, raising `_Unkeyable`."""
    if isinstance(x, bool | int):
        return (type(x), x)
    if isinstance(x, float | complex):
        return (type(x), np.asarray(x).tobytes())
    if isinstance(x, np.ndarray | np.generic):
        if x.dtype == object:
            raise _Unkeyable
        return ("np", x.dtype.str, x.shape, np.ascontiguousarray(x).tobytes())
    if isinstance(x, _ATOMS):
        return (type(x), x)
    if isinstance(x, Jaxpr):
        return ("jaxpr", _program(x))
    inner = getattr(x, "jaxpr", None)  # a Branch (a traced body: its constants are operands)
    if isinstance(inner, Jaxpr):
        return (type(x), getattr(x, "n_consts", None), _program(inner))
    if isinstance(x, tuple | list):
        return (type(x), tuple(_value(v) for v in x))
    if isinstance(x, dict):
        return (type(x), tuple(sorted((k, _value(v)) for k, v in x.items())))
    if callable(x) and not isinstance(x, type):
        # a function (a custom_jvp/custom_vjp rule, a callback): what it computes when a later
        # transform calls it (the rule, while an adjoint is traced) may read state no key sees
        raise _Unkeyable
    if type(x).__hash__ is None:
        raise _Unkeyable
    # primitives, enums, tree definitions: compared as themselves
    return (type(x), x)
