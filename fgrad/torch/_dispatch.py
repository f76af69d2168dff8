"""The shim's dispatcher: how an op given by its fgrad definition runs on Tensors.

Every differentiable op has an *fgrad definition* -- a primitive's ``bind`` or a composite
of fgrad ops -- which autograd differentiates (see `autograd.graph`).  `apply_op` applies an op:
its forward runs that same definition as one cached straight-line program
(`run_definition`), so the numbers come from one place, then the op is recorded when grad is
needed.  The definition is staged once per signature (the op's cache key -- the one its
backward program is cached under -- and the input shapes and dtypes) into a program of
primitive implementations, compiled to straight-line Python by the engine's executor
(`fgrad.core.executor.straight_line`), and run on the NumPy buffers.  Definitions that need
concrete values (value-dependent shapes, Python control flow on data) cannot be staged:
their signature is remembered and they run eagerly, one primitive at a time, with the same
implementations.  Tensors that hold tracers run the definition on fgrad values (functional
mode); tensors on a CUDA device run it there.

In-place ops write into the tensor's buffer (so every view and NumPy alias sees the
change), bump the shared version counter, and -- when autograd is involved -- record a node
whose input is the *old* value (copied only if the backward program needs it).  An
in-place op on a view of a tensor that autograd tracks records ``CopySlices`` on the base:
one node whose fgrad function writes the op's result into the view region of the base.
``out=`` arguments, memory-overlap checks and device transfers live here too.

Example::

    >>> import numpy as np
    >>> from fgrad.ops import elementwise as ew
    >>> run_definition(("rsqrt",), lambda x: ew.div(1.0, ew.sqrt(x)), [np.array([4.0, 16.0])], False)
    [array([0.5 , 0.25])]
"""

from __future__ import annotations

import builtins
import functools
import warnings
import weakref

import numpy as np
from ..core.narrow_floats import NARROW_FLOATS as _NARROW_FLOATS, dtype_kind as _dtype_kind, float32 as _F32

from .._lru import CLOCK, LRU
from ..compile.native_kernels import straight_line_kernel
from ..compile.passes import inline_jit_calls
from ..core.array import ArrayImpl, ShapedArray
from ..core.ir import Literal
from ..core.trace import new_trace
from ..core.trace import state as _trace_state
from ..transforms.jvp_trace import ForwardTrace, JVPTracer
from ..transforms.batching import BatchTracer
from . import _profile_state
from ..core.executor import straight_line
from ..transforms.staging import ConstantTypeError, StagingTrace
from ..core.trace import ConcretizationError
from ..core.array import Tracer
from ..core.array import wrap as _awrap
from ..ops import elementwise as ew
import fgrad.numpy as fnp
from ..core.quiet import switch
from ..ops.specs import SPEC_LIST
from ..ops.bits import stop_gradient
import fgrad.torch._device as _dev
import fgrad.torch._errors as _errors
from ._device import DEV as _DEV
from ._storage import memory_order as _memory_order
from ._tensor import Size, Tensor, _wrap, refresh_functional_view
from .autograd import graph as G
from ._func_captures import SEEN as _CAPTURES, note as _note_capture
from .autograd.grad_mode import STATE
from ._dual_state import LEVEL as _DUAL
from ._dual_marks import mark_no_reverse, requires_reverse
from ..transforms.ad import vjp
from ..transforms.jit import eval_shape
from ..core.array import ShapeDtypeStruct
from ._tensor import to_device_buf
from ._promotion import can_cast, scalar_type_name
from ._device import cpu_default
from collections.abc import Callable, Hashable, Sequence
from fgrad.torch.types import memory_format
from typing import Any

_set_err, _IGNORE_ERR, _reset_err = switch()  # `apply_op` runs forwards with NumPy's error reports off

_nd = np.ndarray
_PY = (int, float, bool, complex)
_i64 = np.dtype(np.int64)
_bool = np.dtype(np.bool_)


class _Forward:
    """A cached forward: ``run(xp, bufs) -> list`` over the inputs' buffers, its constants
    part of the generated code (None: run eagerly), and ``raw``, the same program for
    callers that have switched NumPy's error reports off already."""

    __slots__ = ("run", "raw", "fresh", "warns", "tick", "code")

    def __init__(self, run, fresh: bool = False, warns: bool = True, code=None) -> None:
        self.run = run
        self.raw = getattr(run, "host", run)
        self.fresh = fresh  # every output is a new array from its own ufunc call (or a 0-d scalar)
        self.warns = warns  # some primitive may report an IEEE special value (`may_warn`)
        self.tick = 0
        self.code = code  # the definition's code object: a key names one definition


_FORWARDS = LRU("autograd_cache_size")
_FORWARD_OF = _FORWARDS._d.get  # the hot path's lookup; a hit refreshes ``tick`` itself (see `_lru`)


def _stage(fn, bufs, multi: bool) -> _Forward:
    try:
        with cpu_default(), new_trace(StagingTrace, "fgrad.torch forward", partial=False) as tr:
            args = [tr.new_arg(ShapedArray(b.shape, b.dtype)) for b in bufs]
            out = fn(*args)
            outs = list(out) if multi else [out]
            jaxpr, consts = tr.to_jaxpr(outs)
    except (ConcretizationError, ConstantTypeError):
        # the definition needs concrete values, or captures a value a trace cannot hold (a
        # Tensor hyper-parameter): run it eagerly.  Any other exception is the op's own error
        # (bad shapes, bad arguments) or a bug in a rule, and is raised -- never hidden by an
        # eager run that might compute something else.
        return _Forward(None, code=_code_of(fn))
    jaxpr, consts = inline_jit_calls(jaxpr, consts)  # (nested jit calls fuse with the op's own)
    consts = [_frozen(c._buf if type(c) is ArrayImpl else c) for c in consts]
    # the shim's forwards run on the host (device tensors run their definition eagerly), so
    # the constants are part of the generated function
    warns = builtins.any(getattr(e.prim, "may_warn", True) for e in jaxpr.eqns)
    return _Forward(straight_line(jaxpr, consts, native=straight_line_kernel), _fresh_outputs(jaxpr), warns,
                    _code_of(fn))


def _code_of(fn):
    return getattr(fn, "__code__", None)


