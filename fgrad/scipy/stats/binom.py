"""The binomial distribution (``jax.scipy.stats.binom``).

Example::

    >>> from fgrad.scipy.stats import binom
    >>> binom.pmf(1.0, 2.0, 0.5)
    Array(0.5, dtype=float64, weak_type=True)
"""

from __future__ import annotations

from ...typing import Array, ArrayLike, Float

from ... import numpy as fnp
from .. import special
from ._util import masked, promote, safe


def logpmf(k: ArrayLike, n: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Float[Array, "..."]:
    """Log probability of ``k`` successes in ``n`` trials: the formula's value (also at a
    non-integer ``k``) for ``0 <= k - loc < n + 1``, ``-inf`` outside (JAX's convention).

    Example::

        >>> logpmf(0.0, 1.0, 0.5)
        Array(-0.69314718, dtype=float64, weak_type=True)
    """
    k, n, p, loc = promote(k, n, p, loc)
    y = k - loc
    ok = (k >= loc) & (k < loc + n + 1.0)
    ys = safe(ok, y, 0.0)
    comb = special.gammaln(n + 1.0) - special.gammaln(ys + 1.0) - special.gammaln(n - ys + 1.0)
    val = comb + special.xlogy(ys, p) + special.xlog1py(n - ys, -p)
    return masked(ok, val, -fnp.inf)


def pmf(k: ArrayLike, n: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Float[Array, "..."]:
    """Probability of ``k``.

    Example::

        >>> pmf(2.0, 2.0, 0.5)
        Array(0.25, dtype=float64, weak_type=True)
    """
    return fnp.exp(logpmf(k, n, p, loc))


__all__ = ["logpmf", "pmf"]
