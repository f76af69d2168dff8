"""The geometric distribution on {1, 2, ...} (``jax.scipy.stats.geom``).

Example::

    >>> from fgrad.scipy.stats import geom
    >>> geom.pmf(2.0, 0.5)
    Array(0.25, dtype=float64, weak_type=True)
"""

from __future__ import annotations

from ...typing import Array, ArrayLike, Float

from ... import numpy as fnp
from .. import special
from ._util import masked, promote, safe


def logpmf(k: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Float[Array, "..."]:
    """Log probability that the first success is trial ``k``, ``(k - 1) log(1 - p) + log p``
    for ``k > 0`` (JAX's convention: not only at integers), ``-inf`` at or below 0.

    Example::

        >>> logpmf(1.0, 0.5)
        Array(-0.69314718, dtype=float64, weak_type=True)
    """
    k, p, loc = promote(k, p, loc)
    y = k - loc
    ok = ~(y <= 0)
    ys = safe(ok, y, 1.0)
    return masked(ok, special.xlog1py(ys - 1.0, -p) + fnp.log(p), -fnp.inf)


def pmf(k: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Float[Array, "..."]:
    """Probability of ``k``.

    Example::

        >>> pmf(1.0, 0.5)
        Array(0.5, dtype=float64, weak_type=True)
    """
    return fnp.exp(logpmf(k, p, loc))


__all__ = ["logpmf", "pmf"]
