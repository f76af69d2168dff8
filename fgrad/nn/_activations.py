"""Activation functions, softmax/logsumexp and friends of `fgrad.nn` (like `jax.nn`).

All are composites of `fgrad.numpy` / `fgrad.ops`, so they differentiate (to any order),
vectorize and stage like everything else.  Conventions follow JAX: ``relu`` has derivative
0 at 0; ``gelu`` uses the tanh approximation unless ``approximate=False``; ``softmax``,
``log_softmax`` and ``logsumexp`` subtract a ``stop_gradient``-ed maximum for stability.

Example::

    >>> import fgrad, fgrad.nn as nn, fgrad.numpy as fnp
    >>> nn.softmax(fnp.asarray([1000.0, 1000.0]))
    Array([0.5, 0.5], dtype=float64)
    >>> fgrad.grad(nn.relu)(0.0)
    Array(0., dtype=float64, weak_type=True)
"""

from __future__ import annotations

from ..ops.lax_dtypes import check_lax_dtypes
from ..typing import Array, ArrayLike, Axis, DTypeLike, Inexact, Shaped

import math

import numpy as np
from ..core.narrow_floats import dtype_kind as _dtype_kind

from .. import numpy as fnp
from ..core.array import ArrayImpl as _ArrayImpl
from ..core.array import Tracer as _Tracer
from ..core.array import get_aval as _get_aval
from ..ops import elementwise as _ew
from ..ops._util import normalize_axes as _normalize_axes
from ..ops._util import normalize_axis as _normalize_axis
from ..ops.special import erf as _erf
from ..ops.bits import stop_gradient as _stop_gradient
from ..ops.linalg import dot_general as _dot_general
from ..core.quiet import quiet as _quiet
from ..ops.sorting import slice_axis as _slice_axis
from ..transforms.custom import custom_jvp as _custom_jvp
from ..transforms.jit import jit_when_staged as _jit_when_staged

__all__ = [  # the public names are re-exported by fgrad.nn

    "relu", "relu6", "leaky_relu", "elu", "celu", "selu", "gelu", "sigmoid", "log_sigmoid", "softplus",
    "soft_sign", "silu", "swish", "hard_tanh", "hard_sigmoid", "hard_silu", "hard_swish", "mish", "tanh",
    "glu", "softmax", "log_softmax", "logsumexp", "one_hot", "standardize",
]


def _arr(x):
    if isinstance(x, (_Tracer, _ArrayImpl)):
        return x
    return fnp.asarray(x)


def _inexact(x):
    """``x`` as an inexact array: bools and integers in JAX's inexact dtype (`core.inexact`;
    ``int8 -> float32``), as JAX's float-only activations promote their argument."""
    return _ew.promote_args_inexact(_arr(x))[0]


# ---------------------------------------------------------------------------------------
# activations


@_custom_jvp
@_jit_when_staged  # JAX's relu: a custom_jvp over a jit (both show in programs)
def relu(x: Shaped[ArrayLike, "*shape"]) -> Shaped[Array, "*shape"]:
    """``max(x, 0)``; its derivative at 0 is 0 (like JAX)."""
    return fnp.maximum(x, 0)


relu.defjvps(lambda g, ans, x: _ew.select(_ew.gt(x, 0), g, 0.0))


@_custom_jvp
def relu6(x: Shaped[ArrayLike, "*shape"]) -> Shaped[Array, "*shape"]:
    """``min(max(x, 0), 6)``; derivative 1 strictly inside (0, 6), else 0."""
    return fnp.minimum(fnp.maximum(x, 0), 6.0)


relu6.defjvps(lambda g, ans, x: _ew.select(_ew.logical_and(_ew.gt(x, 0), _ew.lt(x, 6.0)), g, 0.0))


def leaky_relu(x: Shaped[ArrayLike, "*shape"], negative_slope: ArrayLike = 0.01) -> Inexact[Array, "*shape"]:
    """``x`` for ``x >= 0``, ``negative_slope * x`` below."""
    x = _arr(x)
    return fnp.where(fnp.greater_equal(x, 0), x, fnp.multiply(negative_slope, x))


def elu(x: Shaped[ArrayLike, "*shape"], alpha: ArrayLike = 1.0) -> Inexact[Array, "*shape"]:
    """``x`` for ``x > 0``, ``alpha * (exp(x) - 1)`` below."""
    x = _arr(x)
    pos = fnp.greater(x, 0)
    safe = fnp.where(pos, 0.0, x)  # keeps expm1 from overflowing (and its gradient finite)
    return fnp.where(pos, x, fnp.multiply(alpha, fnp.expm1(safe)))


