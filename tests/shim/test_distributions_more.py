"""``Geometric``, ``Multinomial``, ``Gumbel``, ``Pareto``, ``HalfNormal``, ``NegativeBinomial``
and ``FisherSnedecor`` against PyTorch 2.13: seeded samples (PyTorch's streams), log-densities,
moments and entropies, stored (``tests/stored/torch_distributions_more.json``; regenerate with
``PYTHONPATH=. python tests/shim/test_distributions_more.py``) and live when torch is
installed; rsample gradients where the distribution has them."""

from __future__ import annotations

import json
import pathlib
import warnings

import numpy as np
import pytest

import fgrad.torch as ftorch

STORED_PATH = pathlib.Path(__file__).parents[1] / "stored" / "torch_distributions_more.json"


def _dists(t):
    D, T = t.distributions, t.tensor
    return {
        "Geometric": (lambda: D.Geometric(T([0.3, 0.8])), T([0.0, 3.0])),
        "Geometric logits": (lambda: D.Geometric(logits=T([-1.0, 2.0])), T([1.0, 0.0])),
        "Multinomial": (lambda: D.Multinomial(6, T([0.2, 0.3, 0.5])), T([1.0, 2.0, 3.0])),
        "Gumbel": (lambda: D.Gumbel(T([0.0, 1.0]), T([1.0, 2.0])), T([0.5, -1.0])),
        "Pareto": (lambda: D.Pareto(T([1.0, 2.0]), T([3.0, 0.5])), T([1.5, 4.0])),
        "HalfNormal": (lambda: D.HalfNormal(T([1.0, 2.5])), T([0.5, 3.0])),
        "NegativeBinomial": (lambda: D.NegativeBinomial(T([3.0, 7.5]), T([0.4, 0.2])), T([2.0, 0.0])),
        "FisherSnedecor": (lambda: D.FisherSnedecor(T([3.0, 8.0]), T([5.0, 12.0])), T([0.7, 2.0])),
    }


def _facts(t, name):
    make, value = _dists(t)[name]
    t.manual_seed(0)
    d = make()
    out = {"sample": d.sample((4,)).tolist(), "log_prob": d.log_prob(value).tolist(),
           "mean": d.mean.tolist(), "batch": list(d.batch_shape), "event": list(d.event_shape)}
    for prop in ("variance", "entropy"):
        try:
            out[prop] = (d.entropy() if prop == "entropy" else d.variance).tolist()
        except NotImplementedError:
            pass
    return out


NAMES = sorted(_dists(ftorch))


def _check(got, want, name):
    assert sorted(got) == sorted(want), name
    # the draws are PyTorch's; float32 exp/log (Gumbel, Pareto) may differ from PyTorch's
    # vectorised ones in the last bit
    np.testing.assert_allclose(np.asarray(got["sample"]), np.asarray(want["sample"]), rtol=3e-7, atol=0,
                               err_msg=name)
    assert got["batch"] == want["batch"] and got["event"] == want["event"]
    for k in ("log_prob", "mean", "variance", "entropy"):
        if k in want:
            np.testing.assert_allclose(got[k], want[k], rtol=2e-6, err_msg=f"{name} {k}")


@pytest.mark.parametrize("name", NAMES)
def test_stored_pytorch_numbers(name):
    _check(_facts(ftorch, name), json.loads(STORED_PATH.read_text())[name], name)


@pytest.mark.parametrize("name", NAMES)
def test_live_pytorch(name):
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = _facts(torch, name)
    _check(_facts(ftorch, name), want, name)


def test_reparameterised_samples_are_differentiable():
    D = ftorch.distributions
    scale = ftorch.tensor([2.0], requires_grad=True)
    ftorch.manual_seed(0)
    x = D.HalfNormal(scale).rsample((1000,))
    x.mean().backward()  # E|X| = scale * sqrt(2 / pi)
    np.testing.assert_allclose(scale.grad.item(), (x.detach() / 2.0).mean().item(), rtol=1e-6)
    loc = ftorch.tensor([0.5], requires_grad=True)
    D.Gumbel(loc, ftorch.tensor([1.0])).rsample((5,)).sum().backward()
    assert loc.grad.item() == 5.0
    df1 = ftorch.tensor([4.0], requires_grad=True)
    D.FisherSnedecor(df1, ftorch.tensor([9.0])).rsample((3,)).sum().backward()
    assert np.isfinite(df1.grad.item())


def test_invalid_arguments_raise_as_pytorch():
    D = ftorch.distributions
    with pytest.raises(ValueError, match="Either `probs` or `logits` must be specified"):
        D.Geometric()
    with pytest.raises(NotImplementedError, match="inhomogeneous total_count"):
        D.Multinomial(ftorch.tensor(3), ftorch.tensor([0.5, 0.5]))


if __name__ == "__main__":
    import torch

    warnings.simplefilter("ignore")
    STORED_PATH.write_text(json.dumps({n: _facts(torch, n) for n in NAMES}, indent=1) + "\n")
    print(f"wrote {STORED_PATH}")