def _same_definition(a, b) -> bool:
    """Whether code objects ``a`` and ``b`` compute the same thing: the same bytecode, names and
    constants (an op and its in-place form may each define an identical nested ``fn``)."""
    if a is b:
        return True
    if a is None or b is None:
        return False
    return (a.co_code == b.co_code and a.co_names == b.co_names and a.co_freevars == b.co_freevars
            and len(a.co_consts) == len(b.co_consts)
            and all(_same_definition(x, y) if hasattr(x, "co_code") and hasattr(y, "co_code") else x == y
                    for x, y in zip(a.co_consts, b.co_consts)))


def _key_clash(key, fwd: _Forward, fn) -> RuntimeError:
    return RuntimeError(
        f"internal error: the op key {key!r} names two different definitions ({fwd.code} and "
        f"{_code_of(fn)}); a cached program would run the wrong one -- give each definition its own key")


def _frozen(c):
    """A read-only copy of host constant ``c``: an output that is (a view of) a program's
    constant is then copied by `_owned`, never handed out to be written."""
    if type(c) is _nd:
        c = c.copy()
        c.flags.writeable = False
    return c


def _fresh_outputs(jaxpr) -> bool:
    """True when each output of ``jaxpr`` is a distinct variable computed by a one-output
    NumPy ufunc call (the executor calls parameterless ufunc primitives directly): a new
    array that aliases nothing, or a NumPy scalar for 0-d operands."""
    producer = {v: e for e in jaxpr.eqns for v in e.outvars}
    outs = jaxpr.outvars
    if len(set(map(id, outs))) != len(outs):
        return False
    for v in outs:
        e = producer.get(v) if type(v) is not Literal else None
        if e is None or e.params or e.prim.multiple_results:
            return False
        uf = getattr(e.prim, "ufunc", None)
        if not isinstance(uf, np.ufunc) or uf.nout != 1:
            return False
    return True


def _owned(o, inputs):
    """``o`` as a NumPy array that owns its memory: not an input, not a view of an input or
    of a cached constant, writeable (a copy when needed)."""
    if type(o) is not _nd:
        return np.asarray(o)  # a NumPy or Python scalar: a new 0-d array
    if o.base is None and o.flags.writeable:
        for x in inputs:
            if o is x:
                return o.copy()
        return o
    if not o.flags.writeable:
        return o.copy()
    for x in inputs:
        if type(x) is _nd and np.may_share_memory(o, x):
            return o.copy()
    return o


def run_definition(key, fn, bufs, multi: bool, errors_off: bool = False):
    """The outputs (a list of NumPy arrays owning their memory) of ``fn`` on host buffers
    ``bufs``, through its cached program; None when ``fn`` must run eagerly (unstageable, or
    an unhashable key).  ``errors_off``: the caller has switched NumPy's error reports off.

    This runs for every op of the shim, so the signature is one flat tuple (op key, then
    each buffer's shape and dtype), the lookup is the cache's dict (the hit refreshes its
    LRU tick) and the program takes the buffers as they are (its constants are built in)."""
    if len(bufs) == 1:
        b = bufs[0]
        sig = (key, b.shape, b.dtype)
    elif len(bufs) == 2:
        b, c = bufs
        sig = (key, b.shape, b.dtype, c.shape, c.dtype)
    else:
        sig = (key, *[a for b in bufs for a in (b.shape, b.dtype)])
    try:
        fwd = _FORWARD_OF(sig)
    except TypeError:  # unhashable key
        return None
    if fwd is None:
        fwd = _FORWARDS[sig] = _stage(fn, bufs, multi)
    else:
        fwd.tick = next(CLOCK)
        code = getattr(fn, "__code__", None)
        if fwd.code is not code:
            if not _same_definition(fwd.code, code):
                raise _key_clash(key, fwd, fn)
    run = fwd.raw if errors_off or not fwd.warns else fwd.run
    if run is None:
        return None
    outs = run(np, bufs)
    if fwd.fresh:
        for o in outs:
            if type(o) is not _nd:
                break
        else:
            return outs
    return [_owned(o, bufs) for o in outs]


def result_tensor(r) -> Tensor:
    if type(r) is not _nd and type(r) not in _DEV:
        r = np.asarray(r)
    t = object.__new__(Tensor)
    t._buf = r
    t._gfn = None
    t._rg = False
    t._vc = None
    if STATE.inference:
        t._inf = True
    return t


def tracks_grad(a) -> bool:
    return a._rg or a._gfn is not None


def fgrad_value(a):
    if isinstance(a, Tensor):
        if a._fbase is not None and a._fver != a._fbase._fver:
            refresh_functional_view(a)
        b = a._buf
        return _awrap(b) if type(b) is _nd or type(b) in _DEV else b
    if type(a) is _nd or type(a) in _DEV:
        return _awrap(a)
    return a


# set by `fgrad.torch._compile` while ``torch.compile`` traces: sees each functional op's
# operands (concrete tensors become constants of the program; it guards on their versions)
COMPILE_SEEN: list = [None]


def fgrad_values(args) -> list:
    """Functional-mode operands as fgrad values; a raw 0-dim host constant (a Python scalar
    operand) as a NumPy scalar, which goes with operands on any device (wrapped, it would be
    a CPU array meeting a device tracer)."""
    if COMPILE_SEEN[0] is not None:
        COMPILE_SEEN[0](args)
    return [a[()] if type(a) is _nd and not a.ndim else fgrad_value(a) for a in args]


def from_fgrad_value(o) -> Tensor:
    if type(o) is ArrayImpl:
        b = o._buf
        if type(b) is not _nd and type(b) not in _DEV:
            _dev.backend()  # made outside the shim (fgrad's default device is the GPU): sync
        if type(b) in _DEV:
            return result_tensor(b.copy())
        return result_tensor(np.array(b) if isinstance(b, _nd) else b)
    if isinstance(o, Tracer):
        t = _wrap(o)
        if _DUAL.trace is not None:  # forward AD: a plain tensor again when the level exits
            _DUAL.track(t)
        return t
    return result_tensor(np.asarray(o))


def _under_forward_mode() -> bool:
    t = _trace_state.trace
    while t is not None:
        if isinstance(t, ForwardTrace):
            return True
        t = t.parent
    return False


def _strip_reverse(x):
    """``x`` without its reverse-mode derivative layers; forward-mode tangents kept."""
    tx = type(x)
    if tx is JVPTracer:
        if isinstance(x._trace, ForwardTrace):
            p, t = _strip_reverse(x.primal), _strip_reverse(x.tangent)
            return x if p is x.primal and t is x.tangent else JVPTracer(x._trace, p, t)
        return _strip_reverse(x.primal)
    if tx is BatchTracer:
        v = _strip_reverse(x.val)
        return x if v is x.val else BatchTracer(x._trace, v, x.bdim)
    if isinstance(x, Tracer):
        return stop_gradient(x)
    return x


