"""The von Mises distribution on the circle (``jax.scipy.stats.vonmises``): density
``exp(kappa cos x) / (2 pi I0(kappa))``, periodic in ``x``; NaN for ``kappa < 0`` (``kappa =
0`` is the uniform density, as SciPy; JAX gives NaN there).

Example::

    >>> from fgrad.scipy.stats import vonmises
    >>> vonmises.pdf(0.0, 0.0)  # 1 / (2 pi)
    Array(0.15915494, dtype=float64, weak_type=True)
"""

from __future__ import annotations

from ...typing import Array, ArrayLike, Float

import math

from ... import numpy as fnp
from .. import special
from ._util import masked, promote, safe

_LOG_2PI = math.log(2.0 * math.pi)


def logpdf(x: ArrayLike, kappa: ArrayLike) -> Float[Array, "..."]:
    """Log density ``kappa (cos x - 1) - log(2 pi i0e(kappa))``.

    Example::

        >>> logpdf(0.0, 1.0)
        Array(-1.07379142, dtype=float64, weak_type=True)
    """
    x, kappa = promote(x, kappa)
    ok = kappa >= 0
    k = safe(ok, kappa, 1.0)
    return masked(ok, k * (fnp.cos(x) - 1.0) - _LOG_2PI - fnp.log(special.i0e(k)), fnp.nan)


def pdf(x: ArrayLike, kappa: ArrayLike) -> Float[Array, "..."]:
    """Density.

    Example::

        >>> pdf(0.0, 1.0)
        Array(0.34171049, dtype=float64, weak_type=True)
    """
    return fnp.exp(logpdf(x, kappa))


__all__ = ["logpdf", "pdf"]
