"""``torch.distributions`` on fgrad: probability distributions with PyTorch's interface
(batch and event shapes, ``sample``/``rsample`` seeded by ``torch.manual_seed``,
``log_prob``, ``entropy``, moments, ``cdf``/``icdf``, ``expand``, ``support`` and
``arg_constraints`` with ``validate_args``), ``kl_divergence`` with registered pairs, and a
few transforms.  Log-densities reuse ``fgrad.scipy.stats``; samplers draw the shim's
PyTorch CPU streams (seeded samples are PyTorch's, the gamma family's included: see
``docs/torch-sparse.md``); see ``docs/torch-nn-more.md``.

Example::

    >>> import fgrad.torch as torch
    >>> from fgrad.torch.distributions import Normal
    >>> d = Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))
    >>> d.batch_shape, d.sample((3,)).shape
    (torch.Size([2]), torch.Size([3, 2]))
"""

from __future__ import annotations

import sys as _sys
import types as _types

from . import constraints, transforms
from . import distribution as _d
from .constraint_registry import biject_to, transform_to
from .continuous import Cauchy, Exponential, Laplace, Normal, Uniform
from .continuous_bernoulli import ContinuousBernoulli
from .discrete import Bernoulli, Binomial, Categorical, OneHotCategorical, Poisson
from .distribution import Distribution, ExponentialFamily
from .gamma_family import Beta, Chi2, Dirichlet, Gamma, StudentT
from .gamma_mixtures import FisherSnedecor, NegativeBinomial
from .generalized_pareto import GeneralizedPareto
from .independent import Independent
from .kl import kl_divergence, register_kl
from . import kl_more as _kl_more  # noqa: F401 (registers the remaining KL pairs)
from .lowrank_multivariate_normal import LowRankMultivariateNormal
from .mixture_same_family import MixtureSameFamily
from .more import Geometric, Gumbel, HalfNormal, Multinomial, Pareto
from .multivariate_normal import MultivariateNormal
from .relaxed import (ExpRelaxedCategorical, LogitRelaxedBernoulli, OneHotCategoricalStraightThrough,
                      RelaxedBernoulli, RelaxedOneHotCategorical)
from .transformed_distribution import LogNormal, TransformedDistribution
from .transformed_more import HalfCauchy, InverseGamma, Kumaraswamy, LogisticNormal, Weibull
from .transforms import (AbsTransform, AffineTransform, CatTransform, ComposeTransform, CorrCholeskyTransform,
                         CumulativeDistributionTransform, ExpTransform, IndependentTransform,
                         LowerCholeskyTransform, PositiveDefiniteTransform, PowerTransform, ReshapeTransform,
                         SigmoidTransform, SoftmaxTransform, SoftplusTransform, StackTransform,
                         StickBreakingTransform, TanhTransform, Transform, identity_transform)
from .von_mises import VonMises
from .wishart import LKJCholesky, Wishart

__all__ = [  # noqa: RUF022 (grouped as PyTorch lists them)
    "AbsTransform", "AffineTransform", "Bernoulli", "Beta", "Binomial", "CatTransform", "Categorical",
    "Cauchy", "Chi2", "ComposeTransform", "ContinuousBernoulli", "CorrCholeskyTransform",
    "CumulativeDistributionTransform", "Dirichlet", "Distribution", "ExpRelaxedCategorical",
    "ExpTransform", "Exponential", "ExponentialFamily", "FisherSnedecor", "Gamma", "GeneralizedPareto",
    "Geometric", "Gumbel", "HalfCauchy", "HalfNormal", "Independent", "IndependentTransform",
    "InverseGamma", "Kumaraswamy", "LKJCholesky", "Laplace", "LogNormal", "LogitRelaxedBernoulli",
    "LogisticNormal", "LowRankMultivariateNormal", "LowerCholeskyTransform", "MixtureSameFamily",
    "Multinomial", "MultivariateNormal", "NegativeBinomial", "Normal", "OneHotCategorical",
    "OneHotCategoricalStraightThrough", "Pareto", "Poisson", "PositiveDefiniteTransform",
    "PowerTransform", "RelaxedBernoulli", "RelaxedOneHotCategorical", "ReshapeTransform",
    "SigmoidTransform", "SoftmaxTransform", "SoftplusTransform", "StackTransform",
    "StickBreakingTransform", "StudentT", "TanhTransform", "Transform", "TransformedDistribution",
    "Uniform", "VonMises", "Weibull", "Wishart", "biject_to", "constraints", "identity_transform",
    "kl_divergence", "register_kl", "transform_to", "transforms",
]

# PyTorch's one-module-per-distribution names (``from torch.distributions.normal import Normal``)
_MODULE_CLASSES = {
    "bernoulli": ["Bernoulli"], "beta": ["Beta"], "binomial": ["Binomial"], "categorical": ["Categorical"],
    "cauchy": ["Cauchy"], "chi2": ["Chi2"], "dirichlet": ["Dirichlet"], "exp_family": ["ExponentialFamily"],
    "exponential": ["Exponential"], "fishersnedecor": ["FisherSnedecor"], "gamma": ["Gamma"],
    "geometric": ["Geometric"], "gumbel": ["Gumbel"], "half_cauchy": ["HalfCauchy"],
    "half_normal": ["HalfNormal"], "inverse_gamma": ["InverseGamma"], "kumaraswamy": ["Kumaraswamy"],
    "laplace": ["Laplace"], "log_normal": ["LogNormal"], "logistic_normal": ["LogisticNormal"],
    "multinomial": ["Multinomial"], "negative_binomial": ["NegativeBinomial"], "normal": ["Normal"],
    "one_hot_categorical": ["OneHotCategorical", "OneHotCategoricalStraightThrough"], "pareto": ["Pareto"],
    "poisson": ["Poisson"], "relaxed_bernoulli": ["RelaxedBernoulli", "LogitRelaxedBernoulli"],
    "relaxed_categorical": ["RelaxedOneHotCategorical", "ExpRelaxedCategorical"], "studentT": ["StudentT"],
    "uniform": ["Uniform"], "weibull": ["Weibull"], "lkj_cholesky": ["LKJCholesky"],
}


def _alias_module(name: str, members: dict, doc: str) -> _types.ModuleType:
    module = _types.ModuleType(f"{__name__}.{name}", doc)
    module.__dict__.update(members)
    module.__all__ = [k for k in members if not k.startswith("_")]
    _sys.modules[module.__name__] = module
    return module


for _name, _classes in _MODULE_CLASSES.items():
    globals()[_name] = _alias_module(_name, {c: globals()[c] for c in _classes},
                                     f"``torch.distributions.{_name}``: {', '.join(_classes)}.")


def _utils_module() -> _types.ModuleType:
    names = ["broadcast_all", "clamp_probs", "lazy_property", "logits_to_probs", "probs_to_logits",
             "tril_matrix_to_vec", "vec_to_tril_matrix"]
    return _alias_module("utils", {n: getattr(_d, n) for n in names},
                         "``torch.distributions.utils``: parameter helpers.")


utils = _utils_module()
