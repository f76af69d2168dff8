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


def _by_recurrence(xp, x, k, first, step):
    """A polynomial of degree ``k`` (>= 1; elementwise) by its three-term recurrence from
    ``P_0 = 1`` and ``P_1 = first(x)``: ``P_{j+1} = step(j, x, P_j, P_{j-1})``, in double
    precision, in PyTorch's operation order."""
    x64 = x.astype(np.float64)
    kmax = int(k.max()) if k.size else 0
    p, q = xp.ones_like(x64), first(x64)
    for j in range(1, kmax):
        p, q = q, xp.where(j < k, step(j, x64, q, p), q)
    return q


# Hermite's and Legendre's recurrences are more accurate than SciPy's ``eval_hermite`` (``He`` at
# ``sqrt(2) x``, scaled: ``H_1(1) = 2.0000000000000004``) and ``eval_legendre`` (up to ~1e-13
# relative for n <= 30 against mpmath; the recurrence ~5e-15); Laguerre's SciPy keeps (its
# recurrence is the less accurate there).
_RECURRENCES = {
    "hermite_polynomial_h": (lambda x: x + x, lambda j, x, q, p: (x + x) * q - (2.0 * j) * p),
    "legendre_polynomial_p": (lambda x: x, lambda j, x, q, p: ((2.0 * j + 1.0) * x * q - j * p) / (j + 1.0)),
}


def _at_infinity(xp, op: str, x, k, out):
    """``out`` with the polynomials' limits at ``x = ±inf`` (degree >= 1): infinite, with the
    sign of the leading term (``(-1)^n`` for Laguerre's); SciPy and PyTorch's recurrences give
    NaN from ``inf - inf``.  The constant polynomial (degree 0) is 1 everywhere, NaN included."""
    sign_x = -x if op == "laguerre_polynomial_l" else x
    odd = (k % 2) == 1
    limit = xp.where((sign_x < 0) & odd, -np.inf, np.inf)
    out = xp.where(xp.isinf(x) & (k >= 1), limit, out)
    return xp.where(k == 0, 1.0, out)


def _polynomial_values(xp, op: str, x, k):
    sc = _library_fn
    if op in _RECURRENCES:
        return _by_recurrence(xp, x, k, *_RECURRENCES[op])
    if op in ("hermite_polynomial_he", "laguerre_polynomial_l"):
        fn_name = {"hermite_polynomial_he": "eval_hermitenorm", "laguerre_polynomial_l": "eval_laguerre"}[op]
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
            out = _at_infinity(xp, op, x, k, _polynomial_values(xp, op, x, k))
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
