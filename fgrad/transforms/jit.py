"""`jit`: trace a function once per input signature, then run an optimized, fused program.

``jit(f)(*args)`` flattens the arguments, keys a cache by (static arguments, pytree
structure, shapes, dtypes, weak types, backend) -- an LRU bounded by the config options
``jit_cache_size`` (per function) and ``jit_total_cache_size`` (all functions), see
``docs/memory.md`` -- and on a miss traces ``f`` with a fully
staging `StagingTrace` into a jaxpr.  Constants the trace captured are baked into the
program (`Closed`); values of enclosing transforms it closed over become extra leading
inputs.  A call binds the higher-order primitive `jit_p` (transforms/jit_primitive.py:
the primitive, its compiled implementation and its jvp/transpose/batching rules).

The call path is kept lean: a call whose positional arguments are all concrete arrays or
Python scalars (the common case) is keyed by a tuple of (buffer type, shape, dtype) per
array and the type per scalar, and runs the executor directly.

Each trace is logged (logger ``fgrad.jit``, level DEBUG) with the reason for a recompile:
the argument whose shape, dtype or static value changed.  ``FGRAD_LOG_COMPILES=1`` shows
these records on stderr (see docs/diagnostics.md).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import Any
import inspect
import logging
import weakref

import numpy as np

from .._config import on_option_change, trace_context
from .._lru import CLOCK, LRU, LRUGroup
from ..backends import SingleDeviceSharding, default_backend, default_device, mismatch_error, xp_of
from ..core.array import ArrayImpl, ShapeDtypeStruct, ShapedArray, Tracer, get_aval, wrap
from ..core import sharding_flow, x64_mode
from ..core.constants import host_array
from ..core.ir import ClosedJaxpr, Jaxpr
from ..core.logs import enable_from_environment
from ..core.placement import placement_of
from ..core.provenance import CHECKS
from ..core.trace import EVAL_TRACE, new_trace, origin, state
from ..core.primitive import JIT_NAN_MESSAGE
from ..errors import JaxRuntimeError
from ..tree_util import _array_nodes as _ARRAY_NODES
from ..tree_util import _registry as _TREE_NODES
from ..tree_util import flatten_arrays as tree_flatten, tree_unflatten
from . import custom_call  # noqa: F401 - staging keeps custom_jvp/custom_vjp rules
from .jit_primitive import JIT_HINT, LOG, Closed, close, jit_p
from .staging import StagingTrace
from ..compile.ir_text import CompilerIR
from ..compile.costs import MemoryStats, memory_stats, program_costs

_PY_SCALARS = (bool, int, float, complex)


# ---------------------------------------------------------------------------------------
# the user-facing function


class _StaticArgHashError(ValueError, TypeError):
    """JAX raises ValueError for an unhashable static argument; fgrad raised TypeError
    before, so the error is both."""


def _hashable_static(v, label, fname):
    try:
        hash(v)
    except TypeError as e:
        raise _StaticArgHashError(
            "Non-hashable static arguments are not supported. An error occurred while trying to "
            f"hash an object of type {type(v)}, {v!r:.60}. The error was:\nTypeError: {e}\n"
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
        return (type(b), b.shape, b.dtype, True) if x._weak else (type(b), b.shape, b.dtype)
    if t in _PY_SCALARS:
        return t
    av = x.aval
    # the backend of the concrete value behind the tracer (None inside jit): programs traced
    # for it hold constants placed for that backend
    return (Tracer, av.shape, av.dtype, av.weak_type, _concrete_backend(x))


def _concrete_backend(x):
    p = placement_of(x)
    return None if p is None else p[0].name


def _check_devices(flat, fname):
    """`DeviceMismatchError` when the concrete leaves of a call live on different devices."""
    placed, devs = [], set()
    for i, x in enumerate(flat):
        if type(x) in _PY_SCALARS:
            continue
        p = placement_of(x)
        if p is None:
            continue
        placed.append((i, x, p[1]))
        devs.add(str(p[1]))
    if len(devs) > 1:  # the message's descriptions only now (a call's hot path skips them)
        raise mismatch_error(f"jit({fname})", [(f"argument leaf {i}", get_aval(x).str_short(), d)
                                               for i, x, d in placed])


def _asarray(x):
    try:
        return host_array(x)
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


def _wrap_outs(outs, weak=None):
    """The program's output buffers as Arrays; ``weak``: which are weakly typed (None: none)."""
    res = []
    narrow = not x64_mode.enabled  # 64-bit types off: compiled code may compute in 64 bits
    for o in outs:
        w = object.__new__(ArrayImpl)
        w._weak = False
        w._buf = x64_mode.narrow_buffer(o) if narrow else o
        res.append(w)
    if weak is not None:
        for w, k in zip(res, weak):
            w._weak = k
    return res


class _Entry:
    """A compiled signature of a jitted function (``tick``: its last use, for the LRU;
    ``fast_key``: its key in the call-path index, if any)."""

    __slots__ = ("closed", "lifted", "exe", "single", "unflatten", "tick", "fast_key", "weak")

    def __init__(self, closed, lifted) -> None:
        self.closed, self.lifted, self.exe = closed, lifted, None
        self.tick, self.fast_key = 0, None
        self.single = closed.out_tree.node_type is None
        self.unflatten = _unflattener(closed.out_tree)
        weak = tuple(bool(getattr(getattr(v, "aval", None), "weak_type", False))
                     for v in closed.jaxpr.outvars)
        self.weak = weak if any(weak) else None  # the weakly typed outputs


