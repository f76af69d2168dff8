"""`fgrad.scipy.optimize`: ``minimize(fun, x0, method="BFGS")`` as ``jax.scipy.optimize``.

JAX's algorithm step for step (its iterates, ``nit``/``nfev`` and statuses, also where it
stops early: from ``[-1.2, 1.0]`` on Rosenbrock's function JAX's line search fails, status
3): BFGS (Nocedal & Wright, Algorithm 6.1) with an inverse-Hessian estimate, a strong-Wolfe
line search (Algorithms 3.5/3.6: the first trial step from the last decrease, doubling, a
zoom by cubic, quadratic or bisection steps) and gradients from `fgrad.value_and_grad`.
It stops when ``norm(grad, ord=norm) < gtol`` (default ``inf`` and 1e-5), after ``maxiter``
iterations (default ``200 * x0.size``) or when the line search fails (status ``2 +`` its
status: 3 a zoom failed, 5 too many line-search steps).  The loops are `while_loop`s, as in JAX:
``minimize`` runs under `fgrad.jit` and `fgrad.vmap`; it is not differentiable (the solution's
derivative with respect to parameters of ``fun`` needs the implicit function theorem, which
neither fgrad nor JAX applies here).

Example::

    >>> import fgrad.numpy as fnp
    >>> res = minimize(lambda x: fnp.sum((x - 3.0) ** 2), fnp.zeros(2), method="BFGS")
    >>> res.x, bool(res.success), int(res.nit)
    (Array([3., 3.], dtype=float64), True, 3)
"""

from __future__ import annotations

from ..typing import ArrayLike

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import numpy as np
from ..core.narrow_floats import dtype_kind as _dtype_kind

from .. import numpy as fnp
from ..core.array import Array as _Array
from ..ops.control_flow import while_loop as _while_loop
from ..transforms.ad import value_and_grad as _value_and_grad


class OptimizeResults(NamedTuple):
    """What `minimize` returns (the fields of ``jax.scipy.optimize.OptimizeResults``).

    Example::

        >>> OptimizeResults._fields[:3]
        ('x', 'success', 'status')
    """

    x: _Array
    success: Any
    status: Any
    fun: _Array
    jac: _Array
    hess_inv: _Array | None
    nfev: Any
    njev: Any
    nit: Any


class _Zoom(NamedTuple):
    """The zoom's loop state (Nocedal & Wright, Algorithm 3.6): the bracket ``lo``/``hi`` with
    values and slopes, the previous ``hi`` (``rec``, the cubic's third point) and the step
    accepted so far (``star``)."""

    done: Any
    failed: Any
    j: Any
    a_lo: Any
    phi_lo: Any
    dphi_lo: Any
    a_hi: Any
    phi_hi: Any
    dphi_hi: Any
    a_rec: Any
    phi_rec: Any
    a_star: Any
    phi_star: Any
    dphi_star: Any
    g_star: Any
    nfev: Any


def _pick(cond, new: dict, state: NamedTuple) -> NamedTuple:
    """``state`` with the fields named in ``new`` replaced where ``cond`` holds."""
    return state._replace(**{k: fnp.where(cond, v, getattr(state, k)) for k, v in new.items()})


def _cubicmin(a, fa, fpa, b, fb, c, fc):
    """The minimizer of the cubic through ``(a, fa)`` with slope ``fpa``, ``(b, fb)`` and
    ``(c, fc)`` (NaN where there is none)."""
    db, dc = b - a, c - a
    denom = (db * dc) ** 2 * (db - dc)
    r1, r2 = fb - fa - fpa * db, fc - fa - fpa * dc
    big_a = (dc ** 2 * r1 - db ** 2 * r2) / denom
    big_b = (-dc ** 3 * r1 + db ** 3 * r2) / denom
    return a + (-big_b + fnp.sqrt(big_b * big_b - 3.0 * big_a * fpa)) / (3.0 * big_a)


def _quadmin(a, fa, fpa, b, fb):
    """The minimizer of the quadratic through ``(a, fa)`` with slope ``fpa`` and ``(b, fb)``."""
    db = b - a
    return a - fpa / (2.0 * ((fb - fa - fpa * db) / db ** 2))


