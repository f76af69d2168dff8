"""NumPy's legacy polynomial functions over coefficient arrays (highest power first):
`polyval`, `polyadd`, `polysub`, `polymul`, `polydiv`, `polyder`, `polyint`, `polyfit`,
`poly`, `roots`, `vander`.

Differentiable in the coefficients and the points (`polyval` by Horner's rule, `polyfit` via
a least-squares solve, `roots` via the companion matrix's eigenvalues).
As in JAX, `roots` and `poly` of a matrix return complex arrays, and `polymul`/`polydiv`
keep leading zeros unless ``trim_leading_zeros=True`` (which needs concrete values).

>>> import fgrad.numpy as fnp
>>> fnp.polyval(fnp.asarray([1.0, -3.0, 2.0]), 3.0)
Array(2., dtype=float64)
"""

from __future__ import annotations

from ..typing import Array, ArrayLike

import numpy as np

from ..core.array import get_aval
from ..core.inexact import to_complex_dtype, to_inexact_dtype
import fgrad.numpy._building_blocks as fnp
from ._dtypes import result_type
from ._indexing import _concrete

__all__ = [
    "polyval",
    "polyadd",
    "polysub",
    "polymul",
    "polydiv",
    "polyder",
    "polyint",
    "polyfit",
    "poly",
    "roots",
    "vander",
]


# JAX's error type for a 0-d coefficient array (its code indexes ``shape[0]`` or takes ``len``)
_SCALAR_ERRORS: dict[str, type[Exception]] = {
    "polyval": IndexError, "polyadd": IndexError, "polysub": IndexError,
    "polymul": TypeError, "polydiv": TypeError, "polyder": TypeError, "polyint": TypeError,
}


def _coefficients(a, name: str, what: str = "coefficients"):
    """``a`` as an array of polynomial coefficients (leading axis), refusing a scalar with
    JAX's error type (`_SCALAR_ERRORS`): NumPy reads a scalar as a constant polynomial, JAX does
    not."""
    a = fnp.asarray(a)
    if get_aval(a).ndim == 0:
        raise _SCALAR_ERRORS[name](
            f"fgrad.numpy.{name}: {what} must have at least one dimension (the coefficients), got a "
            f"scalar of dtype {get_aval(a).dtype}; pass a 1-D array ({name}(fnp.atleast_1d(c), ...))"
        )
    return a


# JAX's error type for coefficients of more than one dimension (its arithmetic fails there:
# polyint's concatenate is a TypeError, polydiv's broadcast a ValueError)
_ND_ERRORS = {"polyint": TypeError, "polydiv": ValueError}


def _coeffs(p, name: str, what: str = "coefficients"):
    p = _coefficients(p, name, what)
    if get_aval(p).ndim != 1:
        raise _ND_ERRORS.get(name, ValueError)(
            f"fgrad.numpy.{name}: expected 1-D {what}, got shape {get_aval(p).shape}")
    return p


def _trim_leading(p, name: str):
    vals = _concrete(p, name, "Pass trim_leading_zeros=False to keep the shape static.")
    nz = np.flatnonzero(vals)
    return p[int(nz[0]) :] if nz.size else p[-1:]


def polyval(p: ArrayLike, x: ArrayLike, *, unroll: int = 16) -> Array:
    """``numpy.polyval``: ``p[0] * x**(n-1) + ... + p[n-1]`` by Horner's rule.
    Differentiable in ``p`` and ``x``.  As in NumPy and JAX, ``p`` may have more dimensions:
    its leading axis holds the coefficients, the rest broadcast against ``x``.  (``unroll``
    is JAX's scan hint; the loop here is unrolled.)

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.polyval(fnp.asarray([3.0, 0.0, 1.0]), fnp.asarray([1.0, 2.0]))
        Array([ 4., 13.], dtype=float64)
    """
    p = _coefficients(p, "polyval", "p")
    x = fnp.asarray(x)
    dt = result_type(p, x)
    y = fnp.zeros_like(x, dtype=dt)  # broadcast against p's trailing axes by the first step
    for i in range(get_aval(p).shape[0]):
        y = fnp.add(fnp.multiply(y, x), p[i])
    return y


def _pad_front(a, n: int):
    k = get_aval(a).shape[0]
    pad = fnp.zeros((n - k,) + get_aval(a).shape[1:], get_aval(a).dtype)
    return a if k >= n else fnp.concatenate([pad, a])