def _donated_arguments(nargs: int, donate_argnums: tuple, donate_argnames: tuple,
                       pnames: list) -> tuple[set, set]:
    """(positions, names) of a call's donated arguments, given by position or by name."""
    positions = {i % nargs for i in donate_argnums if -nargs <= i < nargs}
    positions |= {pnames.index(n) for n in donate_argnames if n in pnames and pnames.index(n) < nargs}
    names = set(donate_argnames) | {pnames[i] for i in donate_argnums if 0 <= i < len(pnames)}
    return positions, names


def _donation_flags(args: tuple, kwargs: dict, snums: tuple, static_argnames: tuple, donate_argnums: tuple,
                    donate_argnames: tuple, pnames: list) -> list[bool]:
    """Whether each dynamic leaf of a call (in the order of its flat dynamic arguments) is
    part of a donated argument (``Lowered.args_info``'s ``donated``)."""
    positions, names = _donated_arguments(len(args), donate_argnums, donate_argnames, pnames)
    flags = [i in positions for i, a in enumerate(args) if i not in snums for _ in tree_flatten(a)[0]]
    return flags + [k in names for k in sorted(kwargs) if k not in static_argnames
                    for _ in tree_flatten(kwargs[k])[0]]  # (a dict's leaves go in key order)


def _donated_leaves(args: tuple, kwargs: dict, donate_argnums: tuple, donate_argnames: tuple,
                    pnames: list) -> list:
    """The arrays of a call's donated arguments (by position or by name, passed either way)."""
    positions, names = _donated_arguments(len(args), donate_argnums, donate_argnames, pnames)
    kept = [a for i, a in enumerate(args) if i not in positions] + \
        [v for k, v in kwargs.items() if k not in names]
    trees = [args[i] for i in sorted(positions)] + [v for k, v in kwargs.items() if k in names]
    donated = [x for x in tree_flatten(trees)[0] if type(x) is ArrayImpl]
    ids = [id(x) for x in donated]
    if len(set(ids)) < len(ids) or set(ids) & {id(x) for x in tree_flatten(kept)[0]}:
        raise JaxRuntimeError(
            "INVALID_ARGUMENT: Attempt to use a buffer that was previously donated in the same call "
            "(an array passed both as a donated argument and as another argument: f(donate(a), a)); "
            "pass a copy (x.copy()) as one of them")
    return donated


def _delete_donated(donated: list, out: Any) -> None:
    """Delete each donated array whose buffer a result can take (one result of its shape and
    dtype per donated array, as XLA aliases them), as JAX does on one device; warn, as JAX,
    of those none can take."""
    results = [x for x in tree_flatten(out)[0] if type(x) is ArrayImpl]
    free = {}
    for r in results:
        key = (r.shape, r.dtype)
        free[key] = free.get(key, 0) + 1
    unusable, seen = [], set()
    for x in donated:
        if id(x) in seen or x.is_deleted() or any(r is x for r in results):
            continue
        seen.add(id(x))
        key = (x.shape, x.dtype)
        if free.get(key, 0):
            free[key] -= 1
            x.delete()
        else:
            unusable.append(f"ShapedArray({x.dtype.name}[{','.join(str(d) for d in x.shape)}])")
    if unusable:
        import warnings
        warnings.warn(f"Some donated buffers were not usable: {', '.join(unusable)}.\n"
                      "See an explanation at https://docs.jax.dev/en/latest/faq.html#buffer-donation.",
                      stacklevel=3)


