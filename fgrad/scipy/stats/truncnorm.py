"""The normal distribution truncated to ``[a, b]`` (standardized bounds), as
``jax.scipy.stats.truncnorm``.

The normalizer ``log(Phi(b) - Phi(a))`` is computed from `log_ndtr` on the side of the
mode farther from both tails, so it stays accurate when ``[a, b]`` lies far in a tail.

Example::

    >>> from fgrad.scipy.stats import truncnorm
    >>> truncnorm.cdf(0.0, -1.0, 1.0)
    Array(0.5, dtype=float64)
"""

from __future__ import annotations

from ...typing import Array, ArrayLike, Float

from ... import numpy as fnp
from .. import special
from . import norm
from ._util import masked, promote, safe


def _log_diff_ndtr(lo, hi):
    """``log(Phi(hi) - Phi(lo))`` for ``lo <= hi``, using the mirrored tail when ``lo > 0``."""
    upper = lo > 0
    a = fnp.where(upper, -hi, lo)
    b = fnp.where(upper, -lo, hi)
    open_end = a == -fnp.inf  # Phi(-inf) = 0 exactly: a constant, so its gradient stays 0
    la = masked(~open_end, special.log_ndtr(safe(~open_end, a, 0.0)), -fnp.inf)
    lb = special.log_ndtr(b)
    return lb + fnp.log(-fnp.expm1(la - lb))


def _std(x, a, b, loc, scale):
    x, a, b, loc, scale = promote(x, a, b, loc, scale)
    return (x - loc) / scale, a, b, scale


def _interior(z, a, b):
    """``z`` where it lies strictly inside ``(a, b)``, an interior point elsewhere, so the
    masked-out branches of the CDF stay finite and pass zero gradients (JAX's formulas give
    NaN gradients there; outside ``[a, b]`` the true derivative is 0)."""
    inner = fnp.where(fnp.isfinite(a), fnp.where(fnp.isfinite(b), 0.5 * (a + b), a + 1.0),
                      fnp.where(fnp.isfinite(b), b - 1.0, fnp.zeros_like(a)))
    return fnp.where((z > a) & (z < b), z, inner)


def _nonempty(val, ok):
    """``val`` where ``ok`` (the interval is not empty), NaN where ``a >= b``, as JAX."""
    return fnp.where(ok, val, fnp.nan)


def logpdf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0,
           scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log density (``-inf`` outside ``[a, b]``).

    Example::

        >>> logpdf(0.0, -1.0, 1.0)
        Array(-0.53722339, dtype=float64)
    """
    z, a, b, scale = _std(x, a, b, loc, scale)
    ok = ~((z < a) | (z > b)) & (a < b)
    val = norm.logpdf(z) - fnp.log(scale) - _log_diff_ndtr(safe(ok, a, -1.0), safe(ok, b, 1.0))
    return _nonempty(masked(ok | fnp.isnan(z), val, -fnp.inf), a < b)


def pdf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0,
        scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Density.

    Example::

        >>> pdf(0.0, -1.0, 1.0)
        Array(0.58436857, dtype=float64)
    """
    return fnp.exp(logpdf(x, a, b, loc, scale))


def logcdf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0,
           scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log CDF (``-inf`` below ``a``, 0 above ``b``).

    Example::

        >>> logcdf(1.0, -1.0, 1.0)
        Array(0., dtype=float64)
    """
    z, a, b, _ = _std(x, a, b, loc, scale)
    ok = a < b
    a, b = safe(ok, a, -1.0), safe(ok, b, 1.0)
    val = _log_diff_ndtr(a, _interior(z, a, b)) - _log_diff_ndtr(a, b)
    val = fnp.where(z <= a, -fnp.inf, fnp.where(z >= b, fnp.zeros_like(val), val))
    return _nonempty(masked(~fnp.isnan(z), val, 0.0), ok)  # JAX: logcdf(NaN) = 0


def cdf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0,
        scale: ArrayLike = 1) -> Float[Array, "..."]:
    """CDF.

    Example::

        >>> cdf(0.0, -1.0, 1.0)
        Array(0.5, dtype=float64)
    """
    return fnp.exp(logcdf(x, a, b, loc, scale))


def logsf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0,
          scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log survival function (0 below ``a``, ``-inf`` above ``b``).

    Example::

        >>> logsf(-1.0, -1.0, 1.0)
        Array(0., dtype=float64)
    """
    z, a, b, _ = _std(x, a, b, loc, scale)
    ok = a < b
    a, b = safe(ok, a, -1.0), safe(ok, b, 1.0)
    val = _log_diff_ndtr(_interior(z, a, b), b) - _log_diff_ndtr(a, b)
    val = fnp.where(z >= b, -fnp.inf, fnp.where(z <= a, fnp.zeros_like(val), val))
    return _nonempty(masked(~fnp.isnan(z), val, 0.0), ok)  # JAX: logsf(NaN) = 0


def sf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0,
       scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Survival function.

    Example::

        >>> sf(0.0, -1.0, 1.0)
        Array(0.5, dtype=float64)
    """
    return fnp.exp(logsf(x, a, b, loc, scale))


__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"]
