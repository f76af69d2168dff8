"""The input dtypes each elementwise ``lax`` function accepts, as JAX's ``lax`` checks them
(``standard_unop``/``standard_naryop``: ``lax.exp`` takes floats and complex numbers, no
integers; ``lax.add`` takes numbers but no bools; ``lax.lt`` no complex numbers;
``lax.real`` only complex numbers; ``lax.complex``/``lax.conj`` no 16-bit floats; the shifts
only integers).  The ``fgrad.numpy`` functions promote their inputs first and never reach
these checks; ``fgrad.lax`` raises JAX's TypeError instead of computing in some other type
(a shift of floats, the real part of a real number, ...).

The table was read off JAX 0.10.2 (every function on every dtype) and is checked against
it by ``tests/test_jax_suite_grids.py``.

Example::

    >>> import fgrad.numpy as fnp
    >>> check_lax_dtypes("exp", fnp.ones(2, fnp.int32))
    Traceback (most recent call last):
    ...
    TypeError: lax.exp does not accept dtype int32. Accepted dtypes are subtypes of floating, complexfloating.
"""

from __future__ import annotations

import functools
from typing import Any, Callable

import numpy as np

from ..core.array import get_aval
from ..core.narrow_floats import dtype_kind
from ..core.x64_mode import canonical_dtype

__all__ = ["LAX_ACCEPTS", "check_lax_dtypes", "with_lax_dtype_check"]

# kinds: "b" bool, "i" signed, "u" unsigned, "f" floats (bfloat16 included), "c" complex;
# "F" only float32/float64 (JAX's complex element types)
_FC = ("exp", "exp2", "log", "log1p", "expm1", "tanh", "logistic", "sin", "cos", "tan", "asin", "acos",
       "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "sqrt", "rsqrt", "reciprocal", "pow", "atan2")
_F = ("cbrt", "is_finite", "floor", "ceil", "round", "lgamma", "digamma", "erf", "erfc", "erf_inv",
      "bessel_i0e", "bessel_i1e", "nextafter", "igamma", "igammac")
LAX_ACCEPTS: dict[str, str] = {
    **{n: "fc" for n in _FC}, **{n: "f" for n in _F},
    "real": "c", "imag": "c", "conj": "Fc", "complex": "F", "abs": "ifc", "sign": "iufc",
    **{n: "iufc" for n in ("square", "integer_pow", "add", "sub", "mul", "div")},
    "rem": "iuf", **{n: "biuf" for n in ("lt", "le", "gt", "ge")},
    **{n: "iu" for n in ("shift_left", "shift_right_arithmetic", "shift_right_logical")},
}
# where a later operand accepts more than the first: pow's exponent may be an integer
_LATER_ACCEPTS: dict[str, str] = {"pow": "iufc"}
_KIND_NAMES = {"b": "bool", "i": "signedinteger", "u": "unsignedinteger", "f": "floating",
               "c": "complexfloating", "F": "floating point (float32, float64)"}
_WIDE = (np.dtype(np.float32), np.dtype(np.float64))
_PYTHON_SCALAR_DTYPES = {bool: np.dtype(bool), int: np.dtype(np.int64), float: np.dtype(np.float64),
                         complex: np.dtype(np.complex128)}


def _accepted(kinds: str, dt: np.dtype) -> bool:
    k = dtype_kind(dt)
    return k in kinds or ("F" in kinds and dt in _WIDE)


def check_lax_dtypes(name: str, *args: Any) -> None:
    """Raise JAX's TypeError when an argument of ``lax.<name>`` has a dtype JAX's
    ``lax.<name>`` does not accept. A Python scalar counts as its default dtype, as in JAX:
    ``lax.erf(3)`` is refused (int64), ``lax.erf(3.0)`` is not."""
    kinds = LAX_ACCEPTS.get(name)
    if kinds is None:
        return
    for i, a in enumerate(args):
        kinds = LAX_ACCEPTS[name] if i == 0 else _LATER_ACCEPTS.get(name, LAX_ACCEPTS[name])
        if type(a) in _PYTHON_SCALAR_DTYPES:
            dt = canonical_dtype(_PYTHON_SCALAR_DTYPES[type(a)])
        else:
            try:
                dt = np.dtype(a.dtype) if isinstance(a, (np.ndarray, np.generic)) else get_aval(a).dtype
            except TypeError:
                continue  # not an array: the function reports it
        if not _accepted(kinds, dt):
            accepted = ", ".join(_KIND_NAMES[k] for k in kinds)
            raise TypeError(f"lax.{name} does not accept dtype {dt.name}. Accepted dtypes are subtypes "
                            f"of {accepted}.")


def with_lax_dtype_check(name: str, f: Callable) -> Callable:
    """``f`` (the function ``lax.<name>``) checking its array arguments' dtypes first; the
    first argument only for ``integer_pow`` and ``round`` (their second is an exponent or a
    rounding method)."""
    if name not in LAX_ACCEPTS:
        return f
    checked = 1 if name in ("integer_pow", "round") else None  # (an exponent, a rounding method)

    @functools.wraps(f)
    def g(*args, **kwargs):
        check_lax_dtypes(name, *args[:checked])
        return f(*args, **kwargs)

    return g
