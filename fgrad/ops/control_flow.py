"""Structured control flow: cond, switch, scan, fori_loop, while_loop, map.

Each is a higher-order primitive whose parameters hold *jaxprs* traced from the user's
functions (with the functions' captured constants passed as explicit operands, so closures
over tracers of enclosing transforms work).  Implementations run the compiled jaxprs;
jvp rules build new jaxprs for the tangent computation; batching rules vmap the bodies;
reverse mode transposes the tangent computation.

* cond/switch: reverse mode via a cond of per-branch VJPs (exact: the tangent branches are
  linear in the tangents).
* scan (and fori_loop with static bounds): reverse mode replays the primal carries and
  runs the per-step VJPs in reverse.
* while_loop: forward mode and vmap; reverse mode raises an error that points to
  scan / fori_loop with a static trip count.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any
from ..typing import ArrayLike

import numpy as np
from ..core.narrow_floats import dtype_kind

from ..core.array import ArrayImpl, ShapedArray, Tracer, get_aval, wrap
from ..core.weak_types import WEAK_SCALAR_TYPES
from ..compile.passes import optimize
from ..core.executor import host_loop, host_scan, straight_line
from ..core.scalar_loops import scalar_scan, scalar_while
from ..core.host_pool import empty as pooled_empty
from ..core.quiet import switch
from ..backends import NUMPY, backend_of_buffer, full, put_buffer
from ..core.constants import constant_like, host_array, zeros, zeros_like
from ..core.placement import placement_of
from ..core.ir import (Eqn, Jaxpr, Literal, eval_jaxpr, has_effects, jax_named_params, live_eqns,
                       split_by_dependence)
from ..core.primitive import DebugCheckTrace, Primitive
from ..core.provenance import CHECKS
from ..core.rules import UndefinedPrimal, defbatch, defjvp_rule, deflinear_in, is_undefined
from ..core.trace import new_trace, state
from ..transforms.ad import jvp, vjp
from ..transforms.batching import vmap, vmap_on_axis
from ..transforms.staging import StagingTrace, StagingTracer
from ..tree_util import flatten_arrays as tree_flatten, tree_unflatten
from . import collectives as _procs
from .elementwise import clamp_p, convert_element_type, eq, maximum, minimum, ne_p, select
from .reductions import reduce_or_p
from .shape import bdim_to_front, move_or_broadcast, reshape
from .structural import concatenate, slice_in_dim


_QUIET_SET, _QUIET, _QUIET_RESET = switch()  # NumPy's error reports off around a whole loop


def _optimized(jaxpr: Jaxpr) -> Jaxpr | None:
    """``jaxpr`` through jit's pass pipeline (`compile.passes.optimize`: ``x ** 3`` as
    products, identities, no-op converts and common subexpressions removed, dead code
    dropped, constants folded) as a body: without constant arrays (host arrays a body running
    on a device could not read).  Where folding leaves one, the pipeline runs again folding
    only into scalar literals (``array_consts=False``); None where constants remain even so
    (an inlined call's own).  Inputs and outputs keep their order and meaning (a carry, a
    residual a reverse sweep reads); an output may become one of the inputs or a literal."""
    prog = optimize(jaxpr, [])
    if prog.constvars:
        prog = optimize(jaxpr, [], array_consts=False)
    return None if prog.constvars else prog.to_jaxpr()


def _simplified(jaxpr: Jaxpr) -> Jaxpr:
    """A body for the straight-line executor: `_optimized`, or where that cannot be, ``jaxpr``
    with only its dead code dropped."""
    simple = _optimized(jaxpr)
    if simple is not None:
        return simple
    eqns = live_eqns(jaxpr.eqns, jaxpr.outvars)[0]
    return jaxpr if len(eqns) == len(jaxpr.eqns) else Jaxpr(jaxpr.constvars, jaxpr.invars, eqns,
                                                             jaxpr.outvars)


class Branch:
    """A traced function: a jaxpr whose first ``n_consts`` inputs are its constants.
    Hashed by identity; caches its compiled executor."""

    __slots__ = ("jaxpr", "n_consts", "_run", "_runners", "_loop", "_scans", "host_only")

    def __init__(self, jaxpr: Jaxpr, n_consts: int) -> None:
        self.jaxpr, self.n_consts, self._run, self._runners = jaxpr, n_consts, None, None
        self._loop = self._scans = None
        # a joined while step usable only as `host_loop`'s scalar loop (`_build_step`)
        self.host_only = False

    @property
    def out_avals(self):
        return [get_aval(v) if not hasattr(v, "aval") else v.aval for v in self.jaxpr.outvars]

    # JAX's ClosedJaxpr face (a cond's ``eqn.params["branches"]`` holds Branches): the program's
    # equations and types; its constants are operands (the first ``n_consts`` invars), so
    # ``consts`` is empty, as in JAX's branches
    @property
    def eqns(self) -> list:
        return self.jaxpr.eqns

    @property
    def in_avals(self) -> list:
        return [v.aval for v in self.jaxpr.invars]

    @property
    def consts(self) -> list:
        return []

    def run(self, xp, bufs):
        if CHECKS["on"] and isinstance(state.trace, DebugCheckTrace):
            return self._run_checked(xp, bufs)
        if self._run is None:
            self._run = straight_line(_simplified(self.jaxpr))
        return self._run(xp, bufs)

    def runner(self, xp) -> Callable:
        """``run(bufs) -> list`` for the iterations of one loop on ``xp``, without the
        per-call dispatch of `run`: the generated host function itself on NumPy, the
        generic one elsewhere.  NumPy's error reports are not switched off by it; the
        caller runs the whole loop with them off (`_QUIET`)."""
        if CHECKS["on"] and isinstance(state.trace, DebugCheckTrace):
            return lambda bufs: self._run_checked(xp, bufs)
        runners = self._runners
        run = runners.get(xp) if runners is not None else None
        if run is None:
            if self._run is None:
                self._run = straight_line(_simplified(self.jaxpr))
            run = functools.partial(self._run.host if xp is np else
                                    getattr(self._run, "__wrapped__", self._run), xp)
            self._runners = {**(runners or {}), xp: run}
        return run

    def host_loop(self) -> Callable:
        """For a while loop's joined step (`_cond_and_body`: outputs the condition, then the
        next carry; inputs its ``n_consts`` constants, then the carry): ``run(bufs) -> final
        carry``, the whole loop as one generated host function (`core.executor.host_loop`),
        with what the condition reads computed first."""
        if self._loop is None:
            jx = _simplified(self.jaxpr)
            first = live_eqns(jx.eqns, jx.outvars[:1])[0]
            ids = {id(e) for e in first}
            jx = Jaxpr(jx.constvars, jx.invars, first + [e for e in jx.eqns if id(e) not in ids], jx.outvars)
            # tiny carries: NumPy scalars, and the body never runs on the last carry
            loop = scalar_while(jx, self.n_consts, len(first))
            self._loop = loop if loop is not None or self.host_only else host_loop(jx, self.n_consts)
        return self._loop

    def host_scan(self, n_consts: int, n_carry: int, length: int, reverse: bool) -> Callable:
        """For a scan's step (inputs ``n_consts`` constants, ``n_carry`` carries and one slice of each
        scanned array; outputs the next carry and the step's ys): ``run(bufs) -> final
        carry + stacked ys`` from the constants, the initial carry and the whole scanned
        arrays, the whole scan as one generated host function (`core.executor.host_scan`)."""
        key = (n_consts, n_carry, length, reverse)
        scans = self._scans if self._scans is not None else {}
        run = scans.get(key)
        if run is None:
            jx = _simplified(self.jaxpr)
            run = (scalar_scan(jx, n_consts, n_carry, length, reverse)
                   or host_scan(jx, n_consts, n_carry, length, reverse, _stacked_like))
            self._scans = {**scans, key: run} if len(scans) < 8 else {key: run}
        return run

    def _run_checked(self, xp, bufs):
        """With the NaN/inf checks on: evaluate op by op through the checking trace, so a
        bad value inside the body is named with the body's line (`Eqn.source`)."""
        outs = eval_jaxpr(self.jaxpr, [], [b if type(b) in (bool, int, float, complex) else wrap(b)
                                           for b in bufs])
        return [o._buf if type(o) is ArrayImpl else xp.asarray(o, dtype=v.aval.dtype)
                for o, v in zip(outs, self.jaxpr.outvars)]

    def __call__(self, *args):
        """Evaluate under the current trace (args include the constants)."""
        return eval_jaxpr(self.jaxpr, [], list(args))

    def __repr__(self) -> str:
        return str(self.jaxpr)


def trace_flat(fun, avals, what="control flow"):
    """Trace ``fun(*flat_args) -> flat list`` to a `Branch` plus its constants."""
    with new_trace(StagingTrace, what, partial=False) as st:
        args = [st.new_arg(a) for a in avals]
        outs = fun(*args)
        jaxpr, consts = st.to_jaxpr(list(outs))
    jaxpr = Jaxpr([], list(jaxpr.constvars) + list(jaxpr.invars), jaxpr.eqns, jaxpr.outvars)
    return Branch(jaxpr, len(consts)), consts


