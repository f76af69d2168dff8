"""The uniform distribution on ``[loc, loc + scale]`` (``jax.scipy.stats.uniform``).

Example::

    >>> from fgrad.scipy.stats import uniform
    >>> uniform.pdf(0.5)
    Array(1., dtype=float64, weak_type=True)
"""

from __future__ import annotations

from ...typing import Array, ArrayLike, Float

from ... import numpy as fnp
from ._util import promote


def logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log density ``-log(scale)`` on the interval, ``-inf`` outside (JAX's convention at a
    NaN ``x``: not outside, so ``-log(scale)``).

    Example::

        >>> logpdf(0.5, 0.0, 2.0)
        Array(-0.69314718, dtype=float64, weak_type=True)
    """
    x, loc, scale = promote(x, loc, scale)
    val = -fnp.log(scale) + fnp.zeros_like(x)
    return fnp.where((x < loc) | (x > loc + scale), -fnp.inf, val)


def pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Density.

    Example::

        >>> pdf(2.0)
        Array(0., dtype=float64, weak_type=True)
    """
    return fnp.exp(logpdf(x, loc, scale))


def cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """CDF: ``(x - loc) / scale`` on the closed interval (so the gradient at either end is
    ``1 / scale``, as JAX), 0 below, 1 above, and 0 at a NaN ``x`` (JAX's ``select`` default).

    Example::

        >>> cdf(0.25)
        Array(0.25, dtype=float64)
    """
    x, loc, scale = promote(x, loc, scale)
    inside = (x >= loc) & (x <= loc + scale)
    # JAX's select of strong 0 and 1 (``jnp.array(0, x.dtype)``): strongly typed
    outside = fnp.where(x > loc + scale, fnp.asarray(1, x.dtype), fnp.asarray(0, x.dtype))
    return fnp.where(inside, (x - loc) / scale, outside)


def ppf(q: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Quantile ``loc + q scale`` (NaN outside [0, 1]).

    Example::

        >>> ppf(0.25, 1.0, 2.0)
        Array(1.5, dtype=float64, weak_type=True)
    """
    q, loc, scale = promote(q, loc, scale)
    return fnp.where((q >= 0) & (q <= 1), loc + q * scale, fnp.nan)


__all__ = ["logpdf", "pdf", "cdf", "ppf"]
