"""torch.distributions round 9 (docs/torch-distributions.md): HalfCauchy, InverseGamma,
Kumaraswamy, Weibull, LogisticNormal, the relaxed (Concrete) family, ContinuousBernoulli,
GeneralizedPareto, VonMises, MixtureSameFamily, LowRankMultivariateNormal and
OneHotCategoricalStraightThrough; the transforms, ``biject_to``/``transform_to``, the new
constraints, and PyTorch's per-distribution module names.

Witnesses: log-densities stored from PyTorch 2.13; live PyTorch (when installed) for
log_prob, moments, entropy, cdf, seeded samples (the same random streams) and
reparameterised gradients; round trips and finite-difference log-Jacobians for the
transforms."""

from __future__ import annotations

import math

import numpy as np
import pytest

import fgrad.torch as ft
from dist_round9_cases import cases

D = ft.distributions

# PyTorch 2.13's log_prob at each case's value
STORED_LOG_PROB = {
    "HalfCauchy": [-0.0659202337, -1.6885066032],
    "InverseGamma": [-0.6416897774, -2.7124390602],
    "Kumaraswamy": [0.3171201348, 0.7293308973],
    "Weibull": [-1.1058292389, -2.8510909081],
    "LogisticNormal": [0.7324104309],
    "RelaxedBernoulli": [0.0858256817, 1.2994277477],
    "RelaxedOneHotCategorical": [-0.4566245079],
    "ContinuousBernoulli": [0.1984280348, 0.0, 0.4756867886],
    "GeneralizedPareto": [-0.6056351066, -1.4431471825],
    "VonMises": [-0.7017374039, -2.1572494507],
    "MixtureSameFamily": [-2.2058949471],
    "LowRankMultivariateNormal": [-3.74781394],
    "OneHotCategoricalStraightThrough": [-1.2039728165],
}


@pytest.mark.parametrize("name", sorted(STORED_LOG_PROB))
def test_log_prob_matches_stored_pytorch(name):
    make, value = cases(ft)[name]
    got = make().log_prob(value).reshape(-1).numpy()
    np.testing.assert_allclose(got, STORED_LOG_PROB[name], rtol=2e-6, atol=2e-6)


def _np(x):
    return x.detach().numpy()


@pytest.mark.parametrize("name", sorted(STORED_LOG_PROB))
def test_matches_live_pytorch(name):
    torch = pytest.importorskip("torch")
    (mk_t, v_t), (mk_f, v_f) = cases(torch)[name], cases(ft)[name]
    dt, df = mk_t(), mk_f()
    assert tuple(df.batch_shape) == tuple(dt.batch_shape) and tuple(df.event_shape) == tuple(dt.event_shape)
    for attr in ("mean", "variance", "entropy", "cdf"):
        try:
            want = (
                getattr(dt, attr)(v_t)
                if attr == "cdf"
                else (dt.entropy() if attr == "entropy" else getattr(dt, attr))
            )
        except NotImplementedError:
            continue
        got = (
            getattr(df, attr)(v_f)
            if attr == "cdf"
            else (df.entropy() if attr == "entropy" else getattr(df, attr))
        )
        np.testing.assert_allclose(_np(got), _np(want), rtol=1e-5, atol=1e-6, err_msg=f"{name}.{attr}")
    torch.manual_seed(7)
    ft.manual_seed(7)
    np.testing.assert_allclose(
        _np(df.sample((5,))), _np(dt.sample((5,))), rtol=1e-5, atol=1e-6, err_msg=f"{name} seeded samples"
    )


@pytest.mark.parametrize(
    "name",
    [
        "HalfCauchy",
        "InverseGamma",
        "Kumaraswamy",
        "Weibull",
        "LogisticNormal",
        "RelaxedBernoulli",
        "RelaxedOneHotCategorical",
        "ContinuousBernoulli",
        "GeneralizedPareto",
        "LowRankMultivariateNormal",
        "OneHotCategoricalStraightThrough",
    ],
)
def test_rsample_and_log_prob_gradients_match_pytorch(name):
    """Gradients of a weighted seeded ``rsample`` and of ``log_prob`` with respect to every
    parameter, as PyTorch's."""
    torch = pytest.importorskip("torch")
    results = []
    for lib in (torch, ft):
        leaves: list = []
        make, value = cases(lib, leaves)[name]
        d = make()
        lib.manual_seed(5)
        y = d.rsample((3,))
        w = lib.linspace(0.5, 1.5, y.numel()).reshape(y.shape)
        loss = (y * w).sum() + d.log_prob(value.detach()).sum()
        params = [x for x in leaves if x is not value]
        grads = lib.autograd.grad(loss, params, allow_unused=True)
        results.append([None if g is None else _np(g) for g in grads])
    assert any(g is not None for g in results[1])
    for g_t, g_f in zip(*results):
        assert (g_t is None) == (g_f is None)
        if g_t is not None:
            np.testing.assert_allclose(g_f, g_t, rtol=2e-5, atol=2e-5, err_msg=name)


