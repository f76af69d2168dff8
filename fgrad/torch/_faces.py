"""The generated faces of the elementwise op specs (`fgrad.ops.specs`): factories for unary
ops (the primitive's implementation on the buffer, recorded under the spec's ``grad_fn``),
unary ops defined by an fgrad composite, never-recorded unary ops (predicates, bit ops), and
`_BinOp`, a binary op with PyTorch's promotion, a fast ufunc path and its in-place form.
`generate_faces` builds the torch functions and in-place twins of every spec.

Example::

    >>> faces = generate_faces()
    >>> faces["sin"].op_spec.name
    'sin'
"""

from __future__ import annotations

import builtins
import functools
import numpy as np
from ..core.narrow_floats import NARROW_FLOATS as _NARROW_FLOATS, bfloat16 as _BF16, dtype_kind as _dtype_kind
from ..core.narrow_floats import float32 as _F32
from ..core.quiet import quiet, switch
from ..ops.specs import SPEC_LIST
from ._refusals import refusal
import fgrad.torch._conventions as _conv
import fgrad.torch._device as _dev
import fgrad.torch._dtypes as D
from ._device import DEV as _DEV
from ._tensor import Tensor
from .autograd import graph as G
from .autograd.grad_mode import STATE
from ._ops_creation import scalar_tensor
from ._ops_creation import tensor
from ._promotion import can_cast, binary_result_dtype, scalar_type_name, wrapped_int
from ._dispatch import (
    bump_version,
    grad_fn_name,
    check_no_internal_overlap,
    copy_into,
    cast_definition,
    cast_primitive,
    run_forward,
    run_functional,
    fgrad_value,
    from_fgrad_value,
    apply_inplace,
    result_tensor,
    on_device,
    apply_op,
    write_out,
    tracks_grad,
    unify_devices,
    check_no_alias,
    may_alias,
)
from fgrad.torch.types import TensorOrScalar
from ..typing import Shaped

_set_err, _IGNORE_ERR, _reset_err = switch()

_nd = np.ndarray
_PY = (int, float, bool, complex)
_i64 = np.dtype(np.int64)
_bool = np.dtype(np.bool_)


def _via_float32(f):
    """``f`` computing float16/bfloat16 buffers in float32 and rounding the result once, as
    PyTorch's CPU kernels do (sigmoid, erf, ...)."""

    def g(x):
        if x.dtype in _NARROW_FLOATS:
            return f(x.astype(_F32)).astype(x.dtype)
        return f(x)

    return g


