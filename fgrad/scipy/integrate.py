"""`fgrad.scipy.integrate`: the composite trapezoidal rule (``jax.scipy.integrate``),
differentiable in the samples ``y`` and the sample points ``x``.

Example::

    >>> import fgrad.numpy as fnp
    >>> from fgrad.scipy.integrate import trapezoid
    >>> trapezoid(fnp.asarray([1.0, 2.0, 3.0, 2.0]), fnp.asarray([0.0, 2.0, 5.0, 7.0]))
    Array(15.5, dtype=float64)
"""

from __future__ import annotations

from ..typing import Array, ArrayLike

from .. import numpy as fnp

__all__ = ["trapezoid"]


def trapezoid(y: ArrayLike, x: ArrayLike | None = None, dx: ArrayLike = 1.0, axis: int = -1) -> Array:
    """Integrate ``y`` along ``axis`` by the trapezoidal rule (``scipy.integrate.trapezoid``):
    ``sum((x[1:] - x[:-1]) * (y[1:] + y[:-1]) / 2)``, with spacing ``dx`` when ``x`` is None.

    Example::

        >>> import fgrad.numpy as fnp
        >>> trapezoid(fnp.asarray([1, 2, 3, 2, 3, 2, 1]), dx=0.5)
        Array(6.5, dtype=float64)
    """
    return fnp.trapezoid(y, x, dx=dx, axis=axis)
