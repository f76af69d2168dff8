"""Round 24's defects of ``fgrad.torch`` (docs/torch-programs-round24.md), each against
PyTorch 2.13's numbers or messages stored here (printed by the same code with ``import
torch``) and, when PyTorch is installed, live."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.torch as torch
import fgrad.torch.nn.functional as F

# ---- binary_cross_entropy_with_logits with a narrower float target ------------------------------
# float64 logits with a float32 label (``y = (...).float()`` under set_default_dtype(float64)):
# PyTorch's loss is float32, rounded at its in-place steps; the gradient is float64.

_X = [0.3, -1.2345678901234, 2.5]
_Y = [1.0, 0.0, 0.25]
_STORED = {
    "mean": 0.9212104678153992,
    "none": [0.554355263710022, 0.25538650155067444, 1.9538897275924683],
    "pos_weight none": [1.108710527420044, 0.25538650155067444, 1.9479730129241943],
    "pos_weight weight mean": 0.19282925128936768,
    "sum": 2.7636313438415527,
}


def _bce_cases(lib):
    x = lib.tensor(_X, dtype=lib.float64)
    y = lib.tensor(_Y)
    pw, w = lib.tensor([2.0, 3.0, 0.7]), lib.tensor([0.3, 0.2, 0.1], dtype=lib.float64)
    f = lib.nn.functional.binary_cross_entropy_with_logits
    return {
        "mean": f(x, y),
        "none": f(x, y, reduction="none"),
        "pos_weight none": f(x, y, pos_weight=pw, reduction="none"),
        "pos_weight weight mean": f(x, y, pos_weight=pw, weight=w),
        "sum": f(x, y, reduction="sum"),
    }


def test_bce_with_logits_has_the_narrower_targets_dtype_and_pytorchs_rounding():
    got = _bce_cases(torch)
    for key, want in _STORED.items():
        assert got[key].dtype == torch.float32, key
        assert got[key].tolist() == want, key
    # a float16 target gives a float16 loss (its value is not compared: see the docs page)
    half = F.binary_cross_entropy_with_logits(torch.tensor(_Y), torch.tensor(_X).half())
    assert half.dtype == torch.float16


def test_bce_with_logits_narrow_target_gradient_is_the_inputs_dtype_and_exact():
    x = torch.tensor(_X, dtype=torch.float64, requires_grad=True)
    y = torch.tensor(_Y)
    for reduction, scale in (("mean", 3.0), ("sum", 1.0)):
        g, = torch.autograd.grad(F.binary_cross_entropy_with_logits(x, y, reduction=reduction), x)
        assert g.dtype == torch.float64
        want = (1 / (1 + np.exp(-np.array(_X))) - np.array(_Y)) / scale
        np.testing.assert_allclose(g.numpy(), want, rtol=1e-15)  # not the float32 loss's rounding


def test_bce_with_logits_narrow_target_matches_live_pytorch():
    real = pytest.importorskip("torch")
    got, want = _bce_cases(torch), _bce_cases(real)
    for key in _STORED:
        assert got[key].tolist() == want[key].tolist(), key
    x, y = real.tensor(_X, dtype=real.float64, requires_grad=True), real.tensor(_Y)
    fx = torch.tensor(_X, dtype=torch.float64, requires_grad=True)
    gw, = real.autograd.grad(real.nn.functional.binary_cross_entropy_with_logits(x, y), x)
    gf, = torch.autograd.grad(F.binary_cross_entropy_with_logits(fx, torch.tensor(_Y)), fx)
    np.testing.assert_allclose(gf.numpy(), gw.numpy(), rtol=1e-15)


# ---- binary_cross_entropy refuses a target of another dtype, as PyTorch --------------------------


@pytest.mark.parametrize("target_dtype, message", [("float64", "Found dtype Double but expected Float"),
                                                     ("int64", "Found dtype Long but expected Float"),
                                                     ("float16", "Found dtype Half but expected Float")])
def test_binary_cross_entropy_refuses_a_target_of_another_dtype(target_dtype, message):
    p = torch.tensor([0.3, 0.6])
    with pytest.raises(RuntimeError, match=message):
        F.binary_cross_entropy(p, torch.tensor([1, 0]).to(getattr(torch, target_dtype)))


# ---- a loss's mean is the sum divided by the count (it was multiplied by 1/n) --------------------

_MEAN_X = [0.550000011920929, -0.9200000166893005, -1.840000033378601]


def test_loss_means_divide_the_sum_by_the_count():
    x = torch.tensor(_MEAN_X)
    assert F.mse_loss(x, torch.zeros(3)).item() == 1.5115000009536743  # 1/3 * sum: ...1201
    s = np.float32(np.float32(np.float32(0.55) ** 2 + np.float32(0.92) ** 2) + np.float32(1.84) ** 2)
    assert F.mse_loss(x, torch.zeros(3)).item() == float(s / np.float32(3))


def test_loss_means_match_live_pytorch():
    real = pytest.importorskip("torch")
    gen = np.random.default_rng(24)
    for n in (3, 5, 7):  # (from 8 on PyTorch's vectorized sum adds in another order, as in Tensor.mean)
        a, b = gen.standard_normal(n).astype(np.float32), gen.random(n).astype(np.float32)
        for name in ("mse_loss", "huber_loss", "smooth_l1_loss"):
            got = getattr(F, name)(torch.tensor(a), torch.tensor(b)).item()
            want = getattr(real.nn.functional, name)(real.tensor(a), real.tensor(b)).item()
            assert got == want, (name, n)


# ---- distributions' argument validation under torch.func.vmap -----------------------------------
# PyTorch validates a batched value in every example (torch._is_all_true); fgrad took bool() of
# the per-example result and refused a valid value as data-dependent control flow.

_SCORES = [[6.6679816246032715, 0.8018036484718323], [3.2108006477355957, -3.013502836227417]]  # PyTorch's


def _mixture_scores(lib):
    d = lib.distributions
    means = lib.tensor([[-2.0, 0.0], [2.0, 0.0], [0.0, 2.5]])
    mix = d.MixtureSameFamily(d.Categorical(lib.tensor([0.3, 0.3, 0.4])),
                              d.Independent(d.Normal(means, 0.5 * lib.ones(3, 2)), 1))
    return lib.func.vmap(lib.func.grad(lambda x: mix.log_prob(x)))(lib.tensor([[0.3, -0.2], [1.0, 1.0]]))


def test_validated_log_prob_runs_under_vmap_of_grad():
    np.testing.assert_allclose(_mixture_scores(torch).numpy(), _SCORES, rtol=1e-6)
    g = torch.func.vmap(torch.func.grad(lambda x: torch.distributions.Exponential(2.0).log_prob(x)))
    assert g(torch.tensor([1.0, 3.0])).tolist() == [-2.0, -2.0]


def test_a_value_outside_the_support_in_one_example_is_refused_as_pytorch_does():
    f = torch.func.vmap(lambda x: torch.distributions.Exponential(1.0).log_prob(x))
    with pytest.raises(RuntimeError, match=r"vmap: It looks like you're calling \.item\(\) on a Tensor"):
        f(torch.tensor([1.0, -1.0]))
    with pytest.raises(ValueError, match="within the support"):  # unbatched: the ValueError as before
        torch.distributions.Exponential(1.0).log_prob(torch.tensor([1.0, -1.0]))


def test_validated_log_prob_under_vmap_matches_live_pytorch():
    real = pytest.importorskip("torch")
    np.testing.assert_allclose(_mixture_scores(torch).numpy(), _mixture_scores(real).numpy(), rtol=1e-6)
