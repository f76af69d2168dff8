"""Staged custom derivative rules: the `custom_jvp_call` and `custom_vjp_call` primitives.

When a staging trace (jit, make_jaxpr, a loop or branch body, checkpoint) meets a
`custom_jvp` or `custom_vjp` call, it must keep the user's rule: the staged program is
differentiated or vmapped later, after the Python callables are gone.  So the function and
its rule(s) are traced into programs right there and recorded as one equation whose
operands are the programs' captured values (the closed-over tracers of enclosing traces
and constants) followed by the arguments:

* ``custom_jvp_call(fun consts, jvp consts, args)``: runs ``fun``; its JVP rule evaluates
  the traced rule, its batching rule re-enters `custom_jvp` under `vmap` (so the batched
  call is staged again, with the rule).
* ``custom_vjp_call(fun consts, fwd consts, bwd consts, args)``: runs ``fun``; its JVP rule
  runs ``fwd`` and records `custom_vjp_lin` (residuals as operands), whose transpose runs
  the traced ``bwd``.

A rule that calls its own function (``return f(x), ...``) is traced once; the inner call
keeps the Python rule and traces it only when differentiated again.
"""

from __future__ import annotations

import functools
import types

import numpy as np

from ..core.array import ArrayImpl, ShapedArray, Tracer, get_aval
from ..core.constants import zeros, zeros_like
from ..core.executor import device_of
from ..core.ir import Jaxpr
from ..core.primitive import Primitive
from ..core.rules import add_tangents, defbatch, defjvp_rule, deflinear_in, is_undefined
from ..core.trace import new_trace, state
from ..ops.shape import bdim_to_front
from ..tree_util import flatten_arrays as tree_flatten, tree_unflatten
from .batching import vmap
from .custom import NO_FORWARD_MODE, PERTURBED
from .jit_primitive import JIT_HINT, Closed, jit_p
from .jvp_trace import JVPTrace, JVPTracer
from .staging import CUSTOM_CALL_STAGING, StagingTrace

_RULES_BEING_TRACED: list = []  # user rules whose tracing is in progress (recursion guard)


def _trace(fn, in_avals, what: str) -> tuple[Closed, list]:
    """Trace ``fn(*xs) -> list`` into a program whose inputs are its captured values (consts
    and tracers of enclosing traces, returned) followed by ``xs``."""
    with new_trace(StagingTrace, what, partial=False, hint=JIT_HINT) as st:
        args = [st.new_arg(a) for a in in_avals]
        outs = list(fn(*args))
        jaxpr, consts = st.to_jaxpr(outs)
    program = Jaxpr([], list(jaxpr.constvars) + list(jaxpr.invars), jaxpr.eqns, jaxpr.outvars)
    return Closed(program, [], name=what), list(consts)


def _jvp_of(program: Closed, primals, tangents):
    """Evaluate ``program`` on ``primals`` under the current trace, with the forward-mode
    derivative along ``tangents`` (None: zero): ``(outs, output tangents)``."""
    if all(t is None for t in tangents):
        return program(*primals), [None] * len(program.jaxpr.outvars)
    with new_trace(JVPTrace, f"jvp of {program.name}") as jt:
        ins = [p if t is None else JVPTracer(jt, p, t) for p, t in zip(primals, tangents)]
        outs = program(*ins)
        p_out, t_out, _ = jt.split(outs)
    return p_out, t_out


def _run(program: Closed, xp, bufs):
    if getattr(xp, "__name__", "") == "numpy":
        return program.executable(xp).run(list(bufs))
    return program.executable(xp, device_of(bufs)).run(list(bufs))


# ---------------------------------------------------------------------------------------
# custom_jvp_call