def jit(fun: Callable[..., Any] | None = None, *, static_argnums: int | Sequence[int] = (),
        static_argnames: str | Iterable[str] = (), donate_argnums: int | Sequence[int] = (),
        donate_argnames: str | Iterable[str] = (), inline: bool = False, keep_unused: bool = False,
        in_shardings: Any = None, out_shardings: Any = None,
        compiler_options: dict[str, Any] | None = None) -> Any:
    """Compile ``fun``: trace it once per argument signature, optimize and fuse the traced
    program, and run the compiled program on every later call with that signature.

    ``static_argnums``/``static_argnames``: arguments passed as Python values (hashed by
    value, part of the cache key) instead of traced arrays.  ``donate_argnums``/
    ``donate_argnames``: as JAX on one device, a donated argument array whose buffer a
    result of the same shape and dtype can reuse is deleted by the call (reading it raises
    ``RuntimeError``); one no result can use is kept, with JAX's warning.  JAX's ``inline`` (a jitted
    function called inside another is traced into it; fgrad always does so),
    ``keep_unused``, ``compiler_options`` and the single-device ``in_shardings`` are accepted
    and change nothing; the results record ``out_shardings`` as their ``.sharding``.
    ``jit(f).lower(*args)`` gives the traced and optimized programs and, with ``.compile()``,
    the executable (its generated source and kernel statistics).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> f = fgrad.jit(lambda x: fnp.sin(x) * 2)
        >>> f(fnp.zeros(2))
        Array([0., 0.], dtype=float64)
    """
    if fun is None:
        return functools.partial(jit, static_argnums=static_argnums, static_argnames=static_argnames,
                                 donate_argnums=donate_argnums, donate_argnames=donate_argnames,
                                 inline=inline, keep_unused=keep_unused, in_shardings=in_shardings,
                                 out_shardings=out_shardings, compiler_options=compiler_options)
    if not isinstance(inline, (bool, np.bool_)) or not isinstance(keep_unused, (bool, np.bool_)):
        raise TypeError(f"jit: inline and keep_unused must be bools, got inline={inline!r}, "
                        f"keep_unused={keep_unused!r}")
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
    if isinstance(donate_argnames, str):
        donate_argnames = (donate_argnames,)
    donate_argnames = tuple(donate_argnames)
    donating = bool(donate_argnums or donate_argnames)
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
        ctx = trace_context[0]  # options that change tracing (promotion checks); () by default
        # the default device too: the constants a trace makes are placed there, and a program
        # traced inside another transform (abstract arguments) is inlined with them as they are
        key = (statics, skw, struct, tuple(_leaf_key(x) for x in flat), ctx, default_device())
        entry = cache.get(key)
        if entry is None:
            if tree is None:
                tree = tree_flatten((dyn, dyn_kwargs))[1]
            enable_from_environment()
            if LOG.isEnabledFor(logging.INFO):
                _log_compile(fname, key, cache, pnames, snums, dyn, dyn_kwargs)
            stats["traces"] += 1
            closed, lifted = _trace(fun, args, snums, kwargs, static_argnames, tree, flat)
            entry = _Entry(closed, lifted)
            if not lifted:  # closures over tracers of an enclosing transform: trace every call
                if not kwargs and not snums and len(flat) == nargs and \
                        all(type(x) is ArrayImpl or type(x) in _PY_SCALARS for x in flat) and \
                        struct == _flat_struct(nargs):
                    leaves = tuple(_leaf_key(x) for x in flat)
                    entry.fast_key = (leaves, ctx) if ctx else leaves
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
                    bufs.append(x if x64_mode.enabled else x64_mode.narrow_scalar(x))
            else:
                exe = entry.exe
                if exe is None:
                    exe = entry.exe = entry.closed.executable(_xp_of(bufs, entry.closed))
                return _wrap_outs(exe.run(bufs), entry.weak)
        if not x64_mode.enabled:
            flat = [x64_mode.narrow_scalar(x) for x in flat]
        return jit_p.bind(*entry.lifted, *flat, closed=entry.closed)

    @functools.wraps(fun)
    def jitted(*args, **kwargs):
        if disable_jit.eager:
            if disable_jit.active:
                return fun(*args, **kwargs)
            try:  # the NaN/inf checks: run op by op, each operation checked
                return fun(*args, **kwargs)
            except FloatingPointError:
                print(JIT_NAN_MESSAGE)  # as JAX, for the jitted function's own check
                raise
        if donating and state.trace is EVAL_TRACE:
            donated = _donated_leaves(args, kwargs, donate_argnums, donate_argnames, pnames)
            out = call(*args, **kwargs)
            _delete_donated(donated, out)
            return out
        if sharding_flow.live and state.trace is EVAL_TRACE:  # results record JAX's shardings
            return call(*args, **kwargs)
        ctx = trace_context[0]  # options that change tracing: part of the key when set
        if not kwargs and not has_static:
            # the call-path index: each argument an array (keyed by buffer type, shape and
            # dtype) or a Python scalar (keyed by its type: weakly typed, its value traced),
            # the same key `lookup` gives these leaves
            key = []
            bufs = []
            for a in args:
                ta = type(a)
                if ta is ArrayImpl:
                    b = a._buf
                    key.append((type(b), b.shape, b.dtype, True) if a._weak else (type(b), b.shape, b.dtype))
                    bufs.append(b)
                elif ta in _PY_SCALARS:
                    key.append(ta)
                    # 64-bit types off: a Python float enters as float32, as in JAX
                    bufs.append(a if x64_mode.enabled else x64_mode.narrow_scalar(a))
                else:
                    break
            else:
                entry = fast.get((tuple(key), ctx) if ctx else tuple(key))
                if entry is not None and state.trace is EVAL_TRACE:
                    entry.tick = next(CLOCK)
                    exe = entry.exe
                    if exe is None:
                        exe = entry.exe = entry.closed.executable(_xp_of(bufs, entry.closed))
                    outs = exe.run(bufs)
                    if entry.single and x64_mode.enabled:
                        w = object.__new__(ArrayImpl)
                        w._weak = entry.weak is not None
                        w._buf = outs[0]
                        return w
                    return entry.unflatten(_wrap_outs(outs, entry.weak))
        entry, flat = lookup(args, kwargs)
        return entry.unflatten(run(entry, flat))

    def call(*args, **kwargs):
        """The jitted function's call without its fast path: what a `Compiled` runs.  It
        holds the cache, not the jitted function, so ``jit(f).lower(x).compile()(x)`` works
        after the temporary ``jit(f)`` is gone and no reference cycle keeps it alive."""
        entry, flat = lookup(args, kwargs)
        outs = run(entry, flat)
        if sharding_flow.live and state.trace is EVAL_TRACE:
            placed = _placed(in_shardings, args, len(flat))
            sharding_flow.program_results(entry.closed.jaxpr, flat, outs, placed)
        return entry.unflatten(outs)

    def lower(*args, **kwargs):
        """The `Lowered` program for these arguments (arrays, or `ShapeDtypeStruct` stand-ins:
        traced without touching the cache); its `Compiled` takes arguments of these types only."""
        return trace(*args, **kwargs).lower()

    def lowering(args, kwargs) -> tuple:
        """`Lowered`'s arguments after (entry, flat, jitted, name) for a call: the dynamic
        leaves of a later call, the argument tree, the static arguments, the donations."""
        full, full_kw, snums, tree, _ = dynamic(args, kwargs)
        static = (len(full), {i: full[i] for i in snums},
                  {k: v for k, v in full_kw.items() if k in static_argnames})
        donated = _donation_flags(full, full_kw, snums, static_argnames, donate_argnums, donate_argnames,
                                  pnames) if donating else None
        return (lambda a, k: dynamic(a, k)[4], tree, static, donated)

    def dynamic(args, kwargs):
        """``(args, kwargs, static positions, tree, flat dynamic leaves)`` of a call."""
        if kwargs and sig is not None:
            try:
                bound = sig.bind(*args, **kwargs)
                args, kwargs = tuple(bound.args), dict(bound.kwargs)
            except TypeError:
                pass
        nargs = len(args)
        snums = tuple(sorted({i % nargs for i in static_argnums if -nargs <= i < nargs}))
        dyn = tuple(a for i, a in enumerate(args) if i not in snums)
        dyn_kwargs = {k: v for k, v in kwargs.items() if k not in static_argnames}
        flat, tree = tree_flatten((dyn, dyn_kwargs))
        flat = [x if isinstance(x, (Tracer, ArrayImpl, ShapeDtypeStruct)) or type(x) in _PY_SCALARS
                else _asarray(x) for x in flat]
        return args, kwargs, snums, tree, flat

    def abstract(args, kwargs):
        """(entry, flat) for arguments that may be `ShapeDtypeStruct` stand-ins: traced
        without touching the cache (as JAX's ``.trace``/``.eval_shape``)."""
        args, kwargs, snums, tree, flat = dynamic(args, kwargs)
        closed, lifted = _trace(fun, args, snums, kwargs, static_argnames, tree, flat)
        return _Entry(closed, lifted), flat

    def trace(*args, **kwargs):
        """The traced program for these arguments (JAX's ``jit(f).trace``; arguments may be
        `ShapeDtypeStruct` stand-ins): a `Traced` with ``.jaxpr`` (a ClosedJaxpr),
        ``.out_info`` and ``.lower()``."""
        stand_ins = any(isinstance(x, ShapeDtypeStruct) for x in tree_flatten((args, kwargs))[0])
        entry, flat = abstract(args, kwargs) if stand_ins else lookup(args, kwargs)
        return Traced(entry, flat, call, fname, lowering(args, kwargs))

    def eval_shape(*args, **kwargs):
        """The output shapes/dtypes (`ShapeDtypeStruct` pytree) for these arguments (arrays or
        `ShapeDtypeStruct` stand-ins), static arguments handled as by the call (JAX's
        ``jit(f).eval_shape``)."""
        entry, _ = abstract(args, kwargs)
        return _shape_structs(entry.closed)

    def clear_cache() -> None:
        """Forget this function's compiled signatures (JAX's ``jit(f).clear_cache()``)."""
        cache.clear()
        fast.clear()

    if out_shardings is not None:  # the results record the shardings (a one-device mesh: no layout)
        unrecorded = jitted

        @functools.wraps(fun)
        def jitted(*args, **kwargs):
            return _record_shardings(unrecorded(*args, **kwargs), out_shardings)

    # the methods reach the cache, not the function (`call`): no reference cycle, so the
    # function, its cache and their executables' scratch go as soon as it is deleted
    jitted._cache = cache  # type: ignore[attr-defined]
    jitted.stats = stats  # type: ignore[attr-defined]
    jitted.lower = lower  # type: ignore[attr-defined]
    jitted.trace = trace  # type: ignore[attr-defined]
    jitted.eval_shape = eval_shape  # type: ignore[attr-defined]
    jitted.clear_cache = clear_cache  # type: ignore[attr-defined]
    jitted._cache_size = cache.__len__  # type: ignore[attr-defined]
    jitted.__fgrad_jit__ = True  # type: ignore[attr-defined]  (isinstance(f, fgrad.stages.Wrapped))
    return jitted


