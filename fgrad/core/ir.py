"""The IR: a typed, first-order program in A-normal form (a "jaxpr").

``Jaxpr(constvars, invars, eqns, outvars)``: each `Eqn` applies one primitive to variables
or literals and defines new variables.  It is what staging produces (linearize's linear
program, jit's traced program), what `eval_jaxpr` runs under the current trace, and what
`backward_pass` transposes.  ``str(jaxpr)`` prints it readably; `fgrad.make_jaxpr` shows it.
"""

from __future__ import annotations

from typing import Callable

from .array import ShapedArray
from .provenance import register_rule_frame


class Var:
    """A variable of a `Jaxpr`: an input, a constant or an equation's result (its ``aval``
    is the value's shape and dtype).

    Example::

        >>> import fgrad
        >>> v = fgrad.make_jaxpr(lambda x: x * 2.0)(1.0).jaxpr.invars[0]
        >>> v.aval.shape
        ()
    """

    __slots__ = ("aval",)

    def __init__(self, aval: ShapedArray) -> None:
        self.aval = aval


class Literal:
    """A Python scalar inlined into an equation.

    Example::

        >>> import fgrad
        >>> fgrad.make_jaxpr(lambda x: x * 2.0)(1.0).jaxpr.eqns[0].invars[1]
        2.0
    """

    __slots__ = ("val", "aval")

    def __init__(self, val, aval: ShapedArray) -> None:
        self.val, self.aval = val, aval

    def __repr__(self) -> str:
        return repr(self.val)


class SourceInfo:
    """Where an equation came from: ``name_stack``, the ``named_scope``/``named_call``
    names it was staged under, joined by ``/`` (JAX's ``eqn.source_info.name_stack``)."""

    __slots__ = ("name_stack",)

    def __init__(self, name_stack: str) -> None:
        self.name_stack = name_stack


class Eqn:
    # source: the forward operation a linearized equation came from (a
    # `core.provenance.ForwardOp`), recorded only while the NaN/inf checks are on;
    # name_stack: the named_scope/named_call names it was staged under
    __slots__ = ("prim", "invars", "outvars", "params", "source", "name_stack")

    def __init__(self, prim, invars, outvars, params, source=None, name_stack: str = "") -> None:
        self.prim, self.invars, self.outvars, self.params = prim, invars, outvars, params
        self.source = source
        self.name_stack = name_stack

    @property
    def primitive(self):
        """The primitive (JAX's name for it)."""
        return self.prim

    @property
    def source_info(self) -> SourceInfo:
        return SourceInfo(self.name_stack)


def has_effects(eqn: Eqn) -> bool:
    """Whether running ``eqn`` has a side effect: its primitive is effectful (a callback, a
    collective) or a program in its parameters (a ``cond`` branch, a loop body, a
    ``custom_jvp`` function) holds an effectful equation.  Such an equation must run even
    when nothing reads its results, and must not be merged with an identical one.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> def f(x):
        ...     fgrad.lax.cond(x > 0, lambda: fgrad.debug.print("{}", x), lambda: None)
        ...     return x
        >>> [has_effects(e) for e in fgrad.make_jaxpr(f)(1.0).eqns][-1]
        True
    """
    if eqn.prim.effectful:
        return True
    return any(_holds_effects(v) for v in eqn.params.values())


def live_eqns(eqns, outvars) -> tuple[list, set]:
    """The equations of ``eqns`` (in order) that ``outvars`` depend on, plus every effectful
    one (`has_effects`), and the set of variables they read or that are outputs: the one
    dead-code analysis (jit's `compile.passes.dce` and the loop/branch bodies' executors).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> jaxpr = fgrad.make_jaxpr(lambda x: (fnp.sin(x), fnp.cos(x))[0])(1.0).jaxpr
        >>> [e.prim.name for e in live_eqns(jaxpr.eqns, jaxpr.outvars)[0]]
        ['sin']
    """
    live = {v for v in outvars if type(v) is not Literal}
    kept = []
    for e in reversed(eqns):
        if has_effects(e) or any(v in live for v in e.outvars):
            kept.append(e)
            for v in e.invars:
                if type(v) is not Literal:
                    live.add(v)
    kept.reverse()
    return kept, live