def no_grad_value(x):
    """A traced value computed under ``torch.no_grad``: no reverse-mode derivative flows
    through it, but forward-mode tangents (``torch.func.jvp``/``jacfwd``, forward AD) do, as
    in PyTorch, where grad mode does not affect forward-mode AD."""
    if STATE.inference or not _under_forward_mode():  # inference_mode stops tangents too
        return stop_gradient(x)
    if isinstance(x, (tuple, list)):
        return type(x)(_strip_reverse(v) for v in x)
    return _strip_reverse(x)


@functools.lru_cache(maxsize=512)
def _view_positions(shape, chain) -> np.ndarray:
    """The flat positions in a base of ``shape`` of the elements of the view ``chain`` (view
    functions of fgrad values) makes of it: the view functions run on the base's flat
    indices.  A view that repeats an element (``expand``) cannot be written (PyTorch's
    error); a view of another dtype (``real``/``imag``) is not written in functional mode."""
    n = int(np.prod(shape, dtype=np.int64))
    v = _awrap(np.arange(n, dtype=np.float64).reshape(shape))
    for f, params in chain:
        if f.__name__ in ("_v_real", "_v_imag"):
            raise NotImplementedError(
                "in-place write to a real/imag view of a traced complex tensor (torch.func, "
                "forward AD): write to the complex tensor instead (x.real.add_(y) -> "
                "x.add_(y.to(x.dtype)))")
        v = f(v, *params)
    pos = np.asarray(v._buf if type(v) is ArrayImpl else v).astype(np.int64).reshape(-1)
    if np.unique(pos).size != pos.size:
        raise RuntimeError(
            "unsupported operation: more than one element of the written-to tensor refers to a "
            "single memory location. Please clone() the tensor before performing the operation.")
    pos.flags.writeable = False
    return pos


def functional_write(self, new) -> None:
    """Functional mode: tensor ``self`` now holds the fgrad value ``new`` (an in-place op or a
    ``__setitem__``).  If ``self`` is a view, its base is rebound to the base with the view's
    elements replaced, and the base's other views re-read it when next used."""
    self._buf = new._buf if type(new) is ArrayImpl else new
    if _DUAL.trace is not None:
        _DUAL.track(self)
    base = self._fbase
    if base is None:
        self._fver += 1
        if "_fw_src" in self.__dict__:
            _write_primal_back(self)
        return
    shape = tuple(base._buf.shape)
    pos = _view_positions(shape, self._fvfn)
    flat = fnp.reshape(fgrad_value(base), (-1,))
    val = fnp.reshape(fgrad_value(self), (-1,)).astype(flat.dtype)
    new_base = fnp.reshape(flat.at[pos].set(val), shape)
    base._buf = new_base._buf if type(new_base) is ArrayImpl else new_base
    base._fver += 1
    self._fver = base._fver
    if "_fw_src" in base.__dict__:
        _write_primal_back(base)


def _write_primal_back(dual) -> None:
    """Forward AD: a dual tensor aliases the tensor it was made from (PyTorch's
    ``make_dual`` returns a view), so an in-place write to it writes the primal values there."""
    src = dual._fw_src
    v = dual._buf
    while type(v) is JVPTracer and v._trace is _DUAL.trace:
        v = v.primal
    v = v._buf if type(v) is ArrayImpl else v
    if type(v) is _nd or type(v) in _DEV:
        copy_into(src._buf, v)
        bump_version(src)


def run_functional(fn, args, multi=False):
    """Run ``fn`` on fgrad values (the tensors hold tracers: functional mode).  Tensors on
    the CUDA device and no tracer: the op runs there and is recorded (`_op_dev`)."""
    if on_device(args):
        return _op_dev("Backward0", ("fn", fn), fn, args, multi, None)
    if _CAPTURES[0] is not None:  # a torch.func transform notes the tensors it closes over
        _note_capture(args)
    with cpu_default():
        out = fn(*fgrad_values(args))
    if not STATE.enabled:  # under no_grad, traced values carry no derivative (as PyTorch's)
        out = no_grad_value(out)
    if _DUAL.trace is not None and STATE.enabled:  # forward AD: see forward_ad.ForwardADBackward0
        if requires_reverse(args):
            outs = tuple(from_fgrad_value(o) for o in (out if multi else (out,)))
            for o in outs:
                mark_no_reverse(o)
            return outs if multi else outs[0]
    if multi:
        return tuple(from_fgrad_value(o) for o in out)
    return from_fgrad_value(out)


def on_device(args) -> bool:
    """True if some argument lives on the CUDA device and none is a tracer."""
    dev = False
    for a in args:
        if isinstance(a, Tensor):
            b = a._buf
            if type(b) is _nd:
                continue
            if type(b) not in _DEV:
                return False
            dev = True
        elif type(a) in _DEV:
            dev = True
    return dev


def is_functional(args) -> bool:
    for a in args:
        if type(a) is not _nd and isinstance(a, Tensor):
            tb = type(a._buf)
            if tb is not _nd and tb not in _DEV:
                return True
    return False


def fresh_buffer(b, bufs):
    """``b`` or a copy of it: results must own their memory (not alias an input, not be a
    broadcast)."""
    if type(b) is _nd:
        if not b.flags.writeable or builtins.any(type(x) is _nd and np.may_share_memory(b, x) for x in bufs):
            b = b.copy()
        return b
    for x in bufs:
        if x is b:
            return b.copy()
    if b.flags.owndata:  # fresh memory (CuPy results): neither an input nor a broadcast view
        return b
    p = _dev.data_ptr(b)
    if builtins.any(s == 0 and n > 1 for s, n in zip(b.strides, b.shape, strict=False)) or builtins.any(
        type(x) in _DEV and _dev.data_ptr(x) <= p < _dev.data_ptr(x) + builtins.max(x.nbytes, 1) for x in bufs
    ):
        b = b.copy()
    return b


