"""Special functions the gamma samplers of `fgrad.random` and ``lax.random_gamma_grad``
need (digamma, log-gamma, the implicit derivative ``d log x / d a`` of a gamma sample),
written with `fgrad.numpy` and ``while_loop`` so they run on any backend and under every
transform.  Private: accurate to about 1e-14 (relative) for the positive arguments the
samplers pass."""

from __future__ import annotations

import math

import numpy as np

from . import numpy as fnp
from .core.narrow_floats import finfo as _narrow_finfo
from .ops.control_flow import while_loop

_SHIFT = 10  # recurrence steps before the asymptotic series (argument >= 11 there)


def digamma_positive(z):
    """``psi(z)`` for ``z > 0``: ``psi(z) = psi(z + 10) - sum_k 1/(z + k)``, then the
    asymptotic series at ``w = z + 10`` (truncation error below 1e-14)."""
    shift = 0.0
    for k in range(_SHIFT):
        shift = shift + 1.0 / (z + k)
    w = z + _SHIFT
    w2 = 1.0 / (w * w)
    series = w2 * (1 / 12 - w2 * (1 / 120 - w2 * (1 / 252 - w2 * (1 / 240 - w2 / 132))))
    return fnp.log(w) - 0.5 / w - series - shift


def lgamma_positive(z):
    """``log(Gamma(z))`` for ``z > 0``: ``lgamma(z) = lgamma(z + 10) - log(z (z+1) ... (z+9))``,
    then Stirling's series at ``w = z + 10``."""
    log_product = 0.0
    for k in range(_SHIFT):
        log_product = log_product + fnp.log(z + k)
    w = z + _SHIFT
    w2 = 1.0 / (w * w)
    series = (1 / 12 - w2 * (1 / 360 - w2 * (1 / 1260 - w2 / 1680))) / w
    return (w - 0.5) * fnp.log(w) - w + 0.5 * math.log(2 * math.pi) + series - log_product


def dlogx_da(a, log_x):
    """``d log x / d a`` of a Gamma(``a``) sample ``x = exp(log_x)`` at fixed CDF value
    (implicit reparameterization, `fgrad.random._gamma`'s docstring): the series
    ``-(S (log x - psi(a + 1)) + dS/da) / a`` summed by a ``while_loop`` until its terms are
    negligible, so forward mode differentiates it and reverse mode raises JAX's ``ValueError``."""
    valid = (a > 0) & fnp.isfinite(a) & fnp.isfinite(log_x)
    a = fnp.where(valid, a, 1.0)
    log_x = fnp.where(valid, log_x, 0.0)
    x = fnp.exp(log_x)
    eps = float(_narrow_finfo(a.dtype).eps) * 0.25

    def cond(state):
        n, term, s, _, _ = state
        more = (term > eps * s) | (a + n < x)
        return fnp.any(more & (n < 100000))

    def body(state):
        n, term, s, ds, harmonic = state
        n = n + 1
        term = term * x / (a + n)
        harmonic = harmonic + 1.0 / (a + n)
        return n, term, s + term, ds - term * harmonic, harmonic

    ones = fnp.ones_like(a)
    init = (fnp.zeros_like(a), ones, ones, fnp.zeros_like(a), fnp.zeros_like(a))
    _, _, s, ds, _ = while_loop(cond, body, init)
    return fnp.where(valid, -(s * (log_x - digamma_positive(a + 1.0)) + ds) / a, np.nan)
