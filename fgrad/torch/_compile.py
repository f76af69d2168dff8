"""``torch.compile``: a module's or function's call traced into one fused fgrad program.

A compiled call looks up a cache keyed by what the trace depends on (its *guards*): the
pytree structure and the non-tensor values of the arguments, and for each tensor it reads --
the arguments, the parameters and buffers of the modules it can reach (the compiled module,
or the modules and tensors a function's closure and globals name) -- its shape, dtype,
device and ``requires_grad``; grad mode and the default dtype; the ``training`` flags of the
modules the trace called; the versions of the tensors it baked in as constants.  On a miss
it *traces*: every one of those tensors holds a tracer for the duration of one call (their
``_buf`` is swapped, so the code reaches them by any path it likes) and the shim's ops run
their fgrad definitions on the tracers (functional mode), under ``fgrad.jit``.  Parameters
are inputs of the program, never constants, so an optimizer's in-place update is seen by
the next call without retracing.

Without gradients a call runs the compiled program.  When some input requires grad, the
program's JVP is split once per signature into a forward program (inputs -> outputs,
residuals) and a backward program (residuals, output cotangents -> input cotangents), both
compiled by the fusing pipeline; the outputs join the shim's autograd graph through ONE
node, ``CompiledFunctionBackward``, that runs the backward program on the saved residuals.
In-place updates of buffers during the trace (BatchNorm's running statistics) are extra
outputs, written back after each call.  ``torch.rand``/``randn`` (hence dropout) draw from
a key that is an input of the program, drawn afresh from the default generator on each call.

What cannot be traced (``if`` on a tensor's value, ``.item()``, ``print``, NumPy on a
tensor, random draws other than ``rand``/``randn``, functions under
``torch.compiler.disable``, an op without an fgrad definition) is a *graph break*:
``fullgraph=True`` raises `Unsupported`; otherwise that signature runs eagerly, with a
one-line warning (once) saying why.

Example::

    >>> import fgrad.torch as torch
    >>> model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
    >>> fast = torch.compile(model)
    >>> loss = fast(torch.ones(2, 4)).sum()
    >>> loss.backward()
    >>> model[0].weight.grad.shape
    torch.Size([8, 4])
"""

from __future__ import annotations

import builtins
import functools
import types
import warnings
import weakref
from typing import Any, Callable

import numpy as np

import fgrad
import fgrad.torch._device as _dev
import fgrad.torch._dispatch as _dispatch
import fgrad.torch._dtypes as D
import fgrad.torch._random as _random
import fgrad.torch.autograd.graph as G
import fgrad.torch.nn.modules.module as _module_mod
from ..core.array import ArrayImpl, Tracer
from ..core.array import wrap as _awrap
from ..core.ir import eval_jaxpr
from ..transforms.backward_program import stage
from ..transforms.jit_primitive import Closed
from ._device import DEV as _DEV
from ._tensor import Tensor, _wrap
from .autograd.grad_mode import STATE
from .nn.modules.module import Module

_nd = np.ndarray


class TorchDynamoException(RuntimeError):
    """Base of the compiler's errors (``torch._dynamo.exc.TorchDynamoException``)."""


class Unsupported(TorchDynamoException):
    """A graph break under ``fullgraph=True`` (``torch._dynamo.exc.Unsupported``)."""


class InvalidBackend(TorchDynamoException):
    """An unknown ``backend=`` (``torch._dynamo.exc.InvalidBackend``)."""


class _GraphBreak(Exception):
    """Raised inside a trace for something the program cannot contain."""


class config:
    """``torch._dynamo.config``: the options this compiler reads."""

    #: traces kept per compiled callable before it runs eagerly (PyTorch's recompile limit)
    cache_size_limit = 8
    recompile_limit = 8
    suppress_errors = False


_BACKENDS = ("inductor", "eager", "aot_eager", "cudagraphs")
_MODES = ("default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs")

# every compiled callable, for `reset`
_ALL: weakref.WeakSet = weakref.WeakSet()
# > 0 while a trace runs (nested compiled callables inline) or while `disable` is active
_STATE = {"tracing": 0, "disabled": 0}
_WARNED: set = set()


def is_compiling() -> bool:
    """True while ``torch.compile`` traces (``torch.compiler.is_compiling``).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.compiler.is_compiling()
        False
    """
    return _STATE["tracing"] > 0


