"""The Bernoulli distribution (``jax.scipy.stats.bernoulli``).

Example::

    >>> from fgrad.scipy.stats import bernoulli
    >>> bernoulli.pmf(1.0, 0.3)
    Array(0.3, dtype=float64, weak_type=True)
"""

from __future__ import annotations

from ...typing import Array, ArrayLike, Float

from ... import numpy as fnp
from .. import special
from ._util import masked, promote, safe


def logpmf(k: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Float[Array, "..."]:
    """Log probability of ``k``: ``k log p + (1 - k) log(1 - p)`` on ``[0, 1]`` (JAX's
    convention: a ``k`` between 0 and 1 gets the formula's value), ``-inf`` outside.

    Example::

        >>> logpmf(0.0, 0.5)
        Array(-0.69314718, dtype=float64, weak_type=True)
    """
    k, p, loc = promote(k, p, loc)
    y = k - loc
    ok = ~((y < 0) | (y > 1))
    ys = safe(ok, y, 0.0)
    val = special.xlogy(ys, p) + special.xlog1py(1.0 - ys, -p)
    return masked(ok, val, -fnp.inf)


def pmf(k: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Float[Array, "..."]:
    """Probability of ``k``.

    Example::

        >>> pmf(0.0, 0.25)
        Array(0.75, dtype=float64, weak_type=True)
    """
    return fnp.exp(logpmf(k, p, loc))


def cdf(k: ArrayLike, p: ArrayLike) -> Float[Array, "..."]:
    """``P(K <= k)``: 0 below 0, ``1 - p`` on [0, 1), 1 from 1.

    Example::

        >>> cdf(0.5, 0.25)
        Array(0.75, dtype=float64, weak_type=True)
    """
    k, p = promote(k, p)
    out = fnp.where(k < 0, fnp.zeros_like(k * p), fnp.where(k < 1, 1.0 - p, fnp.ones_like(k * p)))
    return masked(~(fnp.isnan(k) | (p < 0) | (p > 1)), out, fnp.nan)


def ppf(q: ArrayLike, p: ArrayLike) -> Float[Array, "..."]:
    """The smallest ``k`` with ``cdf(k) >= q`` (NaN outside [0, 1]).

    Example::

        >>> ppf(0.9, 0.25)
        Array(1., dtype=float64, weak_type=True)
    """
    q, p = promote(q, p)
    out = fnp.where(q > 1.0 - p, fnp.ones_like(q * p), fnp.zeros_like(q * p))
    return fnp.where((q < 0) | (q > 1) | fnp.isnan(q) | ~((p >= 0) & (p <= 1)), fnp.nan, out)


__all__ = ["logpmf", "pmf", "cdf", "ppf"]