def _with_operands(consts, operands):
    """The constants a body made while being traced (made on the default device) placed like
    the operands -- the first one on a device, else the first host one -- as jit places its
    program's constants: a loop over device data whose body builds a NumPy constant (an
    index, a counter) runs on that device, and one over data placed on the CPU (or another
    GPU) while the default device is a GPU runs there, instead of raising
    DeviceMismatchError."""
    target = None
    for o in operands:
        where = placement_of(o)
        if where is not None and (target is None or where[0] is not NUMPY):
            target = where
            if where[0] is not NUMPY:
                break
    if target is None:
        return consts
    dev = target[1]
    out = []
    for c in consts:
        if type(c) is ArrayImpl and placement_of(c)[1] != dev:
            c = wrap(put_buffer(c._buf, dev))
        out.append(c)
    return out


def _clip(index, hi: int):
    """``index`` clamped to ``[0, hi]`` (``fgrad.numpy.clip``'s maximum-then-minimum)."""
    return minimum(maximum(index, 0), hi)


def _any(x):
    """``fgrad.numpy.any(x)`` over all axes."""
    av = get_aval(x)
    if av.dtype != np.bool_:
        x = convert_element_type(x, np.bool_)
    return reduce_or_p.bind(x, axes=tuple(range(av.ndim))) if av.ndim else x


def _avals(xs):
    return [get_aval(x) for x in xs]  # weak types included: the body sees them as JAX's does


def _as_arrays(xs):
    """Arrays for loop/branch operands: Python and NumPy values become constants on the
    device of the first Array among ``xs`` (the default device without one)."""
    if all(isinstance(x, (Tracer, ArrayImpl)) for x in xs):
        return list(xs)
    like = next((x for x in xs if isinstance(x, (Tracer, ArrayImpl))), None)
    if like is None:
        out = [host_array(x) for x in xs]
    else:
        out = [x if isinstance(x, (Tracer, ArrayImpl)) else
               (constant_like(np.asarray(x), like) if isinstance(x, (np.ndarray, np.generic, int, float,
                                                                     complex, bool, list, tuple))
                else host_array(x)) for x in xs]
    # Python int/float/complex stay weakly typed (JAX): a float carry started at 0.0 takes float32
    return [wrap(o._buf, True) if type(x) in WEAK_SCALAR_TYPES and type(o) is ArrayImpl else o
            for x, o in zip(xs, out)]


def _zeros_like(x):
    return zeros_like(x)


def _index_like(value, operands):
    """A host index constant on the device of the first Array among ``operands``."""
    like = next((x for x in tree_flatten(list(operands))[0] if isinstance(x, (Tracer, ArrayImpl))), None)
    return constant_like(value, like)


# =======================================================================================
# cond / switch

def _cond_impl(xp, index, *args, branches, n_consts):
    i = int(np.clip(int(index), 0, len(branches) - 1))
    off = sum(n_consts[:i])
    ops = args[sum(n_consts):]
    return branches[i].run(xp, list(args[off:off + n_consts[i]]) + list(ops))


def _cond_abstract(index, *args, branches, n_consts):
    return branches[0].out_avals


cond_p = Primitive("cond", _cond_impl, _cond_abstract, multiple_results=True, family="control")
cond_p.params_view = jax_named_params("cond")  # params["branches"], as JAX's


def _bind_cond(index, funs, ops, what="cond"):
    """Trace each function over ``ops``'s avals and bind cond_p."""
    traced = [trace_flat(f, _avals(ops), what) for f in funs]
    outs0 = [(a.shape, a.dtype) for a in traced[0][0].out_avals]
    for k, (b, _) in enumerate(traced[1:], 1):
        outs = [(a.shape, a.dtype) for a in b.out_avals]
        if outs != outs0:
            raise TypeError(
                f"{what}: branches must return the same shapes and dtypes; branch 0 returns "
                f"{_fmt(outs0)} but branch {k} returns {_fmt(outs)}"
            )
    branches = tuple(b for b, _ in traced)
    consts = _with_operands([c for _, cs in traced for c in cs], [index, *ops])
    return cond_p.bind(index, *consts, *ops, branches=branches, n_consts=tuple(len(cs) for _, cs in traced))


def _fmt(avs):
    return "(" + ", ".join(f"{np.dtype(d).name}{list(s)}" for s, d in avs) + ")"


def _cond_jvp(primals, tangents, branches, n_consts):
    index, args = primals[0], list(primals[1:])
    targs = list(tangents[1:])
    out = cond_p.bind(index, *args, branches=branches, n_consts=n_consts)
    if all(t is None for t in targs):
        return out, [None] * len(out)
    tflat = [_zeros_like(a) if t is None else t for a, t in zip(args, targs)]
    n = len(args)

    def make(k):
        def f(*xs):
            p, t = _pick(k, xs[:n], n_consts), _pick(k, xs[n:], n_consts)
            return jvp(lambda *a: branches[k](*a), tuple(p), tuple(t))[1]

        return f

    t_out = _bind_cond(index, [make(k) for k in range(len(branches))], args + tflat, "cond (jvp)")
    return out, t_out


def _cond_transpose(cts, index, *args, branches, n_consts):
    if is_undefined(index):
        raise ValueError("cond is not linear in its index")
    undef = [is_undefined(a) for a in args]
    defined = [a for a in args if not is_undefined(a)]
    like = next((c for c in list(cts) + defined + [index] if c is not None), None)
    cts = [_zeros_aval(av, like) if c is None else c for c, av in zip(cts, branches[0].out_avals)]
    undef_avals = [a.aval for a in args if is_undefined(a)]

    def make(k):
        def f(*xs):
            d, c = list(xs[: len(defined)]), list(xs[len(defined):])

            def lin(*u):
                it_d, it_u = iter(d), iter(u)
                full = [next(it_u) if un else next(it_d) for un in undef]
                return branches[k](*_pick(k, full, n_consts))

            zeros = [_zeros_aval(av, c[0] if c else None) for av in undef_avals]
            _, f_vjp = vjp(lin, *zeros)
            return list(f_vjp(c))

        return f

    res = _bind_cond(index, [make(k) for k in range(len(branches))], defined + cts, "cond (transpose)")
    it = iter(res)
    return [None] + [next(it) if un else None for un in undef]


def _zeros_aval(av, like=None):
    """Zeros of an abstract value, on ``like``'s device (the default device without one)."""
    if like is None:
        return zeros(av.shape, av.dtype)
    return zeros_like(like, dtype=av.dtype, shape=av.shape)


def _pick(k, xs, n_consts):
    """Branch k's operands out of the cond operands (all consts, then ops)."""
    n_ops = len(xs) - sum(n_consts)
    off = sum(n_consts[:k])
    return list(xs[off:off + n_consts[k]]) + list(xs[len(xs) - n_ops:])


def _cond_batch(axis_size, vals, dims, branches, n_consts, bound_axis=None, bound_processes=1):
    index, args = vals[0], list(vals[1:])
    idim, adims = dims[0], list(dims[1:])

    def vmapped(k):
        def f(*xs):
            return vmap_on_axis(lambda *a: branches[k](*a), in_axes=tuple(_pick(k, adims, n_consts)),
                                axis_size=axis_size, axis_name=bound_axis,
                                processes=bound_processes)(*_pick(k, xs, n_consts))

        return f

    if idim is None:
        return _bind_cond(index, [vmapped(k) for k in range(len(branches))], args, "cond (vmap)"), 0
    # a batched predicate: evaluate every branch and select per example
    idx = _clip(bdim_to_front(index, idim, axis_size), len(branches) - 1)
    outs = [vmapped(k)(*args) for k in range(len(branches))]
    res = []
    for j in range(len(outs[0])):
        acc = outs[0][j]
        for k in range(1, len(branches)):
            o = outs[k][j]
            sel = reshape(eq(idx, k), (axis_size,) + (1,) * (get_aval(o).ndim - 1))
            acc = select(sel, o, acc)
        res.append(acc)
    return res, 0


_NO_OPERAND = object()  # `operand=None` passes None to the branches, as in JAX


_NOT_CALLABLE = {  # JAX's messages
    "cond": "lax.cond: true_fun and false_fun arguments should be callable.",
    "while_loop": "lax.while_loop: body_fun and cond_fun arguments should be callable.",
    "fori_loop": "lax.fori_loop: body_fun argument should be callable.",
    "scan": "lax.scan: f argument should be a callable.",
}


def _check_callable(op: str, *funs: Any) -> None:
    """JAX's TypeError for a control-flow function argument that is not callable."""
    if not all(callable(f) for f in funs):
        raise TypeError(_NOT_CALLABLE[op])