def _transforms(lib):
    T = lib.distributions.transforms
    return {
        "Power": (T.PowerTransform(lib.tensor(2.5)), lib.tensor([0.3, 1.7])),
        "Softplus": (T.SoftplusTransform(), lib.tensor([-1.0, 0.5, 3.0])),
        "StickBreaking": (T.StickBreakingTransform(), lib.tensor([0.2, -0.4, 1.1])),
        "LowerCholesky": (T.LowerCholeskyTransform(), lib.tensor([[0.1, 0.0], [0.7, -0.3]])),
        "CorrCholesky": (T.CorrCholeskyTransform(), lib.tensor([0.3, -0.8, 0.5])),
        "Compose": (
            T.ComposeTransform([T.AffineTransform(0.5, 2.0), T.ExpTransform()]),
            lib.tensor([0.1, -0.2]),
        ),
        "Independent": (T.IndependentTransform(T.SigmoidTransform(), 1), lib.tensor([0.3, -1.2])),
        "Reshape": (T.ReshapeTransform((4,), (2, 2)), lib.tensor([1.0, 2.0, 3.0, 4.0])),
        "Cat": (
            T.CatTransform([T.ExpTransform(), T.AffineTransform(1.0, 3.0)], dim=0, lengths=[2, 1]),
            lib.tensor([0.5, -0.5, 2.0]),
        ),
        "Stack": (T.StackTransform([T.ExpTransform(), T.TanhTransform()], dim=0), lib.tensor([0.4, -0.7])),
        "CDF": (
            T.CumulativeDistributionTransform(lib.distributions.Normal(0.0, 1.0)),
            lib.tensor([0.3, -1.0]),
        ),
    }