def _device_sharding(x: Any) -> SingleDeviceSharding:
    """``x``'s device (the default device for a non-array) as a `SingleDeviceSharding`."""
    return SingleDeviceSharding(x.device if type(x) is ArrayImpl else default_device())


def _placed(in_shardings: Any, args: tuple, n: int) -> list | None:
    """The jit's ``in_shardings`` for each of its ``n`` flat dynamic arguments (None when not
    given, or not one sharding or a tuple of one per positional argument)."""
    if in_shardings is None:
        return None
    if hasattr(in_shardings, "device_set"):
        return [in_shardings] * n
    if isinstance(in_shardings, (tuple, list)) and len(in_shardings) == len(args):
        placed = [s for a, s in zip(args, in_shardings) for _ in tree_flatten(a)[0]]
        return placed + [None] * (n - len(placed)) if len(placed) <= n else None
    return None


def _record_shardings(out: Any, shardings: Any) -> Any:
    """``out`` with each concrete array recording its entry of ``shardings`` (one sharding for
    every leaf, or a tuple/list/dict prefix of ``out``) as ``.sharding``, as JAX's
    ``jit(..., out_shardings=...)`` results show them."""
    if shardings is None:
        return out
    if isinstance(shardings, (tuple, list)) and isinstance(out, (tuple, list)) and len(shardings) == len(out):
        return type(out)(_record_shardings(o, s) for o, s in zip(out, shardings))
    if isinstance(shardings, dict) and isinstance(out, dict):
        return {k: _record_shardings(v, shardings.get(k)) for k, v in out.items()}
    if not hasattr(shardings, "device_set"):
        return out
    leaves, tree = tree_flatten(out)
    sharding_flow.mark_live()  # operations on these results follow `core.sharding_flow`
    return tree_unflatten(tree, [x.with_sharding(shardings) if type(x) is ArrayImpl else x for x in leaves])


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
            t not in _TREE_NODES and t not in _ARRAY_NODES
            and not (isinstance(x, tuple) and hasattr(x, "_fields"))):
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
        parts = [build(c) for c in t.subtrees]
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


