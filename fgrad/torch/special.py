"""``torch.special``: the special functions fgrad's primitives express (erf family, normal
distribution functions, entropy terms, softmax family), each written once with shim ops so
gradients, devices and dtypes follow.

Missing (they need primitives fgrad does not have yet: log-gamma, digamma, Bessel functions,
incomplete gamma, zeta): ``gammaln``, ``digamma``/``psi``, ``polygamma``, ``multigammaln``,
``i0``/``i0e``/``i1``/``i1e``, ``bessel_*``/``modified_bessel_*``, ``gammainc``/``gammaincc``,
``zeta``, ``erfcx``, ``airy_ai`` and the orthogonal polynomials; using one raises an
AttributeError that says so.

Example::

    >>> import fgrad.torch as torch
    >>> torch.special.ndtr(torch.tensor([0.0, 1.0]))
    tensor([0.5000, 0.8413])
"""

from __future__ import annotations

import math

import fgrad.numpy as fnp
import fgrad.torch as torch
from fgrad.transforms.custom import custom_jvp

from ._dispatch import apply_op
from ._tensor import Tensor

__all__ = [
    "entr",
    "erf",
    "erfc",
    "erfinv",
    "exp2",
    "expit",
    "expm1",
    "log1p",
    "log_ndtr",
    "log_softmax",
    "logit",
    "logsumexp",
    "ndtr",
    "ndtri",
    "round",
    "sinc",
    "softmax",
    "spherical_bessel_j0",
    "xlog1py",
    "xlogy",
]

_SQRT_HALF = math.sqrt(0.5)


def _float(x) -> Tensor:
    """``x`` as a floating tensor (integers and bools promote to the default dtype)."""
    if not isinstance(x, Tensor):
        x = torch.tensor(x)
    return x if x.is_floating_point() or x.is_complex() else x.to(torch.get_default_dtype())


def erf(input: Tensor, *, out=None) -> Tensor:
    """The error function. Example: ``torch.special.erf(torch.tensor([0.0]))`` -> ``tensor([0.])``."""
    return torch.erf(input, out=out)


def erfc(input: Tensor, *, out=None) -> Tensor:
    """``1 - erf(x)``, accurate for large x. Example: ``torch.special.erfc(torch.tensor([0.0]))``
    -> ``tensor([1.])``."""
    return torch.erfc(input, out=out)


def erfinv(input: Tensor, *, out=None) -> Tensor:
    """The inverse error function on (-1, 1). Example: ``torch.special.erfinv(torch.tensor([0.0]))``
    -> ``tensor([0.])``."""
    return torch.erfinv(input, out=out)


def expit(input: Tensor, *, out=None) -> Tensor:
    """The logistic sigmoid ``1 / (1 + exp(-x))``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.expit(torch.tensor([0.0]))
        tensor([0.5000])
    """
    return torch.sigmoid(input, out=out)


def logit(input: Tensor, eps: float | None = None, *, out=None) -> Tensor:
    """``log(p / (1 - p))``, with ``p`` clamped to [eps, 1 - eps] when ``eps`` is given."""
    return torch.logit(input, eps, out=out)


def exp2(input: Tensor, *, out=None) -> Tensor:
    """``2 ** x``."""
    return torch.exp2(input, out=out)


def expm1(input: Tensor, *, out=None) -> Tensor:
    """``exp(x) - 1``, accurate near 0."""
    return torch.expm1(input, out=out)


def log1p(input: Tensor, *, out=None) -> Tensor:
    """``log(1 + x)``, accurate near 0."""
    return torch.log1p(input, out=out)


def round(input: Tensor, *, decimals: int = 0, out=None) -> Tensor:  # noqa: A001
    """Round half to even (to ``decimals`` places)."""
    return torch.round(input, decimals=decimals, out=out)


def sinc(input: Tensor, *, out=None) -> Tensor:
    """The normalised sinc ``sin(pi x) / (pi x)`` (1 at 0)."""
    return torch.sinc(input, out=out)


def logsumexp(input: Tensor, dim, keepdim: bool = False, *, out=None) -> Tensor:
    """``log(sum(exp(x)))`` over ``dim``, without overflow."""
    return torch.logsumexp(input, dim, keepdim, out=out)


def softmax(input: Tensor, dim: int, *, dtype=None) -> Tensor:
    """``exp(x) / sum(exp(x))`` along ``dim``."""
    return torch.softmax(input, dim, dtype=dtype)


def log_softmax(input: Tensor, dim: int, *, dtype=None) -> Tensor:
    """``x - logsumexp(x)`` along ``dim``."""
    return torch.log_softmax(input, dim, dtype=dtype)


def xlogy(input, other, *, out=None) -> Tensor:
    """``x * log(y)``, 0 where ``x == 0`` (unless y is NaN)."""
    return torch.xlogy(input, other, out=out)