def reset() -> None:
    """Forget every compiled program (``torch.compiler.reset`` / ``torch._dynamo.reset``).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.compiler.reset()
    """
    for c in list(_ALL):
        c._cache.clear()
        c._extra.clear()
        c._n_traces = 0
    _WARNED.clear()


def disable(fn: Callable | None = None, recursive: bool = True, *, reason: str | None = None) -> Any:
    """Run ``fn`` eagerly, never traced (``torch.compiler.disable``): inside a compiled call it
    is a graph break; compiled callables it calls run eagerly.  Usable as a decorator.

    Example::

        >>> import fgrad.torch as torch
        >>> @torch.compiler.disable
        ... def log(x):
        ...     return x
        >>> log(torch.ones(1))
        tensor([1.])
    """
    if fn is None:
        return functools.partial(disable, recursive=recursive, reason=reason)

    @functools.wraps(fn)
    def eager(*args, **kwargs):
        if _STATE["tracing"]:
            raise _GraphBreak(f"call to a function under torch.compiler.disable ({_name(fn)})"
                              + (f": {reason}" if reason else ""))
        _STATE["disabled"] += 1
        try:
            return fn(*args, **kwargs)
        finally:
            _STATE["disabled"] -= 1

    eager._torchdynamo_disable = True
    return eager


def _name(fn) -> str:
    return getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or type(fn).__name__


# -- argument pytrees ----------------------------------------------------------------------


def _flatten(x, tensors: list, statics: list):
    """The structure of ``x`` with tensors replaced by their position in ``tensors``."""
    if isinstance(x, Tensor):
        tensors.append(x)
        return ("T",)
    if type(x) in (list, tuple):
        return (type(x), tuple(_flatten(e, tensors, statics) for e in x))
    if type(x) is dict:
        return (dict, tuple((k, _flatten(v, tensors, statics)) for k, v in x.items()))
    if isinstance(x, tuple) and hasattr(x, "_fields"):  # named tuple
        return (type(x), tuple(_flatten(e, tensors, statics) for e in x))
    statics.append(x)
    return ("S",)


def _unflatten(spec, tensors, statics, pos):
    tag = spec[0]
    if tag == "T":
        pos[0] += 1
        return tensors[pos[0] - 1]
    if tag == "S":
        pos[1] += 1
        return statics[pos[1] - 1]
    kind, items = spec
    if kind is dict:
        return {k: _unflatten(v, tensors, statics, pos) for k, v in items}
    vals = [_unflatten(e, tensors, statics, pos) for e in items]
    if kind in (list, tuple):
        return kind(vals)
    return kind(*vals)


def _static_key(v):
    """A hashable stand-in of a non-tensor argument (modules and functions by identity)."""
    if isinstance(v, (int, float, complex, str, bytes, bool, type(None), D.dtype)):
        return (type(v), v)
    if isinstance(v, (Module, types.FunctionType, types.MethodType, type)):
        return ("id", id(v))
    try:
        hash(v)
    except TypeError:
        return ("id", id(v))
    return (type(v), v)


# -- what a call can reach -----------------------------------------------------------------


def _module_state(m: Module, out: list, mods: list) -> None:
    for sub in m.modules():
        mods.append(sub)
        for p in sub._parameters.values():
            if p is not None:
                out.append(p)
        for b in sub._buffers.values():
            if b is not None:
                out.append(b)


def _collect(v, out: list, mods: list, depth: int = 0) -> None:
    if isinstance(v, Tensor):
        out.append(v)
    elif isinstance(v, Module):
        _module_state(v, out, mods)
    elif depth == 0 and type(v) in (list, tuple):
        for e in v:
            _collect(e, out, mods, 1)
    elif depth == 0 and type(v) is dict:
        for e in v.values():
            _collect(e, out, mods, 1)


def _reachable(fn, out: list, mods: list) -> None:
    """Tensors and modules a function names: its bound ``self``, closure cells and the
    globals its code reads."""
    if isinstance(fn, functools.partial):
        for a in fn.args:
            _collect(a, out, mods)
        _reachable(fn.func, out, mods)
        return
    self = getattr(fn, "__self__", None)
    if self is not None:
        _collect(self, out, mods)
        fn = getattr(fn, "__func__", fn)
    code = getattr(fn, "__code__", None)
    if code is None:
        if isinstance(fn, Module):
            _module_state(fn, out, mods)
        return
    for cell in fn.__closure__ or ():
        try:
            _collect(cell.cell_contents, out, mods)
        except ValueError:  # an empty cell
            pass
    g = fn.__globals__
    for name in code.co_names:
        v = g.get(name)
        if v is not None and isinstance(v, (Tensor, Module, list, tuple, dict)):
            _collect(v, out, mods)


