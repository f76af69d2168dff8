"""The elementwise functions of `fgrad.numpy` generated from the op specs.

Every spec in `fgrad.ops.specs` with a NumPy name and a primitive gets one wrapper per name
here (``fnp.arcsin`` binds ``asin_p``); aliases (``absolute``/``abs``) are the same function.
Unary wrappers of one-ufunc primitives have an eager fast path: outside any transform, on a
concrete array, with 64-bit types on, they call the ufunc directly (with NumPy's IEEE-value
warnings off).

>>> import fgrad.numpy as fnp
>>> fnp.arcsin(fnp.asarray(1.0)), fnp.absolute is fnp.abs
(Array(1.57079633, dtype=float64, weak_type=True), True)
"""

from __future__ import annotations

import functools
import math

import numpy as np

from ..typing import Array, ArrayLike, Shaped

from ..core.array import ArrayImpl
from ..core import x64_mode as _x64
from ..core.trace import EVAL_TRACE, state
from ..core.quiet import switch
from ..core.array import get_aval
from ..core.narrow_floats import dtype_kind, is_narrow
from ..ops.elementwise import (XLA_ZERO_SIGNS, complex_, div_p, eq, imag, integer_pow_p, jax_face_bind, log,
                               mul, promote_args_inexact, promote_args_numeric, real, select)
from ..ops.lax_ops import int_division_by_zero
from ..ops.specs import SPEC_LIST, OpSpec
from . import _promotion_checks as _promotion
from ._arraylike import check_arraylike

# the name JAX's TypeError for a list argument gives where it is not the function's first name
_JAX_ERROR_NAME = {"abs": "absolute", "divide": "true_divide", "mod": "remainder", "fmax": "greater",
                   "fmin": "less"}

new_array = object.__new__


_SEQUENCES = (list, tuple)


def _unary(spec: OpSpec, name: str):
    prim = spec.prim
    bind = jax_face_bind(prim, _promoting(spec, prim.bind))
    # float-only (numeric-only) functions cast integer (bool) inputs first: no fast path then;
    # nor for complex operands of the ops whose zero signs are XLA's (`jax_face_bind`)
    fast_kinds = {"inexact": "fc", "numeric": "iufc"}.get(spec.promote, "biufc")
    if prim.name in XLA_ZERO_SIGNS:
        fast_kinds = fast_kinds.replace("c", "")
    error_name = _JAX_ERROR_NAME.get(name, name)
    ufunc = getattr(prim, "ufunc", None)
    if ufunc is not None and getattr(prim, "may_warn", False):
        # eager fast path: no transform active and a concrete array -> call the ufunc directly,
        # with NumPy's IEEE-value warnings switched off around it (inlined: cheaper than `quiet`)
        set_state, ignore, reset_state = switch()

        def f(x: Shaped[ArrayLike, "*shape"]) -> Shaped[Array, "*shape"]:
            if type(x) is ArrayImpl and not x._weak and state.trace is EVAL_TRACE and _x64.enabled \
                    and x._buf.dtype.kind in fast_kinds:
                w = new_array(ArrayImpl)
                w._weak = False
                token = set_state(ignore)
                try:
                    w._buf = ufunc(x._buf)
                finally:
                    reset_state(token)
                return w
            if type(x) is list or type(x) is tuple:
                check_arraylike(error_name, x)
            return bind(x)
    elif ufunc is not None:
        def f(x: Shaped[ArrayLike, "*shape"]) -> Shaped[Array, "*shape"]:
            if type(x) is ArrayImpl and not x._weak and state.trace is EVAL_TRACE and _x64.enabled \
                    and x._buf.dtype.kind in fast_kinds:
                w = new_array(ArrayImpl)
                w._weak = False
                w._buf = ufunc(x._buf)
                return w
            if type(x) is list or type(x) is tuple:
                check_arraylike(error_name, x)
            return bind(x)
    else:
        def f(x: Shaped[ArrayLike, "*shape"]) -> Shaped[Array, "*shape"]:
            if type(x) is list or type(x) is tuple:
                check_arraylike(error_name, x)
            return bind(x)

    f.__doc__ = f"Elementwise ``{name}`` (NumPy semantics; differentiable where defined)."
    return f