def _xp_of(bufs, closed):
    """The array module a program runs with: its array inputs'; without any, that of its
    captured device constants (a jitted function of Python scalars closing over device
    arrays; its host constants are then uploaded); else the default device's."""
    for b in bufs:
        if hasattr(b, "shape") and not isinstance(b, np.generic):  # not a (narrowed) host scalar
            return xp_of(b)
    for c in closed.consts:
        if hasattr(c, "shape") and type(c) is not np.ndarray and not isinstance(c, np.generic):
            return xp_of(c)
    return default_backend().xp


class _WrappedType(type):
    """``isinstance(f, Wrapped)`` holds for the functions `jit` returns (plain functions, marked
    ``__fgrad_jit__``, so calling them costs nothing extra)."""

    def __instancecheck__(cls, obj: Any) -> bool:
        return type.__instancecheck__(cls, obj) or getattr(obj, "__fgrad_jit__", False) is True


class Wrapped(metaclass=_WrappedType):
    """The type of `jit`-wrapped functions (JAX's ``jax.stages.Wrapped``): callable, with
    ``.lower``, ``.trace``, ``.eval_shape``, ``.clear_cache`` (an instance check only).

    Example::

        >>> import fgrad
        >>> import fgrad.numpy as jnp
        >>> f = fgrad.jit(lambda x: x * 2)
        >>> isinstance(f, fgrad.stages.Wrapped)
        True
        >>> f(jnp.array(1.0))
        Array(2., dtype=float64, weak_type=True)
    """


class Traced:
    """What ``jit(f).trace(*args)`` returns (JAX's ``jax.stages.Traced``): the traced program
    ``jaxpr`` (a ClosedJaxpr), ``out_info`` (the outputs' `ShapeDtypeStruct` pytree),
    ``in_avals``/``out_avals``, ``fun_name`` and `lower`.

    Example::

        >>> import fgrad
        >>> import fgrad.numpy as jnp
        >>> traced = fgrad.jit(lambda x: x * 2).trace(jnp.array([1.0, 2.0]))
        >>> isinstance(traced, fgrad.stages.Traced)
        True
        >>> traced.out_info
        ShapeDtypeStruct(shape=(2,), dtype=float64)
    """

    def __init__(self, entry, flat, jitted, fun_name: str, lowering: tuple = ()) -> None:
        self._entry, self._flat, self._jitted = entry, flat, jitted
        self.fun_name = fun_name
        self._lowering = lowering  # `Lowered`'s (leaves, in_tree, static, donated) for this call

    @property
    def jaxpr(self) -> ClosedJaxpr:
        closed = self._entry.closed
        return ClosedJaxpr(closed.jaxpr, [wrap(c) for c in closed.consts])

    @property
    def out_info(self) -> Any:
        return _shape_structs(self._entry.closed)

    @property
    def in_avals(self) -> list:
        return [v.aval for v in self._entry.closed.jaxpr.invars]

    @property
    def out_avals(self) -> list:
        return [v.aval for v in self._entry.closed.jaxpr.outvars]

    def lower(self, *, lowering_platforms: Any = None) -> Lowered:
        """The `Lowered` program, as ``jit(f).lower`` with the traced call's arguments gives it
        (the same argument tree, static arguments and donations)."""
        return Lowered(self._entry, self._flat, self._jitted, self.fun_name, *self._lowering)


class Compiled:
    """What ``jit(f).lower(*args).compile()`` returns (JAX's ``jax.stages.Compiled``):
    callable with the arguments the jitted function takes (through the jitted function's
    cache, which holds this program when it was traced from concrete arguments);
    the executable's ``source``, ``stats``, ``kernels``, ``run`` ... are its attributes.

    Example::

        >>> import fgrad
        >>> import fgrad.numpy as jnp
        >>> compiled = fgrad.jit(lambda x: x * 2).lower(jnp.array([1.0, 2.0])).compile()
        >>> isinstance(compiled, fgrad.stages.Compiled)
        True
        >>> compiled(jnp.array([3.0, 4.0]))
        Array([6., 8.], dtype=float64)
    """

    def __init__(self, executable, jitted, types=None, leaves=None, fname: str = "fn", lowered=None) -> None:
        self._executable, self._jitted = executable, jitted
        self._types, self._leaves, self._fname = types, leaves, fname
        self._lowered = lowered

    in_tree = property(lambda self: self._lowered.in_tree, doc="The dynamic arguments' tree.")
    out_tree = property(lambda self: self._lowered.out_tree, doc="The outputs' tree.")
    out_info = property(lambda self: self._lowered.out_info, doc="The outputs' `ShapeDtypeStruct` pytree.")
    args_info = property(lambda self: self._lowered.args_info, doc="The arguments' `ArgInfo` pytree.")

    @property
    def input_shardings(self) -> Any:
        """The arguments' shardings, as ``(args, kwargs)`` (JAX's ``Compiled.input_shardings``):
        each array's recorded `NamedSharding`, else its device's `SingleDeviceSharding`."""
        lo = self._lowered
        return tree_unflatten(lo.in_tree, [sharding_flow.recorded(x) or _device_sharding(x)
                                           for x in lo._flat])

    @property
    def output_shardings(self) -> Any:
        """The results' shardings (JAX's ``Compiled.output_shardings``), by the rules of
        `fgrad.core.sharding_flow` for the arguments it was lowered with."""
        lo = self._lowered
        where = next((_device_sharding(x) for x in lo._flat if type(x) is ArrayImpl), None)
        found = sharding_flow.output_shardings(lo._entry.closed.jaxpr, lo._flat)
        return tree_unflatten(lo.out_tree, [s or where or _device_sharding(None) for s in found])

    def cost_analysis(self) -> dict[str, float]:
        """Estimated costs of one call (JAX's dict of XLA's estimates; fgrad counts its own
        program): ``"flops"`` (2 M N K per contraction, one per output element of every
        other equation), ``"transcendentals"`` (one per element of ``exp``, ``tanh``, ``sin``
        ..., which are not flops, as XLA counts) and ``"bytes accessed"`` (the arguments and
        results)."""
        return self._lowered.cost_analysis()

    def memory_analysis(self) -> MemoryStats:
        """Argument, output and (an upper bound of the) temporary sizes in bytes."""
        return memory_stats(self._lowered._entry.closed.jaxpr)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        static = self._lowered._static if self._lowered is not None else None
        if static is not None and (static[1] or static[2]):  # JAX's Compiled takes the dynamic ones only
            nargs, by_pos, by_name = static
            if len(args) != nargs - len(by_pos) or set(kwargs) & set(by_name):
                raise TypeError(
                    "Function compiled with input pytree does not match the input pytree it was called "
                    f"with: {self._fname} was compiled for {nargs - len(by_pos)} positional arguments (its "
                    f"static arguments {sorted(by_pos)} {sorted(by_name)} were fixed at lowering), but now "
                    f"given {len(args)}")
            rest = iter(args)
            args = tuple(by_pos[i] if i in by_pos else next(rest) for i in range(nargs))
            kwargs = {**kwargs, **by_name}
        if self._leaves is not None:
            got = [_shape_dtype(x) for x in self._leaves(args, kwargs)]
            if got != self._types:
                bad = [f"argument {i}: compiled with {_type_str(w)} and called with {_type_str(g)}"
                       for i, (w, g) in enumerate(zip(self._types, got)) if w != g]
                if len(got) != len(self._types):
                    bad.append(f"compiled for {len(self._types)} array arguments, called with {len(got)}")
                raise TypeError(
                    "Argument types differ from the types for which this computation was compiled "
                    f"({self._fname}; a Compiled takes those only: call the jitted function to compile "
                    "for new ones). The mismatches are:\n" + "\n".join(bad))
        return self._jitted(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.__dict__["_executable"], name)

    def as_text(self, *, debug_info: bool = False) -> str:
        """The compiled program's source (JAX's optimized HLO text; fgrad's generated code)."""
        return self._executable.as_text()

    def __repr__(self) -> str:
        return repr(self._executable)