def _unary(prim, gname, name, to_float=True):
    uf = uf_out = getattr(prim, "ufunc", None)
    is_ufunc = isinstance(uf, np.ufunc)
    impl = prim.impl
    if uf is None:

        def uf(x):
            return impl(np, x)

        def ufd(x):
            return impl(_dev.xp_of(x), x)

    else:
        if getattr(prim, "may_warn", False):  # log(0), sqrt(-1), ...: no RuntimeWarning, as in PyTorch
            uf_out = quiet(uf)
            uf = quiet(uf, 1)
        ufd = uf
    bind = prim.bind
    if not is_ufunc:  # a composite of NumPy calls: 16-bit floats computed in float32, rounded once
        uf, ufd = _via_float32(uf), _via_float32(ufd)
    # a host float Tensor of a NumPy ufunc: the ufunc called inline, NumPy's error reports
    # switched off around it where they may fire (no wrapper call per op; the same result)
    raw = prim.ufunc if is_ufunc else None
    switch_err = is_ufunc and getattr(prim, "may_warn", False)

    def op(input: Shaped[Tensor, "*shape"], *, out: Tensor | None = None) -> Shaped[Tensor, "*shape"]:
        try:
            b = input._buf
        except AttributeError:
            raise TypeError(
                f"{name}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}"
            ) from None
        tb = type(b)
        if tb is not _nd and tb not in _DEV:
            res = run_functional(
                cast_primitive(prim, D.DEFAULT.float.np)
                if to_float and _dtype_kind(b.dtype) not in "fc" else bind, (
                    input,
                )
            )
        else:
            if tb is _nd and raw is not None and b.dtype.kind in "fc":
                if switch_err:
                    token = _set_err(_IGNORE_ERR)
                    try:
                        r = raw(b)
                    finally:
                        _reset_err(token)
                else:
                    r = raw(b)
            else:
                if to_float and _dtype_kind(b.dtype) not in "fc":
                    b = b.astype(D.DEFAULT.float.np)
                r = uf(b) if type(b) is _nd else ufd(b)
            if type(r) is not _nd and type(r) not in _DEV:
                r = np.asarray(r)
            res = object.__new__(Tensor)
            res._buf = r
            res._gfn = None
            res._rg = False
            res._vc = None
            if STATE.enabled and (input._rg or input._gfn is not None):
                G.record(gname, prim, bind, (input,), (res,))
            elif STATE.inference:
                res._inf = True
        if out is not None:
            return write_out(out, res, name, (input,))
        return res

    def op_(self: Shaped[Tensor, "*shape"]) -> Shaped[Tensor, "*shape"]:
        b = self._buf
        if to_float and _dtype_kind(b.dtype) not in "fc":
            raise RuntimeError(
                f"result type Float can't be cast to the desired output type {scalar_type_name(b.dtype)}"
            )
        if type(b) is not _nd:
            if type(b) not in _DEV:
                return apply_inplace(self, gname, prim, bind, (self,), None)
            if not (STATE.enabled and (self._rg or self._gfn is not None or self._base is not None)):
                check_no_internal_overlap(b)
                uf_out(b, out=b) if is_ufunc else copy_into(b, ufd(b))
                bump_version(self)
                return self
            return apply_inplace(self, gname, prim, bind, (self,), ufd(b))
        if not (STATE.enabled and (self._rg or self._gfn is not None or self._base is not None)):
            check_no_internal_overlap(b)
            uf_out(b, out=b) if is_ufunc else np.copyto(b, uf(b), casting="unsafe")
            bump_version(self)
            return self
        return apply_inplace(self, gname, prim, bind, (self,), uf(b))

    op.__name__ = op.__qualname__ = name
    op_.__name__ = op_.__qualname__ = name + "_"
    return op, op_


def composite_unary(name, gname, make_fn, to_float=True):
    """A unary op defined by an fgrad composite."""
    fn = make_fn()

    def op(input: Shaped[Tensor, "*shape"], *, out: Tensor | None = None) -> Shaped[Tensor, "*shape"]:
        input = as_tensor_arg(input, name)
        b = input._buf
        x = input
        if to_float and _dtype_kind(b.dtype) not in "fc":
            x = input.to(D.DEFAULT.float)
        res = apply_op(gname, name, fn, (x,))
        return res if out is None else write_out(out, res, name)

    def op_(self: Shaped[Tensor, "*shape"]) -> Shaped[Tensor, "*shape"]:
        if type(self._buf) is not _nd:
            return apply_inplace(self, gname, name, fn, (self,), None)
        new = run_forward(name, fn, [self._buf], False)
        return apply_inplace(self, gname, name, fn, (self,), new)

    op.__name__ = name
    op_.__name__ = name + "_"
    return op, op_


def _unary_by_rule(spec):
    """The torch function and in-place twin of a unary spec with a ``torch_rule``: PyTorch's
    formula (`_conventions`) for 32- and 64-bit floats; 16-bit floats keep the primitive,
    whose numbers there are PyTorch's (its kernels compute in float32 and round once, and
    the backward reads the rounded output)."""
    rule = getattr(_conv, spec.torch_rule)
    name, to_float = spec.torch[0], spec.torch_dtype == "float"
    by_rule, by_rule_ = composite_unary(name, spec.grad_fn, lambda: rule, to_float=to_float)
    by_prim, by_prim_ = _unary(spec.prim, spec.grad_fn, name, to_float=to_float)

    def op(input: Shaped[Tensor, "*shape"], *, out: Tensor | None = None) -> Shaped[Tensor, "*shape"]:
        b = getattr(input, "_buf", None)
        if b is not None and b.dtype in _NARROW_FLOATS:
            return by_prim(input, out=out)
        return by_rule(input, out=out)

    def op_(self: Shaped[Tensor, "*shape"]) -> Shaped[Tensor, "*shape"]:
        return (by_prim_ if self._buf.dtype in _NARROW_FLOATS else by_rule_)(self)

    op.__name__ = op.__qualname__ = name
    op_.__name__ = op_.__qualname__ = name + "_"
    return op, op_


