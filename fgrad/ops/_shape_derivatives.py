"""Derivatives of the regularized incomplete gamma and beta functions with respect to their
shape parameters, as array algorithms on raw backend buffers (the values of the primitives
``igamma_grad_a`` and ``betainc_grad_ab`` in `fgrad.ops.special_functions`).

Both differentiate, in forward mode by hand, the classical expansions that compute the
functions themselves (Numerical Recipes §6.2 and §6.4; JAX differentiates the same
recurrences for ``igamma``):

* ``P(a, x)``: for ``x < a + 1`` the series ``P = x^a e^-x / Gamma(a + 1) sum_n t_n`` with
  ``t_0 = 1``, ``t_n = t_{n-1} x / (a + n)``; else ``Q = 1 - P`` by Lentz's continued
  fraction, ``Q = x^a e^-x / Gamma(a) h``.  Each term carries its a-derivative, and
  ``d/da [x^a e^-x / Gamma(a)] = prefactor (log x - digamma(a))``.
* ``I_x(a, b)``: the continued fraction ``I = x^a (1 - x)^b / (a B(a, b)) h`` for
  ``x < (a + 1) / (a + b + 2)``, else ``1 - I_{1-x}(b, a)``; each coefficient, ``h`` and the
  prefactor carry their a- and b-derivatives.

Everything runs in float64 with every element iterated until its term (and the term's
derivative) is below 1e-16 relative, at most ``_MAX_ITER`` times; accuracy is checked
against finite differences of SciPy's ``gammainc``/``betainc`` in tests/test_scipy_more.py.
"""

from __future__ import annotations

import numpy as np

_EPS = 1e-16
_TINY = 1e-300
_MAX_ITER = 100_000


def _guard(xp, v):
    return xp.where(xp.abs(v) < _TINY, _TINY, v)


def igamma_grad_a(xp, sc, a, x):
    """``dP(a, x)/da`` for float64 arrays ``a > 0``, ``x >= 0`` (NaN elsewhere)."""
    a, x = xp.broadcast_arrays(xp.asarray(a, np.float64), xp.asarray(x, np.float64))
    out = xp.full(a.shape, np.nan)
    valid = (a > 0) & (x >= 0) & xp.isfinite(a) & ~xp.isnan(x)
    out = xp.where(valid & (x == 0), 0.0, out)
    out = xp.where(valid & xp.isinf(x), 0.0, out)
    work = valid & (x > 0) & xp.isfinite(x)
    use_series = work & (x < a + 1.0)
    use_cf = work & ~use_series
    safe_a = xp.where(work, a, 1.0)
    safe_x = xp.where(work, x, 1.0)
    log_x = xp.log(safe_x)
    if bool(xp.any(use_series)):
        s, ds = _gamma_series(xp, safe_a, safe_x, use_series)
        log_pref = safe_a * log_x - safe_x - sc.gammaln(safe_a + 1.0)
        pref = xp.exp(log_pref)
        d = pref * ((log_x - sc.psi(safe_a + 1.0)) * s + ds)
        out = xp.where(use_series, d, out)
    if bool(xp.any(use_cf)):
        h, dh = _gamma_cf(xp, safe_a, safe_x, use_cf)
        log_pref = safe_a * log_x - safe_x - sc.gammaln(safe_a)
        pref = xp.exp(log_pref)
        dq = pref * ((log_x - sc.psi(safe_a)) * h + dh)
        out = xp.where(use_cf, -dq, out)
    return out


def _gamma_series(xp, a, x, active):
    t = xp.ones(a.shape)
    dt = xp.zeros(a.shape)
    s, ds = t.copy(), dt.copy()
    active = active.copy()
    n = 0
    while bool(xp.any(active)) and n < _MAX_ITER:
        n += 1
        r = x / (a + n)
        dt = dt * r - t * r / (a + n)
        t = t * r
        s = xp.where(active, s + t, s)
        ds = xp.where(active, ds + dt, ds)
        active = active & ((t > _EPS * s) | (xp.abs(dt) > _EPS * xp.abs(ds)))
    return s, ds


def _gamma_cf(xp, a, x, active):
    """Lentz's continued fraction for ``Gamma(a, x) e^x x^-a`` with its a-derivative."""
    b = x + 1.0 - a
    db = -xp.ones(a.shape)
    c, dc = xp.full(a.shape, 1.0 / _TINY), xp.zeros(a.shape)
    d = 1.0 / _guard(xp, b)
    dd = -db * d * d
    h, dh = d.copy(), dd.copy()
    active = active.copy()
    i = 0
    while bool(xp.any(active)) and i < _MAX_ITER:
        i += 1
        an = -i * (i - a)
        dan = float(i)
        b = b + 2.0
        dn = _guard(xp, an * d + b)
        ddn = dan * d + an * dd + db
        d, dd = 1.0 / dn, -ddn / (dn * dn)
        cn = _guard(xp, b + an / c)
        dcn = db + dan / c - an * dc / (c * c)
        c, dc = cn, dcn
        delta = d * c
        ddelta = dd * c + d * dc
        h_new = h * delta
        dh_new = dh * delta + h * ddelta
        h = xp.where(active, h_new, h)
        dh = xp.where(active, dh_new, dh)
        active = active & ((xp.abs(delta - 1.0) > _EPS) | (xp.abs(h * ddelta) > _EPS * xp.abs(dh) + _TINY))
    return h, dh


