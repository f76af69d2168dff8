"""`jit`: trace a function once per input signature, then run an optimized, fused program.

``jit(f)(*args)`` flattens the arguments, keys a cache by (static arguments, pytree
structure, shapes, dtypes, weak types, backend) -- an LRU bounded by the config options
``jit_cache_size`` (per function) and ``jit_total_cache_size`` (all functions), see
``docs/memory.md`` -- and on a miss traces ``f`` with a fully
staging `StagingTrace` into a jaxpr.  Constants the trace captured are baked into the
program (`Closed`); values of enclosing transforms it closed over become extra leading
inputs.  A call binds the higher-order primitive `jit_p`:

* at the bottom (no transform active) its implementation runs the program compiled by
  `fgrad.compile` (inline, DCE, CSE, folding and simplification, fusion, buffer reuse,
  generated NumPy code) — compiled once per program and backend, on first use;
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
op-by-op execution.

The call path is kept lean: a call whose arguments are all concrete arrays (the common
case) is keyed by a tuple of (buffer type, shape, dtype) and runs the executor directly.
"""

from __future__ import annotations

import functools
import inspect
import os
import time
import weakref

import numpy as np

from .._lru import CLOCK, LRU, LRUGroup
from ..core.array import ArrayImpl, ShapedArray, Tracer, get_aval, wrap
from ..core.ir import Jaxpr, Literal, eval_jaxpr
from ..core.primitive import Primitive
from ..core.trace import EVAL_TRACE, new_trace, origin, state
from ..ops._quiet import quiet
from ..tree_util import _registry as _TREE_NODES
from ..tree_util import tree_flatten, tree_unflatten
from .staging import StagingTrace

_JIT_HINT = (
    "\nInside jit, arguments are abstract (only shapes and dtypes are known). Fixes: mark the "
    "argument static with `jit(f, static_argnums=...)`/`static_argnames`, use "
    "`fgrad.lax.cond`/`fgrad.numpy.where` for data-dependent choices, or call the function "
    "without jit."
)

# one line per (re)compile: FGRAD_LOG_COMPILES=1, or set `fgrad.transforms.jit.LOG_COMPILES`
LOG_COMPILES = os.environ.get("FGRAD_LOG_COMPILES", "") not in ("", "0")
_PY_SCALARS = (bool, int, float, complex)


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
            from ..compile import compile_jaxpr

            t0 = time.perf_counter()
            exe = compile_jaxpr(self.jaxpr, place_consts(self.consts, xp, device), xp=xp)
            exe.compile_time = time.perf_counter() - t0
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


def place_consts(consts, xp, device=None):
    """``consts`` for a program running with ``xp``: on a device backend, host arrays (made
    on the default device while tracing abstract inputs) are uploaded explicitly, and
    buffers on another device of that backend are moved to ``device``."""
    if xp is np:
        return consts
    from .. import backends as B

    be = B.backend_of_xp(xp)
    out = []
    for c in consts:
        if type(c) is np.ndarray:
            c = be.from_host(c, device)
        elif device is not None and hasattr(c, "shape") and B.backend_of_buffer(c) is be \
                and be.device_of(c) != device:
            c = be.put(c, device)
        out.append(c)
    return out


def _device_of(bufs):
    """The device of the first device buffer in ``bufs`` (None: host, or no buffer)."""
    from ..backends import NUMPY, backend_of_buffer

    for b in bufs:
        if hasattr(b, "shape") and type(b) is not np.ndarray:
            be = backend_of_buffer(b)
            if be is not NUMPY:
                return be.device_of(b)
    return None


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
    return closed.executable(xp, _device_of(bufs)).run(list(bufs))


def _jit_abstract(*avals, closed):
    return [v.aval for v in closed.jaxpr.outvars]


jit_p = Primitive("jit", _jit_impl, _jit_abstract, multiple_results=True, family="higher-order")


def _aval(x) -> ShapedArray:
    return get_aval(x)


