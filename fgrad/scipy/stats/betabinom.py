"""The beta-binomial distribution (``jax.scipy.stats.betabinom``): ``comb(n, k) B(k + a, n - k
+ b) / B(a, b)``. As JAX: a non-integer ``k`` counts as ``floor(k)``; the log probability is
``-inf`` outside ``0 <= floor(k) - loc <= n``, NaN for ``n < 0``, ``a <= 0`` or ``b <= 0``.

Example::

    >>> from fgrad.scipy.stats import betabinom
    >>> betabinom.pmf(1.0, 2.0, 1.0, 1.0)  # uniform over 0, 1, 2
    Array(0.33333333, dtype=float64, weak_type=True)
"""

from __future__ import annotations

from ...typing import Array, ArrayLike, Float

from ... import numpy as fnp
from .. import special
from ._util import masked, promote, safe


def logpmf(k: ArrayLike, n: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0) -> Float[Array, "..."]:
    """Log probability of ``k``; differentiable in ``a`` and ``b``.

    Example::

        >>> logpmf(2.0, 5.0, 2.0, 3.0)
        Array(-1.43508453, dtype=float64, weak_type=True)
    """
    k, n, a, b, loc = promote(k, n, a, b, loc)
    y = fnp.floor(k) - loc
    positive = ~((n < 0) | (a <= 0) | (b <= 0))
    ok = ~((y < -loc) | (y > n) | (y + a <= 0)) & positive
    ys, ns = safe(ok, y, 0.0), safe(ok, n, 0.0)
    as_, bs = safe(positive, a), safe(positive, b)
    log_comb = -(fnp.log1p(ns) + special.betaln(ns - ys + 1.0, ys + 1.0))
    val = log_comb + special.betaln(ys + as_, ns - ys + bs) - special.betaln(as_, bs)
    return masked(positive, masked(ok, val, -fnp.inf), fnp.nan)


def pmf(k: ArrayLike, n: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0) -> Float[Array, "..."]:
    """Probability of ``k``.

    Example::

        >>> pmf(0.0, 1.0, 1.0, 1.0)
        Array(0.5, dtype=float64, weak_type=True)
    """
    return fnp.exp(logpmf(k, n, a, b, loc))


__all__ = ["logpmf", "pmf"]
