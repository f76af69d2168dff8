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
from ._util import masked, promote


def _log_diff_ndtr(lo, hi):
    """``log(Phi(hi) - Phi(lo))`` for ``lo <= hi``, using the mirrored tail when ``lo > 0``."""
    upper = lo > 0
    a = fnp.where(upper, -hi, lo)
    b = fnp.where(upper, -lo, hi)
    la, lb = special.log_ndtr(a), special.log_ndtr(b)
    return lb + fnp.log(-fnp.expm1(la - lb))


def _std(x, a, b, loc, scale):
    x, a, b, loc, scale = promote(x, a, b, loc, scale)
    return (x - loc) / scale, a, b, scale


def logpdf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0,
           scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log density (``-inf`` outside ``[a, b]``).

    Example::

        >>> logpdf(0.0, -1.0, 1.0)
        Array(-0.53722339, dtype=float64)
    """
    z, a, b, scale = _std(x, a, b, loc, scale)
    val = norm.logpdf(z) - fnp.log(scale) - _log_diff_ndtr(a, b)
    return masked((z >= a) & (z <= b), val, -fnp.inf)


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
    zc = fnp.clip(z, a, b)
    val = _log_diff_ndtr(a, zc) - _log_diff_ndtr(a, b)
    return fnp.where(z <= a, -fnp.inf, fnp.where(z >= b, fnp.zeros_like(val), val))


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
    zc = fnp.clip(z, a, b)
    val = _log_diff_ndtr(zc, b) - _log_diff_ndtr(a, b)
    return fnp.where(z >= b, -fnp.inf, fnp.where(z <= a, fnp.zeros_like(val), val))


def sf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0,
       scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Survival function.

    Example::

        >>> sf(0.0, -1.0, 1.0)
        Array(0.5, dtype=float64)
    """
    return fnp.exp(logsf(x, a, b, loc, scale))


__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"]