def split_by_dependence(eqns, seeds) -> tuple[list, list, set]:
    """``(independent, dependent, reached)``: the equations of ``eqns`` (in order) that read
    none of ``seeds`` (transitively), those that do, and the variables reached from
    ``seeds`` (the seeds included) -- the one forward dependence analysis of partial
    evaluation (the tape's primal/linear split, scan's residual split).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> jaxpr = fgrad.make_jaxpr(lambda x, y: fnp.sin(x) * y)(1.0, 2.0).jaxpr
        >>> known, unknown, _ = split_by_dependence(jaxpr.eqns, {jaxpr.invars[1]})
        >>> [e.prim.name for e in known], [e.prim.name for e in unknown]
        (['sin'], ['mul'])
    """
    reached = set(seeds)
    independent, dependent = [], []
    for e in eqns:
        if any(type(v) is not Literal and v in reached for v in e.invars):
            dependent.append(e)
            reached.update(e.outvars)
        else:
            independent.append(e)
    return independent, dependent, reached


def _holds_effects(value) -> bool:
    """Whether a parameter value is, or contains, a program with an effectful equation."""
    if isinstance(value, (tuple, list)):
        return any(_holds_effects(v) for v in value)
    if isinstance(value, dict):
        return any(_holds_effects(v) for v in value.values())
    eqns = getattr(value, "eqns", None)
    if eqns is None:
        program = getattr(value, "jaxpr", None)
        eqns = getattr(program, "eqns", None)
    if not isinstance(eqns, (list, tuple)):
        return False
    return any(has_effects(e) for e in eqns)


class Jaxpr:
    """A traced program: constants, inputs, equations (primitive applications) and outputs.

    Example::

        >>> import fgrad
        >>> jaxpr = fgrad.make_jaxpr(lambda x: x * 2.0)(1.0).jaxpr
        >>> [e.primitive.name for e in jaxpr.eqns], len(jaxpr.invars)
        (['mul'], 1)
    """

    __slots__ = ("constvars", "invars", "eqns", "outvars")

    def __init__(self, constvars, invars, eqns, outvars) -> None:
        self.constvars, self.invars, self.eqns, self.outvars = constvars, invars, eqns, outvars

    def __str__(self) -> str:
        return pretty_print(self)

    __repr__ = __str__

    def pretty_print(self, *, name_stack: bool = False, **_options) -> str:
        """The program as text; ``name_stack=True`` adds each equation's scope names
        (``# [block/dense]``), as JAX does."""
        return pretty_print(self, name_stack=name_stack)


class ClosedJaxpr(Jaxpr):
    """A `Jaxpr` with its constants' values (JAX's ``ClosedJaxpr``): what `fgrad.make_jaxpr`
    returns.  ``.jaxpr`` is the program, ``.consts`` the constants' values (Arrays),
    ``.eqns``, ``.in_avals`` and ``.out_avals`` its equations and argument/result types;
    ``str()`` prints it.  It is itself a `Jaxpr`, so the executors take it directly.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> cj = fgrad.make_jaxpr(lambda x: fnp.sin(x) * 2.0)(fnp.zeros(3))
        >>> cj.in_avals, cj.out_avals, [e.primitive.name for e in cj.eqns]
        ([ShapedArray(float64[3])], [ShapedArray(float64[3])], ['sin', 'mul'])
    """

    __slots__ = ("consts",)

    def __init__(self, jaxpr: Jaxpr, consts) -> None:
        super().__init__(jaxpr.constvars, jaxpr.invars, jaxpr.eqns, jaxpr.outvars)
        self.consts = list(consts)

    @property
    def jaxpr(self) -> Jaxpr:
        return Jaxpr(self.constvars, self.invars, self.eqns, self.outvars)

    @property
    def in_avals(self) -> list:
        return [v.aval for v in self.invars]

    @property
    def out_avals(self) -> list:
        return [v.aval for v in self.outvars]

    @property
    def literals(self) -> list:
        return self.consts

    @property
    def effects(self) -> set:
        return set()


