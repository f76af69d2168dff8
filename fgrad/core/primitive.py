"""`Primitive`: one operation and all of its rules in one place.

A primitive carries

* ``impl(xp, *buffers, **params)``  compute on backend buffers (``xp`` is numpy or cupy);
* ``abstract_eval(*avals, **params)``  output `ShapedArray` (or a list of them);
* ``jvp(primals, tangents, **params)``  forward-mode rule written with fgrad ops;
  a tangent of ``None`` is a symbolic zero.  Returns ``(primal_out, tangent_out)``;
* ``transpose(ct, *args, **params)``  only for linear primitives: ``args`` holds
  `UndefinedPrimal` for the linear inputs; returns one cotangent (or None) per input;
* ``batch(axis_size, args, dims, **params)``  the vmap rule; returns ``(out, out_dim)``;
* ``kernel`` (optional)  a template that makes the op fusible in jit.

The rules are declared with the helpers of `fgrad.core.rules` (``defjvp``, ``deflinear``,
``defbatch`` ...), which record them in ``declared``.

`bind` hands the operation to the current trace.  At the bottom (no transform active),
the eval path runs ``impl`` directly: no abstract evaluation, no allocation beyond the
result wrapper.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
from .narrow_floats import dtype_kind

from .._config import on_option_change
from .._lru import clear_all
from ..backends import transfer_guard as _transfer_guard
from ..backends import (_BY_TYPE, NUMPY, DeviceMismatchError, backend_of_buffer, default_backend,
                        default_device, mismatch_error)
from .array import ArrayImpl, Tracer, escaped_tracer_error, get_aval, wrap
from . import provenance
from . import sharding_flow
from . import trace as _trace_mod
from . import x64_mode
from .trace import EVAL_TRACE, EvalTrace, state
from .weak_types import WEAK_SCALAR_TYPES as _WEAK_SCALARS

PRIMITIVES: dict[str, "Primitive"] = {}


class Primitive:
    """An fgrad primitive.  See the module docstring for the rules it carries.

    Example::

        >>> import numpy as np
        >>> from fgrad.core.array import ShapedArray
        >>> twice_p = Primitive("doc_twice", impl=lambda xp, x: 2 * x,
        ...                     abstract_eval=lambda a: ShapedArray(a.shape, a.dtype))
        >>> twice_p.bind(np.arange(3.0))
        Array([0., 2., 4.], dtype=float64)
        >>> del PRIMITIVES["doc_twice"]  # (keep the doctest out of the registry)
    """

    def __init__(
        self,
        name: str,
        impl: Callable,
        abstract_eval: Callable,
        *,
        multiple_results: bool = False,
        family: str = "other",
        effectful: bool = False,
    ) -> None:
        self.name = name
        self.impl = impl
        self.abstract_eval = abstract_eval
        self.multiple_results = multiple_results
        self.family = family
        # acts outside its result (collectives, host callbacks): jit never folds, merges (CSE),
        # drops (DCE) or reorders it
        self.effectful = effectful
        self.jvp: Callable | None = None
        self.transpose: Callable | None = None
        self.batch: Callable | None = None
        self.kernel: Any = None
        self.linear = False  # linear in all array inputs (transpose rule present)
        self.declared: dict = {}  # the rules set through `fgrad.core.rules` helpers
        # a dict subclass its equations' parameters are kept as (`core.ir.Eqn`): JAX's names
        # for them beside fgrad's (``jit``: `transforms.jit_primitive.JitParams`)
        self.params_view: type | None = None
        self.dtype_cache: dict = {}
        if name in PRIMITIVES:
            raise ValueError(f"primitive {name!r} defined twice")
        PRIMITIVES[name] = self
        if not x64_mode.enabled:
            _narrow_rules(self)

    def __repr__(self) -> str:
        return self.name

    def bind(self, *args, **params):
        trace = state.trace
        if trace is EVAL_TRACE:
            return eval_primitive(self, args, params)
        return trace.process(self, args, params)


class JaxParamsPrimitive(Primitive):
    """A primitive whose JAX counterpart's ``bind`` takes parameters fgrad's does not have
    (``accuracy=None`` of ``exp``/``sin``/..., ``out_dtype=None`` of ``mul``): ``bind`` drops
    them at their default value, so an interpreter can bind ``eqn.params`` of JAX's jaxprs.
    Made by `accept_jax_params`; other primitives' ``bind`` is untouched."""

    jax_defaults: dict

    def bind(self, *args, **params):
        if params:
            params = _without_jax_defaults(self, params)
        trace = state.trace
        if trace is EVAL_TRACE:
            return eval_primitive(self, args, params)
        return trace.process(self, args, params)


