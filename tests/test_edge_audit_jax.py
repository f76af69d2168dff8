"""Edge audit of the functional face against JAX: second derivatives, forward vs reverse mode,
at special points (0, poles, ties, degenerate and singular matrices, -inf rows, the bounds of
clip) and at random points, in float64; and float32 inputs keep float32 derivatives.

For each case ``f`` (an array function) at a point ``x`` the grid records four derivatives:
``g`` the gradient of ``sum(w * f(x))`` (reverse mode), ``jvp`` the forward tangent ``J t``,
``hvp`` forward-over-reverse ``d/de g(x + e t)`` and ``gg`` reverse-over-reverse
``grad(<g(x), t>)``; scalar cases add ``g3``, the third derivative (three nested grads).
``w`` and ``t`` are fixed ramps.  ``JAX`` (at the end of this file) holds the numbers
recorded once from live jax 0.10.2 (CPU, ``jax_enable_x64``); the sweep runs without jax,
and ``test_stored_numbers_match_live_jax*`` re-check them when jax is installed.

Deliberate deviations are in ``DEVIATIONS`` with fgrad's numbers and the reason (each is
also in docs/numerics.md); there fgrad's number was checked against the mathematical value
(mpmath or the closed form, in the reason).  Independently of JAX, fgrad's own modes must
agree: ``<w, J t> == <g, t>`` and ``hvp == gg`` (`test_forward_and_reverse_agree`).

Regenerate ``JAX`` after changing the grid::

    python -c "import tests.test_edge_audit_jax as m; m.print_jax_table()"
"""

# ruff: noqa: E501 - the stored table at the end is generated, one case a line
from __future__ import annotations

import types
import warnings

import numpy as np
import pytest
from tests._host_numerics import AVX512
from hypothesis import given, settings
from hypothesis import strategies as st

import fgrad
import fgrad.numpy as fnp

nan, inf = np.nan, np.inf


def _fgrad_lib():
    import fgrad.lax
    import fgrad.nn
    import fgrad.scipy.linalg
    import fgrad.scipy.special

    return types.SimpleNamespace(np=fnp, sp=fgrad.scipy.special, nn=fgrad.nn, lax=fgrad.lax,
                                 sl=fgrad.scipy.linalg, grad=fgrad.grad, jvp=fgrad.jvp)


def _jax_lib():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    import jax.nn
    import jax.numpy as jnp
    import jax.scipy.linalg
    import jax.scipy.special

    return types.SimpleNamespace(np=jnp, sp=jax.scipy.special, nn=jax.nn, lax=jax.lax,
                                 sl=jax.scipy.linalg, grad=jax.grad, jvp=jax.jvp)


def _m(*rows):
    return np.array(rows, np.float64)


# name -> (function of the library namespace L, returning f, and the points)
SCALAR = {
    "gammaln": (lambda L: L.sp.gammaln, [1.0, 2.0, -0.5, 0.5, 1e-8]),
    "digamma": (lambda L: L.sp.digamma, [1.0, -0.5, 0.5, 2.0]),
    "erf": (lambda L: L.sp.erf, [0.0, 1.0, -3.0, inf]),
    "erfc": (lambda L: L.sp.erfc, [0.0, 1.0, 30.0, inf]),
    "erfinv": (lambda L: L.sp.erfinv, [0.0, 0.5, 1.0, -1.0]),
    "erfcx": (lambda L: L.sp.erfcx, [0.0, 1.0, -1.0, 30.0]),
    "ndtr": (lambda L: L.sp.ndtr, [0.0, 1.0, -40.0, inf]),
    "ndtri": (lambda L: L.sp.ndtri, [0.5, 0.1, 0.0, 1.0]),
    "log_ndtr": (lambda L: L.sp.log_ndtr, [0.0, -40.0, 40.0, -inf, inf]),
    "i0": (lambda L: L.sp.i0, [0.0, 1.0, -2.0]),
    "i0e": (lambda L: L.sp.i0e, [0.0, 1.0, -2.0]),
    "i1": (lambda L: L.sp.i1, [0.0, 1.0, -2.0]),
    "i1e": (lambda L: L.sp.i1e, [0.0, 1.0, -2.0, 1e-150]),
    "i1_tiny": (lambda L: L.sp.i1, [1e-150, 1e-12]),
    "entr": (lambda L: L.sp.entr, [0.0, 1.0, 0.5, -1.0]),
    "logit": (lambda L: L.sp.logit, [0.0, 0.5, 1.0]),
    "expit": (lambda L: L.sp.expit, [0.0, 40.0, -40.0, inf, -inf]),
    "spence": (lambda L: L.sp.spence, [0.0, 1.0, 2.0]),
    "polygamma1": (lambda L: lambda x: L.sp.polygamma(1, x), [1.0, 0.5]),
    "zeta2": (lambda L: lambda x: L.sp.zeta(2.0, x), [1.0, 0.5]),
    "softplus": (lambda L: L.nn.softplus, [0.0, 40.0, -40.0, inf, -inf]),
    "log_sigmoid": (lambda L: L.nn.log_sigmoid, [0.0, 40.0, -40.0, inf, -inf]),
    "silu": (lambda L: L.nn.silu, [0.0, 40.0, -40.0]),
    "gelu_tanh": (lambda L: lambda x: L.nn.gelu(x, approximate=True), [0.0, 1.0, -10.0]),
    "gelu_erf": (lambda L: lambda x: L.nn.gelu(x, approximate=False), [0.0, 1.0, -10.0]),
    "elu": (lambda L: L.nn.elu, [0.0, 1.0, -1.0]),
    "celu": (lambda L: L.nn.celu, [0.0, 1.0, -1.0]),
    "selu": (lambda L: L.nn.selu, [0.0, 1.0, -1.0]),
    "relu6": (lambda L: L.nn.relu6, [0.0, 6.0, 3.0]),
    "hard_tanh": (lambda L: L.nn.hard_tanh, [1.0, -1.0, 0.0]),
    "mish": (lambda L: L.nn.mish, [0.0, 1.0, -30.0]),
    "sinc": (lambda L: L.np.sinc, [0.0, 1.0, 1e-9, 0.5]),
    "cbrt": (lambda L: L.np.cbrt, [1.0, -1.0]),
    "arcsinh": (lambda L: L.np.arcsinh, [0.0, 1e200]),
    "x**0": (lambda L: lambda x: x ** L.np.zeros_like(x), [0.0, 2.0]),
    "x**2.0": (lambda L: lambda x: L.np.power(x, 2.0), [0.0, -2.0]),
    "x**3": (lambda L: lambda x: x ** 3, [0.0, -2.0]),
    "x**-2": (lambda L: lambda x: x ** -2, [-2.0, 0.5]),
    "float_power_half": (lambda L: lambda x: L.np.float_power(x, 0.5), [0.0, 4.0]),
    "double_where_sqrt": (lambda L: lambda x: L.np.where(x > 0, L.np.sqrt(L.np.where(x > 0, x, 1.0)), 0.0), [0.0, 4.0, -1.0]),
    "clip01": (lambda L: lambda x: L.np.clip(x, 0.0, 1.0), [0.0, 1.0, 0.5]),
}

# (x, y) points of functions of two arguments: each argument's derivatives and the mixed one
BINARY = {
    "xlogy": (lambda L: L.sp.xlogy, [(0.0, 0.0), (0.0, 1.0), (1.0, 0.0), (2.0, 3.0)]),
    "xlog1py": (lambda L: L.sp.xlog1py, [(0.0, -1.0), (0.0, 0.0), (2.0, 3.0)]),
    "rel_entr": (lambda L: L.sp.rel_entr, [(0.0, 0.0), (0.0, 1.0), (2.0, 3.0)]),
    "kl_div": (lambda L: L.sp.kl_div, [(0.0, 0.0), (0.0, 1.0), (1.0, 0.0), (2.0, 3.0)]),
    "betaln": (lambda L: L.sp.betaln, [(1.0, 1.0), (0.5, 2.0)]),
    "gammainc": (lambda L: L.sp.gammainc, [(2.0, 1.0), (0.5, 3.0)]),
    "gammaincc": (lambda L: L.sp.gammaincc, [(2.0, 1.0), (0.5, 3.0)]),
    "power": (lambda L: L.np.power, [(0.0, 0.0), (2.0, 3.0), (0.0, 2.0)]),
    "arctan2": (lambda L: L.np.arctan2, [(1.0, 1.0), (0.0, 1.0)]),
    "hypot": (lambda L: L.np.hypot, [(3.0, 4.0), (0.0, 1.0)]),
    "logaddexp": (lambda L: L.np.logaddexp, [(0.0, 0.0), (-inf, 0.0)]),
    "remainder": (lambda L: L.np.remainder, [(1.0, 0.0), (0.5, 1.0)]),
}

# name -> (f of L, x): array functions
ARRAY = {
    "logsumexp_rows": (lambda L: lambda v: L.sp.logsumexp(v, axis=1), _m([-inf, -inf, -inf], [0.0, -inf, 1.0], [1.0, 1.0, 1.0])),
    "logsumexp_b": (lambda L: lambda v: L.sp.logsumexp(v, axis=1, b=L.np.asarray([[1.0, 0.0, 2.0]] * 3)), _m([-inf, -inf, -inf], [0.0, -inf, 1.0], [1.0, 1.0, 1.0])),
    "logsumexp_b_signed": (lambda L: lambda v: L.sp.logsumexp(v, b=L.np.asarray([1.0, -0.5, 2.0])), _m(0.0, 1.0, -1.0)),
    "log_softmax_rows": (lambda L: lambda v: L.nn.log_softmax(v, axis=1), _m([-inf, -inf, -inf], [0.0, -inf, 1.0], [1.0, 1.0, 1.0])),
    "softmax_rows": (lambda L: lambda v: L.nn.softmax(v, axis=1), _m([-inf, -inf, -inf], [0.0, -inf, 1.0], [1.0, 1.0, 1.0])),
    "softmax_where": (lambda L: lambda v: L.nn.softmax(v, axis=1, where=L.np.asarray([[True, False, True]] * 2)), _m([0.0, 1.0, 2.0], [0.0, 5.0, 2.0])),
    "max_ties": (lambda L: lambda v: L.np.max(v), _m(1.0, 3.0, 3.0, 2.0)),
    "max_ties_axis": (lambda L: lambda v: L.np.max(v, axis=1), _m([1.0, 1.0], [2.0, 1.0])),
    "min_ties": (lambda L: lambda v: L.np.min(v), _m(1.0, 1.0, 3.0)),
    "sort_ties": (lambda L: lambda v: L.np.sort(v), _m(2.0, 1.0, 2.0, 1.0)),
    "argsort_take": (lambda L: lambda v: v[L.np.argsort(v)], _m(2.0, 1.0, 2.0)),
    "median_ties": (lambda L: lambda v: L.np.median(v), _m(2.0, 1.0, 2.0, 2.0)),
    "median_even": (lambda L: lambda v: L.np.median(v), _m(4.0, 1.0, 2.0, 3.0)),
    "quantile_ties": (lambda L: lambda v: L.np.quantile(v, 0.3), _m(4.0, 1.0, 2.0, 2.0, 3.0)),
    "quantile_nearest": (lambda L: lambda v: L.np.quantile(v, 0.3, method="nearest"), _m(4.0, 1.0, 2.0, 2.0, 3.0)),
    "cummax_ties": (lambda L: lambda v: L.lax.cummax(v), _m(1.0, 3.0, 3.0, 2.0, 4.0)),
    "cummin_ties": (lambda L: lambda v: L.lax.cummin(v), _m(3.0, 1.0, 1.0, 2.0)),
    "top_k_ties": (lambda L: lambda v: L.lax.top_k(v, 2)[0], _m(1.0, 3.0, 3.0, 2.0)),
    "cumsum": (lambda L: lambda v: L.np.cumsum(v), _m(1.0, 0.0, 2.0)),
    "cumprod_zero": (lambda L: lambda v: L.np.cumprod(v), _m(1.0, 0.0, 2.0, 3.0)),
    "cumprod_zeros": (lambda L: lambda v: L.np.cumprod(v), _m(2.0, 0.0, 0.0, 3.0)),
    "prod_zero": (lambda L: lambda v: L.np.prod(v), _m(2.0, 0.0, 3.0)),
    "prod_zeros": (lambda L: lambda v: L.np.prod(v), _m(2.0, 0.0, 0.0)),
    "std_const": (lambda L: lambda v: L.np.std(v), _m(1.0, 1.0, 1.0)),
    "var_ddof": (lambda L: lambda v: L.np.var(v, ddof=1), _m(1.0, 2.0, 4.0)),
    "norm_zero": (lambda L: lambda v: L.np.linalg.norm(v), _m(0.0, 0.0, 0.0)),
    "norm_zero_entry": (lambda L: lambda v: L.np.linalg.norm(v), _m(3.0, 4.0, 0.0)),
    "norm_ord1": (lambda L: lambda v: L.np.linalg.norm(v, ord=1), _m(0.0, 1.0, -2.0)),
    "norm_ordinf_ties": (lambda L: lambda v: L.np.linalg.norm(v, ord=inf), _m(1.0, -2.0, 2.0)),
    "norm_ord3": (lambda L: lambda v: L.np.linalg.norm(v, ord=3), _m(0.0, 1.0, -2.0)),
    "norm_ord_half": (lambda L: lambda v: L.np.linalg.norm(v, ord=0.5), _m(0.5, 1.0, -2.0)),
    "norm_fro_zero": (lambda L: lambda v: L.np.linalg.norm(v, ord="fro"), np.zeros((2, 2))),
    "norm_nuc": (lambda L: lambda v: L.np.linalg.norm(v, ord="nuc"), _m([2.0, 1.0], [0.5, 3.0])),
    "norm_2_matrix": (lambda L: lambda v: L.np.linalg.norm(v, ord=2), _m([2.0, 1.0], [0.5, 3.0])),
    "norm_-2_matrix": (lambda L: lambda v: L.np.linalg.norm(v, ord=-2), _m([2.0, 1.0], [0.5, 3.0])),
    "norm_1_matrix": (lambda L: lambda v: L.np.linalg.norm(v, ord=1), _m([2.0, 1.0], [0.5, 3.0])),
    "det_singular": (lambda L: L.np.linalg.det, _m([1.0, 2.0], [2.0, 4.0])),
    "det_singular3": (lambda L: L.np.linalg.det, _m([1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0])),
    "det_rank1": (lambda L: L.np.linalg.det, np.ones((3, 3))),
    "det_zero": (lambda L: L.np.linalg.det, np.zeros((3, 3))),
    "det_near_singular": (lambda L: L.np.linalg.det, _m([1.0, 2.0], [2.0, 4.0 + 1e-12])),
    "slogdet_singular": (lambda L: lambda v: L.np.linalg.slogdet(v)[1], _m([1.0, 2.0], [2.0, 4.0])),
    "slogdet_negative": (lambda L: lambda v: L.np.linalg.slogdet(v)[1], _m([0.0, 2.0], [3.0, 1.0])),
    "inv": (lambda L: L.np.linalg.inv, _m([2.0, 1.0], [0.5, 3.0])),
    "solve": (lambda L: lambda v: L.np.linalg.solve(v, L.np.asarray([1.0, 2.0])), _m([2.0, 1.0], [0.5, 3.0])),
    "cholesky": (lambda L: lambda v: L.np.linalg.cholesky(v @ v.T + L.np.eye(2)), _m([2.0, 1.0], [0.5, 3.0])),
    "eigh_degenerate_values": (lambda L: lambda v: L.np.linalg.eigh(v)[0], np.diag([1.0, 1.0, 2.0])),
    "eigh_degenerate_top": (lambda L: lambda v: L.np.linalg.eigh(v)[0][2], np.diag([1.0, 1.0, 2.0])),
    "eigvalsh_degenerate": (lambda L: L.np.linalg.eigvalsh, np.diag([1.0, 1.0, 2.0])),
    "eigh_vectors": (lambda L: lambda v: L.np.abs(L.np.linalg.eigh(v + v.T)[1]), _m([2.0, 1.0, 0.0], [0.5, 3.0, 1.0], [0.0, 1.0, -1.0])),
    "svd_values": (lambda L: lambda v: L.np.linalg.svd(v, compute_uv=False), _m([2.0, 1.0, 0.0], [0.5, 3.0, 1.0])),
    "svd_values_degenerate": (lambda L: lambda v: L.np.linalg.svd(v, compute_uv=False), np.eye(2)),
    "svd_values_zero": (lambda L: lambda v: L.np.linalg.svd(v, compute_uv=False), _m([1.0, 0.0], [0.0, 0.0])),
    "svd_s_of_triple_degenerate": (lambda L: lambda v: L.np.linalg.svd(v)[1], np.eye(2)),
    "svd_u": (lambda L: lambda v: L.np.abs(L.np.linalg.svd(v, full_matrices=False)[0]), _m([2.0, 1.0, 0.0], [0.5, 3.0, 1.0])),
    "qr_r": (lambda L: lambda v: L.np.linalg.qr(v)[1], _m([2.0, 1.0], [0.5, 3.0], [1.0, 1.0])),
    "qr_q": (lambda L: lambda v: L.np.linalg.qr(v)[0], _m([2.0, 1.0], [0.5, 3.0], [1.0, 1.0])),
    "pinv": (lambda L: L.np.linalg.pinv, _m([2.0, 1.0, 0.0], [0.5, 3.0, 1.0])),
    "pinv_rank_deficient": (lambda L: L.np.linalg.pinv, _m([1.0, 2.0], [2.0, 4.0])),
    "matrix_power3": (lambda L: lambda v: L.np.linalg.matrix_power(v, 3), _m([2.0, 1.0], [0.5, 3.0])),
    "matrix_power-2": (lambda L: lambda v: L.np.linalg.matrix_power(v, -2), _m([2.0, 1.0], [0.5, 3.0])),
    "expm": (lambda L: L.sl.expm, _m([2.0, 1.0], [0.5, 3.0])),
    "expm_zero": (lambda L: L.sl.expm, np.zeros((2, 2))),
    "where_sqrt_nan_leak": (lambda L: lambda v: L.np.where(v > 0, L.np.sqrt(v), 0.0), _m(0.0, 4.0, -1.0)),
    "clip_bounds": (lambda L: lambda v: L.np.clip(v, 0.0, 1.0), _m(0.0, 1.0, 0.5, 2.0)),
    "logaddexp_inf": (lambda L: lambda v: L.np.logaddexp(v, v), _m(-inf, inf, 0.0)),
    "hypot_line": (lambda L: lambda v: L.np.hypot(v, 2 * v), _m(0.0, 1.0)),
    "standardize": (lambda L: lambda v: L.nn.standardize(v), _m(1.0, 2.0, 4.0)),
}