def _nograd_unary(prim, name, has_out):
    """A unary op that autograd never records (predicates, bit ops): the primitive's
    implementation on the buffer, its result dtype."""
    impl = prim.impl
    host = getattr(prim, "quiet_ufunc", None) or (lambda b: impl(np, b))
    bind = prim.bind

    def compute(input: Shaped[Tensor, "*shape"]) -> Shaped[Tensor, "*shape"]:
        try:
            b = input._buf
        except AttributeError:
            raise TypeError(
                f"{name}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}"
            ) from None
        if type(b) is _nd:
            r = host(b)
        elif type(b) in _DEV:
            r = impl(_dev.xp_of(b), b)
        else:  # functional mode: the tensor holds an fgrad value
            return from_fgrad_value(bind(fgrad_value(input)))
        res = object.__new__(Tensor)
        res._buf = r if type(r) is _nd or type(r) in _DEV else np.asarray(r)
        res._gfn = None
        res._rg = False
        res._vc = None
        if STATE.inference:
            res._inf = True
        return res

    if has_out:
        def op(input: Shaped[Tensor, "*shape"], *, out: Tensor | None = None) -> Shaped[Tensor, "*shape"]:
            res = compute(input)
            return res if out is None else write_out(out, res, name, (input,))
    else:
        op = compute
    op.__name__ = op.__qualname__ = name
    return op


def as_tensor_arg(x, name="input") -> Tensor:
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (list, tuple, np.ndarray, np.generic)) or type(x) in _PY:

        return tensor(x)
    raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(x).__name__}")


def binary_operands(a, b, name):
    """Normalize operands of a binary op: returns (a_tensor, b_tensor_or_scalar)."""
    if not isinstance(a, Tensor):
        if isinstance(b, Tensor):
            a = _scalar_or_tensor(a, name)
            if not isinstance(a, Tensor):

                a = scalar_tensor(a, b)
        else:
            a = as_tensor_arg(a, name)
    if not isinstance(b, Tensor):
        b = _scalar_or_tensor(b, name)
    return a, b


def _scalar_or_tensor(x, name):
    t = type(x)
    if t in _PY:
        return x
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, np.ndarray):

        return tensor(x)
    if isinstance(x, (int, float, bool, complex)):
        return x
    if isinstance(x, (list, tuple)):  # PyTorch does not convert sequences in binary ops
        raise TypeError(f"{name}(): argument 'other' (position 2) must be Tensor, not {t.__name__} "
                        f"(convert it with torch.tensor(...) first)")
    raise TypeError(f"{name}(): argument 'other' must be Tensor or Number, not {t.__name__}")


def check_int_divisor(name: str, x, y) -> None:
    """PyTorch raises for an integer division (``//``, ``%``, ``fmod``, ``div(..., 'trunc')``)
    by zero; NumPy would return 0 silently.  An empty result divides nothing (no error)."""
    if getattr(x, "size", 1) == 0 or getattr(y, "size", 1) == 0:
        return
    if _dtype_kind(x.dtype) in "iu" and bool((y == 0).any() if hasattr(y, "any") else y == 0):
        raise RuntimeError(
            f"ZeroDivisionError: {name}: integer division by zero (dtype {scalar_type_name(x.dtype)}). "
            f"Convert to a floating dtype (x.float()) to get inf/nan instead."
        )


def _int_divisor_checked(uf, name: str):
    """``uf`` (a ufunc-like taking ``x, y, out=..., casting=...``) that raises PyTorch's error
    for an integer divisor equal to 0."""

    def checked(x, y, *args, **kwargs):
        check_int_divisor(name, x, y)
        return uf(x, y, *args, **kwargs)

    return checked


BOOL_SUBTRACTION = ("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying "
                    "to invert a mask, use the `~` or `logical_not()` operator instead.")


def refuse_bool_subtraction(a, b) -> None:
    """PyTorch's RuntimeError for a subtraction with one bool operand (a bool tensor, or a
    Python bool beside a tensor); two bool operands are refused by the common dtype."""
    if any(isinstance(v, bool) or (isinstance(v, Tensor) and v._buf.dtype == np.bool_) for v in (a, b)):
        raise RuntimeError(BOOL_SUBTRACTION)