def celu(x: Shaped[ArrayLike, "*shape"], alpha: ArrayLike = 1.0) -> Inexact[Array, "*shape"]:
    """``max(x, 0) + alpha * expm1(min(x, 0) / alpha)``."""
    x = _arr(x)
    neg = fnp.expm1(fnp.divide(fnp.minimum(x, 0.0), alpha))
    return fnp.add(fnp.maximum(x, 0.0), fnp.multiply(alpha, neg))


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(x: Shaped[ArrayLike, "*shape"]) -> Inexact[Array, "*shape"]:
    """Scaled ELU with the self-normalizing constants."""
    return fnp.multiply(_SELU_SCALE, elu(x, _SELU_ALPHA))


def gelu(x: Shaped[ArrayLike, "*shape"], approximate: bool = True) -> Inexact[Array, "*shape"]:
    """Gaussian error linear unit: ``x * Phi(x)``; the tanh approximation by default (JAX),
    the exact form with `erf` for ``approximate=False``. The result is strongly typed (JAX's
    constants are NumPy scalars of ``x``'s dtype): ``gelu(0)`` is a strong float64, as in JAX.

    Example::

        >>> gelu(1.0)
        Array(0.84119199, dtype=float64)
    """
    x = _inexact(x)
    if _get_aval(x).weak_type:
        x = _ew.convert_element_type(x, _get_aval(x).dtype)
    if approximate:
        cube = fnp.multiply(x, fnp.square(x))
        inner = fnp.multiply(math.sqrt(2.0 / math.pi), fnp.add(x, fnp.multiply(0.044715, cube)))
        return fnp.multiply(x, fnp.multiply(0.5, fnp.add(1.0, fnp.tanh(inner))))
    return fnp.divide(fnp.multiply(x, fnp.add(_erf(fnp.multiply(x, 1.0 / math.sqrt(2.0))), 1.0)), 2.0)


def _gelu_erf_value(x, erf):
    cdf = fnp.multiply(0.5, fnp.add(1.0, erf(fnp.multiply(x, 1.0 / math.sqrt(2.0)))))
    return fnp.multiply(x, cdf), cdf


def _gelu_erf_jvp(primals, tangents, erf):
    """``d(x Phi(x)) = (Phi(x) + x phi(x)) dx`` and ``d Phi(x) = phi(x) dx`` with the density
    ``phi(x) = exp(-x^2 / 2) / sqrt(2 pi)`` evaluated directly: reverse mode is 7 elementwise
    passes reading the saved cdf (the chain rule through ``0.5 * (1 + erf(x / sqrt(2)))``
    took 11)."""
    (x,), (dx,) = primals, tangents
    y, cdf = _gelu_erf_value(x, erf)
    pdf = fnp.multiply(fnp.exp(fnp.multiply(fnp.multiply(x, x), -0.5)), 1.0 / math.sqrt(2.0 * math.pi))
    dcdf = fnp.multiply(pdf, dx)
    return (y, cdf), (fnp.add(fnp.multiply(cdf, dx), fnp.multiply(x, dcdf)), dcdf)


# 0.5 erfc(b / sqrt(2)) = phi(b) P(b) / Q(b) for b = |x| (the normal tail times its density:
# the Mills ratio), P monic of degree 4 and Q monic of degree 5, highest power first after the
# leading 1: a rational fitted to the float64 ``erfcx`` on [0, 14] with relative error 1.5e-8,
# every coefficient positive (no cancellation in Horner's rule).  ``P/Q -> 1/b`` as the Mills
# ratio does, so the tail keeps its relative accuracy; the constant of P is one float32 ulp
# below the fit so that ``phi(0) P(0)/Q(0)`` rounds to 1/2 exactly (GELU's slope at 0).
_MILLS_P = (9.396117846014848, 40.850947793256175, 94.70891943367536, 103.73478698730469)
_MILLS_Q = (9.396222760831517, 41.84624199313557, 104.19487207807495, 141.60648829006743,
            82.76838789412676)
_MILLS_DAMP = 1e-9


