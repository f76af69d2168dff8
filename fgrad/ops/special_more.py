"""More special functions as elementwise primitives: the scaled complementary error
function ``erfcx(x) = exp(x^2) erfc(x)`` and the Bessel functions of the first kind
``bessel_j0``, ``bessel_j1``.

Values come from ``scipy.special`` (``cupyx.scipy.special`` on the GPU), as for the gamma
family (`fgrad.ops.special_functions`); the derivatives are fgrad's own, written with these
primitives so every order works: ``erfcx' = 2 x erfcx(x) - 2 / sqrt(pi)``, ``j0' = -j1``,
``j1' = j0 - j1 / x`` (``1/2`` at 0).

Example::

    >>> import numpy as np
    >>> float(erfcx(np.float64(0.0)))
    1.0
"""

from __future__ import annotations

import math

from ..core.rules import defjvp2
from .elementwise import add, div, eq, mul, neg, select, sub
from .special_functions import _prim, _unary_impl

__all__ = ["bessel_j0", "bessel_j0_p", "bessel_j1", "bessel_j1_p", "erfcx", "erfcx_p"]

erfcx_p = _prim("erfcx", _unary_impl("erfcx", "erfcx"))
bessel_j0_p = _prim("bessel_j0", _unary_impl("j0", "bessel_j0"))
bessel_j1_p = _prim("bessel_j1", _unary_impl("j1", "bessel_j1"))

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def erfcx(x):
    """``exp(x^2) erfc(x)``, without overflow for large ``x``.

    Example::

        >>> import numpy as np
        >>> round(float(erfcx(np.float64(30.0))), 6)
        0.018796
    """
    return erfcx_p.bind(x)


def bessel_j0(x):
    """The Bessel function of the first kind of order 0.

    Example::

        >>> import numpy as np
        >>> float(bessel_j0(np.float64(0.0)))
        1.0
    """
    return bessel_j0_p.bind(x)


def bessel_j1(x):
    """The Bessel function of the first kind of order 1.

    Example::

        >>> import numpy as np
        >>> float(bessel_j1(np.float64(0.0)))
        0.0
    """
    return bessel_j1_p.bind(x)


def _j1_deriv(x, y):
    safe = select(eq(x, 0.0), add(mul(x, 0.0), 1.0), x)
    return select(eq(x, 0.0), add(mul(x, 0.0), 0.5), sub(bessel_j0(x), div(y, safe)))


defjvp2(erfcx_p, lambda t, y, x: mul(t, sub(mul(mul(2.0, x), y), _TWO_OVER_SQRT_PI)))
defjvp2(bessel_j0_p, lambda t, y, x: mul(t, neg(bessel_j1(x))))
defjvp2(bessel_j1_p, lambda t, y, x: mul(t, _j1_deriv(x, y)))
