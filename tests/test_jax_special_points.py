"""Parity sweep of the functional face against JAX at special points: the gradient (and its
dtype) of every op of a grid -- unary math, binary ops (both arguments), reductions -- at 0,
±1, ±inf, ties and NaN, in float64.

``JAX`` (at the end of this file) holds the numbers recorded once from live jax 0.10 with
``jax_enable_x64``; the sweep runs without jax.  With jax installed,
``test_stored_numbers_match_live_jax`` re-checks them against live jax.  The fgrad side runs
with warnings as errors (no RuntimeWarnings for IEEE special values, docs/numerics.md).

Deliberate deviations are listed with fgrad's numbers and the reason in ``DEVIATIONS`` (each
is also in docs/numerics.md); ops ``fgrad.numpy`` does not have yet are skipped while missing.

Regenerate ``JAX`` after changing the grid::

    python -c "import tests.test_jax_special_points as m; m.print_jax_table()"
"""

# ruff: noqa: E501 - the stored table at the end is generated, one case a line
from __future__ import annotations

import warnings

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp

nan, inf = np.nan, np.inf
UNARY = ["sqrt", "cbrt", "log", "log1p", "arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh", "tanh",
         "exp2", "log2", "log10", "expm1", "sinc", "deg2rad", "rad2deg", "square", "reciprocal", "fabs", "sign",
         "abs", "floor", "ceil", "rint", "trunc"]
UNARY_POINTS = [0.0, 1.0, -1.0, inf, -inf]
BINARY = ["arctan2", "hypot", "logaddexp", "logaddexp2", "power", "maximum", "minimum", "fmax", "fmin",
          "copysign", "nextafter", "remainder", "fmod", "true_divide", "heaviside", "float_power", "ldexp"]
BINARY_POINTS = [(0.0, 0.0), (1.0, 1.0), (inf, inf), (-inf, -inf), (0.0, 1.0), (-1.0, 0.5), (2.0, -3.0)]
REDUCTIONS = ["std", "var", "mean", "max", "min", "prod", "linalg.norm", "logsumexp", "median", "ptp", "nanmean",
              "nansum", "nanstd", "nanmax"]
