"""The Laplace distribution (``jax.scipy.stats.laplace``).

Example::

    >>> from fgrad.scipy.stats import laplace
    >>> laplace.pdf(0.0)
    Array(0.5, dtype=float64, weak_type=True)
"""

from __future__ import annotations

from ...typing import Array, ArrayLike, Float

import math

from ... import numpy as fnp
from ._util import promote, standardized


def logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log density ``-log(2 scale) - |x - loc| / scale``.

    Example::

        >>> logpdf(0.0)
        Array(-0.69314718, dtype=float64, weak_type=True)
    """
    x, loc, scale = promote(x, loc, scale)
    return -math.log(2.0) - fnp.log(scale) - fnp.abs(x - loc) / scale


def pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Density.

    Example::

        >>> pdf(0.0)
        Array(0.5, dtype=float64, weak_type=True)
    """
    return fnp.exp(logpdf(x, loc, scale))


def cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """CDF.

    Example::

        >>> cdf(0.0)
        Array(0.5, dtype=float64, weak_type=True)
    """
    z, _ = standardized(x, loc, scale)
    e = 0.5 * fnp.exp(-fnp.abs(z))
    return fnp.where(z < 0, e, 1.0 - e)


__all__ = ["logpdf", "pdf", "cdf"]