@_custom_jvp
def gelu_erf_float32_arithmetic(x: Shaped[ArrayLike, "*shape"]) -> tuple[Array, Array]:
    """``(x Phi(x), Phi(x) + x phi(x))`` for float32 ``x``: the exact GELU and its derivative,
    in float32 arithmetic (PyTorch's ``F.gelu`` of float32, whose kernel computes in float32
    too).  ``Phi`` is never formed by ``1 + erf``: with ``a = |x|`` and the tail
    ``h = 0.5 erfc(a / sqrt(2)) = phi(a) R(a)`` (``R`` a (4, 5) rational for the Mills ratio),
    the GELU is ``max(x, 0) - a h`` and the derivative ``Phi(x) + x phi(x)`` with ``Phi(x) =
    |[x >= 0] - h|`` (``1 - h`` for ``x >= 0``, ``h`` below): 35 elementwise passes with one
    ``exp``, within a few float32 ulp of the exact values (of ``x`` where ``Phi`` cancels),
    closer than PyTorch's kernel (which is within 1e-6). The derivative is returned so that a
    caller can save it: reverse mode is then one product.  Infinities give NaN, as in PyTorch.

    Example::

        >>> import numpy as np
        >>> from fgrad.nn._activations import gelu_erf_float32_arithmetic
        >>> y, dy = gelu_erf_float32_arithmetic(np.float32([-1.0, 0.0, 2.0]))
        >>> y  # (PyTorch 2.13: -0.15865526, 0, 1.9544997)
        Array([-0.15865526,  0.        ,  1.9544997 ], dtype=float32)
        >>> dy
        Array([-0.08331548,  0.5       ,  1.0852318 ], dtype=float32)
    """
    x = _arr(x)
    if x.dtype != np.float32:
        raise TypeError(f"gelu_erf_float32_arithmetic: float32 input expected, got {x.dtype}")
    # (elementwise ufuncs only, so that the host code generator fuses it into one blocked kernel)
    a = fnp.abs(x)
    # the rational's argument: |x| below 60 (1 + a 1e-9 rounds to 1), at most 1e9 above, where
    # phi(x) is 0 and only an overflow of the polynomials (inf / inf) would matter; inf: NaN
    b = fnp.divide(a, fnp.add(fnp.multiply(a, np.float32(_MILLS_DAMP)), np.float32(1.0)))
    polys = []
    for coeffs in (_MILLS_P, _MILLS_Q):  # Horner's rule, monic (positive coefficients)
        acc = fnp.add(b, np.float32(coeffs[0]))
        for k in coeffs[1:]:
            acc = fnp.add(fnp.multiply(acc, b), np.float32(k))
        polys.append(acc)
    r = fnp.divide(polys[0], polys[1])  # the Mills ratio (1 - Phi(a)) / phi(a)
    pdf = fnp.multiply(fnp.exp(fnp.multiply(fnp.multiply(x, x), np.float32(-0.5))),
                       np.float32(1.0 / math.sqrt(2.0 * math.pi)))
    step = fnp.greater_equal(x, np.float32(0.0)).astype(np.float32)  # 1 for x >= 0 (and -0.0)
    h = fnp.multiply(r, pdf)  # the tail 1 - Phi(a), at most 1/2
    y = fnp.subtract(fnp.multiply(x, step), fnp.multiply(a, h))  # (x (1 - h) rounds twice more)
    # the derivative Phi(x) + x phi(x), with Phi(x) = |step - h|: 1 - h for x >= 0, h below
    d = fnp.add(fnp.abs(fnp.subtract(step, h)), fnp.multiply(x, pdf))
    return y, d


def _gelu_erf_float32_jvp(primals, tangents):
    """``d(x Phi) = (Phi + x phi) dx`` (the saved second output) and ``d(Phi + x phi) =
    phi (2 - x^2) dx``; reverse mode with a cotangent for the GELU only is one product."""
    (x,), (dx,) = primals, tangents
    y, d = gelu_erf_float32_arithmetic(x)
    x2 = fnp.multiply(x, x)
    pdf = fnp.multiply(fnp.exp(fnp.multiply(x2, -0.5)), 1.0 / math.sqrt(2.0 * math.pi))
    return (y, d), (fnp.multiply(d, dx), fnp.multiply(fnp.multiply(pdf, fnp.subtract(2.0, x2)), dx))


gelu_erf_float32_arithmetic.defjvp(_gelu_erf_float32_jvp)


@_custom_jvp
def gelu_erf(x: Shaped[ArrayLike, "*shape"]) -> tuple[Array, Array]:
    """`gelu_erf_float32_arithmetic` with the correctly rounded `fgrad.lax.erf` (float64 and
    float16 inputs of PyTorch's ``F.gelu``).

    Example::

        >>> from fgrad.nn._activations import gelu_erf
        >>> y, cdf = gelu_erf(np.float64([0.0, 1.0]))
        >>> cdf
        Array([0.5       , 0.84134475], dtype=float64)
    """
    return _gelu_erf_value(_arr(x), _erf)


gelu_erf.defjvp(lambda primals, tangents: _gelu_erf_jvp(primals, tangents, _erf))


_logistic = _ew.jax_face_bind(_ew.logistic_p)  # XLA's algorithm (`fgrad.ops.xla_math`)