def cond(pred: ArrayLike, true_fun: Callable, false_fun: Callable, *operands: Any,
         operand: Any = _NO_OPERAND) -> Any:
    """``true_fun(*operands)`` if ``pred`` else ``false_fun(*operands)``, as one primitive
    (traceable under jit, differentiable, batchable; a batched ``pred`` selects per example).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> from fgrad.lax import cond
        >>> cond(True, lambda x: x + 1, lambda x: x - 1, 1.0)
        Array(2., dtype=float64, weak_type=True)
    """
    _check_callable("cond", true_fun, false_fun)
    if operand is not _NO_OPERAND:
        if operands:
            raise TypeError("cond: if 'operand' keyword is passed then no operands can be passed "
                            "positionally")
        operands = (operand,)
    pred_aval = get_aval(pred)
    if pred_aval.shape != ():
        raise TypeError(
            f"cond: the predicate must be a scalar, got shape {pred_aval.shape}. Reduce it (e.g. "
            "`fnp.all(p)` / `fnp.any(p)`), or use `fnp.where` to select elementwise."
        )
    if dtype_kind(pred_aval.dtype) not in "biuf":
        raise TypeError(f"cond: the predicate must be a boolean or real number, got {pred_aval.dtype.name}")
    # a number is true when non-zero (0.5 selects true_fun, as in JAX)
    if not isinstance(pred, (Tracer, ArrayImpl)):
        index = _index_like(np.asarray(bool(pred), dtype=np.int64), operands)
    elif pred_aval.dtype == np.bool_:  # 0 or 1: in range, as JAX's int32 index
        index = convert_element_type(pred, np.int32)
        return switch(index, [false_fun, true_fun], *operands, _what="cond", _in_range=True)
    else:
        index = convert_element_type(ne_p.bind(pred, 0), np.int64)
    # index 1 selects true_fun (pred True), 0 selects false_fun
    return switch(index, [false_fun, true_fun], *operands, _what="cond")


def switch(index: ArrayLike, branches: Sequence[Callable], *operands: Any, _what: str = "switch",
           _in_range: bool = False) -> Any:
    """``branches[clamp(index)](*operands)`` as one primitive.

    Example::

        >>> from fgrad.lax import switch
        >>> switch(2, [lambda x: x, lambda x: 2 * x, lambda x: 3 * x], 1.0)
        Array(3., dtype=float64, weak_type=True)
    """
    flat, tree = tree_flatten(operands)
    flat = _as_arrays(flat)
    out_trees = []

    def wrap_fun(f):
        def g(*xs):
            out = f(*tree_unflatten(tree, list(xs)))
            leaves, t = tree_flatten(out)
            out_trees.append(t)
            return _as_arrays(leaves)

        return g

    branches = list(branches)
    if not branches:
        raise ValueError(f"{_what}: empty branch sequence; pass at least one branch function")
    idx_aval = get_aval(index)
    if dtype_kind(idx_aval.dtype) not in "iu":
        raise TypeError(
            f"{_what}: the index must be an integer, got {index!r} as {idx_aval.dtype.name}"[:300]
            + ". Convert it with `.astype(int)` (fractional indices are not rounded)."
        )
    if idx_aval.shape != ():
        raise TypeError(f"{_what}: the branch index must be a scalar, got shape {idx_aval.shape}")
    idx = index if isinstance(index, (Tracer, ArrayImpl)) else _index_like(np.asarray(int(index)), flat)
    if not _in_range:  # (a bool predicate's index needs no clamping)
        # JAX's staging: the index as int32, then clamp(0, index, n - 1)
        idx = clamp_p.bind(np.int32(0), convert_element_type(idx, np.int32), np.int32(len(branches) - 1))
    outs = _bind_cond(idx, [wrap_fun(f) for f in branches], flat, _what)
    if any(t != out_trees[0] for t in out_trees):
        raise TypeError(f"{_what}: branches return different structures: {out_trees[0]} vs {out_trees[-1]}")
    return tree_unflatten(out_trees[0], outs)


defjvp_rule(cond_p, _cond_jvp)
deflinear_in(cond_p, _cond_transpose)
defbatch(cond_p, _cond_batch, axis_name=True)  # the branches may hold collectives over the axis


# =======================================================================================
# scan


def _scalar_operands_as_arrays(xp, args, invars):
    """``args`` with the scalars (literal operands) made 0-d arrays of their variables' dtypes,
    on the device of the first array operand (made there, not uploaded)."""
    like = next((a for a in args if hasattr(a, "shape") and not isinstance(a, np.generic)), None)
    if xp is np or like is None:
        return [a if hasattr(a, "shape") else np.asarray(a, v.aval.dtype) for a, v in zip(args, invars)]
    be = backend_of_buffer(like)
    with be.device_scope(be.device_of(like)):
        return [a if hasattr(a, "shape") else full(xp, (), a, v.aval.dtype) for a, v in zip(args, invars)]


def _scan_impl(xp, *args, body, n_consts, n_carry, length, reverse):
    if not all(hasattr(a, "shape") for a in args):  # a literal init (a Python scalar): an array
        args = _scalar_operands_as_arrays(xp, args, body.jaxpr.invars)
    consts = list(args[:n_consts])
    carry = list(args[n_consts:n_consts + n_carry])
    xs = args[n_consts + n_carry:]
    if length == 0:
        return carry + [xp.zeros((0,) + tuple(av.shape), av.dtype) for av in body.out_avals[n_carry:]]
    if xp is np and not (CHECKS["on"] and isinstance(state.trace, DebugCheckTrace)):
        token = _QUIET_SET(_QUIET)
        try:  # the whole scan as one generated function
            return body.host_scan(n_consts, n_carry, length, reverse)(list(args))
        finally:
            _QUIET_RESET(token)
    run = body.runner(xp)
    steps = range(length - 1, -1, -1) if reverse else range(length)
    # each step's ys go straight into their slot of the stacked outputs, allocated at the
    # first step with that step's dtypes (what stacking the steps' results would give)
    ys = None
    token = _QUIET_SET(_QUIET)
    try:
        for i in steps:
            out = run(consts + carry + [x[i] for x in xs])
            carry = out[:n_carry]
            if ys is None:
                ys = [_stacked_like(xp, y, length) for y in out[n_carry:]]
            for stacked, y in zip(ys, out[n_carry:]):
                stacked[i] = y
    finally:
        _QUIET_RESET(token)
    return carry + ys


def _stacked_like(xp, y, length: int):
    """An uninitialised ``(length, *y.shape)`` array of ``y``'s dtype on ``y``'s device (on
    the host a recycled one when it is large: `HOST_POOL`)."""
    y = xp.asarray(y)
    return pooled_empty(xp, (length,) + y.shape, y.dtype)


def _scan_abstract(*avals, body, n_consts, n_carry, length, reverse):
    outs = body.out_avals
    init = avals[n_consts:n_consts + n_carry]
    return [ShapedArray(a.shape, a.dtype, a.weak_type and i.weak_type) for a, i in zip(outs, init)] + [
        ShapedArray((length,) + tuple(a.shape), a.dtype, a.weak_type) for a in outs[n_carry:]
    ]


scan_p = Primitive("scan", _scan_impl, _scan_abstract, multiple_results=True, family="control")
scan_p.params_view = jax_named_params("scan")  # params["jaxpr"], ["num_carry"], ... as JAX's


def _scan_host_kernel(params: dict, avals: list) -> Callable:
    """The host executors' call of a scan (`core.executor` and `fgrad.jit`'s code on NumPy):
    `_scan_impl` on the host with its parameters bound once and the whole scan's generated
    function (`Branch.host_scan`: the scalar or native loop where it applies) looked up once --
    a tiny loop's call is then little more than its native code.  The same loop, the same
    results (a literal operand made a 0-d array of its variable's dtype, as there)."""
    body, n_consts, n_carry = params["body"], params["n_consts"], params["n_carry"]
    length, reverse = params["length"], params["reverse"]
    impl = functools.partial(_scan_impl, np, **params)
    if length == 0:
        return impl
    dtypes = [np.dtype(v.aval.dtype) for v in body.jaxpr.invars]
    found: list = []
    asarray, ndarray = np.asarray, np.ndarray

    def kernel(*args):
        if CHECKS["on"]:
            return impl(*args)
        if not found:
            found.append(body.host_scan(n_consts, n_carry, length, reverse))
        bufs = [a if type(a) is ndarray or hasattr(a, "shape") else asarray(a, dt)
                for a, dt in zip(args, dtypes)]
        token = _QUIET_SET(_QUIET)
        try:
            return found[0](bufs)
        finally:
            _QUIET_RESET(token)

    return kernel


scan_p.host_kernel = _scan_host_kernel


def _is_weak(x) -> bool:
    """A weakly typed loop input: a Python int/float/complex (not bool), or a weak Array."""
    if isinstance(x, (Tracer, ArrayImpl)):
        return bool(get_aval(x).weak_type)
    return isinstance(x, (int, float, complex)) and not isinstance(x, (bool, np.generic))


def _weak_avals(init, weak):
    return [ShapedArray(get_aval(x).shape, get_aval(x).dtype, bool(w)) for x, w in zip(init, weak)]


