"""`jit_p`: the higher-order primitive that runs a traced program, and its rules.

`fgrad.jit` (transforms/jit.py, the user-facing API) traces a function into a `Closed`
program and binds ``jit_p`` on it.  This module is the primitive's side:

* at the bottom (no transform active) its implementation runs the program compiled by
  `fgrad.compile` (inline, DCE, CSE, folding and simplification, fusion, buffer reuse,
  generated NumPy code) -- compiled once per program and backend, on first use;
* its jvp rule traces the JVP of the program into *new* programs, cached per program and
  per set of inputs with nonzero tangents.  Under a staging trace (linearize for reverse
  mode, or an enclosing jit) it is split into a *known* program (primal inputs -> primal
  outputs and residuals) and a *linear* one (residuals, tangents -> output tangents), so
  reverse mode runs the known part at once, compiled, and stages only the linear part;
* its transpose rule transposes a linear program into a new program (cached per program
  and per set of linear inputs / nonzero cotangents);
* its batching rule vmaps the program into a new program (cached per batch axes and size).

So ``grad(jit(f))``, ``vmap(jit(f))``, ``jit(grad(f))``, ``jit(vmap(grad(f)))``,
``jit(hessian(f))`` and nested jits all run compiled programs; nothing falls back to
op-by-op execution.  Derived programs are cached on the `Closed` program, in LRUs bounded
by the config option ``jit_derived_cache_size``.

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> closed = fgrad.jit(lambda x: x * 2.0).lower(fnp.ones(2))._entry.closed
    >>> jit_p.bind(fnp.ones(2), closed=closed)
    [Array([2., 2.], dtype=float64)]
"""

from __future__ import annotations

import time

import numpy as np

from .._lru import LRU
from ..compile import compile_executable
from ..core.array import ArrayImpl, Tracer, get_aval, wrap
from ..core.executor import device_of, place_consts
from ..core.logs import get_logger
from ..core.ir import ClosedJaxpr, Jaxpr, Literal, eval_jaxpr
from ..core.primitive import Primitive
from ..core.rules import defbatch, defjvp_rule, deflinear_in, is_undefined
from ..core.trace import ConcretizationError, new_trace, state
from .backward_program import split
from .batching import BatchTrace, BatchTracer
from .jvp_trace import JVPTrace, JVPTracer
from .staging import StagingTrace
from .transpose import backward_pass

LOG = get_logger("jit")

JIT_HINT = (
    "\nInside jit, arguments are abstract (only shapes and dtypes are known). Fixes: mark the "
    "argument static with `jit(f, static_argnums=...)`/`static_argnames`, use "
    "`fgrad.lax.cond`/`fgrad.numpy.where` for data-dependent choices, or call the function "
    "without jit."
)


def _unwrap(c):
    return c._buf if type(c) is ArrayImpl else c


class Closed:
    """A traced program: ``jaxpr`` whose constant variables have the concrete values
    ``consts`` (backend buffers).  Hashed by identity; caches its compiled executables and
    the programs derived from it by the transforms."""

    __slots__ = ("jaxpr", "consts", "out_tree", "name", "_exes", "_arrays", "_jvp", "_batch",
                 "_transpose", "__weakref__")

    def __init__(self, jaxpr: Jaxpr, consts, out_tree=None, name: str = "jit") -> None:
        self.jaxpr, self.consts, self.out_tree, self.name = jaxpr, list(consts), out_tree, name
        self._exes: dict = {}
        self._arrays = None
        # programs derived by the transforms, bounded (`jit_derived_cache_size`): values are
        # `_Derived` tuples (an empty one stands for "no program")
        self._jvp = LRU("jit_derived_cache_size")
        self._batch = LRU("jit_derived_cache_size")
        self._transpose = LRU("jit_derived_cache_size")

    def executable(self, xp=np, device=None):
        """The program compiled for the array module ``xp`` (and, for a device backend, with
        its host constants uploaded to ``device``, default: the backend's current one)."""
        key = xp if device is None else (xp, device)
        exe = self._exes.get(key)
        if exe is None:
            t0 = time.perf_counter()
            exe = compile_executable(self.jaxpr, place_consts(self.consts, xp, device), xp=xp, device=device)
            exe.compile_time = time.perf_counter() - t0
            LOG.debug("compiled %s for %s in %.1f ms (%d equations)", self.name,
                      getattr(xp, "__name__", xp), exe.compile_time * 1e3, len(self.jaxpr.eqns))
            self._exes[key] = exe
        return exe

    @property
    def const_arrays(self) -> list:
        """The constants as fgrad arrays (to evaluate the program under a transform)."""
        if self._arrays is None:
            self._arrays = [wrap(c) if hasattr(c, "shape") and not isinstance(c, Tracer) else c
                            for c in self.consts]
        return self._arrays

    def __call__(self, *args):
        """Evaluate the program under the current trace."""
        return eval_jaxpr(self.jaxpr, self.const_arrays, list(args))

    def __repr__(self) -> str:
        return str(self.jaxpr)


