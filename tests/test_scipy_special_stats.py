"""The ``jax.scipy.special`` integrals and hypergeometric functions (exp1, expi, expn, dawsn,
fresnel, sici, spence, owens_t, hyp1f1, hyp2f1, wofz), bernoulli, bessel_jn, sph_harm_y, and
the distributions and statistics added with them (betabinom, gennorm, gumbel_l/r,
multinomial, vonmises, wrapcauchy, poisson.entropy, gaussian_kde, mode, rankdata, sem).

Values, gradients and Hessians against stored JAX numbers (jax 0.10.2, x64; live with JAX
installed, ``-m slow``), edge values against stored SciPy numbers (live with SciPy), the
derivative identities, float32 accuracy over each domain, and the errors.  The op table
(`fgrad/testing/op_table/scipy_more.py`) adds finite differences (orders 1-2, both modes),
vmap against a loop and jit against eager on random inputs.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad.scipy import special as fsp
from fgrad.scipy import stats as fst

pytest.importorskip("scipy")  # the special functions' values come from scipy.special

# (name, args, argnums, value, gradient, Hessian); None where JAX 0.10.2 cannot differentiate
# (exp1/expn: its Hessian fails to trace; gumbel_r.logpdf/ppf, gumbel_l.ppf: its xlogy(-1, .) fails)
JAX_CASES = [('exp1', (0.7,), (0,), 0.37376884323350923, [-0.7094075768448708], None),
 ('exp1', (3.5,), (0,), 0.00697013985754839, [-0.008627823834948143], None),
 ('expi', (-1.3,), (0,), -0.13545095784912914, [-0.2096398407953943], [[-0.37090125679185143]]),
 ('expi', (2.2,), (0,), 5.7326146998143805, [4.102278863379146], [[2.2376066527522616]]),
 ('expn3', (0.8,), (0,), 0.1443238015462965, [-0.200851701280787], None),
 ('expn1', (1.7,), (0,), 0.07465464440125305, [-0.10746089650160862], None),
 ('dawsn', (0.9,), (0,), 0.5407243187262987, [0.02669622629266233], [[-1.1295018447793894]]),
 ('dawsn', (-4.5,), (0,), -0.11408861022682495, [-0.026797492041424675], [[-0.013000207919172169]]),
 ('fresnel_s', (1.3,), (0,), 0.6863332855346502, [0.4679298142605731], [[-3.609361094276333]]),
 ('fresnel_c', (1.3,), (0,), 0.6385504547270291, [-0.8837656300886936], [[-1.9110583269396488]]),
 ('si', (2.1,), (0,), 1.648698636244419, [0.41105207935660654], [[-0.436141992360221]]),
 ('ci', (2.1,), (0,), 0.40051198784439657, [-0.24040290695231312], [[-0.2965745046174098]]),
 ('spence', (0.4,), (0,), 0.7275863077163329, [-1.5271512197902624], [[1.6214146336828472]]),
 ('spence', (2.5,), (0,), -1.1473806603755703, [-0.6108604879161039], [[0.14057365861073728]]),
 ('owens_t', (0.6, 1.4), (0, 1), 0.11653629384151849, [-0.09981603249869042, 0.031559951027096744],
  [[-0.07089481755707465, -0.056050473024123804], [-0.05605047302412382, -0.04576022304599151]]),
 ('owens_t', (-1.2, 0.3), (0, 1), 0.02211138752326337, [0.027297982990212816, 0.06661305080164472],
  [[0.01097511197611755, 0.08712987044855129], [0.08712987044855128, -0.06544457233253695]]),
 ('hyp1f1', (1.1,), (0,), 1.5773986873811536, [0.7281557947951794], [[0.47423131393696744]]),
 ('hyp2f1', (0.45,), (0,), 1.1190474468916622, [0.3419562364280287], [[0.48467137804364824]]),
 ('wofz_re', (0.8, 0.6), (0, 1), 0.4102635759489133, [-0.3200734873633775, -0.18759856375030493],
  [[-0.08329129561605664, 0.4766499074225746], [0.4766499074225746, 0.08329129561605664]]),
 ('wofz_im', (0.8, 0.6), (0, 1), 0.28029019512906983, [0.18759856375030493, -0.3200734873633775],
  [[-0.4766499074225746, -0.08329129561605664], [-0.08329129561605664, 0.4766499074225746]]),
 ('bessel_j3', (4.2,), (0,), 0.43439427638720074, [0.00025307498335427257], [[-0.21282479948501634]]),
 ('sph_re', (0.9, 1.7), (0, 1), -0.376863967893775, [-0.12321344256506266, 0.19922303208456685],
  [[2.1634076385855416, 0.06513479056800774], [0.06513479056800774, 1.5074558715751]]),
 ('sph_im', (0.9, 1.7), (0, 1), 0.09961151604228342, [0.03256739528400387, 0.75372793578755],
  [[-0.5718252023438448, 0.2464268851301253], [0.24642688513012545, -0.3984460641691337]]),
 ('gumbel_r.logpdf', (0.4, 0.1, 1.3), (0, 1, 2), -1.2870561530546731, None, None),
 ('gumbel_r.logsf', (0.4, 0.1, 1.3), (0, 1, 2), -0.6016040957150777,
  [-0.5038624033858581, 0.5038624033858581, 0.11627593924289033],
  [[-0.17400453314945236, 0.17400453314945236, 0.42774135640822597],
   [0.17400453314945236, -0.17400453314945236, -0.42774135640822597],
   [0.42774135640822597, -0.42774135640822597, -0.1881525739733524]]),
 ('gumbel_r.ppf', (0.3, 0.1, 1.3), (0, 1, 2), -0.14131478652107546, None, None),
 ('gumbel_l.logcdf', (0.4, 0.1, 1.3), (0, 1, 2), -0.3337629251946319,
  [0.3838894552664295, -0.3838894552664295, -0.08858987429225297],
  [[-0.22402159385217194, 0.22402159385217194, -0.24360229008521378],
   [0.22402159385217194, -0.22402159385217194, 0.24360229008521378],
   [-0.24360229008521378, 0.24360229008521378, 0.12436197024447468]]),
 ('gumbel_l.ppf', (0.3, 0.1, 1.3), (0, 1, 2), -1.24020956310634, None, None),
 ('gennorm.logpdf', (0.7, 1.6), (0, 1), -1.149114109616258, [-1.2917510007156754, 0.25910729573361957],
  [[-1.1072151434705793, -0.346609159684232], [-0.34660915968423206, -0.27216947397321833]]),
 ('gennorm.cdf', (0.7, 1.6), (0, 1), 0.8185451584836985, [0.3169173991334324, 0.06638931124933214], None),
 ('vonmises.logpdf', (0.5, 2.5), (0, 1), -0.8347593328794416, [-1.1985638465105075, 0.11258581430156295],
  [[-2.193956404725932, -0.479425538604203], [-0.479425538604203, -0.10878127714301898]]),
 ('wrapcauchy.logpdf', (1.5, 0.35), (0, 1), -2.0389989037584577,
  [-0.6507520311697118, -1.3182556967441368],
  [[0.37733022710147057, -1.5205523747935896], [-1.5205523747935896, -4.508564933529214]]),
 ('betabinom.logpmf', (1.7, 2.4), (0, 1), -1.7664763990329813, [0.1517587667056386, 0.04612505813075285],
  [[-0.3744736347355157, 0.18176735675040984], [0.18176735675040984, -0.1642953900461751]]),
 ('multinomial.logpmf', (0.3, 0.5), (0, 1), -2.225624051857916, [1.666666666666666, -3.000000000000001],
  [[-47.222222222222236, -25.000000000000014], [-25.000000000000014, -29.000000000000014]]),
 ('poisson.entropy', (4.5,), (0,), 2.149057657291178, [0.11715649048169999], [[-0.027988169284441988]]),
 ('poisson.entropy', (55.0,), (0,), 3.421075869950436, [0.009118976441826465],
  [[-0.00016631967701711062]]),
 ('sem', (0.2, 2.5), (0, 1), 0.6498397238293967, [-0.18914920427200008, 0.10579531764366105],
  [[0.04112179902730092, -0.001265286123916946], [-0.0012652861239169394, 0.07895385413241782]]),
 ('kde.logpdf', (0.2, 2.5), (0, 1), -1.4977573181085635, [0.24207047069484533, -0.2721168379057592],
  [[0.14345900871433445, -0.07248673510323464], [-0.07248673510323461, 0.07709704072129311]])]


def _sph(n, m):
    return lambda t, p: fsp.sph_harm_y(fnp.asarray([n]), fnp.asarray([m]), fnp.reshape(t, (1,)),
                                       fnp.reshape(p, (1,)), n_max=3)[0]


FGRAD = {
    "exp1": fsp.exp1,
    "expi": fsp.expi,
    "expn3": lambda x: fsp.expn(3, x),
    "expn1": lambda x: fsp.expn(1, x),
    "dawsn": fsp.dawsn,
    "fresnel_s": lambda x: fsp.fresnel(x)[0],
    "fresnel_c": lambda x: fsp.fresnel(x)[1],
    "si": lambda x: fsp.sici(x)[0],
    "ci": lambda x: fsp.sici(x)[1],
    "spence": fsp.spence,
    "owens_t": fsp.owens_t,
    "hyp1f1": lambda x: fsp.hyp1f1(0.7, 1.9, x),
    "hyp2f1": lambda x: fsp.hyp2f1(0.6, 0.8, 2.3, x),
    "wofz_re": lambda x, y: fnp.real(fsp.wofz(x + 1j * y)),
    "wofz_im": lambda x, y: fnp.imag(fsp.wofz(x + 1j * y)),
    "bessel_j3": lambda z: fsp.bessel_jn(z, v=3)[3],
    "sph_re": lambda t, p: fnp.real(_sph(3, -2)(t, p)),
    "sph_im": lambda t, p: fnp.imag(_sph(3, -2)(t, p)),
    "gumbel_r.logpdf": fst.gumbel_r.logpdf,
    "gumbel_r.logsf": fst.gumbel_r.logsf,
    "gumbel_r.ppf": fst.gumbel_r.ppf,
    "gumbel_l.logcdf": fst.gumbel_l.logcdf,
    "gumbel_l.ppf": fst.gumbel_l.ppf,
    "gennorm.logpdf": fst.gennorm.logpdf,
    "gennorm.cdf": fst.gennorm.cdf,
    "vonmises.logpdf": fst.vonmises.logpdf,
    "wrapcauchy.logpdf": fst.wrapcauchy.logpdf,
    "betabinom.logpmf": lambda a, b: fst.betabinom.logpmf(3.0, 7.0, a, b),
    "multinomial.logpmf": lambda p0, p1: fst.multinomial.logpmf(
        fnp.asarray([2, 1, 1]), 4, fnp.stack([p0, p1, 1.0 - p0 - p1])),
    "poisson.entropy": fst.poisson.entropy,
    "sem": lambda a, b: fst.sem(fnp.stack([a, b, fnp.asarray(1.0), fnp.asarray(3.0)])),
    "kde.logpdf": lambda a, b: fst.gaussian_kde(
        fnp.stack([a, b, fnp.asarray(1.0), fnp.asarray(3.0)])).logpdf(fnp.asarray([1.5]))[0],
}


# where JAX is off (2e-10), the stored numbers are 40-digit mpmath ones and JAX's are here
JAX_VALUE_DIFFERS = {("poisson.entropy", (4.5,)): (2.1490576568237727, [0.11715648841441917])}

# gammainc's derivative in its shape parameter has no derivative of its own in fgrad yet
FIRST_ORDER_ONLY = {"gennorm.cdf"}


def _fd_grad(f, args, i, h=1e-6):
    up, down = list(args), list(args)
    up[i] += h
    down[i] -= h
    return (float(f(*up)) - float(f(*down))) / (2 * h)


@pytest.mark.parametrize("case", JAX_CASES, ids=[f"{c[0]}{c[1]}" for c in JAX_CASES])
def test_values_gradients_hessians_match_jax(case):
    name, args, argnums, value, grad, hess = case
    f = FGRAD[name]
    args = tuple(np.float64(a) for a in args)
    np.testing.assert_allclose(float(f(*args)), value, rtol=1e-11, atol=1e-14)
    got = fgrad.grad(f, argnums=argnums)(*args)
    if grad is not None:
        np.testing.assert_allclose([float(g) for g in got], grad, rtol=1e-9, atol=1e-13)
    else:  # JAX cannot differentiate it: finite differences
        fd = [_fd_grad(f, args, i) for i in argnums]
        np.testing.assert_allclose([float(g) for g in got], fd, rtol=1e-6, atol=1e-8)
    if name in FIRST_ORDER_ONLY:
        with pytest.raises(NotImplementedError, match="second derivatives in the shape"):
            fgrad.hessian(f, argnums=argnums)(*args)
        return
    h = fgrad.hessian(f, argnums=argnums)(*args)
    h = np.array([[float(h[i][j]) for j in range(len(argnums))] for i in range(len(argnums))])
    if hess is not None:
        np.testing.assert_allclose(h, hess, rtol=1e-8, atol=1e-11)
    else:  # the Hessian from finite differences of fgrad's gradient
        for i in argnums:
            fd = [_fd_grad(lambda *a: fgrad.grad(f, argnums=i)(*a), args, j, 1e-5) for j in argnums]
            np.testing.assert_allclose(h[i], fd, rtol=1e-6, atol=1e-8)


@pytest.mark.slow
def test_live_jax_agrees_with_the_stored_numbers():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    import jax.scipy.special as js
    import jax.scipy.stats as jst

    live = {
        "exp1": js.exp1, "expi": js.expi, "dawsn": js.dawsn, "spence": js.spence, "owens_t": js.owens_t,
        "hyp1f1": lambda x: js.hyp1f1(0.7, 1.9, x), "fresnel_s": lambda x: js.fresnel(x)[0],
        "si": lambda x: js.sici(x)[0], "ci": lambda x: js.sici(x)[1],
        "wofz_re": lambda x, y: js.wofz(x + 1j * y).real, "bessel_j3": lambda z: js.bessel_jn(z, v=3)[3],
        "gumbel_r.logsf": jst.gumbel_r.logsf, "gennorm.logpdf": jst.gennorm.logpdf,
        "vonmises.logpdf": jst.vonmises.logpdf, "wrapcauchy.logpdf": jst.wrapcauchy.logpdf,
        "betabinom.logpmf": lambda a, b: jst.betabinom.logpmf(3.0, 7.0, a, b),
        "poisson.entropy": jst.poisson.entropy,
        "kde.logpdf": lambda a, b: jst.gaussian_kde(jnp.array([a, b, 1.0, 3.0])).logpdf(jnp.array([1.5]))[0],
    }
    for name, args, argnums, value, grad, _ in JAX_CASES:
        if name in live:
            value, grad = JAX_VALUE_DIFFERS.get((name, args), (value, grad))
            np.testing.assert_allclose(float(live[name](*args)), value, rtol=1e-12)
            if grad is not None:
                got = jax.grad(live[name], argnums=argnums)(*args)
                np.testing.assert_allclose([float(g) for g in got], grad, rtol=1e-12)


# -- edge values (SciPy's; stored, and live against scipy) --------------------------------------

EDGES = [
    # (expression, stored SciPy value): where JAX 0.10.2 differs, the comment says how
    ("exp1(0)", lambda: fsp.exp1(0.0), math.inf),
    ("exp1(-1)", lambda: fsp.exp1(-1.0), math.nan),
    ("expi(0)", lambda: fsp.expi(0.0), -math.inf),  # JAX: nan
    ("expn(2, 0)", lambda: fsp.expn(2, 0.0), 1.0),  # JAX: 0.5
    ("expn(0, 0)", lambda: fsp.expn(0, 0.0), math.inf),
    ("ci(0)", lambda: fsp.sici(0.0)[1], -math.inf),
    ("si(0)", lambda: fsp.sici(0.0)[0], 0.0),
    ("spence(0)", lambda: fsp.spence(0.0), math.pi ** 2 / 6),
    ("spence(1)", lambda: fsp.spence(1.0), 0.0),
    ("spence(-1)", lambda: fsp.spence(-1.0), math.nan),
    ("hyp2f1(1.5, 2.5, 3.5, -1)", lambda: fsp.hyp2f1(1.5, 2.5, 3.5, -1.0), 0.4607659092189025),  # JAX: 0.549
    ("hyp2f1(1.5, 2.5, 3.5, 0.99)", lambda: fsp.hyp2f1(1.5, 2.5, 3.5, 0.99), 39.959919938974366),  # JAX 38.7
    ("J_2(0)", lambda: fsp.bessel_jn(0.0, v=2)[2], 0.0),
    ("J_0(0)", lambda: fsp.bessel_jn(0.0, v=2)[0], 1.0),  # JAX: nan
    ("gumbel_r.ppf(0)", lambda: fst.gumbel_r.ppf(0.0), -math.inf),  # JAX: nan
    ("gumbel_l.ppf(1)", lambda: fst.gumbel_l.ppf(1.0), math.inf),  # JAX: nan
    ("gumbel_r.logpdf(scale<0)", lambda: fst.gumbel_r.logpdf(1.0, 0.0, -1.0), math.nan),
    ("vonmises.logpdf(kappa=0)", lambda: fst.vonmises.logpdf(1.0, 0.0), -math.log(2 * math.pi)),  # JAX: nan
    ("wrapcauchy outside", lambda: fst.wrapcauchy.logpdf(7.0, 0.3), -math.inf),
    # as JAX: k counts as floor(k), 10 B(4, 6) / B(2, 3) = 5/21 (SciPy: -inf)
    ("betabinom k=2.5", lambda: fst.betabinom.logpmf(2.5, 5.0, 2.0, 3.0), math.log(5 / 21)),
    ("betabinom a<0", lambda: fst.betabinom.logpmf(2.0, 5.0, -1.0, 3.0), math.nan),
    ("poisson.entropy(0)", lambda: fst.poisson.entropy(0.0), 0.0),
    ("poisson.entropy(-1)", lambda: fst.poisson.entropy(-1.0), math.nan),
    ("poisson.entropy(150)", lambda: fst.poisson.entropy(150.0), 3.923698756980489),  # JAX: 3.9237006
]


@pytest.mark.parametrize("expr,fn,expected", EDGES, ids=[e[0] for e in EDGES])
def test_edge_values(expr, fn, expected):
    np.testing.assert_allclose(float(fn()), expected, rtol=1e-12)


def test_edge_values_live_scipy():
    import scipy.special as ss
    import scipy.stats as sst

    live = {"hyp2f1(1.5, 2.5, 3.5, -1)": ss.hyp2f1(1.5, 2.5, 3.5, -1.0),
            "hyp2f1(1.5, 2.5, 3.5, 0.99)": ss.hyp2f1(1.5, 2.5, 3.5, 0.99),
            "expn(2, 0)": ss.expn(2, 0.0), "expi(0)": ss.expi(0.0), "spence(0)": ss.spence(0.0),
            "gumbel_r.ppf(0)": sst.gumbel_r.ppf(0.0),
            "vonmises.logpdf(kappa=0)": sst.vonmises.logpdf(1.0, 0.0),
            "betabinom k=2.5": sst.betabinom.logpmf(2.0, 5, 2.0, 3.0),  # JAX floors k (SciPy: -inf at 2.5)
            "poisson.entropy(150)": sst.poisson.entropy(150.0)}
    stored = {e[0]: e[2] for e in EDGES}
    for k, v in live.items():
        np.testing.assert_allclose(v, stored[k], rtol=1e-12)


# -- large-mean Poisson entropy: the expansion against 40-digit mpmath sums (stored) ----------

POISSON_ENTROPY = [(200.0, 4.067679501476731), (400.0, 4.414462212179583), (1000.0, 4.8727327976428505),
                   (10000.0, 6.024100385442711)]  # SciPy 1.x is 2.5e-3 off at 1e4


def test_poisson_entropy_large_mean():
    mu, ref = (np.array(c) for c in zip(*POISSON_ENTROPY, strict=True))
    np.testing.assert_allclose(np.asarray(fst.poisson.entropy(mu)), ref, rtol=2e-12)
    # continuous across the switch to the expansion, value and slope
    d, g = 1e-6, fgrad.grad(fst.poisson.entropy)
    below, above = fst.poisson.entropy(400.0 - d), fst.poisson.entropy(400.0)
    assert abs(float(below) - float(above) + float(g(400.0)) * d) < 1e-11
    assert abs(float(g(400.0 - d)) - float(g(400.0))) < 1e-9


# -- the derivative identities ------------------------------------------------------------------

def _d(f):
    return fgrad.vmap(fgrad.grad(f))


def test_derivative_identities():
    x = np.linspace(0.3, 4.0, 9)
    np.testing.assert_allclose(np.asarray(_d(fsp.exp1)(x)), -np.exp(-x) / x, rtol=1e-13)
    np.testing.assert_allclose(np.asarray(_d(fsp.expi)(x)), np.exp(x) / x, rtol=1e-13)
    np.testing.assert_allclose(np.asarray(_d(fsp.dawsn)(x)), 1 - 2 * x * np.asarray(fsp.dawsn(x)), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(_d(lambda v: fsp.fresnel(v)[0])(x)), np.sin(np.pi * x * x / 2),
                               atol=1e-14)
    np.testing.assert_allclose(np.asarray(_d(lambda v: fsp.fresnel(v)[1])(x)), np.cos(np.pi * x * x / 2),
                               atol=1e-14)
    np.testing.assert_allclose(np.asarray(_d(lambda v: fsp.sici(v)[0])(x)), np.sin(x) / x, rtol=1e-13)
    np.testing.assert_allclose(np.asarray(_d(lambda v: fsp.sici(v)[1])(x)), np.cos(x) / x, rtol=1e-13)
    np.testing.assert_allclose(np.asarray(_d(fsp.spence)(x)), np.log(x) / (1 - x), rtol=1e-12)
    for n in (0, 1, 2, 5):  # d/dx E_n = -E_(n-1); E_0 = e^-x / x
        got = np.asarray(_d(lambda v: fsp.expn(n, v))(x))
        want = -np.exp(-x) * (1 + x) / x ** 2 if n == 0 else -np.asarray(fsp.expn(n - 1, x))
        np.testing.assert_allclose(got, want, rtol=1e-12)
    # the removable points: Si'(0) = 1, spence'(1) = -1
    assert float(fgrad.grad(lambda v: fsp.sici(v)[0])(0.0)) == 1.0
    assert float(fgrad.grad(fsp.spence)(1.0)) == -1.0


def test_wofz_is_holomorphic():
    """``w' = -2 z w + 2i/sqrt(pi)``: the JVP along 1 and along i agree with it (Cauchy-Riemann)."""
    z = fnp.asarray([0.3 + 0.2j, -1.5 + 2.0j, 2.5 - 0.5j])
    w = np.asarray(fsp.wofz(z))
    deriv = -2 * np.asarray(z) * w + 2j / np.sqrt(np.pi)
    _, t1 = fgrad.jvp(fsp.wofz, (z,), (fnp.ones_like(z),))
    _, ti = fgrad.jvp(fsp.wofz, (z,), (1j * fnp.ones_like(z),))
    np.testing.assert_allclose(np.asarray(t1), deriv, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(ti), 1j * deriv, rtol=1e-12)
    assert fsp.wofz(np.float32(1.0)).dtype == np.complex64
    assert fsp.wofz(1.0).dtype == np.complex128