def cases():
    """(case id, kind, f-maker, point) for the whole grid."""
    out = [(f"{n}({p!r})", "scalar", mk, p) for n, (mk, pts) in SCALAR.items() for p in pts]
    out += [(f"{n}{p!r}", "binary", mk, p) for n, (mk, pts) in BINARY.items() for p in pts]
    out += [(n, "array", mk, x) for n, (mk, x) in ARRAY.items()]
    return out


def _ramp(shape, lo, hi):
    n = int(np.prod(shape))
    return np.linspace(lo, hi, n).reshape(shape) if n > 1 else np.full(shape, lo)


def _result(fn):
    try:
        v = np.asarray(fn(), np.float64)
    except Exception as e:  # noqa: BLE001 - the error type is part of the expected result
        return ("error", type(e).__name__)
    return ("ok", v.tolist())


def _derivatives(L, f, x) -> dict:
    """The grid's derivatives of ``f`` at the array ``x`` (see the module docstring)."""
    x = L.np.asarray(np.asarray(x, np.float64))
    t = L.np.asarray(_ramp(np.shape(x), 0.3, 1.1))
    shape = np.shape(f(x))
    w = L.np.asarray(_ramp(shape, 0.5, 1.5))

    def loss(v):
        return L.np.sum(f(v) * w)

    def dot_t(v):
        return L.np.sum(L.grad(loss)(v) * t)

    out = {"g": _result(lambda: L.grad(loss)(x)),
           "jvp": _result(lambda: L.jvp(f, (x,), (t,))[1]),
           "hvp": _result(lambda: L.jvp(L.grad(loss), (x,), (t,))[1]),
           "gg": _result(lambda: L.grad(dot_t)(x))}
    if np.ndim(x) == 0:
        out["g3"] = _result(lambda: L.grad(L.grad(L.grad(f)))(x))
    return out


def run(L, kind, mk, point) -> dict:
    """Every derivative of one case with library ``L`` (fgrad's or JAX's)."""
    f = mk(L)
    if kind == "scalar":
        return _derivatives(L, f, point)
    if kind == "array":
        return _derivatives(L, f, point)
    x, y = (np.float64(v) for v in point)
    out = {}
    for k, name in ((0, "x"), (1, "y")):
        g = (lambda v: f(v, L.np.asarray(y))) if k == 0 else (lambda v: f(L.np.asarray(x), v))
        out.update({f"{m}_{name}": r for m, r in _derivatives(L, g, point[k]).items()})
    out["gxy"] = _result(lambda: L.grad(lambda b: L.grad(lambda a: f(a, b))(L.np.asarray(x)))(L.np.asarray(y)))
    return out


# Deliberate deviations: "case id/derivative" -> (fgrad's result, reason).  The reasons name
# the mathematical value; each is also in docs/numerics.md.
DEVIATIONS = {
    'ndtri(0.0)/g': (('ok', inf), "ndtri'(p) = sqrt(2 pi) exp(ndtri(p)^2 / 2) -> +inf at p = 0 and 1 (and its higher derivatives +-inf); JAX gives 0"),
    'ndtri(0.0)/jvp': (('ok', inf), "ndtri'(p) = sqrt(2 pi) exp(ndtri(p)^2 / 2) -> +inf at p = 0 and 1 (and its higher derivatives +-inf); JAX gives 0"),
    'ndtri(0.0)/hvp': (('ok', -inf), "ndtri'(p) = sqrt(2 pi) exp(ndtri(p)^2 / 2) -> +inf at p = 0 and 1 (and its higher derivatives +-inf); JAX gives 0"),
    'ndtri(0.0)/gg': (('ok', -inf), "ndtri'(p) = sqrt(2 pi) exp(ndtri(p)^2 / 2) -> +inf at p = 0 and 1 (and its higher derivatives +-inf); JAX gives 0"),
    'ndtri(0.0)/g3': (('ok', inf), "ndtri'(p) = sqrt(2 pi) exp(ndtri(p)^2 / 2) -> +inf at p = 0 and 1 (and its higher derivatives +-inf); JAX gives 0"),
    'ndtri(1.0)/g': (('ok', inf), 'as ndtri(0.0)'),
    'ndtri(1.0)/jvp': (('ok', inf), 'as ndtri(0.0)'),
    'ndtri(1.0)/hvp': (('ok', inf), 'as ndtri(0.0)'),
    'ndtri(1.0)/gg': (('ok', inf), 'as ndtri(0.0)'),
    'ndtri(1.0)/g3': (('ok', inf), 'as ndtri(0.0)'),
    'log_ndtr(-40.0)/g3': (('ok', 3.102562914136797e-05), "third derivative, mpmath 3.10174e-05: fgrad's is off by 3e-4 relative, JAX's (3.2038e-05) by 3e-2"),
    'i0(0.0)/g': (('ok', 0.0), 'I0 = 1 + x^2/4 + ...: d/dx I0 = I1 = 0, d2 = 1/2, d3 = 0 at 0; JAX differentiates exp(|x|) i0e(x), whose kinks give 1, 1.5 and 2.5'),
    'i0(0.0)/jvp': (('ok', 0.0), 'I0 = 1 + x^2/4 + ...: d/dx I0 = I1 = 0, d2 = 1/2, d3 = 0 at 0; JAX differentiates exp(|x|) i0e(x), whose kinks give 1, 1.5 and 2.5'),
    'i0(0.0)/hvp': (('ok', 0.075), 'I0 = 1 + x^2/4 + ...: d/dx I0 = I1 = 0, d2 = 1/2, d3 = 0 at 0; JAX differentiates exp(|x|) i0e(x), whose kinks give 1, 1.5 and 2.5'),
    'i0(0.0)/gg': (('ok', 0.075), 'I0 = 1 + x^2/4 + ...: d/dx I0 = I1 = 0, d2 = 1/2, d3 = 0 at 0; JAX differentiates exp(|x|) i0e(x), whose kinks give 1, 1.5 and 2.5'),
    'i0(0.0)/g3': (('ok', 0.0), 'I0 = 1 + x^2/4 + ...: d/dx I0 = I1 = 0, d2 = 1/2, d3 = 0 at 0; JAX differentiates exp(|x|) i0e(x), whose kinks give 1, 1.5 and 2.5'),
    'i1(0.0)/hvp': (('ok', 0.0), 'I1 = x/2 + x^3/16 + ...: d2 = 0, d3 = 3/8 at 0; JAX differentiates exp(|x|) i1e(x): 1.0 and 1.5'),
    'i1(0.0)/gg': (('ok', 0.0), 'I1 = x/2 + x^3/16 + ...: d2 = 0, d3 = 3/8 at 0; JAX differentiates exp(|x|) i1e(x): 1.0 and 1.5'),
    'i1(0.0)/g3': (('ok', 0.375), 'I1 = x/2 + x^3/16 + ...: d2 = 0, d3 = 3/8 at 0; JAX differentiates exp(|x|) i1e(x): 1.0 and 1.5'),
    'i1e(1e-150)/hvp': (('ok', -0.14999999999999997), 'i1e = x/2 - x^2/2 + ... for x > 0: d2 = -1 at 0+ (fgrad had 1.8e134: the quotient i1e(x)/x differentiated); JAX 0'),
    'i1e(1e-150)/gg': (('ok', -0.15), 'i1e = x/2 - x^2/2 + ... for x > 0: d2 = -1 at 0+ (fgrad had 1.8e134: the quotient i1e(x)/x differentiated); JAX 0'),
    'i1e(1e-150)/g3': (('ok', 1.875), 'i1e = x/2 - x^2/2 + ... for x > 0: d2 = -1 at 0+ (fgrad had 1.8e134: the quotient i1e(x)/x differentiated); JAX 0'),
    'i1_tiny(1e-150)/hvp': (('ok', 5.625000000000002e-152), 'I1 = x/2 + x^3/16: d2 = 3x/8, about 0 (fgrad had 1.8e134 at 1e-150); JAX 0 only from exp(|x|) i1e(x)'),
    'i1_tiny(1e-150)/gg': (('ok', 5.625000000000002e-152), 'I1 = x/2 + x^3/16: d2 = 3x/8, about 0 (fgrad had 1.8e134 at 1e-150); JAX 0 only from exp(|x|) i1e(x)'),
    'i1_tiny(1e-150)/g3': (('ok', 0.375), 'I1 = x/2 + x^3/16: d2 = 3x/8, about 0 (fgrad had 1.8e134 at 1e-150); JAX 0 only from exp(|x|) i1e(x)'),
    'i1_tiny(1e-12)/hvp': (('ok', 5.624999999999999e-14), 'as i1_tiny(1e-150)'),
    'i1_tiny(1e-12)/gg': (('ok', 5.624999999999999e-14), 'as i1_tiny(1e-150)'),
    'i1_tiny(1e-12)/g3': (('ok', 0.37499999999999967), 'as i1_tiny(1e-150)'),
    'entr(-1.0)/g': (('ok', 0.0), 'entr is the constant -inf below 0: derivative 0 (JAX: NaN)'),
    'logit(0.0)/gg': (('ok', -inf), "logit'' = (2x - 1) / (x (1 - x))^2 -> -inf at 0+, logit''' -> +inf (JAX: NaN)"),
    'logit(0.0)/g3': (('ok', inf), "logit'' = (2x - 1) / (x (1 - x))^2 -> -inf at 0+, logit''' -> +inf (JAX: NaN)"),
    'logit(1.0)/gg': (('ok', inf), "logit'' -> +inf at 1-, logit''' -> +inf (JAX: NaN)"),
    'logit(1.0)/g3': (('ok', inf), "logit'' -> +inf at 1-, logit''' -> +inf (JAX: NaN)"),
    'spence(0.0)/g': (('ok', -inf), "spence'(z) = log(z) / (1 - z): -inf at 0 (JAX's spence has no derivative rule: 0)"),
    'spence(0.0)/jvp': (('ok', -inf), "spence'(z) = log(z) / (1 - z): -inf at 0 (JAX's spence has no derivative rule: 0)"),
    'spence(0.0)/hvp': (('ok', nan), "spence'(z) = log(z) / (1 - z): -inf at 0 (JAX's spence has no derivative rule: 0)"),
    'spence(0.0)/gg': (('ok', nan), "spence'(z) = log(z) / (1 - z): -inf at 0 (JAX's spence has no derivative rule: 0)"),
    'spence(0.0)/g3': (('ok', nan), "spence'(z) = log(z) / (1 - z): -inf at 0 (JAX's spence has no derivative rule: 0)"),
    'spence(1.0)/g': (('ok', -0.5), "spence'(1) = lim log(z) / (1 - z) = -1 (JAX: 0)"),
    'spence(1.0)/jvp': (('ok', -0.3), "spence'(1) = lim log(z) / (1 - z) = -1 (JAX: 0)"),
    'spence(2.0)/g': (('ok', -0.34657359027997264), "spence'(2) = -log 2, spence''(2) = log 2 - 1/2 (the closed form log(z) / (1 - z) and its derivatives); JAX: NaN"),
    'spence(2.0)/hvp': (('ok', 0.0289720770839918), "spence'(2) = -log 2, spence''(2) = log 2 - 1/2 (the closed form log(z) / (1 - z) and its derivatives); JAX: NaN"),
    'spence(2.0)/gg': (('ok', 0.0289720770839918), "spence'(2) = -log 2, spence''(2) = log 2 - 1/2 (the closed form log(z) / (1 - z) and its derivatives); JAX: NaN"),
    'spence(2.0)/g3': (('ok', -0.13629436111989057), "spence'(2) = -log 2, spence''(2) = log 2 - 1/2 (the closed form log(z) / (1 - z) and its derivatives); JAX: NaN"),
    'sinc(1e-09)/g': (('ok', -1.6449340668482263e-09), "sinc' = -pi^2 x / 3, sinc'' = -pi^2 / 3, sinc''' = pi^4 x / 5 near 0 (mpmath); JAX differentiates sin(y)/y, whose terms cancel (its sinc''(1e-9) is 201)"),
    'sinc(1e-09)/jvp': (('ok', -9.869604401089357e-10), "sinc' = -pi^2 x / 3, sinc'' = -pi^2 / 3, sinc''' = pi^4 x / 5 near 0 (mpmath); JAX differentiates sin(y)/y, whose terms cancel (its sinc''(1e-9) is 201)"),
    'sinc(1e-09)/hvp': (('ok', -0.4934802200544679), "sinc' = -pi^2 x / 3, sinc'' = -pi^2 / 3, sinc''' = pi^4 x / 5 near 0 (mpmath); JAX differentiates sin(y)/y, whose terms cancel (its sinc''(1e-9) is 201)"),
    'sinc(1e-09)/gg': (('ok', -0.4934802200544679), "sinc' = -pi^2 x / 3, sinc'' = -pi^2 / 3, sinc''' = pi^4 x / 5 near 0 (mpmath); JAX differentiates sin(y)/y, whose terms cancel (its sinc''(1e-9) is 201)"),
    'sinc(1e-09)/g3': (('ok', 1.9481818206800487e-08), "sinc' = -pi^2 x / 3, sinc'' = -pi^2 / 3, sinc''' = pi^4 x / 5 near 0 (mpmath); JAX differentiates sin(y)/y, whose terms cancel (its sinc''(1e-9) is 201)"),
    'x**0(0.0)/g': (('ok', 0.0), "x**0 = 1: every derivative is 0 (PyTorch too); JAX's rule y x**(y-1) gives 0 * inf = NaN"),
    'x**0(0.0)/jvp': (('ok', 0.0), "x**0 = 1: every derivative is 0 (PyTorch too); JAX's rule y x**(y-1) gives 0 * inf = NaN"),
    'x**0(0.0)/hvp': (('ok', 0.0), "x**0 = 1: every derivative is 0 (PyTorch too); JAX's rule y x**(y-1) gives 0 * inf = NaN"),
    'x**0(0.0)/gg': (('ok', 0.0), "x**0 = 1: every derivative is 0 (PyTorch too); JAX's rule y x**(y-1) gives 0 * inf = NaN"),
    'x**0(0.0)/g3': (('ok', 0.0), "x**0 = 1: every derivative is 0 (PyTorch too); JAX's rule y x**(y-1) gives 0 * inf = NaN"),
    'x**2.0(0.0)/g3': (('ok', 0.0), "d3/dx3 x**2 = 0 (JAX's float-exponent rule: NaN at 0)"),
    'betaln(1.0, 1.0)/hvp_x': (('ok', 0.14999999999999997), "betaln = lgamma(a) + lgamma(b) - lgamma(a + b): d2/da2 = trigamma(a) - trigamma(a + b) = 1, d3/da3 = psi''(1) - psi''(2) = -2, d2/dadb = -trigamma(2) = -0.6449; JAX's betaln (an asymptotic correction) is wrong beyond first order (0.1775, -0.197)"),
    'betaln(1.0, 1.0)/gg_x': (('ok', 0.14999999999999997), "betaln = lgamma(a) + lgamma(b) - lgamma(a + b): d2/da2 = trigamma(a) - trigamma(a + b) = 1, d3/da3 = psi''(1) - psi''(2) = -2, d2/dadb = -trigamma(2) = -0.6449; JAX's betaln (an asymptotic correction) is wrong beyond first order (0.1775, -0.197)"),
    'betaln(1.0, 1.0)/g3_x': (('ok', -1.9999999999999996), "betaln = lgamma(a) + lgamma(b) - lgamma(a + b): d2/da2 = trigamma(a) - trigamma(a + b) = 1, d3/da3 = psi''(1) - psi''(2) = -2, d2/dadb = -trigamma(2) = -0.6449; JAX's betaln (an asymptotic correction) is wrong beyond first order (0.1775, -0.197)"),
    'betaln(1.0, 1.0)/hvp_y': (('ok', 0.14999999999999997), "betaln = lgamma(a) + lgamma(b) - lgamma(a + b): d2/da2 = trigamma(a) - trigamma(a + b) = 1, d3/da3 = psi''(1) - psi''(2) = -2, d2/dadb = -trigamma(2) = -0.6449; JAX's betaln (an asymptotic correction) is wrong beyond first order (0.1775, -0.197)"),
    'betaln(1.0, 1.0)/gg_y': (('ok', 0.14999999999999997), "betaln = lgamma(a) + lgamma(b) - lgamma(a + b): d2/da2 = trigamma(a) - trigamma(a + b) = 1, d3/da3 = psi''(1) - psi''(2) = -2, d2/dadb = -trigamma(2) = -0.6449; JAX's betaln (an asymptotic correction) is wrong beyond first order (0.1775, -0.197)"),
    'betaln(1.0, 1.0)/g3_y': (('ok', -1.9999999999999996), "betaln = lgamma(a) + lgamma(b) - lgamma(a + b): d2/da2 = trigamma(a) - trigamma(a + b) = 1, d3/da3 = psi''(1) - psi''(2) = -2, d2/dadb = -trigamma(2) = -0.6449; JAX's betaln (an asymptotic correction) is wrong beyond first order (0.1775, -0.197)"),
    'betaln(1.0, 1.0)/gxy': (('ok', -0.6449340668482266), "betaln = lgamma(a) + lgamma(b) - lgamma(a + b): d2/da2 = trigamma(a) - trigamma(a + b) = 1, d3/da3 = psi''(1) - psi''(2) = -2, d2/dadb = -trigamma(2) = -0.6449; JAX's betaln (an asymptotic correction) is wrong beyond first order (0.1775, -0.197)"),
    'gammainc(2.0, 1.0)/gxy': (('ok', -0.15553366493206391), 'd2 P / da dx (mpmath -0.1555336649); JAX has no rule (NotImplementedError)'),
    'gammainc(0.5, 3.0)/gxy': (('ok', 0.049659635203612704), 'd2 P / da dx (mpmath 0.0496596352); JAX has no rule'),
    'gammaincc(2.0, 1.0)/gxy': (('ok', 0.15553366493206391), 'd2 Q / da dx = -d2 P / da dx; JAX has no rule'),
    'gammaincc(0.5, 3.0)/gxy': (('ok', -0.049659635203612704), 'd2 Q / da dx = -d2 P / da dx; JAX has no rule'),
    'power(0.0, 0.0)/g_x': (('ok', 0.0), "d/dx x**y at y = 0 is 0 (x**0 = 1; PyTorch too), JAX: NaN; the mixed d2/dxdy does not exist at (0, 0) (+inf along y -> 0+): fgrad's select gives 0, JAX NaN"),
    'power(0.0, 0.0)/jvp_x': (('ok', 0.0), "d/dx x**y at y = 0 is 0 (x**0 = 1; PyTorch too), JAX: NaN; the mixed d2/dxdy does not exist at (0, 0) (+inf along y -> 0+): fgrad's select gives 0, JAX NaN"),
    'power(0.0, 0.0)/hvp_x': (('ok', 0.0), "d/dx x**y at y = 0 is 0 (x**0 = 1; PyTorch too), JAX: NaN; the mixed d2/dxdy does not exist at (0, 0) (+inf along y -> 0+): fgrad's select gives 0, JAX NaN"),
    'power(0.0, 0.0)/gg_x': (('ok', 0.0), "d/dx x**y at y = 0 is 0 (x**0 = 1; PyTorch too), JAX: NaN; the mixed d2/dxdy does not exist at (0, 0) (+inf along y -> 0+): fgrad's select gives 0, JAX NaN"),
    'power(0.0, 0.0)/g3_x': (('ok', 0.0), "d/dx x**y at y = 0 is 0 (x**0 = 1; PyTorch too), JAX: NaN; the mixed d2/dxdy does not exist at (0, 0) (+inf along y -> 0+): fgrad's select gives 0, JAX NaN"),
    'power(0.0, 0.0)/gxy': (('ok', 0.0), "d/dx x**y at y = 0 is 0 (x**0 = 1; PyTorch too), JAX: NaN; the mixed d2/dxdy does not exist at (0, 0) (+inf along y -> 0+): fgrad's select gives 0, JAX NaN"),
    'power(0.0, 2.0)/g3_x': (('ok', 0.0), "d3/dx3 x**2 = 0 (JAX's float-exponent rule: NaN at 0)"),
    'hypot_line/gg': (('ok', [nan, 0.0]), "sqrt(5) |v| has no second derivative at 0: reverse-over-reverse gives NaN, JAX 0 (forward-over-reverse gives JAX's 0)"),
}