def stage_custom_jvp(fun, jvp, args, symbolic_zeros=False):
    """Record a `custom_jvp` call (flat ``fun``/``jvp`` of `custom_jvp.__call__`) in the
    current staging trace as a `custom_jvp_call` equation."""
    avals = [get_aval(a) for a in args]
    fun_p, fun_consts = _trace(fun, avals, f"custom_jvp function {_name(fun)}")
    key = getattr(jvp, "__wrapped__", jvp)
    jvp_p, jvp_consts, lazy = None, [], None
    if any(k is key for k in _RULES_BEING_TRACED) or not may_capture_tracer(jvp):
        # JAX traces the rule only when the call is differentiated: a rule that reaches no
        # traced value stays Python until then (its side effects and errors happen only
        # then); so does a rule that calls its own function (traced when differentiated)
        lazy = jvp
    else:
        jvp_p, jvp_consts = _trace_rule(jvp, avals)
    return custom_jvp_call_p.bind(*fun_consts, *jvp_consts, *args, fun=fun_p, jvp=jvp_p, lazy_jvp=lazy,
                                  n_fun_consts=len(fun_consts), n_jvp_consts=len(jvp_consts),
                                  symbolic_zeros=symbolic_zeros)


def _trace_rule(jvp, avals) -> tuple[Closed, list]:
    """Trace the flat rule ``jvp(primals, tangents) -> (outs, tangents)`` into a program of
    (captured values, primals, tangents) -> outs + tangents."""
    n = len(avals)

    def flat_jvp(*xs):
        outs, t_outs = jvp(list(xs[:n]), list(xs[n:]))
        return list(outs) + [zeros_like(o) if t is None else t for o, t in zip(outs, t_outs)]

    _RULES_BEING_TRACED.append(getattr(jvp, "__wrapped__", jvp))
    try:
        return _trace(flat_jvp, avals + avals, f"custom_jvp rule {_name(jvp)}")
    finally:
        _RULES_BEING_TRACED.pop()


def rule_key(params):
    """The user rule a `custom_jvp_call`'s deferred (Python) rule wraps, or None."""
    lazy = params["lazy_jvp"]
    return None if lazy is None else getattr(lazy, "__wrapped__", lazy)


def materialize_rule(params, arg_avals):
    """The parameters of a `custom_jvp_call` whose rule is still Python (deferred until
    differentiation) with the rule traced into a program over constants, for writers of
    programs that must keep the rule without Python (`fgrad.export`); None when the rule
    reaches a traced value or is being traced already (the caller keeps its fallback)."""
    lazy = params["lazy_jvp"]
    key = rule_key(params)
    if lazy is None or any(k is key for k in _RULES_BEING_TRACED):
        return None
    program, consts = _trace_rule(lazy, list(arg_avals))
    if any(isinstance(c, Tracer) for c in consts):
        return None
    j, nc = program.jaxpr, len(consts)
    closed = Closed(Jaxpr(list(j.invars[:nc]), list(j.invars[nc:]), j.eqns, j.outvars), consts,
                    name=program.name)
    return dict(params, jvp=closed, lazy_jvp=None)


_WALK_BUDGET = 2000  # objects visited before giving up (then: assume a tracer is reached)


