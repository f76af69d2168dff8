"""The IR: a typed, first-order program in A-normal form (a "jaxpr").

``Jaxpr(constvars, invars, eqns, outvars)``: each `Eqn` applies one primitive to variables
or literals and defines new variables.  It is what staging produces (linearize's linear
program, jit's traced program), what `eval_jaxpr` runs under the current trace, and what
`backward_pass` transposes.  ``str(jaxpr)`` prints it readably; `fgrad.make_jaxpr` shows it.
"""

from __future__ import annotations

import re
from collections import Counter, deque
from typing import Callable

import numpy as np

from . import pretty as pp
from .array import ShapedArray
from .jaxpr_params import display
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

    def __repr__(self) -> str:  # JAX's: Var(id=140086786163712):float32[5,10]
        return f"Var(id={id(self)}):{self.aval.str_short()}"


class Literal:
    """A Python scalar inlined into an equation.

    Example::

        >>> import fgrad
        >>> fgrad.make_jaxpr(lambda x: x * 2.0)(1.0).jaxpr.eqns[0].invars[1]
        Literal(2.0)
    """

    __slots__ = ("val", "aval")

    def __init__(self, val, aval: ShapedArray) -> None:
        self.val, self.aval = val, aval

    def __repr__(self) -> str:  # JAX's: Literal(2.0)
        return f"Literal({self.val})"


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
        view = getattr(prim, "params_view", None)  # JAX's names for a primitive's parameters
        if view is not None and type(params) is not view:
            params = view(params)
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


class JaxNamedParams(dict):
    """An equation's parameters under fgrad's own keys that also answer the names JAX's jaxprs
    print for them (`jaxpr_params.display`), so a jaxpr interpreter written for JAX recurses
    into loops and branches: a scan's ``params["jaxpr"]``, a while's ``params["body_jaxpr"]``,
    a cond's ``params["branches"]`` are `ClosedJaxpr` s (their constants are operands, as in
    JAX).  Keys, iteration and ``**params`` stay fgrad's (re-binding an equation works).
    `jax_named_params` makes the class for one primitive.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> from fgrad import lax
        >>> eqn = fgrad.make_jaxpr(lambda xs: lax.scan(lambda c, x: (c * x, c), 1.0, xs))(fnp.ones(3)).eqns[0]
        >>> eqn.params["length"], eqn.params["num_carry"], eqn.params["jaxpr"].eqns[-1].primitive
        (3, 1, mul)
    """

    __slots__ = ()
    prim_name = ""

    def _jax_names(self) -> dict:
        return dict(display(self.prim_name, dict(self)))

    def __missing__(self, key):
        shown = self._jax_names()
        if key not in shown:
            raise KeyError(key)
        return _as_closed_jaxpr(shown[key])

    def __contains__(self, key) -> bool:
        return dict.__contains__(self, key) or key in self._jax_names()

    def get(self, key, default=None):
        return self[key] if key in self else default


def jax_named_params(prim_name: str) -> type:
    """A `JaxNamedParams` class for the primitive named ``prim_name`` (its ``params_view``).

    Example::

        >>> jax_named_params("scan")({"length": 2, "n_carry": 1, "n_consts": 0, "reverse": False,
        ...                          "body": None})["num_consts"]
        0
    """
    return type(f"JaxNamedParams_{prim_name}", (JaxNamedParams,), {"__slots__": (), "prim_name": prim_name})


def _as_closed_jaxpr(value):
    """A traced body (an object with a ``.jaxpr``, fgrad's loop and branch bodies) as JAX's
    `ClosedJaxpr`; tuples of them element by element; anything else as it is."""
    if isinstance(value, tuple):
        return tuple(_as_closed_jaxpr(v) for v in value)
    inner = getattr(value, "jaxpr", None)
    if isinstance(inner, Jaxpr) and not isinstance(value, Jaxpr):
        return ClosedJaxpr(inner, [])
    return value


def is_noop_convert(eqn: Eqn) -> bool:
    """Whether ``eqn`` converts a (non-literal) value to its own dtype: JAX's staging marks a
    weakly typed value strong this way, and the result is the value itself.

    Example::

        >>> import fgrad, numpy as np
        >>> jx = fgrad.make_jaxpr(lambda x, i: (x > 0) & (i < 50))(np.float32(1), 3)
        >>> [is_noop_convert(e) for e in jx.eqns]  # gt, lt, convert (the weak lt made strong), and
        [False, False, True, False]
    """
    if eqn.prim.name != "convert_element_type":
        return False
    x = eqn.invars[0]
    return type(x) is not Literal and x.aval.dtype == eqn.outvars[0].aval.dtype


