"""Tensor operations: the eager fast path, PyTorch dtype promotion, recording, in-place ops.

Every differentiable op has an *fgrad definition* -- a primitive's ``bind`` or a composite
of fgrad ops -- which is what autograd differentiates (see `autograd.graph`).  The forward
pass runs either that primitive's implementation directly on the NumPy buffers (elementwise
ops: one ufunc call) or the same fgrad function evaluated eagerly, so the numbers come from
one place.  Inputs are cast to the PyTorch result dtype before the implementation runs.

In-place ops write into the tensor's buffer (so every view and NumPy alias sees the
change), bump the shared version counter, and -- when autograd is involved -- record a node
whose input is the *old* value (copied only if the backward program needs it).  An
in-place op on a view of a tensor that autograd tracks records ``CopySlices`` on the base:
one node whose fgrad function writes the op's result into the view region of the base.
"""

from __future__ import annotations

import builtins
import collections
import math
from functools import partial as _partial, wraps as _wraps

import numpy as np
from ..core.narrow_floats import NARROW_FLOATS as _NARROW_FLOATS, dtype_kind as _dtype_kind
from ..core.narrow_floats import sortable as _sortable

from ..ops import cumulative as _cum
from ..ops import elementwise as ew
from ..ops import shape as shape_prims
from ..ops.bits import stop_gradient
from ..core.quiet import quiet, switch
import fgrad.torch._conventions as _conv
import fgrad.torch._device as _dev
import fgrad.torch._deprecations as _deprecations
import fgrad.torch._dtypes as D
import fgrad.torch._errors as _errors
import fgrad.torch._fma as _fma
from . import _profile_state
from ._stl_order import sort_order as _sort_order, topk_order as _topk_order
from ._device import DEV as _DEV
from ._dispatch import (  # noqa: F401
    result_tensor,
    tracks_grad,
    fgrad_value,
    from_fgrad_value,
    run_functional,
    fresh_buffer,
    run_forward,
    device_constant,
    unify_devices,
    apply_op,
    apply_computed,
    cast_primitive,
    write_out,
    write_out_multi,
    check_no_internal_overlap,
    may_alias,
    check_no_alias,
    bump_version,
    copy_into,
    apply_inplace,
    resize_,
    ToCopyBackward0,
    buf_index,
    transfer,
)
from ._promotion import cpp_type_name as _cpp_type_name
from ._promotion import (  # noqa: F401
    scalar_type_name,
    can_cast,
    scalar_value,
    result_dtype,
    binary_result_dtype,
    wrapped_int,
)
from ._faces import (  # noqa: F401
    _scalar_rounded,
    check_tensor_other,
    refuse_bool_subtraction,
    BOOL_SUBTRACTION as _BOOL_SUBTRACTION,
    composite_unary,
    as_tensor_arg,
    binary_operands,
    check_int_divisor,
    BINOPS,
    generate_faces,
    refusing_faces,
)
from ._ops_creation import check_fill_value as _check_fill_value
from ._random import COMPILE_RNG as _COMPILE_RNG, default_generator, rand as _rand  # noqa: F401
from ._tensor import Size, Tensor, _alias, _wrap, _channels_last_strides as _cl_strides, wrap_dim as _wrap_dim
from .types import memory_format as _MemoryFormat
from .autograd import graph as G
from .autograd.grad_mode import STATE
from ._refused_derivatives import (
    failing_backward as _failing_backward,
    needs_refusal as _needs_refusal,
    refused_inplace as _refused_inplace,
    refused_op as _refused_op,
)
import fgrad.numpy as fnp
from fgrad.numpy._sorting import quantile_ranked as _quantile_ranked
import fgrad.nn as fnn
from ._ops_creation import empty as _empty, tensor
from ._autocast_state import fp32 as _autocast_fp32
from collections.abc import Callable, Sequence
from fgrad.torch.types import Dims, DType, memory_format, Number, TensorOrScalar

_set_err, _IGNORE_ERR, _reset_err = switch()  # `apply_op` runs forwards with NumPy's error reports off

_nd = np.ndarray
_PY = (int, float, bool, complex)
_i64 = np.dtype(np.int64)
_bool = np.dtype(np.bool_)


# ---------------------------------------------------------------------------------------
# elementwise unary


def _mk_rsqrt():
    def f(x):
        return ew.div(1.0, ew.sqrt(x))

    return f


rsqrt, rsqrt_ = composite_unary(
    "rsqrt", "RsqrtBackward0", _mk_rsqrt
)
reciprocal, reciprocal_ = composite_unary(
    "reciprocal",
    "ReciprocalBackward0",
    lambda: lambda x: ew.div(1.0, x),
)


abs, abs_ = refusing_faces(  # noqa: A001
    "abs", *composite_unary("abs", "AbsBackward0", lambda: _conv.abs_torch, to_float=False))
absolute = abs
# PyTorch's sign(nan) = 0 (the core follows JAX: nan)
sign, sign_ = refusing_faces("sign", *composite_unary("sign", "SignBackward0", lambda: _conv.sign_torch,
                                                       to_float=False))


def _mk_frac():
    def f(x):
        return ew.sub(x, ew.trunc(x))

    return f


frac, frac_ = composite_unary("frac", "FracBackward0", _mk_frac)


relu, relu_ = composite_unary(
    "relu",
    "ReluBackward0",
    lambda: _conv.relu,
    to_float=False,
)


def _logit_fn(eps):
    """``log(x) - log(1 - x)``: derivative ``1/x + 1/(1-x)``, +inf (not NaN) at 0 and 1; with
    ``eps`` the input is clamped to ``[eps, 1 - eps]`` and the gradient is 0 outside it
    (PyTorch)."""
    def f(x):
        if eps is not None:
            lo, hi = float(eps), 1.0 - float(eps)
            zero = fnp.zeros_like(x)
            x = fnp.where(ew.lt(x, lo), zero + lo, fnp.where(ew.gt(x, hi), zero + hi, x))
        return ew.sub(ew.log(x), ew.log1p(ew.neg(x))) if eps is not None else _conv.logit(x)

    return f


def logit(input: Tensor, eps: float | None = None, *, out: Tensor | None = None) -> Tensor:
    input = as_tensor_arg(input, "logit")
    x = input if _dtype_kind(input._buf.dtype) in "fc" else input.to(D.DEFAULT.float)
    res = apply_op("LogitBackward0", ("logit", eps), _logit_fn(eps), (x,))
    return res if out is None else write_out(out, res, "logit")


def logit_(self: Tensor, eps: float | None = None) -> Tensor:
    fn = _logit_fn(eps)
    if type(self._buf) is not _nd:
        return apply_inplace(self, "LogitBackward0", ("logit", eps), fn, (self,), None)
    new = run_forward(("logit", eps), fn, [self._buf], False)
    return apply_inplace(self, "LogitBackward0", ("logit", eps), fn, (self,), new)


def square(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    return pow(input, 2, out=out)


def square_(self: Tensor) -> Tensor:
    return self.pow_(2)


def positive(input: Tensor) -> Tensor:
    return as_tensor_arg(input, "positive")


def round(input: Tensor, *, decimals: int = 0, out: Tensor | None = None) -> Tensor:  # noqa: A001
    input = as_tensor_arg(input, "round")
    key = ("round", decimals)

    def fn(x):
        return ew.round_p.bind(x, decimals=decimals)

    res = apply_op(
        "RoundBackward0" if not decimals else "RoundBackward1",
        key,
        fn,
        (input,),
    )
    return res if out is None else write_out(out, res, "round")


def round_(self: Tensor, *, decimals: int = 0) -> Tensor:
    def fn(x):
        return ew.round_p.bind(x, decimals=decimals)

    b = self._buf
    new = run_forward(("round", decimals), fn, [b], False) if type(b) is _nd else None
    return apply_inplace(self, "RoundBackward0", ("round", decimals), fn, (self,), new)


def isposinf(input: Tensor) -> Tensor:
    return result_tensor(np.isposinf(input._buf))


def isneginf(input: Tensor) -> Tensor:
    return result_tensor(np.isneginf(input._buf))


def isreal(input: Tensor) -> Tensor:
    return result_tensor(np.isreal(input._buf))


def nan_to_num(input: Tensor, nan: float = 0.0, posinf: Number | None = None, neginf: Number | None = None, *,
               out: Tensor | None = None) -> Tensor:
    input = as_tensor_arg(input, "nan_to_num")
    if input.is_complex() and STATE.enabled and input.requires_grad:
        raise RuntimeError("nan_to_num does not support automatic differentiation for outputs with complex "
                           "dtype.")

    def fn(x):
        return fnp.nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf)

    res = apply_op(
        "NanToNumBackward0",
        ("nan_to_num", nan, posinf, neginf),
        fn,
        (input,),
    )
    return res if out is None else write_out(out, res, "nan_to_num")


# ---------------------------------------------------------------------------------------
# elementwise binary


_FACES = generate_faces()
globals().update(_FACES)
# generated functions that the hand-written ops in this module call
eq, exp, gt, isnan, log, logical_not, logical_xor, lt, maximum, minimum = (
    _FACES[n] for n in ("eq", "exp", "gt", "isnan", "log", "logical_not", "logical_xor", "lt", "maximum",
                        "minimum"))
_add, _sub, _mul, _div, _pow_tt, _floordiv = (
    BINOPS[n] for n in ("add", "subtract", "multiply", "divide", "power", "floor_divide"))
_floor_divide_face = floor_divide  # noqa: F821 - a generated face


def floor_divide(input: TensorOrScalar, other: TensorOrScalar, *, out: Tensor | None = None) -> Tensor:
    """``input // other`` rounded toward negative infinity; not differentiable (PyTorch: its
    backward raises, `_refused_derivatives`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.floor_divide(torch.tensor([7.0, -3.0]), 2)
        tensor([ 3., -2.])
    """
    if out is None and _needs_refusal(input, other):
        return _refused_op(_floor_divide_face, "floor_divide", input, other)
    return _floor_divide_face(input, other, out=out)


def _floor_divide_(input: Tensor, other: TensorOrScalar) -> Tensor:
    """``input //= other`` in place; not differentiable (PyTorch: its backward raises).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.tensor([7.0, -3.0]).floor_divide_(2)
        tensor([ 3., -2.])
    """
    if _needs_refusal(input, other):
        return _refused_inplace(_floordiv.inplace, "floor_divide_", input, other)
    return _floordiv.inplace(input, other)


floor_divide.op_spec = _floor_divide_face.op_spec


def _bool_refusing_backward(face: Callable, node: str) -> Callable:
    """The generated face ``face`` (``logaddexp``, ``logaddexp2``) whose backward raises
    PyTorch's bool-subtraction error when an operand is a bool tensor (PyTorch's derivative
    subtracts the operands)."""

    @_wraps(face)
    def op(input: TensorOrScalar, other: TensorOrScalar, *, out: Tensor | None = None) -> Tensor:
        if out is None and (_bool_tensor(input) or _bool_tensor(other)) and _needs_refusal(input, other):
            return _failing_backward(face, node, _BOOL_SUBTRACTION, input, other)
        return face(input, other, out=out)

    return op


logaddexp = _bool_refusing_backward(logaddexp, "LogaddexpBackward0")  # noqa: F821 - generated faces
logaddexp2 = _bool_refusing_backward(logaddexp2, "Logaddexp2Backward0")  # noqa: F821


def _check_alpha(Rd: np.dtype, alpha) -> None:
    """PyTorch's checks of an ``alpha`` for result dtype ``Rd`` (``add``, ``sub``)."""
    if type(alpha) is bool and Rd != np.bool_:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    k = _dtype_kind(Rd)
    if k in "biu" and isinstance(alpha, (float, complex)):
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")
    if k != "c" and isinstance(alpha, complex):
        raise RuntimeError("For non-complex input tensors, argument alpha must not be a complex number.")


def _with_alpha(name: str, input, other, alpha, inplace: bool = False):
    """``input + alpha * other`` (``add``) or ``input - alpha * other`` (``sub``) for
    ``alpha != 1``: for real floats PyTorch's fused ``fma(±alpha, other, input)`` recorded as
    one ``AddBackward0``/``SubBackward0``; else ``other * alpha`` then the binary op."""
    a, b = (input, other) if isinstance(input, Tensor) else binary_operands(input, other, name)
    if inplace and isinstance(b, Tensor) and may_alias(a._buf, b._buf):
        check_no_alias(a._buf, b._buf)
    Rd = binary_result_dtype(a, b)
    _check_alpha(Rd, alpha)
    if name == "sub":
        if Rd == np.bool_:
            BINOPS["subtract"].refuse(Rd)
        refuse_bool_subtraction(a, b)
    if _dtype_kind(Rd) == "f" and type(alpha) in (int, float):
        if Rd in _NARROW_FLOATS and type(b) is float:
            b = float(_scalar_rounded(b, Rd))  # PyTorch rounds a number to float16/bfloat16 first
        s = alpha if name == "add" else -alpha
        definition = (lambda x, y: ew.add(x, ew.mul(y, alpha))) if name == "add" else (
            lambda x, y: ew.sub(x, ew.mul(y, alpha)))
        return _ternary(name, "AddBackward0" if name == "add" else "SubBackward0", (name + "_alpha", alpha),
                        definition, (a, b), inplace, lambda x, y, dt: _fma.add_alpha(x, y, s, dt))
    if Rd == np.bool_:
        alpha = bool(alpha)
    if isinstance(b, Tensor):  # alpha * other in the result dtype (a bool other times 2 is not int64)
        b = mul(b if b._buf.dtype == Rd else b.to(D.from_np(Rd)), alpha)
    else:
        b = b * alpha
    op = BINOPS["add" if name == "add" else "subtract"]
    return op.inplace(a, b) if inplace else op(a, b)


def add(input: TensorOrScalar, other: TensorOrScalar, *, alpha: float = 1,
        out: Tensor | None = None) -> Tensor:
    if alpha != 1 or type(alpha) is not int:
        res = _with_alpha("add", input, other, alpha)
        return res if out is None else write_out(out, res, "add", (input, other))
    return _add(input, other) if out is None else _add(input, other, out=out)  # (no kwargs dict)


def sub(input: TensorOrScalar, other: TensorOrScalar, *, alpha: float = 1,
        out: Tensor | None = None) -> Tensor:
    if alpha != 1 or type(alpha) is not int:
        res = _with_alpha("sub", input, other, alpha)
        return res if out is None else write_out(out, res, "sub", (input, other))
    return _sub(input, other) if out is None else _sub(input, other, out=out)


subtract = sub


def mul(input: TensorOrScalar, other: TensorOrScalar, *, out: Tensor | None = None) -> Tensor:
    return _mul(input, other) if out is None else _mul(input, other, out=out)


multiply = mul


