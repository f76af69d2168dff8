"""`fgrad.scipy.optimize`: ``minimize(fun, x0, method="BFGS")`` as ``jax.scipy.optimize``.

BFGS (Nocedal & Wright, Algorithm 6.1) with an inverse-Hessian estimate, a strong-Wolfe line
search (Algorithms 3.5/3.6, bisection in the zoom) and gradients from `fgrad.value_and_grad`.
It stops when ``max|grad| <= gtol`` (default 1e-5), after ``maxiter`` iterations (default
``200 * x0.size``) or when the line search fails.  Unlike JAX's, the loop is a Python loop
run eagerly: ``minimize`` is not traceable under `fgrad.jit`/`fgrad.vmap` (call it outside;
``fun`` itself may be jitted).

Example::

    >>> import fgrad.numpy as fnp
    >>> res = minimize(lambda x: fnp.sum((x - 3.0) ** 2), fnp.zeros(2), method="BFGS")
    >>> res.x, bool(res.success)
    (Array([3., 3.], dtype=float64), True)
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, NamedTuple

import numpy as np
from ..core.narrow_floats import dtype_kind as _dtype_kind

from .. import numpy as fnp
from ..core.array import Array as _Array
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


def _line_search(value_grad, x, f0, g0, p, maxiter):
    """A step ``alpha`` satisfying the strong Wolfe conditions along ``p``, with the new value
    and gradient; ``ok`` False when none was found in ``maxiter`` evaluations."""
    d0 = float(fnp.vdot(g0, p))
    evals = 0

    def phi(alpha):
        nonlocal evals
        evals += 1
        f, g = value_grad(x + alpha * p)
        return float(f), f, g, float(fnp.vdot(g, p))

    def zoom(lo, hi, f_lo):
        for _ in range(maxiter):
            a = 0.5 * (lo + hi)
            fa, f, g, da = phi(a)
            if fa > f0 + _C1 * a * d0 or fa >= f_lo:
                hi = a
            else:
                if abs(da) <= -_C2 * d0:
                    return a, f, g, True
                if da * (hi - lo) >= 0:
                    hi = lo
                lo, f_lo = a, fa
        return lo, None, None, False

    prev_a, prev_f = 0.0, float(f0)
    a = 1.0
    for i in range(maxiter):
        fa, f, g, da = phi(a)
        if not np.isfinite(fa) or fa > f0 + _C1 * a * d0 or (i > 0 and fa >= prev_f):
            res = zoom(prev_a, a, prev_f)
            return (*res, evals)
        if abs(da) <= -_C2 * d0:
            return a, f, g, True, evals
        if da >= 0:
            res = zoom(a, prev_a, fa)
            return (*res, evals)
        prev_a, prev_f, a = a, fa, 2.0 * a
    return a, None, None, False, evals


def _bfgs(fun, x0, args, gtol, maxiter, ls_maxiter):
    x = fnp.asarray(x0)
    if x.ndim != 1:
        raise ValueError(f"minimize: x0 must be one-dimensional, got shape {x.shape} (as jax.scipy.optimize)")
    if _dtype_kind(x.dtype) != "f":
        x = x.astype(np.float64)
    value_grad = _value_and_grad(lambda z: fun(z, *args))
    n = x.shape[0]
    eye = fnp.eye(n, dtype=x.dtype)
    h = eye
    f, g = value_grad(x)
    nfev = njev = 1
    status, nit = 1, 0
    for nit in range(1, maxiter + 1):  # noqa: B007
        if float(fnp.max(fnp.abs(g))) <= gtol:
            status, nit = 0, nit - 1
            break
        p = -(h @ g)
        alpha, f_new, g_new, ok, evals = _line_search(value_grad, x, f, g, p, ls_maxiter)
        nfev += evals
        njev += evals
        if not ok:
            status = 3
            break
        s = alpha * p
        y = g_new - g
        x, f, g = x + s, f_new, g_new
        sy = float(fnp.vdot(y, s))
        if sy > 0:
            rho = 1.0 / sy
            left = eye - rho * fnp.outer(s, y)
            h = left @ h @ left.T + rho * fnp.outer(s, s)
    else:
        status = 0 if float(fnp.max(fnp.abs(g))) <= gtol else 1
    return OptimizeResults(x=x, success=status == 0, status=status, fun=f, jac=g, hess_inv=h, nfev=nfev,
                           njev=njev, nit=nit)


def minimize(fun: Callable, x0, args: tuple = (), *, method: str, tol: float | None = None,
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