class _BinOp:
    """A binary elementwise op: PyTorch promotion, fast ufunc path, recording."""

    def __init__(self, prim, gname, name, kind="a", definition=None, int_divisor=False, refuse=None):
        self.prim = prim
        self.refuse = refuse  # PyTorch's error for a refused common dtype (`_refusal`), or None
        # the fgrad definition autograd differentiates, when PyTorch's derivative convention
        # differs from the primitive's (JAX's) one; the forward still runs the ufunc
        self.definition = definition
        self.kp = prim if definition is None else (prim, definition)  # backward-program cache key
        self.uf = getattr(prim, "ufunc", None)
        if self.uf is None:
            impl = prim.impl
            self.uf = lambda x, y, out=None, casting=None: (
                impl(np, x, y) if out is None else np.copyto(out, impl(np, x, y), casting="unsafe") or out
            )

            def ufd(x, y, out=None, casting=None):
                xp = _dev.xp_of(x if type(x) in _DEV else y)
                r = impl(xp, x, y)
                if out is None:
                    return r
                xp.copyto(out, r, casting="unsafe")
                return out

            self.ufd = ufd
        else:
            self.ufd = self.uf
        if int_divisor:  # x // 0, x % 0 for integers: PyTorch's RuntimeError
            self.uf, self.ufd = _int_divisor_checked(self.uf, name), _int_divisor_checked(self.ufd, name)
        # x / 0, 0 * inf, i // 0 ... give IEEE values (or 0 for integers) silently, as in PyTorch
        self.uf_raw = self.uf  # __call__ switches the reports off inline (no extra call)
        self.uf = quiet(self.uf)
        self.ufd = quiet(self.ufd)
        self.gname = gname
        self.name = name
        self.kind = kind  # a: arithmetic, d: true division, c: comparison (bool out), f: float only
        self.fns = {}

    lc = (None, None, None)  # the last Python float operand: (float, dtype, its 0-d array)
    lk = (None, None)  # the last result dtype and its backward-program key ``(kp, dtype)``, one
    # object per dtype kept, so that `graph.record` recognises a loop's repeated signature

    def _key(self, Rd) -> tuple:
        """The backward-program cache key for result dtype ``Rd`` (the last one's object)."""
        lk = self.lk
        if lk[0] is Rd:
            return lk[1]
        k = (self.kp, Rd)
        self.lk = (Rd, k)
        return k

    def _const(self, b: float, Rd) -> np.ndarray:
        """The Python float ``b`` as a read-only 0-d array of dtype ``Rd`` (overflow to inf
        silently, as PyTorch), kept for the next call with the same float object (a loop's
        constant)."""
        token = _set_err(_IGNORE_ERR)
        try:
            c = np.asarray(b, Rd)
        finally:
            _reset_err(token)
        c.flags.writeable = False  # shared by the nodes that record it
        self.lc = (b, Rd, c)
        return c

    def fn(self, R):
        f = self.fns.get(R)
        if f is None:
            if self.definition is None:
                f = cast_primitive(self.prim, R)
            else:
                f = cast_definition(self.definition, R)
            f = self.fns[R] = f
        return f

    def dtype(self, a, b):
        Rd = binary_result_dtype(a, b)
        if self.refuse is not None:
            self.refuse(Rd)
        if self.name == "sub" and Rd.kind != "b":  # (every bool operand takes this path: not fc)
            refuse_bool_subtraction(a, b)
        if self.kind in "df" and Rd.kind in "biu":
            Rd = D.DEFAULT.float.np
        return Rd

    def __call__(self, input, other, *, out=None):
        a, b = input, other
        tb_ = type(b)
        if type(a) is not Tensor or (
            tb_ is not Tensor and tb_ is not float and tb_ is not int and not isinstance(b, Tensor)
        ):
            a, b = binary_operands(a, b, self.name)
        A = a._buf
        c0 = None
        if type(b) is float and A.dtype in _NARROW_FLOATS and self.name in _NARROW_SCALAR and type(A) is _nd:
            Rd = A.dtype  # float16/bfloat16 and a Python float: PyTorch's opmath (`_NARROW_SCALAR`)
            c0 = _NARROW_SCALAR[self.name](b, Rd)
        elif type(b) is float and A.dtype.kind in "fc":  # a float Tensor and a Python float: its dtype
            Rd = A.dtype  # (`binary_result_dtype`'s rule, without the calls)
            if self.refuse is not None:
                self.refuse(Rd)
            if self.kind != "c" and type(A) is _nd:
                # the float as a 0-d array of that dtype, the value NumPy's weak-scalar rule
                # computes with (a ufunc takes it faster than a Python float; recorded as is)
                lc = self.lc
                c0 = lc[2] if lc[0] is b and lc[1] is Rd else self._const(b, Rd)
        elif type(b) is Tensor and b._buf.dtype is A.dtype and A.dtype.kind in "fc":
            Rd = A.dtype  # two float Tensors of one dtype: that dtype (`binary_result_dtype`'s rule)
            if self.refuse is not None:
                self.refuse(Rd)
        else:
            Rd = self.dtype(a, b)
            if type(b) is int and Rd.kind in "iu":
                b = wrapped_int(b, Rd)
        tb = isinstance(b, Tensor)
        if type(A) is not _nd or (tb and type(b._buf) is not _nd):
            res = self._slow(a, b, tb, Rd)
            return res if out is None else write_out(out, res, self.name, (a, b))
        if A.dtype != Rd:
            A = A.astype(Rd)
        if tb:
            B = b._buf
            if B.dtype != Rd:
                B = B.astype(Rd)
        else:
            B = b if c0 is None else c0
        token = _set_err(_IGNORE_ERR)
        try:
            r = self.uf_raw(A, B)
        except ValueError as e:
            raise _broadcast_error(A.shape, B.shape if tb else (), e) from None
        finally:
            _reset_err(token)
        if type(r) is not _nd:
            r = np.asarray(r)
        if r.dtype is not Rd and (Rd is _BF16 or c0 is not None) and self.kind != "c":
            token = _set_err(_IGNORE_ERR)  # (float16 overflows to inf, as PyTorch's)
            try:
                r = r.astype(Rd)  # NumPy computes bfloat16 with a Python float in float32: round once
            finally:
                _reset_err(token)
        res = object.__new__(Tensor)
        res._buf = r
        res._gfn = None
        res._rg = False
        res._vc = None
        if (
            STATE.enabled
            and self.kind != "c"
            and (a._rg or a._gfn is not None or (tb and (b._rg or b._gfn is not None)))
        ):
            f = self.fns.get(Rd)
            if not tb and (type(B) is not _nd or B.dtype is not Rd):
                token = _set_err(_IGNORE_ERR)  # (1e300 in float32: inf, silently, as PyTorch)
                try:
                    B = np.asarray(B, Rd)
                finally:
                    _reset_err(token)
            G.record(
                self.gname, self._key(Rd), f if f is not None else self.fn(Rd),
                (a, b if tb else B), (res,), (0, 1)
            )
        elif STATE.inference:
            res._inf = True
        if out is not None:
            return write_out(out, res, self.name, (a, b))
        return res

    def _slow(self, a, b, tb, Rd):
        """Tracers (functional mode) or the CUDA device."""
        args = (a, b if tb else np.asarray(b, Rd))
        if not on_device(args):
            return run_functional(self.fn(Rd), args)
        xs = unify_devices(args)
        A, B = [x._buf if isinstance(x, Tensor) else x for x in xs]
        if A.dtype != Rd:
            A = A.astype(Rd)
        if B.dtype != Rd:
            B = B.astype(Rd)
        try:
            r = self.ufd(A, B)
        except ValueError as e:
            raise _broadcast_error(A.shape, B.shape, e) from None
        res = result_tensor(r)
        if STATE.enabled and self.kind != "c" and builtins.any(
            isinstance(x, Tensor) and tracks_grad(x) for x in xs
        ):
            G.record(self.gname, (self.kp, Rd), self.fn(Rd), xs, (res,), (0, 1))
        return res

    def inplace(self, self_t, other):
        a = self_t
        b = other
        if not isinstance(b, Tensor):
            b = _scalar_or_tensor(b, self.name)
        tb = isinstance(b, Tensor)
        A = a._buf
        uf = self.uf
        if type(A) is not _nd or (tb and type(b._buf) is not _nd):
            Rd = self.dtype(a, b)
            args = (a, b if tb else np.asarray(b, Rd))
            if not on_device(args):
                return apply_inplace(a, self.gname, (self.kp, Rd), self.fn(Rd), args, None, (0, 1))
            if type(A) not in _DEV:
                raise _dev.same_device_error(str(b.device), "cpu")
            if tb and type(b._buf) is _nd:
                if b._buf.ndim:
                    raise _dev.same_device_error(str(a.device), "cpu")
                if not (STATE.enabled and tracks_grad(b)):
                    b = b._buf.item()
                    tb = False
            uf = self.ufd
        Rd = self.dtype(a, b)
        if type(b) is int and Rd.kind in "iu":
            b = wrapped_int(b, Rd)
        if self.kind == "c":
            Rd2 = _bool
        else:
            Rd2 = Rd
        if not can_cast(Rd2, A.dtype):
            raise RuntimeError(
                f"result type {scalar_type_name(Rd2)} can't be cast to the desired output type "
                f"{scalar_type_name(A.dtype)}"
            )
        B = b._buf if tb else b
        narrow = (type(b) is float and A.dtype in _NARROW_FLOATS and Rd == A.dtype
                  and self.name in _NARROW_SCALAR)
        if narrow:  # PyTorch's opmath with a number (`_NARROW_SCALAR`); the result rounded once
            B = _NARROW_SCALAR[self.name](b, Rd)
            token = _set_err(_IGNORE_ERR)
            try:
                new = uf(A, B).astype(Rd)
            finally:
                _reset_err(token)
        if tb and b._buf.ndim > A.ndim or (tb and np.broadcast_shapes(A.shape, b._buf.shape) != A.shape):
            try:
                shp = np.broadcast_shapes(A.shape, b._buf.shape)
            except ValueError as e:
                raise _broadcast_error(A.shape, b._buf.shape, e) from None
            raise RuntimeError(
                f"output with shape {list(A.shape)} doesn't match the broadcast shape {list(shp)}"
            )
        grad = STATE.enabled and (
            a._rg or a._gfn is not None or a._base is not None or (tb and (b._rg or b._gfn is not None))
        )
        if tb and may_alias(A, B):
            check_no_alias(A, B)
        if not grad:
            check_no_internal_overlap(A)
            if narrow:
                copy_into(A, new)
            elif self.kind == "c":
                copy_into(A, uf(A, B))
            else:
                if A.dtype != Rd or (tb and B.dtype != Rd):
                    copy_into(A, uf(A.astype(Rd), B.astype(Rd) if tb else B))
                else:
                    uf(A, B, out=A)
            bump_version(a)
            return a
        if not narrow:
            AA = A.astype(Rd) if A.dtype != Rd else A
            BB = (B.astype(Rd) if B.dtype != Rd else B) if tb else B
            new = uf(AA, BB)
        return apply_inplace(
            a, self.gname, (self.kp, Rd), self.fn(Rd), (a, b if tb else np.asarray(B, Rd)), new, (0, 1)
        )