def _zoom(phi_dphi, wolfe_one, wolfe_two, lo, hi, g0, skip):
    """Algorithm 3.6 with JAX's interpolation: a cubic through the bracket and the previous
    ``hi`` when it falls inside (from the second step), else a quadratic, else bisection.
    ``lo``/``hi`` are ``(a, phi, dphi)``; ``skip`` makes it a no-op (both zooms are traced in
    the bracketing loop's body, as in JAX)."""
    (a_lo, phi_lo, dphi_lo), (a_hi, phi_hi, dphi_hi) = lo, hi
    init = _Zoom(done=fnp.asarray(False), failed=fnp.asarray(False), j=fnp.asarray(0), a_lo=a_lo,
                 phi_lo=phi_lo, dphi_lo=dphi_lo, a_hi=a_hi, phi_hi=phi_hi, dphi_hi=dphi_hi,
                 a_rec=(a_lo + a_hi) / 2.0, phi_rec=(phi_lo + phi_hi) / 2.0,
                 a_star=fnp.ones_like(a_lo), phi_star=phi_lo, dphi_star=dphi_lo, g_star=g0,
                 nfev=fnp.asarray(0))
    threshold = 1e-5 if np.finfo(a_lo.dtype).bits < 64 else 1e-10

    def body(s):
        dalpha = s.a_hi - s.a_lo
        a, b = fnp.minimum(s.a_hi, s.a_lo), fnp.maximum(s.a_hi, s.a_lo)
        s = s._replace(failed=s.failed | (dalpha <= threshold))
        cubic = _cubicmin(s.a_lo, s.phi_lo, s.dphi_lo, s.a_hi, s.phi_hi, s.a_rec, s.phi_rec)
        use_cubic = (s.j > 0) & (cubic > a + 0.2 * dalpha) & (cubic < b - 0.2 * dalpha)
        quad = _quadmin(s.a_lo, s.phi_lo, s.dphi_lo, s.a_hi, s.phi_hi)
        use_quad = (~use_cubic) & (quad > a + 0.1 * dalpha) & (quad < b - 0.1 * dalpha)
        a_j = fnp.where(use_cubic, cubic, fnp.where(use_quad, quad, (s.a_lo + s.a_hi) / 2.0))
        phi_j, dphi_j, g_j = phi_dphi(a_j)
        phi_j, dphi_j = phi_j.astype(s.phi_lo.dtype), dphi_j.astype(s.dphi_lo.dtype)
        s = s._replace(nfev=s.nfev + 1)
        hi_to_j = wolfe_one(a_j, phi_j) | (phi_j >= s.phi_lo)
        star_to_j = wolfe_two(dphi_j) & ~hi_to_j
        hi_to_lo = (dphi_j * (s.a_hi - s.a_lo) >= 0.0) & ~hi_to_j & ~star_to_j
        lo_to_j = ~hi_to_j & ~star_to_j
        s = _pick(hi_to_j, dict(a_hi=a_j, phi_hi=phi_j, dphi_hi=dphi_j, a_rec=s.a_hi, phi_rec=s.phi_hi), s)
        s = _pick(star_to_j, dict(a_star=a_j, phi_star=phi_j, dphi_star=dphi_j, g_star=g_j), s)
        s = s._replace(done=s.done | star_to_j)
        s = _pick(hi_to_lo, dict(a_hi=s.a_lo, phi_hi=s.phi_lo, dphi_hi=s.dphi_lo, a_rec=s.a_hi,
                                 phi_rec=s.phi_hi), s)
        s = _pick(lo_to_j & ~hi_to_lo, dict(a_rec=s.a_lo, phi_rec=s.phi_lo), s)
        s = _pick(lo_to_j, dict(a_lo=a_j, phi_lo=phi_j, dphi_lo=dphi_j), s)
        j = s.j + 1
        return s._replace(j=j, failed=s.failed | (j >= 30))

    return _while_loop(lambda s: ~s.done & ~skip & ~s.failed, body, init)


class _Search(NamedTuple):
    """The bracketing loop's state (Algorithm 3.5): the previous trial step and the accepted one."""

    done: Any
    failed: Any
    i: Any
    a_prev: Any
    phi_prev: Any
    dphi_prev: Any
    nfev: Any
    a_star: Any
    phi_star: Any
    dphi_star: Any
    g_star: Any


class _LineSearch(NamedTuple):
    a_k: Any
    f_k: Any
    g_k: Any
    failed: Any
    status: Any  # 0 passed, 1 zoom failed, 3 too many iterations
    nfev: Any