def _promoting(spec: OpSpec, bind):
    """``bind`` with the spec's operand promotion: float-only primitives take integer and bool
    operands in JAX's inexact dtype (`fgrad.ops.elementwise.promote_args_inexact`),
    numeric-only ones bools as int32 (`~.promote_args_numeric`)."""
    promote = {"inexact": promote_args_inexact, "numeric": promote_args_numeric}.get(spec.promote)
    if promote is None:
        return bind

    def promoting_bind(*args):
        return bind(*promote(*args))

    return promoting_bind


def _binary(spec: OpSpec, name: str):
    bind = _promoting(spec, spec.prim.bind)
    error_name = _JAX_ERROR_NAME.get(name, name)

    def f(x: ArrayLike, y: ArrayLike) -> Array:
        if type(x) in _SEQUENCES or type(y) in _SEQUENCES:
            check_arraylike(error_name, x, y)
        if _promotion.checking:
            _promotion.check_binary(name, x, y)
        return bind(x, y)

    f.__doc__ = f"Elementwise ``{name}`` with broadcasting (NumPy semantics)."
    return f


def _refusing(f, refusals: tuple):
    """``f`` raising the peer's error for an operand of a refused dtype kind (an op spec's
    ``numpy_refuses``: ``jnp.sign`` of a bool, ``jnp.hypot`` of a complex number, ...)."""

    @functools.wraps(f)
    def g(*args: ArrayLike) -> Array:
        for x in args:
            kind = _PY_KINDS.get(type(x)) or getattr(getattr(x, "dtype", None), "kind", "")
            for kinds, error, message in refusals:
                if kind and kind in kinds:
                    raise error(message.format(dtype=np.result_type(x).name))
        return f(*args)

    return g


_PY_KINDS = {bool: "b", int: "i", float: "f", complex: "c"}


def _generate() -> dict:
    out = {}
    for spec in SPEC_LIST:
        if not spec.numpy or not spec.generates("numpy") or spec.family not in ("unary", "binary"):
            continue
        f = (_unary if spec.family == "unary" else _binary)(spec, spec.numpy[0])
        if spec.numpy[0] == "floor_divide":
            f = _floor_divide_as_xla(f)
        if spec.numpy[0] == "power":
            f = _power_int_exponent(f)
        if spec.numpy_refuses:
            f = _refusing(f, spec.numpy_refuses)
        if spec.numpy[0] in _LOG_BASES:
            f = _log_base_as_jax(f, spec.numpy[0])
        f.__name__ = f.__qualname__ = spec.numpy[0]
        f.__module__ = __name__
        f.op_spec = spec
        for n in spec.numpy:
            out[n] = f
    return out


def _power_int_exponent(generated):
    """``power`` with JAX's Python-int exponent: the base alone is promoted (a bool base is
    int32, `promote_args_numeric`) and the result has its dtype (``jnp.integer_pow``)."""

    def power(x: ArrayLike, y: ArrayLike) -> Array:
        n = _static_int(y)
        if n is not None:  # JAX: a concrete integer exponent is integer_pow[y=n]
            x, = promote_args_numeric(x)
            return integer_pow_p.bind(x, y=n)
        return generated(x, y)

    power.__doc__ = generated.__doc__ + """ A Python int exponent keeps the base's dtype (a bool
    base is int32), as JAX's ``integer_pow``.

    >>> import fgrad.numpy as fnp
    >>> fnp.power(fnp.asarray([True, False]), 2)
    Array([1, 0], dtype=int32)
    """
    return power


def _static_int(y):
    """``y`` as a Python int where JAX's ``jnp.power`` takes it as a static exponent (a
    Python or NumPy integer or bool, or a concrete 0-d integer array); None otherwise."""
    t = type(y)
    if t is int:
        return y
    if isinstance(y, (bool, np.integer)):
        return int(y)
    if t is ArrayImpl and y.ndim == 0 and y._buf.dtype.kind in "iub":
        return int(y._buf)
    if isinstance(y, np.ndarray) and y.ndim == 0 and y.dtype.kind in "iub":
        return int(y)
    return None