def _run_fn(fn, bufs, multi):
    """Evaluate an fgrad function eagerly on buffers; results never alias the inputs."""
    with cpu_default():
        out = fn(*[_awrap(b) if type(b) is _nd or type(b) in _DEV else b for b in bufs])
    outs = out if multi else [out]
    res = []
    for o in outs:
        b = o._buf if type(o) is ArrayImpl else o
        if type(b) is not _nd and type(b) not in _DEV:
            b = np.asarray(b)
        res.append(fresh_buffer(b, bufs))
    return res if multi else res[0]


def run_forward(key, fn, bufs, multi):
    """The op's forward from its fgrad definition: its cached straight-line program
    (`_dispatch.run_definition`), or the definition run eagerly when it cannot be staged;
    results never alias the inputs."""
    outs = run_definition(key, fn, bufs, multi)
    if outs is None:
        return _run_fn(fn, bufs, multi)
    return outs if multi else outs[0]


_DEV_CONSTS: dict = {}


def _drop_device_caches() -> None:
    _DEV_CONSTS.clear()
    G.forget_last_program()
    for p in list(G._PROGS.values()):
        if hasattr(p, "dev_templates"):
            p.dev_templates = None


_dev.ON_CHANGE.append(_drop_device_caches)


def device_constant(c, di):
    """A host constant (an internal scalar or mask) on CUDA device ``di``; 0-dim constants
    are cached by value so repeated ops do not copy them again."""
    if c.ndim == 0 and _dtype_kind(c.dtype) in "biufc":
        v = c.item()
        key = (c.dtype, di, v, repr(v))
        d = _DEV_CONSTS.get(key)
        if d is None:
            if len(_DEV_CONSTS) > 4096:
                _DEV_CONSTS.clear()
            d = _DEV_CONSTS[key] = _dev.to_dev(c, di)
        return d
    return _dev.to_dev(c, di)


def unify_devices(args):
    """Arguments of an op on the CUDA device: host constants and 0-dim host tensors (PyTorch
    treats those as scalars) moved to the device; any other host tensor, or a tensor on
    another CUDA device, raises PyTorch's error.  Returns the new argument list."""
    di = None
    for a in args:
        b = a._buf if isinstance(a, Tensor) else a
        if type(b) in _DEV:
            di = _dev.index_of(b)
            break
    if di is None:
        return list(args)
    out = []
    for a in args:
        if isinstance(a, Tensor):
            b = a._buf
            if type(b) is _nd:
                if b.ndim:
                    raise _dev.same_device_error(f"cuda:{di}", "cpu")
                if tracks_grad(a) and STATE.enabled:
                    a = transfer(a, di)
                else:
                    a = device_constant(b, di)
            elif type(b) in _DEV and _dev.index_of(b) != di:
                raise _dev.same_device_error(f"cuda:{di}", f"cuda:{_dev.index_of(b)}")
        elif type(a) is _nd:
            a = device_constant(a, di)
        out.append(a)
    return out


def _op_dev(name, key, fn, args, multi=False, edges=None):
    """`apply_op` on the CUDA device: the fgrad definition runs there (the core's backend)."""
    args = unify_devices(args)
    bufs = [a._buf if isinstance(a, Tensor) else a for a in args]
    try:
        r = _run_fn(fn, bufs, multi)
    except _errors.TRANSLATED as e:
        raise _errors.translate(e, name, args) from e
    outs = [result_tensor(o) for o in r] if multi else [result_tensor(r)]
    if STATE.enabled:
        for a in args:
            if isinstance(a, Tensor) and (a._rg or a._gfn is not None):
                G.record(name, key, fn, args, outs, edges, multi)
                break
    return tuple(outs) if multi else outs[0]


_NARROW = frozenset(_NARROW_FLOATS)
_UPCAST: dict = {}


def _upcast_definition(key, fn, bufs, multi):
    """``(key, fn)`` of the op computed in float32 for its 16-bit float operands, each output
    rounded once to the dtype ``fn`` gives on the operands themselves: PyTorch's CPU kernels
    compute float16/bfloat16 in float32 (softmax, layer_norm, gelu, sum, matmul, ...)."""
    try:
        sig = (key, multi, *[(b.shape, b.dtype) for b in bufs])
        hit = _UPCAST.get(sig)
    except TypeError:  # an unhashable key: computed as given
        return key, fn
    if hit is None:
        try:
            with cpu_default():
                outs = eval_shape(fn, *[ShapeDtypeStruct(b.shape, b.dtype) for b in bufs])
        except Exception:  # noqa: BLE001 - not traceable from shapes (data-dependent): computed as given
            _UPCAST[sig] = (key, fn)
            return key, fn
        dts = tuple(o.dtype for o in (outs if multi else (outs,)))

        def upcast(*xs):
            r = fn(*[ew.convert_element_type(x, _F32) if getattr(x, "dtype", None) in _NARROW else x
                     for x in xs])
            rs = [o if o.dtype == d else ew.convert_element_type(o, d)
                  for o, d in zip(r if multi else (r,), dts, strict=True)]
            return tuple(rs) if multi else rs[0]

        hit = _UPCAST[sig] = (("float32 compute", key, dts), upcast)
    return hit