def _nan_passthrough(x: Tensor) -> Tensor:
    """``x`` with a NaN gradient where ``x`` is NaN (a plain ``where(isnan(x), x, ...)`` would
    give gradient 1 there)."""
    return x * (x.detach() * 0 + 1)


def _finish(result: Tensor, out) -> Tensor:
    if out is None:
        return result
    out.copy_(result)
    return out


def xlog1py(input, other, *, out=None) -> Tensor:
    """``x * log1p(y)``, 0 where ``x == 0`` (unless y is NaN); either may be a number.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.xlog1py(torch.tensor([0.0, 2.0]), torch.tensor([-1.0, 0.0]))
        tensor([0., 0.])
    """
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise TypeError("xlog1py(): at least one of input and other must be a Tensor")
    x = (
        input
        if isinstance(input, Tensor)
        else torch.tensor(
            input, dtype=other.dtype if other.is_floating_point() else torch.get_default_dtype()
        )
    )
    y = (
        other
        if isinstance(other, Tensor)
        else torch.tensor(other, dtype=x.dtype if x.is_floating_point() else torch.get_default_dtype())
    )
    x, y = _float(x), _float(y)
    zero = (x == 0) & ~torch.isnan(y)
    # at x == 0 the value is 0 and d/dx is log1p(y) (as PyTorch), kept finite where log1p(y) is not
    finite_y = torch.where(zero & ~torch.isfinite(torch.log1p(y)), torch.zeros_like(y), y)
    return _finish(torch.where(zero, x * torch.log1p(finite_y), x * torch.log1p(y)), out)


@custom_jvp
def _entr_definition(x):
    positive = x > 0
    safe = fnp.where(positive, x, fnp.ones_like(x))
    value = fnp.where(positive, -safe * fnp.log(safe),
                      fnp.where(x == 0, fnp.zeros_like(x), fnp.full_like(x, -math.inf)))
    return fnp.where(fnp.isnan(x), x, value)


@_entr_definition.defjvp
def _entr_jvp(primals, tangents):
    (x,), (dx,) = primals, tangents
    return _entr_definition(x), -(1.0 + fnp.log(x)) * dx  # PyTorch's: inf at 0, NaN below 0


def entr(input: Tensor, *, out=None) -> Tensor:
    """The elementwise entropy term ``-x log x`` (0 at 0, -inf for x < 0, NaN for NaN), with
    PyTorch's derivative ``-(1 + log x)`` everywhere (inf at 0, NaN for x < 0).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.entr(torch.tensor([0.0, 1.0, -1.0]))
        tensor([0., -0., -inf])
    """
    x = _float(input)
    return _finish(apply_op("SpecialEntrBackward0", ("special_entr",), _entr_definition, (x,)), out)


def ndtr(input: Tensor, *, out=None) -> Tensor:
    """The standard normal CDF ``(1 + erf(x / sqrt 2)) / 2``, computed as
    ``erfc(-x / sqrt 2) / 2`` (accurate in the lower tail).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.ndtr(torch.tensor([-1.0, 0.0]))
        tensor([0.1587, 0.5000])
    """
    x = _float(input)
    return _finish(0.5 * torch.erfc(-x * _SQRT_HALF), out)


def ndtri(input: Tensor, *, out=None) -> Tensor:
    """The inverse of `ndtr`: ``sqrt 2 * erfinv(2p - 1)`` (computed in float64 for lower
    precisions, so the tails keep their digits); -inf at 0, inf at 1, NaN outside [0, 1].

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.ndtri(torch.tensor([0.5, 0.975]))
        tensor([0.0000, 1.9600])
    """
    p = _float(input)
    wide = _widen(p)
    x0 = math.sqrt(2.0) * torch.erfinv(2.0 * wide - 1.0)
    # one Newton step on ndtr(x) = p: 2p - 1 rounds away the digits of a small p (1e-10 has
    # only ~6 left), ndtr (through erfc) keeps them
    inside = (wide > 0) & (wide < 1)
    x_safe = torch.where(inside, x0, torch.zeros_like(x0))
    density = torch.exp(-0.5 * x_safe * x_safe) / math.sqrt(2 * math.pi)
    x1 = x_safe - (0.5 * torch.erfc(-x_safe * _SQRT_HALF) - wide) / density
    return _finish(torch.where(inside, x1, x0).to(p.dtype), out)