def _floor_divide_as_xla(generated):
    """``floor_divide`` with JAX's integer division by zero: JAX builds ``x // y`` from XLA's
    truncating division, whose ``x / 0`` has every bit set, so ``x // 0`` is -2 for a nonzero
    signed ``x``, -1 for 0 and the largest value for unsigned types (NumPy: 0, with a
    warning).  Floats keep IEEE ``floor(x / 0)``."""

    def floor_divide(x: ArrayLike, y: ArrayLike) -> Array:
        q = generated(x, y)
        kind = dtype_kind(get_aval(q).dtype)
        if kind == "i":
            return int_division_by_zero(q, y, select(eq(x, 0), -1, -2))
        if kind == "u":
            return int_division_by_zero(q, y, -1)
        return q

    floor_divide.__doc__ = generated.__doc__ + """ Integer ``x // 0`` is XLA's: -2 (x != 0), -1
    (x == 0), the largest value for unsigned types.

    >>> import fgrad.numpy as fnp
    >>> fnp.floor_divide(fnp.array([7, -7, 0]), fnp.array([2, 0, 0]))
    Array([ 3, -2, -1], dtype=int64)
    """
    return floor_divide


# JAX's jnp.log2 divides by log(2), a constant XLA folds and divides by as a multiplication by
# its reciprocal; its jnp.log10 multiplies by 1/log(10) rounded to the dtype
_LOG_BASES = {"log2": "log(x) / log(2)", "log10": "log(x) * 0.4342944819032518"}


def _log_base_as_jax(generated, name: str):
    """``log2``/``log10`` computed as JAX computes them, from the natural log: ``log(x) /
    log(2)`` -- which XLA evaluates as ``log(x) * (1 / log(2))`` (`div`'s ``by_reciprocal``)
    -- and ``log(x) * 0.4342944819032518``, the real and imaginary parts of a complex log
    separately (float16's log2 multiplies by the reciprocal rounded to float16, bfloat16's
    divides).
    So their last bits are JAX's: ``floor(log2(8.0))`` is 2 in 64-bit JAX, whose
    log2(8.0) is 2.9999999999999996, where NumPy's correctly rounded log2 gives 3.0.  The
    derivative is the composition's, as JAX's.  (The primitives ``log2_p``/``log10_p``, with
    NumPy's values, stay for the PyTorch face.)"""

    def scale(v):
        dt = get_aval(v).dtype  # a constant of v's dtype, not weak: the result is strong, as JAX's
        if name == "log2" and dt == np.float16:  # the reciprocal of log(2), each rounded to dt
            return mul(v, np.divide(np.ones((), dt), np.asarray(math.log(2.0), dt))[()])
        if name == "log2" and is_narrow(dt):  # bfloat16: XLA divides
            return div_p.bind(v, np.asarray(math.log(2.0), dt)[()])
        if name == "log2":
            return div_p.bind(v, np.asarray(math.log(2.0), dt)[()], by_reciprocal=True)
        return mul(v, np.asarray(0.4342944819032518, dt)[()])

    def f(x: ArrayLike) -> Array:
        if type(x) in _SEQUENCES:
            check_arraylike(name, x)
        x, = promote_args_inexact(x)
        r = log(x)
        if dtype_kind(get_aval(r).dtype) == "c":
            return complex_(scale(real(r)), scale(imag(r)))
        return scale(r)

    f.__doc__ = generated.__doc__ + f""" Computed as JAX does, from ``log`` ({_LOG_BASES[name]}),
    to JAX's last bit.

    >>> import fgrad.numpy as fnp
    >>> fnp.{name}(fnp.asarray([8.0, 1000.0])).tolist()
    {[2.9999999999999996, 9.965784284662087] if name == "log2" else [0.9030899869919435, 3.0]}
    """
    return f


_FACES = _generate()
globals().update(_FACES)
__all__ = sorted(_FACES)