_SIMPLE = (int, float, bool, str, complex, type(None))


def _is_simple(v) -> bool:
    return type(v) in _SIMPLE or (type(v) is tuple and all(type(e) in _SIMPLE for e in v))


def _module_snapshot(m: Module) -> tuple:
    """A module's plain attributes (``training``, ``p``, ``eps``, ``scale``...): the trace read
    them as constants, so a change retraces."""
    return tuple((k, v) for k, v in m.__dict__.items() if _is_simple(v))


def _fn_snapshot(fn) -> tuple:
    """The plain values a function's closure cells and read globals hold (as above)."""
    fn = getattr(fn, "__func__", fn)
    code = getattr(fn, "__code__", None)
    if code is None:
        return ()
    out = []
    for cell in fn.__closure__ or ():
        try:
            v = cell.cell_contents
        except ValueError:
            continue
        if _is_simple(v):
            out.append(v)
    g = fn.__globals__
    for name in code.co_names:
        v = g.get(name, _is_simple)
        if _is_simple(v):
            out.append((name, v))
    return tuple(out)


# -- tracing helpers -----------------------------------------------------------------------


class _TracedRng:
    """``torch.rand``/``randn`` inside a trace: draws from the program's key input."""

    def __init__(self, key) -> None:
        self.key = key
        self.count = 0

    def draw(self, kind, shape, npd, requires_grad):
        k = fgrad.random.fold_in(self.key, self.count)
        self.count += 1
        f = fgrad.random.uniform if kind == "uniform" else fgrad.random.normal
        return _wrap(f(k, tuple(shape), npd))

    def refuse(self):
        raise _GraphBreak("a random draw other than torch.rand/randn (randint, bernoulli, normal_, "
                          "a generator= or out= argument)")


class _Seen:
    """Concrete tensors the trace's ops read: constants of the program."""

    def __init__(self) -> None:
        self.tensors: dict = {}

    def __call__(self, args) -> None:
        for a in args:
            if isinstance(a, Tensor):
                b = a._buf
                if type(b) is _nd or type(b) in _DEV:
                    self.tensors[id(a)] = a


def _traced_print(*args, **kwargs):
    raise _GraphBreak("print() (a Python side effect)")


def _module_hook(module, args, kwargs):
    """`Module.__call__` once torch.compile was used (see ``module.COMPILE_HOOK``)."""
    spied = _SPY[0]
    if spied is not None:
        d = module.__dict__
        if d["_backward_hooks"] or d["_backward_pre_hooks"]:
            raise _GraphBreak(f"{type(module).__name__} has backward hooks (the compiled backward would not "
                              "call them)")
        spied[id(module)] = module
        return module._call_uncompiled(*args, **kwargs)
    compiled = module.__dict__.get("_compiled_call_impl")
    if compiled is not None:
        return compiled(*args, **kwargs)
    return module._call_uncompiled(*args, **kwargs)


_SPY: list = [None]


# -- one traced signature ------------------------------------------------------------------


class _Entry:
    """A compiled signature: its program and what it needs to stay valid."""

    __slots__ = ("jf", "aot", "n_out", "out_spec", "out_statics", "mutated", "uses_rng", "modules",
                 "consts", "fallback", "held_outs", "first_outs")

    def __init__(self) -> None:
        self.fallback = None
        self.held_outs = None  # per output: True where the program hands back memory it keeps
        self.first_outs = None  # the first call's raw outputs, compared with the second call's
        self.modules = ()
        self.consts = ()
        self.aot = {}

    def valid(self) -> bool:
        for m, snapshot in self.modules:
            if _module_snapshot(m) != snapshot:
                return False
        for t, v in self.consts:
            vc = t._vc
            if (0 if vc is None else vc.v) != v:
                return False
        return True