class _Derived(tuple):
    """A derived-program cache value: a tuple that can carry the cache's ``tick``."""



def close(jaxpr: Jaxpr, consts, out_tree=None, name="jit"):
    """Split a traced program's constants: concrete ones are baked in, tracers of enclosing
    transforms become leading inputs.  Returns ``(closed, lifted_values)``."""
    keep_v, keep_c, lift_v, lift_c = [], [], [], []
    for v, c in zip(jaxpr.constvars, consts):
        if isinstance(c, Tracer):
            lift_v.append(v)
            lift_c.append(c)
        else:
            keep_v.append(v)
            keep_c.append(_unwrap(c))
    jx = Jaxpr(keep_v, lift_v + list(jaxpr.invars), jaxpr.eqns, jaxpr.outvars)
    return Closed(jx, keep_c, out_tree, name), lift_c


def _jit_impl(xp, *bufs, closed):
    if xp is np:
        return closed.executable(np).run(list(bufs))
    return closed.executable(xp, device_of(bufs)).run(list(bufs))


def _jit_abstract(*avals, closed):
    return [v.aval for v in closed.jaxpr.outvars]


jit_p = Primitive("jit", _jit_impl, _jit_abstract, multiple_results=True, family="higher-order")


class JitParams(dict):
    """A ``jit`` equation's parameters: fgrad's own (``closed``, the traced program) that
    also answer JAX's names for what it holds, so a jaxpr interpreter written for JAX
    recurses into nested jits: ``params["jaxpr"]`` is the program as a `ClosedJaxpr`,
    ``params["name"]`` the function's name.  Keys, iteration and ``**params`` stay fgrad's
    (re-binding an equation gets ``closed=`` alone).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> eqn = fgrad.make_jaxpr(lambda x: fgrad.jit(fnp.sin)(x))(1.0).eqns[0]
        >>> "jaxpr" in eqn.params, eqn.params["name"], eqn.params["jaxpr"].eqns[0].primitive
        (True, 'sin', sin)
    """

    __slots__ = ()
    _JAX_KEYS = ("jaxpr", "name")

    def __missing__(self, key):
        closed = dict.get(self, "closed")
        if closed is None or key not in self._JAX_KEYS:
            raise KeyError(key)
        if key == "name":
            return getattr(closed, "fun_name", None) or closed.name
        return ClosedJaxpr(closed.jaxpr, [wrap(c) for c in closed.consts])

    def __contains__(self, key) -> bool:
        return dict.__contains__(self, key) or (key in self._JAX_KEYS and dict.__contains__(self, "closed"))

    def get(self, key, default=None):
        return self[key] if key in self else default


jit_p.params_view = JitParams


_aval = get_aval


def _stage(fn, in_avals, what):
    """Trace ``fn(*tracers) -> list`` into a `Closed` program (fully staged)."""
    with new_trace(StagingTrace, what, partial=False, hint=JIT_HINT) as st:
        args = [st.new_arg(a) for a in in_avals]
        outs = fn(*args)
        jaxpr, consts = st.to_jaxpr(list(outs))
    closed, lifted = close(jaxpr, consts, name=what)
    if lifted:  # pragma: no cover - rules only evaluate closed programs
        raise RuntimeError("fgrad.jit: a derived program captured a tracer")
    return closed


# ---------------------------------------------------------------------------------------
# forward mode (and its split for reverse mode)


