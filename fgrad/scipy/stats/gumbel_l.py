"""The left-skewed Gumbel distribution (``jax.scipy.stats.gumbel_l``): ``z = (x - loc) /
scale``, ``sf = exp(-exp(z))``; NaN for ``scale <= 0``.  It is the mirror image of
`gumbel_r` (``x -> -x``, ``loc -> -loc``), and its functions are `gumbel_r`'s at the mirrored
point, with the CDF and survival function swapped.

Example::

    >>> from fgrad.scipy.stats import gumbel_l
    >>> gumbel_l.sf(0.0)
    Array(0.36787944, dtype=float64, weak_type=True)
"""

from __future__ import annotations

from ...typing import Array, ArrayLike, Float

from ... import numpy as fnp
from . import gumbel_r
from ._util import masked, promote


def _mirror(v):
    """``-v``, keeping Python scalars weakly typed."""
    return -v if isinstance(v, (int, float)) else fnp.negative(v)


def logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log density ``z - exp(z) - log(scale)``.

    Example::

        >>> logpdf(0.0)
        Array(-1., dtype=float64, weak_type=True)
    """
    return gumbel_r.logpdf(_mirror(x), _mirror(loc), scale)


def pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Density.

    Example::

        >>> pdf(0.0)
        Array(0.36787944, dtype=float64, weak_type=True)
    """
    return gumbel_r.pdf(_mirror(x), _mirror(loc), scale)


def logcdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log of the CDF, ``log(1 - exp(-exp(z)))``.

    Example::

        >>> logcdf(0.0)
        Array(-0.45867515, dtype=float64, weak_type=True)
    """
    return gumbel_r.logsf(_mirror(x), _mirror(loc), scale)


def cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """CDF ``1 - exp(-exp(z))`` (as ``-expm1``: accurate in the left tail).

    Example::

        >>> cdf(0.0)
        Array(0.63212056, dtype=float64, weak_type=True)
    """
    return gumbel_r.sf(_mirror(x), _mirror(loc), scale)


def logsf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log of the survival function, ``-exp(z)``.

    Example::

        >>> logsf(0.0)
        Array(-1., dtype=float64, weak_type=True)
    """
    return gumbel_r.logcdf(_mirror(x), _mirror(loc), scale)


def sf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Survival function ``exp(-exp(z))``.

    Example::

        >>> sf(0.0)
        Array(0.36787944, dtype=float64, weak_type=True)
    """
    return gumbel_r.cdf(_mirror(x), _mirror(loc), scale)


def ppf(q: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Quantile ``loc + scale log(-log(1 - q))`` (``-inf`` at 0, ``inf`` at 1, as SciPy).

    Example::

        >>> ppf(0.5)
        Array(-0.36651292, dtype=float64, weak_type=True)
    """
    q, loc, scale = promote(q, loc, scale)
    return masked(scale > 0, loc + scale * fnp.log(-fnp.log1p(-q)), fnp.nan)


__all__ = ["logpdf", "pdf", "logcdf", "cdf", "sf", "logsf", "ppf"]
