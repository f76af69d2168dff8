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

from . import constraints, transforms
from .continuous import Cauchy, Exponential, Laplace, Normal, Uniform
from .discrete import Bernoulli, Binomial, Categorical, OneHotCategorical, Poisson
from .distribution import Distribution, ExponentialFamily
from .gamma_family import Beta, Chi2, Dirichlet, Gamma, StudentT
from .gamma_mixtures import FisherSnedecor, NegativeBinomial
from .more import Geometric, Gumbel, HalfNormal, Multinomial, Pareto
from .independent import Independent
from .kl import kl_divergence, register_kl
from .multivariate_normal import MultivariateNormal
from .transformed_distribution import LogNormal, TransformedDistribution
from .transforms import AffineTransform, ExpTransform, SigmoidTransform, TanhTransform, Transform

__all__ = [
    "AffineTransform",
    "Bernoulli",
    "Beta",
    "Binomial",
    "Categorical",
    "Cauchy",
    "Chi2",
    "Dirichlet",
    "Distribution",
    "ExpTransform",
    "Exponential",
    "ExponentialFamily",
    "FisherSnedecor",
    "Gamma",
    "Geometric",
    "Gumbel",
    "HalfNormal",
    "Independent",
    "Laplace",
    "LogNormal",
    "Multinomial",
    "MultivariateNormal",
    "NegativeBinomial",
    "Normal",
    "OneHotCategorical",
    "Pareto",
    "Poisson",
    "SigmoidTransform",
    "StudentT",
    "TanhTransform",
    "Transform",
    "TransformedDistribution",
    "Uniform",
    "constraints",
    "kl_divergence",
    "register_kl",
    "transforms",
]