def _jvp_trace(closed, primals, tangents):
    """The JVP program of ``closed``: (primals, nonzero tangents) -> (outs, nonzero output
    tangents); returns (jaxpr, consts, n_primal_inputs, output tangent mask)."""
    nz = [t is not None for t in tangents]
    n_out = len(closed.jaxpr.outvars)
    mask: list = []
    where = f"jvp of {closed.name}"
    with new_trace(StagingTrace, where, partial=False, hint=JIT_HINT) as st:
        p_in = [st.new_arg(_aval(p)) for p in primals]
        t_in = [st.new_arg(_aval(t)) for t in tangents if t is not None]
        with new_trace(JVPTrace, where) as jt:
            it = iter(t_in)
            ins = [JVPTracer(jt, p, next(it)) if m else p for p, m in zip(p_in, nz)]
            outs = closed(*ins)
            p_out, t_out, _ = jt.split(outs)
        mask = [t is not None for t in t_out]
        jaxpr, consts = st.to_jaxpr(p_out + [t for t in t_out if t is not None])
    assert len(p_out) == n_out
    return jaxpr, consts, len(p_in), mask


def _avals_key(xs):
    return tuple(None if x is None else _aval(x) for x in xs)


def _jvp_joint(closed, nz, primals, tangents):
    key = ("joint", _avals_key(primals), _avals_key(tangents))
    entry = closed._jvp.get(key)
    if entry is None:
        jaxpr, consts, _, mask = _jvp_trace(closed, primals, tangents)
        c, lifted = close(jaxpr, consts, name=f"jvp of {closed.name}")
        assert not lifted
        entry = closed._jvp[key] = _Derived((c, mask))
    return entry


def _jvp_split(closed, nz, primals, tangents):
    """Known program (primals -> outs + residuals) and linear program (residuals, tangents
    -> output tangents); None if the JVP does not split (a primal output would depend on a
    tangent)."""
    key = ("split", _avals_key(primals), _avals_key(tangents))
    entry = closed._jvp.get(key)
    if entry is not None:
        return entry or None  # empty: the JVP does not split
    jaxpr, consts, n_p, mask = _jvp_trace(closed, primals, tangents)
    n_out = len(closed.jaxpr.outvars)
    try:
        known_eqns, lin_eqns, needed = split(jaxpr, n_p, n_out)
    except ConcretizationError:  # a primal output depends on a tangent
        closed._jvp[key] = _Derived(())
        return None
    p_vars, t_vars = jaxpr.invars[:n_p], jaxpr.invars[n_p:]
    p_outs, t_outs = jaxpr.outvars[:n_out], jaxpr.outvars[n_out:]
    const_of = dict(zip(jaxpr.constvars, consts))
    # residuals that are constants stay constants of the linear program
    lin_consts = [v for v in needed if v in const_of]
    res = [v for v in needed if v not in const_of]
    used_known = set()
    for e in known_eqns:
        used_known.update(v for v in e.invars if type(v) is not Literal)
    used_known.update(v for v in list(p_outs) + res if type(v) is not Literal)
    k_consts = [v for v in jaxpr.constvars if v in used_known]
    known = Closed(Jaxpr(k_consts, list(p_vars), known_eqns, list(p_outs) + res),
                   [_unwrap(const_of[v]) for v in k_consts], name=f"jvp of {closed.name} (primal)")
    lin = Closed(Jaxpr(lin_consts, res + list(t_vars), lin_eqns, list(t_outs)),
                 [_unwrap(const_of[v]) for v in lin_consts], name=f"jvp of {closed.name} (tangent)")
    entry = closed._jvp[key] = _Derived((known, lin, len(res), mask))
    return entry


def _jit_jvp(primals, tangents, closed):
    nz = tuple(t is not None for t in tangents)
    n_out = len(closed.jaxpr.outvars)
    if not any(nz):
        return jit_p.bind(*primals, closed=closed), [None] * n_out
    t_in = [t for t in tangents if t is not None]
    entry = None
    if isinstance(state.trace, StagingTrace):
        entry = _jvp_split(closed, nz, primals, tangents)
    if entry is not None:
        known, lin, n_res, mask = entry
        res = jit_p.bind(*primals, closed=known)
        outs, residuals = res[:n_out], res[n_out:]
        t_out = jit_p.bind(*residuals, *t_in, closed=lin) if lin.jaxpr.outvars else []
    else:
        joint, mask = _jvp_joint(closed, nz, primals, tangents)
        res = jit_p.bind(*primals, *t_in, closed=joint)
        outs, t_out = res[:n_out], res[n_out:]
    it = iter(t_out)
    return outs, [next(it) if m else None for m in mask]