def betainc_grad_ab(xp, sc, a, b, x):
    """``(dI_x(a, b)/da, dI_x(a, b)/db)`` for float64 arrays ``a, b > 0``, ``0 <= x <= 1``."""
    a, b, x = xp.broadcast_arrays(*(xp.asarray(v, np.float64) for v in (a, b, x)))
    valid = (a > 0) & (b > 0) & (x >= 0) & (x <= 1) & xp.isfinite(a) & xp.isfinite(b)
    da = xp.where(valid, 0.0, np.nan)
    db = da.copy()
    work = valid & (x > 0) & (x < 1)
    swap = x > (a + 1.0) / (a + b + 2.0)
    # I_x(a, b) = 1 - I_{1-x}(b, a): differentiate the direct expansion at (p, q, y)
    p = xp.where(swap, b, a)
    q = xp.where(swap, a, b)
    y = xp.where(swap, 1.0 - x, x)
    p, q, y = xp.where(work, p, 1.0), xp.where(work, q, 1.0), xp.where(work, y, 0.5)
    if bool(xp.any(work)):
        h, dh_p, dh_q = _beta_cf(xp, p, q, y, work)
        log_beta = sc.gammaln(p) + sc.gammaln(q) - sc.gammaln(p + q)
        log_pref = p * xp.log(y) + q * xp.log1p(-y) - xp.log(p) - log_beta
        pref = xp.exp(log_pref)
        psi_pq = sc.psi(p + q)
        dlog_p = xp.log(y) - 1.0 / p - sc.psi(p) + psi_pq
        dlog_q = xp.log1p(-y) - sc.psi(q) + psi_pq
        d_p = pref * (dlog_p * h + dh_p)
        d_q = pref * (dlog_q * h + dh_q)
        # swapped: I = 1 - J(b, a) so dI/da = -dJ/dq, dI/db = -dJ/dp
        da = xp.where(work, xp.where(swap, -d_q, d_p), da)
        db = xp.where(work, xp.where(swap, -d_p, d_q), db)
    return da, db


def _beta_cf(xp, a, b, x, active):
    """Numerical Recipes' ``betacf`` with the a- and b-derivatives of every quantity."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, dc_a, dc_b = xp.ones(a.shape), xp.zeros(a.shape), xp.zeros(a.shape)
    # d = 1 / (1 - qab x / qap)
    t = 1.0 - qab * x / qap
    dt_a = -x / qap + qab * x / (qap * qap)
    dt_b = -x / qap
    t = _guard(xp, t)
    d = 1.0 / t
    dd_a, dd_b = -dt_a * d * d, -dt_b * d * d
    h, dh_a, dh_b = d.copy(), dd_a.copy(), dd_b.copy()
    active = active.copy()
    m = 0

    def step(aa, daa_a, daa_b, d, dd_a, dd_b, c, dc_a, dc_b):
        dn = _guard(xp, 1.0 + aa * d)
        ddn_a = daa_a * d + aa * dd_a
        ddn_b = daa_b * d + aa * dd_b
        d_new = 1.0 / dn
        dd_a, dd_b = -ddn_a * d_new * d_new, -ddn_b * d_new * d_new
        cn = _guard(xp, 1.0 + aa / c)
        dc_a = daa_a / c - aa * dc_a / (c * c)
        dc_b = daa_b / c - aa * dc_b / (c * c)
        return d_new, dd_a, dd_b, cn, dc_a, dc_b

    while bool(xp.any(active)) and m < _MAX_ITER:
        m += 1
        m2 = 2.0 * m
        # even step: aa = m (b - m) x / ((qam + m2)(a + m2))
        den = (qam + m2) * (a + m2)
        aa = m * (b - m) * x / den
        daa_a = -aa * ((a + m2) + (qam + m2)) / den
        daa_b = m * x / den
        d, dd_a, dd_b, c, dc_a, dc_b = step(aa, daa_a, daa_b, d, dd_a, dd_b, c, dc_a, dc_b)
        delta = d * c
        dh_a_n = dh_a * delta + h * (dd_a * c + d * dc_a)
        dh_b_n = dh_b * delta + h * (dd_b * c + d * dc_b)
        h_n = h * delta
        # odd step: aa = -(a + m)(qab + m) x / ((a + m2)(qap + m2))
        num = (a + m) * (qab + m)
        den = (a + m2) * (qap + m2)
        aa = -num * x / den
        dnum_a = (qab + m) + (a + m)
        dnum_b = a + m
        dden_a = (qap + m2) + (a + m2)
        daa_a = -x * (dnum_a * den - num * dden_a) / (den * den)
        daa_b = -x * dnum_b / den
        d, dd_a, dd_b, c, dc_a, dc_b = step(aa, daa_a, daa_b, d, dd_a, dd_b, c, dc_a, dc_b)
        delta = d * c
        ddelta_a, ddelta_b = dd_a * c + d * dc_a, dd_b * c + d * dc_b
        dh_a_n = dh_a_n * delta + h_n * ddelta_a
        dh_b_n = dh_b_n * delta + h_n * ddelta_b
        h_n = h_n * delta
        h = xp.where(active, h_n, h)
        dh_a = xp.where(active, dh_a_n, dh_a)
        dh_b = xp.where(active, dh_b_n, dh_b)
        small = _EPS * (xp.abs(dh_a) + xp.abs(dh_b)) + _TINY
        active = active & ((xp.abs(delta - 1.0) > _EPS)
                           | (xp.abs(h * ddelta_a) > small) | (xp.abs(h * ddelta_b) > small))
    return h, dh_a, dh_b
