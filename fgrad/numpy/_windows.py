"""Window functions and the modified Bessel function ``i0`` with NumPy names: `bartlett`,
`blackman`, `hamming`, `hanning`, `kaiser`, `i0`.

The windows take a static length ``M`` (``kaiser`` also a shape ``beta``, differentiable);
`i0` is ``bessel_i0e(x) * exp(|x|)`` (differentiable).

>>> import fgrad.numpy as fnp
>>> fnp.hanning(3)
Array([0., 1., 0.], dtype=float64)
"""

from __future__ import annotations

from ..typing import Array, ArrayLike

import numpy as np

from ..core.inexact import to_inexact_dtype
from ..core.array import get_aval
from ..ops.elementwise import convert_element_type
from ..ops.special_functions import bessel_i0e, bessel_i1_over_x, bessel_i1e
from ..transforms.custom import custom_jvp
import fgrad.numpy._building_blocks as fnp

__all__ = ["bartlett", "blackman", "hamming", "hanning", "kaiser", "i0"]


def _length(M, name: str) -> int:
    try:
        return int(M)
    except TypeError:
        raise TypeError(f"fgrad.numpy.{name}: M must be a static integer, got {M!r}") from None


def _symmetric(M: int):
    """``n = 1 - M, 3 - M, ..., M - 1`` (NumPy's sample points), as float64."""
    return fnp.arange(1 - M, M, 2, dtype=np.float64)


def bartlett(M: int) -> Array:
    """``numpy.bartlett``: the triangular window of length ``M``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.bartlett(5)
        Array([0. , 0.5, 1. , 0.5, 0. ], dtype=float64)
    """
    M = _length(M, "bartlett")
    if M < 1:
        return fnp.zeros(0)
    if M == 1:
        return fnp.ones(1)
    n = _symmetric(M)
    return fnp.where(
        fnp.less_equal(n, 0), fnp.add(1.0, fnp.divide(n, M - 1)), fnp.subtract(1.0, fnp.divide(n, M - 1))
    )


def _cosine_window(M, coeffs, name):
    M = _length(M, name)
    if M < 1:
        return fnp.zeros(0)
    if M == 1:
        return fnp.ones(1)
    n = _symmetric(M)
    out = fnp.full((M,), coeffs[0])
    for k, c in enumerate(coeffs[1:], start=1):
        out = fnp.add(out, fnp.multiply(c, fnp.cos(fnp.divide(fnp.multiply(k * np.pi, n), M - 1))))
    return out


def blackman(M: int) -> Array:
    """``numpy.blackman``: ``0.42 + 0.5 cos(pi n / (M-1)) + 0.08 cos(2 pi n / (M-1))``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.blackman(3)
        Array([-1.38777878e-17,  1.00000000e+00, -1.38777878e-17], dtype=float64)
    """
    return _cosine_window(M, (0.42, 0.5, 0.08), "blackman")


def hamming(M: int) -> Array:
    """``numpy.hamming``: ``0.54 + 0.46 cos(pi n / (M-1))``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.hamming(3)
        Array([0.08, 1.  , 0.08], dtype=float64)
    """
    return _cosine_window(M, (0.54, 0.46), "hamming")


def hanning(M: int) -> Array:
    """``numpy.hanning``: ``0.5 + 0.5 cos(pi n / (M-1))``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.hanning(5)
        Array([0. , 0.5, 1. , 0.5, 0. ], dtype=float64)
    """
    return _cosine_window(M, (0.5, 0.5), "hanning")


def i0(x: ArrayLike) -> Array:
    """``numpy.i0``: the modified Bessel function of the first kind, order 0 (real input;
    differentiable).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.i0(fnp.asarray([0.0, 1.0]))
        Array([1.        , 1.26606588], dtype=float64)
    """
    weak = isinstance(x, (bool, int, float)) or bool(getattr(get_aval(x), "weak_type", False))
    x = fnp.asarray(x)
    if x.dtype.kind == "c":  # JAX's ValueError
        raise ValueError(f"fgrad.numpy.i0: unsupported input type {x.dtype} (complex input is not "
                         "supported, as in JAX); take the real part or the absolute value first")
    # JAX's inexact dtype (core.inexact: int8 -> float32); a weak input stays weak
    x = convert_element_type(x, to_inexact_dtype(x.dtype), weak_type=weak and x.dtype.kind != "b")
    return bessel_i0(x)


@custom_jvp
def bessel_i0(x):
    """``I0(x) = exp(|x|) i0e(x)`` of a real float array, whose derivative is `bessel_i1`:
    differentiating the product instead gave ``I0'(0) = 1`` (the kink of ``exp(|x|)``; the
    true value is ``I1(0) = 0``) and ``I0''(0) = 1.5`` (true: 1/2).  Shared by ``fgrad.numpy.i0``
    and ``fgrad.scipy.special.i0``.

    >>> import fgrad
    >>> float(fgrad.grad(bessel_i0)(0.0))
    0.0
    """
    return fnp.multiply(bessel_i0e(x), fnp.exp(fnp.abs(x)))


@bessel_i0.defjvp
def _bessel_i0_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return bessel_i0(x), fnp.multiply(t, bessel_i1(x))


@custom_jvp
def bessel_i1(x):
    """``I1(x) = exp(|x|) i1e(x)`` of a real float array, whose derivative is ``I0(x) - I1(x) / x``
    (1/2 at 0, with ``I1(x) / x`` from its series near 0): ``I1''(0) = 0``, not the 1.0 that the
    product's kinks give (JAX's value).

    >>> import fgrad
    >>> float(fgrad.grad(fgrad.grad(bessel_i1))(0.0))
    0.0
    """
    return fnp.multiply(fnp.exp(fnp.abs(x)), bessel_i1e(x))


@bessel_i1.defjvp
def _bessel_i1_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return bessel_i1(x), fnp.multiply(t, fnp.subtract(bessel_i0(x), bessel_i1_over_x(x, False)))


def kaiser(M: int, beta: ArrayLike) -> Array:
    """``numpy.kaiser``: ``i0(beta sqrt(1 - (2n/(M-1) - 1)^2)) / i0(beta)``, differentiable in
    ``beta``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.kaiser(3, 0.0)
        Array([1., 1., 1.], dtype=float64)
    """
    M = _length(M, "kaiser")
    if M < 1:
        return fnp.zeros(0)
    if M == 1:
        return fnp.ones(1)
    n = fnp.arange(0, M, dtype=np.float64)
    alpha = (M - 1) / 2.0
    r = fnp.divide(fnp.subtract(n, alpha), alpha)
    arg = fnp.multiply(beta, fnp.sqrt(fnp.maximum(fnp.subtract(1.0, fnp.multiply(r, r)), 0.0)))
    return fnp.divide(i0(arg), i0(fnp.astype(fnp.asarray(beta), np.float64)))