def sigmoid(x: Shaped[ArrayLike, "*shape"]) -> Inexact[Array, "*shape"]:
    """The logistic function ``1 / (1 + exp(-x))`` (numerically stable); as JAX's, it is
    ``lax.logistic`` and refuses integers and bools (Python ones too) with a TypeError.

    >>> import fgrad.nn as nn
    >>> nn.sigmoid(0.0)
    Array(0.5, dtype=float64, weak_type=True)
    """
    check_lax_dtypes("logistic", fnp.asarray(x) if isinstance(x, (bool, int)) else x)
    return _logistic(x)


def softplus(x: Shaped[ArrayLike, "*shape"]) -> Inexact[Array, "*shape"]:
    """``log(1 + exp(x))`` (stable for large ``|x|``)."""
    return fnp.logaddexp(x, 0)  # JAX's dtypes: bool meets the weak 0 as the default int


def log_sigmoid(x: Shaped[ArrayLike, "*shape"]) -> Inexact[Array, "*shape"]:
    """``log(sigmoid(x)) = -softplus(-x)``."""
    return fnp.negative(softplus(fnp.negative(_inexact(x))))


def soft_sign(x: Shaped[ArrayLike, "*shape"]) -> Inexact[Array, "*shape"]:
    """``x / (|x| + 1)``."""
    return fnp.divide(x, fnp.add(fnp.abs(x), 1))


def silu(x: Shaped[ArrayLike, "*shape"]) -> Inexact[Array, "*shape"]:
    """``x * sigmoid(x)`` (a.k.a. swish)."""
    return fnp.multiply(x, sigmoid(x))


swish = silu


def hard_tanh(x: Shaped[ArrayLike, "*shape"]) -> Shaped[Array, "*shape"]:
    """``x`` clipped to ``[-1, 1]``."""
    x = _arr(x)
    return fnp.where(fnp.greater(x, 1), 1, fnp.where(fnp.less(x, -1), -1, x))  # integers stay (JAX)


def hard_sigmoid(x: Shaped[ArrayLike, "*shape"]) -> Inexact[Array, "*shape"]:
    """``relu6(x + 3) / 6``."""
    return fnp.divide(relu6(fnp.add(x, 3.0)), 6.0)


def hard_silu(x: Shaped[ArrayLike, "*shape"]) -> Inexact[Array, "*shape"]:
    """``x * hard_sigmoid(x)``."""
    return fnp.multiply(x, hard_sigmoid(x))


hard_swish = hard_silu


def mish(x: Shaped[ArrayLike, "*shape"]) -> Inexact[Array, "*shape"]:
    """``x * tanh(softplus(x))``."""
    return fnp.multiply(x, fnp.tanh(softplus(x)))


def tanh(x: Shaped[ArrayLike, "*shape"]) -> Inexact[Array, "*shape"]:
    return fnp.tanh(x)


def glu(x: ArrayLike, axis: int = -1) -> Array:
    """Gated linear unit: split ``x`` in halves ``a, b`` along ``axis``; ``a * sigmoid(b)``."""
    x = _arr(x)
    nd = _get_aval(x).ndim
    axis = _normalize_axis(axis, nd, "glu")
    n = _get_aval(x).shape[axis]
    if n % 2:
        raise ValueError(f"glu: axis {axis} has odd size {n}; it must split in two halves")
    a = _slice_axis(x, axis, 0, n // 2)
    b = _slice_axis(x, axis, n // 2, n)
    return fnp.multiply(a, sigmoid(b))


# ---------------------------------------------------------------------------------------
# softmax family


def _red_axes(x, axis):
    nd = _get_aval(x).ndim
    return _normalize_axes(axis, nd, "reduction")


_ROW_SUM_MAX = 1024  # last axes up to this long are summed as a product with ones (`_sum_keep`)


def _sum_keep(v, axes: tuple):
    """``sum(v, axes, keepdims=True)``; a sum over the last axis only, of a float32/float64
    ``v`` whose rows are at most `_ROW_SUM_MAX` long, as ``v @ ones`` (one BLAS matrix-vector
    product, vectorised across rows: 4-8 times faster than NumPy's row-by-row reduction for
    rows of 32-128, the softmax and layer-norm rows of a transformer).  Its summation order is
    the BLAS kernel's (lane-wise partial sums, as PyTorch's vectorised reductions), not
    NumPy's pairwise one: the same accuracy, different last bits."""
    av = _get_aval(v)
    nd, dt = av.ndim, np.dtype(av.dtype)
    if (nd >= 1 and tuple(axes) == (nd - 1,) and dt in _ROW_SUM_DTYPES and 1 < av.shape[-1] <= _ROW_SUM_MAX):
        n = av.shape[-1]
        s = _quiet_row_dot(v, fnp.ones_like(v, shape=(n,)), (((nd - 1,), (0,)), ((), ())))
        return fnp.reshape(s, tuple(av.shape[:-1]) + (1,))
    return fnp.sum(v, axes, keepdims=True)


def _spread_last(s, like, axes: tuple):
    """``s`` (a keepdims row statistic of ``like`` over ``axes``) broadcast to ``like``'s shape,
    for a rule's tangent: over a short last axis (`_sum_keep`'s condition) as the product
    ``s @ ones((1, n))``, whose transpose -- the reduction reverse mode runs -- is `_sum_keep`'s
    matrix-vector product instead of NumPy's row-by-row ``add.reduce``; otherwise ``s``
    itself (the elementwise ops broadcast it)."""
    av = _get_aval(like)
    nd, dt = av.ndim, np.dtype(av.dtype)
    if (nd >= 1 and tuple(axes) == (nd - 1,) and dt in _ROW_SUM_DTYPES and 1 < av.shape[-1] <= _ROW_SUM_MAX
            and np.dtype(_get_aval(s).dtype) == dt):
        ones = fnp.ones_like(like, shape=(1, av.shape[-1]))  # on like's device (made there)
        return _quiet_row_dot(s, ones, (((nd - 1,), (0,)), ((), ())))
    return s


def _mean_keep(v, axes: tuple):
    """``mean(v, axes, keepdims=True)`` by `_sum_keep`."""
    av = _get_aval(v)
    return fnp.divide(_sum_keep(v, axes), float(math.prod(av.shape[a] for a in axes)))


_ROW_SUM_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))
# eager on the host the product runs at once: silent on inf - inf and overflow, as sums are
# (`core.quiet`); staged programs run with NumPy's error reports off already
_quiet_row_dot = _quiet(_dot_general)


