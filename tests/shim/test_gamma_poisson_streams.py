"""PyTorch's CPU gamma, Poisson, binomial and Dirichlet streams, reproduced bit for bit:
``torch._standard_gamma``, ``torch.poisson``, ``torch.binomial``, ``torch._sample_dirichlet``
and the ``torch.distributions`` samplers over them (Gamma, Chi2, Beta, Dirichlet, StudentT,
Poisson, Binomial, NegativeBinomial, FisherSnedecor) after ``torch.manual_seed``.  Stored PyTorch 2.13 numbers
(``tests/stored/torch_gamma_poisson_streams.json``; regenerate with
``PYTHONPATH=. python tests/shim/test_gamma_poisson_streams.py``) and live comparisons over
many parameters (including the rejection loops' rare branches) when torch is installed."""

from __future__ import annotations

import json
import math
import pathlib

import numpy as np
import pytest

import fgrad.torch as ftorch

STORED_PATH = pathlib.Path(__file__).parents[1] / "stored" / "torch_gamma_poisson_streams.json"

_ALPHAS = [0.01, 0.3, 0.5, 0.99, 1.0, 1.5, 2.0, 4.7, 10.0, 55.5, 1000.0]
_RATES = [0.0, 0.1, 1.0, 4.5, 9.99, 10.0, 17.3, 250.0, 1e5]
_COUNTS = [0.0, 1.0, 5.0, 20.0, 100.0, 1000.0, 30.0, 7.0, 1e4]
_PROBS = [0.3, 0.0, 0.5, 0.6, 0.05, 0.99, 1.0, 0.45, 0.2]


def _cases(t):
    """name -> a function drawing with ``t`` (torch or fgrad.torch) after seeding."""
    D = t.distributions

    def seeded(seed, fn):
        def run():
            t.manual_seed(seed)
            return fn()
        return run

    return {
        "_standard_gamma float32": seeded(0, lambda: t._standard_gamma(t.tensor(_ALPHAS * 3))),
        "_standard_gamma float64": seeded(1, lambda: t._standard_gamma(t.tensor(_ALPHAS * 3,
                                                                                dtype=t.float64))),
        "poisson float32": seeded(0, lambda: t.poisson(t.tensor(_RATES * 3))),
        "poisson float64": seeded(2, lambda: t.poisson(t.tensor(_RATES * 3, dtype=t.float64))),
        "binomial float32": seeded(0, lambda: t.binomial(t.tensor(_COUNTS * 3), t.tensor(_PROBS * 3))),
        "binomial float64": seeded(3, lambda: t.binomial(t.tensor(_COUNTS * 3, dtype=t.float64),
                                                         t.tensor(_PROBS * 3, dtype=t.float64))),
        "_sample_dirichlet": seeded(0, lambda: t._sample_dirichlet(t.tensor([[0.5, 1.0, 2.0],
                                                                             [3.0, 0.1, 7.0]]))),
        "Gamma.rsample": seeded(0, lambda: D.Gamma(t.tensor([0.5, 2.0]), t.tensor([1.0, 3.0])).rsample((3,))),
        "Chi2.sample": seeded(0, lambda: D.Chi2(t.tensor([1.0, 4.0])).sample((3,))),
        "Beta.sample": seeded(0, lambda: D.Beta(t.tensor([0.5, 2.0]), t.tensor([1.5, 3.0])).sample((3,))),
        "Dirichlet.sample": seeded(0, lambda: D.Dirichlet(t.tensor([0.5, 2.0, 1.0])).sample((2,))),
        "StudentT.sample": seeded(0, lambda: D.StudentT(t.tensor([3.0, 8.0])).sample((3,))),
        "Poisson.sample": seeded(0, lambda: D.Poisson(t.tensor([0.5, 30.0])).sample((3,))),
        "Binomial.sample": seeded(0, lambda: D.Binomial(t.tensor([10.0, 200.0]),
                                                        t.tensor([0.3, 0.7])).sample((3,))),
        "gamma then randn(5)": seeded(0, lambda: (t._standard_gamma(t.tensor(_ALPHAS)), t.randn(5))[1]),
        "NegativeBinomial.sample": seeded(0, lambda: D.NegativeBinomial(t.tensor([3.0, 40.0]),
                                                                        t.tensor([0.3, 0.6])).sample((3,))),
        "FisherSnedecor.rsample": seeded(0, lambda: D.FisherSnedecor(t.tensor([3.0, 10.0]),
                                                                     t.tensor([5.0, 2.5])).rsample((3,))),
    }