def apply_op(name: str, key: Hashable, fn: Callable[..., Any], args: Sequence[Any], *, multi: bool = False,
             edges: Any = None) -> Tensor | tuple[Tensor, ...]:
    """Apply an op given by its fgrad definition ``fn`` to ``args`` (Tensors or constant
    NumPy arrays): the forward is ``fn`` itself, run through its cached per-signature program
    (`run_definition`).  On the CUDA device ``fn`` itself runs there (`_op_dev`).  16-bit
    float operands are computed in float32 and rounded once (`_upcast_definition`)."""
    if _profile_state.recorder is not None:  # torch.profiler: time this op (nested ops uncounted)
        return _profile_state.recorder.op(name, key, fn, apply_op, args, multi, edges)
    bufs = []
    narrow = False
    sig = [key]
    for a in args:
        b = a if type(a) is _nd else (a._buf if isinstance(a, Tensor) else a)
        if type(b) is not _nd:
            if type(b) in _DEV and on_device(args):
                return _op_dev(name, key, fn, args, multi, edges)
            return run_functional(fn, args, multi)
        if b.itemsize == 2 and b.dtype in _NARROW:
            narrow = True
        bufs.append(b)
        sig += (b.shape, b.dtype)
    fwd = None
    if narrow:
        key, fn = _upcast_definition(key, fn, bufs, multi)
    else:  # `run_definition`'s lookup, inline: this runs for every op
        try:
            fwd = _FORWARD_OF(tuple(sig))
        except TypeError:  # an unhashable key
            pass
    # IEEE special values without RuntimeWarnings (as PyTorch); a program whose primitives
    # never report one runs without the switch
    token = _set_err(_IGNORE_ERR) if fwd is None or fwd.warns else None
    try:
        if fwd is not None and fwd.raw is not None:
            code = getattr(fn, "__code__", None)
            if fwd.code is not code and not _same_definition(fwd.code, code):
                raise _key_clash(key, fwd, fn)
            fwd.tick = next(CLOCK)
            r = fwd.raw(np, bufs)
            if not fwd.fresh or type(r[0]) is not _nd or (
                    multi and builtins.any(type(o) is not _nd for o in r)):
                r = [_owned(o, bufs) for o in r]
        else:
            r = run_definition(key, fn, bufs, multi, True)
            if r is None:
                r = _run_fn(fn, bufs, True)
        if not multi:
            r = r[0]
    except _errors.TRANSLATED as e:  # NumPy's errors from deep inside: PyTorch's types
        raise _errors.translate(e, name, args) from e
    finally:
        if token is not None:
            _reset_err(token)
    if multi:
        outs = [result_tensor(o) for o in r]
    else:
        if type(r) is not _nd:
            r = np.asarray(r)
        out = object.__new__(Tensor)  # `result_tensor`, inline: this runs for every op
        out._buf = r
        out._gfn = None
        out._rg = False
        out._vc = None
        if not STATE.enabled:
            if STATE.inference:
                out._inf = True
            return out
        outs = (out,)
    if STATE.enabled:
        for a in args:
            if type(a) is not _nd and (a._rg or a._gfn is not None):
                G.record(name, key, fn, args, outs, edges, multi)
                break
    return tuple(outs) if multi else outs[0]


def apply_computed(name: str, key: Hashable, fn: Callable[..., Any], args: Sequence[Any], value,
                   edges: Any = None) -> Tensor:
    """`apply_op` whose forward value ``value`` (a host buffer) a kernel has computed the way
    PyTorch's does (`_fma`: a fused multiply-add rounds once where ``fn`` rounds twice);
    ``fn`` is recorded for the backward only."""
    out = result_tensor(value)
    if STATE.enabled:
        for a in args:
            if isinstance(a, Tensor) and (a._rg or a._gfn is not None):
                G.record(name, key, fn, args, (out,), edges)
                break
    return out


# grad_fn names of the create_graph backward's nodes: the op specs' (below), and these
_PRIM_NAMES = {
    "select_n": "WhereBackward0",
    "convert_element_type": "ToCopyBackward0",
    "reduce_sum": "SumBackward1",
    "reduce_max": "AmaxBackward0",
    "reduce_min": "AminBackward0",
    "reduce_prod": "ProdBackward1",
    "broadcast_in_dim": "ExpandBackward0",
    "reshape": "ViewBackward0",
    "transpose": "PermuteBackward0",
    "dot_general": "MmBackward0",
    "gather": "IndexBackward0",
    "scatter": "IndexPutBackward0",
    "concatenate": "CatBackward0",
    "cumsum": "CumsumBackward0",
}


_PRIM_NAMES.update({s.prim.name: s.grad_fn for s in SPEC_LIST if s.prim is not None and s.grad_fn})


def grad_fn_name(name: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in name.split("_")) + "Backward0"


def _params_key(params):
    return tuple(sorted(params.items()))


def apply_primitive(prim, params, args):
    """Run ``prim`` on Tensors (and constants) with NumPy semantics, recording it.  Used by
    the create_graph backward (`TensorTrace`)."""
    xp = np
    if on_device(args):
        args = unify_devices(args)
        xp = _dev.backend().xp
    bufs = [a._buf if isinstance(a, Tensor) else a for a in args]
    r = prim.impl(xp, *bufs, **params)
    rs = list(r) if prim.multiple_results else [r]
    outs = []
    for o in rs:
        if type(o) in _DEV:
            if not o.flags.owndata:
                o = o.copy()
            outs.append(result_tensor(o))
            continue
        if type(o) is not _nd:
            o = np.asarray(o)
        if not (o.flags.owndata and o.flags.writeable):
            o = np.array(o)
        outs.append(result_tensor(o))
    tensors = [a if isinstance(a, Tensor) else (a if type(a) is _nd or type(a) in _DEV else np.asarray(a))
               for a in args]
    if STATE.enabled and builtins.any(isinstance(a, Tensor) and tracks_grad(a) for a in args):
        name = _PRIM_NAMES.get(prim.name) or grad_fn_name(prim.name)
        try:
            key = (prim, _params_key(params))
            hash(key)
        except TypeError:
            key = (prim, id(params))
        bind = prim.bind

        def fn(*xs):
            return bind(*xs, **params)

        G.record(name, key, fn, tensors, outs, multi=prim.multiple_results)
    return outs if prim.multiple_results else outs[0]


def _cast(x, R):
    """``x`` as dtype ``R``: an op on arrays; a NumPy scalar becomes a (weakly typed) Python
    scalar, which goes with operands on any device."""
    if isinstance(x, np.generic):
        return np.asarray(x, R).item()
    return ew.convert_element_type(x, R)


def cast_definition(definition, R):
    def f(*xs):
        return definition(*[_cast(x, R) for x in xs])

    return f


def cast_primitive(prim, R):
    bind = prim.bind

    def f(*xs):
        return bind(*[_cast(x, R) for x in xs])

    return f