def _masked(x, where, fill):
    return x if where is None else fnp.where(where, x, fill)


def _neg_inf_for(x):
    """JAX's ``initial=-inf`` of the softmaxes' maximum (an empty axis gives -inf, not an
    error), for inexact ``x`` only: fgrad's ``max`` promotes ``initial`` where JAX casts it
    to the operand's dtype, so an integer operand gets none (its dtype stays)."""
    return -np.inf if _dtype_kind(_get_aval(x).dtype) in "fc" else None


def _no_bools(x, name: str):
    """``x``, refusing bools with JAX's ``TypeError`` (its subtraction of the maximum takes no
    bools; fgrad's raised NumPy's ``TypeError``, or a ``ValueError`` for an empty array)."""
    if x.dtype == np.bool_:
        raise TypeError(f"fgrad.nn.{name}: bool input is not supported (as in JAX, whose subtraction "
                        f"takes no bools); cast it first, e.g. x.astype(float)")
    return x


def softmax(x: Shaped[ArrayLike, "*shape"], axis: Axis = -1,
            where: ArrayLike | None = None) -> Inexact[Array, "*shape"]:
    """``exp(x) / sum(exp(x))`` along ``axis`` (an int or tuple), computed with the maximum
    subtracted (``stop_gradient``-ed; the result does not depend on it).  ``where`` masks
    entries out (they get 0)."""
    x = _arr(x)
    axes = _red_axes(x, axis)  # JAX checks the axis first (vmap of a row: its AxisError)
    x = _no_bools(x, "softmax")
    if where is None:
        return _softmax(x, axes)
    x_safe = _masked(x, where, -np.inf)  # masked entries get an exact 0 gradient (as JAX)
    x_max = _stop_gradient(fnp.max(x_safe, axes, keepdims=True, initial=_neg_inf_for(x_safe)))
    unnormalized = fnp.exp(fnp.subtract(x_safe, x_max))
    unnormalized = _masked(unnormalized, where, 0.0)
    result = fnp.divide(unnormalized, fnp.sum(unnormalized, axes, keepdims=True))
    return _masked(result, where, 0.0)


def _softmax_value(x, axes: tuple):
    x_max = _stop_gradient(fnp.max(x, axes, keepdims=True, initial=_neg_inf_for(x)))
    unnormalized = fnp.exp(fnp.subtract(x, x_max))
    return fnp.divide(unnormalized, _sum_keep(unnormalized, axes))


_softmax = _custom_jvp(_softmax_value, nondiff_argnums=(1,))


@_softmax.defjvp
def _softmax_jvp(axes, primals, tangents):
    """``dy = y (dx - sum(y dx))``, from the result alone (as JAX's softmax): reverse mode
    reads the saved result instead of recomputing the maximum, exponentials and sum."""
    (x,), (dx,) = primals, tangents
    y = _softmax(x, axes)
    y_dx = fnp.multiply(y, dx)
    # the sum negated while it is small (its transpose then negates no full array)
    neg_sum = _spread_last(fnp.multiply(fnp.sum(y_dx, axes, keepdims=True), -1.0), y, axes)
    return y, fnp.add(y_dx, fnp.multiply(y, neg_sum))