def div(input: TensorOrScalar, other: TensorOrScalar, *, rounding_mode: str | None = None,
        out: Tensor | None = None) -> Tensor:
    if rounding_mode is None:
        return _div(input, other) if out is None else _div(input, other, out=out)
    if rounding_mode == "floor":
        a, b = binary_operands(input, other, "div")
        Rd = binary_result_dtype(a, b)
        if _dtype_kind(Rd) in "biu":
            res = _floordiv(a, b)
        else:
            key = ("div_floor", Rd)

            def fn(x, y):  # NumPy's floor_divide is PyTorch's algorithm: 1.0 // 0.1 == 9.0, not 10.0
                return ew.floor_divide_p.bind(ew.convert_element_type(x, Rd), ew.convert_element_type(y, Rd))

            bb = b if isinstance(b, Tensor) else np.asarray(b, Rd)
            res = apply_op(
                "DivBackward2",
                key,
                fn,
                (a, bb),
                edges=(0, 1),
            )
        return res if out is None else write_out(out, res, "div")
    if rounding_mode == "trunc":
        a, b = binary_operands(input, other, "div")
        Rd = binary_result_dtype(a, b)
        if Rd == np.bool_:
            raise NotImplementedError("\"div_trunc_cpu\" not implemented for 'Bool'")
        bb = b if isinstance(b, Tensor) else np.asarray(b, Rd)

        def fn(x, y):
            x, y = ew.convert_element_type(x, Rd), ew.convert_element_type(y, Rd)
            if _dtype_kind(Rd) in "fc":
                return ew.trunc(ew.div(x, y))
            # integers: the floor quotient, plus one where it was rounded down across zero
            q = ew.floor_divide_p.bind(x, y)
            inexact = ew.ne_p.bind(ew.rem_p.bind(x, y), ew.mul(x, 0))
            across = ew.ne_p.bind(ew.lt(x, ew.mul(x, 0)), ew.lt(y, ew.mul(y, 0)))
            return ew.add(q, ew.convert_element_type(ew.logical_and(inexact, across), Rd))

        if _dtype_kind(Rd) in "biu" and type(getattr(bb, "_buf", bb)) is _nd:
            dividend = np.zeros((0,) if getattr(a._buf, "size", 1) == 0 else (), Rd)  # (dtype, emptiness)
            check_int_divisor("div", dividend, getattr(bb, "_buf", bb))
        res = apply_op("DivBackward2", ("div_trunc", Rd), fn, (a, bb), edges=(0, 1))
        return res if out is None else write_out(out, res, "div")
    raise RuntimeError(
        f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{rounding_mode}'"
    )


divide = true_divide = div


def _asb(r, dtype=None):
    """``np.asarray`` for the result of a NumPy call on a buffer: host results become arrays,
    results on the device (NumPy calls on CuPy arrays dispatch to CuPy) pass through."""
    if type(r) in _DEV:
        return r if dtype is None else r.astype(dtype, copy=False)
    return np.asarray(r, dtype)


def _cst(c, like):
    """The host constant ``c`` on ``like``'s device (itself when ``like`` is on the host)."""
    if type(like) is _nd or type(like) not in _DEV:
        return c
    return device_constant(c, _dev.index_of(like))


def _traced(b) -> bool:
    """True for a tracer / fgrad value (functional mode), False for a host or device buffer."""
    return type(b) is not _nd and type(b) not in _DEV


@quiet  # 0 ** -1 = inf and (-8) ** 0.5 = nan without a RuntimeWarning, as in PyTorch
def _pow_scalar_exp(x, e, out=None, gname="PowBackward0"):
    Rd = binary_result_dtype(x, e)
    A = x._buf
    if type(A) is not _nd and type(A) not in _DEV:
        res = run_functional(cast_primitive(ew.pow_p, Rd), (x, np.asarray(e, Rd)))
        return res if out is None else write_out(out, res, "pow")
    if _dtype_kind(Rd) in "iu" and isinstance(e, int) and e < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    AA = A.astype(Rd) if A.dtype != Rd else A
    if e == 2 and _dtype_kind(Rd) in "fc":
        r = np.multiply(AA, AA)
    else:
        r = ew.pow_p.impl(np, AA, e)  # the primitive's impl: a cube is (x * x) * x, as PyTorch's
    if r.dtype != Rd:  # (NumPy widens bfloat16 ** a Python float to float32: round once, keep the dtype)
        with np.errstate(all="ignore"):
            r = r.astype(Rd)
    res = result_tensor(r)
    if STATE.enabled and tracks_grad(x):
        G.record(
            gname, (ew.pow_p, Rd), cast_primitive(ew.pow_p, Rd), (x, _cst(np.asarray(e, Rd), A)), (res,), (0,)
        )
    return res if out is None else write_out(out, res, "pow")


def _bool_tensor(v) -> bool:
    return isinstance(v, Tensor) and v._buf.dtype == _bool


def pow(input: TensorOrScalar, exponent: TensorOrScalar, *, out: Tensor | None = None) -> Tensor:  # noqa: A001
    if out is None and _bool_tensor(exponent) and _needs_refusal(input):
        # PyTorch's derivative in the base computes ``exponent - 1``: a bool exponent fails there
        return _failing_backward(_pow_tt, "PowBackward1", _BOOL_SUBTRACTION, input, exponent)
    if isinstance(input, Tensor) and not isinstance(exponent, Tensor):
        e = scalar_value(exponent)
        if type(e) in _PY:
            return _pow_scalar_exp(input, e, out)
    if not isinstance(input, Tensor) and isinstance(exponent, Tensor):
        return _rpow(exponent, scalar_value(input), out)
    return _pow_tt(input, exponent, out=out)


@quiet
def _rpow(x, base, out=None):
    Rd = result_dtype(x, base)
    s = np.asarray(base, Rd)

    def fn(y, c):
        return _conv.pow(ew.convert_element_type(c, Rd), ew.convert_element_type(y, Rd))

    res = apply_op(
        "PowBackward2", ("rpow", Rd), fn, (x, s), edges=(0,)
    )
    return res if out is None else write_out(out, res, "pow")


def float_power(input: TensorOrScalar, exponent: TensorOrScalar, *, out: Tensor | None = None) -> Tensor:
    # both in double precision, complex128 if either is complex (a complex exponent cast to
    # float64 lost its imaginary part)
    complex_ = builtins.any(v.is_complex() if isinstance(v, Tensor) else isinstance(v, builtins.complex)
                           for v in (input, exponent))
    dt = D.complex128 if complex_ else D.float64
    if isinstance(input, Tensor):
        input = input.to(dt)
    if isinstance(exponent, Tensor):  # a real exponent stays real (PyTorch's complex ** real bits)
        exponent = exponent.to(D.complex128 if exponent.is_complex() else D.float64)
    return pow(input, exponent, out=out)


def rsub(input: Tensor, other: TensorOrScalar, *, alpha: float = 1) -> Tensor:
    """``other - alpha * input`` (what ``2 - x`` calls)."""
    if isinstance(other, Tensor):
        return sub(other, input, alpha=alpha)
    Rd = binary_result_dtype(input, other)
    if Rd == np.bool_:
        BINOPS["subtract"].refuse(Rd)
    refuse_bool_subtraction(input, other)
    s = np.asarray(wrapped_int(other, Rd) if type(other) is int and Rd.kind in "iu" else other, Rd)

    def fn(x, c):
        x = ew.convert_element_type(x, Rd)
        return ew.sub(ew.convert_element_type(c, Rd), x if alpha == 1 else ew.mul(x, alpha))

    return apply_op("RsubBackward1", ("rsub", Rd, alpha), fn, (input, s), edges=(0,))


def rtruediv(x, other):
    return mul(reciprocal(x if x.is_floating_point() or x.is_complex() else x.to(D.DEFAULT.float)), other)


def _ternary(name, gname, key, fn, args, inplace=False, fused=None):
    """``fn(*args)`` recorded as ``gname`` (in place into ``args[0]`` with ``inplace``).
    ``fused(*buffers, dtype)``: the forward value of real float host operands computed as
    PyTorch's CPU kernel does (`_fma`); ``fn`` then serves the backward only."""
    ts = [a if isinstance(a, Tensor) else np.asarray(scalar_value(a)) for a in args]
    Rd = result_dtype(*[a for a in args])
    ts = [a if isinstance(a, Tensor) else a.astype(Rd) for a in ts]
    edges = tuple(i for i, a in enumerate(args) if isinstance(a, Tensor))

    def f(*xs):
        return fn(*[ew.convert_element_type(x, Rd) for x in xs])

    new = None
    if fused is not None and _dtype_kind(Rd) == "f":
        # (numbers as given: PyTorch's kernels take them in the computing dtype, float32 for 16 bits)
        bufs = [a._buf if isinstance(a, Tensor) else np.asarray(scalar_value(a)) for a in args]
        if builtins.all(type(b) is _nd for b in bufs):
            try:
                np.broadcast_shapes(*[b.shape for b in bufs])
            except ValueError:  # (the definition's path raises PyTorch's error)
                bufs = None
            if bufs is not None:
                new = fused(*bufs, Rd)
                if not inplace:
                    return apply_computed(gname, key + (Rd,), f, tuple(ts), new, edges)
    if inplace:
        return _ternary_inplace(gname, key + (Rd,), f, ts, edges, new)
    return apply_op(gname, key + (Rd,), f, tuple(ts), edges=edges)


def _ternary_inplace(gname, key, f, ts, edges, new=None):
    """``ts[0]`` becomes ``f(*ts)`` (``addcmul_``, ``addcdiv_``, ``lerp_``), whose value
    ``new`` may have been computed: one in-place op that saves its operands as PyTorch's does."""
    self = ts[0]
    b = self._buf
    Rd = key[-1]
    if not can_cast(Rd, b.dtype):
        raise RuntimeError(
            f"result type {scalar_type_name(Rd)} can't be cast to the desired output type "
            f"{scalar_type_name(b.dtype)}"
        )
    bufs = [t._buf if isinstance(t, Tensor) else t for t in ts]
    for t in ts[1:]:
        if isinstance(t, Tensor):
            check_no_alias(b, t._buf)
    if new is None and builtins.all(type(x) is _nd for x in bufs):
        new = run_forward(key, f, bufs, False)
    if new is not None and np.broadcast_shapes(new.shape, b.shape) != b.shape:
        raise RuntimeError(
            f"output with shape {list(b.shape)} doesn't match the broadcast shape {list(new.shape)}"
        )
    return apply_inplace(self, gname, key, f, tuple(ts), new, edges)


def _fused_with(kernel, value):
    """`_ternary`'s ``fused``: the `_fma` ``kernel`` taking the number ``value`` after the
    buffers; None (the definition computes) for a Tensor ``value``."""
    if type(value) is not int and type(value) is not float:
        return None
    return lambda *bufs: kernel(*bufs[:-1], value, bufs[-1])


def _check_lerp_dtypes(input, end, weight) -> None:
    """PyTorch's: ``end`` of ``input``'s dtype, and a ``weight`` tensor too unless it is 0-d."""
    dt = input._buf.dtype
    for name, t in (("end", end), ("weight", weight)):
        if isinstance(t, Tensor) and t._buf.dtype != dt and (name == "end" or t._buf.ndim):
            raise RuntimeError(f"expected dtype {_cpp_type_name(dt)} for `{name}` but got dtype "
                               f"{_cpp_type_name(t._buf.dtype)}")


def _lerp(input, end, weight, inplace=False):
    if isinstance(input, Tensor):
        _check_lerp_dtypes(input, end, weight)
    return _ternary(
        "lerp",
        "LerpBackward0" if not isinstance(weight, Tensor) else "LerpBackward1",
        ("lerp",),
        lambda a, b, w: ew.add(a, ew.mul(w, ew.sub(b, a))),
        (input, end, weight),
        inplace,
        _fma.lerp,
    )


def _addcmul(input, tensor1, tensor2, value, inplace=False):
    return _ternary(
        "addcmul",
        "AddcmulBackward0",
        ("addcmul", value),
        lambda a, b, c: ew.add(a, ew.mul(ew.mul(b, c), value)),
        (input, tensor1, tensor2),
        inplace,
        _fused_with(_fma.addcmul, value),
    )


def _addcdiv(input, tensor1, tensor2, value, inplace=False):
    return _ternary(
        "addcdiv",
        "AddcdivBackward0",
        ("addcdiv", value),
        lambda a, b, c: ew.add(a, ew.mul(ew.div(b, c), value)),
        (input, tensor1, tensor2),
        inplace,
        _fused_with(_fma.addcdiv, value),
    )


def lerp(input: Tensor, end: Tensor, weight: TensorOrScalar, *, out: Tensor | None = None) -> Tensor:
    res = _lerp(input, end, weight)
    return res if out is None else write_out(out, res, "lerp", (input, end, weight))


def addcmul(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: TensorOrScalar = 1,
            out: Tensor | None = None) -> Tensor:
    res = _addcmul(input, tensor1, tensor2, value)
    return res if out is None else write_out(out, res, "addcmul", (input, tensor1, tensor2))


def addcdiv(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: TensorOrScalar = 1,
            out: Tensor | None = None) -> Tensor:
    res = _addcdiv(input, tensor1, tensor2, value)
    return res if out is None else write_out(out, res, "addcdiv", (input, tensor1, tensor2))


def _plain_bufs(self, others):
    """The buffers of ``self`` and ``others`` when an in-place op on them can skip autograd
    and dtype handling (host tensors of one dtype, nothing recorded); else None."""
    b = self._buf
    if type(b) is not _nd:
        return None
    grad = STATE.enabled and (tracks_grad(self) or self._base is not None)
    bufs = [b]
    for t in others:
        if type(t) is not Tensor or type(t._buf) is not _nd or t._buf.dtype != b.dtype:
            return None
        grad = grad or (STATE.enabled and tracks_grad(t))
        bufs.append(t._buf)
    if grad or _dtype_kind(b.dtype) not in "fc":
        return None
    return bufs


def _write_plain(self, b, new) -> Tensor:
    """Finish a plain in-place op: ``new`` (computed from the old values) goes into ``b``."""
    check_no_internal_overlap(b)
    np.copyto(b, new)
    bump_version(self)
    return self


def lerp_(self: Tensor, end: Tensor, weight: TensorOrScalar) -> Tensor:
    bufs = _plain_bufs(self, (end,))
    if bufs is not None and type(weight) in (int, float):
        b, e = bufs
        check_no_alias(b, e)
        new = _fma.lerp(b, e, weight, b.dtype)
        if new.shape == b.shape:
            return _write_plain(self, b, new)
    return _lerp(self, end, weight, True)


def addcmul_(self: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: TensorOrScalar = 1) -> Tensor:
    bufs = _plain_bufs(self, (tensor1, tensor2))
    if bufs is not None and type(value) in (int, float):
        b, t1, t2 = bufs
        check_no_alias(b, t1)
        check_no_alias(b, t2)
        new = _fma.addcmul(b, t1, t2, value, b.dtype)
        if new.shape == b.shape:
            return _write_plain(self, b, new)
    return _addcmul(self, tensor1, tensor2, value, True)