def write_out(out, res: Tensor, name: str, ins=(), composite: bool = False) -> Tensor:
    """Copy ``res`` into ``out`` (PyTorch's ``out=``).  ``ins``: the op's inputs, for the
    elementwise ops whose ``out`` may be an input but may not partially overlap one.
    ``composite``: PyTorch computes the op from others and copies into ``out`` with
    ``copy_`` (``special.ndtr``): ``out`` then records the copy under autograd instead of
    refusing it."""
    if not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    ob = out._buf
    for i in ins:
        if isinstance(i, Tensor) and may_alias(ob, i._buf):
            check_no_alias(ob, i._buf)
    if not composite and STATE.enabled and (res._gfn is not None or tracks_grad(out)):
        raise RuntimeError(
            f"{name}(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad."
        )
    src = res._buf
    ob = out._buf
    if not can_cast(src.dtype, ob.dtype):
        raise RuntimeError(
            f"result type {scalar_type_name(src.dtype)} can't be cast to the desired output type "
            f"{scalar_type_name(ob.dtype)}"
        )
    if ob.shape != src.shape:
        if ob.size != 0:
            warnings.warn(
                f"An output with one or more elements was resized since it had shape {list(ob.shape)}, "
                f"which does not match the required output shape {list(src.shape)}. This behavior is "
                "deprecated, and in a future PyTorch release outputs will not be resized unless they have "
                "zero elements. You can explicitly reuse an out tensor t by resizing it, inplace, to zero "
                "elements with t.resize_(0).",
                UserWarning,
                stacklevel=3,
            )
        resize_(out, src.shape)
        ob = out._buf
    if composite and STATE.enabled and (res._gfn is not None or tracks_grad(out)):
        return out.copy_(res)
    if type(ob) is _nd and type(src) is _nd:
        np.copyto(ob, src, casting="unsafe")
    else:
        if buf_index(ob) != buf_index(src):
            raise RuntimeError(
                f"Expected out tensor to have device {res.device}, but got {out.device} instead")
        copy_into(ob, src)
    out._get_vc().v += 1
    return out


def write_out_multi(out, results, name):
    if len(out) != len(results):
        raise TypeError(f"{name}(): expected out to be a tuple of {len(results)} tensors")
    for o, r in zip(out, results, strict=False):
        write_out(o, r, name)
    return out


def _check_inplace(self, need_grad: bool) -> None:
    if self._nograd_view and STATE.enabled:
        raise RuntimeError(
            "A view was created in no_grad mode and is being modified inplace with grad mode enabled. Given "
            "that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by "
            "moving both the view and the inplace either both inside the no_grad block (if you don't want "
            "the "
            "inplace to be tracked) or both outside (if you want the inplace to be tracked)."
        )
    if need_grad:
        if self._conj_of is not None and not (self._conj_of._gfn is None and self._conj_of._rg):
            raise RuntimeError(
                "fgrad.torch: an in-place operation on a conjugate view (Tensor.conj() of a complex tensor) "
                "that requires grad is not supported; write to x.conj().resolve_conj() or to the base "
                "tensor (x.conj_physical_()) instead")
        if self._gfn is None and self._rg:
            raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
        base = self._base if self._conj_of is None else self._conj_of
        if base is not None and base._gfn is None and base._rg:
            raise RuntimeError(
                "a view of a leaf Variable that requires grad is being used in an in-place operation."
            )


def check_no_internal_overlap(buf) -> None:
    if buf.size == 0:  # NumPy gives an empty array zero strides; nothing is written to
        return
    for s, st in zip(buf.shape, buf.strides, strict=False):
        if st == 0 and s > 1:
            raise RuntimeError(
                "unsupported operation: more than one element of the written-to tensor refers to a single "
                "memory location. Please clone() the tensor before performing the operation."
            )


_ALIAS_MSG = (
    "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single "
    "memory location. Please clone() the tensor before performing the operation."
)


# in-place ops for which even an input that is exactly the written-to tensor is refused (PyTorch's
# ``assert_no_overlap``); the others allow it (``assert_no_partial_overlap``)
_NO_FULL_ALIAS = frozenset(
    ("IndexCopyBackward0", "IndexAddBackward0", "ScatterBackward0", "ScatterAddBackward0",
     "ScatterReduceBackward0")
)


def _dense(b) -> bool:
    """PyTorch's ``is_non_overlapping_and_dense``: some order of the dims is contiguous."""
    return b.flags.c_contiguous or _memory_order(b) is not None


def _extent(b) -> tuple[int, int]:
    """The byte range ``[lo, hi)`` a buffer's elements lie in."""
    lo = hi = _dev.data_ptr(b)
    for n, st in zip(b.shape, b.strides, strict=False):
        if st >= 0:
            hi += (n - 1) * st
        else:
            lo += (n - 1) * st
    return lo, hi + b.itemsize


def may_alias(a, b) -> bool:
    """False when buffers ``a`` and ``b`` certainly use different memory (NumPy's bounds
    check; device buffers always go on to `check_no_alias`)."""
    return type(a) is not _nd or type(b) is not _nd or np.may_share_memory(a, b)


def check_no_alias(out, inp, full_ok: bool = True) -> None:
    """Raise PyTorch's error if buffer ``inp`` (an input) shares memory with ``out`` (the
    written-to buffer) other than by being exactly it (``full_ok``).

    PyTorch refuses a *partial* overlap of two dense tensors and computes an order-dependent
    result when either is not dense; fgrad refuses every real overlap instead (checked
    exactly), so the written values are always those PyTorch defines or an error."""
    if out is inp:
        if full_ok:
            return
        raise RuntimeError(_ALIAS_MSG)
    if out.size == 0 or inp.size == 0:
        return
    host = type(out) is _nd
    if host != (type(inp) is _nd):  # host and device memory, or a tracer (functional mode)
        return
    if not host and (type(out) not in _DEV or type(inp) not in _DEV):  # tracers: no memory
        return
    if host:
        if not np.may_share_memory(out, inp):
            return
    else:
        (lo, hi), (ilo, ihi) = _extent(out), _extent(inp)
        if ihi <= lo or hi <= ilo:
            return
    same = (
        _dev.data_ptr(out) == _dev.data_ptr(inp) and out.strides == inp.strides and out.shape == inp.shape
        and out.itemsize == inp.itemsize
    )
    if same and full_ok:
        return
    if same or (_dense(out) and _dense(inp)):
        raise RuntimeError(_ALIAS_MSG)
    if host:
        if np.shares_memory(out, inp):
            raise RuntimeError(_ALIAS_MSG)
    elif np.shares_memory(address_view(out), address_view(inp)):
        raise RuntimeError(_ALIAS_MSG)


class _Addresses:
    """An ``__array_interface__`` describing a buffer's addresses (never dereferenced)."""

    __slots__ = ("__array_interface__",)

    def __init__(self, b) -> None:
        self.__array_interface__ = {
            "data": (_dev.data_ptr(b), True), "shape": tuple(b.shape), "strides": tuple(b.strides),
            "typestr": b.dtype.str, "version": 3,
        }


def address_view(b) -> np.ndarray:
    """A NumPy array with ``b``'s addresses, shape and strides (``b`` on the host or the
    device), for `np.shares_memory`, which only does arithmetic on them."""
    return np.asarray(_Addresses(b))


def bump_version(self) -> None:
    self._get_vc().v += 1


