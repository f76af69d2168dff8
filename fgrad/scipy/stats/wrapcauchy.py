"""The wrapped Cauchy distribution (``jax.scipy.stats.wrapcauchy``): density
``(1 - c^2) / (2 pi (1 + c^2 - 2 c cos x))`` on ``[0, 2 pi]`` (``-inf`` log density
outside), NaN unless ``0 < c < 1``.

Example::

    >>> from fgrad.scipy.stats import wrapcauchy
    >>> wrapcauchy.pdf(0.0, 0.5)
    Array(0.47746483, dtype=float64, weak_type=True)
"""

from __future__ import annotations

from ...typing import Array, ArrayLike, Float

import math

from ... import numpy as fnp
from ._util import masked, promote, safe

_LOG_2PI = math.log(2.0 * math.pi)


def logpdf(x: ArrayLike, c: ArrayLike) -> Float[Array, "..."]:
    """Log density.

    Example::

        >>> logpdf(1.0, 0.3)
        Array(-1.66537782, dtype=float64, weak_type=True)
    """
    x, c = promote(x, c)
    valid_c = (c > 0) & (c < 1)
    inside = (x >= 0) & (x <= 2.0 * math.pi)
    cs = safe(valid_c, c, 0.5)
    val = fnp.log1p(-cs * cs) - _LOG_2PI - fnp.log1p(cs * cs - 2.0 * cs * fnp.cos(x))
    return masked(valid_c, masked(inside, val, -fnp.inf), fnp.nan)


def pdf(x: ArrayLike, c: ArrayLike) -> Float[Array, "..."]:
    """Density.

    Example::

        >>> pdf(1.0, 0.3)
        Array(0.18911919, dtype=float64, weak_type=True)
    """
    return fnp.exp(logpdf(x, c))


__all__ = ["logpdf", "pdf"]