def polyadd(a1: ArrayLike, a2: ArrayLike) -> Array:
    """``numpy.polyadd``: the sum of two polynomials (the shorter padded with leading zeros).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.polyadd(fnp.asarray([1.0, 2.0]), fnp.asarray([1.0, 0.0, 0.0]))
        Array([1., 1., 2.], dtype=float64)
    """
    a1, a2 = _coefficients(a1, "polyadd", "a1"), _coefficients(a2, "polyadd", "a2")
    return _add_aligned(a1, a2, "polyadd")


def polysub(a1: ArrayLike, a2: ArrayLike) -> Array:
    """``numpy.polysub``: the difference of two polynomials.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.polysub(fnp.asarray([2.0, 10.0, -2.0]), fnp.asarray([3.0, 10.0, -4.0]))
        Array([-1.,  0.,  2.], dtype=float64)
    """
    a1, a2 = _coefficients(a1, "polysub", "a1"), _coefficients(a2, "polysub", "a2")
    return _add_aligned(a1, fnp.negative(a2), "polysub")


def _add_aligned(a1, a2, name: str):
    """JAX's ``longer.at[-len(shorter):].add(shorter)``: coefficients aligned at the end of
    the leading axis, the shorter broadcast against the longer's trailing axes (2-D inputs
    are stacks of polynomials: ``polyadd([[2, 3, 1]], [[5, 7, 3], [8, 2, 6]])``)."""
    long, short = (a1, a2) if get_aval(a2).shape[0] <= get_aval(a1).shape[0] else (a2, a1)
    shape, short_shape = get_aval(long).shape, get_aval(short).shape
    target = (short_shape[0],) + shape[1:]
    if len(short_shape) > len(target):
        raise ValueError(f"fgrad.numpy.{name}: cannot broadcast to shape with fewer dimensions: the "
                         f"coefficients of shape {short_shape} into {target}")
    return fnp.add(long, _pad_front(fnp.broadcast_to(short, target), shape[0]))


def polymul(a1: ArrayLike, a2: ArrayLike, *, trim_leading_zeros: bool = False) -> Array:
    """``numpy.polymul``: the product of two polynomials (a full convolution).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.polymul(fnp.asarray([1.0, 2.0]), fnp.asarray([1.0, -1.0]))
        Array([ 1.,  1., -2.], dtype=float64)
    """
    a1, a2 = _coefficients(a1, "polymul", "a1"), _coefficients(a2, "polymul", "a2")
    if trim_leading_zeros:
        a1, a2 = _trim_leading(a1, "polymul"), _trim_leading(a2, "polymul")
    if get_aval(a1).shape[0] == 0 or get_aval(a2).shape[0] == 0:
        return fnp.zeros(0, np.result_type(get_aval(a1).dtype, get_aval(a2).dtype))
    return fnp.convolve(a1, a2)


def polydiv(u: ArrayLike, v: ArrayLike, *, trim_leading_zeros: bool = False) -> tuple[Array, Array]:
    """``numpy.polydiv``: quotient and remainder of ``u / v``.  The remainder keeps ``u``'s
    length (leading zeros; JAX) unless ``trim_leading_zeros`` strips them (NumPy).

    Example::

        >>> import fgrad.numpy as fnp
        >>> q, r = fnp.polydiv(fnp.asarray([3.0, 5.0, 2.0]), fnp.asarray([2.0, 1.0]))
        >>> q
        Array([1.5 , 1.75], dtype=float64)
    """
    u, v = _coefficients(u, "polydiv", "u"), _coeffs(v, "polydiv", "v")
    if get_aval(u).ndim > 1 and get_aval(u).shape[0] >= get_aval(v).shape[0]:
        u = _coeffs(u, "polydiv", "u")  # JAX: a division step is a ValueError (none: u is the remainder)
    dt = to_inexact_dtype(np.result_type(get_aval(u).dtype, get_aval(v).dtype))  # JAX: int32 -> float32
    u, v = fnp.astype(u, dt), fnp.astype(v, dt)
    if trim_leading_zeros:
        v = _trim_leading(v, "polydiv")
    m, n = get_aval(u).shape[0] - 1, get_aval(v).shape[0] - 1
    scale = fnp.divide(1.0, v[0])
    q_parts = []
    r = u
    for k in range(0, m - n + 1):
        d = fnp.multiply(scale, r[k])
        q_parts.append(d)
        upd = fnp.concatenate([fnp.zeros(k, dt), fnp.multiply(d, v), fnp.zeros(m - n - k, dt)])
        r = fnp.subtract(r, upd)
    q = fnp.stack(q_parts) if q_parts else fnp.zeros(1, dt)
    if trim_leading_zeros:
        vals = _concrete(r, "polydiv", "")
        keep = 0
        while keep < vals.shape[0] - 1 and np.allclose(vals[keep], 0, rtol=1e-14):
            keep += 1
        r = r[keep:]
    return q, r


