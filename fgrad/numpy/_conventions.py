"""JAX's own definitions of a few generated `fgrad.numpy` functions.

An op spec's ``numpy_rule`` names one of the wrappers here; `fgrad.numpy._elementwise`
wraps the generated face with it (``wrapper(generated, name)``).  Each is where JAX's
``jnp`` function is not the primitive's plain face: ``power`` with a static integer
exponent, ``floor_divide``'s integer division by zero, ``log2``/``log10`` from ``log``.

>>> import fgrad.numpy as fnp
>>> fnp.floor_divide.op_spec.numpy_rule
'floor_divide_as_xla'
"""

from __future__ import annotations

import math

import numpy as np

from ..core.array import ArrayImpl, get_aval
from ..core.narrow_floats import dtype_kind, is_narrow
from ..ops.elementwise import (complex_, div_p, eq, imag, integer_pow_p, log, mul, promote_args_inexact,
                               promote_args_numeric, real, select, with_weak_type)
from ..ops.lax_ops import int_division_by_zero
from ..typing import Array, ArrayLike
from ._arraylike import check_arraylike

_SEQUENCES = (list, tuple)


def power_int_exponent(generated, name: str = "power"):
    """``power`` with JAX's Python-int exponent: the base alone is promoted (a bool base is
    int32, `promote_args_numeric`) and the result has its dtype (``jnp.integer_pow``)."""

    def power(x: ArrayLike, y: ArrayLike) -> Array:
        n = _static_int(y)
        if n is not None:  # JAX: a concrete integer exponent is integer_pow[y=n]
            x, = promote_args_numeric(x)
            return integer_pow_p.bind(x, y=n)
        out = generated(x, y)
        if get_aval(out).weak_type and dtype_kind(get_aval(out).dtype) in "iu" and _strong_bool(y):
            return with_weak_type(out, False)  # JAX's integer power loop (jnp.power(2, bool_array))
        return out

    power.__doc__ = generated.__doc__ + """ A Python int exponent keeps the base's dtype (a bool
    base is int32), as JAX's ``integer_pow``.

    >>> import fgrad.numpy as fnp
    >>> fnp.power(fnp.asarray([True, False]), 2)
    Array([1, 0], dtype=int32)
    """
    return power


def weak_only_if_all_weak(generated, name: str):
    """JAX's ``hypot``/``logaddexp2``, whose last step meets a strongly typed constant: the
    result is weak only when both operands *as given* are (their inexact promotion makes a
    bool array beside a Python int weak: ``jnp.hypot(2, bool_array)`` is strong)."""

    def f(x: ArrayLike, y: ArrayLike) -> Array:
        return _strong_unless_all_weak(generated(x, y), x, y)

    f.__doc__ = generated.__doc__
    return f


def complex_weak_only_if_all_weak(generated, name: str):
    """JAX's ``logaddexp``, whose complex branch meets strongly typed constants: a complex
    result is weak only when both operands are (``jnp.logaddexp(1j, int32_array)`` is a
    strong complex; a real one follows the lattice: ``logaddexp(0.5, int32_array)`` is weak)."""

    def f(x: ArrayLike, y: ArrayLike) -> Array:
        out = generated(x, y)
        return _strong_unless_all_weak(out, x, y) if dtype_kind(get_aval(out).dtype) == "c" else out

    f.__doc__ = generated.__doc__
    return f


def _strong_unless_all_weak(out, x, y):
    if get_aval(out).weak_type and not (get_aval(x).weak_type and get_aval(y).weak_type):
        return with_weak_type(out, False)
    return out


def _strong_bool(y) -> bool:
    try:
        av = get_aval(y)
    except TypeError:
        return False
    return not av.weak_type and av.dtype.kind == "b"


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


def floor_divide_as_xla(generated, name: str = "floor_divide"):
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


def log_base_as_jax(generated, name: str):
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