def _without_jax_defaults(prim: JaxParamsPrimitive, params: dict) -> dict:
    extra = prim.jax_defaults.keys() & params.keys()
    for k in extra:
        if params[k] != prim.jax_defaults[k]:
            raise NotImplementedError(
                f"{prim.name}_p.bind: JAX's parameter {k}={params[k]!r} is not supported by "
                f"fgrad's {prim.name} (only {k}={prim.jax_defaults[k]!r}, JAX's default)")
    return {k: v for k, v in params.items() if k not in extra} if extra else params


def accept_jax_params(prim: Primitive, **defaults: Any) -> None:
    """Let ``prim.bind`` take JAX's extra parameters ``defaults`` (at those values only).

    Example::

        >>> from fgrad.ops.elementwise import exp_p
        >>> float(exp_p.bind(0.0, accuracy=None))
        1.0
    """
    prim.__class__ = JaxParamsPrimitive
    prim.jax_defaults = {**getattr(prim, "jax_defaults", {}), **defaults}


def eval_primitive(prim: Primitive, args, params):
    """Run ``prim.impl`` on the buffers of concrete arguments and wrap the result.

    The backend is the one of the Array operands' buffers (the default device's when there
    is none).  The numpy path costs one type comparison per operand over the plain call;
    anything else goes through `_eval_on_device`, which checks that all operands share a
    device and places raw host constants explicitly."""
    bufs = []
    t0 = None
    mixed = False
    weak = False
    py_weak = strong = False
    for a in args:
        if type(a) is ArrayImpl:
            if a._weak:
                weak = True
            else:
                strong = True
            b = a._buf
            if t0 is None:
                t0 = type(b)
            elif type(b) is not t0:
                mixed = True
            bufs.append(b)
        elif isinstance(a, Tracer):
            raise escaped_tracer_error(a, prim.name)
        else:
            if type(a) in _WEAK_SCALARS:
                py_weak = True
            bufs.append(a)
    if py_weak and not strong:
        # Python scalars are weakly typed (as staged under jit): lax.broadcast(2.0, s) is weak.
        # Beside a strongly typed Array operand (pad's value, dynamic_slice's starts) they
        # leave the result strong, so the hot eager path skips the abstract rule there.
        weak = True
    if t0 is None:
        be = default_backend()
    else:
        be = _BY_TYPE.get(t0)
        if be is None:  # a buffer type seen for the first time (e.g. cupy before it loaded)
            be = backend_of_buffer(next(a._buf for a in args if type(a) is ArrayImpl))
    if mixed or be is not NUMPY:
        res = _eval_on_device(prim, args, bufs, params, be, mixed)
        if weak:
            res = _weak_results(prim, args, params, res)
        return sharding_flow.eager_results(args, res, prim, params) if sharding_flow.live else res
    try:
        out = prim.impl(np, *bufs, **params)
    except (ValueError, TypeError) as e:
        err = _abstract_error(prim, args, params)
        if err is None:
            raise
        raise err from e
    if prim.multiple_results:
        res = []
        for o in out:
            w = object.__new__(ArrayImpl)
            w._weak = False
            w._buf = o
            res.append(w)
        if weak:
            res = _weak_results(prim, args, params, res)
        return sharding_flow.eager_results(args, res, prim, params) if sharding_flow.live else res
    w = object.__new__(ArrayImpl)
    w._weak = False
    w._buf = out
    if weak:
        w = _weak_results(prim, args, params, w)
    return sharding_flow.eager_results(args, w, prim, params) if sharding_flow.live else w


def _weak_results(prim, args, params, res):
    """Mark the results of ``prim`` on weakly typed operands weak where its abstract rule
    says so (JAX: most operations keep weak types when all their operands are weak).
    Elementwise primitives do this in their own ``bind`` (`ops.elementwise`)."""
    if prim.family == "elementwise" or prim.abstract_eval is None:
        return res
    try:
        out_avals = prim.abstract_eval(*[get_aval(a) for a in args], **params)
    except Exception:  # noqa: BLE001 - a rule that needs more than avals: results stay strong
        return res
    if prim.multiple_results:
        return [wrap(r._buf, True) if getattr(av, "weak_type", False) else r
                for r, av in zip(res, out_avals)]
    return wrap(res._buf, True) if getattr(out_avals, "weak_type", False) else res