REDUCTION_POINTS = [[0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [1.0, 1.0, 2.0], [-inf, -inf], [nan, 1.0]]


def _lookup(np_module, logsumexp, name):
    if name == "logsumexp":
        return logsumexp
    f = np_module
    for part in name.split("."):
        f = getattr(f, part)
    return f


def cases():
    """(case id, op name, kind, point) for the whole grid."""
    out = [(f"d{n}({p!r})", n, "unary", (p,)) for n in UNARY for p in UNARY_POINTS]
    out += [(f"d{n}{p!r}", n, "binary", p) for n in BINARY for p in BINARY_POINTS]
    out += [(f"d{n}({a!r})", n, "reduction", (a,)) for n in REDUCTIONS for a in REDUCTION_POINTS]
    return out


def run(grad, np_module, logsumexp, name, kind, point):
    """('ok', gradient, dtype name) or ('error', exception type name)."""
    f = _lookup(np_module, logsumexp, name)
    try:
        if kind == "binary":
            g = grad(lambda a, b: f(a, b), argnums=(0, 1))(*[np_module.asarray(np.float64(v)) for v in point])
            g = np.stack([np.asarray(v) for v in g])
        else:
            g = np.asarray(grad(lambda v: f(v))(np_module.asarray(np.asarray(point[0], np.float64))))
    except Exception as e:  # noqa: BLE001 - the error type is part of the expected result
        return ("error", type(e).__name__)
    return ("ok", g.tolist(), str(g.dtype))


# Deliberate deviations: case id -> (fgrad's result, reason).
DEVIATIONS = {
    # d/dx x**y at x = y = 0: JAX's rule y * x**(y - 1) gives 0 * inf = NaN for a float
    # exponent (0 for an integer one); fgrad (and PyTorch) give 0 for both.
    "dpower(0.0, 0.0)": (("ok", [0.0, 0.0], "float64"), "power'(0) with exponent 0 is 0, as PyTorch"),
    "dfloat_power(0.0, 0.0)": (("ok", [0.0, 0.0], "float64"), "float_power is power in float64 (as above)"),
    # JAX's nextafter has no derivative rule (NotImplementedError); fgrad's is the slope of
    # x + (a step constant between binades): 1 in x, 0 in y (docs/conformance.md)
    **{f"dnextafter{p!r}": (("ok", [1.0, 0.0], "float64"), "nextafter' = (1, 0), JAX has no rule")
       for p in [(0.0, 0.0), (1.0, 1.0), (inf, inf), (-inf, -inf), (0.0, 1.0), (-1.0, 0.5), (2.0, -3.0)]},
}

LOGSUMEXP = getattr(fgrad.nn, "logsumexp", None) or getattr(fnp, "logsumexp", None)
CASES = cases()
OPS = sorted({op for _, op, _, _ in CASES})


def _same(got, want) -> bool:
    if got[0] != want[0]:
        return False
    if got[0] == "error":
        return got[1] == want[1]
    return got[2] == want[2] and np.allclose(got[1], want[1], rtol=1e-7, atol=1e-300, equal_nan=True)


@pytest.mark.parametrize("op", OPS)
def test_functional_face_matches_jax_at_special_points(op):
    try:
        _lookup(fnp, LOGSUMEXP, op)
    except AttributeError:
        pytest.skip(f"fgrad.numpy has no {op} yet")
    bad = []
    for cid, name, kind, point in CASES:
        if name != op:
            continue
        want = DEVIATIONS[cid][0] if cid in DEVIATIONS else JAX[cid]
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = run(fgrad.grad, fnp, LOGSUMEXP, name, kind, point)
        if not _same(got, want):
            bad.append(f"{cid}: fgrad {got}, expected {want}")
    assert not bad, "\n".join(bad)


def _jax():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    import jax.scipy.special as jss

    return jax, jnp, jss


def _live_check(cids) -> None:
    jax, jnp, jss = _jax()
    bad = []
    for cid, name, kind, point in CASES:
        if cid not in cids:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = run(jax.grad, jnp, jss.logsumexp, name, kind, point)
        if not _same(got, JAX[cid]):
            bad.append(f"{cid}: jax {got}, stored {JAX[cid]}")
    assert not bad, "\n".join(bad)


# live jax costs ~30 ms a case: the default suite re-checks the special points that matter
# most (binary ops at (0, 0), reductions with a NaN), ``-m slow`` the whole table
LIVE_SAMPLE = {cid for cid, _, _, point in CASES
               if str(point) in ("(0.0, 0.0)", "([nan, 1.0],)")}


def test_stored_numbers_match_live_jax_sample():
    _live_check(LIVE_SAMPLE)


@pytest.mark.slow
def test_stored_numbers_match_live_jax():
    _live_check({c[0] for c in CASES})


def test_deviations_still_differ_from_jax():
    """Every listed deviation is a real difference (remove it from DEVIATIONS once matched)."""
    for cid, (ours, _) in DEVIATIONS.items():
        assert not _same(ours, JAX[cid]), cid


def print_jax_table() -> None:
    """Print ``JAX`` recomputed with live jax (to paste over the table below)."""
    jax, jnp, jss = _jax()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        print("JAX = {")
        for cid, name, kind, point in CASES:
            print(f"    {cid!r}: {run(jax.grad, jnp, jss.logsumexp, name, kind, point)!r},")
        print("}")


# Recorded from jax 0.10.2 (CPU, jax_enable_x64), float64.
nan, inf = float("nan"), float("inf")
JAX = {
    'dsqrt(0.0)': ('ok', inf, 'float64'),
    'dsqrt(1.0)': ('ok', 0.5, 'float64'),
    'dsqrt(-1.0)': ('ok', nan, 'float64'),
    'dsqrt(inf)': ('ok', 0.0, 'float64'),
    'dsqrt(-inf)': ('ok', nan, 'float64'),
    'dcbrt(0.0)': ('ok', inf, 'float64'),
    'dcbrt(1.0)': ('ok', 0.3333333333333333, 'float64'),
    'dcbrt(-1.0)': ('ok', 0.3333333333333333, 'float64'),
    'dcbrt(inf)': ('ok', 0.0, 'float64'),
    'dcbrt(-inf)': ('ok', 0.0, 'float64'),
    'dlog(0.0)': ('ok', inf, 'float64'),
    'dlog(1.0)': ('ok', 1.0, 'float64'),
    'dlog(-1.0)': ('ok', -1.0, 'float64'),
    'dlog(inf)': ('ok', 0.0, 'float64'),
    'dlog(-inf)': ('ok', -0.0, 'float64'),
    'dlog1p(0.0)': ('ok', 1.0, 'float64'),
    'dlog1p(1.0)': ('ok', 0.5, 'float64'),
    'dlog1p(-1.0)': ('ok', inf, 'float64'),
    'dlog1p(inf)': ('ok', 0.0, 'float64'),
    'dlog1p(-inf)': ('ok', -0.0, 'float64'),
    'darcsin(0.0)': ('ok', 1.0, 'float64'),
    'darcsin(1.0)': ('ok', inf, 'float64'),
    'darcsin(-1.0)': ('ok', inf, 'float64'),
    'darcsin(inf)': ('ok', nan, 'float64'),
    'darcsin(-inf)': ('ok', nan, 'float64'),
    'darccos(0.0)': ('ok', -1.0, 'float64'),
    'darccos(1.0)': ('ok', -inf, 'float64'),
    'darccos(-1.0)': ('ok', -inf, 'float64'),
    'darccos(inf)': ('ok', nan, 'float64'),
    'darccos(-inf)': ('ok', nan, 'float64'),
    'darctan(0.0)': ('ok', 1.0, 'float64'),
    'darctan(1.0)': ('ok', 0.5, 'float64'),
    'darctan(-1.0)': ('ok', 0.5, 'float64'),
    'darctan(inf)': ('ok', 0.0, 'float64'),
    'darctan(-inf)': ('ok', 0.0, 'float64'),
    'darcsinh(0.0)': ('ok', 1.0, 'float64'),
    'darcsinh(1.0)': ('ok', 0.7071067811865475, 'float64'),
    'darcsinh(-1.0)': ('ok', 0.7071067811865475, 'float64'),
    'darcsinh(inf)': ('ok', 0.0, 'float64'),
    'darcsinh(-inf)': ('ok', 0.0, 'float64'),
    'darccosh(0.0)': ('ok', nan, 'float64'),
    'darccosh(1.0)': ('ok', inf, 'float64'),
    'darccosh(-1.0)': ('ok', inf, 'float64'),
    'darccosh(inf)': ('ok', 0.0, 'float64'),
    'darccosh(-inf)': ('ok', 0.0, 'float64'),
    'darctanh(0.0)': ('ok', 1.0, 'float64'),
    'darctanh(1.0)': ('ok', inf, 'float64'),
    'darctanh(-1.0)': ('ok', inf, 'float64'),
    'darctanh(inf)': ('ok', -0.0, 'float64'),
    'darctanh(-inf)': ('ok', -0.0, 'float64'),
    'dtanh(0.0)': ('ok', 1.0, 'float64'),
    'dtanh(1.0)': ('ok', 0.41997434161402614, 'float64'),
    'dtanh(-1.0)': ('ok', 0.419974341614026, 'float64'),
    'dtanh(inf)': ('ok', 0.0, 'float64'),
    'dtanh(-inf)': ('ok', 0.0, 'float64'),
    'dexp2(0.0)': ('ok', 0.6931471805599453, 'float64'),
    'dexp2(1.0)': ('ok', 1.3862943611198906, 'float64'),
    'dexp2(-1.0)': ('ok', 0.34657359027997264, 'float64'),
    'dexp2(inf)': ('ok', inf, 'float64'),
    'dexp2(-inf)': ('ok', 0.0, 'float64'),
    'dlog2(0.0)': ('ok', inf, 'float64'),
    'dlog2(1.0)': ('ok', 1.4426950408889634, 'float64'),
    'dlog2(-1.0)': ('ok', -1.4426950408889634, 'float64'),
    'dlog2(inf)': ('ok', 0.0, 'float64'),
    'dlog2(-inf)': ('ok', -0.0, 'float64'),
    'dlog10(0.0)': ('ok', inf, 'float64'),
    'dlog10(1.0)': ('ok', 0.4342944819032518, 'float64'),
    'dlog10(-1.0)': ('ok', -0.4342944819032518, 'float64'),
    'dlog10(inf)': ('ok', 0.0, 'float64'),
    'dlog10(-inf)': ('ok', -0.0, 'float64'),
    'dexpm1(0.0)': ('ok', 1.0, 'float64'),
    'dexpm1(1.0)': ('ok', 2.7182818284590455, 'float64'),
    'dexpm1(-1.0)': ('ok', 0.36787944117144233, 'float64'),
    'dexpm1(inf)': ('ok', inf, 'float64'),
    'dexpm1(-inf)': ('ok', 0.0, 'float64'),
    'dsinc(0.0)': ('ok', 0.0, 'float64'),
    'dsinc(1.0)': ('ok', -1.0, 'float64'),
    'dsinc(-1.0)': ('ok', 1.0, 'float64'),
    'dsinc(inf)': ('ok', nan, 'float64'),
    'dsinc(-inf)': ('ok', nan, 'float64'),
    'ddeg2rad(0.0)': ('ok', 0.017453292519943295, 'float64'),
    'ddeg2rad(1.0)': ('ok', 0.017453292519943295, 'float64'),
    'ddeg2rad(-1.0)': ('ok', 0.017453292519943295, 'float64'),
    'ddeg2rad(inf)': ('ok', 0.017453292519943295, 'float64'),
    'ddeg2rad(-inf)': ('ok', 0.017453292519943295, 'float64'),
    'drad2deg(0.0)': ('ok', 57.29577951308232, 'float64'),
    'drad2deg(1.0)': ('ok', 57.29577951308232, 'float64'),
    'drad2deg(-1.0)': ('ok', 57.29577951308232, 'float64'),
    'drad2deg(inf)': ('ok', 57.29577951308232, 'float64'),
    'drad2deg(-inf)': ('ok', 57.29577951308232, 'float64'),
    'dsquare(0.0)': ('ok', 0.0, 'float64'),
    'dsquare(1.0)': ('ok', 2.0, 'float64'),
    'dsquare(-1.0)': ('ok', -2.0, 'float64'),
    'dsquare(inf)': ('ok', inf, 'float64'),
    'dsquare(-inf)': ('ok', -inf, 'float64'),
    'dreciprocal(0.0)': ('ok', -inf, 'float64'),
    'dreciprocal(1.0)': ('ok', -1.0, 'float64'),
    'dreciprocal(-1.0)': ('ok', -1.0, 'float64'),
    'dreciprocal(inf)': ('ok', -0.0, 'float64'),
    'dreciprocal(-inf)': ('ok', -0.0, 'float64'),
    'dfabs(0.0)': ('ok', 1.0, 'float64'),
    'dfabs(1.0)': ('ok', 1.0, 'float64'),
    'dfabs(-1.0)': ('ok', -1.0, 'float64'),
    'dfabs(inf)': ('ok', 1.0, 'float64'),
    'dfabs(-inf)': ('ok', -1.0, 'float64'),
    'dsign(0.0)': ('ok', 0.0, 'float64'),
    'dsign(1.0)': ('ok', 0.0, 'float64'),
    'dsign(-1.0)': ('ok', 0.0, 'float64'),
    'dsign(inf)': ('ok', 0.0, 'float64'),
    'dsign(-inf)': ('ok', 0.0, 'float64'),
    'dabs(0.0)': ('ok', 1.0, 'float64'),
    'dabs(1.0)': ('ok', 1.0, 'float64'),
    'dabs(-1.0)': ('ok', -1.0, 'float64'),
    'dabs(inf)': ('ok', 1.0, 'float64'),
    'dabs(-inf)': ('ok', -1.0, 'float64'),
    'dfloor(0.0)': ('ok', 0.0, 'float64'),
    'dfloor(1.0)': ('ok', 0.0, 'float64'),
    'dfloor(-1.0)': ('ok', 0.0, 'float64'),
    'dfloor(inf)': ('ok', 0.0, 'float64'),
    'dfloor(-inf)': ('ok', 0.0, 'float64'),
    'dceil(0.0)': ('ok', 0.0, 'float64'),
    'dceil(1.0)': ('ok', 0.0, 'float64'),
    'dceil(-1.0)': ('ok', 0.0, 'float64'),
    'dceil(inf)': ('ok', 0.0, 'float64'),
    'dceil(-inf)': ('ok', 0.0, 'float64'),
    'drint(0.0)': ('ok', 0.0, 'float64'),
    'drint(1.0)': ('ok', 0.0, 'float64'),
    'drint(-1.0)': ('ok', 0.0, 'float64'),
    'drint(inf)': ('ok', 0.0, 'float64'),
    'drint(-inf)': ('ok', 0.0, 'float64'),
    'dtrunc(0.0)': ('ok', 0.0, 'float64'),
    'dtrunc(1.0)': ('ok', 0.0, 'float64'),
    'dtrunc(-1.0)': ('ok', 0.0, 'float64'),
    'dtrunc(inf)': ('ok', 0.0, 'float64'),
    'dtrunc(-inf)': ('ok', 0.0, 'float64'),
    'darctan2(0.0, 0.0)': ('ok', [nan, nan], 'float64'),
    'darctan2(1.0, 1.0)': ('ok', [0.5, -0.5], 'float64'),
    'darctan2(inf, inf)': ('ok', [nan, nan], 'float64'),
    'darctan2(-inf, -inf)': ('ok', [nan, nan], 'float64'),
    'darctan2(0.0, 1.0)': ('ok', [1.0, -0.0], 'float64'),
    'darctan2(-1.0, 0.5)': ('ok', [0.4, 0.8], 'float64'),
    'darctan2(2.0, -3.0)': ('ok', [-0.23076923076923078, -0.15384615384615385], 'float64'),
    'dhypot(0.0, 0.0)': ('ok', [0.5, 0.5], 'float64'),
    'dhypot(1.0, 1.0)': ('ok', [0.7071067811865476, 0.7071067811865476], 'float64'),
    'dhypot(inf, inf)': ('ok', [nan, nan], 'float64'),
    'dhypot(-inf, -inf)': ('ok', [nan, nan], 'float64'),
    'dhypot(0.0, 1.0)': ('ok', [0.0, 1.0], 'float64'),
    'dhypot(-1.0, 0.5)': ('ok', [-0.894427190999916, 0.4472135954999579], 'float64'),
    'dhypot(2.0, -3.0)': ('ok', [0.5547001962252291, -0.8320502943378437], 'float64'),
    'dlogaddexp(0.0, 0.0)': ('ok', [0.5, 0.5], 'float64'),
    'dlogaddexp(1.0, 1.0)': ('ok', [0.49999999999999994, 0.49999999999999994], 'float64'),
    'dlogaddexp(inf, inf)': ('ok', [1.0, 1.0], 'float64'),
    'dlogaddexp(-inf, -inf)': ('ok', [nan, nan], 'float64'),
    'dlogaddexp(0.0, 1.0)': ('ok', [0.2689414213699951, 0.731058578630005], 'float64'),
    'dlogaddexp(-1.0, 0.5)': ('ok', [0.18242552380635635, 0.8175744761936437], 'float64'),
    'dlogaddexp(2.0, -3.0)': ('ok', [0.9933071490757149, 0.006692850924284855], 'float64'),
    'dlogaddexp2(0.0, 0.0)': ('ok', [0.5, 0.5], 'float64'),
    'dlogaddexp2(1.0, 1.0)': ('ok', [0.5, 0.5], 'float64'),
    'dlogaddexp2(inf, inf)': ('ok', [1.0, 1.0], 'float64'),
    'dlogaddexp2(-inf, -inf)': ('ok', [nan, nan], 'float64'),
    'dlogaddexp2(0.0, 1.0)': ('ok', [0.33333333333333337, 0.6666666666666667], 'float64'),
    'dlogaddexp2(-1.0, 0.5)': ('ok', [0.26120387496374153, 0.7387961250362587], 'float64'),
    'dlogaddexp2(2.0, -3.0)': ('ok', [0.9696969696969697, 0.030303030303030304], 'float64'),
    'dpower(0.0, 0.0)': ('ok', [nan, 0.0], 'float64'),
    'dpower(1.0, 1.0)': ('ok', [1.0, 0.0], 'float64'),
    'dpower(inf, inf)': ('ok', [inf, inf], 'float64'),
    'dpower(-inf, -inf)': ('ok', [nan, nan], 'float64'),
    'dpower(0.0, 1.0)': ('ok', [1.0, 0.0], 'float64'),
    'dpower(-1.0, 0.5)': ('ok', [nan, nan], 'float64'),
    'dpower(2.0, -3.0)': ('ok', [-0.1875, 0.08664339756999316], 'float64'),
    'dmaximum(0.0, 0.0)': ('ok', [0.5, 0.5], 'float64'),
    'dmaximum(1.0, 1.0)': ('ok', [0.5, 0.5], 'float64'),
    'dmaximum(inf, inf)': ('ok', [0.5, 0.5], 'float64'),
    'dmaximum(-inf, -inf)': ('ok', [0.5, 0.5], 'float64'),
    'dmaximum(0.0, 1.0)': ('ok', [0.0, 1.0], 'float64'),
    'dmaximum(-1.0, 0.5)': ('ok', [0.0, 1.0], 'float64'),
    'dmaximum(2.0, -3.0)': ('ok', [1.0, 0.0], 'float64'),
    'dminimum(0.0, 0.0)': ('ok', [0.5, 0.5], 'float64'),
    'dminimum(1.0, 1.0)': ('ok', [0.5, 0.5], 'float64'),
    'dminimum(inf, inf)': ('ok', [0.5, 0.5], 'float64'),
    'dminimum(-inf, -inf)': ('ok', [0.5, 0.5], 'float64'),
    'dminimum(0.0, 1.0)': ('ok', [1.0, 0.0], 'float64'),
    'dminimum(-1.0, 0.5)': ('ok', [1.0, 0.0], 'float64'),
    'dminimum(2.0, -3.0)': ('ok', [0.0, 1.0], 'float64'),
    'dfmax(0.0, 0.0)': ('ok', [0.0, 1.0], 'float64'),
    'dfmax(1.0, 1.0)': ('ok', [0.0, 1.0], 'float64'),
    'dfmax(inf, inf)': ('ok', [0.0, 1.0], 'float64'),
    'dfmax(-inf, -inf)': ('ok', [0.0, 1.0], 'float64'),
    'dfmax(0.0, 1.0)': ('ok', [0.0, 1.0], 'float64'),
    'dfmax(-1.0, 0.5)': ('ok', [0.0, 1.0], 'float64'),
    'dfmax(2.0, -3.0)': ('ok', [1.0, 0.0], 'float64'),
    'dfmin(0.0, 0.0)': ('ok', [0.0, 1.0], 'float64'),
    'dfmin(1.0, 1.0)': ('ok', [0.0, 1.0], 'float64'),
    'dfmin(inf, inf)': ('ok', [0.0, 1.0], 'float64'),
    'dfmin(-inf, -inf)': ('ok', [0.0, 1.0], 'float64'),
    'dfmin(0.0, 1.0)': ('ok', [1.0, 0.0], 'float64'),
    'dfmin(-1.0, 0.5)': ('ok', [1.0, 0.0], 'float64'),
    'dfmin(2.0, -3.0)': ('ok', [0.0, 1.0], 'float64'),
    'dcopysign(0.0, 0.0)': ('ok', [1.0, 0.0], 'float64'),
    'dcopysign(1.0, 1.0)': ('ok', [1.0, 0.0], 'float64'),
    'dcopysign(inf, inf)': ('ok', [1.0, 0.0], 'float64'),
    'dcopysign(-inf, -inf)': ('ok', [1.0, 0.0], 'float64'),
    'dcopysign(0.0, 1.0)': ('ok', [1.0, 0.0], 'float64'),
    'dcopysign(-1.0, 0.5)': ('ok', [-1.0, 0.0], 'float64'),
    'dcopysign(2.0, -3.0)': ('ok', [-1.0, 0.0], 'float64'),
    'dnextafter(0.0, 0.0)': ('error', 'NotImplementedError'),
    'dnextafter(1.0, 1.0)': ('error', 'NotImplementedError'),
    'dnextafter(inf, inf)': ('error', 'NotImplementedError'),
    'dnextafter(-inf, -inf)': ('error', 'NotImplementedError'),
    'dnextafter(0.0, 1.0)': ('error', 'NotImplementedError'),
    'dnextafter(-1.0, 0.5)': ('error', 'NotImplementedError'),
    'dnextafter(2.0, -3.0)': ('error', 'NotImplementedError'),
    'dremainder(0.0, 0.0)': ('ok', [1.0, nan], 'float64'),
    'dremainder(1.0, 1.0)': ('ok', [1.0, -1.0], 'float64'),
    'dremainder(inf, inf)': ('ok', [1.0, nan], 'float64'),
    'dremainder(-inf, -inf)': ('ok', [1.0, nan], 'float64'),
    'dremainder(0.0, 1.0)': ('ok', [1.0, 0.0], 'float64'),
    'dremainder(-1.0, 0.5)': ('ok', [1.0, 2.0], 'float64'),
    'dremainder(2.0, -3.0)': ('ok', [1.0, 1.0], 'float64'),
    'dfmod(0.0, 0.0)': ('ok', [1.0, nan], 'float64'),
    'dfmod(1.0, 1.0)': ('ok', [1.0, -1.0], 'float64'),
    'dfmod(inf, inf)': ('ok', [1.0, nan], 'float64'),
    'dfmod(-inf, -inf)': ('ok', [1.0, nan], 'float64'),
    'dfmod(0.0, 1.0)': ('ok', [1.0, -0.0], 'float64'),
    'dfmod(-1.0, 0.5)': ('ok', [1.0, 2.0], 'float64'),
    'dfmod(2.0, -3.0)': ('ok', [1.0, 0.0], 'float64'),
    'dtrue_divide(0.0, 0.0)': ('ok', [inf, nan], 'float64'),
    'dtrue_divide(1.0, 1.0)': ('ok', [1.0, -1.0], 'float64'),
    'dtrue_divide(inf, inf)': ('ok', [0.0, nan], 'float64'),
    'dtrue_divide(-inf, -inf)': ('ok', [-0.0, nan], 'float64'),
    'dtrue_divide(0.0, 1.0)': ('ok', [1.0, -0.0], 'float64'),
    'dtrue_divide(-1.0, 0.5)': ('ok', [2.0, 4.0], 'float64'),
    'dtrue_divide(2.0, -3.0)': ('ok', [-0.3333333333333333, -0.2222222222222222], 'float64'),
    'dheaviside(0.0, 0.0)': ('ok', [0.0, 1.0], 'float64'),
    'dheaviside(1.0, 1.0)': ('ok', [0.0, 0.0], 'float64'),
    'dheaviside(inf, inf)': ('ok', [0.0, 0.0], 'float64'),
    'dheaviside(-inf, -inf)': ('ok', [0.0, 0.0], 'float64'),
    'dheaviside(0.0, 1.0)': ('ok', [0.0, 1.0], 'float64'),
    'dheaviside(-1.0, 0.5)': ('ok', [0.0, 0.0], 'float64'),
    'dheaviside(2.0, -3.0)': ('ok', [0.0, 0.0], 'float64'),
    'dfloat_power(0.0, 0.0)': ('ok', [nan, 0.0], 'float64'),
    'dfloat_power(1.0, 1.0)': ('ok', [1.0, 0.0], 'float64'),
    'dfloat_power(inf, inf)': ('ok', [inf, inf], 'float64'),
    'dfloat_power(-inf, -inf)': ('ok', [nan, nan], 'float64'),
    'dfloat_power(0.0, 1.0)': ('ok', [1.0, 0.0], 'float64'),
    'dfloat_power(-1.0, 0.5)': ('ok', [nan, nan], 'float64'),
    'dfloat_power(2.0, -3.0)': ('ok', [-0.1875, 0.08664339756999316], 'float64'),
    'dldexp(0.0, 0.0)': ('error', 'ValueError'),
    'dldexp(1.0, 1.0)': ('error', 'ValueError'),
    'dldexp(inf, inf)': ('error', 'ValueError'),
    'dldexp(-inf, -inf)': ('error', 'ValueError'),
    'dldexp(0.0, 1.0)': ('error', 'ValueError'),
    'dldexp(-1.0, 0.5)': ('error', 'ValueError'),
    'dldexp(2.0, -3.0)': ('error', 'ValueError'),
    'dstd([0.0, 0.0, 0.0])': ('ok', [nan, nan, nan], 'float64'),
    'dstd([1.0, 1.0, 1.0])': ('ok', [nan, nan, nan], 'float64'),
    'dstd([1.0, 1.0, 2.0])': ('ok', [-0.23570226039551584, -0.23570226039551584, 0.4714045207910316], 'float64'),
    'dstd([-inf, -inf])': ('ok', [nan, nan], 'float64'),
    'dstd([nan, 1.0])': ('ok', [nan, nan], 'float64'),
    'dvar([0.0, 0.0, 0.0])': ('ok', [0.0, 0.0, 0.0], 'float64'),
    'dvar([1.0, 1.0, 1.0])': ('ok', [0.0, 0.0, 0.0], 'float64'),
    'dvar([1.0, 1.0, 2.0])': ('ok', [-0.2222222222222222, -0.2222222222222222, 0.4444444444444444], 'float64'),
    'dvar([-inf, -inf])': ('ok', [nan, nan], 'float64'),
    'dvar([nan, 1.0])': ('ok', [nan, nan], 'float64'),
    'dmean([0.0, 0.0, 0.0])': ('ok', [0.3333333333333333, 0.3333333333333333, 0.3333333333333333], 'float64'),
    'dmean([1.0, 1.0, 1.0])': ('ok', [0.3333333333333333, 0.3333333333333333, 0.3333333333333333], 'float64'),
    'dmean([1.0, 1.0, 2.0])': ('ok', [0.3333333333333333, 0.3333333333333333, 0.3333333333333333], 'float64'),
    'dmean([-inf, -inf])': ('ok', [0.5, 0.5], 'float64'),
    'dmean([nan, 1.0])': ('ok', [0.5, 0.5], 'float64'),
    'dmax([0.0, 0.0, 0.0])': ('ok', [0.3333333333333333, 0.3333333333333333, 0.3333333333333333], 'float64'),
    'dmax([1.0, 1.0, 1.0])': ('ok', [0.3333333333333333, 0.3333333333333333, 0.3333333333333333], 'float64'),
    'dmax([1.0, 1.0, 2.0])': ('ok', [0.0, 0.0, 1.0], 'float64'),
    'dmax([-inf, -inf])': ('ok', [0.5, 0.5], 'float64'),
    'dmax([nan, 1.0])': ('ok', [nan, nan], 'float64'),
    'dmin([0.0, 0.0, 0.0])': ('ok', [0.3333333333333333, 0.3333333333333333, 0.3333333333333333], 'float64'),
    'dmin([1.0, 1.0, 1.0])': ('ok', [0.3333333333333333, 0.3333333333333333, 0.3333333333333333], 'float64'),
    'dmin([1.0, 1.0, 2.0])': ('ok', [0.5, 0.5, 0.0], 'float64'),
    'dmin([-inf, -inf])': ('ok', [0.5, 0.5], 'float64'),
    'dmin([nan, 1.0])': ('ok', [nan, nan], 'float64'),
    'dprod([0.0, 0.0, 0.0])': ('ok', [0.0, 0.0, 0.0], 'float64'),
    'dprod([1.0, 1.0, 1.0])': ('ok', [1.0, 1.0, 1.0], 'float64'),
    'dprod([1.0, 1.0, 2.0])': ('ok', [2.0, 2.0, 1.0], 'float64'),
    'dprod([-inf, -inf])': ('ok', [-inf, -inf], 'float64'),
    'dprod([nan, 1.0])': ('ok', [1.0, nan], 'float64'),
    'dlinalg.norm([0.0, 0.0, 0.0])': ('ok', [nan, nan, nan], 'float64'),
    'dlinalg.norm([1.0, 1.0, 1.0])': ('ok', [0.5773502691896258, 0.5773502691896258, 0.5773502691896258], 'float64'),
    'dlinalg.norm([1.0, 1.0, 2.0])': ('ok', [0.4082482904638631, 0.4082482904638631, 0.8164965809277261], 'float64'),
    'dlinalg.norm([-inf, -inf])': ('ok', [nan, nan], 'float64'),
    'dlinalg.norm([nan, 1.0])': ('ok', [nan, nan], 'float64'),
    'dlogsumexp([0.0, 0.0, 0.0])': ('ok', [0.3333333333333333, 0.3333333333333333, 0.3333333333333333], 'float64'),
    'dlogsumexp([1.0, 1.0, 1.0])': ('ok', [0.3333333333333333, 0.3333333333333333, 0.3333333333333333], 'float64'),
    'dlogsumexp([1.0, 1.0, 2.0])': ('ok', [0.2119415576170854, 0.2119415576170854, 0.5761168847658291], 'float64'),
    'dlogsumexp([-inf, -inf])': ('ok', [nan, nan], 'float64'),
    'dlogsumexp([nan, 1.0])': ('ok', [nan, nan], 'float64'),
    'dmedian([0.0, 0.0, 0.0])': ('ok', [0.0, 1.0, 0.0], 'float64'),
    'dmedian([1.0, 1.0, 1.0])': ('ok', [0.0, 1.0, 0.0], 'float64'),
    'dmedian([1.0, 1.0, 2.0])': ('ok', [0.0, 1.0, 0.0], 'float64'),
    'dmedian([-inf, -inf])': ('ok', [0.5, 0.5], 'float64'),
    'dmedian([nan, 1.0])': ('ok', [0.0, 0.0], 'float64'),
    'dptp([0.0, 0.0, 0.0])': ('ok', [0.0, 0.0, 0.0], 'float64'),
    'dptp([1.0, 1.0, 1.0])': ('ok', [0.0, 0.0, 0.0], 'float64'),
    'dptp([1.0, 1.0, 2.0])': ('ok', [-0.5, -0.5, 1.0], 'float64'),
    'dptp([-inf, -inf])': ('ok', [0.0, 0.0], 'float64'),
    'dptp([nan, 1.0])': ('ok', [nan, nan], 'float64'),
    'dnanmean([0.0, 0.0, 0.0])': ('ok', [0.3333333333333333, 0.3333333333333333, 0.3333333333333333], 'float64'),
    'dnanmean([1.0, 1.0, 1.0])': ('ok', [0.3333333333333333, 0.3333333333333333, 0.3333333333333333], 'float64'),
    'dnanmean([1.0, 1.0, 2.0])': ('ok', [0.3333333333333333, 0.3333333333333333, 0.3333333333333333], 'float64'),
    'dnanmean([-inf, -inf])': ('ok', [0.5, 0.5], 'float64'),
    'dnanmean([nan, 1.0])': ('ok', [0.0, 1.0], 'float64'),
    'dnansum([0.0, 0.0, 0.0])': ('ok', [1.0, 1.0, 1.0], 'float64'),
    'dnansum([1.0, 1.0, 1.0])': ('ok', [1.0, 1.0, 1.0], 'float64'),
    'dnansum([1.0, 1.0, 2.0])': ('ok', [1.0, 1.0, 1.0], 'float64'),
    'dnansum([-inf, -inf])': ('ok', [1.0, 1.0], 'float64'),
    'dnansum([nan, 1.0])': ('ok', [0.0, 1.0], 'float64'),
    'dnanstd([0.0, 0.0, 0.0])': ('ok', [nan, nan, nan], 'float64'),
    'dnanstd([1.0, 1.0, 1.0])': ('ok', [nan, nan, nan], 'float64'),
    'dnanstd([1.0, 1.0, 2.0])': ('ok', [-0.2357022603955158, -0.2357022603955158, 0.4714045207910316], 'float64'),
    'dnanstd([-inf, -inf])': ('ok', [nan, nan], 'float64'),
    'dnanstd([nan, 1.0])': ('ok', [0.0, nan], 'float64'),
    'dnanmax([0.0, 0.0, 0.0])': ('ok', [0.3333333333333333, 0.3333333333333333, 0.3333333333333333], 'float64'),
    'dnanmax([1.0, 1.0, 1.0])': ('ok', [0.3333333333333333, 0.3333333333333333, 0.3333333333333333], 'float64'),
    'dnanmax([1.0, 1.0, 2.0])': ('ok', [0.0, 0.0, 1.0], 'float64'),
    'dnanmax([-inf, -inf])': ('ok', [0.5, 0.5], 'float64'),
    'dnanmax([nan, 1.0])': ('ok', [0.0, 1.0], 'float64'),
}