def _promote_weak_carry(init, weak, out_avals):
    """JAX's rule for loop carries: an initial value given as a Python scalar (weakly typed)
    takes the dtype the body gives it (``min_value = 0`` then ``min_value = lowest`` makes a
    float carry).  ``out_avals``: the body traced with those carries weak.  Returns the new
    initial values and whether any changed (then the body must be traced again)."""
    out, changed = list(init), False
    for i, (x, w, b) in enumerate(zip(init, weak, out_avals)):
        a = get_aval(x)
        if w and a.shape == b.shape and a.dtype != b.dtype:
            out[i], changed = convert_element_type(x, b.dtype), True
    return out, changed


def _scalar_literal(value, aval):
    """An initial carry given as the Python scalar ``value``, for a staged program: the scalar
    again (a NumPy scalar of the carry's dtype where the carry became strongly typed), which
    stages as JAX's literal (``scan[...] 0.0:f64[] a``) rather than a captured constant."""
    return value if aval.weak_type else aval.dtype.type(value)


def _bind_scan(fun, consts_in, init, xs, length, reverse, what="scan", weak=None, py_inits=None):
    """Trace ``fun(*consts_in, *carry, *x) -> carry + ys`` and bind scan_p.  ``weak``: which
    initial carries were Python scalars (`_promote_weak_carry`)."""
    x_avals = [ShapedArray(get_aval(x).shape[1:], get_aval(x).dtype) for x in xs]
    if weak is not None and any(weak):
        probe, _ = trace_flat(fun, _avals(consts_in) + _weak_avals(init, weak) + x_avals, what)
        init, _ = _promote_weak_carry(init, weak, probe.out_avals[: len(init)])
    body, body_consts = trace_flat(fun, _avals(consts_in) + _avals(init) + x_avals, what)
    c_out = body.out_avals[: len(init)]
    for i, (a, b) in enumerate(zip(_avals(init), c_out)):
        if (a.shape, a.dtype) != (b.shape, b.dtype):
            raise TypeError(
                f"{what}: the body's carry output must have the same shape and dtype as its carry "
                f"input; carry element {i} is {a.dtype.name}{list(a.shape)} on input but "
                f"{b.dtype.name}{list(b.shape)} on output. Cast inside the body (e.g. .astype) or "
                "fix the initial value's dtype."
            )
    body_consts = _with_operands(body_consts, [*consts_in, *init, *xs])
    if py_inits is not None and type(state.trace) is StagingTrace:
        init = [x if p is None else _scalar_literal(p, get_aval(x)) for x, p in zip(init, py_inits)]
    return scan_p.bind(*body_consts, *consts_in, *init, *xs, body=body,
                       n_consts=len(body_consts) + len(consts_in), n_carry=len(init),
                       length=length, reverse=reverse)


def _scan_split(args, n_consts, n_carry):
    return list(args[:n_consts]), list(args[n_consts:n_consts + n_carry]), list(args[n_consts + n_carry:])


def _scan_jvp(primals, tangents, body, n_consts, n_carry, length, reverse):
    params = dict(body=body, n_consts=n_consts, n_carry=n_carry, length=length, reverse=reverse)
    if all(t is None for t in tangents):
        out = scan_p.bind(*primals, **params)
        return out, [None] * len(out)
    tans = [_zeros_like(p) if t is None else t for p, t in zip(primals, tangents)]
    if _linearizing(tangents):
        split = _scan_jvp_split(primals, tangents, tans, body, n_consts, n_carry, length, reverse)
        if split is not None:
            return split
    out = scan_p.bind(*primals, **params)
    cp, carp, xsp = _scan_split(primals, n_consts, n_carry)
    ct, cart, xst = _scan_split(tans, n_consts, n_carry)
    nc, nx = n_consts, len(xsp)
    zero = ([t is None for t in tangents[:nc]] + [False] * n_carry
            + [t is None for t in tangents[nc + n_carry:]])

    def tbody(*a):
        pc, tc = list(a[:nc]), list(a[nc:2 * nc])
        pcar, tcar = list(a[2 * nc:2 * nc + n_carry]), list(a[2 * nc + n_carry:2 * nc + 2 * n_carry])
        rest = a[2 * nc + 2 * n_carry:]
        px, tx = list(rest[:nx]), list(rest[nx:])
        o, to = _jvp_nonzero(body, pc + pcar + px, tc + tcar + tx, zero)
        return list(o[:n_carry]) + list(to[:n_carry]) + list(to[n_carry:])

    res = _bind_scan(tbody, cp + ct, carp + cart, xsp + xst, length, reverse, "scan (jvp)")
    return out, res[n_carry:]


def _jvp_nonzero(body, primals, tangents, zero):
    """``jvp(body, primals, tangents)`` where ``zero[i]`` marks a tangent known to be zero in
    every step (a loop constant's or an xs's symbolic zero): those inputs are closed over as
    primals, not differentiated, so the step computes nothing for their zero tangents (no
    ``zeros @ W`` per step, and no such value saved as a residual)."""
    if not any(zero):
        return jvp(lambda *z: body(*z), tuple(primals), tuple(tangents))
    live = [i for i, z in enumerate(zero) if not z]

    def partial_body(*z):
        full = list(primals)
        for i, v in zip(live, z):
            full[i] = v
        return body(*full)

    return jvp(partial_body, tuple(primals[i] for i in live), tuple(tangents[i] for i in live))


def _linearizing(tangents) -> bool:
    """Whether the tangents are being staged for a linearization (reverse mode): by
    `linearize`'s partial staging trace or by the tape's backward-program builder."""
    for t in tangents:
        if type(t) is StagingTracer and (t._trace.partial or t._trace.linearizing):
            return True
    return False


def _scan_jvp_split(primals, tangents, tans, body, n_consts, n_carry, length, reverse):
    """The JVP of a scan as two scans, for reverse mode (JAX's partial evaluation of scan):

    1. a *primal* scan computing the primal carries and ys, the tangents that do not depend
       on the incoming tangents (a carry whose tangent stays zero, e.g. an integer counter),
       and stacking, step by step, the *residuals*: the primal values the tangent
       computation reads;
    2. a *tangent* scan, linear in the incoming tangents, reading the residuals as its xs
       (loop constants and the primal xs are passed as they are, not stacked).

    Partial evaluation runs (1) at once and stages (2); the tape's builder puts (1) in the
    primal program and (2) in the linear one.  The transpose of (2) then needs no replay of
    primal carries and no recomputation of a step's primal values: reverse mode costs one
    forward and one backward sweep.  ``tangents`` holds None for symbolic zeros (``tans``
    the zeros themselves).  Returns None where the split does not apply (a primal output
    reads a tangent); the caller then uses the one-scan JVP."""
    cp, carp, xsp = _scan_split(primals, n_consts, n_carry)
    ct, cart, xst = _scan_split(tans, n_consts, n_carry)
    zc, zcar, zx = _scan_split([t is None for t in tangents], n_consts, n_carry)
    nc, nx = n_consts, len(xsp)
    n_y = len(body.out_avals) - n_carry

    def tbody(*a):
        pc, pcar, px = list(a[:nc]), list(a[nc:nc + n_carry]), list(a[nc + n_carry:nc + n_carry + nx])
        t = a[nc + n_carry + nx:]
        tc, tcar, tx = list(t[:nc]), list(t[nc:nc + n_carry]), list(t[nc + n_carry:])
        o, to = _jvp_nonzero(body, pc + pcar + px, tc + tcar + tx, list(zc) + [False] * n_carry + list(zx))
        return list(o) + list(to)

    def step_avals(xs):
        return [ShapedArray(get_aval(x).shape[1:], get_aval(x).dtype) for x in xs]

    avals = _avals(cp) + _avals(carp) + step_avals(xsp) + _avals(ct) + _avals(cart) + step_avals(xst)
    branch, bconsts = trace_flat(tbody, avals, "scan (linearize)")
    bconsts = _with_operands(bconsts, [*primals, *tans])
    jx = branch.jaxpr
    nb = len(bconsts)
    v_bc = jx.invars[:nb]
    v_pc, v_pcar, v_px, v_tc, v_tcar, v_tx = _chunks(jx.invars[nb:], [nc, n_carry, nx, nc, n_carry, nx])
    p_car_out, p_y_out, t_car_out, t_y_out = _chunks(jx.outvars, [n_carry, n_y, n_carry, n_y])
    # which tangent carries depend on the incoming tangents: a fixpoint over the body
    lin_car = [not z for z in zcar]
    while True:
        seeds = [v for v, z in zip(v_tc, zc) if not z] + [v for v, m in zip(v_tcar, lin_car) if m] \
            + [v for v, z in zip(v_tx, zx) if not z]
        known_eqns, unknown_eqns, unknown = split_by_dependence(jx.eqns, seeds)
        new = [m or (type(v) is not Literal and v in unknown) for m, v in zip(lin_car, t_car_out)]
        if new == lin_car:
            break
        lin_car = new
    if any(type(v) is not Literal and v in unknown for v in list(p_car_out) + list(p_y_out)):
        return None
    lin_y = [type(v) is not Literal and v in unknown for v in t_y_out]
    # zero tangents of constants and xs: `_jvp_nonzero` closed over them, so no equation or
    # output reads them and the primal scan does not take them (nor slice them every step)
    read = {v for e in known_eqns for v in e.invars if type(v) is not Literal} | set(
        v for v in jx.outvars if type(v) is not Literal)
    k_tc = [v for v, z in zip(v_tc, zc) if z and v in read]
    k_tcar = [v for v, m in zip(v_tcar, lin_car) if not m]
    k_tx = [v for v, z in zip(v_tx, zx) if z and v in read]
    u_tc = [v for v, z in zip(v_tc, zc) if not z]
    u_tcar = [v for v, m in zip(v_tcar, lin_car) if m]
    u_tx = [v for v, z in zip(v_tx, zx) if not z]
    # residuals: the known values the tangent equations (or unknown tangent outputs) read
    u_outs = [v for v, m in zip(t_car_out, lin_car) if m] + [v for v, m in zip(t_y_out, lin_y) if m]
    residuals, seen = [], set()
    for v in [v for e in unknown_eqns for v in e.invars] + u_outs:
        if type(v) is not Literal and v not in unknown and v not in seen:
            seen.add(v)
            residuals.append(v)
    values = dict(zip(list(v_bc) + list(v_pc) + list(v_tc) + list(v_px) + list(v_tx),
                      list(bconsts) + cp + ct + xsp + xst))
    loop_consts = set(v_bc) | set(v_pc) | set(k_tc)   # the same value every step
    step_xs = set(v_px) | set(k_tx)                   # the primal xs themselves
    res_const = [v for v in residuals if v in loop_consts]
    res_xs = [v for v in residuals if v in step_xs]
    res_stacked = [v for v in residuals if v not in loop_consts and v not in step_xs]
    # 1. the primal scan (with the tangents that stay known), stacking the loop's residuals
    k_ys = [v for v, m in zip(t_y_out, lin_y) if not m]
    known = Branch(Jaxpr([], list(v_bc) + list(v_pc) + k_tc + list(v_pcar) + k_tcar + list(v_px) + k_tx,
                         known_eqns,
                         list(p_car_out) + [v for v, m in zip(t_car_out, lin_car) if not m]
                         + list(p_y_out) + k_ys + res_stacked), nb)
    k_out = scan_p.bind(*bconsts, *cp, *[values[v] for v in k_tc], *carp,
                        *[t for t, m in zip(cart, lin_car) if not m], *xsp, *[values[v] for v in k_tx],
                        body=known, n_consts=nb + nc + len(k_tc), n_carry=n_carry + len(k_tcar),
                        length=length, reverse=reverse)
    p_car, k_car, p_y, k_y, stacked = _chunks(k_out, [n_carry, len(k_tcar), n_y, len(k_ys), len(res_stacked)])
    # 2. the tangent scan over the residuals
    lin_in = res_const + u_tc + u_tcar + res_stacked + res_xs + u_tx
    tangent = Branch(Jaxpr([], lin_in, unknown_eqns, u_outs), 0)
    u_out = scan_p.bind(*[values[v] for v in res_const], *[values[v] for v in u_tc],
                        *[t for t, m in zip(cart, lin_car) if m], *stacked,
                        *[values[v] for v in res_xs], *[values[v] for v in u_tx], body=tangent,
                        n_consts=len(res_const) + len(u_tc), n_carry=len(u_tcar), length=length,
                        reverse=reverse)
    u_car, u_y = u_out[:len(u_tcar)], u_out[len(u_tcar):]
    t_car = _merge(lin_car, u_car, k_car)
    t_y = _merge(lin_y, u_y, k_y)
    return list(p_car) + list(p_y), list(t_car) + list(t_y)


