"""Cases shared by ``tests/shim/test_distributions.py`` and its recorder
(``python tests/shim/dist_cases.py`` writes ``tests/stored/torch_distributions.json`` from
live torch): for each distribution, ``log_prob``, ``entropy``, the moments, ``cdf``/``icdf``
where defined, the shapes, and the gradients of ``sum(log_prob) + sum(entropy)`` with respect
to the parameters; and the KL divergences of registered pairs with their gradients."""

from __future__ import annotations

import json
import pathlib

STORED = pathlib.Path(__file__).parent.parent / "stored" / "torch_distributions.json"
QUANTITIES = ["log_prob", "entropy", "mean", "variance", "stddev", "mode", "cdf", "icdf"]


def make(torch, name: str, factor: float = 1.0):
    """(distribution, value, parameters that require grad); ``factor`` scales the parameters
    (a second distribution of the same family for KL)."""
    D = torch.distributions
    leaves = []

    def t(v):
        x = (torch.tensor(v, dtype=torch.float64) * factor).requires_grad_()
        leaves.append(x)
        return x

    def c(v, dtype=None):
        return torch.tensor(v, dtype=dtype or torch.float64)

    loc, scale, v2 = [0.3, -1.0], [1.5, 0.7], [0.1, 2.0]
    pos, unit = [0.5, 2.5], [0.3, 0.8]
    table = {
        "Normal": lambda: (D.Normal(t(loc), t(scale)), c(v2)),
        "Uniform": lambda: (D.Uniform(t([0.0, -1.0]), t([2.0, 3.0])), c(pos)),
        "Exponential": lambda: (D.Exponential(t([0.5, 2.0])), c(pos)),
        "Laplace": lambda: (D.Laplace(t(loc), t(scale)), c(v2)),
        "Cauchy": lambda: (D.Cauchy(t(loc), t(scale)), c(v2)),
        "StudentT": lambda: (D.StudentT(t([3.0, 5.5]), t(loc), t(scale)), c(v2)),
        "Gamma": lambda: (D.Gamma(t([2.0, 0.7]), t([1.5, 3.0])), c(pos)),
        "Chi2": lambda: (D.Chi2(t([2.0, 3.7])), c(pos)),
        "Beta": lambda: (D.Beta(t([2.0, 0.7]), t([1.5, 3.0])), c(unit)),
        "Dirichlet": lambda: (
            D.Dirichlet(t([[2.0, 0.7, 1.2], [1.5, 3.0, 0.4]])),
            c([[0.3, 0.5, 0.2], [0.1, 0.1, 0.8]]),
        ),
        "Bernoulli[probs]": lambda: (D.Bernoulli(probs=t(unit)), c([0.0, 1.0])),
        "Bernoulli[logits]": lambda: (D.Bernoulli(logits=t([0.3, -2.8])), c([0.0, 1.0])),
        "Categorical[probs]": lambda: (
            D.Categorical(probs=t([[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]])),
            c([2, 0], torch.long),
        ),
        "Categorical[logits]": lambda: (
            D.Categorical(logits=t([[0.2, 1.3, -0.5], [0.6, 0.3, 0.1]])),
            c([2, 0], torch.long),
        ),
        "OneHotCategorical": lambda: (
            D.OneHotCategorical(probs=t([[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]])),
            c([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]),
        ),
        "Poisson": lambda: (D.Poisson(t([2.0, 0.7])), c([1.0, 3.0])),
        "Binomial": lambda: (D.Binomial(c([5.0, 10.0]), probs=t(unit)), c([1.0, 7.0])),
        "MultivariateNormal[cov]": lambda: (
            D.MultivariateNormal(t(loc), covariance_matrix=t([[2.0, 0.3], [0.3, 1.0]])),
            c(v2),
        ),
        "MultivariateNormal[tril]": lambda: (
            D.MultivariateNormal(t([[0.3, -1.0], [0.0, 1.0]]), scale_tril=t([[1.5, 0.0], [0.3, 0.7]])),
            c(v2),
        ),
        "MultivariateNormal[prec]": lambda: (
            D.MultivariateNormal(t(loc), precision_matrix=t([[2.0, 0.3], [0.3, 1.0]])),
            c(v2),
        ),
        "LogNormal": lambda: (D.LogNormal(t(loc), t(scale)), c(v2)),
        "Independent": lambda: (D.Independent(D.Normal(t(loc), t(scale)), 1), c(v2)),
        "TransformedDistribution": lambda: (
            D.TransformedDistribution(
                D.Normal(t(loc), t(scale)),
                [D.transforms.AffineTransform(1.0, 2.0), D.transforms.SigmoidTransform()],
            ),
            c([0.1, 0.8]),
        ),
    }
    d, value = table[name]()
    return d, value, leaves


