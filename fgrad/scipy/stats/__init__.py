"""`fgrad.scipy.stats`: probability distributions as modules of functions (logpdf, pdf,
cdf, ...), as ``jax.scipy.stats``; differentiable in every continuous argument.

Example::

    >>> import fgrad
    >>> from fgrad.scipy import stats
    >>> fgrad.grad(stats.norm.logpdf, argnums=1)(1.0, 0.0)  # d/d loc
    Array(1., dtype=float64, weak_type=True)
"""

from __future__ import annotations

import fgrad.scipy.stats.bernoulli as bernoulli
import fgrad.scipy.stats.beta as beta
import fgrad.scipy.stats.betabinom as betabinom
import fgrad.scipy.stats.binom as binom
import fgrad.scipy.stats.cauchy as cauchy
import fgrad.scipy.stats.chi2 as chi2
import fgrad.scipy.stats.dirichlet as dirichlet
import fgrad.scipy.stats.expon as expon
import fgrad.scipy.stats.gamma as gamma
import fgrad.scipy.stats.gennorm as gennorm
import fgrad.scipy.stats.geom as geom
import fgrad.scipy.stats.gumbel_l as gumbel_l
import fgrad.scipy.stats.gumbel_r as gumbel_r
import fgrad.scipy.stats.laplace as laplace
import fgrad.scipy.stats.logistic as logistic
import fgrad.scipy.stats.multinomial as multinomial
import fgrad.scipy.stats.multivariate_normal as multivariate_normal
import fgrad.scipy.stats.nbinom as nbinom
import fgrad.scipy.stats.norm as norm
import fgrad.scipy.stats.pareto as pareto
import fgrad.scipy.stats.poisson as poisson
import fgrad.scipy.stats.t as t
import fgrad.scipy.stats.truncnorm as truncnorm
import fgrad.scipy.stats.uniform as uniform
import fgrad.scipy.stats.vonmises as vonmises
import fgrad.scipy.stats.wrapcauchy as wrapcauchy
from fgrad.scipy.stats._descriptive import ModeResult, mode, rankdata, sem
from fgrad.scipy.stats._kde import gaussian_kde

__all__ = ["bernoulli", "beta", "betabinom", "binom", "cauchy", "chi2", "dirichlet", "expon", "gamma",
           "gennorm", "geom", "gumbel_l", "gumbel_r", "laplace", "logistic", "multinomial",
           "multivariate_normal", "nbinom", "norm", "pareto", "poisson", "t", "truncnorm", "uniform",
           "vonmises", "wrapcauchy", "ModeResult", "gaussian_kde", "mode", "rankdata", "sem"]