def _chunks(seq, sizes):
    """``seq`` cut into consecutive lists of the given sizes."""
    out, i = [], 0
    for n in sizes:
        out.append(list(seq[i:i + n]))
        i += n
    return out


def _merge(mask, undefined_vals, defined_vals):
    """Interleave values by ``mask`` (True: next undefined value, False: next defined one)."""
    u, d = iter(undefined_vals), iter(defined_vals)
    return [next(u) if m else next(d) for m in mask]


def _scan_transpose(cts, *args, body, n_consts, n_carry, length, reverse):
    """Transpose a scan that is linear in its undefined inputs, as two scans:

    1. *replay*: run the scan on the defined (primal) parts only — undefined parts are zeros,
       and defined outputs don't depend on them — stacking each step's defined carry input;
    2. *sweep*: a scan in the opposite direction whose carry is the cotangent of the linear
       carry (plus accumulators for the undefined constants), whose xs are the replayed
       carries, the defined xs and the output cotangents, and whose body is the VJP of one
       step — traced once, so eager runs compile it and jit gets a compact program.
    """
    undef = [is_undefined(a) for a in args]
    consts, carry, xs = _scan_split(args, n_consts, n_carry)
    uc, ucar, ux = _scan_split(undef, n_consts, n_carry)
    # a carry that starts as a known (zero) tangent can still become linear in the undefined
    # inputs: find the carry positions that depend on them (fixpoint over the body)
    ucar = _linear_carries(body.jaxpr, uc, ucar, ux)
    carry = [UndefinedLike(c) if m and not is_undefined(c) else c for c, m in zip(carry, ucar)]
    cts = list(cts)
    ct_ys = cts[n_carry:]
    y_lin = [c is not None for c in ct_ys]
    uc_avals = [c.aval for c, m in zip(consts, uc) if m]
    ucar_avals = [c.aval for c, m in zip(carry, ucar) if m]
    ux_avals = [ShapedArray(x.aval.shape[1:], x.aval.dtype) for x, m in zip(xs, ux) if m]
    like = next((c for c in list(cts) + [a for a in args if not is_undefined(a)] if c is not None), None)
    ct_carry0 = [_zeros_aval(a.aval, like) if c is None else c
                 for c, a, m in zip(cts[:n_carry], carry, ucar) if m]
    dconsts = [c for c, m in zip(consts, uc) if not m]
    dcarry0 = [c for c, m in zip(carry, ucar) if not m]
    dxs = [x for x, m in zip(xs, ux) if not m]
    n_dc, n_dcar, n_dx = len(dconsts), len(dcarry0), len(dxs)
    n_uc, n_ucar = len(uc_avals), len(ucar_avals)

    def zeros(avals):
        return [_zeros_aval(a, like) for a in avals]

    # 1. replay the defined carries
    stacked = []
    if n_dcar:
        def replay(*a):
            dc, dcar, dx = a[:n_dc], list(a[n_dc:n_dc + n_dcar]), a[n_dc + n_dcar:]
            full = (_merge(uc, zeros(uc_avals), dc) + _merge(ucar, zeros(ucar_avals), dcar)
                    + _merge(ux, zeros(ux_avals), dx))
            out = body(*full)
            return [o for o, m in zip(out[:n_carry], ucar) if not m] + dcar

        stacked = _bind_scan(replay, dconsts, dcarry0, dxs, length, reverse, "scan (transpose)")[n_dcar:]

    # 2. sweep backwards with one step's VJP
    ct_ys_live = [c for c in ct_ys if c is not None]

    def sweep(*a):
        dc = a[:n_dc]
        ctc, acc = list(a[n_dc:n_dc + n_ucar]), list(a[n_dc + n_ucar:n_dc + n_ucar + n_uc])
        rest = a[n_dc + n_ucar + n_uc:]
        dcar_i, dx_i, cty_i = rest[:n_dcar], rest[n_dcar:n_dcar + n_dx], list(rest[n_dcar + n_dx:])

        def step(*u):
            full = (_merge(uc, u[:n_uc], dc) + _merge(ucar, u[n_uc:n_uc + n_ucar], dcar_i)
                    + _merge(ux, u[n_uc + n_ucar:], dx_i))
            out = body(*full)
            return ([o for o, m in zip(out[:n_carry], ucar) if m]
                    + [o for o, m in zip(out[n_carry:], y_lin) if m])

        _, f_vjp = vjp(step, *zeros(uc_avals + ucar_avals + ux_avals))
        g = f_vjp(ctc + cty_i)
        g_c, g_car, g_x = g[:n_uc], g[n_uc:n_uc + n_ucar], g[n_uc + n_ucar:]
        return list(g_car) + [x + y for x, y in zip(acc, g_c)] + list(g_x)

    res = _bind_scan(sweep, dconsts, ct_carry0 + zeros(uc_avals), list(stacked) + dxs + ct_ys_live,
                     length, not reverse, "scan (transpose)")
    ct_carry, ct_consts, ct_xs = res[:n_ucar], res[n_ucar:n_ucar + n_uc], res[n_ucar + n_uc:]
    it_c, it_car, it_x = iter(ct_consts), iter(ct_carry), iter(ct_xs)
    carry_cts = []
    for m, a in zip(ucar, args[n_consts:n_consts + n_carry]):
        ct = next(it_car) if m else None
        carry_cts.append(ct if is_undefined(a) else None)  # a known (zero) init gets no cotangent
    return [next(it_c) if m else None for m in uc] + carry_cts + [next(it_x) if m else None for m in ux]


def UndefinedLike(x):
    """A known carry value that the transpose treats as a linear position (it is a zero
    tangent in programs produced by jvp)."""
    return UndefinedPrimal(get_aval(x))