def _line_search(value_grad, xk, pk, old_fval, old_old_fval, gfk, maxiter, c1=1e-4, c2=0.9) -> _LineSearch:
    """A step along ``pk`` satisfying the strong Wolfe conditions: JAX's line search (Nocedal &
    Wright, Algorithm 3.5: the first trial step from the last decrease, doubling, a zoom of
    the bracket), as one `while_loop` (traceable under `jit` and `vmap`)."""

    def phi_dphi(t):
        t = fnp.asarray(t, dtype=pk.dtype)
        phi, g = value_grad(xk + t * pk)
        return phi, fnp.real(fnp.dot(g, pk)), g

    phi0, dphi0 = old_fval, fnp.real(fnp.dot(gfk, pk))
    candidate = 1.01 * 2 * (phi0 - old_old_fval) / dphi0
    start = fnp.where(candidate > 1, 1.0, candidate)

    def wolfe_one(a, phi):  # sufficient decrease fails
        return phi > phi0 + c1 * a * dphi0

    def wolfe_two(dphi):  # the curvature condition holds
        return fnp.abs(dphi) <= -c2 * dphi0

    def body(s):
        a_i = fnp.where(s.i == 1, start, s.a_prev * 2.0)
        phi_i, dphi_i, g_i = phi_dphi(a_i)
        to_zoom1 = wolfe_one(a_i, phi_i) | ((phi_i >= s.phi_prev) & (s.i > 1))
        to_i = wolfe_two(dphi_i) & ~to_zoom1
        to_zoom2 = (dphi_i >= 0.0) & ~to_zoom1 & ~to_i
        prev, here = (s.a_prev, s.phi_prev, s.dphi_prev), (a_i, phi_i, dphi_i)
        z1 = _zoom(phi_dphi, wolfe_one, wolfe_two, prev, here, gfk, ~to_zoom1)
        z2 = _zoom(phi_dphi, wolfe_one, wolfe_two, here, prev, gfk, ~to_zoom2)
        s = s._replace(nfev=s.nfev + 1 + z1.nfev + z2.nfev)
        star = ("a_star", "phi_star", "dphi_star", "g_star")
        s = _pick(to_zoom1, {k: getattr(z1, k) for k in star}, s)
        s = s._replace(done=s.done | to_zoom1, failed=s.failed | (to_zoom1 & z1.failed))
        s = _pick(to_i, dict(a_star=a_i, phi_star=phi_i, dphi_star=dphi_i, g_star=g_i), s)
        s = s._replace(done=s.done | to_i)
        s = _pick(to_zoom2, {k: getattr(z2, k) for k in star}, s)
        s = s._replace(done=s.done | to_zoom2, failed=s.failed | (to_zoom2 & z2.failed))
        return s._replace(i=s.i + 1, a_prev=a_i, phi_prev=phi_i, dphi_prev=dphi_i)

    zero = fnp.zeros((), start.dtype)
    init = _Search(done=fnp.asarray(False), failed=fnp.asarray(False), i=fnp.asarray(1), a_prev=zero,
                   phi_prev=phi0, dphi_prev=dphi0, nfev=fnp.asarray(0), a_star=zero, phi_star=phi0,
                   dphi_star=dphi0, g_star=gfk)
    s = _while_loop(lambda s: ~s.done & (s.i <= maxiter) & ~s.failed, body, init)
    status = fnp.where(s.failed, 1, fnp.where(s.i > maxiter, 3, 0))
    alpha = s.a_star
    if np.finfo(alpha.dtype).bits != 64:  # a floor on the step, so that float32 runs move on
        alpha = fnp.where(fnp.abs(alpha) < 1e-8, fnp.sign(alpha) * 1e-8, alpha)
    return _LineSearch(a_k=alpha, f_k=s.phi_star, g_k=s.g_star, failed=s.failed | ~s.done, status=status,
                       nfev=s.nfev)


class _State(NamedTuple):
    """BFGS's loop state."""

    converged: Any
    failed: Any
    k: Any
    nfev: Any
    x: Any
    f: Any
    g: Any
    h: Any
    old_old_f: Any
    ls_status: Any