def addcdiv_(self: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: TensorOrScalar = 1) -> Tensor:
    bufs = _plain_bufs(self, (tensor1, tensor2))
    if bufs is not None and type(value) in (int, float):
        b, t1, t2 = bufs
        check_no_alias(b, t1)
        check_no_alias(b, t2)
        new = _fma.addcdiv(b, t1, t2, value, b.dtype)
        if new.shape == b.shape:
            return _write_plain(self, b, new)
    return _addcdiv(self, tensor1, tensor2, value, True)


def copysign(input: Tensor, other: TensorOrScalar, *, out: Tensor | None = None) -> Tensor:
    a, b = binary_operands(input, other, "copysign")
    Rd = binary_result_dtype(a, b)
    if _dtype_kind(Rd) == "c":  # PyTorch's kernel runs in the common dtype: none for complex
        raise NotImplementedError(f"\"copysign_cpu\" not implemented for '{scalar_type_name(Rd)}'")
    if _dtype_kind(Rd) not in "fc":
        Rd = D.DEFAULT.float.np
    bb = b if isinstance(b, Tensor) else np.asarray(b, Rd)

    def fn(x, y):
        x = ew.convert_element_type(x, Rd)
        return _conv.copysign(x, ew.convert_element_type(y, Rd))  # PyTorch: 0 at x = 0

    res = apply_op(
        "CopysignBackward0",
        ("copysign", Rd),
        fn,
        (a, bb),
        edges=(0, 1),
    )
    return res if out is None else write_out(out, res, "copysign")


def xlogy(input: TensorOrScalar, other: TensorOrScalar, *, out: Tensor | None = None) -> Tensor:
    a, b = binary_operands(input, other, "xlogy")
    Rd = binary_result_dtype(a, b)
    if _dtype_kind(Rd) == "c":  # (a complex `other` too: PyTorch has no complex kernel)
        raise NotImplementedError(f"\"xlogy_cpu\" not implemented for '{scalar_type_name(Rd)}'")
    if _dtype_kind(Rd) not in "fc":
        Rd = D.DEFAULT.float.np
    bb = b if isinstance(b, Tensor) else np.asarray(b, Rd)

    def fn(x, y):
        # 0 where x == 0 (a NaN y stays NaN), PyTorch's derivatives there (_conventions.xlogy)
        return _conv.xlogy(ew.convert_element_type(x, Rd), ew.convert_element_type(y, Rd))

    res = apply_op("XlogyBackward0", ("xlogy", Rd), fn, (a, bb), edges=(0, 1))
    return res if out is None else write_out(out, res, "xlogy")


# -- clamp -------------------------------------------------------------------------------


def _clamp_two_bound_routing(v, c, lo, hi):
    """The clamped value ``c`` of ``v`` outside ``[lo, hi]``, its gradient routed as PyTorch's
    ``clamp_backward_min_max``: to ``lo`` where ``v < lo < hi``, to ``hi`` where ``v > hi`` or
    ``hi < lo``, and to neither elsewhere (``lo == hi``: neither; ``max``/``min`` would share it).
    A branch takes its bound's value where that equals ``c``; where ``c`` is NaN (a NaN bound)
    the value stays NaN and the gradient still goes where PyTorch's masks send it (``hi`` for
    ``v > hi`` beside a NaN ``lo``)."""
    nan = ew.ne_p.bind(c, c)
    to_lo = ew.logical_and(ew.lt_p.bind(v, lo), ew.lt_p.bind(lo, hi))
    to_hi = ew.logical_or(ew.gt_p.bind(v, hi), ew.lt_p.bind(hi, lo))

    def routed(mask, bound, rest):
        nan_valued = ew.add(bound, ew.sub(stop_gradient(c), stop_gradient(bound)))  # NaN, d(bound)
        return ew.select(ew.logical_and(mask, ew.eq_p.bind(c, bound)), bound,
                         ew.select(ew.logical_and(mask, nan), nan_valued, rest))

    return routed(to_lo, lo, routed(to_hi, hi, stop_gradient(c)))


def _clamp_spec(x, min, max):  # noqa: A002
    """(grad_fn name, key, fgrad fn, args, edges) of clamp."""
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    tmin, tmax = isinstance(min, Tensor), isinstance(max, Tensor)
    if tmin or tmax:
        Rd = result_dtype(x, min, max)
        args, pos = [x], []
        for p, bnd, is_t in (("lo", min, tmin), ("hi", max, tmax)):
            if bnd is not None:
                args.append(bnd if is_t else np.asarray(scalar_value(bnd), Rd))
                pos.append(p)
        pos = tuple(pos)

        def fn(v, *bounds):
            v = ew.convert_element_type(v, Rd)
            keep = None
            c = v
            for p, bnd in zip(pos, bounds, strict=False):
                bnd = ew.convert_element_type(bnd, Rd)
                inside = ew.ge_p.bind(v, bnd) if p == "lo" else ew.le_p.bind(v, bnd)
                keep = inside if keep is None else ew.logical_and(keep, inside)
                c = ew.max_p.bind(c, bnd) if p == "lo" else ew.min_p.bind(c, bnd)  # NaN bounds propagate
            # x inside [min, max] (ends included; its gradient), else the clamped value (the
            # bound's gradient outside), NaN x passing no gradient (PyTorch); `select`
            # broadcasts x and the bounds to one shape
            c = ew.select(ew.ne_p.bind(v, v), stop_gradient(v), c)
            if len(bounds) == 2:
                c = _clamp_two_bound_routing(v, c, *(ew.convert_element_type(b, Rd) for b in bounds))
            return ew.select(keep, v, c)

        return "ClampBackward0", ("clamp_t", Rd, pos), fn, tuple(args), tuple(range(len(args)))
    lo, hi = scalar_value(min), scalar_value(max)
    Rd = result_dtype(x, lo, hi)

    def fn(v):
        return _conv.clamp(ew.convert_element_type(v, Rd), lo, hi)

    return "ClampBackward1", ("clamp", Rd, lo, hi), fn, (x,), None


def _clamp_backward_error(x: Tensor, lo: Tensor, hi: Tensor) -> str | None:
    """PyTorch's error in the backward of ``clamp(x, lo, hi)`` with two tensor bounds, or None.
    Its ``clamp_backward_min_max`` combines two masks in place (``(x >= lo).logical_and_(x <=
    hi)`` for ``x``, ``(x < lo).logical_and_(lo < hi)`` for ``lo``, ``(x > hi).logical_or_(hi <
    lo)`` for ``hi``), which fails when the second mask broadcasts to a larger shape than the
    first: bounds that broadcast the output beyond the input (or each other)."""
    s, a, b = (tuple(t.shape) for t in (x, lo, hi))
    if _errors._broadcast_mismatch([s, a, b]):
        return None  # the forward raises first
    pairs = ((x, np.broadcast_shapes(s, a), np.broadcast_shapes(s, b)),
             (lo, np.broadcast_shapes(s, a), np.broadcast_shapes(a, b)),
             (hi, np.broadcast_shapes(s, b), np.broadcast_shapes(a, b)))
    for t, first, second in pairs:
        full = np.broadcast_shapes(first, second)
        if t.requires_grad and full != first:
            return f"output with shape {list(first)} doesn't match the broadcast shape {list(full)}"
    return None


def clamp(input: Tensor, min: TensorOrScalar | None = None, max: TensorOrScalar | None = None, *,
          out: Tensor | None = None) -> Tensor:  # noqa: A002
    input = as_tensor_arg(input, "clamp")
    both = isinstance(min, Tensor) and isinstance(max, Tensor)
    if out is None and both and _needs_refusal(input, min, max):
        message = _clamp_backward_error(input, min, max)
        if message is not None:  # PyTorch computes the value; its backward raises
            return _failing_backward(lambda *ts: clamp(*ts), "ClampBackward0", message, input, min, max)
    gname, key, fn, args, edges = _clamp_spec(input, min, max)
    res = apply_op(gname, key, fn, args, edges=edges)
    return res if out is None else write_out(out, res, "clamp")


clip = clamp


def clamp_min(input: Tensor, min: TensorOrScalar) -> Tensor:  # noqa: A002
    return clamp(input, min=min)


def clamp_max(input: Tensor, max: TensorOrScalar) -> Tensor:  # noqa: A002
    return clamp(input, max=max)


def clamp_(self: Tensor, min: TensorOrScalar | None = None, max: TensorOrScalar | None = None) -> Tensor:  # noqa: A002
    gname, key, fn, args, edges = _clamp_spec(self, min, max)
    Rd = key[1]
    if not can_cast(Rd, self._buf.dtype):
        raise RuntimeError(
            f"result type {scalar_type_name(Rd)} can't be cast to the desired output type "
            f"{scalar_type_name(self._buf.dtype)}"
        )
    if type(self._buf) is not _nd:
        return apply_inplace(self, gname, key, fn, args, None, edges)
    new = run_forward(key, fn, [a if type(a) is _nd else a._buf for a in args], False)
    return apply_inplace(self, gname, key, fn, args, new, edges)


clip_ = clamp_


def clamp_min_(self: Tensor, min: TensorOrScalar) -> Tensor:  # noqa: A002
    return clamp_(self, min=min)


def clamp_max_(self: Tensor, max: TensorOrScalar) -> Tensor:  # noqa: A002
    return clamp_(self, max=max)


# ---------------------------------------------------------------------------------------
# where / comparisons helpers


def _plain_where(cb: np.ndarray, x: Tensor, y: Tensor) -> Tensor | None:
    """``where`` of host tensors of one (not 16-bit) dtype with nothing to record: NumPy's
    ``where``, what the op's program runs (``select`` of operands already of the result's
    dtype), without the promotion and the dispatch (a corpus maker's per-sample ``where``:
    ~5 -> ~2 us); None when it does not apply or the shapes do not broadcast (the general
    path then raises PyTorch's error)."""
    xb, yb = x._buf, y._buf
    if type(xb) is not _nd or type(yb) is not _nd or xb.dtype != yb.dtype or xb.dtype in _NARROW_FLOATS:
        return None
    if STATE.enabled and (x._rg or x._gfn is not None or y._rg or y._gfn is not None):
        return None
    try:
        return result_tensor(np.where(cb, xb, yb))
    except ValueError:
        return None


def where(condition: Tensor, input: TensorOrScalar | None = None, other: TensorOrScalar | None = None, *,
          out: Tensor | None = None) -> Tensor | tuple[Tensor, ...]:
    if input is None and other is None:
        from ._ops_shape import nonzero

        return nonzero(condition, as_tuple=True)
    c = condition if isinstance(condition, Tensor) else as_tensor_arg(condition, "where")
    cb = c._buf
    if cb.dtype != _bool:
        if cb.dtype != np.uint8:  # PyTorch accepts bool (and, deprecated, uint8) conditions only
            raise RuntimeError(
                f"where expected condition to be a boolean tensor, but got a tensor with dtype "
                f"{scalar_type_name(cb.dtype)} (use a comparison such as x > 0, or condition.bool())"
            )
        cb = cb.astype(bool)
    x, y = input, other
    if type(x) is Tensor and type(y) is Tensor and type(cb) is _nd and _profile_state.recorder is None:
        r = _plain_where(cb, x, y)
        if r is not None:
            return r if out is None else write_out(out, r, "where")
    if not isinstance(x, Tensor) and not isinstance(y, Tensor):

        x = tensor(x)
    Rd = (
        result_dtype(x, y)
        if isinstance(x, Tensor) and isinstance(y, Tensor)
        else (binary_result_dtype(x, scalar_value(y)) if isinstance(x, Tensor)
              else binary_result_dtype(y, scalar_value(x)))
    )
    xa = x if isinstance(x, Tensor) else np.asarray(scalar_value(x), Rd)
    ya = y if isinstance(y, Tensor) else np.asarray(scalar_value(y), Rd)

    def fn(cc, a, b):
        return ew.select(cc, ew.convert_element_type(a, Rd), ew.convert_element_type(b, Rd))

    kinds = [_dtype_kind(v._buf.dtype) if isinstance(v, Tensor) else None for v in (x, y)]
    real = [v for v, k in zip((x, y), kinds) if k not in ("c", None)]
    if out is None and "c" in kinds and _needs_refusal(*real):
        # PyTorch's backward gives the real tensor the complex tensor's gradient, and refuses it
        # (a Python complex number is converted first: no refusal)
        return _failing_backward(lambda a, b: where(c, a, b), "WhereBackward0", _REAL_GETS_COMPLEX, x, y)
    res = apply_op("WhereBackward0", ("where", Rd), fn, (cb, xa, ya), edges=(1, 2))
    return res if out is None else write_out(out, res, "where")


_REAL_GETS_COMPLEX = ("Expected isFloatingType(grad.scalar_type()) || (input_is_complex == grad_is_complex) "
                      "to be true, but got false.  (Could this error message be improved?  If so, please "
                      "report an enhancement request to PyTorch.)")


def isclose(input: Tensor, other: TensorOrScalar, rtol: float = 1e-05, atol: float = 1e-08,
            equal_nan: bool = False) -> Tensor:
    check_tensor_other("isclose", other)
    a = input._buf
    b = other._buf if isinstance(other, Tensor) else other
    if isinstance(other, Tensor) and a.dtype != b.dtype:
        raise RuntimeError(f"{scalar_type_name(a.dtype)} did not match {scalar_type_name(b.dtype)}")
    if isinstance(other, Tensor) and a.shape != b.shape:
        msg = _errors._broadcast_mismatch([a.shape, b.shape])
        if msg:
            raise RuntimeError(msg)  # PyTorch's error, not NumPy's ValueError
    Rd = result_dtype(input, other)
    if type(a) in _DEV or type(b) in _DEV:
        x, y = unify_devices(
            (input, other if isinstance(other, Tensor) else np.asarray(scalar_value(other), Rd))
        )
        A = x._buf if isinstance(x, Tensor) else x
        B = y._buf if isinstance(y, Tensor) else y
        xp = _dev.xp_of(A if type(A) in _DEV else B)
        return result_tensor(
            xp.isclose(A.astype(Rd), B.astype(Rd), rtol=rtol, atol=atol, equal_nan=equal_nan)
        )
    return result_tensor(
        np.isclose(
            a.astype(Rd, copy=False),
            np.asarray(b).astype(Rd, copy=False),
            rtol=rtol,
            atol=atol,
            equal_nan=equal_nan,
        )
    )


def allclose(input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: bool = False) -> bool:
    return bool(isclose(input, other, rtol, atol, equal_nan)._buf.all())


def equal(input: Tensor, other: Tensor) -> bool:
    a, b = input._buf, other._buf
    if type(a) in _DEV or type(b) in _DEV:
        a, b = [t._buf if isinstance(t, Tensor) else t for t in unify_devices((input, other))]
        return a.shape == b.shape and bool(_dev.xp_of(a).array_equal(a, b))
    return a.shape == b.shape and bool(np.array_equal(a, b))


# ---------------------------------------------------------------------------------------
# reductions