def _linear_carries(jaxpr, uc, ucar, ux):
    """Carry positions whose values depend on the undefined (linear) inputs."""
    n_c, n_car = len(uc), len(ucar)
    n_body_consts = len(jaxpr.invars) - n_c - n_car - len(ux)
    lin = list(ucar)
    while True:
        mask = [False] * n_body_consts + list(uc) + lin + list(ux)
        dep = {id(v) for v, m in zip(jaxpr.invars, mask) if m}
        for e in jaxpr.eqns:
            if any(type(v) is not Literal and id(v) in dep for v in e.invars):
                dep.update(id(v) for v in e.outvars)
        new = [m or (type(v) is not Literal and id(v) in dep) for m, v in zip(lin, jaxpr.outvars[:n_car])]
        if new == lin:
            return lin
        lin = new


def _scan_batch(axis_size, vals, dims, body, n_consts, n_carry, length, reverse, bound_axis=None,
                bound_processes=1):
    consts, carry, xs = _scan_split(vals, n_consts, n_carry)
    cd, card, xd = _scan_split(dims, n_consts, n_carry)
    consts = [c if d is None else bdim_to_front(c, d, axis_size) for c, d in zip(consts, cd)]
    cdims = [None if d is None else 0 for d in cd]
    carry = [bdim_to_front(c, d, axis_size) for c, d in zip(carry, card)]
    xs = [x if d is None else move_or_broadcast(x, d, 1, axis_size) for x, d in zip(xs, xd)]
    xdims = [None if d is None else 0 for d in xd]

    def bbody(*a):
        return vmap_on_axis(lambda *z: body(*z), in_axes=tuple(cdims + [0] * n_carry + xdims),
                            axis_size=axis_size, axis_name=bound_axis, processes=bound_processes)(*a)

    outs = _bind_scan(bbody, consts, carry, xs, length, reverse, "scan (vmap)")
    return outs, [0] * n_carry + [1] * (len(outs) - n_carry)


defjvp_rule(scan_p, _scan_jvp)
deflinear_in(scan_p, _scan_transpose)
defbatch(scan_p, _scan_batch, axis_name=True)


def scan(f: Callable, init: Any, xs: Any = None, length: int | None = None, reverse: bool = False,
         unroll: int | bool = 1, _split_transpose: bool = False) -> tuple[Any, Any]:
    """Loop ``carry, y = f(carry, x)`` over the leading axis of ``xs`` (pytrees), returning
    ``(final_carry, stacked_ys)`` — as `jax.lax.scan`.  ``_split_transpose`` (JAX's
    experimental flag for how the backward pass is split) changes no value and is accepted.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.lax import scan
        >>> scan(lambda c, x: (c + x, c * x), 0.0, fnp.arange(4.0))
        (Array(6., dtype=float64), Array([0., 0., 2., 9.], dtype=float64))
    """
    _check_callable("scan", f)
    init_flat, init_tree = tree_flatten(init)
    weak = [_is_weak(x) for x in init_flat]
    py_inits = [x if type(x) in WEAK_SCALAR_TYPES else None for x in init_flat]
    init_flat = _as_arrays(init_flat)
    xs_flat, xs_tree = tree_flatten(xs)
    xs_flat = _as_arrays(xs_flat)
    lengths = {get_aval(x).shape[0] for x in xs_flat if get_aval(x).ndim > 0}
    if any(get_aval(x).ndim == 0 for x in xs_flat):
        raise ValueError("scan: every leaf of xs needs a leading axis to scan over (got a scalar)")
    if length is not None:
        lengths.add(int(length))
    if len(lengths) != 1:
        raise ValueError(
            "scan got " + ("no xs and no length" if not lengths else
                           f"inconsistent lengths for the leading axis of xs / length: {sorted(lengths)}")
        )
    n = lengths.pop()
    out_tree = []

    def body(*a):
        carry = tree_unflatten(init_tree, list(a[: len(init_flat)]))
        x = tree_unflatten(xs_tree, list(a[len(init_flat):]))
        res = f(carry, x)
        if not (isinstance(res, tuple) and len(res) == 2):
            raise TypeError("scan body must return a pair (new_carry, y)")
        c, y = res
        c_flat, c_tree = tree_flatten(c)
        if c_tree != init_tree:
            raise TypeError(
                "scan body function carry input and carry output must have the same pytree "
                f"structure, but the carry input is {init_tree} and the carry output is {c_tree}. "
                "Return the new carry in the same containers as the initial value."
            )
        y_flat, y_tree = tree_flatten(y)
        out_tree.append(y_tree)
        return _as_arrays(c_flat) + _as_arrays(y_flat)

    outs = _bind_scan(body, [], init_flat, xs_flat, n, bool(reverse), weak=weak, py_inits=py_inits)
    carry = tree_unflatten(init_tree, outs[: len(init_flat)])
    return carry, tree_unflatten(out_tree[-1], outs[len(init_flat):])


def map(f: Callable, xs: Any, *, batch_size: int | None = None) -> Any:  # noqa: A001
    """``stack([f(x) for x in xs])`` as a scan (as `jax.lax.map`).  With ``batch_size``, a scan
    over batches of that many examples, each batch mapped with `vmap` (the remainder too):
    fewer, larger steps.

    Example::

        >>> import fgrad.numpy as fnp
        >>> map(lambda x: x * 2, fnp.arange(5.0), batch_size=2)
        Array([0., 2., 4., 6., 8.], dtype=float64)
    """
    if batch_size is None:
        _, ys = scan(lambda c, x: (c, f(x)), (), xs)
        return ys
    if not isinstance(batch_size, (int, np.integer)) or isinstance(batch_size, bool) or batch_size < 1:
        raise ValueError(f"lax.map: batch_size must be a positive int, got {batch_size!r}")
    flat, tree = tree_flatten(xs)
    if not flat:
        raise ValueError("lax.map: xs has no arrays to map over")
    n = get_aval(flat[0]).shape[0]
    batch_size = int(min(batch_size, n)) or 1
    num_batches, remainder = divmod(n, batch_size)
    batched_f = vmap(f)

    def part(lo, hi, shape_of):
        return tree_unflatten(tree, [reshape(_rows(x, lo, hi), shape_of(get_aval(x).shape))
                                     for x in flat])

    outs = []
    if num_batches:
        main = part(0, num_batches * batch_size,
                    lambda s: (num_batches, batch_size) + s[1:])
        _, ys = scan(lambda c, x: (c, batched_f(x)), (), main)
        outs.append(tree_flatten(ys)[0])
        out_tree = tree_flatten(ys)[1]
        outs[0] = [reshape(y, (num_batches * batch_size,) + get_aval(y).shape[2:]) for y in outs[0]]
    if remainder:
        ys = batched_f(part(num_batches * batch_size, n, lambda s: (remainder,) + s[1:]))
        rest, out_tree = tree_flatten(ys)
        outs.append(rest)
    if len(outs) == 1:
        return tree_unflatten(out_tree, outs[0])
    return tree_unflatten(out_tree, [concatenate([a, b], 0) for a, b in zip(*outs, strict=True)])


def _rows(x, lo, hi):
    """``x[lo:hi]`` along the leading axis (static bounds)."""
    return slice_in_dim(x, lo, hi, 1, 0)


def _weak_index_body(body_fun, init_val):
    """``body_fun`` whose carry keeps its dtypes where only the int64 loop index promoted them.

    In JAX the index does not widen a float32 carry (``c + i`` stays float32); under NumPy's
    promotion ``float32 + int64`` is float64.  When the carry has narrow inexact leaves, the
    body is traced once more with the index as a weak (Python-scalar-like) integer; a carry
    leaf that keeps its dtype there but not with the real index is cast back to its dtype.
    Any other dtype change is left for scan's carry check to report."""
    flat, tree = tree_flatten(init_val)
    in_dtypes = [get_aval(x).dtype for x in flat]
    if not any(d.kind in "fc" and d.itemsize < (8 if d.kind == "f" else 16) for d in in_dtypes):
        return body_fun

    def flat_body(i, *leaves):
        return tree_flatten(body_fun(i, tree_unflatten(tree, list(leaves))))[0]

    try:
        weak, _ = trace_flat(flat_body, [ShapedArray((), np.dtype(np.int64), True)] + _avals(flat),
                             "fori_loop")
    except Exception:  # noqa: BLE001 - the real trace below reports the body's own errors
        return body_fun
    keep = [a.dtype == d for a, d in zip(weak.out_avals, in_dtypes, strict=False)]

    def body(i, val):
        out_flat, out_tree = tree_flatten(body_fun(i, val))
        if out_tree != tree:
            return tree_unflatten(out_tree, out_flat)
        return tree_unflatten(tree, [
            convert_element_type(o, d) if k and get_aval(o).dtype != d else o
            for o, d, k in zip(out_flat, in_dtypes, keep, strict=True)])

    return body