class ArgInfo:
    """An argument of a lowered program (JAX's ``jax.stages.ArgInfo``): its abstract value
    (``_aval``, a `ShapedArray`: ``shape``, ``dtype``, weak type) and whether it is
    ``donated`` (``jit(..., donate_argnums=...)``).

    Example::

        >>> import fgrad, fgrad.numpy as jnp
        >>> fgrad.jit(lambda x: x, donate_argnums=0).lower(jnp.ones(2)).args_info[0][0]
        ArgInfo(_aval=ShapedArray(float64[2]), donated=True)
    """

    __slots__ = ("_aval", "donated")

    def __init__(self, _aval: Any, donated: bool = False) -> None:
        self._aval, self.donated = _aval, bool(donated)

    shape = property(lambda self: tuple(self._aval.shape), doc="The argument's shape.")
    dtype = property(lambda self: np.dtype(self._aval.dtype), doc="The argument's dtype.")

    def __eq__(self, other: Any) -> bool:
        return type(other) is ArgInfo and (self._aval, self.donated) == (other._aval, other.donated)

    def __hash__(self) -> int:
        return hash((self.shape, self.dtype, self.donated))

    def __repr__(self) -> str:
        return f"ArgInfo(_aval={self._aval!r}, donated={self.donated})"


def _arg_aval(x) -> ShapedArray:
    """The `ShapedArray` (weak type included) of an argument leaf: an array, a Python
    scalar or a `ShapeDtypeStruct`."""
    if isinstance(x, ShapeDtypeStruct):
        return ShapedArray(tuple(x.shape), np.dtype(x.dtype), bool(getattr(x, "weak_type", False)))
    av = get_aval(x)
    return ShapedArray(tuple(av.shape), np.dtype(av.dtype), bool(getattr(av, "weak_type", False)))


def _shape_dtype(x) -> tuple:
    """(shape, dtype) of an argument leaf: an array, a Python scalar or a `ShapeDtypeStruct`."""
    if isinstance(x, ShapeDtypeStruct):
        return tuple(x.shape), np.dtype(x.dtype)
    av = get_aval(x)
    return tuple(av.shape), np.dtype(av.dtype)


def _type_str(t: tuple) -> str:
    return f"{t[1]}[{','.join(map(str, t[0]))}]"