def polyder(p: ArrayLike, m: int = 1) -> Array:
    """``numpy.polyder``: the ``m``-th derivative's coefficients.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.polyder(fnp.asarray([1.0, 1.0, 1.0, 1.0]))
        Array([3., 2., 1.], dtype=float64)
    """
    m = int(m)
    if m < 0:
        raise ValueError("fgrad.numpy.polyder: order of derivative must be positive (see polyint)")
    p = _coefficients(p, "polyder")
    p = fnp.astype(p, to_inexact_dtype(get_aval(p).dtype))  # JAX: integer coefficients -> float
    if get_aval(p).ndim > 1:  # JAX's formula, broadcast as it is (a ValueError where it cannot)
        n = get_aval(p).shape[0]
        if m == 0:
            return p
        factors = (np.arange(m, n)[None] - np.arange(m)[:, None]).prod(0)[::-1]
        return fnp.multiply(p[:n - m], fnp.asarray(factors, get_aval(p).dtype))
    for _ in range(m):
        n = get_aval(p).shape[0] - 1
        if n <= 0:
            return fnp.zeros(0, get_aval(p).dtype)
        p = fnp.multiply(
            p[:-1], fnp.arange(n, 0, -1, dtype=get_aval(p).dtype)
        )
    return p


def polyint(p: ArrayLike, m: int = 1, k: ArrayLike | None = None) -> Array:
    """``numpy.polyint``: the ``m``-th antiderivative's coefficients, with integration
    constants ``k`` (a scalar for every step, or ``m`` values; default 0).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.polyint(fnp.asarray([3.0, 2.0, 1.0]), k=5.0)
        Array([1., 1., 1., 5.], dtype=float64)
    """
    m = int(m)
    if m < 0:
        raise ValueError("fgrad.numpy.polyint: order of integral must be positive (see polyder)")
    p = _coeffs(p, "polyint")
    dt = to_inexact_dtype(get_aval(p).dtype)  # JAX: float32 stays float32, int32 -> float32
    p = fnp.astype(p, dt)
    if k is None:
        k = fnp.zeros(m, dt)
    k = fnp.atleast_1d(fnp.asarray(k))
    if get_aval(k).shape[0] == 1 and m > 1:
        k = fnp.broadcast_to(k, (m,))
    if get_aval(k).ndim != 1 or get_aval(k).shape[0] < m:
        raise ValueError("fgrad.numpy.polyint: k must be a scalar or a rank-1 array of length 1 or >m.")
    for i in range(m):
        n = get_aval(p).shape[0]
        p = fnp.concatenate(
            [fnp.divide(p, fnp.arange(n, 0, -1, dtype=dt)), fnp.reshape(fnp.astype(k[i], dt), (1,))]
        )
    return p


def vander(x: ArrayLike, N: int | None = None, increasing: bool = False) -> Array:
    """``numpy.vander``: the Vandermonde matrix ``x[:, None] ** powers`` (decreasing powers
    unless ``increasing``), built by cumulative products as NumPy does (differentiable at 0).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.vander(fnp.asarray([1, 2, 3]), 3)
        Array([[1, 1, 1],
               [4, 2, 1],
               [9, 3, 1]], dtype=int64)
    """
    x = fnp.asarray(x)
    if get_aval(x).ndim != 1:
        raise ValueError(
            f"fgrad.numpy.vander: x must be a one-dimensional array or sequence, got shape "
            f"{get_aval(x).shape}"
        )
    n = get_aval(x).shape[0] if N is None else int(N)
    if n < 0:
        raise ValueError("fgrad.numpy.vander: N must be nonnegative")
    rows = get_aval(x).shape[0]
    if n == 0:
        return fnp.zeros((rows, 0), get_aval(x).dtype)
    cols = fnp.concatenate(
        [fnp.ones((rows, 1), get_aval(x).dtype), fnp.broadcast_to(x[:, None], (rows, n - 1))], axis=1
    )
    v = fnp.cumprod(cols, axis=1)
    return v if increasing else v[:, ::-1]