def _dims(dim, nd, name="dim"):
    """Normalized sorted tuple of reduced axes (all if dim is None/empty). A 0-d tensor takes
    dim 0 or -1 as PyTorch does, reducing over no axis."""
    if dim is None:
        return tuple(range(nd))
    if isinstance(dim, (list, tuple)):
        if len(dim) == 0:
            return tuple(range(nd))
        ds = [_wrap_dim(d, nd) for d in dim]
        if len(set(ds)) != len(ds):
            raise RuntimeError(f"dim {ds[0]} appears multiple times in the list of dims")
        return tuple(sorted(ds)) if nd else ()
    d = _wrap_dim(dim, nd)
    return (d,) if nd else ()


def _accumulate_dtype(input: Tensor, dtype: DType | None):
    """The result dtype of ``sum``/``nansum``/``prod``/``cumsum``/``cumprod``: ``dtype``, else
    int64 for integer and bool input, else the input's. PyTorch refuses an integer ``dtype`` for
    an input that requires grad while grad mode is on ("Autograd not support dtype: Long")."""
    b = input._buf
    odt = D.to_np(dtype) if dtype is not None else (_i64 if _dtype_kind(b.dtype) in "biu" else b.dtype)
    if (dtype is not None and _dtype_kind(odt) in "biu" and STATE.enabled
            and getattr(input, "requires_grad", False)):
        raise RuntimeError(f"Autograd not support dtype: {scalar_type_name(odt)}")
    return odt


def _in_dtype(r, odt):
    """A sum/product in the ``dtype`` asked for: NumPy's reductions widen bool and narrow
    integers to int64/uint64, PyTorch's accumulate in ``dtype`` (bool: any/all; int8: wrapping,
    the same as the int64 total cast, two's complement being modular)."""
    return ew.convert_element_type(r, odt) if r.dtype != odt else r


def _argument_types(args: tuple, kwargs: dict) -> str:
    """A call's arguments as PyTorch's argument parser names them: ``Tensor, keepdim=bool``."""
    named = [f"{k}={type(v).__name__}" for k, v in kwargs.items()]
    return ", ".join([type(a).__name__ for a in args] + named)


def _dim_overloads(dim_type: str, full_overload: str) -> Callable:
    """``sum``/``mean``/``prod`` (function and method) refusing calls PyTorch's argument parser
    matches to no overload: ``keepdim=`` without ``dim`` (``keepdim`` only exists in the
    overload taking ``dim``), and for an ``int`` dim (``prod``) an explicit ``dim=None``.
    ``full_overload`` is the signature of the overload without ``dim``."""

    def wrap(f: Callable) -> Callable:
        name = f.__name__

        @_errors.binding_wrapper
        @_wraps(f)
        def checked(*args, **kwargs):
            dim = args[1] if len(args) > 1 else kwargs.get("dim", ...)
            if dim is ... and "keepdim" in kwargs:
                raise TypeError(
                    f"{name}() received an invalid combination of arguments - got "
                    f"({_argument_types(args, kwargs)}), but expected one of:\n * {full_overload}\n"
                    f" * (Tensor input, {dim_type} dim, bool keepdim = False, *, torch.dtype dtype = None, "
                    "Tensor out = None)\n"
                )
            if dim is None and dim_type == "int":
                where = " (position 2)" if len(args) > 1 else ""
                raise TypeError(f"{name}(): argument 'dim'{where} must be int, not NoneType")
            return f(*args, **kwargs)

        return checked

    return wrap


@_dim_overloads("tuple of ints", "(Tensor input, *, torch.dtype dtype = None)")
def sum(input: Tensor, dim: Dims = None, keepdim: bool = False, *, dtype: DType | None = None,
        out: Tensor | None = None) -> Tensor:  # noqa: A001
    input = as_tensor_arg(input, "sum")
    b = input._buf
    axes = _dims(dim, b.ndim)
    odt = _accumulate_dtype(input, dtype)
    full = dim is None

    def fn(x):
        return _in_dtype(fnp.sum(ew.convert_element_type(x, odt), axis=axes, keepdims=keepdim), odt)

    res = apply_op("SumBackward0" if full else "SumBackward1", ("sum", axes, keepdim, odt), fn, (input,))
    return res if out is None else write_out(out, res, "sum")


def nansum(input: Tensor, dim: Dims = None, keepdim: bool = False, *, dtype: DType | None = None,
           out: Tensor | None = None) -> Tensor:
    b = input._buf
    axes = _dims(dim, b.ndim)
    odt = _accumulate_dtype(input, dtype)

    def fn(x):
        x = ew.convert_element_type(x, odt)
        total = fnp.sum(fnp.where(ew.isnan(x), fnp.zeros_like(x), x), axis=axes, keepdims=keepdim)
        return _in_dtype(total, odt)

    res = apply_op(
        "NansumBackward0",
        ("nansum", axes, keepdim, odt),
        fn,
        (input,),
    )
    return res if out is None else write_out(out, res, "nansum")


@_dim_overloads("tuple of ints", "(Tensor input, *, torch.dtype dtype = None, Tensor out = None)")
def mean(input: Tensor, dim: Dims = None, keepdim: bool = False, *, dtype: DType | None = None,
         out: Tensor | None = None) -> Tensor:
    input = as_tensor_arg(input, "mean")
    b = input._buf
    odt = D.to_np(dtype) if dtype is not None else b.dtype
    if _dtype_kind(odt) not in "fc":
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point or "
            f"complex dtype. Got: {scalar_type_name(odt)}"
        )
    axes = _dims(dim, b.ndim)

    def fn(x):
        return _conv.mean(ew.convert_element_type(x, odt), axes, keepdim)

    res = apply_op(
        "MeanBackward0" if dim is None else "MeanBackward1", ("mean", axes, keepdim, odt), fn, (input,)
    )
    return res if out is None else write_out(out, res, "mean")


def nanmean(input: Tensor, dim: Dims = None, keepdim: bool = False, *, dtype: DType | None = None,
            out: Tensor | None = None) -> Tensor:
    b = input._buf
    axes = _dims(dim, b.ndim)
    notnan = logical_not(isnan(input))
    res = div(nansum(input, dim, keepdim), sum(notnan, dim, keepdim))
    del b, axes
    return res if out is None else write_out(out, res, "nanmean")


@_autocast_fp32
@_dim_overloads("int", "(Tensor input, *, torch.dtype dtype = None)")
def prod(input: Tensor, dim: Dims = None, keepdim: bool = False, *, dtype: DType | None = None,
         out: Tensor | None = None) -> Tensor:
    b = input._buf
    odt = _accumulate_dtype(input, dtype)
    if dim is not None and isinstance(dim, (list, tuple)):
        raise TypeError("prod(): argument 'dim' must be int, not tuple")
    axes = _dims(dim, b.ndim)

    def fn(x):
        # PyTorch's inf/NaN gradient
        return _in_dtype(_conv.prod(ew.convert_element_type(x, odt), axes, keepdim), odt)

    res = apply_op(
        "ProdBackward0" if dim is None else "ProdBackward1",
        ("prod", axes, keepdim, odt),
        fn,
        (input,),
    )
    return res if out is None else write_out(out, res, "prod")


_ret_types: dict = {}


def return_type(name, fields=("values", "indices")):
    cls = _ret_types.get(name)
    if cls is None:
        base = collections.namedtuple(name, fields)

        def __repr__(self):
            body = ",\n".join(f"{f}={v!r}" for f, v in zip(self._fields, self, strict=False))
            return f"torch.return_types.{name}(\n{body})"

        cls = type(name, (base,), {"__repr__": __repr__, "__slots__": (), "__module__": "torch.return_types"})
        _ret_types[name] = cls
    return cls


def _take_dim_fn(dim, keepdim, nd):
    """fgrad function (x, idx_keepdims) -> values gathered along dim (idx has keepdims)."""

    def fn(x, idx):
        v = fnp.take_along_axis(x, idx, axis=dim)
        if not keepdim:
            v = fnp.squeeze(v, axis=dim)
        return v

    return fn


def _select_along(name, gname, input, idx_k, dim, keepdim, vals=None):
    """values = input gathered at idx_k (keepdim layout) along dim; returns Tensor."""
    nd = input._buf.ndim
    fn = _take_dim_fn(dim, keepdim, nd)

    return apply_op(gname, ("take_dim", dim, keepdim), fn, (input, idx_k), edges=(0,))


def _reduce_idx(name, gname, input, dim, keepdim, argf):
    b = input._buf
    nd = b.ndim
    if nd == 0:
        d = 0
        idx = _cst(np.zeros((), _i64), b)
        vals = apply_op(gname, ("id",), _identity, (input,))
        return return_type(name)(vals, result_tensor(idx.copy()))
    d = _wrap_dim(dim, nd)
    if b.shape[d] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    if _traced(b):  # functional mode: indices from fgrad's argmax, values gathered by them
        return _functional_select(name, input, d, keepdim, "max" if gname.startswith("Max") else "min")
    idx = argf(b, d)
    idx_k = np.expand_dims(idx, d)
    vals = _select_along(name, gname, input, idx_k, d, keepdim)
    return return_type(name)(vals, result_tensor(idx_k if keepdim else idx))


def _functional_select(name, input, d, keepdim, which):
    """max/min with dim in functional mode (tensors hold fgrad values)."""
    x = fgrad_value(input)
    idx = (fnp.argmax if which == "max" else fnp.argmin)(x, axis=d, keepdims=True)
    vals = fnp.take_along_axis(x, idx, axis=d)
    if not keepdim:
        vals, idx = fnp.squeeze(vals, axis=d), fnp.squeeze(idx, axis=d)
    return return_type(name)(from_fgrad_value(vals), from_fgrad_value(idx))


def _functional_sort(name, input, d, descending, k):
    x = fgrad_value(input)
    idx = fnp.argsort(ew.neg(x) if descending else x, axis=d)
    if k is not None:
        idx = fnp.take(idx, np.arange(k), axis=d)
    vals = fnp.take_along_axis(x, idx, axis=d)
    return return_type(name)(from_fgrad_value(vals), from_fgrad_value(ew.convert_element_type(idx, _i64)))


def _nan_arg(f):
    def g(b, d):
        i = f(b, axis=d)
        if _dtype_kind(b.dtype) in "fc":
            nanm = np.isnan(b)
            if nanm.any():
                i = np.where(nanm.any(axis=d), np.argmax(nanm, axis=d), i)
        return i.astype(np.int64)

    return g


_argmax_nan = _nan_arg(np.argmax)
_argmin_nan = _nan_arg(np.argmin)


def _full_minmax(input, prim_name, gname, npf):
    b = input._buf
    if b.size == 0:
        raise RuntimeError(
            f"{prim_name}(): Expected reduction dim to be specified for input.numel() == 0. "
            "Specify the reduction dim with the 'dim' argument."
        )

    def fn(x):
        return _conv.extremum_nan_evenly(x, prim_name == "max")  # NaN gets the gradient (PyTorch)

    return apply_op(gname, (prim_name, "full"), fn, (input,))


def max(input: Tensor, dim: int | Tensor | None = None, keepdim: bool = False, *,  # noqa: A001
        out: Tensor | tuple[Tensor, Tensor] | None = None) -> Tensor | tuple[Tensor, Tensor]:
    if isinstance(dim, Tensor):
        return maximum(input, dim, out=out)
    if dim is None:
        res = _full_minmax(input, "max", "MaxBackward1", np.max)
        return res if out is None else write_out(out, res, "max")
    res = _reduce_idx("max", "MaxBackward0", input, dim, keepdim, _argmax_nan)
    return res if out is None else write_out_multi(out, res, "max")


def min(input: Tensor, dim: int | Tensor | None = None, keepdim: bool = False, *,  # noqa: A001
        out: Tensor | tuple[Tensor, Tensor] | None = None) -> Tensor | tuple[Tensor, Tensor]:
    if isinstance(dim, Tensor):
        return minimum(input, dim, out=out)
    if dim is None:
        res = _full_minmax(input, "min", "MinBackward1", np.min)
        return res if out is None else write_out(out, res, "min")
    res = _reduce_idx("min", "MinBackward0", input, dim, keepdim, _argmin_nan)
    return res if out is None else write_out_multi(out, res, "min")


def amax(input: Tensor, dim: Dims = (), keepdim: bool = False, *, out: Tensor | None = None) -> Tensor:
    b = input._buf
    axes = _check_amax_dims("amax", b, dim)

    def fn(x):
        return fnp.max(x, axis=axes, keepdims=keepdim)

    res = apply_op(
        "AmaxBackward0",
        ("amax", axes, keepdim),
        fn,
        (input,),
    )
    return res if out is None else write_out(out, res, "amax")


def amin(input: Tensor, dim: Dims = (), keepdim: bool = False, *, out: Tensor | None = None) -> Tensor:
    b = input._buf
    axes = _check_amax_dims("amin", b, dim)

    def fn(x):
        return fnp.min(x, axis=axes, keepdims=keepdim)

    res = apply_op(
        "AminBackward0",
        ("amin", axes, keepdim),
        fn,
        (input,),
    )
    return res if out is None else write_out(out, res, "amin")


def aminmax(input: Tensor, *, dim: int | None = None, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    b = input._buf
    if dim is None and b.size == 0:
        raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the operation has "
                           "no identity.")
    if dim is not None and b.ndim and b.shape[_wrap_dim(dim, b.ndim)] == 0:
        raise IndexError(f"aminmax: Expected reduction dim {_wrap_dim(dim, b.ndim)} to have non-zero size.")
    return return_type("aminmax", ("min", "max"))(
        amin(input, () if dim is None else dim, keepdim), amax(input, () if dim is None else dim, keepdim)
    )


def _check_arg_reduction(name, b, dim) -> None:
    if dim is None and b.size == 0:
        raise IndexError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0.")


def _check_nonempty_dims(name, b, axes, dim_given: bool = True, shown: Sequence[int] | None = None) -> None:
    """PyTorch's IndexError for a max/min-like reduction over an empty dimension (named as
    in ``shown``, the dims as the caller gave them, where PyTorch's message does so)."""
    for i, a in enumerate(axes):
        if b.shape[a] == 0:
            if not dim_given:  # (a RuntimeError here in PyTorch)
                raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input.numel() == "
                                   "0. Specify the reduction dim with the 'dim' argument.")
            raise IndexError(f"{name}(): Expected reduction dim {a if shown is None else shown[i]} "
                             "to have non-zero size.")


def _check_amax_dims(name, b, dim) -> tuple[int, ...]:
    """``amax``/``amin``'s reduced axes, after PyTorch's size checks (an empty reduced dim
    named as given: ``-1``)."""
    if dim in ((), [], None):
        axes = _dims(dim, b.ndim)
        _check_nonempty_dims(name, b, axes, False)
        return axes
    shown = [dim] if isinstance(dim, int) else list(dim)
    _check_nonempty_dims(name, b, [_wrap_dim(d, b.ndim) for d in shown] if b.ndim else [], True, shown)
    return _dims(dim, b.ndim)