class Lowered:
    """What `jit(f).lower(*args)` returns: the traced program (``jaxpr``), the optimized one
    (``optimized``) and, via `compile`, the executable (a callable `Compiled`).

    Example::

        >>> import fgrad
        >>> import fgrad.numpy as jnp
        >>> lowered = fgrad.jit(lambda x: x * 2).lower(jnp.array([1.0, 2.0]))
        >>> isinstance(lowered, fgrad.stages.Lowered)
        True
        >>> lowered.compile()(jnp.array([3.0, 4.0]))
        Array([6., 8.], dtype=float64)
    """

    def __init__(self, entry, flat, jitted=None, fname: str = "fn", leaves=None, in_tree=None,
                 static=None, donated: list[bool] | None = None) -> None:
        self._donated = donated if donated is not None else [False] * len(flat)
        self._entry, self._flat, self._jitted, self._fname = entry, flat, jitted, fname
        self._static = static  # (number of positional arguments, static ones by position, by name)
        self._leaves = leaves  # (args, kwargs) -> the call's flat dynamic leaves
        self._compiled = None
        self._in_tree = in_tree if in_tree is not None else tree_flatten(((*flat,), {}))[1]

    @property
    def in_tree(self) -> Any:
        """The tree of the dynamic arguments, ``((args...), {kwargs})`` (static ones left out)."""
        return self._in_tree

    @property
    def out_tree(self) -> Any:
        return self._entry.closed.out_tree

    @property
    def out_info(self) -> Any:
        """The outputs' `ShapeDtypeStruct` pytree."""
        return _shape_structs(self._entry.closed)

    @property
    def args_info(self) -> Any:
        """The dynamic arguments' `ArgInfo` (shape, dtype, donated) in the tree ``in_tree``."""
        infos = [ArgInfo(_arg_aval(x), d) for x, d in zip(self._flat, self._donated)]
        return tree_unflatten(self._in_tree, infos)

    @property
    def jaxpr(self) -> Jaxpr:
        return self._entry.closed.jaxpr

    @property
    def consts(self) -> list:
        """Values of ``jaxpr.constvars`` (the constants the trace captured)."""
        return self._entry.closed.consts

    def compile(self, compiler_options: dict[str, Any] | None = None) -> Compiled:
        """The compiled program: a `Compiled`, callable like the jitted function, with the
        `fgrad.compile.Executable`'s ``.source``, ``.stats``, ``.kernels``."""
        if self._compiled is None:
            bufs = [x._buf if type(x) is ArrayImpl else x for x in self._flat
                    if not isinstance(x, ShapeDtypeStruct)]
            exe = self._entry.closed.executable(_xp_of(bufs, self._entry.closed))
            types = [_shape_dtype(x) for x in self._flat]
            self._compiled = Compiled(exe, self._jitted, types, self._leaves, self._fname, self)
        return self._compiled

    def cost_analysis(self) -> dict[str, float]:
        """Estimated costs of one call, before compiling (JAX's ``Lowered.cost_analysis()``,
        XLA's estimates; fgrad counts its own program): ``"flops"`` (2 M N K per contraction,
        one per output element of every other equation), ``"transcendentals"`` (one per
        element of ``exp``, ``tanh``, ``sin`` ..., not flops, as XLA counts) and ``"bytes
        accessed"`` (the arguments and results).

        Example::

            >>> import fgrad, fgrad.numpy as jnp
            >>> lowered = fgrad.jit(lambda a, b: a @ b).lower(jnp.ones((2, 3)), jnp.ones((3, 4)))
            >>> lowered.cost_analysis()["flops"]
            48.0
        """
        return program_costs(self._entry.closed.jaxpr)

    @property
    def optimized(self):
        return self.compile().program

    def as_text(self, dialect: str | None = None, *, debug_info: bool = False) -> str:
        """The program as text: its jaxpr, or for a ``dialect`` (``"hlo"``, ``"stablehlo"``)
        the optimized program in HLO's layout (`compiler_ir`; fgrad has no XLA)."""
        return str(self.jaxpr) if dialect is None else str(self.compiler_ir(dialect))

    def compiler_ir(self, dialect: str | None = None) -> CompilerIR:
        """The optimized program in HLO's text layout (``.as_hlo_text()``, ``str()``), for
        any ``dialect`` (``"hlo"``, ``"stablehlo"``): fgrad has no XLA, the text shows the
        program its compiler runs (`fgrad.compile.ir_text`)."""
        if dialect not in (None, "hlo", "stablehlo", "mhlo"):
            raise ValueError(f"compiler_ir: unknown dialect {dialect!r}")
        return CompilerIR(self.optimized, "jit_" + _sanitized(self._fname))


def _sanitized(name: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in name)


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
        LOG.info("compiling %s for (%s%s%s)", fname, shown, ", " if shown and st else "", st)
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
    if prev[4] != key[4]:
        was, now = dict(prev[4]) or "defaults", dict(key[4]) or "defaults"
        changes.append(f"tracing options changed {was} -> {now}")
    if prev[5] != key[5]:
        changes.append(f"default device changed {prev[5]} -> {key[5]}")
    if prev[2] != key[2]:
        changes.append(f"argument structure changed {prev[2]} -> {key[2]}")
    else:
        for lb, a, b in zip(labels, prev[3], leaves):
            if a != b:
                changes.append(f"argument {lb} changed {_fmt_leaf(a)} -> {_fmt_leaf(b)}")
    LOG.info("recompiling %s (compile #%d): %s", fname, len(cache) + 1,
             "; ".join(changes) or "new signature")


def _static_label(i, pnames):
    return repr(pnames[i]) if i < len(pnames) else f"#{i}"


def _trace(fun, args, snums, kwargs, static_argnames, tree, flat):
    where = origin(f"jit of {getattr(fun, '__name__', 'function')}")
    with new_trace(StagingTrace, where, partial=False, hint=JIT_HINT) as trace:
        tracers = [trace.new_arg(get_aval(x)) for x in flat]
        dyn, dyn_kwargs = tree_unflatten(tree, tracers)
        it = iter(dyn)
        full = [args[i] if i in snums else next(it) for i in range(len(args))]
        kw = {**{k: v for k, v in kwargs.items() if k in static_argnames}, **dyn_kwargs}
        out = fun(*full, **kw)
        flat_out, out_tree = tree_flatten(out)
        jaxpr, consts = trace.to_jaxpr(flat_out)
    return close(jaxpr, consts, out_tree, getattr(fun, "__name__", "jit"))


