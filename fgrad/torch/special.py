"""``torch.special``: the special functions fgrad's primitives express (erf family, normal
distribution functions, entropy terms, softmax family), each written once with shim ops so
gradients, devices and dtypes follow.

The gamma family (``gammaln``, ``digamma``/``psi``, ``polygamma``, ``multigammaln``,
``gammainc``/``gammaincc``, ``zeta``), the modified Bessel functions ``i0``/``i0e``/``i1``/``i1e``,
``erfcx`` and ``bessel_j0``/``bessel_j1`` sit on the primitives of `fgrad.ops.special_functions`
and `fgrad.ops.special_more`, with PyTorch's values where they differ from SciPy's at the
edges (probed from torch 2.13 and stored in ``tests/stored/torch_special_edges.json``):
``gammaln(-inf) = inf``; ``polygamma(1, x)`` is PyTorch's trigamma series (huge finite values
at the negative integers, NaN at -inf); ``zeta(s, inf)`` and ``polygamma(n >= 2, inf)`` are
NaN.  ``bessel_j0``/``bessel_j1`` are not differentiable, as in PyTorch.  The ``torch.lgamma``,
``digamma``, ``polygamma``, ``mvlgamma``, ``i0``, ``igamma``, ``igammac`` functions and their
Tensor methods are these same definitions (`export_top_level`).

Still missing: ``bessel_y0``/``bessel_y1``, ``modified_bessel_*``, ``airy_ai`` and the
orthogonal polynomials; using one raises an AttributeError that says so.

Example::

    >>> import fgrad.torch as torch
    >>> torch.special.ndtr(torch.tensor([0.0, 1.0]))
    tensor([0.5000, 0.8413])
"""

from __future__ import annotations

import math
import re

import numpy as np

import fgrad.numpy as fnp
import fgrad.torch as torch
from fgrad.ops import special_functions as _sf
from fgrad.ops import bessel_polynomials as _bp
from fgrad.ops import special_more as _sm
from fgrad.numpy._windows import bessel_i0 as _i0_definition, bessel_i1 as _i1_definition  # one rule each
from fgrad.transforms.custom import custom_jvp

from ._dispatch import apply_op
import fgrad.torch._conventions as _conv
from ._dispatch import write_out as _write_out
from ._tensor import Tensor
import fgrad.torch.types as types

__all__ = [
    "bessel_j0",
    "bessel_j1",
    "digamma",
    "erfcx",
    "gammainc",
    "gammaincc",
    "gammaln",
    "i0",
    "i0e",
    "i1",
    "i1e",
    "modified_bessel_i0",
    "modified_bessel_i1",
    "multigammaln",
    "polygamma",
    "psi",
    "zeta",
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
    "airy_ai",
    "bessel_y0",
    "bessel_y1",
    "modified_bessel_k0",
    "modified_bessel_k1",
    "scaled_modified_bessel_k0",
    "scaled_modified_bessel_k1",
    "chebyshev_polynomial_t",
    "chebyshev_polynomial_u",
    "chebyshev_polynomial_v",
    "chebyshev_polynomial_w",
    "shifted_chebyshev_polynomial_t",
    "shifted_chebyshev_polynomial_u",
    "shifted_chebyshev_polynomial_v",
    "shifted_chebyshev_polynomial_w",
    "hermite_polynomial_h",
    "hermite_polynomial_he",
    "laguerre_polynomial_l",
    "legendre_polynomial_p",
]

_SQRT_HALF = math.sqrt(0.5)


def _float(x) -> Tensor:
    """``x`` as a floating tensor (integers and bools promote to the default dtype)."""
    if not isinstance(x, Tensor):
        x = torch.tensor(x)
    return x if x.is_floating_point() or x.is_complex() else x.to(torch.get_default_dtype())