# log_ndtr: three regions, each evaluated on inputs clamped into it (no NaN or inf reaches a
# gradient from an unused branch), in float64 for lower precisions (erfc underflows early in
# float32):
#   x >= 0:       log1p(-erfc(x / sqrt 2) / 2)
#   -35 < x < 0:  log(erfc(-x / sqrt 2) / 2)
#   x <= -35:     the asymptotic series -x^2/2 - log(-x) - log(2 pi)/2
#                 + log(1 - 1/x^2 + 3/x^4 - 15/x^6 + 105/x^8 - 945/x^10)   (next term < 1e-14)
_LOG_NDTR_TAIL = -35.0


def _widen(x: Tensor) -> Tensor:
    return x.double() if x.dtype in (torch.float16, torch.float32) else x


def log_ndtr(input: Tensor, *, out=None) -> Tensor:
    """``log(ndtr(x))``, accurate for large negative ``x`` (no underflow to -inf) and for
    large positive ``x``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.log_ndtr(torch.tensor([-40.0], dtype=torch.float64)).item()
        -804.6084420137538
    """
    x0 = _float(input)
    x = _widen(x0)
    zero = torch.zeros_like(x)
    upper = torch.where(x >= 0, x, zero)
    middle = torch.where((x < 0) & (x > _LOG_NDTR_TAIL), x, torch.full_like(x, -1.0))
    tail = torch.where(x <= _LOG_NDTR_TAIL, x, torch.full_like(x, _LOG_NDTR_TAIL))
    v_upper = torch.log1p(-0.5 * torch.erfc(upper * _SQRT_HALF))
    v_middle = torch.log(0.5 * torch.erfc(-middle * _SQRT_HALF))
    r = 1.0 / (tail * tail)
    series = r * (-1.0 + r * (3.0 + r * (-15.0 + r * (105.0 - 945.0 * r))))
    v_tail = -0.5 * tail * tail - torch.log(-tail) - 0.5 * math.log(2 * math.pi) + torch.log1p(series)
    value = torch.where(x >= 0, v_upper, torch.where(x > _LOG_NDTR_TAIL, v_middle, v_tail))
    return _finish(torch.where(torch.isnan(x), _nan_passthrough(x), value).to(x0.dtype), out)


def spherical_bessel_j0(input: Tensor, *, out=None) -> Tensor:
    """``sin(x) / x`` (1 at 0).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.spherical_bessel_j0(torch.tensor([0.0]))
        tensor([1.])
    """
    x = _float(input)
    small = x.abs() < 1e-4
    safe = torch.where(small, torch.ones_like(x), x)
    series = 1.0 - x * x / 6.0  # the Taylor polynomial where sin(x)/x loses digits
    return _finish(torch.where(small, series, torch.sin(safe) / safe), out)


_MISSING = {
    "gammaln": "log-gamma",
    "digamma": "digamma",
    "psi": "digamma",
    "polygamma": "polygamma",
    "multigammaln": "log-gamma",
    "i0": "Bessel I0",
    "i0e": "Bessel I0",
    "i1": "Bessel I1",
    "i1e": "Bessel I1",
    "bessel_j0": "Bessel J0",
    "bessel_j1": "Bessel J1",
    "bessel_y0": "Bessel Y0",
    "bessel_y1": "Bessel Y1",
    "modified_bessel_i0": "Bessel I0",
    "modified_bessel_i1": "Bessel I1",
    "modified_bessel_k0": "Bessel K0",
    "modified_bessel_k1": "Bessel K1",
    "scaled_modified_bessel_k0": "Bessel K0",
    "scaled_modified_bessel_k1": "Bessel K1",
    "gammainc": "incomplete gamma",
    "gammaincc": "incomplete gamma",
    "zeta": "Hurwitz zeta",
    "erfcx": "scaled complementary error function",
    "airy_ai": "Airy Ai",
    "chebyshev_polynomial_t": "orthogonal polynomial",
    "chebyshev_polynomial_u": "orthogonal polynomial",
    "chebyshev_polynomial_v": "orthogonal polynomial",
    "chebyshev_polynomial_w": "orthogonal polynomial",
    "shifted_chebyshev_polynomial_t": "orthogonal polynomial",
    "shifted_chebyshev_polynomial_u": "orthogonal polynomial",
    "shifted_chebyshev_polynomial_v": "orthogonal polynomial",
    "shifted_chebyshev_polynomial_w": "orthogonal polynomial",
    "hermite_polynomial_h": "orthogonal polynomial",
    "hermite_polynomial_he": "orthogonal polynomial",
    "laguerre_polynomial_l": "orthogonal polynomial",
    "legendre_polynomial_p": "orthogonal polynomial",
}


def __getattr__(name: str):
    if name in _MISSING:
        raise AttributeError(
            f"torch.special.{name} is not available in fgrad.torch yet: fgrad has no "
            f"{_MISSING[name]} primitive (see docs/torch-breadth.md)"
        )
    raise AttributeError(f"module 'fgrad.torch.special' has no attribute {name!r}")
