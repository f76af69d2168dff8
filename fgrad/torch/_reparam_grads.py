"""PyTorch's approximate reparameterised gradients of gamma and Dirichlet samples.

PyTorch differentiates ``torch._standard_gamma`` and ``torch.distributions.Dirichlet.rsample``
(so also ``Beta``) with closed-form approximations of the implicit derivative
``dx/da = -(dF/da)(x; a) / p(x; a)`` (Jankowiak and Obermeyer, "Pathwise derivatives beyond the
reparameterization trick", 2018): a Taylor series near zero, a Rice saddle-point expansion for
large concentrations, and fitted rational corrections elsewhere. The shim's ``rsample``
gradients use the same approximations, so a seeded PyTorch program gets PyTorch's gradient
numbers (the exact derivative differs from them in the fifth digit for gamma samples; for
Dirichlet samples the per-coordinate Beta-marginal estimator differs from differentiating
through the gamma draws by up to a third, both being unbiased).

Each function is written with ``fgrad.numpy`` element-wise operations, so it runs inside the
samples' JVP rules on every backend. Where PyTorch computes in the input's precision
(``scalar_t``) these do too; where it widens (``accscalar_t``, float64 on the CPU) they widen.

Example::

    >>> import numpy as np
    >>> from fgrad.torch._reparam_grads import standard_gamma_grad
    >>> round(float(standard_gamma_grad(np.float64(2.0), np.float64(1.5))), 4)
    0.9366
"""

from __future__ import annotations

import numpy as np

import fgrad.numpy as fnp
from fgrad.scipy.special import digamma as _digamma

__all__ = ["dirichlet_grad", "standard_gamma_grad"]

# bivariate rational approximation of the gamma gradient: rows u^0, u^1, u^2; p then q in v
_GAMMA_UV = np.array([
    [0.16009398, -0.094634809, 0.025146376, -0.0030648343, 1, 0.32668115, 0.10406089, 0.0014179084],
    [0.53487893, 0.1298071, 0.065735949, -0.0015649758, 0.16639465, 0.020070113, -0.0035938915,
     -0.00058392623],
    [0.040121004, -0.0065914022, -0.0026286047, -0.0013441777, 0.017050642, -0.0021309326,
     0.00085092367, -1.5247877e-07],
])

# rational correction of the Beta-marginal gradient: [numerator/denominator][u^i][a^j][b^k]
_BETA_UAB = np.array([
    [[[1.003668233, -0.01061107488, -0.0657888334, 0.01201642863],
      [0.6336835991, -0.3557432599, 0.05486251648, -0.001465281033],
      [-0.03276231906, 0.004474107445, 0.002429354597, -0.0001557569013]],
     [[0.221950385, -0.3187676331, 0.01799915743, 0.01074823814],
      [-0.2951249643, 0.06219954479, 0.01535556598, 0.001550077057],
      [0.02155310298, 0.004170831599, 0.001292462449, 6.976601077e-05]],
     [[-0.05980841433, 0.008441916499, 0.01085618172, 0.002319392565],
      [0.02911413504, 0.01400243777, -0.002721828457, 0.000751041181],
      [0.005900514878, -0.001936558688, -9.495446725e-06, 5.385558597e-05]]],
    [[[1, -0.02924021934, -0.04438342661, 0.007285809825],
      [0.6357567472, -0.3473456711, 0.05454656494, -0.002407477521],
      [-0.03301322327, 0.004845219414, 0.00231480583, -0.0002307248149]],
     [[0.5925320577, -0.1757678135, 0.01505928619, 0.000564515273],
      [0.1014815858, -0.06589186703, 0.01272886114, -0.0007316646956],
      [-0.007258481865, 0.001096195486, 0.0003934994223, -4.12701925e-05]],
     [[0.06469649321, -0.0236701437, 0.002902096474, -5.896963079e-05],
      [0.001925008108, -0.002869809258, 0.0008000589141, -6.063713228e-05],
      [-0.0003477407336, 6.959756487e-05, 1.097287507e-05, -1.650964693e-06]]],
])


def _digamma_one(v):
    """Digamma computed in float64 and returned in ``v``'s dtype (PyTorch's ``digamma_one``)."""
    return _digamma(v.astype(np.float64)).astype(v.dtype)