def erf(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The error function. Example: ``torch.special.erf(torch.tensor([0.0]))`` -> ``tensor([0.])``."""
    return torch.erf(input, out=out)


def erfc(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """``1 - erf(x)``, accurate for large x. Example: ``torch.special.erfc(torch.tensor([0.0]))``
    -> ``tensor([1.])``."""
    return torch.erfc(input, out=out)


def erfinv(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The inverse error function on (-1, 1). Example: ``torch.special.erfinv(torch.tensor([0.0]))``
    -> ``tensor([0.])``."""
    return torch.erfinv(input, out=out)


def expit(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The logistic sigmoid ``1 / (1 + exp(-x))``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.expit(torch.tensor([0.0]))
        tensor([0.5000])
    """
    return torch.sigmoid(input, out=out)


def logit(input: Tensor, eps: float | None = None, *, out: Tensor | None = None) -> Tensor:
    """``log(p / (1 - p))``, with ``p`` clamped to [eps, 1 - eps] when ``eps`` is given."""
    return torch.logit(input, eps, out=out)


def exp2(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """``2 ** x``."""
    return torch.exp2(input, out=out)


def expm1(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """``exp(x) - 1``, accurate near 0."""
    return torch.expm1(input, out=out)


def log1p(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """``log(1 + x)``, accurate near 0."""
    return torch.log1p(input, out=out)


def round(input: Tensor, *, decimals: int = 0, out: Tensor | None = None) -> Tensor:  # noqa: A001
    """Round half to even (to ``decimals`` places); integer and bool tensors are refused as by
    PyTorch's ``special_round`` (``torch.round`` takes them)."""
    if isinstance(input, Tensor) and not (input.is_floating_point() or input.is_complex()):
        raise NotImplementedError(f"\"round_vml_cpu\" not implemented for '{input.dtype._legacy}'")
    return torch.round(input, decimals=decimals, out=out)


def sinc(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The normalised sinc ``sin(pi x) / (pi x)`` (1 at 0)."""
    return torch.sinc(input, out=out)


def logsumexp(input: Tensor, dim: int, keepdim: bool = False, *, out: Tensor | None = None) -> Tensor:
    """``log(sum(exp(x)))`` over ``dim``, without overflow."""
    return torch.logsumexp(input, dim, keepdim, out=out)


def softmax(input: Tensor, dim: int, *, dtype: types.DType | None = None) -> Tensor:
    """``exp(x) / sum(exp(x))`` along ``dim``."""
    return torch.softmax(input, dim, dtype=dtype)


def log_softmax(input: Tensor, dim: int, *, dtype: types.DType | None = None) -> Tensor:
    """``x - logsumexp(x)`` along ``dim``."""
    return torch.log_softmax(input, dim, dtype=dtype)


def xlogy(input: types.TensorOrScalar, other: types.TensorOrScalar, *, out: Tensor | None = None) -> Tensor:
    """``x * log(y)``, 0 where ``x == 0`` (unless y is NaN)."""
    return torch.xlogy(input, other, out=out)


def _nan_passthrough(x: Tensor) -> Tensor:
    """``x`` with a NaN gradient where ``x`` is NaN (a plain ``where(isnan(x), x, ...)`` would
    give gradient 1 there).  The factor is NaN only at NaN: ``x * 0 + 1`` was NaN at ±inf too,
    which made the gradient NaN at ±inf through the branch not taken (``log_ndtr(inf)``)."""
    d = x.detach()
    return x * torch.where(torch.isnan(d), d, torch.ones_like(d))


def _aten_name(backward: str) -> str:
    """ATen's op name from its backward node's (``SpecialErfcxBackward0`` -> ``special_erfcx``)."""
    return re.sub(r"(?<=[a-z])(?=[A-Z])", "_", backward.removesuffix("Backward0")).lower()


def _op_name(definition) -> str:
    """``special_<name>`` of a module-level ``_<name>_definition``: the op's name in errors."""
    return "special_" + definition.__name__.strip("_").removesuffix("_definition")


def _finish(name: str, result: Tensor, out, composite: bool = False) -> Tensor:
    """``out=`` as PyTorch's (`_dispatch.write_out`: resize warning, dtype check, and no
    autograd unless PyTorch's op is a composite that ends in ``copy_``).  ``name``: ATen's."""
    return result if out is None else _write_out(out, result, name, composite=composite)


def xlog1py(input: types.TensorOrScalar, other: types.TensorOrScalar, *, out: Tensor | None = None) -> Tensor:
    """``x * log1p(y)``, 0 where ``x == 0`` (unless y is NaN); either may be a number.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.xlog1py(torch.tensor([0.0, 2.0]), torch.tensor([-1.0, 0.0]))
        tensor([0., 0.])
    """
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise TypeError("xlog1py(): at least one of input and other must be a Tensor")
    x, y = _pair(input, other, "xlog1py")  # (PyTorch's result type: float32 with a 0-d float64 is float32)
    x, y = torch.broadcast_tensors(x, y) if x.shape != y.shape else (x, y)  # (RuntimeError as PyTorch's)
    # 0 where x == 0 (a NaN y stays NaN), PyTorch's derivatives there (_conventions.xlog1py)
    node = "SpecialXlog1PyBackward" + ("0" if isinstance(input, Tensor) and isinstance(other, Tensor)
                                       else "1" if isinstance(other, Tensor) else "2")
    res = apply_op(node, ("xlog1py", np.dtype(x.dtype.np)), _conv.xlog1py, (x, y), edges=(0, 1))
    return _finish("special_xlog1py", res, out)


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


def entr(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The elementwise entropy term ``-x log x`` (0 at 0, -inf for x < 0, NaN for NaN), with
    PyTorch's derivative ``-(1 + log x)`` everywhere (inf at 0, NaN for x < 0).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.entr(torch.tensor([0.0, 1.0, -1.0]))
        tensor([0., -0., -inf])
    """
    x = _float(input)
    return _finish(
        "special_entr", apply_op("SpecialEntrBackward0", ("special_entr",), _entr_definition, (x,)), out)


def ndtr(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The standard normal CDF ``(1 + erf(x / sqrt 2)) / 2``, computed as
    ``erfc(-x / sqrt 2) / 2`` (accurate in the lower tail).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.ndtr(torch.tensor([-1.0, 0.0]))
        tensor([0.1587, 0.5000])
    """
    x = _float(input)
    return _finish("special_ndtr", 0.5 * torch.erfc(-x * _SQRT_HALF), out, composite=True)


def _ndtri_definition(p):
    return _sf.ndtri(p)


def ndtri(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The inverse of `ndtr` (the ``ndtri`` primitive: SciPy's/Cephes' rational
    approximations, as PyTorch); -inf at 0, inf at 1, NaN outside [0, 1]; derivative
    ``sqrt(2 pi) exp(x^2 / 2)``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.ndtri(torch.tensor([0.5, 0.975]))
        tensor([0.0000, 1.9600])
    """
    return _unary("SpecialNdtriBackward0", _ndtri_definition, input, out)


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


def log_ndtr(input: Tensor, *, out: Tensor | None = None) -> Tensor:
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
    return _finish(
        "special_log_ndtr", torch.where(torch.isnan(x), _nan_passthrough(x), value).to(x0.dtype), out)


def spherical_bessel_j0(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """``sin(x) / x`` (1 at 0).  As in PyTorch it has no derivative: the result never
    requires grad.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.spherical_bessel_j0(torch.tensor([0.0]))
        tensor([1.])
    """
    x = _float(input).detach()
    small = x.abs() < 1e-4
    infinite = torch.isinf(x)
    safe = torch.where(small | infinite, torch.ones_like(x), x)
    series = 1.0 - x * x / 6.0  # the Taylor polynomial where sin(x)/x loses digits
    value = torch.where(small, series, torch.sin(safe) / safe)
    result = torch.where(infinite, torch.zeros_like(x), value)  # PyTorch: 0 at +-inf
    return _finish("special_spherical_bessel_j0", result, out)


# -- the gamma family, Bessel functions, erfcx --------------------------------------------


def _unary(name: str, fn, input, out) -> Tensor:
    """Apply the fgrad definition ``fn`` (module level: the backward-program cache key) to
    ``input`` as a float tensor, recorded as ``name``."""
    return _finish(_aten_name(name), apply_op(name, (fn.__name__,), fn, (_float(input),)), out)


def _pair(input, other, op: str) -> tuple:
    """Both operands as tensors of their promoted floating dtype (a number takes the
    tensor's dtype, as PyTorch's wrapped scalars; a 0-d tensor promotes only by category:
    float32 with a 0-d float64 is float32, as PyTorch's ``result_type``).  ``igamma``/``igammac``
    of an integer result type raise PyTorch's NotImplementedError."""
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise TypeError(f"{op}(): at least one of input and other must be a Tensor")
    if not isinstance(input, Tensor):
        dtype = other.dtype if other.is_floating_point() else torch.get_default_dtype()
        input = torch.tensor(input, dtype=dtype)
    if not isinstance(other, Tensor):
        dtype = input.dtype if input.is_floating_point() else torch.get_default_dtype()
        other = torch.tensor(other, dtype=dtype)
    dtype = torch.result_type(input, other)
    kernel = _REAL_KERNELS.get(op)
    integer = not (dtype.is_floating_point or dtype.is_complex)
    if kernel is not None and (dtype.is_complex or (kernel.startswith("igamma") and integer)):
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{dtype._legacy}'")
    if not (dtype.is_floating_point or dtype.is_complex):
        dtype = torch.get_default_dtype()
    return input.to(dtype), other.to(dtype)


# PyTorch's kernels of the real binary special functions: no complex (and igamma no integer) result
_REAL_KERNELS = {"gammainc": "igamma_cpu", "gammaincc": "igammac_cpu", "zeta": "zeta_cpu",
                 "xlog1py": "xlog1py_cpu"}


def _lgamma_definition(x):
    y = _sf.lgamma(x)
    return fnp.where(x == -math.inf, -y, y)  # PyTorch: lgamma(-inf) = +inf (SciPy: -inf)


def gammaln(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """``log|Gamma(x)|`` (``inf`` at the poles and at ``-inf``, as PyTorch).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.gammaln(torch.tensor([1.0, 0.5]))
        tensor([0.0000, 0.5724])
    """
    return _unary("LgammaBackward0", _lgamma_definition, input, out)




@custom_jvp
def _trigamma(x):
    # PyTorch's trigamma series, term for term (the reflection for x < 1/2, six recurrence
    # steps, then the asymptotic expansion), so the edge values are PyTorch's: huge finite
    # values at the negative integers, where sin(pi x) rounds to ~1e-16, and NaN at -inf
    reflect = x < 0.5
    s = fnp.sin(math.pi * x)
    result = fnp.where(reflect, -(math.pi ** 2) / (s * s), fnp.zeros_like(x))
    z = fnp.where(reflect, 1.0 - x, x)
    for _ in range(6):
        result = result + 1.0 / (z * z)
        z = z + 1.0
    ixx = 1.0 / (z * z)
    series = 1.0 + 1.0 / (2.0 * z) + ixx * (1.0 / 6.0 - ixx * (1.0 / 30.0 - ixx * (1.0 / 42.0)))
    result = result + series / z
    return fnp.where(reflect, -result, result)


@_trigamma.defjvp
def _trigamma_jvp(primals, tangents):
    (x,), (dx,) = primals, tangents
    return _trigamma(x), _polygamma_high(2, x) * dx


def _polygamma_high(n: int, x):
    """polygamma(n >= 2, x) with PyTorch's NaN at +inf (its zeta(s, inf) is NaN)."""
    y = _sf.polygamma(fnp.full_like(x, float(n)), x)
    return fnp.where(x == math.inf, fnp.full_like(x, math.nan), y)


@custom_jvp
def _digamma_definition(x):
    return _sf.digamma(x)


@_digamma_definition.defjvp
def _digamma_jvp(primals, tangents):
    # PyTorch differentiates digamma with its trigamma series (accurate to ~1e-10 relative
    # at moderate x), not with polygamma(1, .) = zeta(2, .): use the same series
    (x,), (dx,) = primals, tangents
    return _digamma_definition(x), _trigamma(x) * dx


def digamma(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The logarithmic derivative of Gamma (``-inf`` at 0, ``inf`` at -0, NaN at the negative
    integers).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.digamma(torch.tensor([1.0]))
        tensor([-0.5772])
    """
    return _unary("DigammaBackward0", _digamma_definition, input, out)


psi = digamma


def _polygamma_definition(n: int):
    if n == 0:
        return _digamma_definition
    if n == 1:
        return _trigamma
    return lambda x: _polygamma_high(n, x)


def polygamma(n: int, input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The ``n``-th derivative of digamma (``n = 0``: digamma itself).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.polygamma(1, torch.tensor([1.0]))
        tensor([1.6449])
    """
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"polygamma(): argument 'n' (position 1) must be int, not {type(n).__name__}")
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    fn = _polygamma_definition(n)
    return _finish(
        "polygamma", apply_op("PolygammaBackward0", ("polygamma", n), fn, (_float(input),)), out)


def multigammaln(input: Tensor, p: int, *, out: Tensor | None = None) -> Tensor:
    """The multivariate log-gamma ``sum_i lgamma(x - i/2) + p (p-1)/4 log(pi)``, i < p.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.multigammaln(torch.tensor([2.0]), 1)
        tensor([0.])
    """
    if isinstance(p, bool) or not isinstance(p, int):
        raise TypeError(f"multigammaln(): argument 'p' (position 2) must be int, not {type(p).__name__}")
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    offsets = np.arange(-p * 0.5 + 0.5, 0.5, 0.5)
    const = p * (p - 1) / 4.0 * math.log(math.pi)

    def fn(x):
        args = x[..., None] + fnp.asarray(offsets, dtype=x.dtype)
        return fnp.sum(_lgamma_definition(args), axis=-1) + const

    return _finish(
        "mvlgamma", apply_op("MvlgammaBackward0", ("multigammaln", p), fn, (_float(input),)), out)


def _i0e_definition(x):
    return _sf.bessel_i0e(x)


def _i1e_definition(x):
    return _sf.bessel_i1e(x)


def i0(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The modified Bessel function of the first kind, order 0 (NaN at +-inf, as PyTorch).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.i0(torch.tensor([0.0]))
        tensor([1.])
    """
    return _unary("I0Backward0", _i0_definition, input, out)


def i0e(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """``exp(-|x|) i0(x)``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.i0e(torch.tensor([0.0]))
        tensor([1.])
    """
    return _unary("SpecialI0EBackward0", _i0e_definition, input, out)


def i1(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The modified Bessel function of the first kind, order 1.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.i1(torch.tensor([0.0]))
        tensor([0.])
    """
    return _unary("SpecialI1Backward0", _i1_definition, input, out)


def i1e(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """``exp(-|x|) i1(x)``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.i1e(torch.tensor([0.0]))
        tensor([0.])
    """
    return _unary("SpecialI1EBackward0", _i1e_definition, input, out)


def _erfcx_definition(x):
    return _sm.erfcx(x)


def erfcx(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """``exp(x^2) erfc(x)``, without overflow for large ``x``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.erfcx(torch.tensor([0.0]))
        tensor([1.])
    """
    return _unary("SpecialErfcxBackward0", _erfcx_definition, input, out)


def _not_differentiable(fn, input, out, *more) -> Tensor:
    """``fn`` of ``input`` (and ``more`` operands, already tensors) as a float tensor, recorded
    without a derivative: PyTorch defines none for these, so the result never requires grad."""
    args = (_float(input).detach(), *(m.detach() for m in more))
    return _finish(_op_name(fn), apply_op("", (fn.__name__,), fn, args), out)


def _j0_definition(x):
    return _sm.bessel_j0(x)


def _j1_definition(x):
    return _sm.bessel_j1(x)


def bessel_j0(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The Bessel function of the first kind, order 0 (not differentiable, as in PyTorch).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.bessel_j0(torch.tensor([0.0]))
        tensor([1.])
    """
    return _not_differentiable(_j0_definition, input, out)


def bessel_j1(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The Bessel function of the first kind, order 1 (not differentiable, as in PyTorch).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.bessel_j1(torch.tensor([0.0]))
        tensor([0.])
    """
    return _not_differentiable(_j1_definition, input, out)


def modified_bessel_i0(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """``i0`` without a derivative (PyTorch's ``modified_bessel_i0`` has none).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.modified_bessel_i0(torch.tensor([0.0]))
        tensor([1.])
    """
    return _not_differentiable(_i0_definition, input, out)


def modified_bessel_i1(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """``i1`` without a derivative (PyTorch's ``modified_bessel_i1`` has none).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.modified_bessel_i1(torch.tensor([0.0]))
        tensor([0.])
    """
    return _not_differentiable(_i1_definition, input, out)


def _check_tensors(op: str, input, other, method: bool = False) -> None:
    """PyTorch's ``TypeError`` for a non-Tensor operand of ``op`` (a method counts ``other`` as
    position 1)."""
    operands = (("other", other),) if method else (("input", input), ("other", other))
    for pos, (name, v) in enumerate(operands, 1):
        if not isinstance(v, Tensor):
            raise TypeError(f"{op}(): argument '{name}' (position {pos}) must be Tensor, not "
                            f"{type(v).__name__}")


class _UndefinedDerivative(torch.autograd.Function):
    """Identity on ``y`` that raises PyTorch's error in the backward pass when ``arg`` needs a
    gradient (PyTorch defines no derivative of ``igamma`` in ``a`` nor of ``zeta`` in ``s``:
    the forward runs, the backward raises)."""

    @staticmethod
    def forward(ctx, y, arg, message):
        ctx.message = message
        return y.view_as(y)

    @staticmethod
    def backward(ctx, grad):
        if ctx.needs_input_grad[1]:
            raise NotImplementedError(ctx.message)
        return grad, None, None


def _with_undefined_derivative(name: str, key, fn, first: Tensor, second: Tensor, message: str) -> Tensor:
    """``fn(first, second)`` differentiable in ``second``; a gradient for ``first`` raises."""
    if not first.requires_grad:
        return apply_op(name, key, fn, (first, second))
    y = apply_op(name, key, fn, (first.detach(), second))
    return _UndefinedDerivative.apply(y, first, message)


def _igamma_definition(a, x):
    return _sf.igamma(a, x)


def _igammac_definition(a, x):
    return _sf.igammac(a, x)


def gammainc(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The regularized lower incomplete gamma function ``P(a, x)``; differentiable in ``x``
    only (as PyTorch).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.gammainc(torch.tensor([1.0]), torch.tensor([0.0]))
        tensor([0.])
    """
    return _incomplete_gamma("igamma", "special_gammainc", input, other, out)


def gammaincc(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The regularized upper incomplete gamma function ``Q(a, x) = 1 - P(a, x)``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.gammaincc(torch.tensor([1.0]), torch.tensor([0.0]))
        tensor([1.])
    """
    return _incomplete_gamma("igammac", "special_gammaincc", input, other, out)


def _incomplete_gamma(kind: str, op: str, input, other, out, method: bool = False) -> Tensor:
    """``igamma``/``igammac`` (``kind``) called as ``op`` (the name PyTorch's errors give:
    ``special_gammainc``, ``igamma``, the method ``igamma``)."""
    _check_tensors(op, input, other, method)
    a, x = _pair(input, other, {"igamma": "gammainc", "igammac": "gammaincc"}[kind])
    definition = _igamma_definition if kind == "igamma" else _igammac_definition
    result = _with_undefined_derivative(f"{kind.capitalize()}Backward0", (kind,), definition, a, x,
                                        f"the derivative for '{kind}: input' is not implemented.")
    return _finish(kind, result, out)


def _igamma(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """``torch.igamma``: `gammainc` under PyTorch's name (its errors say ``igamma()``).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.igamma(torch.tensor([1.0]), torch.tensor([2.0]))
        tensor([0.8647])
    """
    return _incomplete_gamma("igamma", "igamma", input, other, out)


def _igammac(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """``torch.igammac``: `gammaincc` under PyTorch's name (its errors say ``igammac()``).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.igammac(torch.tensor([1.0]), torch.tensor([2.0]))
        tensor([0.1353])
    """
    return _incomplete_gamma("igammac", "igammac", input, other, out)


def _igamma_method(self: Tensor, other: Tensor) -> Tensor:
    """``Tensor.igamma``: the regularized lower incomplete gamma function of ``self`` and ``other``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.tensor([1.0]).igamma(torch.tensor([2.0]))
        tensor([0.8647])
    """
    return _incomplete_gamma("igamma", "igamma", self, other, None, method=True)


def _igammac_method(self: Tensor, other: Tensor) -> Tensor:
    """``Tensor.igammac``: the regularized upper incomplete gamma function of ``self`` and ``other``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.tensor([1.0]).igammac(torch.tensor([2.0]))
        tensor([0.1353])
    """
    return _incomplete_gamma("igammac", "igammac", self, other, None, method=True)


def _zeta_definition(s, q):
    y = _sf.zeta(s, q)
    return fnp.where(q == math.inf, fnp.full_like(y, math.nan), y)  # PyTorch: NaN (SciPy: 0)


def zeta(input: types.TensorOrScalar, other: types.TensorOrScalar, *, out: Tensor | None = None) -> Tensor:
    """The Hurwitz zeta function ``sum_k (k + q)^-s`` (either argument may be a number);
    differentiable in ``q`` only (as PyTorch).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.zeta(torch.tensor([2.0]), 1.0)
        tensor([1.6449])
    """
    s, q = _pair(input, other, "zeta")
    result = _with_undefined_derivative("SpecialZetaBackward0", ("zeta",), _zeta_definition, s, q,
                                        "the derivative for 'zeta' is not implemented.")
    return _finish("special_zeta", result, out)


def _mvlgamma(input: Tensor, p: int, *, out: Tensor | None = None) -> Tensor:
    return multigammaln(input, p, out=out)


def _mvlgamma_method(self: Tensor, p: int) -> Tensor:
    return multigammaln(self, p)


def _polygamma_method(self: Tensor, n: int) -> Tensor:
    return polygamma(n, self)


def export_top_level(namespace: dict) -> None:
    """Bind PyTorch's top-level names for these functions (``torch.lgamma``, ``torch.i0``,
    ``torch.mvlgamma``, ...) into ``namespace`` and their Tensor methods onto `Tensor`.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.lgamma is torch.special.gammaln
        False
    """
    functions = {
        "lgamma": gammaln, "digamma": digamma, "i0": i0, "igamma": _igamma, "igammac": _igammac,
        "polygamma": polygamma, "mvlgamma": _mvlgamma,
    }
    for name, fn in functions.items():
        namespace.setdefault(name, fn)
    methods = {
        "lgamma": gammaln, "digamma": digamma, "i0": i0, "igamma": _igamma_method, "igammac": _igammac_method,
        "polygamma": _polygamma_method, "mvlgamma": _mvlgamma_method,
    }
    for name, fn in methods.items():
        if not hasattr(Tensor, name):
            setattr(Tensor, name, fn)


# -- Bessel functions of the second kind, modified K, Airy, orthogonal polynomials ----------
# (no derivative in PyTorch: the results never require grad; values: fgrad.ops.bessel_polynomials)

_BP_DEFINITIONS: dict = {}


def _bp_definition(op: str):
    """The module-level fgrad definition of ``op`` (one per op: the forward-program cache key)."""
    if op not in _BP_DEFINITIONS:
        if op in _bp.POLYNOMIALS:
            def definition(x, n):
                return _bp.polynomial(op, x, n)
        elif op == "airy_ai":
            def definition(x):
                return _bp.airy_ai(x)
        else:
            def definition(x):
                return _bp.bessel(op, x)
        definition.__name__ = f"_{op}_definition"
        _BP_DEFINITIONS[op] = definition
    return _BP_DEFINITIONS[op]


def _bp_unary(op: str, input, out) -> Tensor:
    return _not_differentiable(_bp_definition(op), input, out)


def _bp_polynomial(op: str, input, n, out) -> Tensor:
    x, k = _pair(input, n, f"special_{op}")
    return _not_differentiable(_bp_definition(op), x, out, k)


def airy_ai(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Airy's function ``Ai(x)`` (SciPy's values; PyTorch's are up to ~1.2e-6 off for x in [-2.5, -2]).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.airy_ai(torch.tensor([0.0]))
        tensor([0.3550])
    """
    return _bp_unary("airy_ai", input, out)


def bessel_y0(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The Bessel function of the second kind, order 0 (NaN for x < 0, -inf at 0).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.bessel_y0(torch.tensor([1.0]))
        tensor([0.0883])
    """
    return _bp_unary("bessel_y0", input, out)


def bessel_y1(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The Bessel function of the second kind, order 1.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.bessel_y1(torch.tensor([1.0]))
        tensor([-0.7812])
    """
    return _bp_unary("bessel_y1", input, out)


def modified_bessel_k0(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The modified Bessel function of the second kind, order 0.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.modified_bessel_k0(torch.tensor([1.0]))
        tensor([0.4210])
    """
    return _bp_unary("modified_bessel_k0", input, out)


def modified_bessel_k1(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The modified Bessel function of the second kind, order 1.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.modified_bessel_k1(torch.tensor([1.0]))
        tensor([0.6019])
    """
    return _bp_unary("modified_bessel_k1", input, out)


def scaled_modified_bessel_k0(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """``exp(x) K0(x)``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.scaled_modified_bessel_k0(torch.tensor([1.0]))
        tensor([1.1445])
    """
    return _bp_unary("scaled_modified_bessel_k0", input, out)


def scaled_modified_bessel_k1(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """``exp(x) K1(x)``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.scaled_modified_bessel_k1(torch.tensor([1.0]))
        tensor([1.6362])
    """
    return _bp_unary("scaled_modified_bessel_k1", input, out)


def chebyshev_polynomial_t(input: types.TensorOrScalar, n: types.TensorOrScalar, *,
                           out: Tensor | None = None) -> Tensor:
    """The Chebyshev polynomial of the first kind ``T_n(x)`` (``n`` truncated to an integer;
    0 for ``n < 0``, as PyTorch).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.chebyshev_polynomial_t(torch.tensor([0.5]), 2)
        tensor([-0.5000])
    """
    return _bp_polynomial("chebyshev_polynomial_t", input, n, out)


def chebyshev_polynomial_u(input: types.TensorOrScalar, n: types.TensorOrScalar, *,
                           out: Tensor | None = None) -> Tensor:
    """The Chebyshev polynomial of the second kind ``U_n(x)``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.chebyshev_polynomial_u(torch.tensor([0.5]), 2)
        tensor([0.])
    """
    return _bp_polynomial("chebyshev_polynomial_u", input, n, out)


def chebyshev_polynomial_v(input: types.TensorOrScalar, n: types.TensorOrScalar, *,
                           out: Tensor | None = None) -> Tensor:
    """The Chebyshev polynomial of the third kind ``V_n(x) = U_n(x) - U_{n-1}(x)``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.chebyshev_polynomial_v(torch.tensor([0.5]), 2)
        tensor([-1.])
    """
    return _bp_polynomial("chebyshev_polynomial_v", input, n, out)


def chebyshev_polynomial_w(input: types.TensorOrScalar, n: types.TensorOrScalar, *,
                           out: Tensor | None = None) -> Tensor:
    """The Chebyshev polynomial of the fourth kind ``W_n(x) = U_n(x) + U_{n-1}(x)``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.chebyshev_polynomial_w(torch.tensor([0.5]), 2)
        tensor([1.])
    """
    return _bp_polynomial("chebyshev_polynomial_w", input, n, out)


def shifted_chebyshev_polynomial_t(input: types.TensorOrScalar, n: types.TensorOrScalar, *,
                                   out: Tensor | None = None) -> Tensor:
    """``T_n(2x - 1)``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.shifted_chebyshev_polynomial_t(torch.tensor([0.25]), 2)
        tensor([-0.5000])
    """
    return _bp_polynomial("shifted_chebyshev_polynomial_t", input, n, out)


def shifted_chebyshev_polynomial_u(input: types.TensorOrScalar, n: types.TensorOrScalar, *,
                                   out: Tensor | None = None) -> Tensor:
    """``U_n(2x - 1)``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.shifted_chebyshev_polynomial_u(torch.tensor([1.0]), 2)
        tensor([3.])
    """
    return _bp_polynomial("shifted_chebyshev_polynomial_u", input, n, out)


def shifted_chebyshev_polynomial_v(input: types.TensorOrScalar, n: types.TensorOrScalar, *,
                                   out: Tensor | None = None) -> Tensor:
    """``V_n(2x - 1)``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.shifted_chebyshev_polynomial_v(torch.tensor([1.0]), 2)
        tensor([1.])
    """
    return _bp_polynomial("shifted_chebyshev_polynomial_v", input, n, out)


def shifted_chebyshev_polynomial_w(input: types.TensorOrScalar, n: types.TensorOrScalar, *,
                                   out: Tensor | None = None) -> Tensor:
    """``W_n(2x - 1)``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.shifted_chebyshev_polynomial_w(torch.tensor([1.0]), 2)
        tensor([5.])
    """
    return _bp_polynomial("shifted_chebyshev_polynomial_w", input, n, out)


def hermite_polynomial_h(input: types.TensorOrScalar, n: types.TensorOrScalar, *,
                         out: Tensor | None = None) -> Tensor:
    """The physicists' Hermite polynomial ``H_n(x)``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.hermite_polynomial_h(torch.tensor([1.0]), 2)
        tensor([2.])
    """
    return _bp_polynomial("hermite_polynomial_h", input, n, out)


def hermite_polynomial_he(input: types.TensorOrScalar, n: types.TensorOrScalar, *,
                          out: Tensor | None = None) -> Tensor:
    """The probabilists' Hermite polynomial ``He_n(x)``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.hermite_polynomial_he(torch.tensor([1.0]), 2)
        tensor([0.])
    """
    return _bp_polynomial("hermite_polynomial_he", input, n, out)


def laguerre_polynomial_l(input: types.TensorOrScalar, n: types.TensorOrScalar, *,
                          out: Tensor | None = None) -> Tensor:
    """The Laguerre polynomial ``L_n(x)``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.laguerre_polynomial_l(torch.tensor([1.0]), 2)
        tensor([-0.5000])
    """
    return _bp_polynomial("laguerre_polynomial_l", input, n, out)


def legendre_polynomial_p(input: types.TensorOrScalar, n: types.TensorOrScalar, *,
                          out: Tensor | None = None) -> Tensor:
    """The Legendre polynomial ``P_n(x)``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.special.legendre_polynomial_p(torch.tensor([0.5]), 2)
        tensor([-0.1250])
    """
    return _bp_polynomial("legendre_polynomial_p", input, n, out)