def may_capture_tracer(fn) -> bool:
    """Whether ``fn`` may reach a tracer through what it holds: closure cells, defaults,
    ``functools.partial`` arguments, bound ``self``, and (recursively) the functions,
    containers and object attributes found there.  Globals are not followed (a tracer in a
    global has escaped its transform anyway).  Conservative: an object graph larger than
    the walk's budget counts as reaching one.

    Example::

        >>> import fgrad
        >>> from fgrad.transforms.custom_call import may_capture_tracer
        >>> may_capture_tracer(lambda p, t: (p, t))
        False
        >>> def f(w):
        ...     rule = lambda p, t: (p, w)
        ...     return may_capture_tracer(rule)
        >>> f(1.0), bool(fgrad.jit(f)(1.0))
        (False, True)
    """
    seen: set[int] = set()
    stack = [fn]
    while stack:
        obj = stack.pop()
        if isinstance(obj, Tracer):
            return True
        if obj is None or isinstance(obj, _LEAF_TYPES) or id(obj) in seen:
            continue
        seen.add(id(obj))
        if len(seen) > _WALK_BUDGET:
            return True
        if isinstance(obj, (list, tuple, set, frozenset)):
            stack.extend(obj)
        elif isinstance(obj, dict):
            stack.extend(obj.values())
        elif isinstance(obj, types.FunctionType):
            stack.extend(c.cell_contents for c in (obj.__closure__ or ()) if _filled(c))
            stack.extend(obj.__defaults__ or ())
            stack.extend((obj.__kwdefaults__ or {}).values())
            stack.append(getattr(obj, "__wrapped__", None))
        elif isinstance(obj, types.MethodType):
            stack.extend((obj.__func__, obj.__self__))
        elif isinstance(obj, functools.partial):
            stack.extend((obj.func, obj.args, obj.keywords))
        elif not isinstance(obj, (type, types.ModuleType, types.BuiltinFunctionType)):
            stack.extend(getattr(obj, "__dict__", {}).values())
            stack.extend(_slot_values(obj))  # (a shim Tensor holds its traced buffer in a slot)
    return False


def _slot_values(obj) -> list:
    """The values of ``obj``'s ``__slots__`` attributes (of every class in its MRO)."""
    out = []
    for klass in type(obj).__mro__:
        slots = klass.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name in ("__dict__", "__weakref__"):
                continue
            try:
                out.append(getattr(obj, name))
            except AttributeError:
                pass
    return out


_LEAF_TYPES = (int, float, complex, str, bytes, bool, np.ndarray, np.generic, ArrayImpl)


def _filled(cell) -> bool:
    try:
        _ = cell.cell_contents
    except ValueError:  # an empty cell (a name not yet bound)
        return False
    return True


def _name(f) -> str:
    f = getattr(f, "__wrapped__", f)
    return getattr(f, "__name__", type(f).__name__)


def _jvp_call_impl(xp, *bufs, fun, jvp, lazy_jvp, n_fun_consts, n_jvp_consts, symbolic_zeros):
    k = n_fun_consts + n_jvp_consts
    return _run(fun, xp, list(bufs[:n_fun_consts]) + list(bufs[k:]))


def _jvp_call_abstract(*avals, fun, **params):
    return [v.aval for v in fun.jaxpr.outvars]


custom_jvp_call_p = Primitive("custom_jvp_call", _jvp_call_impl, _jvp_call_abstract,
                              multiple_results=True, family="higher-order")


def _jvp_call_jvp(primals, tangents, **params):
    fun, jvp, lazy = params["fun"], params["jvp"], params["lazy_jvp"]
    nf, nj = params["n_fun_consts"], params["n_jvp_consts"]
    k = nf + nj
    args, arg_t = list(primals[k:]), list(tangents[k:])
    if all(t is None for t in arg_t):
        # only closed-over values carry tangents: as in eager mode, differentiate ``fun``
        outs = custom_jvp_call_p.bind(*primals, **params)
        _, t_outs = _jvp_of(fun, list(primals[:nf]) + args, list(tangents[:nf]) + [None] * len(args))
        return outs, t_outs
    if not (lazy is not None and params["symbolic_zeros"]):
        arg_t = [zeros_like(p) if t is None else t for p, t in zip(args, arg_t)]
    if lazy is not None:
        outs, t_outs = lazy(args, arg_t)
        return list(outs), list(t_outs)
    n_out = len(fun.jaxpr.outvars)
    # tangents of the rule's closed-over values flow through the rule's own computations
    res, d_res = _jvp_of(jvp, list(primals[nf:k]) + args + arg_t,
                         list(tangents[nf:k]) + [None] * (2 * len(args)))
    outs, t_outs = res[:n_out], res[n_out:]
    t_outs = [add_tangents(t, d) for t, d in zip(t_outs, d_res[:n_out])]
    return outs, t_outs


