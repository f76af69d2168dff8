"""`fgrad.random`: explicit-key, counter-based pseudo-random numbers (like `jax.random`).

Keys are typed (`key`: shape ``()``, dtype ``key<fry>``, a pytree over its ``uint32[2]``
data) or legacy (`PRNGKey`: the ``uint32[2]`` data); every function takes both.  Every
sampler is a pure function of its key: the same key gives the same numbers, and `split` /
`fold_in` derive new independent keys.  Bits come from the Threefry-2x32 block cipher, so
samplers work under every transform: ``vmap`` over keys, ``grad`` through the parameters of
a distribution (including the implicit reparameterization gradients of `gamma`, `beta`,
`dirichlet` and the distributions built on them), ``jit``.

The distributions are JAX's, sample for sample in distribution but not bit for bit: fgrad
draws from the same laws with its own algorithms (docs/nn-random.md).

Example::

    >>> import fgrad.random as random
    >>> key = random.key(0)
    >>> k1, k2 = random.split(key)
    >>> random.normal(k1, (3,)).shape
    (3,)
"""

from __future__ import annotations

from ._keys import (
    KEY_DTYPE, KeyDType, PRNGKey, PRNGKeyArray, clone, fold_in, key, key_data, key_dtype, key_impl, split,
    threefry2x32, wrap_key_data,
)
from ._samplers import (
    bernoulli, bits, categorical, cauchy, choice, exponential, gumbel, laplace, logistic, normal,
    permutation, rademacher, randint, truncated_normal, uniform,
)
from ._gamma import beta, chisquare, dirichlet, f, gamma, generalized_normal, loggamma, random_gamma_p, t
from ._more import (
    ball, binomial, double_sided_maxwell, geometric, lognormal, maxwell, multinomial, multivariate_normal,
    orthogonal,
    pareto, poisson, rayleigh, triangular, wald, weibull_min,
)

__all__ = [
    "key", "PRNGKey", "PRNGKeyArray", "KeyDType", "KEY_DTYPE", "key_data", "wrap_key_data", "key_impl",
    "key_dtype",
    "clone", "split", "fold_in", "bits", "threefry2x32",
    "uniform", "normal", "bernoulli", "randint", "permutation", "choice", "categorical", "gumbel",
    "exponential", "laplace", "logistic", "cauchy", "rademacher", "truncated_normal",
    "gamma", "loggamma", "beta", "dirichlet", "chisquare", "f", "t", "generalized_normal",
    "ball", "binomial", "multinomial", "double_sided_maxwell", "geometric", "lognormal", "maxwell",
    "multivariate_normal",
    "orthogonal", "pareto", "poisson", "rayleigh", "triangular", "wald", "weibull_min", "random_gamma_p",
]

from .. import _docs as _docs_examples  # noqa: E402

_docs_examples.attach("fgrad.random")  # runnable examples for the functions without one (fgrad/_docs)