def _names():
    i = 0
    letters = "abcdefghijklmnopqrstuvwxyz"
    while True:
        n, s = i, ""
        while True:
            s = letters[n % 26] + s
            n = n // 26 - 1
            if n < 0:
                break
        yield s
        i += 1


def _fmt_param(v) -> str:
    if callable(v) and not isinstance(v, type):
        return getattr(v, "__name__", type(v).__name__)
    if isinstance(v, Jaxpr):
        return "{ " + pretty_print(v).replace("\n", "\n  ") + " }"
    return repr(v)


def pretty_print(jaxpr: Jaxpr, name_stack: bool = False) -> str:
    names: dict[int, str] = {}
    gen = _names()

    def name(v) -> str:
        if isinstance(v, Literal):
            return repr(v.val)
        if id(v) not in names:
            names[id(v)] = next(gen)
        return names[id(v)]

    def decl(v) -> str:
        return f"{name(v)}:{v.aval.str_short()}"

    head = " ".join(decl(v) for v in jaxpr.constvars)
    head = (head + "; " if head else "") + " ".join(decl(v) for v in jaxpr.invars)
    lines = [f"{{ lambda {head}. let"]
    for e in jaxpr.eqns:
        outs = " ".join(decl(v) for v in e.outvars)
        params = ", ".join(f"{k}={_fmt_param(v)}" for k, v in e.params.items())
        params = f"[{params}]" if params else ""
        ins = " ".join(name(v) for v in e.invars)
        lines.append(f"    {outs} = {e.prim.name}{params} {ins}")
    if name_stack and jaxpr.eqns:
        width = max(len(line) for line in lines[1:])
        lines[1:] = [f"{line:<{width}} # [{e.name_stack}]" for line, e in zip(lines[1:], jaxpr.eqns)]
    lines.append(f"  in ({', '.join(name(v) for v in jaxpr.outvars)}) }}")
    return "\n".join(lines)


def eval_jaxpr(jaxpr: Jaxpr, consts, args, eqn_rule: Callable | None = None) -> list:
    """Evaluate ``jaxpr`` under the current trace (so it can itself be transformed).

    ``eqn_rule(eqn, invals) -> outvals`` (one value per out-variable), when given, evaluates
    each equation instead of binding its primitive: the one environment walk that
    interpreters over programs (sparsify, checkify) share.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> cj = fgrad.make_jaxpr(lambda x: fnp.sin(x) * 2.0)(1.0)
        >>> [round(float(v), 4) for v in eval_jaxpr(cj.jaxpr, cj.consts, [0.5])]
        [0.9589]
    """
    env: dict[int, object] = {}
    for v, c in zip(jaxpr.constvars, consts):
        env[id(v)] = c
    for v, a in zip(jaxpr.invars, args):
        env[id(v)] = a

    def read(v):
        return v.val if type(v) is Literal else env[id(v)]

    for e in jaxpr.eqns:
        ins = [read(v) for v in e.invars]
        if eqn_rule is not None:
            outs = eqn_rule(e, ins)
        elif e.prim.multiple_results:
            outs = e.prim.bind(*ins, **e.params)
        else:
            env[id(e.outvars[0])] = e.prim.bind(*ins, **e.params)
            continue
        for v, o in zip(e.outvars, outs):
            env[id(v)] = o
    return [read(v) for v in jaxpr.outvars]


register_rule_frame(eval_jaxpr.__code__, "eval")  # read by the NaN/inf checks' error