def _held_outputs(entry: _Entry, raws: list) -> list:
    """Per output of a compiled call: whether its memory may outlive the call in the program
    (a constant made while tracing, `torch.arange(4.0) * 2`, or a buffer an executable reuses)
    and must be copied before the caller may write to it.  Unknown on the first call (every
    output is copied, the raw ones kept); the second call's outputs that overlap the first's
    are the held ones, for good."""
    if entry.held_outs is not None:
        return entry.held_outs
    if entry.first_outs is None:
        entry.first_outs = raws
        return [True] * len(raws)
    first, entry.first_outs = entry.first_outs, None
    held = []
    for b in raws:
        may_share = _dev.xp_of(b).may_share_memory
        held.append(any(type(f) is type(b) and may_share(b, f) for f in first))
    entry.held_outs = held
    return held


class _CompiledNode(G.Node):
    """The backward node of a compiled call: runs the compiled backward program on the
    residuals the compiled forward program saved."""

    def __init__(self, aot, residuals, out_meta, edges, saved) -> None:
        super().__init__()
        self._aot = aot
        self._res = residuals
        self._out_meta = out_meta
        self._next = edges
        self._saved = saved  # (tensor, version) of the inputs: modified in place, backward raises

    def _n_outputs(self) -> int:
        return len(self._out_meta)

    def _release(self) -> None:
        self._res = None

    def _apply(self, cts, create_graph):
        if create_graph:
            raise RuntimeError("torch.compile with aot_autograd does not currently support double backward")
        if self._res is None:
            raise RuntimeError(
                "Trying to backward through the graph a second time (or directly access saved tensors after "
                "they have already been freed). Saved intermediate values of the graph are freed when you "
                "call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward "
                "through the graph a second time or if you need to access saved tensors after calling "
                "backward.")
        for t, ver in self._saved:
            vc = t._vc
            if vc is not None and vc.v != ver:
                G._raise_modified(t._buf, vc.v, ver, None)
        aot = self._aot
        full = []
        for k, c in enumerate(cts):
            if not aot.ct_mask[k]:
                continue
            if c is None:
                shape, dt, di = self._out_meta[k]
                c = np.zeros(shape, dt) if di is None else _dev.full(shape, 0, dt, di)
            elif isinstance(c, Tensor):
                c = c._buf
            full.append(_conj(c))
        xp = _dev.xp_of(full[0]) if full else np
        grads = iter(aot.bwd.executable(xp).run(list(self._res) + full))
        out = []
        for m in aot.in_mask:
            out.append(_conj(next(grads)) if m else None)
        return out


def _conj(b):
    return b.conj() if b.dtype.kind == "c" else b


class _Aot:
    """A signature's forward (inputs -> outputs, residuals) and backward (residuals,
    cotangents -> input cotangents) programs, split from the traced program's JVP."""

    __slots__ = ("fwd", "bwd", "n_out", "ct_mask", "in_mask")


def _diff_mask(inputs: list) -> list:
    """Which inputs the backward differentiates: floating tensors that require grad (under
    grad mode; both are guarded, so a signature's mask never changes)."""
    if not STATE.enabled:
        return [False] * len(inputs)
    return [(t._rg or t._gfn is not None) and t._buf.dtype.kind in "fc" for t in inputs]


def _split_programs(flat, avals: list, diff_mask: list, name: str) -> _Aot | None:
    """Stage the JVP of the traced code ``flat`` (key, *input values) -> outputs at ``avals``
    and split it into the forward and backward programs.  Staged from the code itself, not
    from a program traced before: staging inlines ``custom_jvp``/``custom_vjp`` functions,
    so such a program has lost their rules (the shim writes PyTorch's derivative
    conventions, e.g. relu's 0 at 0, as such rules).  None when the staged backward holds
    values of the forward's trace (a ``custom_vjp``'s residuals: the backward staging cannot
    take them as inputs yet); the caller then splits the traced program instead."""

    def jvp(primals, tangents):
        dpos = [k for k, t in enumerate(tangents) if t is not None]

        def f(*d):
            full = list(primals)
            for k, v in zip(dpos, d, strict=True):
                full[k] = v
            return tuple(flat(*full))

        outs, t_outs = fgrad.jvp(f, tuple(primals[k] for k in dpos), tuple(tangents[k] for k in dpos))
        return list(outs), list(t_outs)

    bp = stage(jvp, avals, [False] + diff_mask, f"torch.compile({name})")
    if any(isinstance(c, Tracer) for c in (*bp.consts, *bp.bwd_consts)):
        return None
    aot = _Aot()
    aot.fwd = Closed(bp.primal, bp.consts, name=f"compiled {name} forward")
    aot.bwd = Closed(bp.backward, bp.bwd_consts, name=f"compiled {name} backward")
    aot.n_out = bp.n_out
    aot.ct_mask = bp.ct_mask
    aot.in_mask = bp.in_mask  # one per differentiable input
    return aot