def _broadcast_error(s1, s2, error: ValueError | None = None):
    """PyTorch's error for shapes ``s1`` and ``s2`` that do not broadcast; when they do, the
    ValueError ``error`` the kernel raised for another reason (never relabelled as shapes)."""
    n = builtins.max(len(s1), len(s2))
    p1 = (1,) * (n - len(s1)) + tuple(s1)
    p2 = (1,) * (n - len(s2)) + tuple(s2)
    for i in range(n - 1, -1, -1):
        if p1[i] != p2[i] and p1[i] != 1 and p2[i] != 1:
            return RuntimeError(
                f"The size of tensor a ({p1[i]}) must match the size of tensor b ({p2[i]}) at "
                f"non-singleton dimension {i}"
            )
    if error is not None:
        return error
    return RuntimeError(f"shapes {list(s1)} and {list(s2)} are not broadcastable")


def _scalar_rounded(b: float, Rd):
    """The Python float ``b`` rounded to the 16-bit float ``Rd`` (as a 0-d array)."""
    token = _set_err(_IGNORE_ERR)
    try:
        return np.asarray(b, Rd)
    finally:
        _reset_err(token)


def _scalar_float32(b: float, Rd):
    """The Python float ``b`` as a float32 0-d array: the float16/bfloat16 operand widens to
    float32 with it and the result is rounded once."""
    token = _set_err(_IGNORE_ERR)
    try:
        return np.asarray(b, _F32)
    finally:
        _reset_err(token)