# ---------------------------------------------------------------------------------------
# reverse mode: transpose of a linear program


def _jit_transpose(cts, *args, closed):
    undef = tuple(is_undefined(a) for a in args)
    ct_nz = tuple(c is not None for c in cts)
    key = (undef, tuple(a.aval if u else _aval(a) for a, u in zip(args, undef)), _avals_key(cts))
    entry = closed._transpose.get(key)
    if entry is None:
        jx = closed.jaxpr
        known_avals = [_aval(a) for a, u in zip(args, undef) if not u]
        ct_avals = [_aval(c) for c in cts if c is not None]
        mask: list = []

        def fn(*xs):
            known_tr, ct_tr = xs[: len(known_avals)], xs[len(known_avals):]
            env = dict(zip(jx.constvars, closed.const_arrays))
            it = iter(known_tr)
            lin_in = []
            for v, u in zip(jx.invars, undef):
                if u:
                    lin_in.append(v)
                else:
                    env[v] = next(it)
            lin = set(lin_in)
            lin_eqns = []
            for e in jx.eqns:  # evaluate what does not depend on the linear inputs first
                if any(type(v) is not Literal and v in lin for v in e.invars):
                    lin_eqns.append(e)
                    lin.update(e.outvars)
                    continue
                vals = [v.val if type(v) is Literal else env[v] for v in e.invars]
                out = e.prim.bind(*vals, **e.params)
                for v, o in zip(e.outvars, out if e.prim.multiple_results else [out]):
                    env[v] = o
            sub = Jaxpr(list(env), lin_in, lin_eqns, jx.outvars)
            itc = iter(ct_tr)
            full_cts = [next(itc) if m else None for m in ct_nz]
            res = backward_pass(sub, list(env.values()), full_cts)
            mask.extend(r is not None for r in res)
            return [r for r in res if r is not None]

        tclosed = _stage(fn, known_avals + ct_avals, f"transpose of {closed.name}")
        entry = closed._transpose[key] = _Derived((tclosed, mask))
    tclosed, mask = entry
    known = [a for a, u in zip(args, undef) if not u]
    outs = []
    if tclosed.jaxpr.outvars:
        outs = jit_p.bind(*known, *[c for c in cts if c is not None], closed=tclosed)
    it, itm = iter(outs), iter(mask)
    return [(next(it) if next(itm) else None) if u else None for u in undef]


# ---------------------------------------------------------------------------------------
# batching


def _jit_batch(axis_size, vals, dims, closed, bound_axis=None, bound_processes=1):
    key = (tuple(dims), axis_size, _avals_key(vals), bound_axis, bound_processes)
    entry = closed._batch.get(key)
    if entry is None:
        out_dims: list = []
        where = f"vmap of {closed.name}"

        def fn(*xs):
            with new_trace(BatchTrace, where, axis_size=axis_size, axis_name=bound_axis,
                           processes=bound_processes) as bt:
                ins = [x if d is None else BatchTracer(bt, x, d) for x, d in zip(xs, dims)]
                outs = closed(*ins)
                res = []
                for o in outs:
                    if type(o) is BatchTracer and o._trace is bt:
                        res.append(o.val)
                        out_dims.append(o.bdim)
                    else:
                        res.append(o)
                        out_dims.append(None)
            return res

        entry = closed._batch[key] = _Derived((_stage(fn, [_aval(v) for v in vals], where), out_dims))
    bclosed, out_dims = entry
    return jit_p.bind(*vals, closed=bclosed), list(out_dims)


defjvp_rule(jit_p, _jit_jvp)
deflinear_in(jit_p, _jit_transpose)  # a program is linear in whichever inputs its body is
defbatch(jit_p, _jit_batch, axis_name=True)  # a program may hold collectives over the vmap's axis

__all__ = ["jit_p", "Closed", "close", "JIT_HINT"]