def fori_loop(lower: ArrayLike, upper: ArrayLike, body_fun: Callable, init_val: Any, *,
              unroll: int | bool | None = None) -> Any:
    """``for i in range(lower, upper): val = body_fun(i, val)``.  With concrete bounds this is
    a scan (reverse-differentiable); with traced bounds a while_loop (forward mode only).
    ``unroll`` (JAX's loop-unrolling hint, as scan's) changes no result and is accepted.

    Example::

        >>> from fgrad.lax import fori_loop
        >>> fori_loop(0, 5, lambda i, x: x + i, 0.0)
        Array(10., dtype=float64, weak_type=True)
    """
    _check_callable("fori_loop", body_fun)
    if unroll is not None and not isinstance(unroll, (bool, int, np.integer)):
        raise TypeError(f"fori_loop: unroll must be an int or bool, got {unroll!r}")
    bound_avals = []
    for name, bound in (("lower", lower), ("upper", upper)):
        bav = get_aval(bound)
        bound_avals.append(bav)
        if dtype_kind(bav.dtype) not in "iu" or bav.shape != ():
            raise TypeError(
                f"fori_loop: the {name} bound must be a scalar integer, got {bav.str_short()}. "
                "Convert it with int(...) or `.astype(int)`, or use while_loop for a "
                "non-integer loop variable."
            )
    lo_av, hi_av = bound_avals
    if lo_av.dtype != hi_av.dtype and not (  # JAX: only a weak bound adopts the other's dtype
            lo_av.weak_type != hi_av.weak_type and dtype_kind(lo_av.dtype) == dtype_kind(hi_av.dtype) == "i"):
        raise TypeError("lower and upper arguments to fori_loop must have equal types, got "
                        f"{lo_av.dtype.name} and {hi_av.dtype.name}")
    body_fun = _weak_index_body(body_fun, init_val)
    if not isinstance(lower, Tracer) and not isinstance(upper, Tracer):
        lo, hi = int(lower), int(upper)

        def step(c, _):  # JAX: the index is a carry started at the Python int `lower`, so
            # weakly typed (``c + i`` keeps an int8 carry int8 and a weak int carry weak)
            i, val = c
            return (i + 1, body_fun(i, val)), None

        (_, carry), _ = scan(step, (lo, init_val), None, length=max(0, hi - lo))
        return carry

    if unroll is not None and unroll is not False and unroll != 1:
        raise ValueError("Can only use `unroll` in `fori_loop` if the loop bounds are statically known.")

    def cond_fun(s):
        return s[0] < upper

    def body(s):
        return (s[0] + 1, body_fun(s[0], s[1]))

    lo = _index_like(np.asarray(lower, dtype=np.int64), tree_flatten(init_val)[0]) \
        if not isinstance(lower, (Tracer, ArrayImpl)) else host_array(lower, np.int64)
    return while_loop(cond_fun, body, (lo, init_val))[1]


# =======================================================================================
# while_loop


def _while_impl(xp, *args, cond, body, n_cc, n_bc):
    cc, bc = args[:n_cc], list(args[n_cc:n_cc + n_bc])
    # the constants both functions read (one closed-over array passed twice) are one input
    alias = tuple([_position(c, bc) for c in cc]) if n_bc else (-1,) * n_cc
    step = None if CHECKS["on"] else _cond_and_body(cond, body, n_bc, alias)
    if xp is np and step is not None:  # the whole loop as one generated function
        return _run_host_loop(step, args, alias, n_cc, n_cc + n_bc)
    if step is not None and step.host_only:
        step = None
    if xp is np:  # 0-d arrays as NumPy scalars (what a step returns): scalar arithmetic from the start
        carry = [c[()] if type(c) is np.ndarray and not c.ndim else c for c in args[n_cc + n_bc:]]
    else:
        carry = list(args[n_cc + n_bc:])
    cc = list(cc)
    token = _QUIET_SET(_QUIET)
    try:
        if step is not None:  # one program: the condition and the next carry, sharing work
            run_step = step.runner(xp)
            consts = [c for c, j in zip(cc, alias) if j < 0] + bc
            out = run_step(consts + carry)
            while out[0]:
                carry = out[1:]
                out = run_step(consts + carry)
        else:
            run_cond, run_body = cond.runner(xp), body.runner(xp)
            while run_cond(cc + carry)[0]:
                carry = run_body(bc + carry)
    finally:
        _QUIET_RESET(token)
    return carry


def _while_host_kernel(params: dict, avals: list) -> Callable:
    """The host executors' call of a while loop (`core.executor` and `fgrad.jit`'s code on
    NumPy): `_while_impl` on the host with its parameters bound once -- no keyword
    arguments merged, no lists rebuilt per call -- and the last alias pattern's joined step
    remembered.  The same loop, the same results."""
    cond, body, n_cc, n_bc = params["cond"], params["body"], params["n_cc"], params["n_bc"]
    impl = functools.partial(_while_impl, np, **params)
    n_consts = n_cc + n_bc
    no_alias = (-1,) * n_cc
    # the last alias pattern, its joined step's generated loop (None: no joined step), and
    # the positions of the condition constants that are not body constants
    last: list = [None, None, ()]
    ndarray = np.ndarray

    def kernel(*args):
        if CHECKS["on"]:
            return impl(*args)
        if n_bc:
            bc = args[n_cc:n_consts]
            alias = tuple([_position(c, bc) for c in args[:n_cc]])
        else:
            alias = no_alias
        if alias != last[0]:
            step = _cond_and_body(cond, body, n_bc, alias)
            last[0], last[1] = alias, None if step is None else step.host_loop()
            last[2] = tuple(k for k, j in enumerate(alias) if j < 0)
        run = last[1]
        if run is None:
            return impl(*args)
        # `_run_host_loop`, inlined: the condition's own constants, the body's, then the
        # carry with 0-d arrays as NumPy scalars; NumPy's error reports off
        bufs = [args[k] for k in last[2]] if n_cc else []
        bufs += args[n_cc:]
        for k in range(len(bufs) - len(args) + n_consts, len(bufs)):
            c = bufs[k]
            if type(c) is ndarray and not c.ndim:
                bufs[k] = c[()]
        token = _QUIET_SET(_QUIET)
        try:
            return run(bufs)
        finally:
            _QUIET_RESET(token)

    return kernel


def _run_host_loop(step: Branch, args: tuple, alias: tuple, n_cc: int, n_consts: int) -> list:
    """The final carry of a while loop on the host, from its operands ``args`` (condition
    constants, body constants, carry), as the joined ``step``'s generated loop: the
    condition constants that are not body constants (``alias``), the body constants, and
    the carry with 0-d arrays as NumPy scalars (what a step returns: scalar arithmetic from
    the start), NumPy's error reports off."""
    bufs = [c for c, j in zip(args[:n_cc], alias) if j < 0] if n_cc else []
    bufs += args[n_cc:n_consts]
    bufs += [c[()] if type(c) is np.ndarray and not c.ndim else c for c in args[n_consts:]]
    token = _QUIET_SET(_QUIET)
    try:
        return step.host_loop()(bufs)
    finally:
        _QUIET_RESET(token)


def _position(value, values: list) -> int:
    """The index of ``value`` itself (not an equal value) in ``values``, or -1."""
    for j, v in enumerate(values):
        if v is value:
            return j
    return -1


# primitives that may run on a carry the loop will not use: they compute a value for every
# input (no error, no loop, no effect) on the host and on a device
_TOTAL_FAMILIES = {"elementwise", "reduction", "contraction", "shape", "structural"}
def _total(e) -> bool:
    if e.prim.family not in _TOTAL_FAMILIES or has_effects(e):
        return False
    if e.prim.name == "pow" and e.outvars[0].aval.dtype.kind not in "fc":
        return False  # integer powers with negative exponents raise in NumPy
    if e.prim.family == "reduction" and any(0 in v.aval.shape for v in e.invars if type(v) is not Literal):
        return False  # max/min of nothing raises
    return True


def _vector_eqns(jaxpr: Jaxpr) -> int:
    """Equations on arrays (not 0-d): what a loop iteration's time mostly goes to."""
    return sum(any(v.aval.shape for v in e.outvars) for e in jaxpr.eqns)


_NO_STEP = object()
_STEPS: dict = {}  # (cond, body, n_bc, alias) -> fused step Branch, or _NO_STEP


def _cond_and_body(cond: Branch, body: Branch, n_bc: int, alias: tuple):
    """One `Branch` computing ``[cond(carry)] + body(carry)`` from the condition's constants
    that are not also the body's (``alias[i]``: the body constant that cond constant ``i`` is,
    or -1), the body's constants and the carry.  The two are simplified together, so what
    both compute (``x ** 3 - a`` in a Newton step and its convergence test) is computed once.
    None where that does not pay or is not safe.

    The loop then evaluates the body once more than it needs (on the last carry, whose
    condition is false) and drops that result.  So this is used only when every equation of
    the body is total (`_total`: no error, no effect, no nested loop on any value) and the
    work shared per iteration is at least the body's work that is not shared (the extra
    evaluation costs at most one iteration's saving)."""
    key = (cond, body, n_bc, alias)
    step = _STEPS.get(key)
    if step is None:
        step = _build_step(cond, body, n_bc, alias) or _NO_STEP
        if len(_STEPS) > 512:
            _STEPS.clear()
        _STEPS[key] = step
    return None if step is _NO_STEP else step


