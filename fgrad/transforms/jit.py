"""`jit`: trace a function once per input signature to a jaxpr, then run the jaxpr.

``jit(f)(*args)`` flattens the arguments, keys a cache by (static arguments, pytree
structure, shapes, dtypes, weak types, backend), and on a miss traces ``f`` with a fully
staging `StagingTrace` into a closed jaxpr.  The call then binds the higher-order `jit_p`
primitive, whose implementation runs the program through a flat executor (`compile_jaxpr`)
and whose jvp and batching rules re-enter the program under the transform, so ``jit``
composes with every other transform in both directions.

Status: tracing, caching, static arguments, `make_jaxpr` and composition are here; the
optimizing pipeline (DCE/CSE/fusion) of DESIGN.md §4 is the next step (see the jit issue).
"""

from __future__ import annotations

import functools
import inspect
import os

import numpy as np

from ..core.array import ArrayImpl, Tracer, get_aval
from ..core.ir import Jaxpr, Literal, eval_jaxpr
from ..core.primitive import Primitive
from ..core.trace import new_trace, origin
from ..tree_util import tree_flatten, tree_unflatten
from .staging import StagingTrace

_JIT_HINT = (
    "\nInside jit, arguments are abstract (only shapes and dtypes are known). Fixes: mark the "
    "argument static with `jit(f, static_argnums=...)`/`static_argnames`, use "
    "`fgrad.lax.cond`/`fgrad.numpy.where` for data-dependent choices, or call the function "
    "without jit."
)

LOG_COMPILES = os.environ.get("FGRAD_LOG_COMPILES", "") not in ("", "0")


class _ClosedJaxpr:
    """A jaxpr with its constants, hashed by identity (cached per signature)."""

    __slots__ = ("jaxpr", "consts", "out_tree", "executor", "__weakref__")

    def __init__(self, jaxpr: Jaxpr, consts, out_tree) -> None:
        self.jaxpr, self.consts, self.out_tree = jaxpr, consts, out_tree
        self.executor = None

    def __repr__(self) -> str:
        return str(self.jaxpr)


def compile_jaxpr(jaxpr: Jaxpr):
    """Generate straight-line Python for ``jaxpr``: one call per equation on backend buffers
    (a ufunc call directly where the primitive is a plain ufunc), with each intermediate
    released (``del``) after its last use.  Returns ``run(xp, bufs) -> list of buffers``
    taking constants then inputs."""
    names: dict[int, str] = {}
    ns: dict[str, object] = {}
    lines = []
    counter = iter(range(1 << 30))

    def fresh(prefix="r"):
        return f"{prefix}{next(counter)}"

    def ref(v):
        if type(v) is Literal:
            key = fresh("k")
            ns[key] = v.val
            return key
        return names[id(v)]

    params_in = []
    for v in list(jaxpr.constvars) + list(jaxpr.invars):
        n = fresh("a")
        names[id(v)] = n
        params_in.append(n)
    last_use: dict[int, int] = {}
    for i, e in enumerate(jaxpr.eqns):
        for v in e.invars:
            if type(v) is not Literal:
                last_use[id(v)] = i
    keep = {id(v) for v in jaxpr.outvars if type(v) is not Literal}
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
            names[id(v)] = n
        if e.prim.multiple_results:
            lines.append(f"    {', '.join(outs)}{',' if len(outs) == 1 else ''} = {call}")
        else:
            lines.append(f"    {outs[0]} = {call}")
        dead = sorted({names[id(v)] for v in e.invars if type(v) is not Literal
                       and last_use.get(id(v)) == i and id(v) not in keep})
        if dead:
            lines.append(f"    del {', '.join(dead)}")
    rets = ", ".join(ref(v) for v in jaxpr.outvars)
    lines.append(f"    return [{rets}]")
    unpack = f"    {', '.join(params_in)}{',' if len(params_in) == 1 else ''} = bufs\n" if params_in else ""
    src = "def run(xp, bufs):\n" + unpack + "\n".join(lines) + "\n"
    exec(compile(src, "<fgrad generated>", "exec"), ns)
    run = ns["run"]
    run.source = src  # type: ignore[attr-defined]
    return run


def _jit_impl(xp, *bufs, closed, num_consts):
    if closed.executor is None:
        closed.executor = compile_jaxpr(closed.jaxpr)
    return closed.executor(xp, list(bufs))


def _jit_abstract(*avals, closed, num_consts):
    return [v.aval for v in closed.jaxpr.outvars]


jit_p = Primitive("jit", _jit_impl, _jit_abstract, multiple_results=True, family="higher-order")


def _jit_jvp(primals, tangents, closed, num_consts):
    from .ad import jvp, zeros_like_tangent

    def f(*args):
        return eval_jaxpr(closed.jaxpr, args[:num_consts], args[num_consts:])

    tangents = [zeros_like_tangent(p) if t is None else t for p, t in zip(primals, tangents)]
    return jvp(f, tuple(primals), tuple(tangents))