def _nan_to_zero(v):
    return fnp.where(fnp.isnan(v), fnp.zeros_like(v), v)


def _poly(coefs, t):
    """``coefs[0] + t * (coefs[1] + t * (...))`` (Horner's rule)."""
    out = coefs[-1]
    for c in coefs[-2::-1]:
        out = c + t * out
    return out


def standard_gamma_grad(alpha, x):
    """PyTorch's ``torch._standard_gamma_grad(alpha, x)``: the approximate derivative of a
    Gamma(``alpha``, 1) sample ``x`` in ``alpha`` (computed in float64, returned in ``x``'s
    dtype).

    Example::

        >>> import numpy as np
        >>> round(float(standard_gamma_grad(np.float64(0.5), np.float64(0.2))), 4)
        0.7941
    """
    x = fnp.asarray(x)
    out_dtype = x.dtype
    a = fnp.asarray(alpha).astype(np.float64)
    x = x.astype(np.float64)
    # Taylor series in x below 0.8
    numer = fnp.ones_like(x)
    denom = a
    series1 = numer / denom
    series2 = numer / (denom * denom)
    for i in range(1, 6):
        numer = numer * (-x / i)
        denom = denom + 1
        series1 = series1 + numer / denom
        series2 = series2 + numer / (denom * denom)
    pow_x_alpha = x ** a
    pdf = x ** (a - 1) * fnp.exp(-x)
    cdf = pow_x_alpha * series1
    cdf_alpha = (fnp.log(x) - _digamma(a)) * cdf - pow_x_alpha * series2
    small = _nan_to_zero(-cdf_alpha / pdf)
    # Rice saddle point for alpha above 8: near the mean, and away from it
    near = ((1 + 24 * a * (1 + 12 * a))
            * (1440 * a * a + 6 * x * (53 - 120 * x) - 65 * x * x / a + a * (107 + 3600 * x))
            / (1244160 * (a * a) * (a * a)))
    root = fnp.sqrt(8 * a)
    term2 = root / (a - x)
    term3 = (x - a - a * fnp.log(x / a)) ** -1.5
    term23 = fnp.where(x < a, term2 - term3, term2 + term3)
    term1 = fnp.log(x / a) * term23 - fnp.sqrt(2 / a) * (a + x) / ((a - x) * (a - x))
    stirling = 1 + 1 / (12 * a) * (1 + 1 / (24 * a))
    far = -stirling * x * term1 / root
    large = fnp.where((0.9 * a <= x) & (x <= 1.1 * a), near, far)
    # a bivariate rational approximation elsewhere
    u = fnp.log(x / a)
    v = fnp.log(a)
    cv = [c[0] + u * (c[1] + u * c[2]) for c in _GAMMA_UV.T]
    rational = fnp.exp(_poly(cv[:4], v) / _poly(cv[4:], v))
    out = fnp.where(x < 0.8, small, fnp.where(a > 8.0, large, rational))
    return out.astype(out_dtype)


def _beta_grad_alpha_small(x, alpha, beta):
    """Taylor expansion near ``x = 0`` of the Beta(alpha, beta) sample's ``alpha`` gradient."""
    factor = _digamma_one(alpha) - _digamma_one(alpha + beta) - fnp.log(x)
    numer = fnp.ones_like(x)
    series = numer / alpha * (factor + 1 / alpha)
    for i in range(1, 11):
        numer = numer * ((i - beta) * x / i)
        denom = alpha + i
        series = series + numer / denom * (factor + 1 / denom)
    return _nan_to_zero(x * (1 - x) ** -beta * series)


def _beta_grad_beta_small(x, alpha, beta):
    """Taylor expansion near ``x = 0`` of the Beta(alpha, beta) sample's ``beta`` gradient."""
    factor = _digamma_one(alpha + beta) - _digamma_one(beta)
    numer = fnp.ones_like(x)
    betas = fnp.ones_like(x)
    dbetas = fnp.zeros_like(x)
    series = factor / alpha
    for i in range(1, 9):
        numer = numer * (-x / i)
        dbetas = dbetas * (beta - i) + betas
        betas = betas * (beta - i)
        series = series + numer / (alpha + i) * (dbetas + factor * betas)
    return _nan_to_zero(-((1 - x) ** (1 - beta)) * series)