def log_softmax(x: Shaped[ArrayLike, "*shape"], axis: Axis = -1,
                where: ArrayLike | None = None) -> Inexact[Array, "*shape"]:
    """``x - logsumexp(x)`` along ``axis`` (stable for large inputs); masked entries get
    ``-inf``."""
    x = _arr(x)
    axes = _red_axes(x, axis)  # JAX checks the axis first (vmap of a row: its AxisError)
    x = _no_bools(x, "log_softmax")
    if where is None:
        return _log_softmax(x, axes)
    # masked entries are replaced before any arithmetic, so their gradient is exactly 0 even
    # where a row is masked out entirely (its -inf - -inf would otherwise send NaN back)
    x_safe = _masked(x, where, -np.inf)
    x_max = _stop_gradient(fnp.max(x_safe, axes, keepdims=True, initial=_neg_inf_for(x_safe)))
    shifted = fnp.subtract(x_safe, x_max)
    lse = fnp.log(fnp.sum(_masked(fnp.exp(shifted), where, 0.0), axes, keepdims=True))
    return _masked(fnp.subtract(shifted, lse), where, -np.inf)


def _log_softmax_value(x, axes: tuple):
    x_max = _stop_gradient(fnp.max(x, axes, keepdims=True, initial=_neg_inf_for(x)))
    shifted = fnp.subtract(x, x_max)
    return fnp.subtract(shifted, fnp.log(_sum_keep(fnp.exp(shifted), axes)))


_log_softmax = _custom_jvp(_log_softmax_value, nondiff_argnums=(1,))


@_log_softmax.defjvp
def _log_softmax_jvp(axes, primals, tangents):
    """``dy = dx - sum(exp(y) dx)``, from the result alone (as `softmax`'s rule): reverse
    mode is ``ct - exp(y) sum(ct)``, reading the saved result instead of recomputing the
    maximum, the shifted inputs' exponentials and their sum (the cross-entropy's backward)."""
    (x,), (dx,) = primals, tangents
    y = _log_softmax(x, axes)
    # the sum negated while it is small (reverse mode: ct - exp(y) sum(ct), no negated full array)
    neg_sum = fnp.multiply(fnp.sum(fnp.multiply(fnp.exp(y), dx), axes, keepdims=True), -1.0)
    return y, fnp.add(dx, _spread_last(neg_sum, y, axes))


def logsumexp(a: ArrayLike, axis: Axis = None, b: ArrayLike | None = None, keepdims: bool = False,
              return_sign: bool = False, where: ArrayLike | None = None) -> Array | tuple[Array, Array]:
    """``log(sum(b * exp(a)))`` over ``axis`` (None: all), computed stably.

    Entries equal to ``-inf`` (or masked out by ``where``, or with ``b == 0``) contribute
    nothing and get a zero gradient; a row that is all ``-inf`` gives ``-inf``.  With
    ``return_sign`` returns ``(log|s|, sign(s))``; otherwise a negative sum gives NaN.
    """
    if b is not None:  # JAX's operand dtypes: a and b promote together (core.inexact)
        a, b = _ew.promote_args_inexact(_arr(a), _arr(b))
        a = fnp.where(fnp.not_equal(b, 0), a, -np.inf)
    else:
        a = _inexact(a)
    axes = _red_axes(a, axis)
    amax = fnp.max(_masked(a, where, -np.inf), axes, keepdims=True, initial=-np.inf)
    amax = _stop_gradient(fnp.where(fnp.isfinite(amax), amax, 0.0))
    exp_a = fnp.exp(fnp.subtract(a, amax))
    if b is not None:
        exp_a = fnp.multiply(exp_a, b)
    sumexp = fnp.sum(_masked(exp_a, where, 0.0), axes, keepdims=keepdims)
    sign = fnp.sign(sumexp)
    is_complex = _dtype_kind(_get_aval(sumexp).dtype) == "c"
    if return_sign or not is_complex:
        sumexp = fnp.abs(sumexp)
    shift = amax if keepdims else fnp.reshape(amax, _get_aval(sumexp).shape)
    out = fnp.add(fnp.log(sumexp), shift)
    if return_sign:
        return out, sign
    if b is not None and not is_complex:
        out = fnp.where(fnp.less(sign, 0), np.nan, out)
    return out


# ---------------------------------------------------------------------------------------
# encodings and normalization


