"""Bessel functions of the second kind, modified Bessel functions, Airy's ``Ai`` and the
classical orthogonal polynomials, as elementwise primitives with no derivative (PyTorch
defines none for ``torch.special``'s versions; `fgrad.torch.special` builds on these).

Values come from ``scipy.special`` (``cupyx.scipy.special`` on the GPU; where cupy lacks a
function, SciPy computes it on the host: `fgrad.ops.special_integrals._library_fn`).  The
polynomials take their degree ``n`` as an array of the same floating dtype, truncated to an
integer as PyTorch does; a negative degree gives 0 (PyTorch's convention).  The Chebyshev
polynomials of the third and fourth kinds, which SciPy lacks, come from the second kind's:
``V_n = U_n - U_{n-1}``, ``W_n = U_n + U_{n-1}``; the shifted ones evaluate at ``2x - 1``.

Example::

    >>> import numpy as np
    >>> float(chebyshev_polynomial(np.float64(0.5), np.float64(2.0), kind="t"))
    -0.5
"""

from __future__ import annotations

import numpy as np

from ..core.rules import defjvp
from .special_functions import _as_float, _common, _prim
from .special_integrals import _library_fn

__all__ = ["BESSEL_FUNCTIONS", "POLYNOMIALS", "airy_ai", "bessel", "chebyshev_polynomial", "polynomial"]


def _no_derivative(p, op: str, arity: int):
    """``p`` with a JVP rule per operand that says it has none."""

    def rule(t, *primals, **params):
        raise NotImplementedError(f"{op}: the derivative is not implemented (as in PyTorch's "
                                  "torch.special); hold its arguments constant")

    defjvp(p, *([rule] * arity))
    return p


# name -> scipy.special function of one argument
BESSEL_FUNCTIONS = {
    "bessel_y0": "y0", "bessel_y1": "y1",
    "modified_bessel_k0": "k0", "modified_bessel_k1": "k1",
    "scaled_modified_bessel_k0": "k0e", "scaled_modified_bessel_k1": "k1e",
}


def _bessel_impl(op: str, fn_name: str):
    def impl(xp, x):
        x = _as_float(xp, x, op)
        with np.errstate(all="ignore"):
            out = _library_fn(xp, fn_name, op)(x)
        return out.astype(x.dtype, copy=False)

    return impl


def _airy_ai_impl(xp, x):
    x = _as_float(xp, x, "airy_ai")
    with np.errstate(all="ignore"):
        out = _library_fn(xp, "airy", "airy_ai")(x)[0]
    return out.astype(x.dtype, copy=False)


def _degree(xp, n):
    """PyTorch's integer degree: ``n`` truncated toward zero (NaN and infinities give -1,
    so a result of 0)."""
    finite = xp.isfinite(n)
    return xp.where(finite, xp.trunc(xp.where(finite, n, -1.0)), -1.0).astype(np.int64)


def _polynomial_values(xp, op: str, x, k):
    sc = _library_fn
    if op in ("hermite_polynomial_h", "hermite_polynomial_he", "laguerre_polynomial_l",
              "legendre_polynomial_p"):
        fn_name = {"hermite_polynomial_h": "eval_hermite", "hermite_polynomial_he": "eval_hermitenorm",
                   "laguerre_polynomial_l": "eval_laguerre", "legendre_polynomial_p": "eval_legendre"}[op]
        return sc(xp, fn_name, op)(xp.maximum(k, 0), x)
    if op.startswith("shifted_"):
        x = 2.0 * x - 1.0
    kind = op[-1]
    if kind == "t":
        return sc(xp, "eval_chebyt", op)(xp.maximum(k, 0), x)
    u = sc(xp, "eval_chebyu", op)
    un = u(xp.maximum(k, 0), x)
    prev = xp.where(k >= 1, u(xp.maximum(k - 1, 0), x), 0.0)
    return un + prev if kind == "w" else (un if kind == "u" else un - prev)


def _polynomial_impl(op: str):
    def impl(xp, x, n):
        x, n, dt = _common(xp, x, n, name=op)
        k = _degree(xp, n)
        with np.errstate(all="ignore"):
            out = _polynomial_values(xp, op, x, k)
        out = xp.where(k < 0, 0.0, out)
        return out.astype(dt, copy=False)

    return impl


POLYNOMIALS = tuple(
    [f"chebyshev_polynomial_{k}" for k in "tuvw"] + [f"shifted_chebyshev_polynomial_{k}" for k in "tuvw"]
    + ["hermite_polynomial_h", "hermite_polynomial_he", "laguerre_polynomial_l", "legendre_polynomial_p"])

_PRIMS = {op: _no_derivative(_prim(op, _bessel_impl(op, fn)), op, 1) for op, fn in BESSEL_FUNCTIONS.items()}
_PRIMS["airy_ai"] = _no_derivative(_prim("airy_ai", _airy_ai_impl), "airy_ai", 1)
_PRIMS.update({op: _no_derivative(_prim(op, _polynomial_impl(op)), op, 2) for op in POLYNOMIALS})


def bessel(name: str, x):
    """The Bessel-family function ``name`` (a key of `BESSEL_FUNCTIONS`) of ``x``.

    Example::

        >>> import numpy as np
        >>> round(float(bessel("scaled_modified_bessel_k0", np.float64(1.0))), 6)
        1.144463
    """
    return _PRIMS[name].bind(x)


def airy_ai(x):
    """Airy's function ``Ai(x)``.

    Example::

        >>> import numpy as np
        >>> round(float(airy_ai(np.float64(0.0))), 6)
        0.355028
    """
    return _PRIMS["airy_ai"].bind(x)


def polynomial(name: str, x, n):
    """The orthogonal polynomial ``name`` (one of `POLYNOMIALS`) of degree ``n`` at ``x``.

    Example::

        >>> import numpy as np
        >>> round(float(polynomial("hermite_polynomial_h", np.float64(1.0), np.float64(2.0))), 12)
        2.0
    """
    return _PRIMS[name].bind(x, n)


def chebyshev_polynomial(x, n, kind: str = "t"):
    """The Chebyshev polynomial of the first (``"t"``), second, third or fourth kind.

    Example::

        >>> import numpy as np
        >>> float(chebyshev_polynomial(np.float64(0.5), np.float64(3.0), kind="u"))
        -1.0
    """
    return polynomial(f"chebyshev_polynomial_{kind}", x, n)