def _jvp_call_batch(axis_size, vals, dims, **params):
    fun, jvp, lazy = params["fun"], params["jvp"], params["lazy_jvp"]
    nf, nj = params["n_fun_consts"], params["n_jvp_consts"]
    k = nf + nj

    def fun_flat(*xs):
        return fun(*xs[:nf], *xs[k:])

    def jvp_flat(primals, tangents):
        n_out = len(fun.jaxpr.outvars)
        if lazy is not None:
            return lazy(list(primals[k:]), list(tangents[k:]))
        res = jvp(*primals[nf:k], *primals[k:], *tangents[k:])
        return res[:n_out], res[n_out:]

    jvp_flat.__wrapped__ = getattr(lazy, "__wrapped__", lazy) if lazy is not None else jvp

    def call(*xs):
        return state.trace.process_custom_jvp(fun_flat, jvp_flat, list(xs), params["symbolic_zeros"])

    outs = vmap(call, in_axes=tuple(dims), axis_size=axis_size)(*vals)
    return outs, [0] * len(outs)


def _jvp_call_transpose(cts, *args, fun, n_fun_consts, n_jvp_consts, **params):
    """A call on linear values (a rule applying a custom_jvp function to tangents): the
    transpose of its function's program."""
    k = n_fun_consts + n_jvp_consts
    ct_in = jit_p.transpose(cts, *args[:n_fun_consts], *args[k:], closed=fun)
    return list(ct_in[:n_fun_consts]) + [None] * n_jvp_consts + list(ct_in[n_fun_consts:])


defjvp_rule(custom_jvp_call_p, _jvp_call_jvp)
deflinear_in(custom_jvp_call_p, _jvp_call_transpose)
defbatch(custom_jvp_call_p, _jvp_call_batch)


# ---------------------------------------------------------------------------------------
# custom_vjp_call


class _OpaqueResiduals(Exception):
    """A custom_vjp fwd returned residuals that are not arrays."""


def stage_custom_vjp(fun, fwd, bwd, args, out_tree_hint=None):
    """Record a `custom_vjp` call (flat ``fun``/``fwd``/``bwd`` of `custom_vjp.__call__`)
    in the current staging trace as a `custom_vjp_call` equation.  As JAX, the rules stay
    Python (``lazy_vjp``) until the call is differentiated, unless they reach a traced value
    of the enclosing trace (then they are traced here, with that value as an operand)."""
    key = getattr(bwd, "__wrapped__", bwd)
    if any(k is key for k in _RULES_BEING_TRACED):
        return fun(*args)  # ``fwd``/``bwd`` calls its own function: inlined
    avals = [get_aval(a) for a in args]
    fun_p, fun_consts = _trace(fun, avals, f"custom_vjp function {_name(fun)}")
    if not (may_capture_tracer(fwd) or may_capture_tracer(bwd)):
        return custom_vjp_call_p.bind(*fun_consts, *args, fun=fun_p, fwd=None, bwd=None,
                                      lazy_vjp=LazyVJP(fwd, bwd), n_consts=(len(fun_consts), 0, 0))
    traced = _trace_vjp_rules(fwd, bwd, avals, [v.aval for v in fun_p.jaxpr.outvars])
    if traced is None:
        return fun(*args)
    fwd_p, fwd_consts, bwd_p, bwd_consts = traced
    return custom_vjp_call_p.bind(*fun_consts, *fwd_consts, *bwd_consts, *args, fun=fun_p, fwd=fwd_p,
                                  bwd=bwd_p, lazy_vjp=None,
                                  n_consts=(len(fun_consts), len(fwd_consts), len(bwd_consts)))


class LazyVJP:
    """The Python rules of a staged `custom_vjp` call, kept until it is differentiated:
    ``fwd(*args) -> (outs, residuals)`` and ``bwd(residuals, cts) -> cotangents`` (the flat
    rules of `custom_vjp.__call__`).  Compared by identity, as the functions."""

    __slots__ = ("fwd", "bwd")

    def __init__(self, fwd, bwd) -> None:
        self.fwd, self.bwd = fwd, bwd

    def __repr__(self) -> str:
        return f"LazyVJP({_name(self.fwd)}, {_name(self.bwd)})"