def _jit_batch(axis_size, vals, dims, closed, num_consts):
    from .batching import vmap

    def f(*args):
        return eval_jaxpr(closed.jaxpr, args[:num_consts], args[num_consts:])

    outs = vmap(f, in_axes=tuple(dims), axis_size=axis_size)(*vals)
    return outs, [0] * len(outs)


jit_p.jvp = _jit_jvp
jit_p.batch = _jit_batch


def _signature_key(flat):
    key = []
    for x in flat:
        av = get_aval(x)
        key.append((av.shape, av.dtype, av.weak_type, type(x._buf).__module__ if type(x) is ArrayImpl else ""))
    return tuple(key)


def _hashable_static(v, name):
    try:
        hash(v)
    except TypeError:
        raise TypeError(
            f"jit: static argument {name} has unhashable type {type(v).__name__}; static "
            "arguments are cache keys and must be hashable (use a tuple instead of a list, or "
            "pass it as a regular (traced) argument)."
        ) from None
    return v


def jit(fun=None, *, static_argnums=(), static_argnames=(), donate_argnums=()):
    """Compile ``fun``: trace once per argument signature, then reuse the program.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> f = fgrad.jit(lambda x: fnp.sin(x) * 2)
        >>> f(fnp.zeros(2))
        Array([0., 0.], dtype=float64)
    """
    if fun is None:
        return functools.partial(jit, static_argnums=static_argnums, static_argnames=static_argnames)
    if isinstance(static_argnums, int):
        static_argnums = (static_argnums,)
    if isinstance(static_argnames, str):
        static_argnames = (static_argnames,)
    try:
        sig = inspect.signature(fun)
    except (TypeError, ValueError):
        sig = None
    static_argnums = tuple(static_argnums)
    if sig is not None:
        params = list(sig.parameters)
        static_argnums += tuple(params.index(n) for n in static_argnames if n in params and params.index(n) not in static_argnums)
    cache: dict = {}

    @functools.wraps(fun)
    def jitted(*args, **kwargs):
        if disable_jit.active:
            return fun(*args, **kwargs)
        if sig is not None and kwargs:
            bound = sig.bind(*args, **kwargs)
            args, kwargs = tuple(bound.args), dict(bound.kwargs)
        nargs = len(args)
        snums = tuple(i % nargs for i in static_argnums if -nargs <= i < nargs)
        statics = tuple((i, _hashable_static(args[i], f"#{i}")) for i in snums)
        skw = tuple(sorted((k, _hashable_static(v, repr(k))) for k, v in kwargs.items() if k in static_argnames))
        dyn_kwargs = {k: v for k, v in kwargs.items() if k not in static_argnames}
        dyn = [a for i, a in enumerate(args) if i not in snums]
        flat, tree = tree_flatten((dyn, dyn_kwargs))
        flat = [x if isinstance(x, (Tracer, ArrayImpl)) or type(x) in (int, float, bool, complex)
                else _asarray(x) for x in flat]
        key = (statics, skw, tree, _signature_key(flat))
        closed = cache.get(key)
        if closed is None:
            if LOG_COMPILES:
                _log_compile(fun, key, cache)
            closed = _trace(fun, args, snums, kwargs, static_argnames, tree, flat)
            cache[key] = closed
        outs = jit_p.bind(*closed.consts, *flat, closed=closed, num_consts=len(closed.consts))
        return tree_unflatten(closed.out_tree, outs)

    jitted._cache = cache  # type: ignore[attr-defined]
    jitted.lower = lambda *a, **k: make_jaxpr(fun, static_argnums=static_argnums)(*a, **k)  # type: ignore
    return jitted


def _asarray(x):
    from .. import numpy as fnp

    return fnp.asarray(x)


def _log_compile(fun, key, cache):
    name = getattr(fun, "__name__", "function")
    if not cache:
        print(f"[fgrad] compiling {name} for {_fmt_key(key)}")
        return
    prev = next(reversed(cache))
    changes = []
    if prev[0] != key[0] or prev[1] != key[1]:
        changes.append(f"static arguments {prev[0] + prev[1]} -> {key[0] + key[1]}")
    if prev[2] != key[2]:
        changes.append("argument structure changed")
    for i, (a, b) in enumerate(zip(prev[3], key[3])):
        if a[:2] != b[:2]:
            changes.append(f"argument {i}: {a[1]}{list(a[0])} -> {b[1]}{list(b[0])}")
    print(f"[fgrad] recompiling {name}: " + ("; ".join(changes) or "new signature"))


def _fmt_key(key):
    return ", ".join(f"{k[1]}{list(k[0])}" for k in key[3])


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
    return _ClosedJaxpr(jaxpr, consts, out_tree)


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
        closed = _trace(fun, args, snums, kwargs, (), tree, flat)
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


__all__ = ["jit", "make_jaxpr", "disable_jit", "jit_p", "np"]