def polyfit(x: ArrayLike, y: ArrayLike, deg: int, rcond: ArrayLike | None = None, full: bool = False,
            w: ArrayLike | None = None, cov=False) -> Array | tuple[Array, ...]:
    """``numpy.polyfit``: least-squares polynomial coefficients of degree ``deg`` (columns
    of a 2-D ``y`` fitted separately), optionally weighted by ``w``; ``full`` also returns
    ``(residuals, rank, singular_values, rcond)``, ``cov`` the coefficients' covariance
    (``"unscaled"`` without the residual factor).  Differentiable in ``x``, ``y`` and ``w``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.polyfit(fnp.asarray([0.0, 1.0, 2.0]), fnp.asarray([1.0, 3.0, 5.0]), 1)
        Array([2., 1.], dtype=float64)
    """
    if not isinstance(deg, (int, float, np.integer, np.floating)):  # JAX: deg is static (hashable)
        raise ValueError(f"fgrad.numpy.polyfit: deg must be a Python or NumPy number (a static argument, "
                         f"as in JAX), got {type(deg).__name__}; pass int(deg)")
    deg = int(deg)
    order = deg + 1
    x, y = fnp.asarray(x), fnp.asarray(y)
    if deg < 0:
        raise ValueError("fgrad.numpy.polyfit: expected deg >= 0")
    if get_aval(x).ndim != 1:
        raise TypeError("fgrad.numpy.polyfit: expected 1D vector for x")
    if get_aval(x).size == 0:
        raise TypeError("fgrad.numpy.polyfit: expected non-empty vector for x")
    if get_aval(y).ndim not in (1, 2):
        raise TypeError("fgrad.numpy.polyfit: expected 1D or 2D array for y")
    if get_aval(x).shape[0] != get_aval(y).shape[0]:
        raise TypeError("fgrad.numpy.polyfit: expected x and y to have same length")
    dt = to_inexact_dtype(np.result_type(get_aval(x).dtype, get_aval(y).dtype))  # JAX: float32 stays
    x, y = fnp.astype(x, dt), fnp.astype(y, dt)
    n = get_aval(x).shape[0]
    if rcond is None:
        rcond = n * float(np.finfo(dt).eps)
    lhs = vander(x, order)
    rhs = y
    if w is not None:
        w = fnp.astype(fnp.asarray(w), dt)
        if get_aval(w).ndim != 1:
            raise TypeError("fgrad.numpy.polyfit: expected a 1-d array for weights")
        if get_aval(w).shape[0] != n:
            raise TypeError("fgrad.numpy.polyfit: expected w and y to have the same length")
        lhs = fnp.multiply(lhs, w[:, None])
        rhs = fnp.multiply(rhs, w) if get_aval(rhs).ndim == 1 else fnp.multiply(rhs, w[:, None])
    scale = fnp.sqrt(fnp.sum(fnp.multiply(lhs, lhs), axis=0))
    lhs = fnp.divide(lhs, scale)
    c, resids, rank, s = fnp.linalg.lstsq(lhs, rhs, rcond)
    c = fnp.transpose(fnp.divide(fnp.transpose(c), scale))
    if full:
        return c, resids, rank, s, fnp.asarray(np.float64(rcond))  # an Array, as JAX's
    if cov:
        vbase = fnp.divide(fnp.linalg.inv(fnp.matmul(fnp.transpose(lhs), lhs)), fnp.outer(scale, scale))
        if cov == "unscaled":
            fac = 1.0
        else:
            if n <= order:
                raise ValueError(
                    "fgrad.numpy.polyfit: the number of data points must exceed order to scale "
                    "the covariance matrix"
                )
            fac = fnp.divide(resids, n - order)
        if get_aval(y).ndim == 1:
            return c, fnp.multiply(vbase, fac)
        return c, fnp.multiply(vbase[:, :, None], fac)
    return c