def external_inputs(eqns) -> list:
    """The variables the equations ``eqns`` read but do not define, in first-read order
    (literals left out): the inputs of a run of equations made into one kernel.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> cj = fgrad.make_jaxpr(lambda x, y: fnp.sin(x) * y + 1.0)(1.0, 2.0)
        >>> external_inputs(cj.jaxpr.eqns) == list(cj.jaxpr.invars)
        True
    """
    inside = {v for e in eqns for v in e.outvars}
    ext: list = []
    for e in eqns:
        for a in e.invars:
            if type(a) is not Literal and a not in inside and a not in ext:
                ext.append(a)
    return ext


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

    def pretty_print(self, *, name_stack: bool = False, width: int = 80, **_options) -> str:
        """The program as text, as JAX prints it; ``name_stack=True`` adds each equation's
        scope names (``# [block/dense]``), ``width`` is the line width."""
        return pretty_print(self, name_stack=name_stack, width=width)


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


def _name(n: int) -> str:
    """The ``n``-th variable name: a..z, ba, bb, ... (JAX's sequence: base-26 digits)."""
    s = ""
    while not s or n:
        n, i = divmod(n, 26)
        s = chr(97 + i) + s
    return s


def short_dtype(dtype) -> str:
    """A dtype's name as printed programs show it: ``f32``, ``bf16``, ``i64``, ``u8``,
    ``c64``, ``bool`` (JAX's short names).

    Example::

        >>> import numpy as np
        >>> short_dtype(np.dtype("float32")), short_dtype(np.dtype("uint8"))
        ('f32', 'u8')
    """
    name = getattr(dtype, "name", str(dtype))
    return (name.replace("float", "f").replace("uint", "u").replace("int", "i")
            .replace("complex", "c").replace("void", "float0"))


def aval_text(aval) -> str:
    """A value's type as printed programs show it: ``f32[3,4]``.

    Example::

        >>> aval_text(ShapedArray((3, 4), np.float32))
        'f32[3,4]'
    """
    shape = getattr(aval, "shape", None)
    if shape is None:
        return str(aval)
    return f"{short_dtype(aval.dtype)}[{','.join(map(str, shape))}]"


def _program(v):
    """The `Jaxpr` a parameter value holds (a jit's closed program, a loop body), or None."""
    if isinstance(v, Jaxpr):
        return v
    inner = getattr(v, "jaxpr", None)
    return inner if isinstance(inner, Jaxpr) else None


def _programs(v) -> list:
    vals = v if isinstance(v, (tuple, list)) else (v,)
    return [j for j in map(_program, vals) if j is not None]


class _PpContext:
    """Names shared by a program and the programs nested in it (unique across them all)."""

    def __init__(self, names: dict) -> None:
        self.names = names
        self.shared: dict[int, str] = {}   # id(eqns) of a program printed once at the top
        self.taken: set[str] = set()
        self._n = 0

    def name(self, v) -> str:
        if type(v) is Literal:
            return _literal_text(v)
        got = self.names.get(id(v))
        if got is None:
            while True:
                got = _name(self._n)
                self._n += 1
                if got not in self.taken:
                    break
            self.names[id(v)] = got
        return got

    def suggest(self, for_vars, like_vars) -> None:
        """Name ``for_vars`` (a nested program's inputs or outputs) as ``like_vars``."""
        if len(for_vars) != len(like_vars):
            return
        used = set()
        for f, like in zip(for_vars, like_vars):
            if type(like) is not Literal and type(f) is not Literal and id(like) not in used \
                    and id(f) not in self.names:
                used.add(id(like))
                self.names[id(f)] = self.name(like)


def _literal_text(v) -> str:
    val = np.asarray(v.val)
    dt = getattr(v.aval, "dtype", None)
    if dt is not None and val.dtype.kind == "f" and np.dtype(dt).kind == "f":
        val = val.astype(dt)
    # a float in its own dtype's shortest repr: 1.67 cast to float32 prints as 1.67 (JAX's
    # text), not as the float64 value of that float32 (1.6699999570846558)
    s = (str(val[()]) if val.dtype.kind == "f" else str(val.item())) if val.ndim == 0 else "[...]"
    return f"{s}:{aval_text(v.aval)}" if getattr(v.aval, "dtype", None) is not None else s


def _pp_vars(vs, ctx: _PpContext, *, sep: str = "", shapes: bool = False) -> pp.Doc:
    docs = [pp.text(ctx.name(v) + (f":{aval_text(v.aval)}" if shapes else "")) for v in vs]
    return pp.nest(2, pp.group(pp.join(pp.text(sep) + pp.group(pp.brk()), docs)))