CASES = cases()


# Derivatives whose cancellation amplifies the host's float64 exp/log rounding: on an AVX-512
# host (NumPy's other SIMD kernels, tests/_host_numerics.py) they differ from the stored values
# (made on an AVX2 host) by about 2e-7 relative.
_HOST_ROUNDING = {"log_ndtr(-40.0)/g3"}


def _same(got, want, rtol: float = 1e-7) -> bool:
    if got[0] != want[0]:
        return False
    if got[0] == "error":
        return got[1] == want[1]
    a, b = np.asarray(got[1], np.float64), np.asarray(want[1], np.float64)
    return a.shape == b.shape and np.allclose(a, b, rtol=rtol, atol=1e-12, equal_nan=True)


def _fgrad_run(kind, mk, point):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # IEEE special values stay silent (docs/numerics.md)
        return run(_fgrad_lib(), kind, mk, point)


@pytest.mark.parametrize("cid,kind,mk,point", CASES, ids=[c[0] for c in CASES])
def test_functional_face_matches_jax(cid, kind, mk, point):
    got = _fgrad_run(kind, mk, point)
    bad = []
    for k, r in got.items():
        key = f"{cid}/{k}"
        want = DEVIATIONS[key][0] if key in DEVIATIONS else JAX[cid][k]
        if not _same(r, want, rtol=1e-6 if AVX512 and key in _HOST_ROUNDING else 1e-7):
            bad.append(f"{key}: fgrad {r}, expected {want}")
    assert not bad, "\n".join(bad)


def _finite(v):
    return v[0] == "ok" and np.all(np.isfinite(np.asarray(v[1], np.float64)))


# hvp is H t and gg is H^T t: equal where f is twice differentiable.  Not at a rank change
# of pinv, where JAX's two differ as well.
NOT_TWICE_DIFFERENTIABLE = {"pinv_rank_deficient"}


@pytest.mark.parametrize("cid,kind,mk,point", CASES, ids=[c[0] for c in CASES])
def test_forward_and_reverse_agree(cid, kind, mk, point):
    """fgrad against itself: ``<w, J t> == <g, t>`` and forward-over-reverse == reverse-over-reverse."""
    got = _fgrad_run(kind, mk, point)
    for suffix in ([""] if kind != "binary" else ["_x", "_y"]):
        g, j, h, gg = (got[m + suffix] for m in ("g", "jvp", "hvp", "gg"))
        if _finite(g) and _finite(j):
            x = np.asarray(point if kind != "binary" else point[suffix == "_y"], np.float64)
            t = _ramp(np.shape(x), 0.3, 1.1)
            jv = np.asarray(j[1])
            w = _ramp(np.shape(jv), 0.5, 1.5)
            assert np.isclose(np.sum(w * jv), np.sum(np.asarray(g[1]) * t), rtol=1e-9, atol=1e-12), cid
        if _finite(h) and _finite(gg) and cid not in NOT_TWICE_DIFFERENTIABLE:
            assert np.allclose(h[1], gg[1], rtol=1e-8, atol=1e-12), (cid, suffix)


def test_deviations_still_differ_from_jax():
    """Every listed deviation is a real difference (remove it once JAX matches)."""
    for key, (ours, _) in DEVIATIONS.items():
        cid, k = key.rsplit("/", 1)
        assert not _same(ours, JAX[cid][k]), key


def _live_check(cids) -> None:
    L = _jax_lib()
    bad = []
    for cid, kind, mk, point in CASES:
        if cid not in cids:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = run(L, kind, mk, point)
        for k, r in got.items():
            if not _same(r, JAX[cid][k]):
                bad.append(f"{cid}/{k}: jax {r}, stored {JAX[cid][k]}")
    assert not bad, "\n".join(bad)


# live jax costs ~1 s a case (it compiles each op): the default suite re-checks three cases of
# the fixed defects (docs/edge-audit.md), ``-m slow`` the whole table
LIVE_SAMPLE = {"entr(0.0)", "kl_div(0.0, 1.0)", "eigh_degenerate_values"}


def test_stored_numbers_match_live_jax_sample():
    _live_check(LIVE_SAMPLE)


@pytest.mark.slow
def test_stored_numbers_match_live_jax():
    _live_check({c[0] for c in CASES})


def print_jax_table() -> None:
    """Print ``JAX`` recomputed with live jax (to paste over the table below)."""
    L = _jax_lib()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        print("JAX = {")
        for cid, kind, mk, point in CASES:
            print(f"    {cid!r}: {run(L, kind, mk, point)!r},")
        print("}")


def test_entropy_functions_propagate_nan_as_scipy():
    """``entr(nan)`` was ``-inf`` and ``rel_entr``/``kl_div`` of a NaN were ``inf``; SciPy (and
    JAX's ``entr``, ``kl_div``) give NaN."""
    import scipy.special as ss

    import fgrad.scipy.special as fss

    for p, q in [(nan, 1.0), (1.0, nan), (0.0, nan), (nan, nan), (0.0, 0.0), (1.0, 0.0), (2.0, 3.0)]:
        for f, ref in [(fss.rel_entr, ss.rel_entr), (fss.kl_div, ss.kl_div)]:
            np.testing.assert_allclose(float(f(p, q)), ref(p, q), rtol=1e-15, err_msg=f"{f.__name__}{(p, q)}")
    for x in [nan, 0.0, -1.0, 2.0, inf]:
        np.testing.assert_allclose(float(fss.entr(x)), ss.entr(x), rtol=1e-15, err_msg=f"entr({x})")


# -- float32: derivatives keep the input's dtype (no float64 leak) --------------------------

F32_CASES = [cid for cid, kind, _, _ in CASES if kind != "binary"][::3]


@pytest.mark.parametrize("cid", F32_CASES)
def test_float32_derivatives_stay_float32(cid):
    _, kind, mk, point = next(c for c in CASES if c[0] == cid)
    L = _fgrad_lib()
    f = mk(L)
    x = fnp.asarray(np.asarray(point, np.float32))
    if np.ndim(point) == 0:
        x = fnp.asarray(np.float32(point))
    y, ty = fgrad.jvp(f, (x,), (fnp.ones_like(x),))
    outs = {"g": fgrad.grad(lambda v: fnp.sum(f(v)))(x), "jvp": ty,
            "gg": fgrad.grad(lambda v: fnp.sum(fgrad.grad(lambda u: fnp.sum(f(u)))(v)))(x)}
    # cotangents take the input's dtype, the tangent the output's (float64 where the case
    # mixes in a float64 constant, as in JAX)
    want = {"g": "float32", "gg": "float32", "jvp": str(y.dtype)}
    assert {k: str(v.dtype) for k, v in outs.items()} == want


# -- random points: reverse, forward and central differences agree ------------------------

SMOOTH = {  # name -> (f, strategy of points where f is smooth)
    "gammaln": (lambda L: L.sp.gammaln, st.floats(0.05, 30.0)),
    "digamma": (lambda L: L.sp.digamma, st.floats(0.05, 30.0)),
    "erfcx": (lambda L: L.sp.erfcx, st.floats(-3.0, 30.0)),
    "log_ndtr": (lambda L: L.sp.log_ndtr, st.floats(-30.0, 8.0)),
    "ndtri": (lambda L: L.sp.ndtri, st.floats(0.01, 0.99)),
    "erfinv": (lambda L: L.sp.erfinv, st.floats(-0.95, 0.95)),
    "i1e": (lambda L: L.sp.i1e, st.floats(1e-300, 20.0)),  # (its second derivative jumps at 0)
    "i0": (lambda L: L.sp.i0, st.floats(-20.0, 20.0)),
    "i1": (lambda L: L.sp.i1, st.floats(-20.0, 20.0)),
    "entr": (lambda L: L.sp.entr, st.floats(0.01, 10.0)),
    "sinc": (lambda L: L.np.sinc, st.floats(-3.0, 3.0)),
    "softplus": (lambda L: L.nn.softplus, st.floats(-30.0, 30.0)),
    "gelu_erf": (lambda L: lambda x: L.nn.gelu(x, approximate=False), st.floats(-8.0, 8.0)),
    "polygamma2": (lambda L: lambda x: L.sp.polygamma(2, x), st.floats(0.2, 20.0)),
}