def _bfgs(fun, x0, args, gtol, maxiter, ls_maxiter, norm):
    """JAX's BFGS (Nocedal & Wright, Algorithm 6.1): each iteration takes the line search's
    step (also the last, failed one), updates the inverse Hessian where ``1 / (y.s)`` is
    finite, and stops when ``norm(grad, ord=norm) < gtol``, when the line search fails or
    after ``maxiter`` iterations."""
    x = fnp.asarray(x0)
    if x.ndim != 1:
        raise ValueError(f"minimize: x0 must be one-dimensional, got shape {x.shape} (as jax.scipy.optimize)")
    if _dtype_kind(x.dtype) != "f":
        x = x.astype(fnp.zeros(()).dtype)  # the default float type (float32 with x64 off)
    value_grad = _value_and_grad(lambda z: fun(z, *args))
    n = x.shape[0]
    f, g = value_grad(x)

    def converged(grad):
        return fnp.linalg.norm(grad, ord=norm) < gtol

    def body(s):
        p = -fnp.dot(s.h, s.g)
        ls = _line_search(value_grad, s.x, p, s.f, s.old_old_f, s.g, ls_maxiter)
        step = ls.a_k * p
        y = ls.g_k - s.g
        rho = fnp.reciprocal(fnp.dot(y, step))
        w = fnp.eye(n, dtype=rho.dtype) - rho * step[:, None] * y[None, :]
        h = w @ s.h @ w.T + rho * step[:, None] * step[None, :]
        return _State(converged=converged(ls.g_k), failed=ls.failed, k=s.k + 1, nfev=s.nfev + ls.nfev,
                      x=s.x + step, f=ls.f_k, g=ls.g_k, h=fnp.where(fnp.isfinite(rho), h, s.h), old_old_f=s.f,
                      ls_status=ls.status)

    init = _State(converged=converged(g), failed=fnp.asarray(False), k=fnp.asarray(0), nfev=fnp.asarray(1),
                  x=x, f=f, g=g, h=fnp.eye(n, dtype=x.dtype), old_old_f=f + fnp.linalg.norm(g) / 2,
                  ls_status=fnp.asarray(0))
    out = _while_loop(lambda s: ~s.converged & ~s.failed & (s.k < maxiter), body, init)
    status = fnp.where(out.converged, 0, fnp.where(out.k == maxiter, 1,
                                                   fnp.where(out.failed, 2 + out.ls_status, -1)))
    return OptimizeResults(x=out.x, success=out.converged & ~out.failed, status=status, fun=out.f, jac=out.g,
                           hess_inv=out.h, nfev=out.nfev, njev=out.nfev, nit=out.k)


def minimize(fun: Callable, x0: ArrayLike, args: tuple = (), *, method: str, tol: float | None = None,
             options: Mapping[str, Any] | None = None) -> OptimizeResults:
    """Minimize a scalar function of a 1-d array (``method="BFGS"``), as JAX does.

    ``options``: ``maxiter`` (default ``200 * x0.size``), ``gtol`` (default 1e-5), ``norm``
    (the order of the gradient norm compared with ``gtol``, default ``inf``),
    ``line_search_maxiter`` (default 10).  ``tol`` is accepted and unused, as in JAX.

    Example::

        >>> import fgrad.numpy as fnp
        >>> res = minimize(lambda x: fnp.sum((x - 1.0) ** 2) + fnp.sum(x ** 4), fnp.zeros(2), method="BFGS")
        >>> [round(v, 6) for v in res.x.tolist()], int(res.status)
        ([0.589754, 0.589754], 0)
    """
    if not isinstance(args, tuple):
        raise TypeError(f"args argument to fgrad.scipy.optimize.minimize must be a tuple, got {args}")
    options = dict(options or {})
    if method.lower() != "bfgs":
        raise ValueError(f"Method {method} not recognized (fgrad.scipy.optimize.minimize supports 'BFGS')")
    x0 = fnp.asarray(x0)
    maxiter = options.pop("maxiter", None)
    maxiter = int(np.size(x0)) * 200 if maxiter is None else int(maxiter)
    gtol = float(options.pop("gtol", 1e-5))
    ls_maxiter = int(options.pop("line_search_maxiter", 10))
    norm = options.pop("norm", np.inf)
    if options:
        raise TypeError(f"minimize: unexpected options {sorted(options)} (BFGS takes maxiter, norm, gtol, "
                        "line_search_maxiter)")
    return _bfgs(fun, x0, args, gtol, maxiter, ls_maxiter, norm)


__all__ = ["minimize", "OptimizeResults"]