def _stored():
    return json.loads(STORED_PATH.read_text())


@pytest.mark.parametrize("name", sorted(_cases(ftorch)))
def test_stored_pytorch_streams(name):
    want = np.array(_stored()[name])
    got = _cases(ftorch)[name]().detach().numpy().astype(np.float64)
    np.testing.assert_array_equal(got, want)


def test_live_many_parameters_and_seeds():
    torch = pytest.importorskip("torch")
    rs = np.random.default_rng(0)
    for seed in range(4):
        for dt in ("float32", "float64"):
            alpha = np.concatenate([rs.uniform(0, 1, 200), rs.uniform(1, 300, 200)]).astype(dt)
            rate = np.concatenate([rs.uniform(0, 10, 200), rs.uniform(10, 3e4, 200)]).astype(dt)
            count = np.floor(rs.uniform(0, 3000, 400)).astype(dt)
            prob = rs.uniform(0, 1, 400).astype(dt)
            for name, call in (
                ("_standard_gamma", lambda t, m: t._standard_gamma(m(alpha))),
                ("poisson", lambda t, m: t.poisson(m(rate))),
                ("binomial", lambda t, m: t.binomial(m(count), m(prob))),
                ("_sample_dirichlet", lambda t, m: t._sample_dirichlet(m(alpha.reshape(-1, 4)))),
            ):
                torch.manual_seed(seed)
                want = call(torch, torch.from_numpy).numpy()
                after_want = torch.randn(3).numpy()
                ftorch.manual_seed(seed)
                got = call(ftorch, ftorch.from_numpy).numpy()
                after_got = ftorch.randn(3).numpy()
                np.testing.assert_array_equal(got, want, err_msg=f"{name} {dt} seed {seed}")
                np.testing.assert_array_equal(after_got, after_want, err_msg=f"stream after {name}")


def test_live_dirichlet_of_many_categories_within_one_float64_rounding():
    """Over more than 4 categories PyTorch's vectorised float64 sum may round differently
    (the draws themselves are identical): float32 results agree, float64 ones to 1 ulp."""
    torch = pytest.importorskip("torch")
    alpha = np.random.default_rng(1).uniform(0.1, 20, (300, 9))
    for dt in (np.float32, np.float64):
        torch.manual_seed(0)
        want = torch._sample_dirichlet(torch.from_numpy(alpha.astype(dt))).numpy()
        ftorch.manual_seed(0)
        got = ftorch._sample_dirichlet(ftorch.from_numpy(alpha.astype(dt))).numpy()
        np.testing.assert_allclose(got, want, rtol=3 * np.finfo(np.float64).eps, atol=0)


def test_live_distribution_samples():
    torch = pytest.importorskip("torch")
    want = _cases(torch)
    for name, draw in _cases(ftorch).items():
        np.testing.assert_array_equal(draw().detach().numpy(), want[name]().detach().numpy(), err_msg=name)


def test_standard_gamma_gradient_approximates_the_implicit_one():
    """d x / d a at a fixed CDF value: compared with a central difference of the gamma
    quantile function (SciPy), which is what holding the CDF fixed means. The gradient is
    PyTorch's approximation (its numbers: tests/shim/test_torch_round23_fuzz_defects.py), within
    about 1e-4 of the exact one."""
    scipy_special = pytest.importorskip("scipy.special")
    a = ftorch.tensor([0.4, 1.0, 2.5, 9.0, 40.0], dtype=ftorch.float64, requires_grad=True)
    ftorch.manual_seed(0)
    x = ftorch._standard_gamma(a)
    x.sum().backward()
    assert x.grad_fn.name() == "StandardGammaBackward0"
    av, xv = a.detach().numpy(), x.detach().numpy()
    q = scipy_special.gammainc(av, xv)
    h = 1e-6 * av
    fd = (scipy_special.gammaincinv(av + h, q) - scipy_special.gammaincinv(av - h, q)) / (2 * h)
    np.testing.assert_allclose(a.grad.numpy(), fd, rtol=3e-4)