def _check_random_point(name, x, live_jax=None):
    f = SMOOTH[name][0](_fgrad_lib())
    d1 = float(fgrad.grad(f)(x))
    d2 = float(fgrad.grad(fgrad.grad(f))(x))
    fwd2 = float(fgrad.jvp(fgrad.grad(f), (x,), (1.0,))[1])
    h = 1e-5 * max(1.0, abs(x))
    lo = x - h if name != "i1e" else max(x - h, 0.0)  # one-sided at i1e's jump
    fd2 = (float(fgrad.grad(f)(x + h)) - float(fgrad.grad(f)(lo))) / (x + h - lo)
    assert np.isclose(float(fgrad.jvp(f, (x,), (1.0,))[1]), d1, rtol=1e-12, atol=1e-300)
    assert np.isclose(fwd2, d2, rtol=1e-9, atol=1e-300), (name, x, fwd2, d2)
    assert np.isclose(d2, fd2, rtol=1e-4, atol=1e-6 * max(1.0, abs(d1))), (name, x, d2, fd2)
    if live_jax is not None:
        jf = SMOOTH[name][0](live_jax)
        assert np.isclose(d2, float(live_jax.grad(live_jax.grad(jf))(x)), rtol=1e-6, atol=1e-12), (name, x)


@pytest.mark.parametrize("name", sorted(SMOOTH))
@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_second_derivatives_at_random_points(name, data):
    _check_random_point(name, data.draw(SMOOTH[name][1]))


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SMOOTH))
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_second_derivatives_at_random_points_vs_live_jax(name, data):
    _check_random_point(name, data.draw(SMOOTH[name][1]), _jax_lib())