# float16/bfloat16 Tensor (op) Python float on PyTorch's CPU: ``add``/``sub`` round the scalar
# to the tensor's dtype first, then compute in float32 and round once; ``mul``/``div`` compute
# in float32 with the scalar as a float32 (its ``opmath``), then round once
_NARROW_SCALAR = {"add": _scalar_rounded, "sub": _scalar_rounded, "mul": _scalar_float32,
                  "div": _scalar_float32}


# PyTorch functions whose ``other`` has no Scalar overload: a Python number raises TypeError
TENSOR_OTHER_ONLY = frozenset({
    "atan2", "arctan2", "hypot", "maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or",
    "logical_xor", "logaddexp", "logaddexp2", "nextafter", "heaviside", "ldexp", "isclose", "dist"})


def check_tensor_other(name: str, other, arg: str = "other") -> None:
    """PyTorch's TypeError for a non-Tensor ``other`` of function ``name`` (in
    `TENSOR_OTHER_ONLY`; ``torch.maximum(t, 2.0)``, ``t.maximum(2.0)``)."""
    if name in TENSOR_OTHER_ONLY and not isinstance(other, Tensor):
        raise TypeError(f"{name}(): argument '{arg}' (position 2) must be Tensor, not {type(other).__name__}")


def _binary_function(binop):
    def op(input: TensorOrScalar, other: TensorOrScalar, *, out: Tensor | None = None) -> Tensor:
        check_tensor_other(binop.name, other)
        return binop(input, other, out=out)

    op.__name__ = op.__qualname__ = binop.name
    return op


