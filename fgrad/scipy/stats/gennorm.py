"""The generalized normal distribution (``jax.scipy.stats.gennorm``): density
``beta / (2 Gamma(1/beta)) exp(-|x|^beta)`` (no ``loc``/``scale``, as in JAX).

Example::

    >>> from fgrad.scipy.stats import gennorm
    >>> gennorm.cdf(0.0, 2.0)
    Array(0.5, dtype=float64, weak_type=True)
"""

from __future__ import annotations

from ...typing import Array, ArrayLike, Float

from ... import numpy as fnp
from .. import special
from ._util import promote


def logpdf(x: ArrayLike, beta: ArrayLike) -> Float[Array, "..."]:
    """Log density ``log(beta / 2) - gammaln(1 / beta) - |x|^beta``.

    Example::

        >>> logpdf(0.0, 1.0)
        Array(-0.69314718, dtype=float64, weak_type=True)
    """
    x, beta = promote(x, beta)
    return fnp.log(0.5 * beta) - special.gammaln(1.0 / beta) - fnp.abs(x) ** beta


def pdf(x: ArrayLike, beta: ArrayLike) -> Float[Array, "..."]:
    """Density.

    Example::

        >>> pdf(0.0, 1.0)
        Array(0.5, dtype=float64, weak_type=True)
    """
    return fnp.exp(logpdf(x, beta))


def cdf(x: ArrayLike, beta: ArrayLike) -> Float[Array, "..."]:
    """CDF ``(1 + sign(x) gammainc(1 / beta, |x|^beta)) / 2`` (differentiable in ``x`` and
    ``beta``).

    Example::

        >>> cdf(1.0, 1.0)
        Array(0.81606028, dtype=float64, weak_type=True)
    """
    x, beta = promote(x, beta)
    return 0.5 * (1.0 + fnp.sign(x) * special.gammainc(1.0 / beta, fnp.abs(x) ** beta))


__all__ = ["logpdf", "pdf", "cdf"]
