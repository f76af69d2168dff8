"""The negative binomial distribution (``jax.scipy.stats.nbinom``): failures ``k`` before
the ``n``-th success.

Example::

    >>> from fgrad.scipy.stats import nbinom
    >>> nbinom.pmf(0.0, 1.0, 0.5)
    Array(0.5, dtype=float64, weak_type=True)
"""

from __future__ import annotations

from ...typing import Array, ArrayLike, Float

from ... import numpy as fnp
from .. import special
from ._util import masked, promote, safe


def logpmf(k: ArrayLike, n: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Float[Array, "..."]:
    """Log probability of ``k`` failures (``-inf`` below 0; the formula's value at a
    non-integer ``k``, as JAX).

    Example::

        >>> logpmf(0.0, 1.0, 0.5)
        Array(-0.69314718, dtype=float64, weak_type=True)
    """
    k, n, p, loc = promote(k, n, p, loc)
    y = k - loc
    ok = ~(y < 0)
    ys = safe(ok, y, 0.0)
    comb = special.gammaln(n + ys) - special.gammaln(n) - special.gammaln(ys + 1.0)
    return masked(ok, comb + special.xlogy(n, p) + special.xlog1py(ys, -p), -fnp.inf)


def pmf(k: ArrayLike, n: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Float[Array, "..."]:
    """Probability of ``k``.

    Example::

        >>> pmf(1.0, 1.0, 0.5)
        Array(0.25, dtype=float64, weak_type=True)
    """
    return fnp.exp(logpmf(k, n, p, loc))


__all__ = ["logpmf", "pmf"]