def _trace_vjp_rules(fwd, bwd, avals, out_avals):
    """``fwd`` and ``bwd`` traced into programs over (captured values, args) and (captured
    values, residuals, cotangents): ``(fwd program, consts, bwd program, consts)``; None when
    the residuals are not arrays (a Python object holding the fwd's values)."""
    key = getattr(bwd, "__wrapped__", bwd)
    res_tree: list = []

    def flat_fwd(*xs):
        outs, res = fwd(*xs)
        leaves, tree = tree_flatten(res)
        for leaf in leaves:
            try:
                get_aval(leaf)
            except TypeError:
                raise _OpaqueResiduals from None
        res_tree.append(tree)
        return list(outs) + leaves

    _RULES_BEING_TRACED.append(key)
    try:
        fwd_p, fwd_consts = _trace(flat_fwd, avals, f"custom_vjp fwd {_name(fwd)}")
    except _OpaqueResiduals:
        return None
    finally:
        _RULES_BEING_TRACED.pop()
    n_out = len(out_avals)
    res_avals = [v.aval for v in fwd_p.jaxpr.outvars[n_out:]]
    n_res = len(res_avals)

    def flat_bwd(*xs):
        res = tree_unflatten(res_tree[-1], list(xs[:n_res]))
        return list(bwd(res, list(xs[n_res:])))

    _RULES_BEING_TRACED.append(key)  # a bwd may call its own function (odeint's does)
    try:
        bwd_p, bwd_consts = _trace(flat_bwd, res_avals + list(out_avals), f"custom_vjp bwd {_name(bwd)}")
    finally:
        _RULES_BEING_TRACED.pop()
    return fwd_p, fwd_consts, bwd_p, bwd_consts


def materialize_vjp_rules(params, arg_avals):
    """The parameters of a `custom_vjp_call` whose rules are still Python with both traced
    into programs over constants, for writers of programs that must keep the rules without
    Python (`fgrad.export`); None when the rules are not deferred, reach a traced value, or
    keep residuals that are not arrays."""
    lazy = params["lazy_vjp"]
    if lazy is None or any(k is getattr(lazy.bwd, "__wrapped__", lazy.bwd) for k in _RULES_BEING_TRACED):
        return None
    traced = _trace_vjp_rules(lazy.fwd, lazy.bwd, list(arg_avals),
                              [v.aval for v in params["fun"].jaxpr.outvars])
    if traced is None:
        return None
    fwd_p, fwd_consts, bwd_p, bwd_consts = traced
    if any(isinstance(c, Tracer) for c in fwd_consts + bwd_consts):
        return None

    def closed(program, consts):
        j, nc = program.jaxpr, len(consts)
        return Closed(Jaxpr(list(j.invars[:nc]), list(j.invars[nc:]), j.eqns, j.outvars), consts,
                      name=program.name)

    return dict(params, fwd=closed(fwd_p, fwd_consts), bwd=closed(bwd_p, bwd_consts), lazy_vjp=None)


def _vjp_call_impl(xp, *bufs, fun, fwd, bwd, lazy_vjp, n_consts):
    return _run(fun, xp, list(bufs[:n_consts[0]]) + list(bufs[sum(n_consts):]))


custom_vjp_call_p = Primitive("custom_vjp_call", _vjp_call_impl, _jvp_call_abstract,
                              multiple_results=True, family="higher-order")