_CompiledFunctionBackward = G.node_class("CompiledFunctionBackward", _CompiledNode)


def _meta(t: Tensor):
    b = t._buf
    return (b.shape, b.dtype.str, type(b), t._rg or t._gfn is not None)


def _is_traced(t: Tensor) -> bool:
    b = t._buf
    return type(b) is not _nd and type(b) not in _DEV


# -- the compiled callable -----------------------------------------------------------------


class _Compiled:
    """A compiled callable: ``fn`` traced once per signature (see the module docstring)."""

    def __init__(self, fn, *, name=None, fullgraph=False, dynamic=None, backend="inductor", mode=None,
                 options=None) -> None:
        self.fn = fn
        self.name = name or _name(fn)
        self.fullgraph = bool(fullgraph)
        self.dynamic = dynamic
        self.backend = backend
        self.mode = mode
        self.options = options
        self._cache: dict = {}
        self._extra: list = []  # tensors found during a trace that require grad: inputs too
        self._n_traces = 0
        self._eager = backend in ("eager", "aot_eager")
        _ALL.add(self)
        functools.update_wrapper(self, fn, updated=())
        _module_mod.COMPILE_HOOK[0] = _module_hook

    def __reduce__(self):
        """Copies and pickles hold the callable and the options, not the programs."""
        return (_Compiled._remake, (self.fn, self.name, self.fullgraph, self.dynamic, self.backend, self.mode,
                                    self.options))

    @staticmethod
    def _remake(fn, name, fullgraph, dynamic, backend, mode, options) -> _Compiled:
        return _Compiled(fn, name=name, fullgraph=fullgraph, dynamic=dynamic, backend=backend, mode=mode,
                         options=options)

    def __get__(self, obj, objtype=None):
        return self if obj is None else types.MethodType(self, obj)

    def __call__(self, *args, **kwargs):
        if self._eager or _STATE["tracing"] or _STATE["disabled"]:
            return self.fn(*args, **kwargs)
        tensors: list = []
        statics: list = []
        spec = _flatten((args, kwargs), tensors, statics)
        if any(_is_traced(t) for t in tensors):  # inside torch.func / fgrad transforms: inline
            return self.fn(*args, **kwargs)
        state: list = []
        mods: list = []
        _reachable(self.fn, state, mods)
        for s in statics:
            if isinstance(s, Module):  # a module passed in (``self`` of a compiled method)
                _module_state(s, state, mods)
        inputs: list = []
        ids: dict = {}
        for t in state + self._extra + tensors:
            if id(t) not in ids:
                ids[id(t)] = len(inputs)
                inputs.append(t)
        if any(_is_traced(t) for t in inputs):
            return self.fn(*args, **kwargs)
        try:
            skey = tuple(_static_key(s) for s in statics)
        except Exception:  # noqa: BLE001 - an odd argument: key by identity
            skey = tuple(id(s) for s in statics)
        key = (spec, skey, tuple(_meta(t) for t in inputs), tuple(_module_snapshot(m) for m in mods),
               _fn_snapshot(self.fn), STATE.enabled, D.DEFAULT.float.np.str)
        entry = self._cache.get(key)
        if entry is not None and not entry.valid():
            entry = None
        if entry is None:
            try:
                entry = self._trace(key, inputs, args, kwargs)
            except _Eager as r:
                return r.result
            if entry is None:  # retrace requested (a tensor requiring grad reached otherwise)
                return self(*args, **kwargs)
        if entry.fallback is not None:
            return self._fallback(entry.fallback, args, kwargs)
        return self._run(entry, inputs)

    # -- graph breaks ------------------------------------------------------------------------

    def _fallback(self, reason: str, args, kwargs):
        token = (id(self), reason)
        if token not in _WARNED:
            _WARNED.add(token)
            warnings.warn(f"torch.compile({self.name}): graph break, running eagerly: {reason}",
                          UserWarning, stacklevel=3)
        return self.fn(*args, **kwargs)

    def _break(self, key, reason: str, exc=None) -> _Entry:
        if self.fullgraph:
            raise Unsupported(f"torch.compile(fullgraph=True) of {self.name}: {reason}") from exc
        e = _Entry()
        e.fallback = reason
        self._cache[key] = e
        return e

    # -- tracing -----------------------------------------------------------------------------

    def _trace(self, key, inputs, args, kwargs):
        limit = min(config.cache_size_limit, config.recompile_limit)
        if self._n_traces >= limit:
            return self._break(key, f"cache_size_limit ({limit}) reached: the signature keeps changing "
                                    "(torch._dynamo.config.cache_size_limit)")
        self._n_traces += 1
        owner = getattr(self.fn, "__self__", None)
        if isinstance(owner, Module) and (owner._backward_hooks or owner._backward_pre_hooks):
            return self._break(key, f"{type(owner).__name__} has backward hooks (the compiled backward "
                                    "would not call them)")
        entry = _Entry()
        info: dict = {}
        fn = self.fn

        def flat(rng_key, *arrays):
            saved = [t._buf for t in inputs]
            rng = _TracedRng(rng_key)
            seen = _Seen()
            spied: dict = {}
            prev = (_random.COMPILE_RNG[0], _dispatch.COMPILE_SEEN[0], _SPY[0], builtins.print)
            _STATE["tracing"] += 1
            try:
                for t, a in zip(inputs, arrays, strict=True):
                    t._buf = a
                _random.COMPILE_RNG[0] = rng
                _dispatch.COMPILE_SEEN[0] = seen
                _SPY[0] = spied
                builtins.print = _traced_print
                out = fn(*args, **kwargs)
                otensors: list = []
                ostatics: list = []
                ospec = _flatten(out, otensors, ostatics)
                for s in ostatics:
                    if isinstance(s, Tracer):
                        raise _GraphBreak("a traced value returned outside a Tensor")
                mutated = [i for i, t in enumerate(inputs) if t._buf is not arrays[i]]
                results = [_dispatch.fgrad_value(t) for t in otensors]
                results += [_dispatch.fgrad_value(inputs[i]) for i in mutated]
                info.update(out_spec=ospec, out_statics=ostatics, n_out=len(otensors), mutated=mutated,
                            uses_rng=rng.count > 0, spied=list(spied.values()),
                            seen=list(seen.tensors.values()))
                return tuple(results)
            finally:
                for t, b in zip(inputs, saved, strict=True):
                    t._buf = b
                (_random.COMPILE_RNG[0], _dispatch.COMPILE_SEEN[0], _SPY[0], builtins.print) = prev
                _STATE["tracing"] -= 1

        gen = _random.default_generator._engine
        gstate = gen.get_state()
        mask = _diff_mask(inputs)  # guarded (grad mode, requires_grad): fixed for the signature
        closed = aot = None
        try:
            with _dev.cpu_default():
                key0 = _key_like(_NO_KEY, inputs)
                values = [_dispatch.fgrad_value(t) for t in inputs]
                avals = [_awrap(v).aval if not hasattr(v, "aval") else v.aval for v in (key0, *values)]
                if any(mask):  # forward and backward staged from one run of the code
                    aot = _split_programs(flat, avals, mask, self.name)
                if aot is None:
                    closed = fgrad.make_jaxpr(flat)(key0, *values)
                    if any(mask):  # (custom_vjp rules are lost in this program: see _split_programs)
                        jaxpr0, consts0 = closed.jaxpr, closed.consts
                        aot = _split_programs(lambda *a: tuple(eval_jaxpr(jaxpr0, consts0, a)), avals, mask,
                                              self.name)
                        if aot is None:
                            raise _GraphBreak("the backward program could not be staged")
        except (_GraphBreak, fgrad.errors.ConcretizationError) as e:
            gen.set_state(gstate)  # the trace drew nothing for real
            return self._break(key, _first_line(e), e)
        except Exception as e:  # noqa: BLE001 - an op the trace cannot run: eager decides
            gen.set_state(gstate)
            if self.fullgraph:
                raise Unsupported(f"torch.compile(fullgraph=True) of {self.name}: "
                                  f"{type(e).__name__}: {_first_line(e)}") from e
            reason = f"{type(e).__name__}: {_first_line(e)}"
            result = self.fn(*args, **kwargs)  # raises the user's error if it is one
            self._break(key, reason)
            raise _Eager(result) from None
        gen.set_state(gstate)
        if aot is not None:
            entry.aot[None] = aot
        else:
            jaxpr, consts = closed.jaxpr, closed.consts

            def program(rng_key, *arrays):
                return tuple(eval_jaxpr(jaxpr, consts, (rng_key, *arrays)))

            entry.jf = fgrad.jit(program)
        need = [t for t in info["seen"] if t._rg or t._gfn is not None]
        if need:
            bases = [t for t in need if t._base is None]
            if len(bases) == len(need):
                self._extra.extend(bases)
                self._n_traces -= 1
                return None
            return self._break(key, "a view of a tensor that requires grad, reached other than through "
                                    "the arguments, closure or modules: pass it as an argument")
        entry.n_out = info["n_out"]
        entry.out_spec = info["out_spec"]
        entry.out_statics = info["out_statics"]
        entry.mutated = tuple(info["mutated"])
        entry.uses_rng = info["uses_rng"]
        entry.modules = tuple((m, _module_snapshot(m)) for m in info["spied"])
        entry.consts = tuple((t, t._version) for t in info["seen"])
        for i in entry.mutated:
            if inputs[i]._rg or inputs[i]._gfn is not None:
                return self._break(key, "an in-place update of a tensor that requires grad")
        self._cache[key] = entry
        return entry

    # -- running -----------------------------------------------------------------------------

    def _run(self, entry: _Entry, inputs: list):
        rkey = _key_like(_draw_key() if entry.uses_rng else _NO_KEY, inputs)
        bufs = [t._buf for t in inputs]
        aot = entry.aot.get(None)  # a signature that differentiates was staged with its backward
        diff = [i for i, m in enumerate(_diff_mask(inputs)) if m] if aot is not None else []
        if aot is not None:
            xp = _dev.xp_of(bufs[0]) if bufs else np
            with _dev.cpu_default():
                res = aot.fwd.executable(xp).run([rkey._buf, *bufs])
            outs, residuals = res[:aot.n_out], res[aot.n_out:]
        else:
            with _dev.cpu_default():
                outs = entry.jf(rkey, *[_dispatch.fgrad_value(t) for t in inputs])
        in_bufs = {id(b) for b in bufs}
        raws = []
        for o in outs:
            b = o._buf if type(o) is ArrayImpl else o
            raws.append(np.asarray(b) if type(b) is not _nd and type(b) not in _DEV else b)  # NumPy scalars
        held = _held_outputs(entry, raws)
        tensors = [_wrap(b.copy() if (keep or id(b) in in_bufs) else b) for b, keep in zip(raws, held)]
        n = entry.n_out
        if diff:
            if entry.mutated:  # a residual that is a buffer written back below: keep its old value
                written = {id(bufs[i]) for i in entry.mutated}
                residuals = [r.copy() if id(r) in written else r for r in residuals]
            meta = tuple((t._buf.shape, t._buf.dtype, _buf_index(t._buf)) for t in tensors)
            saved = tuple((t, t._get_vc().v) for i, t in enumerate(inputs) if i not in entry.mutated)
            node = _CompiledFunctionBackward(aot, residuals, meta, tuple(G.edge_of(inputs[i]) for i in diff),
                                             saved)
            for k in range(n):
                t = tensors[k]
                if t._buf.dtype.kind in "fc":
                    t._gfn = node
                    t._oi = k
        for k, i in enumerate(entry.mutated):
            dst = inputs[i]
            dst._buf[...] = tensors[n + k]._buf
            _dispatch.bump_version(dst)
        return _unflatten(entry.out_spec, tensors[:n], entry.out_statics, [0, 0])


