"""The Poisson distribution (``jax.scipy.stats.poisson``).

Example::

    >>> from fgrad.scipy.stats import poisson
    >>> poisson.pmf(0.0, 2.0)
    Array(0.13533528, dtype=float64, weak_type=True)
"""

from __future__ import annotations

from ...typing import Array, ArrayLike, Float

import math

from ... import numpy as fnp
from ...ops.bits import stop_gradient
from .. import special
from ._util import masked, promote, safe


def logpmf(k: ArrayLike, mu: ArrayLike, loc: ArrayLike = 0) -> Float[Array, "..."]:
    """Log probability of ``k`` (``-inf`` for ``k - loc < 0`` and for ``k`` not an integer,
    NaN included, as JAX); differentiable in ``mu``.

    Example::

        >>> logpmf(1.0, 1.0)
        Array(-1., dtype=float64, weak_type=True)
    """
    k, mu, loc = promote(k, mu, loc)
    y = k - loc
    ok = ~((y < 0) | (fnp.round(k) != k))
    ys = safe(ok, y, 0.0)
    val = special.xlogy(ys, mu) - special.gammaln(ys + 1.0) - mu
    return masked(ok, val, -fnp.inf)


def pmf(k: ArrayLike, mu: ArrayLike, loc: ArrayLike = 0) -> Float[Array, "..."]:
    """Probability of ``k``.

    Example::

        >>> pmf(1.0, 1.0)
        Array(0.36787944, dtype=float64, weak_type=True)
    """
    return fnp.exp(logpmf(k, mu, loc))


def cdf(k: ArrayLike, mu: ArrayLike, loc: ArrayLike = 0) -> Float[Array, "..."]:
    """``P(K <= k) = gammaincc(floor(k) + 1, mu)`` (0 below the support).

    Example::

        >>> cdf(0.0, 1.0)
        Array(0.36787944, dtype=float64, weak_type=True)
    """
    k, mu, loc = promote(k, mu, loc)
    y = k - loc
    ok = ~(y < 0)  # NaN stays NaN, as JAX
    ys = safe(ok, fnp.floor(y), 0.0)
    return masked(ok, special.gammaincc(ys + 1.0, mu), 0.0)


_ENTROPY_TERMS = 400  # terms summed below _ENTROPY_ASYMPTOTIC: mu +- 10 standard deviations
_ENTROPY_ASYMPTOTIC = 400.0  # from here the expansion's next term is below 1e-12


def entropy(mu: ArrayLike, loc: ArrayLike = 0) -> Float[Array, "..."]:
    """Entropy ``-sum_k p_k log p_k`` (``loc`` does not change it; 0 at ``mu = 0``, NaN for
    ``mu < 0``); differentiable in ``mu``.

    Below ``mu = 400`` the sum over the 400 terms around the mean; above, the expansion
    ``log(2 pi e mu) / 2 - 1/(12 mu) - 1/(24 mu^2) - 19/(360 mu^3)``.

    Example::

        >>> entropy(3.0)
        Array(1.9314702, dtype=float64)
    """
    mu, loc = promote(mu, loc)
    mu = mu + fnp.zeros_like(loc)
    small = mu < _ENTROPY_ASYMPTOTIC
    ms = safe(small & (mu > 0), mu, 1.0)[..., None]
    start = stop_gradient(fnp.maximum(fnp.floor(ms) - _ENTROPY_TERMS // 2, 0.0))
    k = start + fnp.arange(_ENTROPY_TERMS, dtype=mu.dtype)
    log_p = special.xlogy(k, ms) - ms - special.gammaln(k + 1.0)
    summed = -fnp.sum(fnp.exp(log_p) * log_p, axis=-1)
    ml = safe(~small, mu, _ENTROPY_ASYMPTOTIC)
    inv = 1.0 / ml
    corrections = inv * (1.0 / 12 + inv * (1.0 / 24 + inv * 19.0 / 360))
    expansion = 0.5 * fnp.log(2.0 * math.pi * math.e * ml) - corrections
    out = fnp.where(small, summed, expansion)
    return fnp.where(mu == 0, fnp.zeros_like(mu), fnp.where(mu < 0, fnp.nan, out))


__all__ = ["logpmf", "pmf", "cdf", "entropy"]