def _vjp_call_jvp(primals, tangents, *, fun, fwd, bwd, lazy_vjp, n_consts):
    nf, nw, nb = n_consts
    k = nf + nw + nb
    args, arg_t = list(primals[k:]), list(tangents[k:])
    if all(t is None for t in arg_t):
        outs = custom_vjp_call_p.bind(*primals, fun=fun, fwd=fwd, bwd=bwd, lazy_vjp=lazy_vjp,
                                      n_consts=n_consts)
        _, t_outs = _jvp_of(fun, list(primals[:nf]) + args, list(tangents[:nf]) + [None] * len(args))
        return outs, t_outs
    if lazy_vjp is not None:
        return _lazy_vjp_jvp(lazy_vjp, args, arg_t)
    n_out = len(fun.jaxpr.outvars)
    res = fwd(*primals[nf:nf + nw], *args)
    outs, residuals = res[:n_out], res[n_out:]
    arg_t = [zeros_like(p) if t is None else t for p, t in zip(args, arg_t)]
    t_outs = custom_vjp_lin_p.bind(*primals[nf + nw:k], *residuals, *arg_t, bwd=bwd,
                                   n_known=nb + len(residuals),
                                   out_avals=tuple(get_aval(o) for o in outs))
    return outs, t_outs


def _lazy_vjp_jvp(lazy, args, arg_t):
    """The JVP of a staged call whose rules are still Python: the user's ``fwd`` runs now
    (JAX runs it when the call is differentiated) and `custom_vjp_lin` records the linear
    part, with the residual arrays as operands and the Python ``bwd`` as its transpose."""
    PERTURBED[0] = [t is not None for t in arg_t]  # (symbolic_zeros: which args are perturbed)
    try:
        outs, res = lazy.fwd(*args)
    finally:
        PERTURBED[0] = None
    leaves, res_tree = tree_flatten(res)
    is_array = []
    for leaf in leaves:
        try:
            get_aval(leaf)
            is_array.append(True)
        except TypeError:  # a Python object: kept in the rule (it holds no traced value)
            if may_capture_tracer(leaf):
                raise TypeError(
                    f"custom_vjp fwd rule {_name(lazy.fwd)} returned a residual of type "
                    f"{type(leaf).__name__} that holds traced values; residuals must be arrays "
                    "(or pytrees of arrays) when the function is differentiated inside jit, "
                    "vmap or a loop. Return the arrays themselves as residuals.") from None
            is_array.append(False)
    res_arrays = [x for x, a in zip(leaves, is_array) if a]
    n_res = len(res_arrays)
    bwd = lazy.bwd

    static = [None if a else x for x, a in zip(leaves, is_array)]  # (never the arrays)

    def lin_bwd(*xs):
        it = iter(xs[:n_res])
        full = [next(it) if a else x for x, a in zip(static, is_array)]
        return list(bwd(tree_unflatten(res_tree, full), list(xs[n_res:])))

    lin_bwd.__wrapped__ = getattr(bwd, "__wrapped__", bwd)
    arg_t = [zeros_like(p) if t is None else t for p, t in zip(args, arg_t)]
    t_outs = custom_vjp_lin_p.bind(*res_arrays, *arg_t, bwd=lin_bwd, n_known=n_res,
                                   out_avals=tuple(get_aval(o) for o in outs))
    return list(outs), t_outs


def _vjp_call_batch(axis_size, vals, dims, *, fun, fwd, bwd, lazy_vjp, n_consts):
    nf, nw, nb = n_consts
    k = nf + nw + nb
    n_out = len(fun.jaxpr.outvars)

    def call(*xs):
        f_c, w_c, b_c = xs[:nf], xs[nf:nf + nw], xs[nf + nw:k]
        n = len(xs) - k

        def fun_flat(*a):
            return fun(*f_c, *a)

        if lazy_vjp is not None:
            return state.trace.process_custom_vjp(fun_flat, lazy_vjp.fwd, lazy_vjp.bwd, list(xs[k:]))

        def fwd_flat(*a):
            r = fwd(*w_c, *a)
            return r[:n_out], list(r[n_out:])

        def bwd_flat(res, cts):
            return bwd(*b_c, *res, *cts)[:n]

        bwd_flat.__wrapped__ = bwd
        return state.trace.process_custom_vjp(fun_flat, fwd_flat, bwd_flat, list(xs[k:]))

    outs = vmap(call, in_axes=tuple(dims), axis_size=axis_size)(*vals)
    return outs, [0] * len(outs)