_HOST_SCALARS = (int, float, complex, bool, np.generic)
# families whose device implementations take host scalars (cupy ufuncs, cupyx.scipy.special)
_SCALAR_TAKING_FAMILIES = frozenset({"elementwise", "special_function"})


def _eval_on_device(prim, args, bufs, params, be, mixed):
    """The general path: operands on one device (else `DeviceMismatchError`), raw host
    constants uploaded explicitly, results checked to be on that device."""
    if mixed:
        be = None
        for a in args:
            if type(a) is ArrayImpl:
                bb = _BY_TYPE.get(type(a._buf)) or backend_of_buffer(a._buf)
                if be is None:
                    be = bb
                elif bb is not be:
                    raise _mismatch(prim, args)
        if be is NUMPY:  # numpy arrays and numpy scalars: the host path after all
            return _run(prim, args, np, bufs, params)
    if be.multi_device and sum(type(a) is ArrayImpl for a in args) > 1:
        d0 = None
        for a in args:
            if type(a) is ArrayImpl:
                d = be.device_of(a._buf)
                if d0 is None:
                    d0 = d
                elif d != d0:
                    raise _mismatch(prim, args)
    if be is NUMPY:  # no Array operand and a host default device
        return _run(prim, args, np, bufs, params)
    dev = None
    # without an Array operand (the default device's backend runs it), a NumPy scalar operand
    # is uploaded: cupy's functions that call its methods (``reshape``) return host data
    upload_scalars = not any(type(a) is ArrayImpl for a in args)
    for i, (a, b) in enumerate(zip(args, bufs)):
        if type(a) is ArrayImpl or b is None:
            continue
        if isinstance(b, _HOST_SCALARS):
            # cupy's array functions (reshape, broadcast_to, ...) take only cupy arrays and, given
            # a NumPy scalar, call its methods and return host data; its ufuncs (and cupyx's
            # special functions) take scalars with NumPy's weak promotion: those keep them
            # unless no Array operand is present (an uploaded Python float would be a strong
            # float64: polygamma(1.0, float32) gave float64)
            if (prim.family not in _SCALAR_TAKING_FAMILIES
                    or (upload_scalars and isinstance(b, np.generic))):
                if dev is None:
                    dev = _op_device(args, be)
                bufs[i] = be.from_host(np.asarray(b), dev)
            continue
        if be.owns(b):
            continue
        if isinstance(b, np.ndarray) and b.dtype != object:
            # a raw host constant handed to the op (fgrad's own composites do this): upload it
            # explicitly to the op's device, as jax.numpy does with NumPy inputs
            if dev is None:
                dev = _op_device(args, be)
            if _transfer_guard.active:
                _transfer_guard.check("host_to_device", f"a NumPy operand {b.dtype}{list(b.shape)} of "
                                                        f"{prim.name} to {dev}")
            bufs[i] = be.from_host(np.asarray(b), dev)
        elif hasattr(b, "shape") and hasattr(b, "dtype"):
            other = backend_of_buffer(b)
            if other is not be:
                raise mismatch_error(prim.name, [
                    ("an operand", f"{b.dtype}{list(b.shape)}", other.device_of(b)),
                    ("the others", "", _op_device(args, be))])
    return _run(prim, args, be.xp, bufs, params, be)


def check_same_device(prim, args) -> None:
    """Raise `DeviceMismatchError` unless the Array operands of ``prim`` share one device
    (for interpreters that run programs on buffers themselves, e.g. the reverse-mode tape)."""
    dev = None
    for a in args:
        if type(a) is ArrayImpl:
            b = a._buf
            d = backend_of_buffer(b).device_of(b)
            if dev is None:
                dev = d
            elif d != dev:
                raise _mismatch(prim, args)


def _mismatch(prim, args):
    placed = []
    for i, a in enumerate(args):
        if type(a) is ArrayImpl:
            b = a._buf
            placed.append((f"argument {i}", get_aval(a).str_short(), backend_of_buffer(b).device_of(b)))
    return mismatch_error(prim.name, placed)