def _stage(fn, in_avals, what):
    """Trace ``fn(*tracers) -> list`` into a `Closed` program (fully staged)."""
    with new_trace(StagingTrace, what, partial=False, hint=_JIT_HINT) as st:
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
    from .ad import JVPTrace, JVPTracer

    nz = [t is not None for t in tangents]
    n_out = len(closed.jaxpr.outvars)
    mask: list = []
    where = f"jvp of {closed.name}"
    with new_trace(StagingTrace, where, partial=False, hint=_JIT_HINT) as st:
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
    p_vars, t_vars = jaxpr.invars[:n_p], jaxpr.invars[n_p:]
    const_of = dict(zip(jaxpr.constvars, consts))
    tan = set(t_vars)
    known_eqns, lin_eqns = [], []
    for e in jaxpr.eqns:
        if any(type(v) is not Literal and v in tan for v in e.invars):
            lin_eqns.append(e)
            tan.update(e.outvars)
        else:
            known_eqns.append(e)
    p_outs, t_outs = jaxpr.outvars[:n_out], jaxpr.outvars[n_out:]
    if any(type(v) is not Literal and v in tan for v in p_outs):
        closed._jvp[key] = _Derived(())
        return None
    res, seen = [], set()
    lin_consts = []

    def need(v):
        if type(v) is Literal or v in tan or v in seen:
            return
        seen.add(v)
        if v in const_of:
            lin_consts.append(v)
        else:
            res.append(v)

    for e in lin_eqns:
        for v in e.invars:
            need(v)
    for v in t_outs:
        need(v)
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
    from .transpose import backward_pass, is_undefined

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


def _jit_batch(axis_size, vals, dims, closed):
    from .batching import BatchTrace, BatchTracer

    key = (tuple(dims), axis_size, _avals_key(vals))
    entry = closed._batch.get(key)
    if entry is None:
        out_dims: list = []
        where = f"vmap of {closed.name}"

        def fn(*xs):
            with new_trace(BatchTrace, where, axis_size=axis_size) as bt:
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


jit_p.jvp = _jit_jvp
jit_p.transpose = _jit_transpose
jit_p.batch = _jit_batch


# ---------------------------------------------------------------------------------------
# the user-facing function


def _hashable_static(v, label, fname):
    try:
        hash(v)
    except TypeError:
        raise TypeError(
            f"jit of {fname}: static argument {label} has unhashable type {type(v).__name__} "
            f"({v!r:.60}); static arguments are cache keys and must be hashable. Pass a tuple "
            "instead of a list (or a frozen/hashable object), or make it a regular (traced) "
            "argument by removing it from static_argnums/static_argnames."
        ) from None
    return v


def _leaf_key(x):
    t = type(x)
    if t is ArrayImpl:
        b = x._buf
        return (type(b), b.shape, b.dtype)
    if t in _PY_SCALARS:
        return t
    av = x.aval
    # the backend of the concrete value behind the tracer (None inside jit): programs traced
    # for it hold constants placed for that backend
    return (Tracer, av.shape, av.dtype, av.weak_type, _concrete_backend(x))


def _concrete_backend(x):
    from ..backends import placement_of

    p = placement_of(x)
    return None if p is None else p[0].name


def _check_devices(flat, fname):
    """`DeviceMismatchError` when the concrete leaves of a call live on different devices."""
    from .. import backends as B

    placed, devs = [], set()
    for i, x in enumerate(flat):
        if type(x) in _PY_SCALARS:
            continue
        p = B.placement_of(x)
        if p is None:
            continue
        placed.append((f"argument leaf {i}", get_aval(x).str_short(), p[1]))
        devs.add(str(p[1]))
    if len(devs) > 1:
        raise B.mismatch_error(f"jit({fname})", placed)


def _asarray(x):
    from .. import numpy as fnp

    try:
        return fnp.asarray(x)
    except TypeError as e:
        raise TypeError(
            f"jit: an argument of type {type(x).__name__} is not an array ({e}). Mark the "
            "argument static with `jit(f, static_argnums=...)`/`static_argnames`, or close over it."
        ) from None