def _beta_grad_alpha_mid(x, alpha, beta):
    """Rice saddle-point expansion of the ``alpha`` gradient for large ``alpha`` and ``beta``."""
    total = alpha + beta
    mean = alpha / total
    std = fnp.sqrt(alpha * beta / (total + 1)) / total
    poly = 47 * x * (beta * beta) * (beta * beta) + alpha * (
        (43 + 20 * (16 + 27 * beta) * x) * (beta * beta) * beta + alpha * (
            3 * (59 + 180 * beta - 90 * x) * (beta * beta) + alpha * (
                (453 + 1620 * beta * (1 - x) - 455 * x) * beta + alpha * (
                    8 * (1 - x) * (135 * beta - 11)))))
    prefactor_num = (1 + 12 * alpha) * (1 + 12 * beta) / (total * total)
    prefactor_den = 12960 * alpha * alpha * alpha * beta * beta * (1 + 12 * total)
    at_mean = prefactor_num / (1 - x) * poly / prefactor_den
    prefactor = -x / fnp.sqrt(2 * alpha * beta / total)

    def stirling_factor(t):
        return 1 + 1 / (12 * t) + 1 / (288 * t * t)

    stirling = stirling_factor(alpha) * stirling_factor(beta) / stirling_factor(total)
    axbx = alpha * (x - 1) + beta * x
    term1 = ((2 * (alpha * alpha) * (x - 1) + alpha * beta * (x - 1) - x * (beta * beta))
             / (fnp.sqrt(2 * alpha / beta) * total ** 1.5 * axbx * axbx))
    term2 = 0.5 * fnp.log(alpha / (total * x))
    term3 = fnp.sqrt(8 * alpha * beta / total) / axbx
    term4 = (beta * fnp.log(beta / (total * (1 - x))) + alpha * fnp.log(alpha / (total * x))) ** -1.5
    away = stirling * prefactor * (term1 + term2 * (term3 + fnp.where(x < mean, term4, -term4)))
    return fnp.where((mean - 0.1 * std <= x) & (x <= mean + 0.1 * std), at_mean, away)


def dirichlet_grad(x, alpha, total):
    """PyTorch's ``torch._dirichlet_grad(x, alpha, total)``: for a Dirichlet sample coordinate
    ``x`` of concentration ``alpha`` (all concentrations summing to ``total``), the approximate
    derivative of the Beta(alpha, total - alpha) marginal sample in ``alpha``, divided by
    ``1 - x``. The Dirichlet sample's gradient is ``g * (v - sum(x * v))`` for a cotangent
    ``v``.

    Example::

        >>> import numpy as np
        >>> round(float(dirichlet_grad(np.float64(0.3), np.float64(2.0), np.float64(5.0))), 4)
        0.1993
    """
    x = fnp.asarray(x)
    dt = x.dtype
    alpha = fnp.asarray(alpha).astype(dt)
    total = fnp.asarray(total).astype(dt)
    beta = total - alpha
    boundary = total * x * (1 - x)
    near_zero = _beta_grad_alpha_small(x, alpha, beta)
    near_one = -_beta_grad_beta_small(1 - x, beta, alpha)
    x_, alpha_, total_ = x.astype(np.float64), alpha.astype(np.float64), total.astype(np.float64)
    beta_ = total_ - alpha_
    mid = _beta_grad_alpha_mid(x_, alpha_, beta_)
    u = fnp.log(x_)
    a = fnp.log(alpha_) - u
    b = fnp.log(total_) - a
    p = q = fnp.zeros_like(x_)
    for i in range(3):
        for j in range(3):
            ua = u ** i * a ** j
            p = p + ua * _poly(list(_BETA_UAB[0, i, j]), b)
            q = q + ua * _poly(list(_BETA_UAB[1, i, j]), b)
    approx = x_ * (_digamma_one(total).astype(np.float64) - _digamma_one(alpha).astype(np.float64)) / beta_
    rational = p / q * approx
    widened = fnp.where((alpha > 6) & (beta > 6), mid, rational).astype(dt)
    return fnp.where((x <= 0.5) & (boundary < 2.5), near_zero,
                     fnp.where((x >= 0.5) & (boundary < 0.75), near_one, widened))
