"""`fgrad.scipy.optimize`: ``minimize(fun, x0, method="BFGS")`` as ``jax.scipy.optimize``.

BFGS (Nocedal & Wright, Algorithm 6.1) with an inverse-Hessian estimate, a strong-Wolfe line
search (Algorithms 3.5/3.6, bisection in the zoom) and gradients from `fgrad.value_and_grad`.
It stops when ``max|grad| <= gtol`` (default 1e-5), after ``maxiter`` iterations (default
``200 * x0.size``) or when the line search fails.  Both loops are `while_loop`s, as in JAX:
``minimize`` runs under `fgrad.jit` and `fgrad.vmap`; it is not differentiable (the solution's
derivative with respect to parameters of ``fun`` needs the implicit function theorem, which
neither fgrad nor JAX applies here).

Example::

    >>> import fgrad.numpy as fnp
    >>> res = minimize(lambda x: fnp.sum((x - 3.0) ** 2), fnp.zeros(2), method="BFGS")
    >>> res.x, bool(res.success)
    (Array([3., 3.], dtype=float64), True)
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


_C1, _C2 = 1e-4, 0.9


class _Search(NamedTuple):
    """The line search's loop state: bracketing (stage 0), zooming (1) or done (2)."""

    stage: Any
    iters: Any  # evaluations in the current stage
    a: Any  # the next trial step while bracketing
    prev_a: Any
    prev_f: Any
    lo: Any
    hi: Any
    f_lo: Any
    alpha: Any  # the accepted step, with its value and gradient
    f: Any
    g: Any
    ok: Any
    evals: Any


def _line_search(value_grad, x, f0, g0, p, maxiter):
    """A step ``alpha`` satisfying the strong Wolfe conditions along ``p`` (Nocedal & Wright,
    Algorithms 3.5/3.6 with bisection in the zoom), as one `while_loop` (traceable under
    `jit`): one function evaluation per iteration.  Returns ``(alpha, f, g, ok, evals)``."""
    d0 = fnp.vdot(g0, p)
    dt = f0.dtype

    def scalar(v):
        return fnp.asarray(v, dtype=dt)

    def cond(s):
        return s.stage < 2

    def body(s):
        zooming = s.stage == 1
        trial = fnp.where(zooming, 0.5 * (s.lo + s.hi), s.a)
        fa, ga = value_grad(x + trial * p)
        da = fnp.vdot(ga, p)
        sufficient = fa <= f0 + _C1 * trial * d0
        curvature = fnp.abs(da) <= -_C2 * d0
        # bracketing (Algorithm 3.5)
        first = s.iters == 0
        to_zoom_lo = (~fnp.isfinite(fa)) | (~sufficient) | ((~first) & (fa >= s.prev_f))
        b_done = (~to_zoom_lo) & curvature
        to_zoom_hi = (~to_zoom_lo) & (~curvature) & (da >= 0)
        b_zoom = to_zoom_lo | to_zoom_hi
        b_lo = fnp.where(to_zoom_lo, s.prev_a, trial)
        b_hi = fnp.where(to_zoom_lo, trial, s.prev_a)
        b_flo = fnp.where(to_zoom_lo, s.prev_f, fa)
        b_stage = fnp.where(b_done, 2, fnp.where(b_zoom, 1, 0))
        b_iters = fnp.where(b_zoom, 0, s.iters + 1)
        b_failed = (b_stage == 0) & (b_iters >= maxiter)
        # zooming (Algorithm 3.6, bisection)
        shrink_hi = (~sufficient) | (fa >= s.f_lo)
        z_done = (~shrink_hi) & curvature
        flip = (~shrink_hi) & (~curvature) & (da * (s.hi - s.lo) >= 0)
        z_hi = fnp.where(shrink_hi, trial, fnp.where(flip, s.lo, s.hi))
        z_lo = fnp.where(shrink_hi | z_done, s.lo, trial)
        z_flo = fnp.where(shrink_hi | z_done, s.f_lo, fa)
        z_iters = s.iters + 1
        z_failed = (~z_done) & (z_iters >= maxiter)
        done_ok = fnp.where(zooming, z_done, b_done)
        failed = fnp.where(zooming, z_failed, b_failed)
        stage = fnp.where(done_ok | failed, 2, fnp.where(zooming, 1, b_stage))
        return _Search(
            stage=stage,
            iters=fnp.where(zooming, z_iters, b_iters),
            a=fnp.where(zooming, s.a, 2.0 * trial),
            prev_a=fnp.where(zooming, s.prev_a, trial),
            prev_f=fnp.where(zooming, s.prev_f, fa),
            lo=fnp.where(zooming, z_lo, b_lo),
            hi=fnp.where(zooming, z_hi, b_hi),
            f_lo=fnp.where(zooming, z_flo, b_flo),
            alpha=fnp.where(done_ok, trial, s.alpha),
            f=fnp.where(done_ok, fa, s.f),
            g=fnp.where(done_ok, ga, s.g),
            ok=done_ok,
            evals=s.evals + 1,
        )

    zero = scalar(0.0)
    init = _Search(stage=fnp.asarray(0), iters=fnp.asarray(0), a=scalar(1.0), prev_a=zero, prev_f=f0, lo=zero,
                   hi=zero, f_lo=f0, alpha=zero, f=f0, g=g0, ok=fnp.asarray(False), evals=fnp.asarray(0))
    out = _while_loop(cond, body, init)
    return out.alpha, out.f, out.g, out.ok, out.evals