def _op_device(args, be):
    for a in args:
        if type(a) is ArrayImpl:
            return be.device_of(a._buf)
    d = default_device()
    return d if d.backend_name == be.name else be.current_device()


def _run(prim, args, xp, bufs, params, be=None):
    try:
        out = prim.impl(xp, *bufs, **params)
    except (ValueError, TypeError) as e:
        if isinstance(e, DeviceMismatchError):
            raise
        err = _abstract_error(prim, args, params)
        if err is None:
            raise
        raise err from e
    outs = out if prim.multiple_results else (out,)
    res = []
    for o in outs:
        if be is not None and not be.owns(o):
            o = _device_result(prim, be, o, args)
        w = object.__new__(ArrayImpl)
        w._weak = False
        w._buf = o
        res.append(w)
    return res if prim.multiple_results else res[0]


def _device_result(prim, be, o, args):
    """A result that is not a buffer of the op's backend: scalars are placed (cupy returns
    0-d arrays where NumPy returns scalars); a host array is a bug in the implementation."""
    if isinstance(o, _HOST_SCALARS):
        return be.from_host(np.asarray(o), _op_device(args, be))
    raise TypeError(
        f"internal error: the implementation of `{prim.name}` returned a "
        f"{type(o).__module__}.{type(o).__name__} while running on the {be.name} backend "
        f"(host data leaked into a device computation). Implementations must create arrays "
        f"with `xp`, not numpy."
    )


def _abstract_error(prim: Primitive, args, params):
    """The shape/dtype rule's error (it names the op, the shapes and the fix) for arguments
    the implementation rejected; None if the rule accepts them.  Only runs on failure, so
    the eager path stays free of abstract evaluation."""
    try:
        prim.abstract_eval(*[get_aval(a) for a in args], **params)
    except (ValueError, TypeError) as err:
        return err
    return None


_trace_mod.eval_primitive = eval_primitive


# ---------------------------------------------------------------------------------------
# 64-bit types off (`fgrad.core.x64_mode`): every primitive's results are narrowed


def _narrowing(fn, multiple_results: bool, narrow_one):
    """``fn`` (an implementation or a shape/dtype rule) whose results are narrowed by
    ``narrow_one`` while 64-bit types are off: NumPy computes an int32 sum in int64 and a mean
    of ints in float64 where JAX gives int32 and float32, and the rules must agree so traced
    programs match eager ones."""
    def narrowed(*args, **params):
        out = fn(*args, **params)
        if x64_mode.enabled:
            return out
        if multiple_results:
            return type(out)(narrow_one(o) for o in out)
        return narrow_one(out)
    narrowed.wrapped_for_x32 = fn
    return narrowed


def _narrowing_impl(impl, multiple_results: bool):
    """``impl`` run on narrowed operands (`x64_mode.narrow_operands`: JAX converts a NumPy
    float64 array or a lone Python float to float32 before it computes, so ``jnp.sin(np.pi)``
    is ``sin(float32(pi))`` there), its results narrowed as `_narrowing` does."""
    narrowed = _narrowing(impl, multiple_results, x64_mode.narrow_buffer)

    def on_narrow_operands(xp, *args, **params):
        if not x64_mode.enabled:
            args = x64_mode.narrow_operands(args)
        return narrowed(xp, *args, **params)
    on_narrow_operands.wrapped_for_x32 = impl
    return on_narrow_operands


def _narrow_rules(prim: Primitive) -> None:
    if prim.impl is not None and not hasattr(prim.impl, "wrapped_for_x32"):
        prim.impl = _narrowing_impl(prim.impl, prim.multiple_results)
    if prim.abstract_eval is not None and not hasattr(prim.abstract_eval, "wrapped_for_x32"):
        prim.abstract_eval = _narrowing(prim.abstract_eval, prim.multiple_results, x64_mode.narrow_aval)


def _unwrap(fn):
    return getattr(fn, "wrapped_for_x32", fn)


def _set_x64(enabled: bool) -> None:
    """Wrap (64-bit types off) or unwrap (on) every primitive's implementation and rule, so
    the default mode pays nothing.  The wrappers read the switch themselves, so a wrapper
    that stays (an implementation re-wrapped by its module afterwards) is still right."""
    for prim in PRIMITIVES.values():
        prim.dtype_cache.clear()  # result dtypes found by running the implementation
        if enabled:
            prim.impl = _unwrap(prim.impl)
            prim.abstract_eval = _unwrap(prim.abstract_eval)
        else:
            _narrow_rules(prim)