def _check_jit_args(fun, sig, static_argnums, static_argnames, donate_argnums) -> None:
    """JAX's checks of jit's arguments: a callable, integer argnums within the function's
    positional parameters (unless it takes ``*args``), static_argnames it accepts (unless it
    takes ``**kwargs``), and no argument both static and donated."""
    if not callable(fun):
        raise TypeError(f"jit: expected a callable value, got {fun!r}")
    for what, nums in (("static_argnums", static_argnums), ("donate_argnums", donate_argnums)):
        if any(not isinstance(i, (int, np.integer)) or isinstance(i, bool) for i in nums):
            raise TypeError(f"jit: {what} must be an int or a sequence of ints, got {nums!r}")
    if any(not isinstance(n, str) for n in static_argnames):
        raise TypeError(f"jit: static_argnames must be a str or a sequence of str, got {static_argnames!r}")
    both = set(static_argnums) & set(donate_argnums)
    if both:
        raise ValueError(
            f"jit: static_argnums and donate_argnums cannot intersect; arguments {sorted(both)} "
            "appear in both (a static argument is a Python value, it cannot be donated)."
        )
    if sig is None:
        return
    params = sig.parameters.values()
    if not any(p.kind == p.VAR_POSITIONAL for p in params):
        npos = sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)
        for what, nums in (("static_argnums", static_argnums), ("donate_argnums", donate_argnums)):
            if any(not -npos <= i < npos for i in nums):
                raise ValueError(
                    f"Jitted function has {what}={nums}, but only accepts {npos} positional "
                    f"arguments. Fix {what} (argument positions count from 0)."
                )
    if not any(p.kind == p.VAR_KEYWORD for p in params):
        unknown = set(static_argnames) - set(sig.parameters)
        if unknown:
            raise ValueError(
                f"Jitted function has invalid argnames {unknown} in static_argnames. Function "
                f"does not take these args; its parameters are {list(sig.parameters)}."
            )


def _wrap_outs(outs):
    res = []
    for o in outs:
        w = object.__new__(ArrayImpl)
        w._buf = o
        res.append(w)
    return res


class _Entry:
    """A compiled signature of a jitted function (``tick``: its last use, for the LRU;
    ``fast_key``: its key in the call-path index, if any)."""

    __slots__ = ("closed", "lifted", "exe", "single", "unflatten", "tick", "fast_key")

    def __init__(self, closed, lifted) -> None:
        self.closed, self.lifted, self.exe = closed, lifted, None
        self.tick, self.fast_key = 0, None
        self.single = closed.out_tree.node_type is None
        self.unflatten = _unflattener(closed.out_tree)