@pytest.mark.parametrize("name", sorted(_transforms(ft)))
def test_transforms_round_trip_and_log_jacobian(name):
    t, x = _transforms(ft)[name]
    y = t(x)
    np.testing.assert_allclose(_np(t.inv(y)), _np(x), rtol=1e-5, atol=1e-6)
    assert tuple(t.forward_shape(x.shape)) == tuple(y.shape)
    assert tuple(t.inverse_shape(y.shape)) == tuple(x.shape)
    if name in ("LowerCholesky", "Reshape", "Cat", "Stack"):
        return
    # log |det dy/dx| against a finite-difference Jacobian in float64 (square where bijective)
    x64 = x.double()
    t64 = _transforms(ft)[name][0]
    flat = x64.reshape(-1)
    eps = 1e-6
    cols = []
    for i in range(flat.numel()):
        e = ft.zeros_like(flat)
        e[i] = eps
        cols.append(
            ((t64(x64 + e.reshape(x64.shape)) - t64(x64 - e.reshape(x64.shape))) / (2 * eps)).reshape(-1)
        )
    jac = ft.stack(cols, dim=1).numpy()
    if name == "StickBreaking":
        jac = jac[:-1]  # the last coordinate is 1 - sum of the others
    if name == "CorrCholesky":
        mask = np.tril(np.ones((3, 3)), -1).reshape(-1).astype(bool)
        jac = jac[mask]
    ladj = _np(t64.log_abs_det_jacobian(x64, t64(x64)))
    if ladj.ndim:  # elementwise transforms: a diagonal Jacobian
        np.testing.assert_allclose(ladj, np.log(np.abs(np.diag(jac))), rtol=1e-5, atol=1e-6)
    else:
        np.testing.assert_allclose(ladj, np.log(abs(np.linalg.det(jac))), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", sorted(_transforms(ft)))
def test_transforms_match_live_pytorch(name):
    torch = pytest.importorskip("torch")
    (tt, xt), (tf, xf) = _transforms(torch)[name], _transforms(ft)[name]
    np.testing.assert_allclose(_np(tf(xf)), _np(tt(xt)), rtol=1e-6, atol=1e-7)
    if name not in ("LowerCholesky",):
        np.testing.assert_allclose(
            _np(tf.log_abs_det_jacobian(xf, tf(xf))),
            _np(tt.log_abs_det_jacobian(xt, tt(xt))),
            rtol=1e-5,
            atol=1e-6,
        )


def test_biject_to_and_transform_to_as_pytorch():
    C = D.constraints
    cases_ = [
        C.real,
        C.positive,
        C.greater_than(2.0),
        C.less_than(3.0),
        C.unit_interval,
        C.interval(-1.0, 2.0),
        C.simplex,
        C.corr_cholesky,
        C.independent(C.positive, 1),
    ]
    expected_biject = [
        "ComposeTransform(\n    \n)",
        "ComposeTransform(\n    ExpTransform(),\n    AffineTransform()\n)",
        "ComposeTransform(\n    ExpTransform(),\n    AffineTransform()\n)",
        "ComposeTransform(\n    ExpTransform(),\n    AffineTransform()\n)",
        "SigmoidTransform()",
        "ComposeTransform(\n    SigmoidTransform(),\n    AffineTransform()\n)",
        "StickBreakingTransform()",
        "CorrCholeskyTransform()",
        "IndependentTransform(ComposeTransform(\n    ExpTransform(),\n    AffineTransform()\n), 1)",
    ]
    for c, want in zip(cases_, expected_biject):
        assert repr(D.biject_to(c)) == want
    assert repr(D.transform_to(C.simplex)) == "SoftmaxTransform()"
    assert repr(D.transform_to(C.positive_definite)) == "PositiveDefiniteTransform()"
    with pytest.raises(NotImplementedError, match="Cannot transform _LowerCholesky constraints"):
        D.biject_to(C.lower_cholesky)
    # the transforms land in their constraints
    x = ft.tensor([-3.0, 0.0, 2.5])
    assert bool(C.interval(-1.0, 2.0).check(D.biject_to(C.interval(-1.0, 2.0))(x)).all())
    assert bool(C.greater_than(2.0).check(D.biject_to(C.greater_than(2.0))(x)).all())
    assert bool(C.simplex.check(D.biject_to(C.simplex)(x)))
    assert bool(C.corr_cholesky.check(D.biject_to(C.corr_cholesky)(x)))
    pd = D.transform_to(C.positive_definite)(ft.tensor([[0.3, 0.0], [1.2, -0.4]]))
    assert bool(C.positive_definite.check(pd))


def test_new_constraints():
    C = D.constraints
    assert C.lower_triangular.check(ft.tensor([[1.0, 0.0], [2.0, -1.0]])).item()
    assert not C.lower_triangular.check(ft.tensor([[1.0, 1.0], [2.0, -1.0]])).item()
    assert C.square.check(ft.zeros(3, 2, 2)).tolist() == [True] * 3
    assert not C.square.check(ft.zeros(2, 3)).item()
    assert C.symmetric.check(ft.tensor([[1.0, 2.0], [2.0, 1.0]])).item()
    assert C.positive_semidefinite.check(ft.tensor([[1.0, 1.0], [1.0, 1.0]])).item()
    assert not C.positive_definite.check(ft.tensor([[1.0, 1.0], [1.0, 1.0]])).item()
    assert C.multinomial(3).check(ft.tensor([[1.0, 2.0], [2.0, 2.0]])).tolist() == [True, False]
    cat = C.cat([C.positive, C.real], dim=0, lengths=[1, 1])
    assert cat.check(ft.tensor([1.0, -1.0])).tolist() == [True, True]
    assert cat.check(ft.tensor([-1.0, -1.0])).tolist() == [False, True]
    stack = C.stack([C.positive, C.unit_interval], dim=0)
    assert stack.check(ft.tensor([2.0, 2.0])).tolist() == [True, False]


def test_pytorch_module_names_import():
    from fgrad.torch.distributions.half_cauchy import HalfCauchy
    from fgrad.torch.distributions.normal import Normal
    from fgrad.torch.distributions.relaxed_categorical import ExpRelaxedCategorical, RelaxedOneHotCategorical
    from fgrad.torch.distributions.utils import broadcast_all, vec_to_tril_matrix, tril_matrix_to_vec

    assert Normal is D.Normal and HalfCauchy is D.HalfCauchy
    assert RelaxedOneHotCategorical is D.RelaxedOneHotCategorical and ExpRelaxedCategorical
    m = vec_to_tril_matrix(ft.tensor([1.0, 2.0, 3.0]), diag=0)
    assert m.tolist() == [[1.0, 0.0], [2.0, 3.0]] and tril_matrix_to_vec(m).tolist() == [1.0, 2.0, 3.0]
    assert [tuple(v.shape) for v in broadcast_all(ft.zeros(2), 1.0)] == [(2,), (2,)]
    for bad in (4, 5):  # PyTorch raises a shape RuntimeError for 4 (a one-sided check)
        with pytest.raises(ValueError, match="cannot be expressed as the lower triangular part"):
            vec_to_tril_matrix(ft.zeros(bad))


def test_mixture_rejects_bad_inputs_as_pytorch():
    with pytest.raises(ValueError, match="needs to be an  instance of torch.distributions.Categorical"):
        D.MixtureSameFamily(D.Normal(0.0, 1.0), D.Normal(ft.zeros(2), ft.ones(2)))
    with pytest.raises(ValueError, match=r"`mixture_distribution component` \(3\) does not equal"):
        D.MixtureSameFamily(D.Categorical(ft.ones(3)), D.Normal(ft.zeros(2), ft.ones(2)))
    with pytest.raises(ValueError, match="cov_factor must be a batch of matrices with shape 3 x m"):
        D.LowRankMultivariateNormal(ft.zeros(3), ft.zeros(2, 1), ft.ones(3))


def test_von_mises_density_integrates_to_one_and_log_i0_is_exact():
    d = D.VonMises(ft.tensor(0.3, dtype=ft.float64), ft.tensor(4.0, dtype=ft.float64))
    x = ft.linspace(-math.pi, math.pi, 20001, dtype=ft.float64)
    p = d.log_prob(x).exp().numpy()
    assert abs(np.trapezoid(p, x.numpy()) - 1.0) < 1e-9


def _kl_cases(lib):
    D = lib.distributions

    def t(v):
        return lib.tensor(v, dtype=lib.float64)

    return {
        "Bernoulli": D.Bernoulli(t([0.3, 0.6])),
        "Beta": D.Beta(t([2.0, 0.7]), t([3.0, 1.5])),
        "Binomial": D.Binomial(t([5.0, 5.0]), t([0.3, 0.6])),
        "Cauchy": D.Cauchy(t([0.2, -1.0]), t([1.0, 2.0])),
        "ContinuousBernoulli": D.ContinuousBernoulli(t([0.3, 0.7])),
        "Exponential": D.Exponential(t([1.5, 0.4])),
        "Gamma": D.Gamma(t([2.0, 0.8]), t([1.5, 2.0])),
        "Geometric": D.Geometric(t([0.3, 0.6])),
        "Gumbel": D.Gumbel(t([0.5, -0.5]), t([1.0, 2.0])),
        "HalfNormal": D.HalfNormal(t([1.0, 2.5])),
        "Laplace": D.Laplace(t([0.1, 1.0]), t([1.0, 0.5])),
        "Normal": D.Normal(t([0.3, -0.2]), t([1.2, 0.7])),
        "Pareto": D.Pareto(t([1.0, 2.0]), t([3.0, 2.5])),
        "Poisson": D.Poisson(t([1.5, 3.0])),
        "Uniform": D.Uniform(t([0.1, 0.3]), t([0.6, 0.9])),
        "LowRankMultivariateNormal": D.LowRankMultivariateNormal(
            t([0.1, 0.2]), t([[1.0], [0.5]]), t([1.0, 2.0])
        ),
        "MultivariateNormal": D.MultivariateNormal(t([0.0, 0.3]), t([[2.0, 0.3], [0.3, 1.0]])),
        "TransformedDistribution": D.TransformedDistribution(
            D.Normal(t([0.0, 1.0]), t([1.0, 2.0])), [D.transforms.ExpTransform()]
        ),
    }


def test_every_pytorch_kl_pair_matches_live_pytorch():
    torch = pytest.importorskip("torch")
    import torch.distributions.kl as torch_kl

    ours, theirs = _kl_cases(ft), _kl_cases(torch)
    compared = 0
    for p_type, q_type in torch_kl._KL_REGISTRY:
        p, q = p_type.__name__, q_type.__name__
        if p not in ours or q not in ours:
            continue
        want = torch.distributions.kl_divergence(theirs[p], theirs[q]).numpy()
        got = ft.distributions.kl_divergence(ours[p], ours[q]).numpy()
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12, err_msg=f"KL({p} || {q})")
        compared += 1
    assert compared >= 80