x64_mode.on_change(_set_x64)
on_option_change("jax_enable_x64", x64_mode.set_enabled)
# compiled programs hold the implementations of the mode they were built in
x64_mode.on_change(lambda enabled: clear_all())


class DebugCheckTrace(EvalTrace):
    """The bottom trace while ``jax_debug_nans``/``jax_debug_infs`` is on: it evaluates each
    primitive as `EvalTrace` does, then raises FloatingPointError if a result has a NaN (or
    an infinity), naming the primitive.  Being the current trace instead of ``EVAL_TRACE``
    also turns off the eager fast paths that bypass ``bind`` (so every operation, and every
    jit call as a whole, is checked)."""

    __slots__ = ("nans", "infs")

    def __init__(self, nans: bool, infs: bool) -> None:
        super().__init__(None, "eval (debug checks)")
        self.nans, self.infs = nans, infs

    def process(self, prim, args, params):
        out = eval_primitive(prim, args, params)
        for o in (out if prim.multiple_results else (out,)):
            b = getattr(o, "_buf", None)
            if b is None or dtype_kind(b.dtype) not in "fc":
                continue
            xp = backend_of_buffer(b).xp
            if self.nans and bool(xp.isnan(b).any()):
                print(JIT_NAN_MESSAGE)
                raise _provenance_error(prim, args, "nan")
            if self.infs and bool(xp.isinf(b).any()):
                print(JIT_NAN_MESSAGE)
                raise _provenance_error(prim, args, "inf")
        return out


# what JAX prints (to stdout) each time a jitted computation -- an eager operation is one --
# finds a NaN or an infinity in its output while jax_debug_nans/infs is on, before it reruns
# the function op by op; programs' printed output has these lines, so fgrad prints them too:
# once for the operation, once more for each jitted function it is in (`fgrad.transforms.jit`)
JIT_NAN_MESSAGE = ("Invalid nan value encountered in the output of a jax.jit function. "
                   "Calling the de-optimized version.")


def _provenance_error(prim, args, what: str) -> FloatingPointError:
    """The error for a ``what`` ("nan"/"inf") value in ``prim``'s result: it blames the
    primitive, or the first input that already had such a value (`fgrad.core.provenance`)."""
    bad = None
    avals = []
    for i, a in enumerate(args):
        if type(a) is ArrayImpl:
            b, xp = a._buf, backend_of_buffer(a._buf).xp
            avals.append(get_aval(a).str_short())
        elif type(a) in (bool, int, float, complex):
            b, xp = np.asarray(a), np
            avals.append(f"Python {type(a).__name__} {a!r}")
        elif isinstance(a, np.generic):
            b, xp = np.asarray(a), np
            avals.append(f"{b.dtype}[] {a.item()!r}")
        else:
            avals.append(type(a).__name__)
            continue
        test = xp.isnan if what == "nan" else xp.isinf
        if bad is None and b.dtype.kind in "fc" and bool(test(b).any()):
            bad = i
    return provenance.floating_point_error(prim, args, what, bad, avals)


_debug_checks = {"nans": False, "infs": False}


def _set_debug_check(kind: str, value: bool) -> None:
    """Turn the NaN/inf checks (config ``jax_debug_nans``/``jax_debug_infs``) on or off for
    this thread: the bottom trace becomes a `DebugCheckTrace` or ``EVAL_TRACE`` again."""
    cur = state.trace
    if cur is not EVAL_TRACE and not isinstance(cur, DebugCheckTrace):
        raise RuntimeError(f"fgrad.config: set jax_debug_{kind} outside any transform (not inside "
                           "grad/jit/vmap)")
    _debug_checks[kind] = bool(value)
    nans, infs = _debug_checks["nans"], _debug_checks["infs"]
    provenance.CHECKS["on"] = nans or infs
    state.trace = DebugCheckTrace(nans, infs) if (nans or infs) else EVAL_TRACE


on_option_change("jax_debug_nans", lambda v: _set_debug_check("nans", v))
on_option_change("jax_debug_infs", lambda v: _set_debug_check("infs", v))