def one_hot(x: ArrayLike, num_classes: int, *, dtype: DTypeLike = float, axis: Axis = -1) -> Array:
    """One-hot encoding: a new axis ``axis`` of size ``num_classes`` with 1 where the class
    index equals ``x`` (out-of-range indices give all zeros)."""
    x = _arr(x)
    nd = _get_aval(x).ndim + 1
    axis = _normalize_axis(axis, nd, "one_hot")
    if not isinstance(num_classes, (int, np.integer)) or isinstance(num_classes, bool) or num_classes < 0:
        raise TypeError(f"one_hot: num_classes must be a non-negative Python int, got {num_classes!r}")
    num_classes = int(num_classes)
    lhs = fnp.expand_dims(x, axis)
    rhs = np.arange(num_classes).reshape((1,) * axis + (num_classes,) + (1,) * (nd - axis - 1))
    return fnp.astype(fnp.equal(lhs, rhs), dtype)


def standardize(x: Shaped[ArrayLike, "*shape"], axis: Axis = -1, mean: ArrayLike | None = None,
                variance: ArrayLike | None = None, epsilon: ArrayLike = 1e-5,
                where: ArrayLike | None = None, *, algorithm: str = "fast") -> Inexact[Array, "*shape"]:
    """``(x - mean) / sqrt(variance + epsilon)`` along ``axis`` (statistics computed when not
    given; ``where`` restricts them to the selected entries). ``algorithm="fast"`` computes the
    variance as ``mean(x**2) - mean**2``, clipped at 0 (it can round below 0); ``"stable"`` as
    ``mean((x - mean)**2)``. As in JAX, a computed variance of complex input raises
    ``ValueError`` (the clip).

    Example::

        >>> import fgrad.numpy as fnp
        >>> standardize(fnp.asarray([1.0, 2.0, 3.0]), algorithm="stable")
        Array([-1.22473569,  0.        ,  1.22473569], dtype=float64)
    """
    x = _arr(x)
    axes = _red_axes(x, axis)
    if where is not None:
        w = fnp.astype(fnp.broadcast_to(where, _get_aval(x).shape), _get_aval(x).dtype)
        cnt = fnp.sum(w, axes, keepdims=True)

        def _mean(v):
            return fnp.divide(fnp.sum(fnp.multiply(v, w), axes, keepdims=True), cnt)
    else:
        def _mean(v):
            return fnp.mean(v, axes, keepdims=True)
    if mean is None:
        mean = _mean(x)
    if variance is None:
        if algorithm == "stable":
            variance = _mean(fnp.square(fnp.subtract(x, mean)))
        elif algorithm == "fast":  # may round below 0: clipped, as JAX does (else sqrt gives NaN)
            variance = fnp.clip(fnp.subtract(_mean(fnp.square(x)), fnp.square(mean)), 0)
        else:
            raise ValueError(f"Unknown algorithm '{algorithm}'. Expected 'fast' or 'stable'.")
    return fnp.multiply(fnp.subtract(x, mean), fnp.divide(1.0, fnp.sqrt(fnp.add(variance, epsilon))))


def _normalize_value(x, axes: tuple, eps: float):
    mean = _mean_keep(x, axes)
    xc = fnp.subtract(x, mean)
    var = _mean_keep(fnp.multiply(xc, xc), axes)
    rstd = _ew.rsqrt_(fnp.add(var, eps))
    return fnp.multiply(xc, rstd), rstd


normalize_with_rstd = _custom_jvp(_normalize_value, nondiff_argnums=(1, 2))
normalize_with_rstd.__doc__ = """``(y, rstd)``: ``x`` normalised over ``axes`` with its biased variance,
``y = (x - mean) * rstd`` with ``rstd = 1 / sqrt(var + eps)`` (keepdims shape), for the
normalisation layers.  Its derivative reads only ``y`` and ``rstd`` (as PyTorch's layer norm
backward: ``dy = rstd (dx - mean(dx) - y mean(y dx))``), so reverse mode saves them instead
of recomputing the statistics; it is differentiable to any order.

Example::

    >>> import fgrad.numpy as fnp
    >>> y, rstd = normalize_with_rstd(fnp.array([[1.0, 3.0]]), (1,), 0.0)
    >>> y, rstd
    (Array([[-1.,  1.]], dtype=float64), Array([[1.]], dtype=float64))
"""


@normalize_with_rstd.defjvp
def _normalize_jvp(axes, eps, primals, tangents):
    (x,), (dx,) = primals, tangents
    y, rstd = normalize_with_rstd(x, axes, eps)
    # the two means negated while they are small (their transposes then negate no full array)
    neg_mean_dx = fnp.multiply(fnp.mean(dx, axis=axes, keepdims=True), -1.0)
    neg_mean_y_dx = fnp.multiply(fnp.mean(fnp.multiply(y, dx), axis=axes, keepdims=True), -1.0)
    dy = fnp.multiply(rstd, fnp.add(fnp.add(dx, _spread_last(neg_mean_dx, y, axes)),
                                    fnp.multiply(y, _spread_last(neg_mean_y_dx, y, axes))))
    # d rstd = -rstd^3 mean((x - mean) dx) = -rstd^2 mean(y dx)
    return (y, rstd), (dy, fnp.multiply(fnp.multiply(rstd, rstd), neg_mean_y_dx))


