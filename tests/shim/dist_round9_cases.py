"""The distributions of tests/shim/test_distributions_round9.py, built with ``torch`` (PyTorch
or fgrad.torch); ``leaves``, when given, collects every tensor made as a leaf that requires
grad (for gradient comparisons)."""

from __future__ import annotations


def cases(torch, leaves: list | None = None) -> dict:
    D = torch.distributions

    def t(value):
        if leaves is None:
            return torch.tensor(value)
        x = torch.tensor(value, requires_grad=True)
        leaves.append(x)
        return x

    return {
        "HalfCauchy": (lambda: D.HalfCauchy(t([0.5, 2.0])), t([0.3, 1.7])),
        "InverseGamma": (lambda: D.InverseGamma(t([3.0, 2.5]), t([4.0, 1.5])), t([0.8, 2.2])),
        "Kumaraswamy": (lambda: D.Kumaraswamy(t([1.5, 2.0]), t([2.0, 0.7])), t([0.3, 0.9])),
        "Weibull": (lambda: D.Weibull(t([2.0, 1.0]), t([1.5, 0.8])), t([0.5, 3.0])),
        "LogisticNormal": (lambda: D.LogisticNormal(t([0.1, -0.3]), t([1.0, 0.5])), t([0.2, 0.5, 0.3])),
        "RelaxedBernoulli": (lambda: D.RelaxedBernoulli(t(0.7), probs=t([0.3, 0.9])), t([0.2, 0.95])),
        "RelaxedOneHotCategorical": (
            lambda: D.RelaxedOneHotCategorical(t(0.6), logits=t([0.1, 1.0, -0.5])),
            t([0.2, 0.5, 0.3]),
        ),
        "ContinuousBernoulli": (lambda: D.ContinuousBernoulli(probs=t([0.2, 0.5, 0.8])), t([0.3, 0.5, 0.9])),
        "GeneralizedPareto": (
            lambda: D.GeneralizedPareto(t([0.0, 1.0]), t([1.0, 2.0]), t([0.3, 0.0])),
            t([0.5, 2.5]),
        ),
        "VonMises": (lambda: D.VonMises(t([0.5, -1.0]), t([2.0, 0.3])), t([0.7, 2.0])),
        "MixtureSameFamily": (
            lambda: D.MixtureSameFamily(
                D.Categorical(t([0.3, 0.7])), D.Normal(t([-1.0, 2.0]), t([0.5, 1.5]))
            ),
            t(0.4),
        ),
        "LowRankMultivariateNormal": (
            lambda: D.LowRankMultivariateNormal(
                t([0.5, -0.2, 1.0]), t([[1.0, 0.2], [0.3, -0.5], [0.0, 0.8]]), t([0.5, 1.0, 2.0])
            ),
            t([0.1, 0.2, 0.3]),
        ),
        "OneHotCategoricalStraightThrough": (
            lambda: D.OneHotCategoricalStraightThrough(probs=t([0.2, 0.3, 0.5])),
            t([0.0, 1.0, 0.0]),
        ),
    }