@pytest.mark.parametrize(
    "p,q,lo,hi",
    [
        ("Normal", "Laplace", -12.0, 12.0),
        ("Gamma", "Normal", 1e-12, 60.0),
        ("Uniform", "Gumbel", 0.1, 0.6),
        ("Laplace", "Normal", -30.0, 30.0),
        ("Exponential", "Gumbel", 0.0, 80.0),
        ("Pareto", "Exponential", 1.0, 2e3),
        ("Beta", "Normal", 0.0, 1.0),
        ("Cauchy", "Cauchy", -3e4, 3e4),
    ],
)
def test_kl_closed_forms_against_quadrature(p, q, lo, hi):
    """``KL(p || q) = integral of p (log p - log q)`` on a fine grid (batch element 0)."""
    dp, dq = _kl_cases(ft)[p], _kl_cases(ft)[q]
    for d in (dp, dq, getattr(dp, "base_dist", None), getattr(dq, "base_dist", None)):
        if d is not None:
            d._validate_args = False  # the grid lies in batch element 0's support only
    x = np.linspace(lo, hi, 400001)
    xs = ft.tensor(x, dtype=ft.float64)[:, None].expand(-1, 2)
    lp, lq = dp.log_prob(xs)[:, 0].numpy(), dq.log_prob(xs)[:, 0].numpy()
    inside = np.isfinite(lp)
    integrand = np.zeros_like(lp)
    integrand[inside] = np.exp(lp[inside]) * (lp[inside] - lq[inside])
    quad = np.trapezoid(integrand, x)
    closed = ft.distributions.kl_divergence(dp, dq)[0].item()
    assert abs(quad - closed) < 2e-3 * max(1.0, abs(closed)), (quad, closed)