# ---------------------------------------------------------------------------------------
# more of jax.nn's activations


def identity(x: Shaped[ArrayLike, "*shape"]) -> Shaped[Array, "*shape"]:
    """The identity function (``jax.nn.identity``).

    Example::

        >>> import fgrad.nn as nn
        >>> nn.identity(2.0)
        Array(2., dtype=float64, weak_type=True)
    """
    return _arr(x)


def squareplus(x: Shaped[ArrayLike, "*shape"], b: ArrayLike = 4) -> Inexact[Array, "*shape"]:
    """``(x + sqrt(x**2 + b)) / 2``, a smooth ReLU (So, 2021).

    Example::

        >>> import fgrad.nn as nn
        >>> nn.squareplus(0.0)
        Array(1., dtype=float64, weak_type=True)
    """
    x = _inexact(x)
    return fnp.divide(fnp.add(x, fnp.sqrt(fnp.add(fnp.square(x), b))), 2.0)


def sparse_plus(x: Shaped[ArrayLike, "*shape"]) -> Inexact[Array, "*shape"]:
    """0 for ``x <= -1``, ``(x + 1)**2 / 4`` on ``(-1, 1)``, ``x`` for ``x >= 1`` (the integral of
    `sparse_sigmoid`).

    Example::

        >>> import fgrad.nn as nn, fgrad.numpy as fnp
        >>> nn.sparse_plus(fnp.asarray([-2.0, 0.0, 2.0]))
        Array([0.  , 0.25, 2.  ], dtype=float64)
    """
    x = _arr(x)
    inner = fnp.divide(fnp.square(fnp.add(x, 1.0)), 4.0)
    return fnp.where(fnp.less_equal(x, -1.0), 0.0, fnp.where(fnp.greater_equal(x, 1.0), x, inner))


def sparse_sigmoid(x: Shaped[ArrayLike, "*shape"]) -> Inexact[Array, "*shape"]:
    """``clip((x + 1) / 2, 0, 1)``, the sparsemax of ``[x, 0]`` (Martins & Astudillo, 2016);
    at ``x = +-1`` the derivative is 1/4, as JAX's ``clip`` gives.

    Example::

        >>> import fgrad.nn as nn, fgrad.numpy as fnp
        >>> nn.sparse_sigmoid(fnp.asarray([-2.0, 0.0, 0.5]))
        Array([0.  , 0.5 , 0.75], dtype=float64)
    """
    return fnp.multiply(0.5, fnp.clip(fnp.add(_arr(x), 1.0), 0.0, 2.0))


def log1mexp(x: Shaped[ArrayLike, "*shape"]) -> Inexact[Array, "*shape"]:
    """``log(1 - exp(-x))`` computed accurately for every ``x >= 0`` (Maechler, 2012):
    ``log(-expm1(-x))`` below ``log 2``, ``log1p(-exp(-x))`` above.

    Example::

        >>> import fgrad.nn as nn
        >>> float(nn.log1mexp(1e-10))
        -23.02585092999...
    """
    x = _arr(x)
    small = fnp.less(x, math.log(2.0))
    return fnp.where(small, fnp.log(fnp.negative(fnp.expm1(fnp.negative(x)))),
                     fnp.log1p(fnp.negative(fnp.exp(fnp.negative(x)))))


def logmeanexp(x: ArrayLike, axis: Axis = None, where: ArrayLike | None = None,
               keepdims: bool = False) -> Array:
    """``log(mean(exp(x)))`` over ``axis``, computed stably (``logsumexp`` minus the log of
    the number of entries, counting only those ``where`` selects).

    Example::

        >>> import fgrad.nn as nn, fgrad.numpy as fnp
        >>> nn.logmeanexp(fnp.asarray([0.0, 0.0]))
        Array(0., dtype=float64)
    """
    x = _inexact(x)
    lse = logsumexp(x, axis=axis, keepdims=keepdims, where=where)
    axes = _red_axes(x, axis)
    if where is None:
        count = float(np.prod([_get_aval(x).shape[a] for a in axes]))
        return fnp.subtract(lse, math.log(count))
    selected = fnp.broadcast_to(where, _get_aval(x).shape)
    count = fnp.sum(fnp.astype(selected, _get_aval(lse).dtype), axes, keepdims=keepdims)
    return fnp.subtract(lse, fnp.log(count))