def jit(fun=None, *, static_argnums=(), static_argnames=(), donate_argnums=()):
    """Compile ``fun``: trace it once per argument signature, optimize and fuse the traced
    program, and run the compiled program on every later call with that signature.

    ``static_argnums``/``static_argnames``: arguments passed as Python values (hashed by
    value, part of the cache key) instead of traced arrays.  ``donate_argnums`` is
    accepted for compatibility and ignored.  ``jit(f).lower(*args)`` gives the traced and
    optimized programs and, with ``.compile()``, the executable (its generated source and
    kernel statistics).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> f = fgrad.jit(lambda x: fnp.sin(x) * 2)
        >>> f(fnp.zeros(2))
        Array([0., 0.], dtype=float64)
    """
    if fun is None:
        return functools.partial(jit, static_argnums=static_argnums, static_argnames=static_argnames,
                                 donate_argnums=donate_argnums)
    if isinstance(static_argnums, (int, np.integer)):
        static_argnums = (static_argnums,)
    if isinstance(static_argnames, str):
        static_argnames = (static_argnames,)
    if isinstance(donate_argnums, (int, np.integer)):
        donate_argnums = (donate_argnums,)
    static_argnums = tuple(static_argnums)
    static_argnames = tuple(static_argnames)
    donate_argnums = tuple(donate_argnums)
    try:
        sig = inspect.signature(fun)
        pnames = [n for n, p in sig.parameters.items()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        sig, pnames = None, []
    _check_jit_args(fun, sig, static_argnums, static_argnames, donate_argnums)
    for n in static_argnames:
        if n in pnames and pnames.index(n) not in static_argnums:
            static_argnums += (pnames.index(n),)
    for i in static_argnums:
        if 0 <= i < len(pnames) and pnames[i] not in static_argnames:
            static_argnames += (pnames[i],)
    fname = getattr(fun, "__name__", type(fun).__name__)
    cache, fast, stats = _caches_for(fun, (static_argnums, static_argnames))
    has_static = bool(static_argnums or static_argnames)

    def label(i):
        return f"'{pnames[i]}' (argument {i})" if i < len(pnames) else f"argument {i}"

    def lookup(args, kwargs):
        """(entry, flat dynamic leaves) for a call, tracing on a cache miss."""
        if kwargs and sig is not None:
            try:
                bound = sig.bind(*args, **kwargs)
            except TypeError:
                bound = None
            if bound is not None:
                args, kwargs = tuple(bound.args), dict(bound.kwargs)
        nargs = len(args)
        snums = tuple(sorted({i % nargs for i in static_argnums if -nargs <= i < nargs}))
        statics = tuple((i, _hashable_static(args[i], label(i), fname)) for i in snums)
        skw = tuple(sorted((k, _hashable_static(v, repr(k), fname)) for k, v in kwargs.items()
                           if k in static_argnames))
        dyn = tuple(a for i, a in enumerate(args) if i not in snums)
        dyn_kwargs = {k: v for k, v in kwargs.items() if k not in static_argnames}
        flat: list = []
        tree = None
        try:
            struct = _structure((dyn, dyn_kwargs), flat)
        except (_NotPlain, RecursionError):  # RecursionError: very deep trees (iterative path)
            flat, tree = tree_flatten((dyn, dyn_kwargs))
            struct = tree
        flat = [x if type(x) is ArrayImpl or type(x) in _PY_SCALARS or isinstance(x, Tracer)
                else _asarray(x) for x in flat]
        _check_devices(flat, fname)
        key = (statics, skw, struct, tuple(_leaf_key(x) for x in flat))
        entry = cache.get(key)
        if entry is None:
            if tree is None:
                tree = tree_flatten((dyn, dyn_kwargs))[1]
            if LOG_COMPILES or os.environ.get("FGRAD_LOG_COMPILES", "") not in ("", "0"):
                _log_compile(fname, key, cache, pnames, snums, dyn, dyn_kwargs)
            stats["traces"] += 1
            closed, lifted = _trace(fun, args, snums, kwargs, static_argnames, tree, flat)
            entry = _Entry(closed, lifted)
            if not lifted:  # closures over tracers of an enclosing transform: trace every call
                if not kwargs and not snums and all(type(x) is ArrayImpl for x in flat) and \
                        len(flat) == nargs and struct == _flat_struct(nargs):
                    entry.fast_key = tuple(_leaf_key(x) for x in flat)
                    fast[entry.fast_key] = entry
                cache[key] = entry  # may evict the least recently used signatures
        return entry, flat

    def run(entry, flat):
        if state.trace is EVAL_TRACE and not entry.lifted:
            bufs = []
            for x in flat:
                if type(x) is ArrayImpl:
                    bufs.append(x._buf)
                elif isinstance(x, Tracer):
                    break
                else:
                    bufs.append(x)
            else:
                exe = entry.exe
                if exe is None:
                    exe = entry.exe = entry.closed.executable(_xp_of(bufs))
                return _wrap_outs(exe.run(bufs))
        return jit_p.bind(*entry.lifted, *flat, closed=entry.closed)

    @functools.wraps(fun)
    def jitted(*args, **kwargs):
        if disable_jit.active:
            return fun(*args, **kwargs)
        if not kwargs and not has_static:
            key = []
            for a in args:
                if type(a) is not ArrayImpl:
                    break
                b = a._buf
                key.append((type(b), b.shape, b.dtype))
            else:
                entry = fast.get(tuple(key))
                if entry is not None and state.trace is EVAL_TRACE:
                    entry.tick = next(CLOCK)
                    exe = entry.exe
                    if exe is None:
                        exe = entry.exe = entry.closed.executable(_xp_of([a._buf for a in args]))
                    outs = exe.run([a._buf for a in args])
                    if entry.single:
                        w = object.__new__(ArrayImpl)
                        w._buf = outs[0]
                        return w
                    return entry.unflatten(_wrap_outs(outs))
        entry, flat = lookup(args, kwargs)
        return entry.unflatten(run(entry, flat))

    def lower(*args, **kwargs):
        entry, flat = lookup(args, kwargs)
        return Lowered(entry, flat)

    jitted._cache = cache  # type: ignore[attr-defined]
    jitted.stats = stats  # type: ignore[attr-defined]
    jitted.lower = lower  # type: ignore[attr-defined]
    return jitted


# jit(f) called again on the same function (and static configuration) shares its cache
_SHARED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# the bound over all jitted functions' caches together
JIT_CACHES = LRUGroup("jit_total_cache_size")


def _new_caches():
    """(signature cache, call-path index, stats) of a jitted function.  The cache is an
    LRU bounded by `jit_cache_size` (and, with all others, `jit_total_cache_size`); the
    index maps all-array signatures to the same entries and forgets evicted ones."""
    fast: dict = {}

    def forget(key, entry):
        if entry.fast_key is not None and fast.get(entry.fast_key) is entry:
            del fast[entry.fast_key]

    return LRU("jit_cache_size", on_evict=forget, group=JIT_CACHES), fast, {"traces": 0}


def _caches_for(fun, config):
    try:
        per = _SHARED.get(fun)
        if per is None:
            per = _SHARED[fun] = {}
    except TypeError:  # not weak-referenceable: a private cache
        return _new_caches()
    entry = per.get(config)
    if entry is None:
        entry = per[config] = _new_caches()
    return entry


class _NotPlain(Exception):
    pass


def _structure(x, leaves):
    """A cheap, hashable description of a pytree made of tuples, lists, dicts (sortable
    keys) and None, collecting its leaves in `tree_flatten`'s order.  Other node types
    raise `_NotPlain` (the caller then uses `tree_flatten`)."""
    t = type(x)
    if t is tuple:
        return (0,) + tuple([_structure(c, leaves) for c in x])
    if t is list:
        return (1,) + tuple([_structure(c, leaves) for c in x])
    if t is dict:
        try:
            keys = sorted(x)
        except TypeError:
            raise _NotPlain from None
        return (2, tuple(keys)) + tuple([_structure(x[k], leaves) for k in keys])
    if x is None:
        return 3
    if t is ArrayImpl or t in _PY_SCALARS or isinstance(x, Tracer) or (
            t not in _TREE_NODES and not (isinstance(x, tuple) and hasattr(x, "_fields"))):
        leaves.append(x)
        return 4
    raise _NotPlain


@functools.lru_cache(maxsize=64)
def _flat_struct(n):
    return _structure((tuple(range(n)), {}), [])


def _unflattener(treedef):
    """A generated function building ``treedef``'s structure from a flat list (plain
    containers), or `tree_unflatten` for anything else."""
    counter = [0]

    def build(t):
        if t.node_type is None:
            counter[0] += 1
            return f"o[{counter[0] - 1}]"
        parts = [build(c) for c in t.children]
        if t.node_type is tuple:
            return "(" + "".join(p + ", " for p in parts) + ")"
        if t.node_type is list:
            return "[" + ", ".join(parts) + "]"
        if t.node_type is dict and all(type(k) in (str, int) for k in t.aux):
            return "{" + ", ".join(f"{k!r}: {p}" for k, p in zip(t.aux, parts)) + "}"
        if t.node_type is type(None):
            return "None"
        raise _NotPlain

    try:
        body = build(treedef)
        return eval(f"lambda o: {body}")  # noqa: S307 - source built above from the tree
    except (_NotPlain, RecursionError, SyntaxError, MemoryError):  # deep trees: the generic path
        return lambda o: tree_unflatten(treedef, o)


def _xp_of(bufs):
    from ..backends import xp_of

    for b in bufs:
        if hasattr(b, "shape"):
            return xp_of(b)
    return np


class Lowered:
    """What `jit(f).lower(*args)` returns: the traced program (``jaxpr``), the optimized one
    (``optimized``) and, via `compile`, the executable."""

    def __init__(self, entry, flat) -> None:
        self._entry, self._flat = entry, flat

    @property
    def jaxpr(self) -> Jaxpr:
        return self._entry.closed.jaxpr

    @property
    def consts(self) -> list:
        """Values of ``jaxpr.constvars`` (the constants the trace captured)."""
        return self._entry.closed.consts

    def compile(self):
        """The `fgrad.compile.Executable` (``.source``, ``.stats``, ``.kernels``)."""
        bufs = [x._buf if type(x) is ArrayImpl else x for x in self._flat]
        return self._entry.closed.executable(_xp_of(bufs))

    @property
    def optimized(self):
        return self.compile().program

    def as_text(self) -> str:
        return str(self.jaxpr)


def _label_leaves(pnames, snums, dyn, dyn_kwargs):
    labels = []
    pos = [i for i in range(len(dyn) + len(snums)) if i not in snums]
    for i, a in zip(pos, dyn):
        n = len(tree_flatten(a)[0])
        base = repr(pnames[i]) if i < len(pnames) else f"#{i}"
        labels += [base] if n == 1 else [f"{base}[leaf {j}]" for j in range(n)]
    for k in sorted(dyn_kwargs):
        n = len(tree_flatten(dyn_kwargs[k])[0])
        labels += [repr(k)] if n == 1 else [f"{k!r}[leaf {j}]" for j in range(n)]
    return labels


def _fmt_leaf(k):
    if isinstance(k, tuple) and len(k) >= 3:
        return f"{np.dtype(k[2]).name}{list(k[1])}" + ("(weak)" if len(k) > 3 and k[3] else "")
    return getattr(k, "__name__", str(k))


def _log_compile(fname, key, cache, pnames, snums, dyn, dyn_kwargs):
    labels = _label_leaves(pnames, snums, dyn, dyn_kwargs)
    leaves = key[3]
    if not cache:
        shown = ", ".join(f"{lb}: {_fmt_leaf(k)}" for lb, k in zip(labels, leaves))
        st = ", ".join(f"{_static_label(i, pnames)}={v!r}" for i, v in key[0])
        print(f"[fgrad] compiling {fname} for ({shown}{', ' if shown and st else ''}{st})")
        return
    prev = next(reversed(cache))
    changes = []
    pst, nst = dict(prev[0]), dict(key[0])
    for i in sorted(set(pst) | set(nst)):
        if pst.get(i, "<absent>") != nst.get(i, "<absent>"):
            changes.append(f"static argument {_static_label(i, pnames)} changed "
                           f"{pst.get(i, '<absent>')!r} -> {nst.get(i, '<absent>')!r}")
    pk, nk = dict(prev[1]), dict(key[1])
    for k in sorted(set(pk) | set(nk)):
        if pk.get(k, "<absent>") != nk.get(k, "<absent>"):
            changes.append(f"static argument {k!r} changed {pk.get(k, '<absent>')!r} -> "
                           f"{nk.get(k, '<absent>')!r}")
    if prev[2] != key[2]:
        changes.append(f"argument structure changed {prev[2]} -> {key[2]}")
    else:
        for lb, a, b in zip(labels, prev[3], leaves):
            if a != b:
                changes.append(f"argument {lb} changed {_fmt_leaf(a)} -> {_fmt_leaf(b)}")
    print(f"[fgrad] recompiling {fname} (compile #{len(cache) + 1}): "
          + ("; ".join(changes) or "new signature"))


def _static_label(i, pnames):
    return repr(pnames[i]) if i < len(pnames) else f"#{i}"


def _trace(fun, args, snums, kwargs, static_argnames, tree, flat):
    where = origin(f"jit of {getattr(fun, '__name__', 'function')}")
    with new_trace(StagingTrace, where, partial=False, hint=_JIT_HINT) as trace:
        tracers = [trace.new_arg(get_aval(x)) for x in flat]
        dyn, dyn_kwargs = tree_unflatten(tree, tracers)
        it = iter(dyn)
        full = [args[i] if i in snums else next(it) for i in range(len(args))]
        kw = {**{k: v for k, v in kwargs.items() if k in static_argnames}, **dyn_kwargs}
        out = fun(*full, **kw)
        flat_out, out_tree = tree_flatten(out)
        jaxpr, consts = trace.to_jaxpr(flat_out)
    return close(jaxpr, consts, out_tree, getattr(fun, "__name__", "jit"))


def make_jaxpr(fun, static_argnums=()):
    """Returns a function that traces ``fun`` and returns its jaxpr (printable IR).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> print(fgrad.make_jaxpr(lambda x: fnp.sin(x) + 1.0)(fnp.zeros(3)))
        { lambda a:float64[3]. let
            b:float64[3] = sin a
            c:float64[3] = add b 1.0
          in (c) }
    """
    if isinstance(static_argnums, int):
        static_argnums = (static_argnums,)

    def make(*args, **kwargs):
        nargs = len(args)
        snums = tuple(i % nargs for i in static_argnums)
        dyn = [a for i, a in enumerate(args) if i not in snums]
        flat, tree = tree_flatten((dyn, kwargs))
        flat = [x if isinstance(x, (Tracer, ArrayImpl)) else _asarray(x) for x in flat]
        closed, _ = _trace(fun, args, snums, kwargs, (), tree, flat)
        return closed.jaxpr

    return make


class disable_jit:
    """Context manager: run jitted functions eagerly (op by op), for debugging."""

    active = False

    def __enter__(self):
        self._saved = disable_jit.active
        disable_jit.active = True
        return self

    def __exit__(self, *exc):
        disable_jit.active = self._saved


def compile_jaxpr(jaxpr: Jaxpr):
    """Straight-line Python for ``jaxpr`` without optimization (used for the small cached
    programs of the reverse-mode tape and control-flow bodies): ``run(xp, bufs) -> list``
    taking constants then inputs."""
    return _simple_compile(jaxpr)


def _simple_compile(jaxpr: Jaxpr):
    names: dict = {}
    ns: dict = {}
    lines = []
    counter = iter(range(1 << 30))

    def fresh(prefix="r"):
        return f"{prefix}{next(counter)}"

    def ref(v):
        if type(v) is Literal:
            key = fresh("k")
            ns[key] = v.val
            return key
        return names[v]

    params_in = []
    for v in list(jaxpr.constvars) + list(jaxpr.invars):
        n = fresh("a")
        names[v] = n
        params_in.append(n)
    last_use: dict = {}
    for i, e in enumerate(jaxpr.eqns):
        for v in e.invars:
            if type(v) is not Literal:
                last_use[v] = i
    keep = {v for v in jaxpr.outvars if type(v) is not Literal}
    for i, e in enumerate(jaxpr.eqns):
        args = ", ".join(ref(v) for v in e.invars)
        ufunc = getattr(e.prim, "ufunc", None)
        if ufunc is not None and not e.params:
            fn = fresh("u")
            ns[fn] = ufunc
            call = f"{fn}({args})"
        else:
            fn = fresh("f")
            ns[fn] = functools.partial(e.prim.impl, **e.params) if e.params else e.prim.impl
            call = f"{fn}(xp, {args})" if args else f"{fn}(xp)"
        outs = [fresh() for _ in e.outvars]
        for v, n in zip(e.outvars, outs):
            names[v] = n
        if e.prim.multiple_results:
            lines.append(f"    {', '.join(outs)}{',' if len(outs) == 1 else ''} = {call}")
        else:
            lines.append(f"    {outs[0]} = {call}")
        dead = sorted({names[v] for v in e.invars if type(v) is not Literal
                       and last_use.get(v) == i and v not in keep})
        if dead:
            lines.append(f"    del {', '.join(dead)}")
    rets = ", ".join(ref(v) for v in jaxpr.outvars)
    lines.append(f"    return [{rets}]")
    unpack = f"    {', '.join(params_in)}{',' if len(params_in) == 1 else ''} = bufs\n" if params_in else ""
    src = "def run(xp, bufs):\n" + unpack + "\n".join(lines) + "\n"
    exec(compile(src, "<fgrad generated>", "exec"), ns)
    run = quiet(ns["run"], 2)  # IEEE special values are computed silently, as in JAX
    run.source = src  # type: ignore[attr-defined]
    return run


__all__ = ["jit", "make_jaxpr", "disable_jit", "jit_p", "Closed", "Lowered", "compile_jaxpr"]