def poly(seq_of_zeros: ArrayLike) -> Array:
    """``numpy.poly``: the monic polynomial with the given roots (or, for a square matrix, its
    characteristic polynomial; complex, as in JAX).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.poly(fnp.asarray([1.0, 2.0]))
        Array([ 1., -3.,  2.], dtype=float64)
    """
    z = fnp.asarray(seq_of_zeros)
    shape = get_aval(z).shape
    if len(shape) == 2 and shape[0] == shape[1] and shape[0] != 0:
        z = fnp.linalg.eigvals(z)
    elif len(shape) == 1:
        pass
    elif len(shape) == 0:
        z = fnp.reshape(z, (1,))
    else:
        raise ValueError("fgrad.numpy.poly: input must be 1d or non-empty square 2d array.")
    dt = to_inexact_dtype(get_aval(z).dtype)
    a = fnp.ones(1, dt)
    for k in range(get_aval(z).shape[0]):
        a = fnp.convolve(a, fnp.stack([fnp.ones((), dt), fnp.negative(fnp.astype(z[k], dt))]), mode="full")
    return a


def roots(p: ArrayLike, *, strip_zeros: bool = True) -> Array:
    """``numpy.roots``: the roots of the polynomial, the eigenvalues of its companion matrix
    (complex, as in JAX).  ``strip_zeros`` drops leading zeros (needs concrete
    coefficients); trailing zeros give roots at 0.  With ``strip_zeros=False`` leading zeros
    give NaN roots (JAX).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.sort_complex(fnp.roots(fnp.asarray([1.0, -3.0, 2.0])))
        Array([1.+0.j, 2.+0.j], dtype=complex128)
    """
    p = fnp.atleast_1d(fnp.asarray(p))
    if get_aval(p).ndim != 1:
        raise ValueError("fgrad.numpy.roots: input must be a rank-1 array.")
    dt = to_inexact_dtype(get_aval(p).dtype)
    cdt = to_complex_dtype(dt)
    if not strip_zeros:
        return _roots_with_zeros(fnp.astype(p, dt), cdt)
    trailing = 0
    if strip_zeros:
        vals = _concrete(p, "roots", "Pass strip_zeros=False to keep the shape static.")
        nz = np.flatnonzero(vals)
        if nz.size == 0:
            return fnp.zeros(0, cdt)
        trailing = vals.shape[0] - int(nz[-1]) - 1
        p = p[int(nz[0]) : int(nz[-1]) + 1]
    r = _companion_roots(fnp.astype(p, dt), cdt)
    if trailing:
        r = fnp.concatenate([r, fnp.zeros(trailing, cdt)])
    return r


def _companion_roots(p: Array, cdt) -> Array:
    """The eigenvalues of the companion matrix of the coefficients ``p`` (``p[0]`` nonzero)."""
    n = get_aval(p).shape[0]
    if n < 2:
        return fnp.zeros(0, cdt)
    first_row = fnp.negative(fnp.divide(p[1:], p[0]))[None, :]
    below = fnp.eye(n - 2, n - 1, dtype=get_aval(p).dtype)
    return fnp.astype(fnp.linalg.eigvals(fnp.concatenate([first_row, below], axis=0)), cdt)


def _roots_with_zeros(p: Array, cdt) -> Array:
    """`roots` with ``strip_zeros=False`` (traceable), as JAX computes it: the ``k`` leading
    zeros are rolled to the end (``k`` roots at 0 instead of infinite ones), the roots at 0
    sorted last, and the last ``k`` roots set to NaN -- the other roots stay."""
    n = get_aval(p).shape[0]
    if n < 2:
        return fnp.zeros(0, cdt)
    is_zero = fnp.equal(p, 0)
    leading = fnp.where(fnp.all(is_zero), n, fnp.argmin(is_zero))
    p = fnp.where(leading == n, fnp.ones((), get_aval(p).dtype), p)  # (no LAPACK on all zeros)
    r = _companion_roots(fnp.roll(p, fnp.negative(leading)), cdt)
    r = fnp.take(r, fnp.argsort(fnp.equal(r, 0), stable=True))  # zero roots last, else in order
    return fnp.where(fnp.arange(n - 1) < n - 1 - leading, r, fnp.asarray(complex(np.nan, np.nan), cdt))