_NO_KEY = np.zeros(2, np.uint32)


def _buf_index(b):
    return _dev.index_of(b) if type(b) in _DEV else None


def _key_like(key: np.ndarray, inputs: list):
    """The key as an array on the inputs' device."""
    for t in inputs:
        b = t._buf
        if type(b) in _DEV:
            return _dispatch.fgrad_value(_dev.to_dev(key, _dev.index_of(b)))
        if type(b) is _nd:
            break
    return _awrap(key)


def _draw_key():
    return _random.default_generator._engine.random32(2).astype(np.uint32)


class _Eager(Exception):
    """Carries the result of an eager run made while deciding on a graph break."""

    def __init__(self, result) -> None:
        self.result = result


def _first_line(e: BaseException) -> str:
    s = str(e).strip()
    return s.splitlines()[0] if s else type(e).__name__


# -- the public entry points ---------------------------------------------------------------


class OptimizedModule(Module):
    """A compiled module (``torch._dynamo.eval_frame.OptimizedModule``): calls the original
    module (``_orig_mod``) through the compiler; attributes are the original's."""

    def __init__(self, mod: Module, compiled: _Compiled) -> None:
        super().__init__()
        self._orig_mod = mod
        object.__setattr__(self, "_compiled", compiled)

    def forward(self, *args, **kwargs):
        return self._compiled(*args, **kwargs)

    def __getattr__(self, name):
        try:
            return super().__getattr__(name)
        except AttributeError:
            return getattr(self._modules["_orig_mod"], name)