def standin(self) -> Tensor:
    """A tensor object carrying ``self``'s current autograd identity (its old value's
    history), sharing its buffer."""
    s = object.__new__(Tensor)
    s._buf = self._buf
    s._vc = self._get_vc()
    g = self._gfn
    if self._base is not None:
        g = G.view_grad_fn(self)
    s._gfn = g
    s._oi = self._oi
    s._rg = self._rg
    if self._acc is not None:
        s._acc = self._acc
    return s


def copy_into(dst, src) -> None:
    """``dst[...] = src`` (cast unsafely), on ``dst``'s device."""
    if type(dst) is _nd:
        np.copyto(dst, src, casting="unsafe")
    else:
        _dev.xp_of(dst).copyto(dst, src, casting="unsafe")


def _dev_new_val(new_val, fn, args):
    """The new value of an in-place op on the CUDA device: ``new_val`` if the caller computed
    it there (or it is a scalar), else ``fn`` evaluated there."""
    t = type(new_val)
    if t in _DEV:
        return new_val
    if t in _PY:
        return new_val
    if isinstance(new_val, (np.ndarray, np.generic)) and new_val.ndim == 0:
        return new_val.item()
    return _run_fn(fn, [a._buf if isinstance(a, Tensor) else a for a in args], False)


def apply_inplace(self, name, key, fn, args, new_val, edges=None):
    """``self`` (= args[0]) becomes ``fn(*args)`` whose value ``new_val`` (a buffer, any
    dtype, broadcastable) has been computed.  Handles autograd, views, versions."""
    buf = self._buf
    if type(buf) is not _nd:
        if type(buf) not in _DEV or not on_device(args):  # functional mode: rebind
            return _inplace_functional(self, fn, args)
        args = unify_devices(args)
        new_val = _dev_new_val(new_val, fn, args)
    elif STATE.enabled or len(args) > 1:
        for a in args:
            if isinstance(a, Tensor) and type(a._buf) in _DEV:
                raise _dev.same_device_error(str(a.device), "cpu")
    for a in args[1:]:
        if isinstance(a, Tensor) and may_alias(buf, a._buf):
            check_no_alias(buf, a._buf, name not in _NO_FULL_ALIAS)
    need_grad = _inplace_needs_grad(self, args)
    if not need_grad:
        check_no_internal_overlap(buf)
        copy_into(buf, new_val)
        bump_version(self)
        return self
    _check_inplace(self, True)
    check_no_internal_overlap(buf)
    if type(new_val) is _nd and new_val.dtype != buf.dtype:
        fn, key = _into_dtype(fn, buf.dtype), (key, "into", buf.dtype)
    old = standin(self)
    args = (old,) + tuple(args[1:])
    if self._base is not None:
        return _inplace_view(self, name, key, fn, args, new_val, edges)
    if _reads_old_value(key, fn, args):
        old._buf = buf.copy()
        old._vc = None
    vc = self._get_vc()
    copy_into(buf, new_val)
    vc.v += 1
    node = G.record(name, key, fn, args, [self], edges)
    if node is not None and len(args) > 1:
        G.saved_before_write(node, vc, vc.v - 1)
    if self._retains:
        _move_retain(self, old)
    return self


def _into_dtype(fn, dtype):
    """``fn`` whose result is converted to ``dtype``, the written tensor's: an in-place op
    computed in a wider dtype (``float32.add_(float64)``) stores the narrower one, and the
    conversion's transpose gives the other operands their own dtype's gradient (the float32
    cotangent reached a float64 ``other`` unconverted)."""
    def into(*xs):
        return ew.convert_element_type(fn(*xs), dtype)

    return into


def _inplace_needs_grad(self, args) -> bool:
    """Whether writing ``fn(*args)`` into ``self`` (= args[0]) records a gradient: an argument
    tracks one, or ``self`` is a view of a base that does."""
    if not STATE.enabled:
        return False
    if builtins.any(isinstance(a, Tensor) and tracks_grad(a) for a in args):
        return True
    b = self._base
    return b is not None and (b._rg or b._gfn is not None)


def write_in_place(self, args, write) -> bool:
    """An in-place op on the host that records no gradient, computed in ``self``'s buffer:
    ``write(buf)`` updates ``buf`` (= ``self._buf``, = ``args[0]``'s) in place, e.g. a
    scatter-add, instead of computing the new value into a copy and copying it back.  False
    (nothing done: the caller takes `apply_inplace`'s path, its checks and errors) unless
    every buffer is on the host, none of the other arguments shares memory with ``self`` and
    no gradient is recorded.

    >>> import numpy as np, fgrad.torch as torch
    >>> z = torch.zeros(3)
    >>> write_in_place(z, (z,), lambda b: np.add.at(b, [0, 0], 1.0)), z
    (True, tensor([2., 0., 0.]))
    """
    buf = self._buf
    if type(buf) is not _nd or _inplace_needs_grad(self, args):
        return False
    for a in args[1:]:
        ab = a._buf if isinstance(a, Tensor) else a
        if isinstance(ab, (np.ndarray, np.generic)):
            if np.may_share_memory(buf, ab):
                return False
        elif not isinstance(ab, (bool, int, float, complex)):
            return False
    check_no_internal_overlap(buf)
    write(buf)
    bump_version(self)
    return True


def _reads_old_value(key, fn, args) -> bool:
    """Whether the backward program of the in-place op ``fn(*args)`` reads its first input,
    the written tensor's old value (which must then be copied before the write)."""
    avals = tuple(
        (a._buf.shape, a._buf.dtype) if isinstance(a, Tensor) else (a.shape, a.dtype) for a in args
    )
    diff = tuple(
        i for i, a in enumerate(args)
        if isinstance(a, Tensor) and tracks_grad(a) and _dtype_kind(a._buf.dtype) in "fc"
    )
    return bool(diff) and 0 in G.get_program(key, fn, avals, diff, False).in_used


def _move_retain(self, old) -> None:
    """retain_grad follows the tensor to its new grad_fn after an in-place op (PyTorch)."""
    prev = old._gfn
    if prev is not None and prev._retain:
        prev._retain.pop(old._oi, None)
    node = self._gfn
    if node is not None:
        if node._retain is None:
            node._retain = {}
        node._retain[self._oi] = weakref.ref(self)