BINOPS: dict = {}  # spec name -> its `_BinOp` (the Tensor methods bind their in-place twins)


def _refusal(spec):
    """None, or a check ``refuse(dtype)`` raising PyTorch's error for an operand (common)
    dtype whose kind the spec's ``torch_refuses`` names (``"hypot_cpu" not implemented for
    'Long'``, ``maximum not implemented for complex tensors.``, ...): `_refusals.refusal`."""
    return refusal(spec.torch_refuses)


def _refusing_unary(f, refuse):
    """Unary face ``f`` checking its input's dtype with ``refuse`` first."""

    @functools.wraps(f)
    def g(input, *args, **kwargs):
        b = getattr(input, "_buf", None)
        if b is not None:
            refuse(b.dtype)
        return f(input, *args, **kwargs)

    g.unrefused = f  # for a sibling op of PyTorch's that accepts those dtypes (sgn beside sign)
    return g


def refusing_faces(spec_name: str, *faces):
    """Hand-written unary ``faces`` of op spec ``spec_name`` with its ``torch_refuses`` checks."""
    spec = next(s for s in SPEC_LIST if s.name == spec_name)
    refuse = _refusal(spec)
    return tuple(f if refuse is None else _refusing_unary(f, refuse) for f in faces)


def generate_faces() -> dict:
    """The torch functions (and in-place twins) of the op specs in `fgrad.ops.specs`."""
    out = {}
    for spec in SPEC_LIST:
        if not spec.torch or spec.prim is None:
            continue
        if spec.family == "unary":
            if not spec.generates("torch"):
                continue
            if spec.torch_dtype == "nograd":
                op, op_ = _nograd_unary(spec.prim, spec.torch[0], spec.torch_out), None
            elif spec.torch_rule:  # PyTorch's formula: the op is defined by the convention
                op, op_ = _unary_by_rule(spec)
            else:
                op, op_ = _unary(spec.prim, spec.grad_fn, spec.torch[0], to_float=spec.torch_dtype == "float")
            refuse = _refusal(spec)
            if refuse is not None:
                op = _refusing_unary(op, refuse)
                op_ = op_ if op_ is None else _refusing_unary(op_, refuse)
            faces = [op] + ([op_] if op_ is not None else [])
            for n in spec.torch:
                out[n] = op
                if op_ is not None and spec.inplace and spec.generates("inplace"):
                    out[n + "_"] = op_
        elif spec.family == "binary":
            rule = getattr(_conv, spec.torch_rule) if spec.torch_rule else None
            gname = spec.grad_fn or grad_fn_name(spec.torch[0])  # comparisons, bit ops: never recorded
            binop = BINOPS[spec.name] = _BinOp(spec.prim, gname, spec.torch[0], spec.torch_dtype, rule,
                                               int_divisor=spec.torch_int_divisor, refuse=_refusal(spec))
            if not spec.generates("torch"):
                continue
            op = _binary_function(binop)
            faces = [op]
            for n in spec.torch:
                out[n] = op
        else:
            continue
        for f in faces:
            f.op_spec = spec
    return out
