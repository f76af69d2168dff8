"""Special functions the samplers of `fgrad.random` need (digamma, log-gamma), written with
`fgrad.numpy` so they run on any backend and under every transform.  Private: accurate to
about 1e-14 (relative) for the positive arguments the samplers pass."""

from __future__ import annotations

import math

from .. import numpy as fnp

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