def _check_options(backend, mode, options) -> None:
    if mode is not None and options is not None:
        raise RuntimeError("Either mode or options can be specified, but both can't be specified at the same "
                           "time.")
    if mode is not None and mode not in _MODES:
        raise RuntimeError(f"Unrecognized mode={mode}, should be one of: {', '.join(_MODES)}")
    if callable(backend):
        raise InvalidBackend(
            "torch.compile(backend=<callable>): fgrad builds fgrad programs, not FX graphs, so a custom "
            "backend cannot be called; use backend='inductor' (fused, the default), 'eager' or 'aot_eager'")
    if backend not in _BACKENDS:
        raise InvalidBackend(f"Invalid backend: {backend!r}, see `torch._dynamo.list_backends()` for "
                             "available backends.")


def list_backends(exclude_tags: tuple[str, ...] | None = ("debug", "experimental")) -> list[str]:
    """The accepted ``backend=`` names.

    Example::

        >>> import fgrad.torch as torch
        >>> "inductor" in torch._dynamo.list_backends()
        True
    """
    return sorted(_BACKENDS)


def compile(model: Any = None, *, fullgraph: bool = False, dynamic: bool | None = None,  # noqa: A001
            backend: str | Callable[..., Any] | None = None, mode: str | None = None,
            options: dict | None = None, name: str | None = None, disable: bool = False,
            recompile_limit: int | None = None, isolate_recompiles: bool = False,
            shapes_spec: Any = None) -> Any:
    """Compile a module or function: each call signature is traced once into a fused fgrad
    program (forward and backward); see `fgrad.torch._compile`.  Used bare, as
    ``@torch.compile`` or ``@torch.compile(...)``.

    Example::

        >>> import fgrad.torch as torch
        >>> @torch.compile
        ... def f(x):
        ...     return torch.sin(x) ** 2 + torch.cos(x) ** 2
        >>> f(torch.zeros(3))
        tensor([1., 1., 1.])
    """
    backend = "inductor" if backend is None else backend
    _check_options(backend, mode, options)
    if shapes_spec is not None:
        raise NotImplementedError("torch.compile(shapes_spec=...): fgrad traces one program per call "
                                  "signature and takes no shape specification; leave shapes_spec=None")
    # (recompile_limit, isolate_recompiles: fgrad keeps one program per signature without a limit)

    def make(m):
        if disable:
            return m
        if isinstance(m, Module):
            c = _Compiled(m._call_uncompiled, name=name or type(m).__name__, fullgraph=fullgraph,
                          dynamic=dynamic, backend=backend, mode=mode, options=options)
            return OptimizedModule(m, c)
        if not callable(m):
            raise RuntimeError(f"torch.compile: expected a callable or an nn.Module, got {type(m).__name__}")
        return _Compiled(m, name=name, fullgraph=fullgraph, dynamic=dynamic, backend=backend, mode=mode,
                         options=options)

    if model is None:
        return make
    return make(model)


def _module_compile(self: Module, *args: Any, **kwargs: Any) -> None:
    """``module.compile(...)``: later calls of the module go through ``torch.compile``."""
    kwargs.pop("disable", None)
    _check_options(kwargs.get("backend", "inductor"), kwargs.get("mode"), kwargs.get("options"))
    compiled = _Compiled(self._call_uncompiled, name=type(self).__name__, **kwargs)
    self.__dict__["_compiled_call_impl"] = compiled


Module.compile = _module_compile