def test_owens_t_partials_closed_forms():
    h, a = np.linspace(-2, 2, 7), np.linspace(-1.5, 1.5, 7)
    gh, ga = fgrad.vmap(fgrad.grad(fsp.owens_t, argnums=(0, 1)))(h, a)
    import scipy.special as ss

    phi = np.exp(-h * h / 2) / np.sqrt(2 * np.pi)
    np.testing.assert_allclose(np.asarray(gh), -phi * ss.erf(a * h / np.sqrt(2)) / 2, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(np.asarray(ga), np.exp(-h * h * (1 + a * a) / 2) / (2 * np.pi * (1 + a * a)),
                               rtol=1e-12)


# -- float32 and float64 accuracy over each domain (SciPy in float64 as the reference) ----------

DOMAINS = [
    ("exp1", fsp.exp1, "exp1", np.geomspace(1e-6, 80, 200)),
    ("expi", fsp.expi, "expi", np.concatenate([-np.geomspace(1e-6, 80, 100), np.geomspace(1e-6, 80, 100)])),
    ("dawsn", fsp.dawsn, "dawsn", np.linspace(-50, 50, 201)),
    ("spence", fsp.spence, "spence", np.geomspace(1e-6, 1e4, 200)),
    ("si", lambda x: fsp.sici(x)[0], lambda x: __import__("scipy.special").special.sici(x)[0],
     np.linspace(-100, 100, 201)),
    ("fresnel_c", lambda x: fsp.fresnel(x)[1], lambda x: __import__("scipy.special").special.fresnel(x)[1],
     np.linspace(-20, 20, 201)),
]


@pytest.mark.parametrize("name,fn,ref,x", DOMAINS, ids=[d[0] for d in DOMAINS])
def test_accuracy_over_the_domain(name, fn, ref, x):
    import scipy.special as ss

    ref = getattr(ss, ref) if isinstance(ref, str) else ref
    want = ref(x)
    got64 = np.asarray(fn(x))
    np.testing.assert_allclose(got64, want, rtol=1e-14, atol=1e-300)
    x32 = x.astype(np.float32)
    got32 = fn(x32)
    assert got32.dtype == np.float32
    np.testing.assert_allclose(np.asarray(got32), ref(x32.astype(np.float64)), rtol=2e-6, atol=1e-37)


def test_bessel_jn_against_scipy_in_both_precisions():
    import scipy.special as ss

    z = np.linspace(-20, 20, 81)
    want = np.stack([ss.jv(k, z) for k in range(9)])
    np.testing.assert_allclose(np.asarray(fsp.bessel_jn(z, v=8)), want, atol=1e-14)
    got32 = fsp.bessel_jn(z.astype(np.float32), v=8)
    assert got32.dtype == np.float32
    np.testing.assert_allclose(np.asarray(got32), want, atol=5e-7)
    tiny = np.array([1e-30, 1e-8, 1e-3])  # the rescaled recurrence does not overflow
    np.testing.assert_allclose(np.asarray(fsp.bessel_jn(tiny.astype(np.float32), v=3)),
                               np.stack([ss.jv(k, tiny) for k in range(4)]), rtol=1e-6, atol=1e-38)


def test_sph_harm_y_against_scipy_and_under_jit():
    import scipy.special as ss

    rng = np.random.default_rng(3)
    n = rng.integers(0, 7, 40)
    m = rng.integers(-7, 8, 40)
    theta, phi = rng.uniform(0, np.pi, 40), rng.uniform(0, 2 * np.pi, 40)
    want = ss.sph_harm_y(n, m, theta, phi)  # 0 for |m| > n
    np.testing.assert_allclose(np.asarray(fsp.sph_harm_y(n, m, theta, phi)), want, atol=1e-14)
    jitted = fgrad.jit(lambda n, m, t, p: fsp.sph_harm_y(n, m, t, p, n_max=6))
    np.testing.assert_allclose(np.asarray(jitted(n, m, theta, phi)), want, atol=1e-14)
    with pytest.raises(TypeError, match="n_max"):
        fgrad.jit(fsp.sph_harm_y)(n, m, theta, phi)
    assert fsp.sph_harm_y(2, 1, 0.3, 0.7).shape == (1,)  # a scalar theta: 1-d, as JAX


def test_bernoulli_numbers_are_exact():
    import scipy.special as ss

    got = np.asarray(fsp.bernoulli(30))
    np.testing.assert_allclose(got, ss.bernoulli(30), rtol=1e-10)  # SciPy's are ~1e-12 off
    exact = {1: -1 / 2, 2: 1 / 6, 4: -1 / 30, 12: -691 / 2730, 30: 8615841276005 / 14322}
    for k, v in exact.items():
        assert got[k] == v
    assert np.all(got[3::2] == 0)
    np.testing.assert_array_equal(np.asarray(fsp.bernoulli(0)), [1.0])
    with pytest.raises(ValueError, match="non-negative"):
        fsp.bernoulli(-1)


def test_wrappers_keep_their_signatures():
    """The one-primitive wrappers built by one helper take keywords and report their
    parameters like the hand-written functions they replaced."""
    import inspect

    assert list(inspect.signature(fsp.betainc).parameters) == ["a", "b", "x"]
    assert str(inspect.signature(fsp.betainc)).startswith("(a: 'ArrayLike', b: 'ArrayLike', x: 'ArrayLike')")
    assert float(fsp.betainc(x=0.5, b=2.0, a=2.0)) == 0.5
    assert float(fsp.xlogy(y=0.0, x=0.0)) == 0.0
    assert float(fsp.erf(x=0.0)) == 0.0
    with pytest.raises(TypeError):
        fsp.hyp1f1(1.0, 2.0)


# -- errors --------------------------------------------------------------------------------------

def test_nondifferentiable_parameters_raise():
    with pytest.raises(NotImplementedError, match="expn.*order n"):
        fgrad.grad(fsp.expn)(2.0, 1.0)
    with pytest.raises(NotImplementedError, match="hyp1f1.*a"):
        fgrad.grad(fsp.hyp1f1)(1.0, 2.0, 0.5)
    with pytest.raises(NotImplementedError, match="hyp2f1.*c"):
        fgrad.grad(fsp.hyp2f1, argnums=2)(1.0, 2.0, 3.0, 0.5)
    with pytest.raises(NotImplementedError, match="diff_n"):
        fsp.sph_harm_y(1, 0, 0.5, 0.5, diff_n=1)


def test_statistics_errors():
    with pytest.raises(ValueError, match="integer"):
        fst.multinomial.logpmf(fnp.asarray([1.0, 1.0]), 2, fnp.asarray([0.5, 0.5]))
    with pytest.raises(ValueError, match="unknown method"):
        fst.rankdata(fnp.asarray([1.0]), "middle")
    with pytest.raises(NotImplementedError, match="omit"):
        fst.mode(fnp.asarray([1.0]), nan_policy="omit")
    with pytest.raises(ValueError, match="illegal nan_policy"):
        fst.rankdata(fnp.asarray([1.0]), nan_policy="ignore")
    with pytest.raises(ValueError, match="bw_method"):
        fst.gaussian_kde(fnp.asarray([0.0, 1.0]), bw_method="wide")
    with pytest.raises(ValueError, match="points have dimension"):
        fst.gaussian_kde(fnp.ones((2, 5)) * fnp.arange(5.0)).evaluate(fnp.ones((3, 2)))
    with pytest.raises(NotImplementedError):
        fst.gaussian_kde(fnp.asarray([0.0, 1.0])).set_bandwidth("silverman")


# -- the descriptive statistics and the KDE ------------------------------------------------------

def test_mode_rankdata_sem_against_scipy():
    import scipy.stats as sst

    rng = np.random.default_rng(0)
    a = rng.integers(0, 4, (5, 7)).astype(np.float64)
    for axis in (0, 1, -1, None):
        res, want = fst.mode(a, axis=axis), sst.mode(a, axis=axis)
        np.testing.assert_array_equal(np.asarray(res.mode), want.mode)
        np.testing.assert_array_equal(np.asarray(res.count), want.count)
        for method in ("average", "min", "max", "dense", "ordinal"):
            np.testing.assert_array_equal(np.asarray(fst.rankdata(a, method, axis=axis)),
                                          sst.rankdata(a, method, axis=axis))
        np.testing.assert_allclose(np.asarray(fst.sem(a, axis=axis)), sst.sem(a, axis=axis), rtol=1e-13)
    b = a.copy()
    b[1, 2] = np.nan
    np.testing.assert_allclose(np.asarray(fst.sem(b, axis=1, nan_policy="omit")),
                               sst.sem(b, axis=1, nan_policy="omit"), rtol=1e-13)
    assert np.all(np.isnan(np.asarray(fst.rankdata(b))))  # 'propagate', as JAX and SciPy
    jitted = fgrad.jit(lambda v: fst.rankdata(v, axis=1))
    np.testing.assert_array_equal(np.asarray(jitted(a)), sst.rankdata(a, axis=1))


def test_gaussian_kde_against_scipy_and_as_a_pytree():
    import scipy.stats as sst

    rng = np.random.default_rng(1)
    data, w, points = rng.normal(size=(2, 40)), rng.uniform(0.2, 1, 40), rng.normal(size=(2, 6))
    for bw in (None, "silverman", 0.4, lambda kde: 0.3):
        ours, theirs = fst.gaussian_kde(data, bw, w), sst.gaussian_kde(data, bw, w)
        np.testing.assert_allclose(np.asarray(ours.covariance), theirs.covariance, rtol=1e-12)
        np.testing.assert_allclose(np.asarray(ours(points)), theirs(points), rtol=1e-12)
        np.testing.assert_allclose(np.asarray(ours.logpdf(points)), theirs.logpdf(points), rtol=1e-12)
    small = fst.gaussian_kde(data[:, :5])
    np.testing.assert_allclose(float(ours.integrate_kde(small)),
                               theirs.integrate_kde(sst.gaussian_kde(data[:, :5])), rtol=1e-12)
    np.testing.assert_allclose(float(ours.integrate_gaussian(np.zeros(2), np.eye(2))),
                               theirs.integrate_gaussian(np.zeros(2), np.eye(2)), rtol=1e-12)
    one = fst.gaussian_kde(data[0])
    np.testing.assert_allclose(float(one.integrate_box_1d(-0.5, 1.0)),
                               sst.gaussian_kde(data[0]).integrate_box_1d(-0.5, 1.0), rtol=1e-12)
    leaves, tree = fgrad.tree_util.tree_flatten(one)
    assert len(leaves) == 5
    back = fgrad.tree_util.tree_unflatten(tree, leaves)
    np.testing.assert_allclose(np.asarray(fgrad.jit(lambda k, p: k.logpdf(p))(back, data[1, :3])),
                               np.asarray(one.logpdf(data[1, :3])), rtol=1e-13)
    sample = one.resample(fgrad.random.key(0), (2000,))
    assert sample.shape == (1, 2000)
    assert abs(float(fnp.mean(sample)) - float(np.mean(data[0]))) < 0.15
