"""Student's t distribution (``jax.scipy.stats.t``).

Example::

    >>> from fgrad.scipy.stats import t
    >>> t.pdf(0.0, 1.0)  # Cauchy at 0
    Array(0.31830989, dtype=float64, weak_type=True)
"""

from __future__ import annotations

from ...typing import Array, ArrayLike, Float

import math

from ... import numpy as fnp
from .. import special
from ._util import promote


def logpdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log density.

    Example::

        >>> logpdf(0.0, 1.0)
        Array(-1.14472989, dtype=float64, weak_type=True)
    """
    x, df, loc, scale = promote(x, df, loc, scale)
    z = (x - loc) / scale
    half = 0.5 * (df + 1.0)
    return (special.gammaln(half) - special.gammaln(0.5 * df) - 0.5 * fnp.log(df * math.pi)
            - fnp.log(scale) - half * fnp.log1p(z * z / df))


def pdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Density.

    Example::

        >>> pdf(0.0, 1.0)
        Array(0.31830989, dtype=float64, weak_type=True)
    """
    return fnp.exp(logpdf(x, df, loc, scale))


__all__ = ["logpdf", "pdf"]