def argmax(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    b = input._buf
    _check_arg_reduction("argmax", b, dim)
    if dim is None:
        r = _argmax_nan(b.reshape(-1), 0)
        return result_tensor(_asb(r).reshape((1,) * b.ndim) if keepdim else _asb(r))
    d = _wrap_dim(dim, b.ndim)
    _check_nonempty_dims("argmax", b, (d,) if b.ndim else ())
    r = _argmax_nan(b, d) if b.ndim else _cst(np.zeros((), _i64), b).copy()
    return result_tensor(np.expand_dims(r, d) if keepdim and b.ndim else r)


def argmin(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    b = input._buf
    _check_arg_reduction("argmin", b, dim)
    if dim is None:
        r = _argmin_nan(b.reshape(-1), 0)
        return result_tensor(_asb(r).reshape((1,) * b.ndim) if keepdim else _asb(r))
    d = _wrap_dim(dim, b.ndim)
    _check_nonempty_dims("argmin", b, (d,) if b.ndim else ())
    r = _argmin_nan(b, d) if b.ndim else _cst(np.zeros((), _i64), b).copy()
    return result_tensor(np.expand_dims(r, d) if keepdim and b.ndim else r)


def _correction(unbiased, correction):
    if correction is not None:
        return float(correction)
    if unbiased is None:
        return 1.0
    return 1.0 if unbiased else 0.0


def _var_args(dim, unbiased, keepdim, correction):
    if isinstance(dim, bool):  # var(input, unbiased)
        unbiased, dim = dim, None
    return dim, _correction(unbiased, correction), keepdim


def _var_axes(name: str, input: Tensor, dim: Dims, ddof: float) -> tuple:
    """The reduced axes of ``var``/``std``/``var_mean``/``std_mean`` (``name``), with
    PyTorch's dtype check and its warning when ``N - correction <= 0``."""
    b = input._buf
    if _dtype_kind(b.dtype) not in "fc":
        raise RuntimeError("std and var only support floating point and complex dtypes")
    axes = _dims(dim, b.ndim)
    kept = math.prod(n for i, n in enumerate(b.shape) if i not in axes)
    _deprecations.dof_warning(name, b.size, kept, ddof)
    return axes


def _var(name: str, input: Tensor, dim: Dims, unbiased: bool | None, keepdim: bool,
         correction: float | None) -> Tensor:
    dim, ddof, keepdim = _var_args(dim, unbiased, keepdim, correction)
    axes = _var_axes(name, input, dim, ddof)

    def fn(x):
        return _conv.var(x, axes, ddof, keepdim)

    return apply_op("VarBackward0", ("var", axes, ddof, keepdim), fn, (input,))


def _std(name: str, input: Tensor, dim: Dims, unbiased: bool | None, keepdim: bool,
         correction: float | None) -> Tensor:
    dim, ddof, keepdim = _var_args(dim, unbiased, keepdim, correction)
    axes = _var_axes(name, input, dim, ddof)

    def fn(x):
        # sqrt with gradient 0 where the variance is 0 (PyTorch: std of a constant has grad 0)
        return _conv.root_zero_grad(_conv.var(x, axes, ddof, keepdim), 2.0)

    return apply_op("StdBackward0", ("std", axes, ddof, keepdim), fn, (input,))


def var(input: Tensor, dim: Dims = None, unbiased: bool | None = None, keepdim: bool = False, *,
        correction: float | None = None, out: Tensor | None = None) -> Tensor:
    res = _var("var", input, dim, unbiased, keepdim, correction)
    return res if out is None else write_out(out, res, "var")


def std(input: Tensor, dim: Dims = None, unbiased: bool | None = None, keepdim: bool = False, *,
        correction: float | None = None, out: Tensor | None = None) -> Tensor:
    res = _std("std", input, dim, unbiased, keepdim, correction)
    return res if out is None else write_out(out, res, "std")


def var_mean(input: Tensor, dim: Dims = None, unbiased: bool | None = None, keepdim: bool = False, *,
             correction: float | None = None) -> tuple[Tensor, Tensor]:
    return _var("var_mean", input, dim, unbiased, keepdim, correction), mean(
        input, None if isinstance(dim, bool) else dim, keepdim
    )


def std_mean(input: Tensor, dim: Dims = None, unbiased: bool | None = None, keepdim: bool = False, *,
             correction: float | None = None) -> tuple[Tensor, Tensor]:
    return _std("std_mean", input, dim, unbiased, keepdim, correction), mean(
        input, None if isinstance(dim, bool) else dim, keepdim
    )


def _vector_norm_fn(ord_, axes, keepdim):
    def fn(x):
        a = _conv.abs(x)  # PyTorch: sgn(0) = 0, so 1-, inf- and p-norms have gradient 0 at 0
        if ord_ == 2:
            # real: x * x, not a * a (bit-identical): the masked derivative of |x| at 0 dropped
            # the curvature 2 there (the Hessian's row of a zero entry came out 0)
            sq = ew.mul(a, a) if _dtype_kind(x.dtype) == "c" else ew.mul(x, x)
            s = fnp.sum(sq, axis=axes, keepdims=keepdim)
            # sqrt with a zero-safe gradient (PyTorch gives 0 at the origin)
            pos = ew.gt(s, 0)
            safe = ew.select(pos, s, ew.add(ew.mul(s, 0), 1))
            return ew.select(pos, ew.sqrt(safe), ew.mul(s, 0))
        if ord_ == math.inf:
            return fnp.max(a, axis=axes, keepdims=keepdim)
        if ord_ == -math.inf:
            return fnp.min(a, axis=axes, keepdims=keepdim)
        if ord_ == 0:
            return fnp.sum(ew.convert_element_type(ew.ne_p.bind(a, 0), a.dtype), axis=axes, keepdims=keepdim)
        if ord_ == 1:
            return fnp.sum(a, axis=axes, keepdims=keepdim)
        s = fnp.sum(ew.pow_(a, float(ord_)), axis=axes, keepdims=keepdim)
        if ord_ > 0:
            return _conv.root_zero_grad(s, ord_)  # gradient 0 at the origin (PyTorch)
        return ew.pow_(s, 1.0 / ord_)

    return fn


def vector_norm(input: Tensor, ord: float = 2, dim: Dims = None, keepdim: bool = False, *,
                dtype: DType | None = None, out: Tensor | None = None) -> Tensor:  # noqa: A002
    if _dtype_kind(input._buf.dtype) not in "fc":  # the input's own dtype, whatever ``dtype`` says
        raise RuntimeError(
            f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
            f"{scalar_type_name(input._buf.dtype)}"
        )
    x = input if dtype is None else input.to(dtype)
    b = x._buf
    axes = _dims(dim, b.ndim)
    ord_ = float(ord)
    res = apply_op(
        "LinalgVectorNormBackward0",
        ("vnorm", ord_, axes, keepdim),
        _vector_norm_fn(ord_, axes, keepdim),
        (x,),
    )
    return res if out is None else write_out(out, res, "linalg_vector_norm")


def norm(input: Tensor, p: float | str | None = "fro", dim: Dims = None, keepdim: bool = False,
         out: Tensor | None = None, dtype: DType | None = None) -> Tensor:
    if isinstance(p, str):
        if p == "fro":
            res = vector_norm(input, 2, dim, keepdim, dtype=dtype)
        elif p == "nuc":
            from .linalg import matrix_norm

            res = matrix_norm(input, "nuc", dim if dim is not None else (-2, -1), keepdim)
        else:
            raise RuntimeError(f"norm(): invalid norm type {p}")
    else:
        if (
            dim is not None
            and isinstance(dim, (list, tuple))
            and len(dim) == 2
            and p not in (None,)
            and False
        ):
            pass
        res = vector_norm(input, 2 if p is None else p, dim, keepdim, dtype=dtype)
    return res if out is None else write_out(out, res, "norm")


def dist(input: Tensor, other: TensorOrScalar, p: float | str = 2) -> Tensor:
    check_tensor_other("dist", other)
    a, b = binary_operands(input, other, "dist")
    Rd = result_dtype(a, b)
    bb = b if isinstance(b, Tensor) else np.asarray(b, Rd)
    ord_ = float(p)
    nfn = _vector_norm_fn(ord_, None, False)

    def fn(x, y):
        d = ew.sub(ew.convert_element_type(x, Rd), ew.convert_element_type(y, Rd))
        return nfn(fnp.ravel(d))

    return apply_op("DistBackward0", ("dist", Rd, ord_), fn, (a, bb), edges=(0, 1))


def logsumexp(input: Tensor, dim: int | Sequence[int], keepdim: bool = False, *,
              out: Tensor | None = None) -> Tensor:

    b = input._buf
    if _dtype_kind(b.dtype) not in "fc":
        input = input.to(D.DEFAULT.float)
    axes = _dims(dim, b.ndim)

    def fn(x):
        return fnn.logsumexp(x, axis=axes, keepdims=keepdim)

    res = apply_op("LogsumexpBackward0", ("logsumexp", axes, keepdim), fn, (input,))
    return res if out is None else write_out(out, res, "logsumexp")


def _float_kernel(name, b, d: int) -> None:
    """PyTorch's error for a softmax over dim ``d`` of a buffer ``b`` that is not real float
    (its kernel for the last dim or the others; complex too)."""
    if _dtype_kind(b.dtype) != "f":
        kernel = f"{name}_lastdim_kernel_impl" if d >= b.ndim - 1 else f"{name}_kernel_impl"
        raise NotImplementedError(
            f'"{kernel}" not implemented for \'{scalar_type_name(b.dtype)}\' '
            f"(pass a floating-point tensor, or dtype=torch.float32)"
        )


def softmax(input: Tensor, dim: int | None = None, dtype: DType | None = None, *,
            _stacklevel: int = 3) -> Tensor:

    x = input if dtype is None else input.to(dtype)
    b = x._buf
    if dim is None:
        dim = 0 if b.ndim in (0, 1, 3) else 1
    d = _wrap_dim(dim, b.ndim)
    if b.ndim == 0:  # PyTorch takes dim 0/-1 of a 0-d tensor: its one element
        return softmax(x.reshape(1), 0).reshape(())
    _float_kernel("softmax", b, d)

    def fn(v):
        return fnn.softmax(v, axis=d)

    return apply_op("SoftmaxBackward0", ("softmax", d), fn, (x,))


def log_softmax(input: Tensor, dim: int | None = None, dtype: DType | None = None, *,
                _stacklevel: int = 3) -> Tensor:

    x = input if dtype is None else input.to(dtype)
    b = x._buf
    if dim is None:
        dim = 0 if b.ndim in (0, 1, 3) else 1
    d = _wrap_dim(dim, b.ndim)
    if b.ndim == 0:  # PyTorch takes dim 0/-1 of a 0-d tensor: its one element
        return log_softmax(x.reshape(1), 0).reshape(())
    _float_kernel("log_softmax", b, d)

    def fn(v):
        return fnn.log_softmax(v, axis=d)

    if b.dtype in _NARROW_FLOATS:
        return apply_op("LogSoftmaxBackward0", ("log_softmax", d, b.dtype), _narrow_log_softmax(d, b.dtype),
                        (x,))
    return apply_op("LogSoftmaxBackward0", ("log_softmax", d), fn, (x,))


def _narrow_log_softmax(d, narrow):
    """PyTorch's CPU log_softmax of float16/bfloat16 (run in float32 by `apply_op`): its
    buffer of ``log(sum(exp(x - max)))`` holds the 16-bit type, so that term is rounded."""

    def fn(v):
        m = fnp.max(v, axis=d, keepdims=True)
        z = ew.sub(v, m)
        s = fnp.sum(ew.exp(z), axis=d, keepdims=True)
        s = ew.convert_element_type(ew.convert_element_type(s, narrow), v.dtype)
        return ew.sub(z, ew.convert_element_type(ew.convert_element_type(ew.log(s), narrow), v.dtype))

    return fn


def _logical_dims(dim, nd):
    """``any``/``all``'s reduced axes: an empty ``dim`` list reduces over none (PyTorch: the
    result is each element's truth value), unlike ``sum``'s, which reduces over all."""
    return () if isinstance(dim, (list, tuple)) and len(dim) == 0 else _dims(dim, nd)


def _any_all(input: Tensor, dim: Dims, keepdim: bool, out: Tensor | None, name: str) -> Tensor:
    """`any`/`all` (``name``): with ``keepdim`` and no ``dim`` every dim is kept as 1, as
    PyTorch does (its ``dim=None`` overload takes ``keepdim``)."""
    b = input._buf
    if type(b) is not _nd and type(b) not in _DEV:  # traced (torch.compile, torch.func)
        axis = None if dim is None else _logical_dims(dim, b.ndim)
        res = _wrap(getattr(fnp, name)(b, axis=axis, keepdims=keepdim))
    else:
        axis = None if dim is None else _logical_dims(dim, b.ndim)
        res = result_tensor(_asb(getattr(np, name)(b, axis=axis, keepdims=keepdim)))
    if b.dtype == np.uint8:  # PyTorch keeps uint8 (its legacy mask type)
        res = res.to(D.uint8)
    return res if out is None else write_out(out, res, name)


def all(input: Tensor, dim: Dims = None, keepdim: bool = False, *, out: Tensor | None = None) -> Tensor:  # noqa: A001
    return _any_all(input, dim, keepdim, out, "all")


def any(input: Tensor, dim: Dims = None, keepdim: bool = False, *, out: Tensor | None = None) -> Tensor:  # noqa: A001
    return _any_all(input, dim, keepdim, out, "any")


def count_nonzero(input: Tensor, dim: Dims = None) -> Tensor:
    b = input._buf
    return result_tensor(_asb(np.count_nonzero(b, axis=None if dim is None else _dims(dim, b.ndim)), _i64))


# -- sorting-like ----------------------------------------------------------------------


def _sort_idx(b, d, descending, stable=True):
    """Stable sort indices along ``d``; NaN sorts as the largest value (PyTorch).  On the
    buffer's device."""
    if type(b) is not _nd:
        return _sort_idx_dev(b, d, descending)
    b = _sortable(b)
    if not descending:
        return np.argsort(b, axis=d, kind="stable").astype(np.int64)
    if _dtype_kind(b.dtype) == "f":
        nanm = np.isnan(b)
        if nanm.any():
            key = np.where(nanm, 0, b)
            return np.lexsort((-key, ~nanm), axis=d).astype(np.int64)
        return np.argsort(-b, axis=d, kind="stable").astype(np.int64)
    # integers: ~b = -b - 1 reverses their order without overflow; bools: logical not
    return np.argsort(~b, axis=d, kind="stable").astype(np.int64)


def _sort_idx_dev(b, d, descending):
    xp = _dev.xp_of(b)
    kw = {"kind": "stable"} if isinstance(b, np.ndarray) else {}  # cupy's argsort is stable

    def asort(k):
        return xp.argsort(k, axis=d, **kw)

    if not descending:
        return asort(b).astype(np.int64)
    if _dtype_kind(b.dtype) == "f":
        nanm = xp.isnan(b)
        if bool(nanm.any()):  # NaNs first, then by value descending (np.lexsort((-key, ~nanm)))
            o = asort(-xp.where(nanm, 0, b))
            o2 = asort(xp.take_along_axis(~nanm, o, axis=d))
            return xp.take_along_axis(o, o2, axis=d).astype(np.int64)
        return asort(-b).astype(np.int64)
    return asort(~b).astype(np.int64)  # integers and bools, as the host path


_STL_ORDER_MAX = 1 << 16  # topk: longer rows keep the sorted, first-index-first order (documented)
_SORT_REPLAY_MAX = 1 << 12  # sort: more values in rows with ties keep the stable order (documented)
_RADIX_SORT_MIN = 32768  # ATen's GRAIN_SIZE: 1-D integer ascending sorts this long are FBGEMM's radix sort


def _sort_ties_as_pytorch(b, d: int, descending: bool, idx: np.ndarray) -> np.ndarray:
    """``idx`` (a stable sort's indices along ``d``) with the rows that hold equal values (or
    NaNs) rearranged in the order PyTorch's CPU ``std::sort`` leaves them
    (`fgrad.torch._stl_order.sort_order`).  Unchanged: device buffers, rows without ties,
    PyTorch's stable radix-sort case, and calls whose rows with ties hold more than
    ``_SORT_REPLAY_MAX`` values together (kept in index order, documented)."""
    n = b.shape[d] if b.ndim else 0
    if type(b) is not _nd or n < 2 or b.dtype.kind == "c":
        return idx
    if b.ndim == 1 and b.dtype.kind in "iu" and n >= _RADIX_SORT_MIN and not descending:
        return idx  # FBGEMM's radix sort: stable
    rows = np.moveaxis(b, d, -1).reshape(-1, n)
    order = np.moveaxis(idx, d, -1).reshape(-1, n)
    s = np.take_along_axis(rows, order, 1)
    tied = s[:, 1:] == s[:, :-1]
    floating = _dtype_kind(b.dtype) == "f"
    if floating:
        nan = np.isnan(s)
        tied |= nan[:, 1:] & nan[:, :-1]
    need = np.flatnonzero(tied.any(1))
    if not need.size or need.size * n > _SORT_REPLAY_MAX:  # a Python replay: ~5 us per value
        return idx
    out = order.copy()
    keys = rows.astype(np.float64) if floating else rows
    for r in need:
        out[r] = _sort_order(keys[r].tolist(), descending)
    return np.ascontiguousarray(np.moveaxis(out.reshape(np.moveaxis(idx, d, -1).shape), -1, d))


def sort(input: Tensor, dim: int = -1, descending: bool = False, stable: bool = False, *,
         out: Tensor | tuple[Tensor, Tensor] | None = None) -> tuple[Tensor, Tensor]:
    if isinstance(dim, bool):
        descending, dim = dim, -1
    b = input._buf
    if b.ndim == 0:
        res = return_type("sort")(input.clone(), result_tensor(_cst(np.zeros((), _i64), b).copy()))
        return res
    d = _wrap_dim(dim, b.ndim)
    if _traced(b):
        return _functional_sort("sort", input, d, descending, None)
    idx = _sort_idx(b, d, descending)
    if not stable:
        idx = _sort_ties_as_pytorch(b, d, descending, idx)
    vals = _select_along("sort", "SortBackward0", input, idx, d, True)
    res = return_type("sort")(vals, result_tensor(idx))
    return res if out is None else write_out_multi(out, res, "sort")


def argsort(input: Tensor, dim: int = -1, descending: bool = False, stable: bool = False) -> Tensor:
    b = input._buf
    if b.ndim == 0:
        return result_tensor(_cst(np.zeros((), _i64), b).copy())
    d = _wrap_dim(dim, b.ndim)
    idx = _sort_idx(b, d, descending)
    return result_tensor(idx if stable else _sort_ties_as_pytorch(b, d, descending, idx))


def _topk_idx(b, d: int, k: int, largest: bool):
    """The first ``k`` of `_sort_idx`'s indices along ``d`` (value order, ties by position)
    without sorting the whole axis: ``partition`` finds the k-th value ``t``; every value
    beyond ``t`` and the first equal ones make the k; only they are sorted.  None where the
    full sort is as cheap or NaNs need its ordering (host arrays, ``k`` a small part)."""
    n = b.shape[d]
    if type(b) is not _nd or not 0 < k * 8 <= n or _dtype_kind(b.dtype) not in "fiu":
        return None
    key = np.moveaxis(b, d, -1).reshape(-1, n)
    floating = _dtype_kind(b.dtype) == "f"
    if floating and np.isnan(key).any():
        return None
    kth = n - k if largest else k - 1
    t = np.partition(key, kth, axis=-1)[:, kth:kth + 1]  # each row's k-th value
    beyond = key > t if largest else key < t
    tied = key == t
    # the k: every value beyond t, then the first equal ones by position -- all the equal
    # ones when no row has more than it needs (then the counts over all rows agree)
    if np.count_nonzero(tied) == key.shape[0] * k - np.count_nonzero(beyond):
        chosen = beyond | tied
    else:
        need = k - beyond.sum(-1, keepdims=True)
        chosen = beyond | (tied & (np.cumsum(tied, -1) <= need))
    # ascending positions in each row (flatnonzero: NumPy's 2-d nonzero is ten times slower)
    cols = np.flatnonzero(chosen).reshape(-1, k)
    if key.shape[0] > 1:
        cols -= np.arange(0, key.size, n)[:, None]
    v = np.take_along_axis(key, cols, -1)
    if largest:  # descending: ascending order of the negation (integers: ~v, no overflow)
        v = -v if floating else ~v
    order = np.argsort(v, axis=-1, kind="stable")  # ties keep position order
    idx = np.take_along_axis(cols, order, -1).astype(np.int64)
    return np.moveaxis(idx.reshape(np.moveaxis(b, d, -1).shape[:-1] + (k,)), -1, d).copy()


def msort(input: Tensor) -> Tensor:
    return sort(input, 0).values


def _topk_ties_as_pytorch(b: np.ndarray, d: int, k: int, largest: bool, sort: bool,
                          idx: np.ndarray) -> np.ndarray:
    """``idx`` with the rows whose answer ties decide (equal values among the top ``k`` or at
    its boundary, NaNs) and, for ``sorted=False``, every row, replaced by the indices and order
    PyTorch's libstdc++ selection gives (`fgrad.torch._stl_order`)."""
    n = b.shape[d]
    rows = np.moveaxis(b, d, -1).reshape(-1, n)
    m = builtins.min(k + 1, n)  # the top k and the first entry past them, sorted (NaN sorts last)
    if m == n:
        top = np.sort(rows, axis=1)
    elif largest:
        top = np.sort(np.partition(rows, n - m, axis=1)[:, n - m:], axis=1)
    else:
        top = np.sort(np.partition(rows, m - 1, axis=1)[:, :m], axis=1)
    need = (top[:, 1:] == top[:, :-1]).any(1) | (not sort and k > 1)
    if b.dtype.kind in "fc":
        need |= np.isnan(rows).any(1)
    if not need.any():
        return idx
    moved = np.moveaxis(idx, d, -1)
    flat = moved.reshape(-1, k).copy()
    for r in np.flatnonzero(need):
        flat[r] = _topk_order(rows[r].tolist(), k, largest, sort)
    return np.ascontiguousarray(np.moveaxis(flat.reshape(moved.shape), -1, d))


def topk(input: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True, *,
         out: Tensor | tuple[Tensor, Tensor] | None = None) -> tuple[Tensor, Tensor]:  # noqa: A002
    b = input._buf
    d = _wrap_dim(dim, b.ndim)  # a 0-d tensor: dims in [-1, 0], as PyTorch
    n = b.shape[d] if b.ndim else 1
    if k > n or k < 0:
        raise RuntimeError("selected index k out of range")
    if b.ndim == 0:
        return return_type("topk")(input.clone(), result_tensor(_cst(np.zeros((), _i64), b).copy()))
    if _traced(b):
        return _functional_sort("topk", input, d, largest, k)
    idx = _topk_idx(b, d, k, largest)
    if idx is None:
        idx = _sort_idx(b, d, largest)
        idx = idx[(slice(None),) * d + (slice(0, k),)].copy()
    if type(b) is _nd and k and 1 < n <= _STL_ORDER_MAX:
        idx = _topk_ties_as_pytorch(b, d, k, largest, sorted, idx)
    vals = _select_along("topk", "TopkBackward0", input, idx, d, True)
    res = return_type("topk")(vals, result_tensor(idx))
    return res if out is None else write_out_multi(out, res, "topk")


def _quickselect_index(row: np.ndarray, k: int) -> int:
    """The index PyTorch's CPU ``quick_select_template`` (median-of-three quickselect over
    values and indices, NaN largest) leaves at position ``k`` of ``row``: which of tied
    entries ``kthvalue`` returns."""
    arr = row.tolist()
    idx = list(range(len(arr)))

    def gt(x, y):  # PyTorch's gt_or_nan
        return (x != x and y == y) or x > y

    def swap(i, j):
        arr[i], arr[j] = arr[j], arr[i]
        idx[i], idx[j] = idx[j], idx[i]

    lo, hi = 0, len(arr) - 1
    while hi > lo:
        if hi == lo + 1:
            if gt(arr[lo], arr[hi]):
                swap(lo, hi)
            break
        swap(lo + (hi - lo) // 2, lo + 1)
        if gt(arr[lo + 1], arr[hi]):
            swap(lo + 1, hi)
        if gt(arr[lo], arr[hi]):
            swap(lo, hi)
        if gt(arr[lo + 1], arr[lo]):
            swap(lo + 1, lo)
        i, j, piv = lo + 1, hi, arr[lo]
        while True:
            i += 1
            while gt(piv, arr[i]):
                i += 1
            j -= 1
            while gt(arr[j], piv):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(lo, j)
        if j <= k:
            lo = i
        if j >= k:
            hi = j - 1
    return idx[k]


def _kth_ties_as_pytorch(b: np.ndarray, d: int, k: int, idx: np.ndarray) -> None:
    """Replace, in place, the (stable-sort) index ``idx`` of the k-th value along ``d`` by
    PyTorch's where that value is tied (or NaNs are present): only then do the two differ."""
    rows = np.moveaxis(b, d, -1).reshape(-1, b.shape[d])
    at = np.moveaxis(idx, d, -1).reshape(-1)
    kth = rows[np.arange(rows.shape[0]), at]
    same = (rows == kth[:, None]).sum(1) > 1
    if b.dtype.kind in "fc":
        same |= np.isnan(rows).any(1)
    if not same.any():
        return
    for r in np.flatnonzero(same):
        at[r] = _quickselect_index(rows[r], k - 1)
    idx[...] = np.moveaxis(at.reshape(np.moveaxis(idx, d, -1).shape), -1, d)


def kthvalue(input: Tensor, k: int, dim: int = -1, keepdim: bool = False, *,
             out: Tensor | tuple[Tensor, Tensor] | None = None) -> tuple[Tensor, Tensor]:
    b = input._buf
    d = _wrap_dim(dim, b.ndim)  # a 0-d tensor: dims in [-1, 0], as PyTorch
    if b.ndim == 0:
        return return_type("kthvalue")(input.clone(), result_tensor(_cst(np.zeros((), _i64), b).copy()))
    _check_nonempty_dims("kthvalue", b, (d,))
    if not 1 <= k <= b.shape[d]:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    idx = _sort_idx(b, d, False)[(slice(None),) * d + (slice(k - 1, k),)].copy()
    if type(b) is _nd and b.size:
        _kth_ties_as_pytorch(b, d, k, idx)
    vals = _select_along("kthvalue", "KthvalueBackward0", input, idx, d, keepdim)
    res = return_type("kthvalue")(vals, result_tensor(idx if keepdim else np.squeeze(idx, d)))
    return res if out is None else write_out_multi(out, res, "kthvalue")


def median(input: Tensor, dim: int | None = None, keepdim: bool = False, *,
           out: Tensor | tuple[Tensor, Tensor] | None = None) -> Tensor | tuple[Tensor, Tensor]:
    b = input._buf
    if type(b) in _DEV and (dim is None or b.ndim):  # indices found on the host, values gathered here
        res = median(result_tensor(_dev.to_host(b)), dim, keepdim)
        if dim is None:
            return _select_flat(input, res)
        d = _wrap_dim(dim, b.ndim)
        idx = _cst(res.indices._buf if keepdim else np.expand_dims(res.indices._buf, d), b)
        vals = _select_along("median", "MedianBackward1", input, idx, d, keepdim)
        res = return_type("median")(vals, result_tensor(idx if keepdim else _dev.xp_of(idx).squeeze(idx, d)))
        return res if out is None else write_out_multi(out, res, "median")
    if dim is None:
        flat = b.reshape(-1)
        n = flat.size
        if n == 0:  # NaN in the dtype (an integer gets C's conversion of NaN, as PyTorch's kernel)
            with np.errstate(invalid="ignore"):
                empty = result_tensor(np.asarray(np.nan).astype(b.dtype))
            return _select_flat(input, empty) if _dtype_kind(b.dtype) in "fc" else empty
        order = _sort_idx(flat, 0, False)
        if _dtype_kind(b.dtype) == "f" and np.isnan(flat).any():
            v = np.asarray(np.nan, b.dtype)
        else:
            v = flat[order[(n - 1) // 2]]
        if _dtype_kind(b.dtype) not in "fc":  # an integer median keeps the dtype (and has no grad)
            return result_tensor(np.asarray(v, b.dtype))
        return _select_flat(input, result_tensor(np.asarray(v, b.dtype)))
    d = _wrap_dim(dim, b.ndim)  # a 0-d tensor: dims in [-1, 0], as PyTorch
    if b.ndim == 0:
        return return_type("median")(input.clone(), result_tensor(np.zeros((), _i64)))
    _check_nonempty_dims("median", b, (d,))
    n = b.shape[d]
    order = _sort_idx(b, d, False)
    idx = np.take(order, [(n - 1) // 2], axis=d)
    if _dtype_kind(b.dtype) == "f":
        nanm = np.isnan(b)
        if nanm.any():
            first_nan = np.expand_dims(np.argmax(nanm, axis=d), d)
            idx = np.where(np.expand_dims(nanm.any(axis=d), d), first_nan, idx)
    vals = _select_along("median", "MedianBackward1", input, idx, d, keepdim)
    res = return_type("median")(vals, result_tensor(idx if keepdim else np.squeeze(idx, d)))
    return res if out is None else write_out_multi(out, res, "median")


def nanmedian(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    """The lower median of the non-NaN entries (NaN where all are NaN); recorded like
    ``median`` (gradient to the selected entry, or shared by the entries equal to it)."""
    b = input._buf
    if _dtype_kind(b.dtype) != "f" or type(b) not in (_nd, *_DEV):
        return median(input, dim, keepdim)
    bh = _dev.to_host(b) if type(b) in _DEV else b
    if dim is None:
        flat = bh.reshape(-1)
        flat = flat[~np.isnan(flat)]
        v = np.sort(flat)[(flat.size - 1) // 2] if flat.size else np.nan
        return _select_flat(input, result_tensor(np.asarray(v, b.dtype)), "NanmedianBackward0")
    if b.ndim == 0:
        return median(input, dim, keepdim)
    d = _wrap_dim(dim, b.ndim)
    _check_nonempty_dims("median", b, (d,))  # (PyTorch names median here)
    order = np.argsort(bh, axis=d, kind="stable")  # NaNs sort last
    count = np.sum(~np.isnan(bh), axis=d, keepdims=True)
    idx = np.take_along_axis(order, np.maximum(count - 1, 0) // 2, axis=d)
    idx = _cst(idx, b)
    vals = _select_along("nanmedian", "NanmedianBackward1", input, idx, d, keepdim)
    xp = _dev.xp_of(idx) if type(idx) in _DEV else np
    return return_type("nanmedian")(vals, result_tensor(idx if keepdim else xp.squeeze(idx, d)))


def _select_flat(input, host_res, gname="MedianBackward0"):
    """median(dim=None) from the host result: the mean of the entries equal to the median
    value (PyTorch's gradient).  Entries outside the mask (NaNs, for nanmedian) do not leak
    into the value."""
    b = input._buf
    v = host_res._buf
    bh = _dev.to_host(b) if type(b) in _DEV else b
    mask = np.asarray(bh == v) if not np.isnan(v) else np.isnan(bh)

    def fn(x, m):
        cnt = ew.convert_element_type(fnp.sum(m), x.dtype)
        return ew.div(fnp.sum(ew.select(m, x, fnp.zeros_like(x))), cnt)

    return apply_op(gname, ("median",), fn, (input, _cst(mask, b)), edges=(0,))


def mode(input: Tensor, dim: int = -1, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    b = input._buf
    if type(b) in _DEV:  # indices on the host (one copy), values gathered on the device
        d = _wrap_dim(dim, b.ndim)  # a 0-d tensor: dims in [-1, 0], as PyTorch
        hidx = mode(result_tensor(_dev.to_host(b)), dim, True).indices._buf
        idx_k = _cst(hidx, b)
        vals = _select_along("mode", "ModeBackward0", input, idx_k, d, keepdim)
        return return_type("mode")(
            vals, result_tensor(idx_k if keepdim else _dev.xp_of(idx_k).squeeze(idx_k, d))
        )
    d = _wrap_dim(dim, b.ndim)  # a 0-d tensor: dims in [-1, 0], as PyTorch
    if b.ndim == 0:
        return return_type("mode")(input.clone(), result_tensor(np.zeros((), _i64)))
    _check_nonempty_dims("mode", b, (d,))
    moved = np.moveaxis(b, d, -1)
    flat = moved.reshape(-1, moved.shape[-1])
    vals_idx = np.empty(flat.shape[0], np.int64)
    for r in range(flat.shape[0]):
        row = flat[r]
        u, counts = np.unique(row, return_counts=True)
        best = u[np.argmax(counts)]  # smallest of the most frequent values
        vals_idx[r] = np.nonzero(row == best)[0][-1]
    idx = vals_idx.reshape(moved.shape[:-1])
    idx_k = np.expand_dims(idx, d)
    vals = _select_along("mode", "ModeBackward0", input, idx_k, d, keepdim)
    return return_type("mode")(vals, result_tensor(idx_k if keepdim else idx))


# PyTorch's CPU cumulative kernels carry running values in ``at::acc_type``, each output
# rounded once: float32 (complex64) in double precision, float16/bfloat16 in float32
_CUM_WIDE = {np.dtype(np.float32): np.dtype(np.float64), np.dtype(np.complex64): np.dtype(np.complex128),
             **{np.dtype(d): np.dtype(np.float32) for d in _NARROW_FLOATS}}


def _cumulative_wide(op, x, d):
    """``op`` (cumsum or cumprod) of ``x`` along ``d``, accumulated as PyTorch's CPU kernel."""
    if not x.ndim:
        return x
    wide = _CUM_WIDE.get(np.dtype(x.dtype))
    if wide is None:
        return op(x, axis=d)
    return ew.convert_element_type(op(ew.convert_element_type(x, wide), axis=d), x.dtype)


def _check_cumulative_kernel(name: str, input: Tensor, dtype: DType | None, out: Tensor | None) -> None:
    """PyTorch's CPU ``cumsum``/``cumprod`` kernels have no bool version: a bool result (``dtype``
    or ``out``) of a non-empty tensor with dims raises ``NotImplementedError``, before autograd's
    checks (a bool input's default result is int64)."""
    b = input._buf
    res = out.dtype if out is not None and dtype is None else dtype
    if res is not None and D.to_np(res) == np.bool_ and b.ndim and b.size:
        raise NotImplementedError(f"\"{name}_out_cpu\" not implemented for 'Bool'")


def cumsum(input: Tensor, dim: int, *, dtype: DType | None = None, out: Tensor | None = None) -> Tensor:
    b = input._buf
    _check_cumulative_kernel("cumsum", input, dtype, out)
    odt = _accumulate_dtype(input, dtype)
    d = _wrap_dim(dim, b.ndim)  # a 0-d tensor: dims in [-1, 0], as PyTorch

    def fn(x):
        x = ew.convert_element_type(x, odt)
        return _cumulative_wide(_partial(_cum.running, "cumsum"), x, d)

    res = apply_op(
        "CumsumBackward0",
        ("cumsum", d, odt),
        fn,
        (input,),
    )
    return res if out is None else write_out(out, res, "cumsum")


def cumprod(input: Tensor, dim: int, *, dtype: DType | None = None, out: Tensor | None = None) -> Tensor:
    b = input._buf
    _check_cumulative_kernel("cumprod", input, dtype, out)
    odt = _accumulate_dtype(input, dtype)
    d = _wrap_dim(dim, b.ndim)  # a 0-d tensor: dims in [-1, 0], as PyTorch

    def fn(x):
        x = ew.convert_element_type(x, odt)
        return _cumulative_wide(_partial(_cum.running, "cumprod"), x, d)

    res = apply_op(
        "CumprodBackward0",
        ("cumprod", d, odt),
        fn,
        (input,),
    )
    return res if out is None else write_out(out, res, "cumprod")


def _cum_extreme(name, gname, input, dim, better):
    b = input._buf
    if b.ndim == 0 and dim not in (0, -1):
        raise IndexError(f"{name}(): Expected reduction dim -1 or 0 for scalar but got {dim}")
    if b.size == 0 and b.ndim:  # PyTorch checks no dim of an empty tensor: the result is as empty
        idx = _cst(np.zeros(b.shape, _i64), b)
        vals = _select_along(name, gname, input, idx, 0, True)
        return return_type(name)(vals, result_tensor(idx.copy()))
    d = _wrap_dim(dim, b.ndim)  # a 0-d tensor: dims in [-1, 0], as PyTorch
    if b.ndim == 0:
        return return_type(name)(input.clone(), result_tensor(_cst(np.zeros((), _i64), b).copy()))
    bh = _dev.to_host(b)  # the running indices are found on the host (one copy for a device tensor)
    moved = np.moveaxis(bh, d, -1)
    idx = np.empty(moved.shape, np.int64)
    best = moved[..., 0].copy() if moved.shape[-1] else None  # an empty dim: no running extreme
    cur = np.zeros(moved.shape[:-1], np.int64)
    for j in range(moved.shape[-1]):
        v = moved[..., j]
        with np.errstate(invalid="ignore"):  # bfloat16's NaN comparisons warn; PyTorch does not
            upd = better(v, best) | (v == best) | (np.isnan(v) if _dtype_kind(b.dtype) == "f" else False)
        best = np.where(upd, v, best)
        cur = np.where(upd, j, cur)
        idx[..., j] = cur
    idx = _cst(np.ascontiguousarray(np.moveaxis(idx, -1, d)), b)
    vals = _select_along(name, gname, input, idx, d, True)
    return return_type(name)(vals, result_tensor(idx.copy()))


def cummax(input: Tensor, dim: int) -> tuple[Tensor, Tensor]:
    return _cum_extreme("cummax", "CummaxBackward0", input, dim, np.greater)


def cummin(input: Tensor, dim: int) -> tuple[Tensor, Tensor]:
    return _cum_extreme("cummin", "CumminBackward0", input, dim, np.less)


def logcumsumexp(input: Tensor, dim: int) -> Tensor:
    """``log(cumsum(exp(input), dim))`` without overflow: a running ``logaddexp``, carried in
    double precision for float32 as PyTorch's CPU kernel (``logcumsumexp([100., 1000.])`` is
    ``[100., 1000.]``, not ``inf``)."""
    b = input._buf
    if _dtype_kind(b.dtype) not in "fc":
        name = scalar_type_name(b.dtype)
        raise NotImplementedError(f'"logcumsumexp_out_cpu" not implemented for \'{name}\'')
    if _dtype_kind(b.dtype) == "c":  # no complex logaddexp in NumPy: the plain formula
        return log(cumsum(exp(input), dim))
    d = _wrap_dim(dim, b.ndim)  # a 0-d tensor: dims in [-1, 0], as PyTorch

    def fn(x):
        return _cumulative_wide(_conv.logcumsumexp, x, d)

    return apply_op("LogcumsumexpBackward0", ("logcumsumexp", d), fn, (input,))


# ---------------------------------------------------------------------------------------
# copy_, fill_, zero_, resize_


def copy_(self: Tensor, src: Tensor, non_blocking: bool = False) -> Tensor:
    if not isinstance(src, Tensor):

        src = tensor(src)
    sb = src._buf
    b = self._buf
    try:
        np.broadcast_shapes(b.shape, sb.shape)
        if np.broadcast_shapes(b.shape, sb.shape) != b.shape:
            raise ValueError
    except ValueError:
        raise RuntimeError(
            f"The size of tensor a ({b.shape[-1] if b.ndim else 1}) must match the size of tensor b "
            f"({sb.shape[-1] if sb.ndim else 1}) at non-singleton dimension "
            f"{builtins.max(b.ndim - 1, 0)}"
        ) from None
    dt = b.dtype if type(b) is _nd else b.dtype

    def fn(x, s):
        s = ew.convert_element_type(s, dt)
        return shape_prims.broadcast_to(s, x.shape)

    if type(b) is not _nd or type(sb) is not _nd:
        bd, sd = type(b) in _DEV, type(sb) in _DEV
        if (bd or type(b) is _nd) and (sd or type(sb) is _nd):
            if bd != sd or (bd and _dev.index_of(b) != _dev.index_of(sb)):  # copy_ is a transfer
                src = to_device(src, _dev.index_of(b) if bd else None)
                sb = src._buf
            if bd:
                if not (STATE.enabled and (tracks_grad(self) or tracks_grad(src) or self._base is not None)):
                    check_no_internal_overlap(b)
                    check_no_alias(b, sb)
                    if sb is b or fresh_buffer(sb, [b]) is not sb:
                        sb = sb.copy()
                    copy_into(b, sb)
                    bump_version(self)
                    return self
                xp = _dev.xp_of(b)
                return apply_inplace(self, "CopyBackwards", ("copy", dt), fn, (self, src),
                                xp.broadcast_to(sb, b.shape).astype(dt), (0, 1))
        else:
            return apply_inplace(self, "CopyBackwards", ("copy", dt), fn, (self, src), None, (0, 1))
    if not (STATE.enabled and (tracks_grad(self) or tracks_grad(src) or self._base is not None)):
        check_no_internal_overlap(b)
        if may_alias(b, sb):
            check_no_alias(b, sb)
            sb = sb.copy()
        np.copyto(b, sb, casting="unsafe")
        bump_version(self)
        return self
    new = run_forward(("copy", dt), fn, [b, sb], False)  # the definition's numbers (its cast)
    return apply_inplace(self, "CopyBackwards", ("copy", dt), fn, (self, src), new, (0, 1))


def fill_(self: Tensor, value: TensorOrScalar) -> Tensor:
    if isinstance(value, Tensor):
        if value._buf.ndim != 0:
            raise RuntimeError(
                f"fill_ only supports 0-dimension value tensor but got tensor with "
                f"{value._buf.ndim} dimensions."
            )
        dt = self._buf.dtype

        def fn(x, v):
            return shape_prims.broadcast_to(ew.convert_element_type(v, dt), x.shape)

        new = run_forward(("fill_t", dt), fn, [self._buf, value._buf], False) if (
            type(self._buf) is _nd and type(value._buf) is _nd) else None
        return apply_inplace(self, "FillBackward3", ("fill_t", dt), fn, (self, value), new, (0, 1))
    value = scalar_value(value)
    b = self._buf
    value = _check_fill_value(value, b.dtype, "fill_")
    if not (STATE.enabled and (tracks_grad(self) or self._base is not None)) and type(b) is _nd:
        check_no_internal_overlap(b)
        b.fill(value)
        bump_version(self)
        return self
    dt = b.dtype

    def fn(x):  # the value everywhere (``x * 0 + value`` was NaN where x is inf or NaN)
        return fnp.full_like(x, np.asarray(value, dt)[()])

    return apply_inplace(self, "FillBackward2", ("fill", dt, value), fn, (self,), np.asarray(value, dt))


def zero_(self: Tensor) -> Tensor:
    b = self._buf
    if not (STATE.enabled and (tracks_grad(self) or self._base is not None)) and type(b) is _nd:
        check_no_internal_overlap(b)
        b.fill(0)
        bump_version(self)
        return self

    def fn(x):  # zeros (``x * 0`` was NaN where x is inf or NaN)
        return fnp.zeros_like(x)

    return apply_inplace(self, "ZeroBackward0", ("zero",), fn, (self,), np.zeros((), b.dtype))


def resize_as_(self: Tensor, other: Tensor, memory_format: memory_format | None = None) -> Tensor:
    return resize_(self, other.shape)


# ---------------------------------------------------------------------------------------
# misc


def clone(input: Tensor, *, memory_format: memory_format | None = None) -> Tensor:
    b = input._buf
    if type(b) is not _nd and type(b) not in _DEV:
        return run_functional(lambda x: x, (input,))
    res = apply_op("CloneBackward0", ("clone",), _identity, (input,))
    if memory_format is not contiguous_format and type(b) is _nd and not b.flags.c_contiguous:
        kept = np.empty_like(b)  # the preserved layout (PyTorch's preserve_format): b's strides order
        kept[...] = res._buf
        res._buf = kept
    return res


def _identity(x):
    return x


contiguous_format = _MemoryFormat("contiguous_format")
preserve_format = _MemoryFormat("preserve_format")
channels_last = _MemoryFormat("channels_last")


def contiguous(self: Tensor, memory_format: memory_format | None = None) -> Tensor:
    b = self._buf
    if memory_format is channels_last:
        return _channels_last(self)
    if (type(b) is not _nd and type(b) not in _DEV) or b.flags.c_contiguous:
        return self
    out = apply_op("CloneBackward0", ("clone",), _identity, (self,))
    ob = out._buf
    if type(ob) is _nd and not ob.flags.c_contiguous:  # a 16-bit float's float32 round trip keeps the layout
        out._buf = np.ascontiguousarray(ob)
    return out


def _channels_last(self: Tensor) -> Tensor:
    """``contiguous(memory_format=torch.channels_last)``: the same values in an NHWC buffer
    (strides ``(HWC, 1, WC, C)``, as PyTorch's), ``self`` when already so laid out."""
    b = self._buf
    if b.ndim != 4:
        raise RuntimeError("required rank 4 tensor to use channels_last format")
    if type(b) is not _nd or _cl_strides(b):
        return self
    out = apply_op("CloneBackward0", ("clone",), _identity, (self,))
    out._buf = np.ascontiguousarray(out._buf.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
    return out


def detach(input: Tensor) -> Tensor:
    b = input._buf
    if type(b) is not _nd and type(b) not in _DEV:  # traced (torch.func, torch.compile)
        return _wrap(stop_gradient(b))
    t = _alias(input)
    return t


def detach_(self: Tensor) -> Tensor:
    if self._base is not None:
        raise RuntimeError(
            "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel "
            "(DDP) for training, and gradient_as_bucket_view is set as True, gradients are views of "
            "DDP buckets, and hence detach_() cannot be called on these gradients. To fix this error, "
            "please refer to the Optimizer.zero_grad() function in torch/optim/optimizer.py as the "
            "solution."
        )
    self._gfn = None
    self._rg = False
    return self


def to_dtype(input, dt: D.dtype, copy=False):
    b = input._buf
    npd = dt.np
    if b.dtype == npd and not copy:
        return input
    # (out-of-range floats cast to integers as PyTorch's CPU casts, not JAX's saturation)
    if type(b) is not _nd and type(b) not in _DEV:
        return run_functional(lambda x: ew.convert_element_type(x, npd, saturate=False), (input,))

    def fn(x):
        return ew.convert_element_type(x, npd, saturate=False)

    res = apply_op("ToCopyBackward0", ("to", npd), fn, (input,))
    return res


def to_device(input, index, copy=False):
    """``input`` on CUDA device ``index`` (None: the host): a copy recorded by autograd (the
    gradient flows back to the source device); ``input`` itself if already there (a clone
    with ``copy``)."""
    b = input._buf
    if copy and (type(b) is _nd or type(b) in _DEV) and buf_index(b) == index:
        return clone(input)
    return transfer(input, index)


# ---------------------------------------------------------------------------------------
# more elementwise and reductions


def deg2rad(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    x = input if _dtype_kind(input._buf.dtype) in "fc" else input.to(D.DEFAULT.float)
    res = mul(x, math.pi / 180.0)
    return res if out is None else write_out(out, res, "deg2rad")


def rad2deg(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    x = input if _dtype_kind(input._buf.dtype) in "fc" else input.to(D.DEFAULT.float)
    res = mul(x, 180.0 / math.pi)
    return res if out is None else write_out(out, res, "rad2deg")


def angle(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    b = input._buf
    if _dtype_kind(b.dtype) == "c":

        def fn(x):
            return fnp.angle(x) if hasattr(fnp, "angle") else ew.atan2_p.bind(ew.imag(x), ew.real(x))

        res = apply_op("AngleBackward0", ("angle",), fn, (input,))
    elif _dtype_kind(b.dtype) == "f":  # pi below 0, NaN kept; recorded (requires grad, gradient 0)

        def real_angle(x):
            held = stop_gradient(x)
            return fnp.where(fnp.isnan(held), held, fnp.where(held < 0, math.pi, 0.0).astype(held.dtype))

        res = apply_op("AngleBackward0", ("angle_real",), real_angle, (input,))
    else:
        res = mul(lt(input, 0).to(D.DEFAULT.float), math.pi)
    return res if out is None else write_out(out, res, "angle")


def sinc(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    x = input if _dtype_kind(input._buf.dtype) in "fc" else input.to(D.DEFAULT.float)
    res = apply_op(
        "SincBackward0", ("sinc",), lambda v: fnp.sinc(v), (x,)
    )
    return res if out is None else write_out(out, res, "sinc")


def heaviside(input: Tensor, values: Tensor, *, out: Tensor | None = None) -> Tensor:
    check_tensor_other("heaviside", values, "values")
    if isinstance(values, Tensor) and values._buf.dtype != input._buf.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
    if out is None and _needs_refusal(input, values):  # PyTorch: no derivative (its backward raises)
        return _refused_op(_heaviside, "heaviside", input, values)
    res = _heaviside(input, values)
    return res if out is None else write_out(out, res, "heaviside")


def _heaviside(input: Tensor, values: Tensor) -> Tensor:
    return where(lt(input, 0), 0, where(eq(input, 0), values, 1)).to(D.from_np(result_dtype(input, values)))


def _integer_binary(name: str, ufunc, input: Tensor, other: TensorOrScalar, out: Tensor | None) -> Tensor:
    """``gcd``/``lcm``: integer operands only (PyTorch's NotImplementedError naming the kernel,
    not NumPy's missing-loop error)."""
    R = np.dtype(result_dtype(input, other))
    if _dtype_kind(R) not in "iu":
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{D.from_np(R)._legacy}'")
    res = result_tensor(ufunc(input._buf, other._buf if isinstance(other, Tensor) else other))
    return res if out is None else write_out(out, res, name)


def gcd(input: Tensor, other: TensorOrScalar, *, out: Tensor | None = None) -> Tensor:
    return _integer_binary("gcd", np.gcd, input, other, out)


def lcm(input: Tensor, other: TensorOrScalar, *, out: Tensor | None = None) -> Tensor:
    return _integer_binary("lcm", np.lcm, input, other, out)


def ldexp(input: Tensor, other: TensorOrScalar, *, out: Tensor | None = None) -> Tensor:
    check_tensor_other("ldexp", other)
    res = mul(input, pow(2.0, other) if isinstance(other, Tensor) else 2.0**other)
    return res if out is None else write_out(out, res, "ldexp")


def sgn(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    if not input.is_complex():
        if not input.is_floating_point():  # (never recorded)
            return sign(input, out=out)
        res = apply_op("SgnBackward0", "sgn_real", _conv.sign_torch, (input,))  # sign's values
        return res if out is None else write_out(out, res, "sgn")
    res = apply_op("SgnBackward0", "sgn", _sgn_complex, (input,))
    return res if out is None else write_out(out, res, "sgn")


def _sgn_complex(z):
    """``z / |z|`` (0 at 0), differentiable away from 0 as PyTorch's ``SgnBackward0`` (the
    sign primitive's derivative is 0: right for real numbers only)."""
    zero = ew.eq(z, 0)
    safe = fnp.where(zero, fnp.ones_like(z), z)
    return fnp.where(zero, fnp.zeros_like(z), ew.div(safe, fnp.abs(safe).astype(z.dtype)))


def quantile(input: Tensor, q: float | Tensor, dim: Dims = None, keepdim: bool = False, *,
             interpolation: str = "linear", out: Tensor | None = None) -> Tensor:
    qv = q._buf if isinstance(q, Tensor) else q
    scalar_q = np.ndim(qv) == 0
    qa = np.asarray(qv, input._buf.dtype)
    x = input if dim is not None and input._buf.ndim else input.reshape(-1)  # a 0-d input: dim 0/-1
    d = 0 if dim is None else _wrap_dim(dim, input._buf.ndim)
    keep = keepdim and dim is not None and input._buf.ndim > 0

    def fn(v, qq):  # the ranks q * (n - 1) in the input's dtype, as PyTorch computes them
        return _quantile_ranked(v, qq, axis=d, keepdims=keep, method=interpolation, rank_dtype=qa.dtype)

    res = apply_op(
        "QuantileBackward0", ("quantile", d, keep, interpolation, scalar_q), fn, (x, qa), edges=(0,)
    )
    if keepdim and dim is None:
        res = res.reshape((1,) * input._buf.ndim if scalar_q else (res.shape[0],) + (1,) * input._buf.ndim)
    return res if out is None else write_out(out, res, "quantile")


def nanquantile(input: Tensor, q: float | Tensor, dim: Dims = None, keepdim: bool = False, *,
                interpolation: str = "linear", out: Tensor | None = None) -> Tensor:
    b = input._buf
    if not np.isnan(b).any():
        return quantile(input, q, dim, keepdim, interpolation=interpolation, out=out)
    qv = q._buf if isinstance(q, Tensor) else q
    x = b if dim is not None else b.reshape(-1)
    ax = 0 if dim is None else _wrap_dim(dim, b.ndim)
    allnan = np.isnan(x).all(axis=ax, keepdims=True)  # those give NaN (NumPy would also warn)
    r = np.nanquantile(np.where(allnan, 0, x), qv, axis=ax, keepdims=True, method=interpolation)
    r = np.where(allnan, np.nan, r)
    if not (keepdim and dim is not None):
        r = np.squeeze(r, axis=np.ndim(qv) + ax)
    res = result_tensor(_asb(r).astype(b.dtype))
    return res if out is None else write_out(out, res, "nanquantile")


def diff(input: Tensor, n: int = 1, dim: int = -1, prepend: Tensor | None = None,
         append: Tensor | None = None) -> Tensor:
    from ._ops_shape import cat, narrow

    x = input
    if x._buf.ndim == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    d = _wrap_dim(dim, x._buf.ndim)
    if prepend is not None or append is not None:
        parts = [p for p in (prepend, x, append) if p is not None]
        x = cat(parts, d)
    for _ in range(n):
        m = x._buf.shape[d]
        if m == 0:  # PyTorch: the difference of an empty dim is empty
            break
        a, b = narrow(x, d, 1, m - 1), narrow(x, d, 0, m - 1)
        x = logical_xor(a, b) if x._buf.dtype == _bool else sub(a, b)
    return x


def renorm(input: Tensor, p: float, dim: int, maxnorm: float) -> Tensor:
    d = _wrap_dim(dim, input._buf.ndim)
    others = tuple(k for k in range(input._buf.ndim) if k != d)
    norms = vector_norm(input, p, others, keepdim=True)
    factor = where(gt(norms, maxnorm), div(maxnorm, add(norms, 1e-7)), 1.0)
    return mul(input, factor)


def sum_to_size(self: Tensor, *size: int | Sequence[int]) -> Tensor:
    size = tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list, Size)) else tuple(size)
    b = self._buf
    lead = b.ndim - len(size)
    axes = tuple(range(lead)) + tuple(
        i + lead for i, s in enumerate(size) if s == 1 and b.shape[i + lead] != 1
    )
    r = sum(self, axes, keepdim=True) if axes else self
    return r.reshape(size) if r._buf.shape != size else r


@_autocast_fp32
def cdist(x1: Tensor, x2: Tensor, p: float | str = 2.0,
          compute_mode: str | None = "use_mm_for_euclid_dist_if_necessary") -> Tensor:
    modes = ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist")
    if compute_mode is not None and compute_mode not in modes:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    s1, s2 = x1._buf.shape, x2._buf.shape
    if x1._buf.dtype != x2._buf.dtype:  # PyTorch's words; it computes in one dtype only
        raise RuntimeError(
            f"expected scalar type {scalar_type_name(x1._buf.dtype)} but found "
            f"{scalar_type_name(x2._buf.dtype)} (cdist: X1 and X2 must have the same dtype; "
            f"convert one with .to(other.dtype))")
    if s1[-1:] != s2[-1:]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {s1[-1]} X2: {s2[-1]}")
    if p == 2 and len(s1) >= 2 and len(s2) >= 2 and (
            compute_mode == modes[1] or (compute_mode in (None, modes[0]) and (s1[-2] > 25 or s2[-2] > 25))):
        # PyTorch's matrix-product form for many points (its values and gradients)
        batch = tuple(np.broadcast_shapes(s1[:-2], s2[:-2]))
        a = x1.expand(*batch, *s1[-2:]) if s1[:-2] != batch else x1
        b = x2.expand(*batch, *s2[-2:]) if s2[:-2] != batch else x2
        return apply_op("CdistBackward0", ("cdist_mm",), _conv.euclidean_dist_mm, (a, b))
    d = sub(x1.unsqueeze(-2), x2.unsqueeze(-3))
    if p == math.inf:  # PyTorch: each tied coordinate gets the full gradient (no split)
        return apply_op("CdistBackward0", ("cdist_inf",), _conv.max_abs_unsplit, (d,))
    return vector_norm(d, p, -1)


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    num = sum(mul(x1, x2), dim)
    n1 = clamp(vector_norm(x1, 2, dim), min=eps)
    n2 = clamp(vector_norm(x2, 2, dim), min=eps)
    return div(num, mul(n1, n2))


def trapezoid(y: Tensor, x: Tensor | None = None, *, dx: float | None = None, dim: int = -1) -> Tensor:
    from ._ops_shape import narrow

    d = _wrap_dim(dim, y._buf.ndim)
    m = y._buf.shape[d]
    avg = div(add(narrow(y, d, 1, m - 1), narrow(y, d, 0, m - 1)), 2.0)
    if x is None:
        return mul(sum(avg, d), 1.0 if dx is None else dx)
    xd = diff(x, dim=-1 if x._buf.ndim == 1 else d)
    if x._buf.ndim == 1 and y._buf.ndim > 1:
        shp = [1] * y._buf.ndim
        shp[d] = m - 1
        xd = xd.reshape(shp)
    return sum(mul(avg, xd), d)


trapz = trapezoid


def vander(x: Tensor, N: int | None = None, increasing: bool = False) -> Tensor:
    n = x._buf.shape[0] if N is None else N
    from ._ops_shape import stack

    cols = [pow(x, k) if k else ones_like_t(x) for k in range(n)]
    if not increasing:
        cols = cols[::-1]
    return stack(cols, 1)


def ones_like_t(x):
    return result_tensor(_dev.xp_of(x._buf).ones(x._buf.shape, x._buf.dtype))


def dropout(input: Tensor, p: float = 0.5, train: bool = True) -> Tensor:
    if not train or p == 0:
        return input
    if p == 1:
        return mul(input, 0.0)
    shape, dt = tuple(input.shape), (input.dtype if input.is_floating_point() else None)
    if _COMPILE_RNG[0] is not None:  # inside torch.compile's trace: drawn from the program's key
        keep = (_rand(shape, dtype=dt, device=input.device) < (1.0 - p)).to(input.dtype) / (1.0 - p)
    else:  # PyTorch: bernoulli_(1 - p), div_(1 - p) in the input's dtype
        keep = _empty(shape, dtype=dt, device=input.device).bernoulli_(1.0 - p).div_(1.0 - p)
    return mul(input, keep)


# core helpers and internal helpers, not torch names
_NOT_EXPORTED = ("BINOPS", "SPEC_LIST", "fnn", "fnp", "vjp", "transfer", "return_type", "rtruediv",
                 "shape_prims")
__all__ = [n for n in dir() if not n.startswith("_") and n not in _NOT_EXPORTED]