def _param_value_text(v) -> str:
    return re.sub(r" at 0x([0-9a-fA-F]+)", lambda m: " at 0x" + "X" * len(m.group(1)), str(v))


def _pp_param(k: str, v, ctx: _PpContext, name_stack: bool) -> pp.Doc:
    if isinstance(v, (tuple, list)) and v and all(_program(j) is not None for j in v):
        body = pp.group(pp.concat([pp.nest(2, pp.concat([
            pp.text("("), pp.brk(""),
            pp.join(pp.brk(), [_pp_jaxpr(_program(j), ctx, name_stack) for j in v])])),
            pp.brk(""), pp.text(")")]))
    elif _program(v) is not None and not isinstance(v, type):
        body = _pp_jaxpr(_program(v), ctx, name_stack)
    else:
        body = pp.text(_param_value_text(v))
    return pp.text(f"{k}=") + body


def display_params(e: Eqn, ctx: _PpContext | None = None) -> list:
    """The parameters of ``e`` as JAX prints them: ``[(name, value)]`` in JAX's order (a
    program value is printed as a nested program).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> e = fgrad.make_jaxpr(lambda x: x.reshape(2, 2))(fnp.zeros(4)).eqns[0]
        >>> display_params(e)
        [('dimensions', None), ('new_sizes', (2, 2)), ('sharding', None)]
    """
    items = display(e.prim.name, e.params, [v.aval for v in e.outvars])
    if e.prim.name == "jit" and ctx is not None:
        sub = _program(dict(items).get("jaxpr"))
        if sub is not None and id(sub.eqns) not in ctx.shared:
            ctx.suggest(sub.invars, e.invars)
            ctx.suggest(sub.outvars, e.outvars)
    return items


def display_name(e: Eqn) -> str | None:
    """The ``name`` parameter JAX shows for ``e`` (a jit's function name), or None.

    Example::

        >>> import fgrad
        >>> def double(x):
        ...     return x * 2.0
        >>> display_name(fgrad.make_jaxpr(fgrad.jit(double))(1.0).eqns[0])
        'double'
    """
    name = dict(display(e.prim.name, e.params, [v.aval for v in e.outvars])).get("name")
    return name if isinstance(name, str) else None


def _pp_eqn(e: Eqn, ctx: _PpContext, name_stack: bool) -> pp.Doc:
    lhs = _pp_vars(e.outvars, ctx, shapes=True)  # named first, as JAX does
    params = display_params(e, ctx)
    note = f"[{e.name_stack}]" if name_stack else None
    kv = pp.nil()
    if params:
        kv = pp.group(pp.concat([
            pp.nest(2, pp.concat([pp.text("["), pp.brk(""), pp.join(
                pp.brk(), [_pp_param(k, v, ctx, name_stack) for k, v in params])])),
            pp.brk(""), pp.text("]")]))
    rhs = [pp.text(e.prim.name, annotation=note), kv,
           pp.text(" ") + _pp_vars(_typed_literals(e), ctx)]
    return pp.concat([lhs, pp.text(" = "), *rhs]) if e.outvars else pp.concat(rhs)


_KIND = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}


def _typed_literals(e: Eqn) -> list:
    """``e``'s inputs, a weakly typed Python scalar of an elementwise equation shown with the
    dtype it computes in (``mul x 2.0:f32[]`` for a float32 ``x``), as JAX's are."""
    if getattr(e.prim, "family", "") != "elementwise":
        return e.invars
    var = next((v for v in e.invars if type(v) is not Literal), None)
    if var is None:
        return e.invars
    dt = np.dtype(var.aval.dtype)
    out = []
    for v in e.invars:
        if type(v) is Literal and getattr(v.aval, "weak_type", False) \
                and _KIND.get(np.dtype(v.aval.dtype).kind, 9) <= _KIND.get(dt.kind, -1):
            v = Literal(np.asarray(v.val, dt)[()], ShapedArray((), dt, weak_type=True))
        out.append(v)
    return out


def _pp_skeleton(jaxpr: Jaxpr, ctx: _PpContext, name_stack: bool) -> pp.Doc:
    consts = _pp_vars(jaxpr.constvars, ctx, shapes=True)
    invars = _pp_vars(jaxpr.invars, ctx, shapes=True)
    eqns = pp.join(pp.brk("; "), [_pp_eqn(e, ctx, name_stack) for e in jaxpr.eqns])
    outs = pp.concat([pp.text("("), _pp_vars(jaxpr.outvars, ctx, sep=","),
                      pp.text(")" if len(jaxpr.outvars) != 1 else ",)")])
    return pp.group(pp.nest(2, pp.concat([
        pp.text("{ lambda "), consts, pp.text("; "), invars, pp.text(". let"),
        pp.nest(2, pp.brk() + eqns), pp.brk(), pp.text("in "), outs])) + pp.text(" }"))