def _trace_avals(fun, static_argnums, args, kwargs):
    """Trace ``fun(*args, **kwargs)`` (arrays, or `ShapeDtypeStruct` stand-ins) to
    ``(closed program, output tree)``."""
    if isinstance(static_argnums, int):
        static_argnums = (static_argnums,)
    nargs = len(args)
    snums = tuple(i % nargs for i in static_argnums)
    dyn = [a for i, a in enumerate(args) if i not in snums]
    flat, tree = tree_flatten((dyn, kwargs))
    # Python scalars stay as they are: traced weakly typed, as jit traces them (JAX's avals)
    flat = [x if isinstance(x, (Tracer, ArrayImpl, ShapeDtypeStruct)) or type(x) in _PY_SCALARS
            else _asarray(x) for x in flat]
    return _trace(fun, args, snums, kwargs, (), tree, flat)


def _shape_structs(closed) -> Any:
    return tree_unflatten(closed.out_tree, [
        ShapeDtypeStruct(v.aval.shape, v.aval.dtype, weak_type=v.aval.weak_type)
        for v in closed.jaxpr.outvars])


def make_jaxpr(fun: Callable[..., Any], static_argnums: int | Sequence[int] = (), axis_env: Any = None,
               return_shape: bool = False, abstracted_axes: Any = None) -> Callable[..., Any]:
    """Returns a function that traces ``fun`` and returns its `ClosedJaxpr` (printable IR;
    ``.jaxpr``, ``.consts``, ``.eqns``, ``.in_avals``, ``.out_avals``).  Arguments may be
    arrays or `ShapeDtypeStruct` stand-ins; ``return_shape=True`` also returns the outputs'
    shapes as a pytree of `ShapeDtypeStruct`.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> print(fgrad.make_jaxpr(lambda x: fnp.sin(x) + 1.0)(fnp.zeros(3)))
        { lambda ; a:f64[3]. let b:f64[3] = sin a; c:f64[3] = add b 1.0:f64[] in (c,) }
    """
    if axis_env is not None or abstracted_axes is not None:
        raise NotImplementedError("make_jaxpr: axis_env and abstracted_axes are not supported")

    def make(*args, **kwargs):
        closed, _ = _trace_avals(fun, static_argnums, args, kwargs)
        cj = ClosedJaxpr(closed.jaxpr, [wrap(c) for c in closed.consts])
        return (cj, _shape_structs(closed)) if return_shape else cj

    return make


def eval_shape(fun: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """The shapes and dtypes of ``fun(*args, **kwargs)`` as a pytree of `ShapeDtypeStruct`,
    without computing anything (``fun`` is traced; arguments may be arrays or
    `ShapeDtypeStruct` stand-ins).

    Example::

        >>> import fgrad, fgrad.numpy as fnp, numpy as np
        >>> fgrad.eval_shape(lambda a, b: a @ b, fgrad.ShapeDtypeStruct((2, 3), np.float32),
        ...                  fnp.ones((3, 4), "float32"))
        ShapeDtypeStruct(shape=(2, 4), dtype=float32)
    """
    closed, _ = _trace_avals(fun, (), args, kwargs)
    return _shape_structs(closed)


class disable_jit:
    """Context manager: run jitted functions eagerly (op by op), for debugging.

    Example::

        >>> import fgrad
        >>> import fgrad.numpy as jnp
        >>> def f(x):
        ...     print(type(x).__name__)
        ...     return x + 1
        ...
        >>> with fgrad.disable_jit():
        ...     y = fgrad.jit(f)(jnp.array(1.0))
        ...
        ArrayImpl
        >>> y
        Array(2., dtype=float64, weak_type=True)
    """

    active = False  # the user's setting
    # what jitted functions read: the user's setting, or the NaN/inf checks being on (they
    # run every operation of a jitted function eagerly, so each one is checked and named)
    eager = CHECKS["on"]

    def __enter__(self):
        self._saved = disable_jit.active
        _set_disable_jit(True)
        return self

    def __exit__(self, *exc):
        _set_disable_jit(self._saved)


def _set_disable_jit(value: bool) -> None:
    disable_jit.active = bool(value)
    disable_jit.eager = disable_jit.active or CHECKS["on"]


on_option_change("jax_disable_jit", _set_disable_jit)
on_option_change("jax_debug_nans", lambda _: _set_disable_jit(disable_jit.active))
on_option_change("jax_debug_infs", lambda _: _set_disable_jit(disable_jit.active))




def jit_when_staged(fun: Callable[..., Any], static_argnums: Sequence[int] = (),
                    static_argnames: Iterable[str] = ()) -> Callable[..., Any]:
    """``fun``, staged as ``jit[name=<its name>]`` when called while a program is traced, as
    JAX's ``@jit``-decorated library functions (``jnp.clip``, ``jnp.cumsum``, ``nn.relu``)
    appear in its jaxprs; an eager call (or one under another transform) runs ``fun``
    directly, without jit's dispatch.  ``static_argnums``/``static_argnames`` as for `jit`.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> double = jit_when_staged(lambda x: x * 2.0)
        >>> [e.primitive.name for e in fgrad.make_jaxpr(double)(1.0).eqns], double(1.0)
        (['jit'], 2.0)
    """
    jitted = jit(fun, static_argnums=static_argnums, static_argnames=static_argnames)

    @functools.wraps(fun)
    def staged_as_jit(*args, **kwargs):
        trace = state.trace
        if type(trace) is StagingTrace and not trace.partial:
            return jitted(*args, **kwargs)
        return fun(*args, **kwargs)

    return staged_as_jit


__all__ = ["jit", "jit_when_staged", "make_jaxpr", "disable_jit", "jit_p", "Closed", "Lowered"]
