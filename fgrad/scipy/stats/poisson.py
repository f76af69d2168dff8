"""The Poisson distribution (``jax.scipy.stats.poisson``).

Example::

    >>> from fgrad.scipy.stats import poisson
    >>> poisson.pmf(0.0, 2.0)
    Array(0.13533528, dtype=float64)
"""

from __future__ import annotations

from ... import numpy as fnp
from .. import special
from ._util import masked, promote, safe


def logpmf(k, mu, loc=0):
    """Log probability of ``k`` (``-inf`` for negative or non-integer ``k``); differentiable
    in ``mu``.

    Example::

        >>> logpmf(1.0, 1.0)
        Array(-1., dtype=float64)
    """
    k, mu, loc = promote(k, mu, loc)
    y = k - loc
    ok = (y >= 0) & (y == fnp.round(y))
    ys = safe(ok, y, 0.0)
    val = special.xlogy(ys, mu) - special.gammaln(ys + 1.0) - mu
    return masked(ok, val, -fnp.inf)


def pmf(k, mu, loc=0):
    """Probability of ``k``.

    Example::

        >>> pmf(1.0, 1.0)
        Array(0.36787944, dtype=float64)
    """
    return fnp.exp(logpmf(k, mu, loc))


def cdf(k, mu, loc=0):
    """``P(K <= k) = gammaincc(floor(k) + 1, mu)`` (0 below the support).

    Example::

        >>> cdf(0.0, 1.0)
        Array(0.36787944, dtype=float64)
    """
    k, mu, loc = promote(k, mu, loc)
    y = k - loc
    ok = y >= 0
    ys = safe(ok, fnp.floor(y), 0.0)
    return masked(ok, special.gammaincc(ys + 1.0, mu), 0.0)


__all__ = ["logpmf", "pmf", "cdf"]