def _pp_jaxpr(jaxpr: Jaxpr, ctx: _PpContext, name_stack: bool) -> pp.Doc:
    name = ctx.shared.get(id(jaxpr.eqns))
    return pp.text(name) if name is not None else _pp_skeleton(jaxpr, ctx, name_stack)


def _dropvars(jaxpr: Jaxpr) -> dict:
    """The equation results nothing reads print as ``_``."""
    names, used = {}, {id(v) for v in jaxpr.outvars if type(v) is not Literal}
    for e in reversed(jaxpr.eqns):
        for v in e.outvars:
            if id(v) not in used:
                names[id(v)] = "_"
        used.update(id(v) for v in e.invars if type(v) is not Literal)
    return names


def pretty_doc(top: Jaxpr, name_stack: bool = False) -> pp.Doc:
    """``top`` as a layout document (`core.pretty`), in JAX's text: a nested program used
    more than once, or of more than 10 equations, is printed first as ``let name = ... in``.

    Example::

        >>> import fgrad
        >>> print(pretty_doc(fgrad.make_jaxpr(lambda x: x * 2.0)(1.0).jaxpr).format(40))
        { lambda ; a:f64[]. let
            b:f64[] = mul a 2.0:f64[]
          in (b,) }
    """
    ctx = _PpContext(_dropvars(top))
    counts: Counter = Counter()
    programs: dict[int, Jaxpr] = {}
    labels: dict[int, str] = {}
    queue = deque([top])
    while queue:
        j = queue.popleft()
        key = id(j.eqns)
        programs[key] = j
        counts[key] += 1 + (j is not top and len(j.eqns) > 10)
        for e in j.eqns:
            label = display_name(e)
            # the programs the text shows (not, e.g., a custom_jvp_call's `jvp=jvp` program)
            for _, v in display_params(e):
                for sub in _programs(v):
                    queue.append(sub)
                    if label is not None:
                        labels.setdefault(id(sub.eqns), label.strip("<>"))
    name_counts: Counter = Counter()
    shared = []
    for key, c in counts.items():
        if c == 1:
            continue
        label = labels.get(key, "jaxpr")
        if name_counts[label]:
            n = name_counts[label]
            name_counts[label] += 1
            label += str(n)
        name_counts[label] += 1
        ctx.taken.add(label)
        ctx.shared[key] = label
        shared.append((label, programs[key]))
    docs = [pp.concat([pp.text(f"let {label} = "), _pp_skeleton(j, ctx, name_stack),
                       pp.text(" in"), pp.brk()]) for label, j in shared]
    docs.append(_pp_jaxpr(top, ctx, name_stack))
    return pp.concat(docs)


def pretty_print(jaxpr: Jaxpr, name_stack: bool = False, width: int = 80) -> str:
    """The program as JAX prints it (short dtypes, typed literals, ``{ lambda consts ;
    inputs. let ... in (outs,) }``, parameters broken over lines past ``width`` columns).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> print(pretty_print(fgrad.make_jaxpr(fnp.sin)(fnp.zeros(2, "float32")).jaxpr))
        { lambda ; a:f32[2]. let b:f32[2] = sin a in (b,) }
    """
    return pretty_doc(jaxpr, name_stack).format(width)


def eval_jaxpr_jax(jaxpr: Jaxpr, consts, *args, propagate_source_info: bool = True) -> list:
    """``jax.core.eval_jaxpr``: evaluate ``jaxpr`` on the arguments ``*args`` (one per input
    variable; JAX's signature -- fgrad's `eval_jaxpr` takes them as one list), giving the
    list of its results.  A wrong number of arguments is a TypeError (without the check an
    array passed where a list was expected bound its first element silently).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> cj = fgrad.make_jaxpr(lambda x, y: fnp.sin(x) * y)(1.0, 2.0)
        >>> [round(float(v), 4) for v in fgrad.core.eval_jaxpr(cj.jaxpr, cj.consts, 0.5, 2.0)]
        [0.9589]
    """
    if len(args) != len(jaxpr.invars):
        raise TypeError(f"eval_jaxpr: the jaxpr takes {len(jaxpr.invars)} arguments, got {len(args)} "
                        "(jax.core.eval_jaxpr(jaxpr, consts, *args) takes them unpacked)")
    return eval_jaxpr(jaxpr, consts, list(args))


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