def _inplace_functional(self, fn, args):
    """Functional mode (tensors hold fgrad values): the tensor is rebound to the new value."""
    with cpu_default():
        new = fn(*fgrad_values(args))
    if not STATE.enabled:
        new = no_grad_value(new)
    functional_write(self, new)
    return self


def _view_mask(base, view) -> np.ndarray:
    """Boolean array of ``base``'s shape: True where ``view``'s memory lies."""
    # in bytes: a view may have another dtype than its base (``real``/``imag`` of a complex
    # tensor, ``view_as_real``, ``view_as_complex``); a base element is in the view when any
    # of its bytes is
    bb, vb = base._buf, view._buf
    flat = base._storage()._flat
    mbytes = np.zeros(flat.shape[0] * flat.itemsize, np.int8)
    strided = np.lib.stride_tricks.as_strided
    voff = view.storage_offset() * vb.itemsize
    strided(mbytes[voff:], tuple(vb.shape) + (vb.itemsize,), tuple(vb.strides) + (1,))[...] = 1
    boff = base.storage_offset() * bb.itemsize
    bview = strided(mbytes[boff:], tuple(bb.shape) + (bb.itemsize,), tuple(bb.strides) + (1,))
    return np.asarray(bview.any(axis=-1))  # (a 0-d base: NumPy's any returns a scalar)


def _apply_vfn(chain, x):
    for f, params in chain:
        x = f(x, *params)
    return x


def _chain_key(chain):
    return tuple((f.__name__, params) for f, params in chain)


def _copyslices_fn(chain, op_fn, op_key):
    """fgrad function (base, mask, *others) -> new base: the op applied to the view region."""

    def g(base, mask, *others):
        v = _apply_vfn(chain, base)
        nv = op_fn(v, *others)
        _, f_vjp = vjp(lambda b: _apply_vfn(chain, b), base)
        nv = ew.convert_element_type(nv, v.dtype)
        if _dtype_kind(v.dtype) == _dtype_kind(base.dtype):
            (placed,) = f_vjp(nv)
            return ew.select(mask, placed, base)
        # a view of another dtype (``real``/``imag``, ``view_as_real``/``view_as_complex``)
        # covers part of each base element: the transpose places the view's values (conjugated,
        # by the complex cotangent convention of `vjp`), and the rest of the element is kept
        if _dtype_kind(base.dtype) == "c":
            (placed,) = f_vjp(nv)
            (covered,) = f_vjp(v)
            placed, covered = ew.conj(placed), ew.conj(covered)
        else:
            (placed,) = f_vjp(ew.conj(nv))
            (covered,) = f_vjp(ew.conj(v))
        return ew.select(mask, ew.add(ew.sub(base, covered), placed), base)

    return g


def _inplace_view(self, name, key, fn, args, new_val, edges):
    base = self._base
    chain = self._vfn
    mask = _view_mask(base, self)
    if type(base._buf) in _DEV:
        mask = _dev.to_dev(mask, _dev.index_of(base._buf))
    bold = standin(base)
    nargs = (bold, mask) + tuple(args[1:])
    g = _copyslices_fn(chain, fn, key)
    ckey = ("CopySlices", _chain_key(chain), key)
    if _reads_old_value(ckey, g, nargs):
        bold._buf = base._buf.copy()
        bold._vc = None
    vc = self._get_vc()
    copy_into(self._buf, new_val)
    vc.v += 1
    if edges is None:
        cedges = (0,) + tuple(i + 1 for i in range(1, len(args)) if isinstance(nargs[i + 1], Tensor))
    else:
        cedges = (0,) + tuple(e + 1 for e in edges if e != 0)
    node = G.record("CopySlices", ckey, g, nargs, [base], cedges)
    if node is None:
        return self
    if len(args) > 1:
        G.saved_before_write(node, vc, vc.v - 1)
    # the view's grad_fn is regenerated from the base on access (AsStridedBackward0)
    return self


def regenerate_view_grad_fn(t) -> None:
    """Give view ``t`` a fresh grad_fn reading from its base's current history."""
    base = t._base
    chain = t._vfn
    fn = _view_fn_of(chain)
    node = None
    if base._rg or base._gfn is not None:
        node = G.record("AsStridedBackward0", ("view", _chain_key(chain)), fn, (base,), [None])
    t._gfn = node
    t._oi = 0
    t._vver = t._vc.v if t._vc is not None else 0


def _view_fn_of(chain):
    def fn(x):
        return _apply_vfn(chain, x)

    return fn


def resize_(self: Tensor, *sizes: int | Sequence[int], memory_format: memory_format | None = None) -> Tensor:
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list, Size)):
        sizes = tuple(sizes[0])
    sizes = tuple(int(s) for s in sizes)
    if tracks_grad(self) and STATE.enabled:
        raise RuntimeError("cannot resize variables that require grad")
    b = self._buf
    n = int(np.prod(sizes, dtype=np.int64))
    if b.shape == sizes:
        return self
    st = self._storage()
    off = self.storage_offset()
    flat = st._flat
    if off + n > flat.shape[0]:
        new = _dev.xp_of(flat).zeros(off + n, b.dtype)
        new[: flat.shape[0]] = flat
        st._flat = new
        flat = new
    self._buf = flat[off : off + n].reshape(sizes)
    return self


class ToCopyBackward0(G.Node):
    """The node of a device transfer: the gradient goes back to the source device."""

    __slots__ = ("_src",)

    def _apply(self, cts, create_graph: bool):
        c = cts[0]
        if create_graph:
            return [transfer(c if isinstance(c, Tensor) else _wrap(c), self._src)]

        return [to_device_buf(c._buf if isinstance(c, Tensor) else c, self._src)]


def buf_index(b):
    """The CUDA index of a buffer (None: host)."""
    if type(b) is _nd:
        return None
    return _dev.index_of(b) if type(b) in _DEV else None


def transfer(input, index):
    """``input`` on CUDA device ``index`` (None: the host): a copy recorded by autograd (the
    gradient flows back to the source device); ``input`` itself if already there."""
    b = input._buf
    if type(b) is not _nd and type(b) not in _DEV:  # functional mode (tracers)
        return input
    src = buf_index(b)
    if src == index:
        return input
    res = result_tensor(to_device_buf(b, index))
    if STATE.enabled and tracks_grad(input):
        node = ToCopyBackward0()
        node._src = src
        node._next = (G.edge_of(input),)
        if _dtype_kind(res._buf.dtype) in "fc":
            res._gfn = node
            res._oi = 0
    return res