def test_kl_infinite_and_unsupported_pairs():
    c = _kl_cases(ft)
    assert ft.distributions.kl_divergence(c["Normal"], c["Exponential"]).isinf().all()
    assert ft.distributions.kl_divergence(c["Poisson"], c["Binomial"]).isinf().all()
    with pytest.raises(NotImplementedError, match="No KL"):
        ft.distributions.kl_divergence(c["Cauchy"], c["Normal"])
    # gradients flow through a cross-family closed form
    loc = ft.tensor(0.3, dtype=ft.float64, requires_grad=True)
    kl = ft.distributions.kl_divergence(ft.distributions.Normal(loc, 1.0), ft.distributions.Laplace(0.0, 1.0))
    (g,) = ft.autograd.grad(kl, loc)
    eps = 1e-6
    kl_at = [
        ft.distributions.kl_divergence(
            ft.distributions.Normal(ft.tensor(0.3 + s, dtype=ft.float64), 1.0),
            ft.distributions.Laplace(0.0, 1.0),
        ).item()
        for s in (eps, -eps)
    ]
    assert abs(g.item() - (kl_at[0] - kl_at[1]) / (2 * eps)) < 1e-6


def _wishart_lkj(lib):
    D = lib.distributions
    return (
        D.Wishart(lib.tensor([4.0, 5.0]), covariance_matrix=lib.tensor([[2.0, 0.3], [0.3, 1.0]])),
        D.LKJCholesky(3, lib.tensor([0.5, 2.0])),
    )


def test_wishart_and_lkj_cholesky_stored_and_invariants():
    wishart, lkj = _wishart_lkj(ft)
    # PyTorch 2.13: log_prob at the identity, entropy
    np.testing.assert_allclose(wishart.log_prob(ft.eye(2)).numpy(), [-5.3037181, -6.7258816], rtol=1e-5)
    np.testing.assert_allclose(wishart.entropy().numpy(), [7.2720413, 7.7812028], rtol=1e-5)
    np.testing.assert_allclose(lkj.log_prob(ft.eye(3)).numpy(), [-2.5310242, -0.6154833], rtol=1e-5)
    ft.manual_seed(0)
    samples = wishart.rsample((2000,))
    assert bool(D.constraints.positive_definite.check(samples).all())
    np.testing.assert_allclose(samples.mean(0).numpy(), wishart.mean.numpy(), rtol=0.08, atol=0.08)
    x = lkj.sample((50,))
    assert bool(D.constraints.corr_cholesky.check(x).all())
    with pytest.raises(ValueError, match="Expected dim to be an integer greater than or equal to 2"):
        D.LKJCholesky(1)


def test_wishart_and_lkj_cholesky_seeded_samples_match_live_pytorch():
    torch = pytest.importorskip("torch")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch warns "Singular sample detected." on good samples
        for i in range(2):
            a, b = _wishart_lkj(torch)[i], _wishart_lkj(ft)[i]
            torch.manual_seed(3)
            ft.manual_seed(3)
            sa, sb = a.sample((3,)), b.sample((3,))
            np.testing.assert_allclose(_np(sb), _np(sa), rtol=1e-5, atol=1e-5)
            np.testing.assert_allclose(_np(b.log_prob(sb)), _np(a.log_prob(sa)), rtol=1e-5, atol=1e-5)