def _vjp_call_transpose(cts, *args, fun, fwd, bwd, lazy_vjp, n_consts):
    """A call on linear values: the transpose of its function's program."""
    nf, k = n_consts[0], sum(n_consts)
    ct_in = jit_p.transpose(cts, *args[:nf], *args[k:], closed=fun)
    return list(ct_in[:nf]) + [None] * (k - nf) + list(ct_in[nf:])


defjvp_rule(custom_vjp_call_p, _vjp_call_jvp)
deflinear_in(custom_vjp_call_p, _vjp_call_transpose)
defbatch(custom_vjp_call_p, _vjp_call_batch)


# ---------------------------------------------------------------------------------------
# custom_vjp_lin: the linear part of a staged custom_vjp; its transpose is the user's bwd


def _lin_impl(xp, *bufs, bwd, n_known, out_avals):
    raise TypeError(NO_FORWARD_MODE)


def _lin_abstract(*avals, bwd, n_known, out_avals):
    return list(out_avals)


custom_vjp_lin_p = Primitive("custom_vjp_lin", _lin_impl, _lin_abstract, multiple_results=True,
                             family="custom")


def _lin_transpose(cts, *args, bwd, n_known, out_avals):
    known = list(args[:n_known])
    if any(is_undefined(a) for a in known):
        raise NotImplementedError("custom_vjp_lin: residuals must be known when transposing")
    cts = [zeros(av.shape, av.dtype) if c is None else c for c, av in zip(cts, out_avals)]
    in_cts = bwd(*known, *cts)
    return [None] * n_known + list(in_cts)


def _lin_jvp(primals, tangents, *, bwd, n_known, out_avals):
    params = dict(bwd=bwd, n_known=n_known, out_avals=out_avals)
    if all(t is None for t in tangents[:n_known]):  # linear in the remaining operands
        outs = custom_vjp_lin_p.bind(*primals, **params)
        lin_t = [zeros_like(p) if t is None else t for p, t in zip(primals[n_known:], tangents[n_known:])]
        return outs, custom_vjp_lin_p.bind(*primals[:n_known], *lin_t, **params)
    raise NotImplementedError(
        "Differentiation rule for 'custom_lin' not implemented: can't apply forward-mode autodiff "
        "(jvp/jacfwd) to the reverse-mode derivative of a custom_vjp function; define a custom_jvp "
        "rule instead.")


def _lin_batch(axis_size, vals, dims, *, bwd, n_known, out_avals):
    vals = [bdim_to_front(v, d, axis_size) for v, d in zip(vals, dims)]
    in_avals = [get_aval(v) for v in vals[:n_known]] + [
        ShapedArray((axis_size,) + tuple(a.shape), a.dtype) for a in out_avals]
    bwd_b, consts = _trace(lambda *xs: vmap(lambda *a: bwd(*a))(*xs), in_avals,
                           f"vmap of {getattr(bwd, 'name', None) or _name(bwd)}")
    outs = custom_vjp_lin_p.bind(
        *consts, *vals, bwd=bwd_b, n_known=len(consts) + n_known,
        out_avals=tuple(ShapedArray((axis_size,) + tuple(a.shape), a.dtype) for a in out_avals))
    return outs, [0] * len(outs)


deflinear_in(custom_vjp_lin_p, _lin_transpose)
defjvp_rule(custom_vjp_lin_p, _lin_jvp)
defbatch(custom_vjp_lin_p, _lin_batch)

CUSTOM_CALL_STAGING["jvp"] = stage_custom_jvp
CUSTOM_CALL_STAGING["vjp"] = stage_custom_vjp

__all__ = ["custom_jvp_call_p", "custom_vjp_call_p", "custom_vjp_lin_p"]