NAMES = [
    "Normal",
    "Uniform",
    "Exponential",
    "Laplace",
    "Cauchy",
    "StudentT",
    "Gamma",
    "Chi2",
    "Beta",
    "Dirichlet",
    "Bernoulli[probs]",
    "Bernoulli[logits]",
    "Categorical[probs]",
    "Categorical[logits]",
    "OneHotCategorical",
    "Poisson",
    "Binomial",
    "MultivariateNormal[cov]",
    "MultivariateNormal[tril]",
    "MultivariateNormal[prec]",
    "LogNormal",
    "Independent",
    "TransformedDistribution",
]
KL_PAIRS = [
    ("Normal", "Normal"),
    ("Laplace", "Laplace"),
    ("Bernoulli[probs]", "Bernoulli[logits]"),
    ("Categorical[probs]", "Categorical[logits]"),
    ("MultivariateNormal[cov]", "MultivariateNormal[tril]"),
    ("Exponential", "Exponential"),
    ("Gamma", "Chi2"),
    ("Beta", "Beta"),
    ("Dirichlet", "Dirichlet"),
    ("Uniform", "Uniform"),
    ("Poisson", "Poisson"),
    ("Independent", "Independent"),
    ("OneHotCategorical", "OneHotCategorical"),
]


def _number(x):
    return x.detach().tolist()


def run(torch, name: str) -> dict:
    d, value, leaves = make(torch, name)
    out = {"batch_shape": list(d.batch_shape), "event_shape": list(d.event_shape), "repr": repr(d)}
    for q in QUANTITIES:
        try:
            if q in ("log_prob", "cdf"):
                r = getattr(d, q)(value)
            elif q == "icdf":
                r = d.icdf(torch.tensor([0.3, 0.7], dtype=torch.float64))
            elif q == "entropy":
                r = d.entropy()
            else:
                r = getattr(d, q)
            out[q] = _number(r)
        except NotImplementedError:
            out[q] = "NotImplementedError"
    total = d.log_prob(value).sum()
    try:
        total = total + d.entropy().sum()
    except NotImplementedError:
        pass
    grads = torch.autograd.grad(total, leaves, allow_unused=True)
    out["grads"] = [None if g is None else _number(g) for g in grads]
    return out


def run_kl(torch, p_name: str, q_name: str) -> dict:
    p, _, p_leaves = make(torch, p_name)
    q, _, q_leaves = make(torch, q_name, 0.8 if p_name == q_name else 1.0)
    kl = torch.distributions.kl_divergence(p, q)
    grads = torch.autograd.grad(kl.sum(), p_leaves + q_leaves, allow_unused=True)
    return {"kl": _number(kl), "grads": [None if g is None else _number(g) for g in grads]}


if __name__ == "__main__":
    import torch as _torch

    stored = {
        "dists": {n: run(_torch, n) for n in NAMES},
        "kl": {f"{p}||{q}": run_kl(_torch, p, q) for p, q in KL_PAIRS},
    }
    STORED.write_text(json.dumps(stored, indent=0))
    print(f"wrote {len(NAMES)} distributions and {len(KL_PAIRS)} KL pairs to {STORED}")