def test_gamma_rsample_mean_gradient_is_one_per_concentration():
    """E[x] = a, so the gradient of the sample mean tends to 1 (5 standard errors)."""
    a = ftorch.tensor(3.0, dtype=ftorch.float64, requires_grad=True)
    ftorch.manual_seed(0)
    ftorch.distributions.Gamma(a, 1.0).rsample((4000,)).mean().backward()
    assert abs(a.grad.item() - 1.0) < 5 * math.sqrt(1 / 3 / 4000) * 1.5


def test_dirichlet_rsample_is_differentiable_and_sums_to_one():
    conc = ftorch.tensor([0.5, 2.0, 1.0], requires_grad=True)
    ftorch.manual_seed(0)
    x = ftorch.distributions.Dirichlet(conc).rsample((2000,))
    np.testing.assert_allclose(x.sum(-1).detach().numpy(), 1.0, atol=1e-6)
    x[:, 0].mean().backward()  # E[x0] = a0 / sum(a): d/da0 = (a1 + a2) / 3.5**2
    want = np.array([3.0, -0.5, -0.5]) / 3.5**2
    np.testing.assert_allclose(conc.grad.numpy(), want, atol=0.03)


def test_negative_binomial_and_fisher_snedecor_log_probs_match_scipy():
    stats = pytest.importorskip("scipy.stats")
    D = ftorch.distributions
    k = ftorch.tensor([0.0, 2.0, 7.0], dtype=ftorch.float64)
    f64 = ftorch.float64
    nb = D.NegativeBinomial(ftorch.tensor(3.0, dtype=f64), probs=ftorch.tensor(0.3, dtype=f64))
    # PyTorch's probs is the success probability; SciPy's p is the failure one
    np.testing.assert_allclose(nb.log_prob(k).numpy(), stats.nbinom.logpmf(k.numpy(), 3.0, 0.7), rtol=1e-10)
    x = ftorch.tensor([0.3, 1.0, 4.0], dtype=ftorch.float64)
    fs = D.FisherSnedecor(ftorch.tensor(3.0, dtype=ftorch.float64), ftorch.tensor(7.0, dtype=ftorch.float64))
    np.testing.assert_allclose(fs.log_prob(x).numpy(), stats.f.logpdf(x.numpy(), 3.0, 7.0), rtol=1e-10)
    np.testing.assert_allclose(fs.mean.item(), 7.0 / 5.0)


def test_bad_inputs_raise_pytorch_errors():
    with pytest.raises(RuntimeError, match="invalid Poisson rate"):
        ftorch.poisson(ftorch.tensor([-1.0]))
    with pytest.raises(NotImplementedError, match="\"gamma_cpu\" not implemented for 'Long'"):
        ftorch._standard_gamma(ftorch.tensor([1, 2]))
    with pytest.raises(RuntimeError, match="same dtype"):
        ftorch.binomial(ftorch.tensor([1.0]), ftorch.tensor([0.5], dtype=ftorch.float64))
    # a NaN concentration gives NaN (PyTorch's rejection loop would never end)
    assert math.isnan(ftorch._standard_gamma(ftorch.tensor([math.nan])).item())


def test_streams_keep_state_consistent_with_get_rng_state():
    ftorch.manual_seed(5)
    ftorch.poisson(ftorch.full((50,), 30.0))
    state = ftorch.get_rng_state()
    a = ftorch._standard_gamma(ftorch.full((7,), 0.7))
    ftorch.set_rng_state(state)
    b = ftorch._standard_gamma(ftorch.full((7,), 0.7))
    np.testing.assert_array_equal(a.numpy(), b.numpy())


if __name__ == "__main__":
    import torch

    out = {name: draw().detach().numpy().astype(np.float64).tolist() for name, draw in _cases(torch).items()}
    STORED_PATH.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {STORED_PATH}")