# Recorded from jax 0.10.2 (CPU, jax_enable_x64), float64.
JAX = {
    'gammaln(1.0)': {'g': ('ok', -0.2886078324507667), 'jvp': ('ok', -0.17316469947046), 'hvp': ('ok', 0.24674011002723395), 'gg': ('ok', 0.24674011002723395), 'g3': ('ok', -2.4041138063191854)},
    'gammaln(2.0)': {'g': ('ok', 0.21139216754923373), 'jvp': ('ok', 0.12683530052954023), 'hvp': ('ok', 0.09674011002723397), 'gg': ('ok', 0.09674011002723397), 'g3': ('ok', -0.40411380631918803)},
    'gammaln(-0.5)': {'g': ('ok', 0.018244986989288656), 'jvp': ('ok', 0.010946992193573193), 'hvp': ('ok', 1.3402203300817015), 'gg': ('ok', 1.3402203300817015), 'g3': ('ok', -0.828796644234319)},
    'gammaln(0.5)': {'g': ('ok', -0.9817550130107128), 'jvp': ('ok', -0.5890530078064277), 'hvp': ('ok', 0.740220330081702), 'gg': ('ok', 0.740220330081702), 'g3': ('ok', -16.828796644234295)},
    'gammaln(1e-08)': {'g': ('ok', -50000000.288607836), 'jvp': ('ok', -30000000.1731647), 'hvp': ('ok', 1500000000000000.0), 'gg': ('ok', 1500000000000000.0), 'g3': ('ok', -1.9999999999999976e+24)},
    'digamma(1.0)': {'g': ('ok', 0.8224670334241132), 'jvp': ('ok', 0.4934802200544679), 'hvp': ('ok', -0.3606170709478778), 'gg': ('ok', -0.3606170709478778), 'g3': ('ok', 6.493939402266834)},
    'digamma(-0.5)': {'g': ('ok', 4.467401100272339), 'jvp': ('ok', 2.680440660163403), 'hvp': ('ok', -0.12431949663514784), 'gg': ('ok', -0.12431949663514784), 'g3': ('ok', 193.40909103400256)},
    'digamma(0.5)': {'g': ('ok', 2.46740110027234), 'jvp': ('ok', 1.480440660163404), 'hvp': ('ok', -2.5243194966351443), 'gg': ('ok', -2.5243194966351443), 'g3': ('ok', 97.4090910340025)},
    'digamma(2.0)': {'g': ('ok', 0.32246703342411326), 'jvp': ('ok', 0.19348022005446794), 'hvp': ('ok', -0.0606170709478782), 'gg': ('ok', -0.0606170709478782), 'g3': ('ok', 0.4939394022668296)},
    'erf(0.0)': {'g': ('ok', 0.5641895835477563), 'jvp': ('ok', 0.33851375012865376), 'hvp': ('ok', -0.0), 'gg': ('ok', -0.0), 'g3': ('ok', -2.256758334191025)},
    'erf(1.0)': {'g': ('ok', 0.20755374871029733), 'jvp': ('ok', 0.1245322492261784), 'hvp': ('ok', -0.1245322492261784), 'gg': ('ok', -0.1245322492261784), 'g3': ('ok', 0.8302149948411893)},
    'erf(-3.0)': {'g': ('ok', 6.962652597337393e-05), 'jvp': ('ok', 4.177591558402436e-05), 'hvp': ('ok', 0.00012532774675207307), 'gg': ('ok', 0.00012532774675207307), 'g3': ('ok', 0.004734603766189427)},
    'erf(inf)': {'g': ('ok', 0.0), 'jvp': ('ok', 0.0), 'hvp': ('ok', nan), 'gg': ('ok', nan), 'g3': ('ok', nan)},
    'erfc(0.0)': {'g': ('ok', -0.5641895835477563), 'jvp': ('ok', -0.33851375012865376), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 2.256758334191025)},
    'erfc(1.0)': {'g': ('ok', -0.20755374871029733), 'jvp': ('ok', -0.1245322492261784), 'hvp': ('ok', 0.1245322492261784), 'gg': ('ok', 0.1245322492261784), 'g3': ('ok', -0.8302149948411893)},
    'erfc(30.0)': {'g': ('ok', -0.0), 'jvp': ('ok', -0.0), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 0.0)},
    'erfc(inf)': {'g': ('ok', -0.0), 'jvp': ('ok', -0.0), 'hvp': ('ok', nan), 'gg': ('ok', nan), 'g3': ('ok', nan)},
    'erfinv(0.0)': {'g': ('ok', 0.44311346272637897), 'jvp': ('ok', 0.26586807763582737), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 1.3920819992079265)},
    'erfinv(0.5)': {'g': ('ok', 0.5562924094859748), 'jvp': ('ok', 0.3337754456915849), 'hvp': ('ok', 0.17711195249900993), 'gg': ('ok', 0.1771119524990099), 'g3': ('ok', 5.260582539261215)},
    'erfinv(1.0)': {'g': ('ok', inf), 'jvp': ('ok', inf), 'hvp': ('ok', inf), 'gg': ('ok', inf), 'g3': ('ok', inf)},
    'erfinv(-1.0)': {'g': ('ok', inf), 'jvp': ('ok', inf), 'hvp': ('ok', -inf), 'gg': ('ok', -inf), 'g3': ('ok', inf)},
    'erfcx(0.0)': {'g': ('ok', -0.5641895835477563), 'jvp': ('ok', -0.33851375012865376), 'hvp': ('ok', 0.3), 'gg': ('ok', 0.3), 'g3': ('ok', -4.51351666838205)},
    'erfcx(1.0)': {'g': ('ok', -0.13660600739194922), 'jvp': ('ok', -0.08196360443516953), 'hvp': ('ok', 0.046311468411572576), 'gg': ('ok', 0.046311468411572576), 'g3': ('ok', -0.4753618136479594)},
    'erfcx(-1.0)': {'g': ('ok', -5.573169664310041), 'jvp': ('ok', -3.343901798586024), 'hvp': ('ok', 4.8465958228147095), 'gg': ('ok', 4.8465958228147095), 'g3': ('ok', -109.2066349520098)},
    'erfcx(30.0)': {'g': ('ok', -0.0003129177052536569), 'jvp': ('ok', -0.00018775062315219414), 'hvp': ('ok', 6.247963859202336e-06), 'gg': ('ok', 6.247963859201677e-06), 'g3': ('ok', -4.156098348584436e-06)},
    'ndtr(0.0)': {'g': ('ok', 0.19947114020071635), 'jvp': ('ok', 0.1196826841204298), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', -0.39894228040143276)},
    'ndtr(1.0)': {'g': ('ok', 0.12098536225957165), 'jvp': ('ok', 0.07259121735574299), 'hvp': ('ok', -0.0362956086778715), 'gg': ('ok', -0.0362956086778715), 'g3': ('ok', 7.850462293418876e-17)},
    'ndtr(-40.0)': {'g': ('ok', 0.0), 'jvp': ('ok', 0.0), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 0.0)},
    'ndtr(inf)': {'g': ('ok', 0.0), 'jvp': ('ok', 0.0), 'hvp': ('ok', nan), 'gg': ('ok', nan), 'g3': ('ok', nan)},
    'ndtri(0.5)': {'g': ('ok', 1.2533141373155001), 'jvp': ('ok', 0.7519884823893), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 15.749609945722531)},
    'ndtri(0.1)': {'g': ('ok', 2.8490299280585005), 'jvp': ('ok', 1.709417956835101), 'hvp': ('ok', -6.241390543799664), 'gg': ('ok', -6.24139054379966), 'g3': ('ok', 792.6954949359152)},
    'ndtri(0.0)': {'g': ('ok', 0.0), 'jvp': ('ok', 0.0), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 0.0)},
    'ndtri(1.0)': {'g': ('ok', 0.0), 'jvp': ('ok', 0.0), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 0.0)},
    'log_ndtr(0.0)': {'g': ('ok', 0.3989422804014327), 'jvp': ('ok', 0.2393653682408596), 'hvp': ('ok', -0.09549296585513721), 'gg': ('ok', -0.09549296585513721), 'g3': ('ok', 0.21801361414499032)},
    'log_ndtr(-40.0)': {'g': ('ok', 20.01248442392169), 'jvp': ('ok', 12.007490654353015), 'hvp': ('ok', -0.14990660356469596), 'gg': ('ok', -0.14990660356468766), 'g3': ('ok', 3.203841333743185e-05)},
    'log_ndtr(40.0)': {'g': ('ok', 0.0), 'jvp': ('ok', 0.0), 'hvp': ('ok', -0.0), 'gg': ('ok', -0.0), 'g3': ('ok', 0.0)},
    'log_ndtr(-inf)': {'g': ('ok', nan), 'jvp': ('ok', nan), 'hvp': ('ok', nan), 'gg': ('ok', nan), 'g3': ('ok', nan)},
    'log_ndtr(inf)': {'g': ('ok', 0.0), 'jvp': ('ok', 0.0), 'hvp': ('ok', nan), 'gg': ('ok', nan), 'g3': ('ok', nan)},
    'i0(0.0)': {'g': ('ok', 0.5), 'jvp': ('ok', 0.3), 'hvp': ('ok', 0.22499999999999998), 'gg': ('ok', 0.22499999999999998), 'g3': ('ok', 2.5)},
    'i0(1.0)': {'g': ('ok', 0.2825795519962426), 'jvp': ('ok', 0.1695477311977456), 'hvp': ('ok', 0.1051360160639285), 'gg': ('ok', 0.10513601606392849), 'g3': ('ok', 0.42941143422544725)},
    'i0(-2.0)': {'g': ('ok', -0.7953184273186646), 'jvp': ('ok', -0.47719105639119874), 'hvp': ('ok', 0.2226400312526103), 'gg': ('ok', 0.22264003125261034), 'g3': ('ok', -1.2461626307879607)},
    'i0e(0.0)': {'g': ('ok', 0.0), 'jvp': ('ok', 0.0), 'hvp': ('ok', 0.075), 'gg': ('ok', 0.075), 'g3': ('ok', 0.0)},
    'i0e(1.0)': {'g': ('ok', -0.12892459612196597), 'jvp': ('ok', -0.07735475767317958), 'hvp': ('ok', 0.0461681953707233), 'gg': ('ok', 0.0461681953707233), 'g3': ('ok', -0.4576042998208257)},
    'i0e(-2.0)': {'g': ('ok', 0.04661951665236665), 'jvp': ('ok', 0.02797170999141999), 'hvp': ('ok', 0.011826513297749662), 'gg': ('ok', 0.011826513297749662), 'g3': ('ok', 0.09667171599789329)},
    'i1(0.0)': {'g': ('ok', 0.25), 'jvp': ('ok', 0.15), 'hvp': ('ok', 0.15), 'gg': ('ok', 0.15), 'g3': ('ok', 1.5)},
    'i1(1.0)': {'g': ('ok', 0.35045338687976163), 'jvp': ('ok', 0.21027203212785697), 'hvp': ('ok', 0.06441171513381709), 'gg': ('ok', 0.06441171513381709), 'g3': ('ok', 0.542990679068152)},
    'i1(-2.0)': {'g': ('ok', 0.7421334375087012), 'jvp': ('ok', 0.4452800625052207), 'hvp': ('ok', -0.18692439461819407), 'gg': ('ok', -0.18692439461819407), 'g3': ('ok', 1.205659783472791)},
    'i1e(0.0)': {'g': ('ok', 0.25), 'jvp': ('ok', 0.15), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 0.0)},
    'i1e(1.0)': {'g': ('ok', 0.024969388447111718), 'jvp': ('ok', 0.01498163306826703), 'hvp': ('ok', -0.022472449602400545), 'gg': ('ok', -0.022472449602400545), 'g3': ('ok', 0.29147735359252586)},
    'i1e(-2.0)': {'g': ('ok', -0.007197805659867773), 'jvp': ('ok', -0.004318683395920664), 'hvp': ('ok', 0.0026742441019343335), 'gg': ('ok', 0.0026742441019343335), 'g3': ('ok', 0.04457073503223888)},
    'entr(0.0)': {'g': ('ok', inf), 'jvp': ('ok', inf), 'hvp': ('ok', -inf), 'gg': ('ok', -inf), 'g3': ('ok', inf)},
    'entr(1.0)': {'g': ('ok', -0.5), 'jvp': ('ok', -0.3), 'hvp': ('ok', -0.15), 'gg': ('ok', -0.15), 'g3': ('ok', 1.0)},
    'entr(0.5)': {'g': ('ok', -0.15342640972002736), 'jvp': ('ok', -0.09205584583201641), 'hvp': ('ok', -0.3), 'gg': ('ok', -0.3), 'g3': ('ok', 4.0)},
    'entr(-1.0)': {'g': ('ok', nan), 'jvp': ('ok', 0.0), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 0.0)},
    'logit(0.0)': {'g': ('ok', inf), 'jvp': ('ok', inf), 'hvp': ('ok', -inf), 'gg': ('ok', nan), 'g3': ('ok', nan)},
    'logit(0.5)': {'g': ('ok', 2.0), 'jvp': ('ok', 1.2), 'hvp': ('ok', -0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 32.0)},
    'logit(1.0)': {'g': ('ok', inf), 'jvp': ('ok', inf), 'hvp': ('ok', inf), 'gg': ('ok', nan), 'g3': ('ok', nan)},
    'expit(0.0)': {'g': ('ok', 0.125), 'jvp': ('ok', 0.075), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', -0.125)},
    'expit(40.0)': {'g': ('ok', 0.0), 'jvp': ('ok', 0.0), 'hvp': ('ok', 0.0), 'gg': ('ok', -0.0), 'g3': ('ok', 0.0)},
    'expit(-40.0)': {'g': ('ok', 2.124177127645795e-18), 'jvp': ('ok', 1.2745062765874768e-18), 'hvp': ('ok', 6.372531382937384e-19), 'gg': ('ok', 6.372531382937384e-19), 'g3': ('ok', 4.24835425529159e-18)},
    'expit(inf)': {'g': ('ok', 0.0), 'jvp': ('ok', 0.0), 'hvp': ('ok', 0.0), 'gg': ('ok', -0.0), 'g3': ('ok', 0.0)},
    'expit(-inf)': {'g': ('ok', 0.0), 'jvp': ('ok', 0.0), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 0.0)},
    'spence(0.0)': {'g': ('ok', 0.0), 'jvp': ('ok', 0.0), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 0.0)},
    'spence(1.0)': {'g': ('ok', 0.0), 'jvp': ('ok', 0.0), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 0.0)},
    'spence(2.0)': {'g': ('ok', nan), 'jvp': ('ok', -0.20794415416798417), 'hvp': ('ok', nan), 'gg': ('ok', nan), 'g3': ('ok', nan)},
    'polygamma1(1.0)': {'g': ('ok', -1.2020569031595927), 'jvp': ('ok', -0.7212341418957556), 'hvp': ('ok', 0.974090910340025), 'gg': ('ok', 0.974090910340025), 'g3': ('ok', -24.886266123440905)},
    'polygamma1(0.5)': {'g': ('ok', -8.414398322117147), 'jvp': ('ok', -5.048638993270289), 'hvp': ('ok', 14.611363655100375), 'gg': ('ok', 14.611363655100375), 'g3': ('ok', -771.4742498266681)},
    'zeta2(1.0)': {'g': ('ok', -1.202056903159594), 'jvp': ('ok', -0.7212341418957567), 'hvp': ('ok', 0.9740909103400244), 'gg': ('ok', 0.9740909103400244), 'g3': ('ok', -24.886266123440883)},
    'zeta2(0.5)': {'g': ('ok', -8.414398322117158), 'jvp': ('ok', -5.048638993270297), 'hvp': ('ok', 14.611363655100364), 'gg': ('ok', 14.611363655100364), 'g3': ('ok', -771.4742498266672)},
    'softplus(0.0)': {'g': ('ok', 0.25), 'jvp': ('ok', 0.15), 'hvp': ('ok', 0.0375), 'gg': ('ok', 0.0375), 'g3': ('ok', 0.0)},
    'softplus(40.0)': {'g': ('ok', 0.5), 'jvp': ('ok', 0.3), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 0.0)},
    'softplus(-40.0)': {'g': ('ok', 2.1241771276457944e-18), 'jvp': ('ok', 1.2745062765874766e-18), 'hvp': ('ok', 6.372531382937383e-19), 'gg': ('ok', 6.372531382937383e-19), 'g3': ('ok', 4.248354255291589e-18)},
    'softplus(inf)': {'g': ('ok', 0.5), 'jvp': ('ok', 0.3), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 0.0)},
    'softplus(-inf)': {'g': ('ok', 0.0), 'jvp': ('ok', 0.0), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 0.0)},
    'log_sigmoid(0.0)': {'g': ('ok', 0.25), 'jvp': ('ok', 0.15), 'hvp': ('ok', -0.0375), 'gg': ('ok', -0.0375), 'g3': ('ok', -0.0)},
    'log_sigmoid(40.0)': {'g': ('ok', 2.1241771276457944e-18), 'jvp': ('ok', 1.2745062765874766e-18), 'hvp': ('ok', -6.372531382937383e-19), 'gg': ('ok', -6.372531382937383e-19), 'g3': ('ok', 4.248354255291589e-18)},
    'log_sigmoid(-40.0)': {'g': ('ok', 0.5), 'jvp': ('ok', 0.3), 'hvp': ('ok', 0.0), 'gg': ('ok', -0.0), 'g3': ('ok', -0.0)},
    'log_sigmoid(inf)': {'g': ('ok', 0.0), 'jvp': ('ok', -0.0), 'hvp': ('ok', -0.0), 'gg': ('ok', -0.0), 'g3': ('ok', -0.0)},
    'log_sigmoid(-inf)': {'g': ('ok', 0.5), 'jvp': ('ok', 0.3), 'hvp': ('ok', 0.0), 'gg': ('ok', -0.0), 'g3': ('ok', -0.0)},
    'silu(0.0)': {'g': ('ok', 0.25), 'jvp': ('ok', 0.15), 'hvp': ('ok', 0.075), 'gg': ('ok', 0.075), 'g3': ('ok', 0.0)},
    'silu(40.0)': {'g': ('ok', 0.5), 'jvp': ('ok', 0.3), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 0.0)},
    'silu(-40.0)': {'g': ('ok', -8.2842907978186e-17), 'jvp': ('ok', -4.97057447869116e-17), 'hvp': ('ok', -2.4215619255162062e-17), 'gg': ('ok', -2.4215619255162062e-17), 'g3': ('ok', -1.5718910744578882e-16)},
    'gelu_tanh(0.0)': {'g': ('ok', 0.25), 'jvp': ('ok', 0.15), 'hvp': ('ok', 0.1196826841204298), 'gg': ('ok', 0.1196826841204298), 'g3': ('ok', 0.0)},
    'gelu_tanh(1.0)': {'g': ('ok', 0.5414820419228914), 'jvp': ('ok', 0.32488922515373475), 'hvp': ('ok', 0.03632222969756594), 'gg': ('ok', 0.03632222969756594), 'g3': ('ok', -0.7217203917884865)},
    'gelu_tanh(-10.0)': {'g': ('ok', 0.0), 'jvp': ('ok', 0.0), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 0.0)},
    'gelu_erf(0.0)': {'g': ('ok', 0.25), 'jvp': ('ok', 0.15), 'hvp': ('ok', 0.1196826841204298), 'gg': ('ok', 0.1196826841204298), 'g3': ('ok', -0.0)},
    'gelu_erf(1.0)': {'g': ('ok', 0.5416577352938431), 'jvp': ('ok', 0.32499464117630583), 'hvp': ('ok', 0.03629560867787149), 'gg': ('ok', 0.03629560867787149), 'g3': ('ok', -0.72591217355743)},
    'gelu_erf(-10.0)': {'g': ('ok', -3.8092000482323795e-22), 'jvp': ('ok', -2.285520028939428e-22), 'hvp': ('ok', -1.1311059981258354e-21), 'gg': ('ok', -1.1311059981258356e-21), 'g3': ('ok', -7.386814681638112e-20)},
    'elu(0.0)': {'g': ('ok', 0.5), 'jvp': ('ok', 0.3), 'hvp': ('ok', 0.15), 'gg': ('ok', 0.15), 'g3': ('ok', 1.0)},
    'elu(1.0)': {'g': ('ok', 0.5), 'jvp': ('ok', 0.3), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 0.0)},
    'elu(-1.0)': {'g': ('ok', 0.18393972058572117), 'jvp': ('ok', 0.1103638323514327), 'hvp': ('ok', 0.05518191617571635), 'gg': ('ok', 0.05518191617571635), 'g3': ('ok', 0.36787944117144233)},
    'celu(0.0)': {'g': ('ok', 0.5), 'jvp': ('ok', 0.3), 'hvp': ('ok', 0.0375), 'gg': ('ok', 0.0375), 'g3': ('ok', 0.125)},
    'celu(1.0)': {'g': ('ok', 0.5), 'jvp': ('ok', 0.3), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 0.0)},
    'celu(-1.0)': {'g': ('ok', 0.18393972058572117), 'jvp': ('ok', 0.1103638323514327), 'hvp': ('ok', 0.05518191617571635), 'gg': ('ok', 0.05518191617571635), 'g3': ('ok', 0.36787944117144233)},
    'selu(0.0)': {'g': ('ok', 0.8790496704236883), 'jvp': ('ok', 0.527429802254213), 'hvp': ('ok', 0.2637149011271065), 'gg': ('ok', 0.2637149011271065), 'g3': ('ok', 1.7580993408473766)},
    'selu(1.0)': {'g': ('ok', 0.5253504936777402), 'jvp': ('ok', 0.31521029620664415), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 0.0)},
    'selu(-1.0)': {'g': ('ok', 0.323384301517407), 'jvp': ('ok', 0.1940305809104442), 'hvp': ('ok', 0.0970152904552221), 'gg': ('ok', 0.0970152904552221), 'g3': ('ok', 0.646768603034814)},
    'relu6(0.0)': {'g': ('ok', 0.0), 'jvp': ('ok', 0.0), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 0.0)},
    'relu6(6.0)': {'g': ('ok', 0.0), 'jvp': ('ok', 0.0), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 0.0)},
    'relu6(3.0)': {'g': ('ok', 0.5), 'jvp': ('ok', 0.3), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 0.0)},
    'hard_tanh(1.0)': {'g': ('ok', 0.5), 'jvp': ('ok', 0.3), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 0.0)},
    'hard_tanh(-1.0)': {'g': ('ok', 0.5), 'jvp': ('ok', 0.3), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 0.0)},
    'hard_tanh(0.0)': {'g': ('ok', 0.5), 'jvp': ('ok', 0.3), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 0.0)},
    'mish(0.0)': {'g': ('ok', 0.30000000000000004), 'jvp': ('ok', 0.18000000000000002), 'hvp': ('ok', 0.09599999999999997), 'gg': ('ok', 0.09599999999999997), 'g3': ('ok', -0.09600000000000003)},
    'mish(1.0)': {'g': ('ok', 0.5245181100498961), 'jvp': ('ok', 0.31471086602993764), 'hvp': ('ok', 0.027702864670999236), 'gg': ('ok', 0.027702864670999236), 'g3': ('ok', -0.5153285375455356)},
    'mish(-30.0)': {'g': ('ok', -1.356855330481698e-12), 'jvp': ('ok', -8.141131982890187e-13), 'hvp': ('ok', -3.930201646912116e-13), 'gg': ('ok', -3.930201646912116e-13), 'g3': ('ok', -2.5265582015858517e-12)},
    'sinc(0.0)': {'g': ('ok', 0.0), 'jvp': ('ok', 0.0), 'hvp': ('ok', -0.4934802200544679), 'gg': ('ok', -0.4934802200544679), 'g3': ('ok', 0.0)},
    'sinc(1.0)': {'g': ('ok', -0.5), 'jvp': ('ok', -0.3), 'hvp': ('ok', 0.29999999999999993), 'gg': ('ok', 0.29999999999999993), 'g3': ('ok', 3.8696044010893593)},
    'sinc(1e-09)': {'g': ('ok', 0.0), 'jvp': ('ok', 7.500577021627553e-09), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 0.0)},
    'sinc(0.5)': {'g': ('ok', -0.6366197723675813), 'jvp': ('ok', -0.3819718634205488), 'hvp': ('ok', -0.17853406923584036), 'gg': ('ok', -0.17853406923584025), 'g3': ('ok', 7.141362769433615)},
    'cbrt(1.0)': {'g': ('ok', 0.16666666666666666), 'jvp': ('ok', 0.09999999999999999), 'hvp': ('ok', -0.033333333333333326), 'gg': ('ok', -0.033333333333333326), 'g3': ('ok', 0.37037037037037035)},
    'cbrt(-1.0)': {'g': ('ok', 0.16666666666666666), 'jvp': ('ok', 0.09999999999999999), 'hvp': ('ok', 0.033333333333333326), 'gg': ('ok', 0.033333333333333326), 'g3': ('ok', 0.37037037037037035)},
    'arcsinh(0.0)': {'g': ('ok', 0.5), 'jvp': ('ok', 0.3), 'hvp': ('ok', -0.0), 'gg': ('ok', -0.0), 'g3': ('ok', -1.0)},
    'arcsinh(1e+200)': {'g': ('ok', 0.0), 'jvp': ('ok', 0.0), 'hvp': ('ok', -0.0), 'gg': ('ok', -0.0), 'g3': ('ok', 0.0)},
    'x**0(0.0)': {'g': ('ok', nan), 'jvp': ('ok', nan), 'hvp': ('ok', nan), 'gg': ('ok', nan), 'g3': ('ok', nan)},
    'x**0(2.0)': {'g': ('ok', 0.0), 'jvp': ('ok', 0.0), 'hvp': ('ok', -0.0), 'gg': ('ok', -0.0), 'g3': ('ok', 0.0)},
    'x**2.0(0.0)': {'g': ('ok', 0.0), 'jvp': ('ok', 0.0), 'hvp': ('ok', 0.3), 'gg': ('ok', 0.3), 'g3': ('ok', nan)},
    'x**2.0(-2.0)': {'g': ('ok', -2.0), 'jvp': ('ok', -1.2), 'hvp': ('ok', 0.3), 'gg': ('ok', 0.3), 'g3': ('ok', -0.0)},
    'x**3(0.0)': {'g': ('ok', 0.0), 'jvp': ('ok', 0.0), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 6.0)},
    'x**3(-2.0)': {'g': ('ok', 6.0), 'jvp': ('ok', 3.5999999999999996), 'hvp': ('ok', -1.7999999999999998), 'gg': ('ok', -1.7999999999999998), 'g3': ('ok', 6.0)},
    'x**-2(-2.0)': {'g': ('ok', 0.125), 'jvp': ('ok', 0.075), 'hvp': ('ok', 0.056249999999999994), 'gg': ('ok', 0.056249999999999994), 'g3': ('ok', 0.75)},
    'x**-2(0.5)': {'g': ('ok', -8.0), 'jvp': ('ok', -4.8), 'hvp': ('ok', 14.399999999999999), 'gg': ('ok', 14.399999999999999), 'g3': ('ok', -768.0)},
    'float_power_half(0.0)': {'g': ('ok', inf), 'jvp': ('ok', inf), 'hvp': ('ok', -inf), 'gg': ('ok', -inf), 'g3': ('ok', inf)},
    'float_power_half(4.0)': {'g': ('ok', 0.125), 'jvp': ('ok', 0.075), 'hvp': ('ok', -0.0046875), 'gg': ('ok', -0.0046875), 'g3': ('ok', 0.01171875)},
    'double_where_sqrt(0.0)': {'g': ('ok', 0.0), 'jvp': ('ok', 0.0), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 0.0)},
    'double_where_sqrt(4.0)': {'g': ('ok', 0.125), 'jvp': ('ok', 0.075), 'hvp': ('ok', -0.0046875), 'gg': ('ok', -0.0046875), 'g3': ('ok', 0.01171875)},
    'double_where_sqrt(-1.0)': {'g': ('ok', 0.0), 'jvp': ('ok', 0.0), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 0.0)},
    'clip01(0.0)': {'g': ('ok', 0.25), 'jvp': ('ok', 0.15), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 0.0)},
    'clip01(1.0)': {'g': ('ok', 0.25), 'jvp': ('ok', 0.15), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 0.0)},
    'clip01(0.5)': {'g': ('ok', 0.5), 'jvp': ('ok', 0.3), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 0.0)},
    'xlogy(0.0, 0.0)': {'g_x': ('ok', -inf), 'jvp_x': ('ok', nan), 'hvp_x': ('ok', 0.0), 'gg_x': ('ok', 0.0), 'g3_x': ('ok', 0.0), 'g_y': ('ok', nan), 'jvp_y': ('ok', nan), 'hvp_y': ('ok', nan), 'gg_y': ('ok', nan), 'g3_y': ('ok', nan), 'gxy': ('ok', inf)},
    'xlogy(0.0, 1.0)': {'g_x': ('ok', 0.0), 'jvp_x': ('ok', 0.0), 'hvp_x': ('ok', 0.0), 'gg_x': ('ok', 0.0), 'g3_x': ('ok', 0.0), 'g_y': ('ok', 0.0), 'jvp_y': ('ok', 0.0), 'hvp_y': ('ok', -0.0), 'gg_y': ('ok', -0.0), 'g3_y': ('ok', 0.0), 'gxy': ('ok', 1.0)},
    'xlogy(1.0, 0.0)': {'g_x': ('ok', -inf), 'jvp_x': ('ok', nan), 'hvp_x': ('ok', 0.0), 'gg_x': ('ok', 0.0), 'g3_x': ('ok', 0.0), 'g_y': ('ok', inf), 'jvp_y': ('ok', nan), 'hvp_y': ('ok', -inf), 'gg_y': ('ok', -inf), 'g3_y': ('ok', inf), 'gxy': ('ok', inf)},
    'xlogy(2.0, 3.0)': {'g_x': ('ok', 0.5493061443340549), 'jvp_x': ('ok', 0.3295836866004329), 'hvp_x': ('ok', 0.0), 'gg_x': ('ok', 0.0), 'g3_x': ('ok', 0.0), 'g_y': ('ok', 0.3333333333333333), 'jvp_y': ('ok', 0.19999999999999998), 'hvp_y': ('ok', -0.03333333333333333), 'gg_y': ('ok', -0.03333333333333333), 'g3_y': ('ok', 0.14814814814814814), 'gxy': ('ok', 0.3333333333333333)},
    'xlog1py(0.0, -1.0)': {'g_x': ('ok', -inf), 'jvp_x': ('ok', nan), 'hvp_x': ('ok', 0.0), 'gg_x': ('ok', 0.0), 'g3_x': ('ok', 0.0), 'g_y': ('ok', nan), 'jvp_y': ('ok', nan), 'hvp_y': ('ok', nan), 'gg_y': ('ok', nan), 'g3_y': ('ok', nan), 'gxy': ('ok', inf)},
    'xlog1py(0.0, 0.0)': {'g_x': ('ok', 0.0), 'jvp_x': ('ok', 0.0), 'hvp_x': ('ok', 0.0), 'gg_x': ('ok', 0.0), 'g3_x': ('ok', 0.0), 'g_y': ('ok', 0.0), 'jvp_y': ('ok', 0.0), 'hvp_y': ('ok', -0.0), 'gg_y': ('ok', -0.0), 'g3_y': ('ok', 0.0), 'gxy': ('ok', 1.0)},
    'xlog1py(2.0, 3.0)': {'g_x': ('ok', 0.6931471805599453), 'jvp_x': ('ok', 0.4158883083359672), 'hvp_x': ('ok', 0.0), 'gg_x': ('ok', 0.0), 'g3_x': ('ok', 0.0), 'g_y': ('ok', 0.25), 'jvp_y': ('ok', 0.15), 'hvp_y': ('ok', -0.01875), 'gg_y': ('ok', -0.01875), 'g3_y': ('ok', 0.0625), 'gxy': ('ok', 0.25)},
    'rel_entr(0.0, 0.0)': {'g_x': ('ok', 0.0), 'jvp_x': ('ok', 0.0), 'hvp_x': ('ok', 0.0), 'gg_x': ('ok', 0.0), 'g3_x': ('ok', 0.0), 'g_y': ('ok', 0.0), 'jvp_y': ('ok', 0.0), 'hvp_y': ('ok', 0.0), 'gg_y': ('ok', 0.0), 'g3_y': ('ok', 0.0), 'gxy': ('ok', 0.0)},
    'rel_entr(0.0, 1.0)': {'g_x': ('ok', 0.0), 'jvp_x': ('ok', 0.0), 'hvp_x': ('ok', 0.0), 'gg_x': ('ok', 0.0), 'g3_x': ('ok', 0.0), 'g_y': ('ok', 0.0), 'jvp_y': ('ok', 0.0), 'hvp_y': ('ok', 0.0), 'gg_y': ('ok', 0.0), 'g3_y': ('ok', 0.0), 'gxy': ('ok', 0.0)},
    'rel_entr(2.0, 3.0)': {'g_x': ('ok', 0.2972674459459178), 'jvp_x': ('ok', 0.17836046756755064), 'hvp_x': ('ok', 0.075), 'gg_x': ('ok', 0.075), 'g3_x': ('ok', -0.25), 'g_y': ('ok', -0.3333333333333333), 'jvp_y': ('ok', -0.19999999999999998), 'hvp_y': ('ok', 0.03333333333333333), 'gg_y': ('ok', 0.03333333333333333), 'g3_y': ('ok', -0.14814814814814814), 'gxy': ('ok', -0.3333333333333333)},
    'kl_div(0.0, 0.0)': {'g_x': ('ok', -0.5), 'jvp_x': ('ok', -0.3), 'hvp_x': ('ok', 0.0), 'gg_x': ('ok', 0.0), 'g3_x': ('ok', 0.0), 'g_y': ('ok', 0.5), 'jvp_y': ('ok', 0.3), 'hvp_y': ('ok', 0.0), 'gg_y': ('ok', 0.0), 'g3_y': ('ok', 0.0), 'gxy': ('ok', 0.0)},
    'kl_div(0.0, 1.0)': {'g_x': ('ok', -0.5), 'jvp_x': ('ok', -0.3), 'hvp_x': ('ok', 0.0), 'gg_x': ('ok', 0.0), 'g3_x': ('ok', 0.0), 'g_y': ('ok', 0.5), 'jvp_y': ('ok', 0.3), 'hvp_y': ('ok', 0.0), 'gg_y': ('ok', 0.0), 'g3_y': ('ok', 0.0), 'gxy': ('ok', 0.0)},
    'kl_div(1.0, 0.0)': {'g_x': ('ok', -0.5), 'jvp_x': ('ok', -0.3), 'hvp_x': ('ok', 0.0), 'gg_x': ('ok', 0.0), 'g3_x': ('ok', 0.0), 'g_y': ('ok', 0.5), 'jvp_y': ('ok', 0.3), 'hvp_y': ('ok', 0.0), 'gg_y': ('ok', 0.0), 'g3_y': ('ok', 0.0), 'gxy': ('ok', 0.0)},
    'kl_div(2.0, 3.0)': {'g_x': ('ok', -0.2027325540540822), 'jvp_x': ('ok', -0.12163953243244935), 'hvp_x': ('ok', 0.075), 'gg_x': ('ok', 0.075), 'g3_x': ('ok', -0.25), 'g_y': ('ok', 0.16666666666666669), 'jvp_y': ('ok', 0.1), 'hvp_y': ('ok', 0.03333333333333333), 'gg_y': ('ok', 0.03333333333333333), 'g3_y': ('ok', -0.14814814814814814), 'gxy': ('ok', -0.3333333333333333)},
    'betaln(1.0, 1.0)': {'g_x': ('ok', -0.5000000000000004), 'jvp_x': ('ok', -0.3000000000000002), 'hvp_x': ('ok', 0.026629944986383006), 'gg_x': ('ok', 0.026629944986383006), 'g3_x': ('ok', -0.1969146452606083), 'g_y': ('ok', -0.5000000000000004), 'jvp_y': ('ok', -0.3000000000000002), 'hvp_y': ('ok', 0.026629944986383006), 'gg_y': ('ok', 0.026629944986383006), 'g3_y': ('ok', -0.1969146452606083), 'gxy': ('ok', 0.17753296657588669)},
    'betaln(0.5, 2.0)': {'g_x': ('ok', -1.3333333333333346), 'jvp_x': ('ok', -0.8000000000000008), 'hvp_x': ('ok', 0.6666666666666667), 'gg_x': ('ok', 0.6666666666666667), 'g3_x': ('ok', -16.592592592592567), 'g_y': ('ok', -0.14018615277338814), 'jvp_y': ('ok', -0.0841116916640329), 'hvp_y': ('ok', 0.023186446612198736), 'gg_y': ('ok', 0.023186446612198736), 'g3_y': ('ok', -0.16790975467746094), 'gxy': ('ok', -0.4903577561002349)},
    'gammainc(2.0, 1.0)': {'g_x': ('ok', -0.1380980228514173), 'jvp_x': ('ok', -0.08285881371085038), 'hvp_x': ('error', 'NotImplementedError'), 'gg_x': ('error', 'NotImplementedError'), 'g3_x': ('error', 'NotImplementedError'), 'g_y': ('ok', 0.18393972058572114), 'jvp_y': ('ok', 0.11036383235143268), 'hvp_y': ('ok', 0.0), 'gg_y': ('ok', 0.0), 'g3_y': ('ok', -0.3678794411714423), 'gxy': ('error', 'NotImplementedError')},
    'gammainc(0.5, 3.0)': {'g_x': ('ok', -0.023620163223986884), 'jvp_x': ('ok', -0.01417209793439213), 'hvp_x': ('error', 'NotImplementedError'), 'gg_x': ('error', 'NotImplementedError'), 'g3_x': ('error', 'NotImplementedError'), 'g_y': ('ok', 0.008108695554940235), 'jvp_y': ('ok', 0.004865217332964141), 'hvp_y': ('ok', -0.002838043444229082), 'gg_y': ('ok', -0.0028380434442290825), 'g3_y': ('ok', 0.022974637405664), 'gxy': ('error', 'NotImplementedError')},
    'gammaincc(2.0, 1.0)': {'g_x': ('ok', 0.1380980228514173), 'jvp_x': ('ok', 0.08285881371085038), 'hvp_x': ('error', 'NotImplementedError'), 'gg_x': ('error', 'NotImplementedError'), 'g3_x': ('error', 'NotImplementedError'), 'g_y': ('ok', -0.18393972058572114), 'jvp_y': ('ok', -0.11036383235143268), 'hvp_y': ('ok', -0.0), 'gg_y': ('ok', 0.0), 'g3_y': ('ok', 0.3678794411714423), 'gxy': ('error', 'NotImplementedError')},
    'gammaincc(0.5, 3.0)': {'g_x': ('ok', 0.023620163223986884), 'jvp_x': ('ok', 0.01417209793439213), 'hvp_x': ('error', 'NotImplementedError'), 'gg_x': ('error', 'NotImplementedError'), 'g3_x': ('error', 'NotImplementedError'), 'g_y': ('ok', -0.008108695554940235), 'jvp_y': ('ok', -0.004865217332964141), 'hvp_y': ('ok', 0.002838043444229082), 'gg_y': ('ok', 0.0028380434442290825), 'g3_y': ('ok', -0.022974637405664), 'gxy': ('error', 'NotImplementedError')},
    'power(0.0, 0.0)': {'g_x': ('ok', nan), 'jvp_x': ('ok', nan), 'hvp_x': ('ok', nan), 'gg_x': ('ok', nan), 'g3_x': ('ok', nan), 'g_y': ('ok', 0.0), 'jvp_y': ('ok', 0.0), 'hvp_y': ('ok', 0.0), 'gg_y': ('ok', 0.0), 'g3_y': ('ok', 0.0), 'gxy': ('ok', nan)},
    'power(2.0, 3.0)': {'g_x': ('ok', 6.0), 'jvp_x': ('ok', 3.5999999999999996), 'hvp_x': ('ok', 1.7999999999999998), 'gg_x': ('ok', 1.7999999999999998), 'g3_x': ('ok', 6.0), 'g_y': ('ok', 2.772588722239781), 'jvp_y': ('ok', 1.6635532333438687), 'hvp_y': ('ok', 0.5765436167018417), 'gg_y': ('ok', 0.5765436167018417), 'g3_y': ('ok', 2.6641972159114355), 'gxy': ('ok', 12.317766166719343)},
    'power(0.0, 2.0)': {'g_x': ('ok', 0.0), 'jvp_x': ('ok', 0.0), 'hvp_x': ('ok', 0.3), 'gg_x': ('ok', 0.3), 'g3_x': ('ok', nan), 'g_y': ('ok', 0.0), 'jvp_y': ('ok', 0.0), 'hvp_y': ('ok', 0.0), 'gg_y': ('ok', 0.0), 'g3_y': ('ok', 0.0), 'gxy': ('ok', 0.0)},
    'arctan2(1.0, 1.0)': {'g_x': ('ok', 0.25), 'jvp_x': ('ok', 0.15), 'hvp_x': ('ok', -0.075), 'gg_x': ('ok', -0.075), 'g3_x': ('ok', 0.5), 'g_y': ('ok', -0.25), 'jvp_y': ('ok', -0.15), 'hvp_y': ('ok', 0.075), 'gg_y': ('ok', 0.075), 'g3_y': ('ok', -0.5), 'gxy': ('ok', 0.0)},
    'arctan2(0.0, 1.0)': {'g_x': ('ok', 0.5), 'jvp_x': ('ok', 0.3), 'hvp_x': ('ok', -0.0), 'gg_x': ('ok', -0.0), 'g3_x': ('ok', -2.0), 'g_y': ('ok', -0.0), 'jvp_y': ('ok', -0.0), 'hvp_y': ('ok', 0.0), 'gg_y': ('ok', 0.0), 'g3_y': ('ok', 0.0), 'gxy': ('ok', -1.0)},
    'hypot(3.0, 4.0)': {'g_x': ('ok', 0.30000000000000004), 'jvp_x': ('ok', 0.18), 'hvp_x': ('ok', 0.0192), 'gg_x': ('ok', 0.0192), 'g3_x': ('ok', -0.046079999999999996), 'g_y': ('ok', 0.39999999999999997), 'jvp_y': ('ok', 0.24), 'hvp_y': ('ok', 0.010800000000000008), 'gg_y': ('ok', 0.0108), 'g3_y': ('ok', -0.03456000000000005), 'gxy': ('ok', -0.096)},
    'hypot(0.0, 1.0)': {'g_x': ('ok', 0.0), 'jvp_x': ('ok', 0.0), 'hvp_x': ('ok', 0.15), 'gg_x': ('ok', 0.15), 'g3_x': ('ok', 0.0), 'g_y': ('ok', 0.5), 'jvp_y': ('ok', 0.3), 'hvp_y': ('ok', 0.0), 'gg_y': ('ok', 0.0), 'g3_y': ('ok', 0.0), 'gxy': ('ok', 0.0)},
    'logaddexp(0.0, 0.0)': {'g_x': ('ok', 0.25), 'jvp_x': ('ok', 0.15), 'hvp_x': ('ok', 0.0375), 'gg_x': ('ok', 0.0375), 'g3_x': ('ok', 0.0), 'g_y': ('ok', 0.25), 'jvp_y': ('ok', 0.15), 'hvp_y': ('ok', 0.0375), 'gg_y': ('ok', 0.0375), 'g3_y': ('ok', 0.0), 'gxy': ('ok', -0.25)},
    'logaddexp(-inf, 0.0)': {'g_x': ('ok', 0.0), 'jvp_x': ('ok', 0.0), 'hvp_x': ('ok', 0.0), 'gg_x': ('ok', 0.0), 'g3_x': ('ok', 0.0), 'g_y': ('ok', 0.5), 'jvp_y': ('ok', 0.3), 'hvp_y': ('ok', 0.0), 'gg_y': ('ok', 0.0), 'g3_y': ('ok', 0.0), 'gxy': ('ok', -0.0)},
    'remainder(1.0, 0.0)': {'g_x': ('ok', 0.5), 'jvp_x': ('ok', 0.3), 'hvp_x': ('ok', 0.0), 'gg_x': ('ok', 0.0), 'g3_x': ('ok', 0.0), 'g_y': ('ok', -inf), 'jvp_y': ('ok', -inf), 'hvp_y': ('ok', 0.0), 'gg_y': ('ok', 0.0), 'g3_y': ('ok', 0.0), 'gxy': ('ok', 0.0)},
    'remainder(0.5, 1.0)': {'g_x': ('ok', 0.5), 'jvp_x': ('ok', 0.3), 'hvp_x': ('ok', 0.0), 'gg_x': ('ok', 0.0), 'g3_x': ('ok', 0.0), 'g_y': ('ok', 0.0), 'jvp_y': ('ok', -0.0), 'hvp_y': ('ok', 0.0), 'gg_y': ('ok', 0.0), 'g3_y': ('ok', 0.0), 'gxy': ('ok', 0.0)},
    'logsumexp_rows': {'g': ('ok', [[nan, nan, nan], [0.2689414213699951, 0.0, 0.7310585786300049], [0.5, 0.5, 0.5]]), 'jvp': ('ok', [nan, 0.746211715726001, 1.0]), 'hvp': ('ok', [[nan, nan, nan], [-0.03932238664829635, 0.0, 0.03932238664829635], [-0.04999999999999993, 0.0, 0.050000000000000044]]), 'gg': ('ok', [[nan, nan, nan], [-0.03932238664829634, -0.0, 0.03932238664829635], [-0.04999999999999993, 0.0, 0.050000000000000044]])},
    'logsumexp_b': {'g': ('ok', [[nan, 0.0, nan], [0.1553624034969636, 0.0, 0.8446375965030364], [0.5, 0.0, 1.0]]), 'jvp': ('ok', [nan, 0.7689275193006073, 1.0333333333333334]), 'hvp': ('ok', [[nan, 0.0, nan], [-0.026244985415322053, 0.0, 0.026244985415322053], [-0.06666666666666665, 0.0, 0.06666666666666665]]), 'gg': ('ok', [[nan, 0.0, nan], [-0.026244985415322043, 0.0, 0.026244985415322053], [-0.06666666666666665, 0.0, 0.06666666666666665]])},
    'logsumexp_b_signed': {'g': ('ok', [1.3276052720073621, -1.8044026431320204, 0.9767973711246583]), 'jvp': ('ok', 0.41935367929383727), 'hvp': ('ok', [-0.15845457386397432, -0.5063989628674765, 0.664853536731451]), 'gg': ('ok', [-0.15845457386397432, -0.5063989628674765, 0.6648535367314509])},
    'log_softmax_rows': {'g': ('ok', [[nan, nan, nan], [0.06817573589001467, 1.0, -1.0681757358900148], [-0.125, 0.0, 0.125]]), 'jvp': ('ok', [[nan, nan, nan], [-0.1462117157260009, -0.046211715726001024, 0.053788284273999065], [-0.09999999999999987, 0.0, 0.10000000000000009]]), 'hvp': ('ok', [[nan, nan, nan], [0.11796715994488906, 0.0, -0.11796715994488927], [0.13749999999999973, 0.0, -0.13750000000000018]]), 'gg': ('ok', [[nan, nan, nan], [0.11796715994488899, 0.0, -0.11796715994488949], [0.13749999999999973, 0.0, -0.13750000000000018]])},
    'softmax_rows': {'g': ('ok', [[nan, nan, nan], [-0.049152983310370456, -0.0, 0.049152983310370546], [-0.04166666666666663, 5.551115123125783e-17, 0.04166666666666674]]), 'jvp': ('ok', [[nan, nan, nan], [-0.03932238664829633, 0.0, 0.039322386648296404], [-0.033333333333333284, 0.0, 0.03333333333333336]]), 'hvp': ('ok', [[nan, nan, nan], [0.004542887383647349, 0.0, -0.00454288738364763], [0.001388888888888891, -0.002777777777777768, 0.0013888888888889117]]), 'gg': ('ok', [[nan, nan, nan], [0.004542887383647337, -0.0, -0.004542887383647498], [0.0013888888888888284, -0.0027777777777777124, 0.001388888888888884]])},
    'softmax_where': {'g': ('ok', [[-0.0419974341614026, 0.0, 0.04199743416140267], [-0.04199743416140259, 0.0, 0.04199743416140267]]), 'jvp': ('ok', [[-0.03359794732912209, 0.0, 0.03359794732912207], [-0.0335979473291221, 0.0, 0.033597947329122156]]), 'hvp': ('ok', [[0.010235200135187607, 0.0, -0.010235200135187427], [0.010235200135187583, 0.0, -0.01023520013518752]]), 'gg': ('ok', [[0.010235200135187585, 0.0, -0.010235200135187639], [0.0102352001351876, 0.0, -0.010235200135187306]])},
    'max_ties': {'g': ('ok', [0.0, 0.25, 0.25, 0.0]), 'jvp': ('ok', 0.7), 'hvp': ('ok', [0.0, 0.0, 0.0, 0.0]), 'gg': ('ok', [0.0, 0.0, 0.0, 0.0])},
    'max_ties_axis': {'g': ('ok', [[0.25, 0.25], [1.5, 0.0]]), 'jvp': ('ok', [0.43333333333333335, 0.8333333333333333]), 'hvp': ('ok', [[0.0, 0.0], [0.0, 0.0]]), 'gg': ('ok', [[0.0, 0.0], [0.0, 0.0]])},
    'min_ties': {'g': ('ok', [0.25, 0.25, 0.0]), 'jvp': ('ok', 0.5), 'hvp': ('ok', [0.0, 0.0, 0.0]), 'gg': ('ok', [0.0, 0.0, 0.0])},
    'sort_ties': {'g': ('ok', [1.1666666666666665, 0.5, 1.5, 0.8333333333333333]), 'jvp': ('ok', [0.5666666666666667, 1.1, 0.3, 0.8333333333333333]), 'hvp': ('ok', [0.0, 0.0, 0.0, 0.0]), 'gg': ('ok', [0.0, 0.0, 0.0, 0.0])},
    'argsort_take': {'g': ('ok', [1.0, 0.5, 1.5]), 'jvp': ('ok', [0.7, 0.3, 1.1]), 'hvp': ('ok', [0.0, 0.0, 0.0]), 'gg': ('ok', [0.0, 0.0, 0.0])},
    'median_ties': {'g': ('ok', [0.25, 0.0, 0.25, 0.0]), 'jvp': ('ok', 0.5666666666666667), 'hvp': ('ok', [0.0, 0.0, 0.0, 0.0]), 'gg': ('ok', [0.0, 0.0, 0.0, 0.0])},
    'median_even': {'g': ('ok', [0.0, 0.0, 0.25, 0.25]), 'jvp': ('ok', 0.9666666666666667), 'hvp': ('ok', [0.0, 0.0, 0.0, 0.0]), 'gg': ('ok', [0.0, 0.0, 0.0, 0.0])},
    'quantile_ties': {'g': ('ok', [0.0, 0.0, 0.4, 0.09999999999999998, 0.0]), 'jvp': ('ok', 0.7399999999999999), 'hvp': ('ok', [0.0, 0.0, 0.0, 0.0, 0.0]), 'gg': ('ok', [0.0, 0.0, 0.0, 0.0, 0.0])},
    'quantile_nearest': {'g': ('ok', [0.0, 0.0, 0.5, 0.0, 0.0]), 'jvp': ('ok', 0.7), 'hvp': ('ok', [0.0, 0.0, 0.0, 0.0, 0.0]), 'gg': ('ok', [0.0, 0.0, 0.0, 0.0, 0.0])},
    'cummax_ties': {'g': ('ok', [0.5, 1.875, 1.125, 0.0, 1.5]), 'jvp': ('ok', [0.3, 0.5, 0.6, 0.6, 1.1]), 'hvp': ('ok', [0.0, 0.0, 0.0, 0.0, 0.0]), 'gg': ('ok', [0.0, 0.0, 0.0, 0.0, 0.0])},
    'cummin_ties': {'g': ('ok', [0.5, 2.1666666666666665, 1.3333333333333333, 0.0]), 'jvp': ('ok', [0.3, 0.5666666666666667, 0.7, 0.7]), 'hvp': ('ok', [0.0, 0.0, 0.0, 0.0]), 'gg': ('ok', [0.0, 0.0, 0.0, 0.0])},
    'top_k_ties': {'g': ('ok', [0.0, 0.5, 1.5, 0.0]), 'jvp': ('ok', [0.5666666666666667, 0.8333333333333333]), 'hvp': ('ok', [0.0, 0.0, 0.0, 0.0]), 'gg': ('ok', [0.0, 0.0, 0.0, 0.0])},
    'cumsum': {'g': ('ok', [3.0, 2.5, 1.5]), 'jvp': ('ok', [0.3, 1.0, 2.1]), 'hvp': ('ok', [0.0, 0.0, 0.0]), 'gg': ('ok', [0.0, 0.0, 0.0])},
    'cumprod_zero': {'g': ('ok', [0.5, 12.166666666666666, 0.0, 0.0]), 'jvp': ('ok', [0.3, 0.5666666666666667, 1.1333333333333333, 3.4]), 'hvp': ('ok', [6.894444444444444, 11.672222222222222, 3.211111111111111, 1.7]), 'gg': ('ok', [6.894444444444444, 11.67222222222222, 3.211111111111111, 1.7])},
    'cumprod_zeros': {'g': ('ok', [0.5, 1.6666666666666665, 0.0, 0.0]), 'jvp': ('ok', [0.3, 1.1333333333333333, 0.0, 0.0]), 'hvp': ('ok', [0.47222222222222215, 9.694444444444445, 6.422222222222222, 0.0]), 'gg': ('ok', [0.47222222222222215, 9.694444444444445, 6.422222222222222, 0.0])},
    'prod_zero': {'g': ('ok', [0.0, 3.0, 0.0]), 'jvp': ('ok', 4.199999999999999), 'hvp': ('ok', [1.0499999999999998, 1.55, 0.7]), 'gg': ('ok', [1.0499999999999998, 1.55, 0.7])},
    'prod_zeros': {'g': ('ok', [0.0, 0.0, 0.0]), 'jvp': ('ok', 0.0), 'hvp': ('ok', [0.0, 1.1, 0.7]), 'gg': ('ok', [0.0, 1.1, 0.7])},
    'std_const': {'g': ('ok', [nan, nan, nan]), 'jvp': ('ok', nan), 'hvp': ('ok', [nan, nan, nan]), 'gg': ('ok', [nan, nan, nan])},
    'var_ddof': {'g': ('ok', [-0.6666666666666666, -0.16666666666666666, 0.8333333333333334]), 'jvp': ('ok', 1.2000000000000002), 'hvp': ('ok', [-0.2, -2.7755575615628914e-17, 0.20000000000000004]), 'gg': ('ok', [-0.2, -2.7755575615628914e-17, 0.20000000000000004])},
    'norm_zero': {'g': ('ok', [nan, nan, nan]), 'jvp': ('ok', nan), 'hvp': ('ok', [nan, nan, nan]), 'gg': ('ok', [nan, nan, nan])},
    'norm_zero_entry': {'g': ('ok', [0.30000000000000004, 0.4, 0.0]), 'jvp': ('ok', 0.74), 'hvp': ('ok', [-0.014400000000000001, 0.010799999999999997, 0.11000000000000001]), 'gg': ('ok', [-0.014400000000000003, 0.01079999999999999, 0.11000000000000001])},
    'norm_ord1': {'g': ('ok', [0.5, 0.5, -0.5]), 'jvp': ('ok', -0.10000000000000009), 'hvp': ('ok', [0.0, 0.0, 0.0]), 'gg': ('ok', [0.0, 0.0, 0.0])},
    'norm_ordinf_ties': {'g': ('ok', [0.0, -0.25, 0.25]), 'jvp': ('ok', 0.20000000000000007), 'hvp': ('ok', [0.0, 0.0, 0.0]), 'gg': ('ok', [0.0, 0.0, 0.0])},
    'norm_ord3': {'g': ('ok', [0.0, 0.11556021239177242, -0.46224084956708966]), 'jvp': ('ok', -0.855145571699116), 'hvp': ('ok', [0.0, 0.25680047198171646, 0.12840023599085823]), 'gg': ('ok', [0.0, 0.2568004719817165, 0.12840023599085826])},
    'norm_ord_half': {'g': ('ok', [2.207106781186548, 1.5606601717798214, -1.103553390593274]), 'jvp': ('ok', 1.0813708498984758), 'hvp': ('ok', [-0.5396446609406728, -0.4596194077712559, -0.36472086912079615]), 'gg': ('ok', [-0.5396446609406728, -0.4596194077712559, -0.36472086912079615])},
    'norm_fro_zero': {'g': ('ok', [[nan, nan], [nan, nan]]), 'jvp': ('ok', nan), 'hvp': ('ok', [[nan, nan], [nan, nan]]), 'gg': ('ok', [[nan, nan], [nan, nan]])},
    'norm_nuc': {'g': ('ok', [[0.49751859510499463, 0.04975185951049948], [-0.04975185951049945, 0.49751859510499447]]), 'jvp': ('ok', 1.3665177412217184), 'hvp': ('ok', [[0.004006420369822397, -0.040064203698223964], [0.04006420369822395, 0.0040064203698223924]]), 'gg': ('ok', [[0.004006420369822417, -0.04006420369822395], [0.040064203698223964, 0.004006420369822379]])},
    'norm_2_matrix': {'g': ('ok', [[0.11008424849619002, 0.23288850333971067], [0.18313664382921113, 0.3874343466088045]]), 'jvp': ('ok', 1.4875741551374413), 'hvp': ('ok', [[0.014803983943954963, -0.011498252676416139], [0.028565951021807815, -0.010797563574132564]]), 'gg': ('ok', [[0.014803983943954973, -0.011498252676416134], [0.028565951021807826, -0.010797563574132574]])},
    'norm_-2_matrix': {'g': ('ok', [[0.3874343466088046, -0.1831366438292112], [-0.2328885033397106, 0.11008424849618996]]), 'jvp': ('ok', -0.12105641391572293), 'hvp': ('ok', [[-0.010797563574132566, -0.028565951021807822], [0.011498252676416135, 0.014803983943954956]]), 'gg': ('ok', [[-0.01079756357413256, -0.028565951021807826], [0.011498252676416137, 0.014803983943954956]])},
    'norm_1_matrix': {'g': ('ok', [[0.0, 0.5], [0.0, 0.5]]), 'jvp': ('ok', 1.6666666666666667), 'hvp': ('ok', [[0.0, 0.0], [0.0, 0.0]]), 'gg': ('ok', [[0.0, 0.0], [0.0, 0.0]])},
    'det_singular': {'g': ('ok', [[2.0, -1.0], [-1.0, 0.5]]), 'jvp': ('ok', -0.5), 'hvp': ('ok', [[0.55, -0.41666666666666663], [-0.2833333333333333, 0.15]]), 'gg': ('ok', [[0.55, -0.41666666666666663], [-0.2833333333333333, 0.15]])},
    'det_singular3': {'g': ('ok', [[2.0, 2.0, -2.0], [-1.0, -1.0, 1.0], [0.0, 0.0, 0.0]]), 'jvp': ('ok', -0.1999999999999993), 'hvp': ('ok', [[-0.44999999999999973, 1.7000000000000004, -1.1500000000000004], [0.19999999999999996, -0.9, 0.6000000000000001], [-0.04999999999999982, 0.10000000000000009, -0.050000000000000044]]), 'gg': ('ok', [[-0.44999999999999973, 1.7000000000000004, -1.1500000000000004], [0.19999999999999996, -0.9, 0.6000000000000001], [-0.04999999999999982, 0.10000000000000009, -0.050000000000000044]])},
    'det_rank1': {'g': ('ok', [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]), 'jvp': ('ok', 8.881784197001252e-16), 'hvp': ('ok', [[0.0, 0.0, 0.0], [0.0, 0.0, 1.1102230246251565e-16], [1.1102230246251565e-16, 0.0, 0.0]]), 'gg': ('ok', [[0.0, 0.0, 0.0], [0.0, 0.0, 1.1102230246251565e-16], [1.1102230246251565e-16, 0.0, 0.0]])},
    'det_zero': {'g': ('ok', [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]), 'jvp': ('ok', 0.0), 'hvp': ('ok', [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]), 'gg': ('ok', [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]])},
    'det_near_singular': {'g': ('ok', [[2.0000000000005, -1.0], [-1.0, 0.5]]), 'jvp': ('ok', -0.4999999999996998), 'hvp': ('ok', [[0.55, -0.41666666666666663], [-0.2833333333333333, 0.15]]), 'gg': ('ok', [[0.55, -0.41666666666666663], [-0.2833333333333333, 0.15]])},
    'slogdet_singular': {'g': ('ok', [[inf, -inf], [-inf, inf]]), 'jvp': ('ok', -inf), 'hvp': ('ok', [[inf, -inf], [-inf, inf]]), 'gg': ('ok', [[inf, -inf], [-inf, inf]])},
    'slogdet_negative': {'g': ('ok', [[-0.08333333333333333, 0.25], [0.16666666666666666, 0.0]]), 'jvp': ('ok', 0.5111111111111111), 'hvp': ('ok', [[-0.04907407407407408, -0.05833333333333332], [-0.03796296296296295, -0.024999999999999998]]), 'gg': ('ok', [[-0.04907407407407409, -0.05833333333333332], [-0.03796296296296295, -0.024999999999999998]])},
    'inv': {'g': ('ok', [[-0.033057851239669436, -0.1005509641873278], [-0.1101928374655647, -0.11294765840220387]]), 'jvp': ('ok', [[0.0033057851239669395, -0.037465564738292004], [-0.11873278236914597, -0.07658402203856751]]), 'hvp': ('ok', [[0.054144753318307016, 0.09547541531012604], [0.046047249353034475, 0.11304783370899074]]), 'gg': ('ok', [[0.054144753318307016, 0.09547541531012604], [0.046047249353034475, 0.11304783370899074]])},
    'solve': {'g': ('ok', [[-0.024793388429752063, -0.08677685950413222], [-0.08264462809917357, -0.2892561983471075]]), 'jvp': ('ok', [-0.07162534435261708, -0.271900826446281]), 'hvp': ('ok', [[0.04184823441021788, 0.14936138241923363], [0.05684948660155273, 0.20861507638367147]]), 'gg': ('ok', [[0.04184823441021788, 0.14936138241923363], [0.05684948660155273, 0.20861507638367147]])},
    'cholesky': {'g': ('ok', [[0.3139539966250643, 0.468148167980568], [0.49865869491407816, 1.7472674908123254]]), 'jvp': ('ok', [[0.47628967220784024, 0.0], [1.5672198261696075, 0.42029689768666834]]), 'hvp': ('ok', [[0.20063485622669153, -0.6352341175448479], [-0.1838780752215507, 0.09880000414729939]]), 'gg': ('ok', [[0.20063485622669164, -0.6352341175448482], [-0.18387807522155092, 0.09880000414729939]])},
    'eigh_degenerate_values': {'g': ('ok', [[0.5, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.5]]), 'jvp': ('ok', [0.3, 0.7, 1.1]), 'hvp': ('ok', [[nan, nan, nan], [nan, nan, nan], [nan, nan, nan]]), 'gg': ('ok', [[nan, nan, nan], [nan, nan, nan], [nan, nan, nan]])},
    'eigh_degenerate_top': {'g': ('ok', [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.5]]), 'jvp': ('ok', 1.1), 'hvp': ('ok', [[nan, nan, nan], [nan, nan, nan], [nan, nan, nan]]), 'gg': ('ok', [[nan, nan, nan], [nan, nan, nan], [nan, nan, nan]])},
    'eigvalsh_degenerate': {'g': ('ok', [[0.5, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.5]]), 'jvp': ('ok', [0.3, 0.7, 1.1]), 'hvp': ('ok', [[nan, nan, nan], [nan, nan, nan], [nan, nan, nan]]), 'gg': ('ok', [[nan, nan, nan], [nan, nan, nan], [nan, nan, nan]])},
    'eigh_vectors': {'g': ('ok', [[0.1582054685648223, 0.2088479748025834, -0.15595061273797323], [0.2088479748025834, -0.2881043010010381, 0.182264418052912], [-0.15595061273797323, 0.182264418052912, 0.12989883243621875]]), 'jvp': ('ok', [[-0.1231364777855717, -0.007700542298414716, 0.032596634081160814], [0.1825439187329565, 0.02788787863190517, -0.06160604873280626], [-0.03783877134972218, -0.027732628589723578, 0.21088522872055673]]), 'hvp': ('ok', [[-0.048647772454241955, -0.08191076090036663, -0.053373918997877565], [-0.08191076090036663, 0.02732562432717455, -0.07388172680431959], [-0.053373918997877565, -0.07388172680431959, 0.021322148127067876]]), 'gg': ('ok', [[-0.04864777245424273, -0.08191076090036711, -0.05337391899787761], [-0.08191076090036711, 0.027325624327176216, -0.07388172680431973], [-0.05337391899787761, -0.07388172680431973, 0.02132214812706953]])},
    'svd_values': {'g': ('ok', [[1.286004887385451, -0.21693947142839398, -0.3127061509531343], [-0.4700362227537585, 0.6195503239619267, 0.31075215830502023]]), 'jvp': ('ok', [1.5670872395040085, -0.0892237993817146]), 'hvp': ('ok', [[0.01911003477972772, -0.046046290567990394, 0.06418023546523494], [0.046075612106221686, -0.03801952043727301, 0.09884697626724324]]), 'gg': ('ok', [[0.019110034779727753, -0.04604629056799035, 0.06418023546523496], [0.046075612106221686, -0.03801952043727304, 0.09884697626724322]])},
    'svd_values_degenerate': {'g': ('ok', [[0.5, 0.0], [0.0, 1.5]]), 'jvp': ('ok', [0.3, 1.1]), 'hvp': ('ok', [[nan, nan], [nan, nan]]), 'gg': ('ok', [[nan, nan], [nan, nan]])},
    'svd_values_zero': {'g': ('ok', [[0.5, 0.0], [0.0, 1.5]]), 'jvp': ('ok', [0.3, 1.1]), 'hvp': ('ok', [[0.0, -0.9666666666666667], [-0.43333333333333335, 0.0]]), 'gg': ('ok', [[0.0, -0.9666666666666667], [-0.43333333333333335, 0.0]])},
    'svd_s_of_triple_degenerate': {'g': ('ok', [[0.5, 0.0], [0.0, 1.5]]), 'jvp': ('ok', [0.3, 1.1]), 'hvp': ('ok', [[nan, nan], [nan, nan]]), 'gg': ('ok', [[nan, nan], [nan, nan]])},
    'svd_u': {'g': ('ok', [[0.16472788127164834, 0.2100556875276054, 0.04643336250610224], [0.05748892500755513, -0.1658334375217937, -0.0707556000092986]]), 'jvp': ('ok', [[-0.015256630765060704, 0.008236348576638127], [0.008236348576638127, -0.015256630765060699]]), 'hvp': ('ok', [[-0.13023592164028094, -0.1548369355247207, 0.04505733073127069], [-0.10035086322227937, 0.14906629928619972, 0.032325876934668304]]), 'gg': ('ok', [[-0.13023592164028114, -0.15483693552472122, 0.04505733073127054], [-0.10035086322227976, 0.1490662992861987, 0.03232587693466802]])},
    'qr_r': {'g': ('ok', [[-0.5202741745546349, -0.3265011045846714], [0.19270927357954398, -1.6250589481904185], [-0.20145021141946234, -0.4438748563003812]]), 'jvp': ('ok', [[-0.8074061938731717, -1.7126986985093458], [0.0, -0.2006750124988145]]), 'hvp': ('ok', [[-0.23674576953593374, 0.5032635440196224], [0.78572357775369, -0.06755592392266775], [-0.09710764526019539, -0.12285837679640169]]), 'gg': ('ok', [[-0.236745769535934, 0.5032635440196225], [0.7857235777536903, -0.06755592392266771], [-0.09710764526019544, -0.12285837679640163]])},
    'qr_q': {'g': ('ok', [[-0.05208512617110219, 0.13469966592386184], [0.3075934021539448, 0.05387986636954464], [-0.04962644873476804, -0.2963392650324962]]), 'jvp': ('ok', [[0.176652577810089, 0.2373687083408099], [-0.19369435590470946, 0.06257069288750453], [-0.2564579776678234, 0.06057106972896743]]), 'hvp': ('ok', [[-0.22062171764130067, -0.006717593498052548], [0.14708878467126937, 0.004209585496080783], [0.23926553327353367, 0.21607388645233508]]), 'gg': ('ok', [[-0.22062171764130076, -0.006717593498052556], [0.1470887846712694, 0.00420958549608075], [0.23926553327353373, 0.21607388645233505]])},
    'pinv': {'g': ('ok', [[0.011920929530707771, -0.09405462501886203, 0.13365021880187114], [-0.12518484985664702, -0.1368643428398972, 0.026376942809717804]]), 'jvp': ('ok', [[0.01047231024596353, -0.03486343745284434], [-0.08519993964086306, -0.11495397615814078], [0.01249132337407571, 0.03463407273275995]]), 'hvp': ('ok', [[-0.010201464672246705, 0.032433712504293916, -0.09245029200337744], [0.00953951757638788, 0.14094631568470653, -0.13142400688350997]]), 'gg': ('ok', [[-0.010201464672246769, 0.03243371250429392, -0.09245029200337739], [0.009539517576387947, 0.14094631568470647, -0.13142400688350997]])},
    'pinv_rank_deficient': {'g': ('ok', [[-0.010399999999999989, -0.02213333333333331], [-0.03546666666666663, -0.07359999999999993]]), 'jvp': ('ok', [[-0.008799999999999994, -0.01626666666666665], [-0.026933333333333316, -0.05119999999999996]]), 'hvp': ('ok', [[0.0040426666666666545, 0.015347555555555524], [0.014600888888888853, 0.04710399999999992]]), 'gg': ('ok', [[0.0033742222222222134, 0.015655111111111092], [0.014641777777777748, 0.04709688888888882]])},
    'matrix_power3': {'g': ('ok', [[17.166666666666664, 24.708333333333332], [39.666666666666664, 53.58333333333333]]), 'jvp': ('ok', [[12.266666666666666, 23.066666666666666], [22.258333333333333, 39.88333333333333]]), 'hvp': ('ok', [[17.11111111111111, 27.133333333333333], [29.65, 48.70555555555556]]), 'gg': ('ok', [[17.11111111111111, 27.13333333333333], [29.65, 48.705555555555556]])},
    'matrix_power-2': {'g': ('ok', [[-0.0077635862759829755, -0.07813673929376408], [-0.07362885048835457, -0.05384422739794642]]), 'jvp': ('ok', [[0.028600050087653383, -0.020736288504883533], [-0.10127723516153264, -0.030703731530177834]]), 'hvp': ('ok', [[0.054153860164378516, 0.0963003437834392], [0.025007399312433128, 0.09482199910449346]]), 'gg': ('ok', [[0.054153860164378516, 0.0963003437834392], [0.025007399312433128, 0.09482199910449346]])},
    'expm': {'g': ('ok', [[14.374499353860525, 20.446970335395605], [34.01221988013822, 46.09281230378106]]), 'jvp': ('ok', [[10.386930725406815, 20.75038928395932], [17.945087511697942, 34.348789711670854]]), 'hvp': ('ok', [[23.544229431590765, 36.025538283793665], [45.82516520150173, 71.40034699889938]]), 'gg': ('ok', [[23.544229431590765, 36.02553828379368], [45.825165201501704, 71.4003469988993]])},
    'expm_zero': {'g': ('ok', [[0.5, 0.8333333333333333], [1.1666666666666665, 1.5]]), 'jvp': ('ok', [[0.3, 0.5666666666666667], [0.8333333333333331, 1.1]]), 'hvp': ('ok', [[0.8722222222222221, 1.4166666666666665], [1.383333333333333, 2.3722222222222222]]), 'gg': ('ok', [[0.8722222222222221, 1.4166666666666665], [1.383333333333333, 2.3722222222222222]])},
    'where_sqrt_nan_leak': {'g': ('ok', [nan, 0.25, nan]), 'jvp': ('ok', [0.0, 0.175, 0.0]), 'hvp': ('ok', [nan, -0.021875, nan]), 'gg': ('ok', [nan, -0.021875, nan])},
    'clip_bounds': {'g': ('ok', [0.25, 0.41666666666666663, 1.1666666666666665, 0.0]), 'jvp': ('ok', [0.15, 0.2833333333333333, 0.8333333333333333, 0.0]), 'hvp': ('ok', [0.0, 0.0, 0.0, 0.0]), 'gg': ('ok', [0.0, 0.0, 0.0, 0.0])},
    'logaddexp_inf': {'g': ('ok', [nan, 2.0, 1.5]), 'jvp': ('ok', [nan, 1.4, 1.1]), 'hvp': ('ok', [nan, 0.0, 0.0]), 'gg': ('ok', [nan, 0.0, 0.0])},
    'hypot_line': {'g': ('ok', [0.75, 3.3541019662496847]), 'jvp': ('ok', [0.44999999999999996, 2.459674775249769]), 'hvp': ('ok', [0.0, -7.068304992418612e-17]), 'gg': ('ok', [0.0, 0.0])},
    'standardize': {'g': ('ok', [-0.05727229101665832, 0.08590457081930081, -0.02863227980264249]), 'jvp': ('ok', [-0.04581783281332676, 0.06872365665544057, -0.022905823842113884]), 'hvp': ('ok', [0.032727254843530756, -0.043360928780697736, 0.010633673937167146]), 'gg': ('ok', [0.032727254843530784, -0.04336092878069775, 0.010633673937167076])},
    'i1e(1e-150)': {'g': ('ok', 0.25), 'jvp': ('ok', 0.15), 'hvp': ('ok', 0.0), 'gg': ('ok', 0.0), 'g3': ('ok', 0.0)},
    'i1_tiny(1e-150)': {'g': ('ok', 0.25), 'jvp': ('ok', 0.15), 'hvp': ('ok', 0.15), 'gg': ('ok', 0.15), 'g3': ('ok', 1.5)},
    'i1_tiny(1e-12)': {'g': ('ok', 0.25000000000000006), 'jvp': ('ok', 0.15000000000000002), 'hvp': ('ok', -1.8300846679780713e-05), 'gg': ('ok', -2.7465820312488898e-05), 'g3': ('ok', 536870911.99993896)},
}