def _build_step(cond: Branch, body: Branch, n_bc: int, alias: tuple):
    cj, bj = cond.jaxpr, body.jaxpr
    n_cc = len(alias)
    if any(has_effects(e) for e in cj.eqns) or any(has_effects(e) for e in bj.eqns):
        return None
    rename = dict(zip(cj.invars[n_cc:], bj.invars[n_bc:]))
    rename.update((v, bj.invars[j]) for v, j in zip(cj.invars[:n_cc], alias) if j >= 0)

    def sub(v):
        return v if type(v) is Literal else rename.get(v, v)

    eqns = [Eqn(e.prim, [sub(v) for v in e.invars], e.outvars, e.params, e.source, e.name_stack)
            for e in cj.eqns] + list(bj.eqns)
    own = [v for v, j in zip(cj.invars[:n_cc], alias) if j < 0]
    both = Jaxpr([], own + list(bj.invars), eqns, [sub(cj.outvars[0])] + list(bj.outvars))
    parts = [_optimized(j) for j in (cj, bj, both)]
    if any(p is None for p in parts):  # constants remain: `_simplified` would not simplify
        return None
    c_s, b_s, both_s = parts
    step = Branch(both, len(own) + n_bc)
    shared = _vector_eqns(c_s) + _vector_eqns(b_s) - _vector_eqns(both_s)
    if not all(_total(e) for e in b_s.eqns) or shared <= 0 or _vector_eqns(b_s) - shared > shared:
        # the body may not run on the last carry, or joining does not pay: only as a loop on
        # NumPy scalars (`scalar_while`), which tests the condition before the body
        step.host_only = True
        return step if step.host_loop() is not None else None
    return step


def _while_abstract(*avals, cond, body, n_cc, n_bc):
    return [ShapedArray(a.shape, a.dtype, a.weak_type and b.weak_type)
            for a, b in zip(avals[n_cc + n_bc:], body.out_avals)]


while_p = Primitive("while", _while_impl, _while_abstract, multiple_results=True, family="control")
while_p.params_view = jax_named_params("while")  # params["body_jaxpr"], ["cond_nconsts"], ... as JAX's
while_p.host_kernel = _while_host_kernel


def _bind_while(cond_fun, body_fun, cc_in, bc_in, init, what="while_loop", weak=None):
    if weak is not None and any(weak):  # Python-scalar carries take the body's dtypes
        probe, _ = trace_flat(body_fun, _avals(bc_in) + _weak_avals(init, weak), what)
        init, _ = _promote_weak_carry(init, weak, probe.out_avals)
    av = _avals(init)
    cond_b, cc = trace_flat(cond_fun, _avals(cc_in) + av, what)
    pav = cond_b.out_avals
    if len(pav) != 1 or pav[0].shape != () or pav[0].dtype != np.bool_:
        shown = ", ".join(a.str_short() for a in pav)
        raise TypeError(f"{what}: cond_fun must return a boolean scalar, got ({shown})")
    body_b, bc = trace_flat(body_fun, _avals(bc_in) + av, what)
    for i, (a, b) in enumerate(zip(av, body_b.out_avals)):
        if (a.shape, a.dtype) != (b.shape, b.dtype):
            raise TypeError(
                f"{what}: body_fun must return a carry of the same shapes and dtypes as its input; "
                f"element {i} is {a.str_short()} on input but {b.str_short()} on output"
            )
    cc = _with_operands(cc, [*cc_in, *bc_in, *init])
    bc = _with_operands(bc, [*cc_in, *bc_in, *init])
    return while_p.bind(*cc, *cc_in, *bc, *bc_in, *init, cond=cond_b, body=body_b,
                        n_cc=len(cc) + len(cc_in), n_bc=len(bc) + len(bc_in))


def _while_jvp(primals, tangents, cond, body, n_cc, n_bc):
    params = dict(cond=cond, body=body, n_cc=n_cc, n_bc=n_bc)
    out = while_p.bind(*primals, **params)
    if all(t is None for t in tangents):
        return out, [None] * len(out)
    cc, bc = list(primals[:n_cc]), list(primals[n_cc:n_cc + n_bc])
    carry = list(primals[n_cc + n_bc:])
    tans = [_zeros_like(p) if t is None else t for p, t in zip(primals, tangents)]
    tbc, tcar = tans[n_cc:n_cc + n_bc], tans[n_cc + n_bc:]
    n = len(carry)

    def tcond(*a):
        return cond(*(list(a[:n_cc]) + list(a[n_cc:n_cc + n])))

    def tbody(*a):
        pb, tb = list(a[:n_bc]), list(a[n_bc:2 * n_bc])
        pc, tc = list(a[2 * n_bc:2 * n_bc + n]), list(a[2 * n_bc + n:])
        o, to = jvp(lambda *z: body(*z), tuple(pb + pc), tuple(tb + tc))
        return list(o) + list(to)

    res = _bind_while(tcond, tbody, cc, bc + tbc, carry + tcar, "while_loop (jvp)")
    return out, res[n:]


def _while_transpose(cts, *args, **params):
    raise ValueError(
        "Reverse-mode differentiation does not work for lax.while_loop (its trip count is only "
        "known at run time). Use lax.scan, or lax.fori_loop with Python int bounds (which "
        "becomes a scan), or forward mode (jvp/jacfwd)."
    )


def _while_batch(axis_size, vals, dims, cond, body, n_cc, n_bc, bound_axis=None, bound_processes=1):
    cc, bc = list(vals[:n_cc]), list(vals[n_cc:n_cc + n_bc])
    ccd, bcd = list(dims[:n_cc]), list(dims[n_cc:n_cc + n_bc])
    carry = [bdim_to_front(c, d, axis_size) for c, d in zip(vals[n_cc + n_bc:], dims[n_cc + n_bc:])]
    n = len(carry)
    ccd0 = [None if d is None else 0 for d in ccd]
    bcd0 = [None if d is None else 0 for d in bcd]
    cc = [c if d is None else bdim_to_front(c, d, axis_size) for c, d in zip(cc, ccd)]
    bc = [c if d is None else bdim_to_front(c, d, axis_size) for c, d in zip(bc, bcd)]

    def preds(ccv, car):
        return vmap_on_axis(lambda *z: cond(*z)[0], in_axes=tuple(ccd0 + [0] * n), axis_size=axis_size,
                            axis_name=bound_axis, processes=bound_processes)(*ccv, *car)

    def bcond(*a):
        more = _any(preds(list(a[:n_cc]), list(a[n_cc:n_cc + n])))
        if bound_processes > 1:  # a pmap axis over processes: every process loops while any example does,
            more = _procs.pmax_p.bind(more)  # so the collectives in the body pair up (as on one process)
        return [more]

    def bbody(*a):
        ccv = list(a[:n_cc])
        bcv = list(a[n_cc:n_cc + n_bc])
        car = list(a[n_cc + n_bc:])
        p = preds(ccv, car)
        new = vmap_on_axis(lambda *z: body(*z), in_axes=tuple(bcd0 + [0] * n), axis_size=axis_size,
                           axis_name=bound_axis, processes=bound_processes)(*bcv, *car)
        out = []
        for o, c in zip(new, car):
            sel = reshape(p, (axis_size,) + (1,) * (get_aval(o).ndim - 1))
            out.append(select(sel, o, c))
        return out

    res = _bind_while(bcond, bbody, cc, cc + bc, carry, "while_loop (vmap)")
    return res, [0] * n


defjvp_rule(while_p, _while_jvp)
deflinear_in(while_p, _while_transpose)
defbatch(while_p, _while_batch, axis_name=True)


def while_loop(cond_fun: Callable, body_fun: Callable, init_val: Any) -> Any:
    """``while cond_fun(val): val = body_fun(val)`` as one primitive (jit/vmap/jvp-able).

    Example::

        >>> from fgrad.lax import while_loop
        >>> while_loop(lambda x: x < 10, lambda x: x * 2, 1)
        Array(16, dtype=int64, weak_type=True)
    """
    _check_callable("while_loop", body_fun, cond_fun)
    flat, tree = tree_flatten(init_val)
    weak = [_is_weak(x) for x in flat]
    flat = _as_arrays(flat)

    def c(*a):
        out = cond_fun(tree_unflatten(tree, list(a)))
        return _as_arrays([out])

    def b(*a):
        out = body_fun(tree_unflatten(tree, list(a)))
        o_flat, o_tree = tree_flatten(out)
        if o_tree != tree:
            raise TypeError(f"while_loop: body_fun must return the carry's structure {tree}, got {o_tree}")
        return _as_arrays(o_flat)

    outs = _bind_while(c, b, [], [], flat, weak=weak)
    return tree_unflatten(tree, outs)


__all__ = ["cond", "switch", "scan", "map", "fori_loop", "while_loop", "cond_p", "scan_p", "while_p",
           "Branch", "trace_flat"]