class _State(NamedTuple):
    """BFGS's loop state."""

    nit: Any
    x: Any
    f: Any
    g: Any
    h: Any
    status: Any  # -1 while running, then 0 converged, 3 line search failed
    nfev: Any


def _bfgs(fun, x0, args, gtol, maxiter, ls_maxiter):
    x = fnp.asarray(x0)
    if x.ndim != 1:
        raise ValueError(f"minimize: x0 must be one-dimensional, got shape {x.shape} (as jax.scipy.optimize)")
    if _dtype_kind(x.dtype) != "f":
        x = x.astype(np.float64)
    value_grad = _value_and_grad(lambda z: fun(z, *args))
    n = x.shape[0]
    eye = fnp.eye(n, dtype=x.dtype)
    f, g = value_grad(x)

    def converged(grad):
        return fnp.max(fnp.abs(grad)) <= gtol

    def cond(s):
        return (s.status < 0) & (s.nit < maxiter)

    def body(s):
        p = -(s.h @ s.g)
        alpha, f_new, g_new, ok, evals = _line_search(value_grad, s.x, s.f, s.g, p, ls_maxiter)
        step = alpha * p
        y = g_new - s.g
        sy = fnp.vdot(y, step)
        rho = 1.0 / fnp.where(sy > 0, sy, 1.0)
        left = eye - rho * fnp.outer(step, y)
        h_new = fnp.where(sy > 0, left @ s.h @ left.T + rho * fnp.outer(step, step), s.h)
        status = fnp.where(ok, fnp.where(converged(g_new), 0, -1), 3)
        return _State(
            nit=fnp.where(ok, s.nit + 1, s.nit),
            x=fnp.where(ok, s.x + step, s.x),
            f=fnp.where(ok, f_new, s.f),
            g=fnp.where(ok, g_new, s.g),
            h=fnp.where(ok, h_new, s.h),
            status=status,
            nfev=s.nfev + evals,
        )

    init = _State(nit=fnp.asarray(0), x=x, f=f, g=g, h=eye, status=fnp.where(converged(g), 0, -1),
                  nfev=fnp.asarray(1))
    out = _while_loop(cond, body, init)
    status = fnp.where(out.status < 0, fnp.where(converged(out.g), 0, 1), out.status)
    return OptimizeResults(x=out.x, success=status == 0, status=status, fun=out.f, jac=out.g, hess_inv=out.h,
                           nfev=out.nfev, njev=out.nfev, nit=out.nit)


def minimize(fun: Callable, x0: ArrayLike, args: tuple = (), *, method: str, tol: float | None = None,
             options: Mapping[str, Any] | None = None) -> OptimizeResults:
    """Minimize a scalar function of a 1-d array (``method="BFGS"``).

    ``options``: ``maxiter`` (default ``200 * x0.size``), ``gtol`` (default 1e-5, or ``tol``),
    ``line_search_maxiter`` (default 10).

    Example::

        >>> import fgrad.numpy as fnp
        >>> rosen = lambda x: (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2
        >>> res = minimize(rosen, fnp.asarray([-1.0, 1.0]), method="BFGS")
        >>> bool(fnp.allclose(res.x, fnp.ones(2), atol=1e-4)), int(res.status)
        (True, 0)
    """
    options = dict(options or {})
    if method.lower() != "bfgs":
        raise ValueError(f"Method {method} not recognized (fgrad.scipy.optimize.minimize supports 'BFGS')")
    x0 = fnp.asarray(x0)
    maxiter = options.pop("maxiter", None)
    maxiter = 200 * max(int(x0.size), 1) if maxiter is None else int(maxiter)
    gtol = options.pop("gtol", 1e-5 if tol is None else tol)
    ls_maxiter = int(options.pop("line_search_maxiter", 10))
    options.pop("norm", None)
    if options:
        raise TypeError(f"minimize: unexpected options {sorted(options)} (BFGS takes maxiter, gtol, "
                        "line_search_maxiter)")
    return _bfgs(fun, x0, tuple(args), float(gtol), maxiter, ls_maxiter)


__all__ = ["minimize", "OptimizeResults"]
