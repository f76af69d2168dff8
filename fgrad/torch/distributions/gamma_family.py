"""The gamma family: `Gamma`, `Chi2`, `Beta`, `Dirichlet`, and `StudentT` (a normal over a
chi-square), with reparameterised samples.

Samples are PyTorch's CPU streams (``torch._standard_gamma``, ``torch._sample_dirichlet``:
Marsaglia-Tsang per element, so a seeded program draws PyTorch's numbers), and ``rsample`` is
differentiable in the concentration by implicit reparameterisation with PyTorch's approximate
gradients (``fgrad.torch._reparam_grads``); Beta and Dirichlet samples are normalised float64
gamma draws, as in PyTorch.
Log-densities are ``fgrad.scipy.stats``'s (Dirichlet's too, with batched concentrations:
``fgrad.scipy.stats.dirichlet`` takes one concentration vector, so the batch is mapped).

Example::

    >>> import fgrad.torch as torch
    >>> from fgrad.torch.distributions import Gamma
    >>> Gamma(torch.tensor([2.0]), torch.tensor([1.0])).mean
    tensor([2.])
"""

from __future__ import annotations

import math
import numbers

import fgrad
import fgrad.numpy as fnp
import fgrad.torch as torch
from fgrad.torch._random import dirichlet_rsample
from fgrad.scipy.special import gammaln as _gammaln
from fgrad.scipy.special import xlogy as _xlogy
from fgrad.scipy.stats import beta as _beta
from fgrad.scipy.stats import gamma as _gamma
from fgrad.scipy.stats import t as _t

from . import constraints
from .distribution import Distribution, ExponentialFamily, broadcast_all, scipy_op
from fgrad.torch.types import SizeLike, Tensor
from typing import Any

__all__ = ["Beta", "Chi2", "Dirichlet", "Gamma", "StudentT"]


def standard_gamma(concentration):
    """Gamma(concentration, 1) samples of ``concentration``'s shape, differentiable in it
    (``torch._standard_gamma``: PyTorch's CPU stream).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions.gamma_family import standard_gamma
        >>> standard_gamma(torch.ones(3)).shape
        torch.Size([3])
    """
    return torch._standard_gamma(concentration)


def sample_dirichlet(concentration):
    """Dirichlet samples (concentrations on the last axis) with PyTorch's CPU stream and
    values (float64 gamma draws, normalised, rounded, kept inside (0, 1)), differentiable in
    the concentration with PyTorch's approximate implicit gradient (``torch._dirichlet_grad``'s
    numbers).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions.gamma_family import sample_dirichlet
        >>> torch.allclose(sample_dirichlet(torch.ones(2, 3)).sum(-1), torch.ones(2))
        True
    """
    return dirichlet_rsample(concentration)


def _gamma_logpdf(value, concentration, rate):
    return _gamma.logpdf(value, concentration, 0, 1 / rate)


class Gamma(ExponentialFamily):
    """The gamma distribution with shape ``concentration`` and inverse scale ``rate``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions.gamma_family import Gamma
        >>> Gamma(torch.tensor([2.0]), torch.tensor([1.0])).variance
        tensor([2.])
    """

    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, concentration: Tensor | float, rate: Tensor | float,
                 validate_args: bool | None = None) -> None:
        self.concentration, self.rate = broadcast_all(concentration, rate)
        scalar = isinstance(concentration, numbers.Number) and isinstance(rate, numbers.Number)
        super().__init__(torch.Size() if scalar else self.concentration.size(), validate_args=validate_args)

    def expand(self, batch_shape: SizeLike, _instance: Any = None) -> Any:
        new = self._get_checked_instance(type(self), _instance)
        batch_shape = torch.Size(batch_shape)
        new.concentration = self.concentration.expand(batch_shape)
        new.rate = self.rate.expand(batch_shape)
        Distribution.__init__(new, batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self) -> Tensor:
        return self.concentration / self.rate

    @property
    def mode(self) -> Tensor:
        return ((self.concentration - 1) / self.rate).clamp(min=0)

    @property
    def variance(self) -> Tensor:
        return self.concentration / self.rate.pow(2)

    def rsample(self, sample_shape: SizeLike | list[int] | tuple[int, ...] = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        value = standard_gamma(self.concentration.expand(shape)) / self.rate.expand(shape)
        return value.clamp(min=torch.finfo(value.dtype).tiny)

    def log_prob(self, value: Tensor | float) -> Tensor:
        value = torch.as_tensor(value, dtype=self.rate.dtype, device=self.rate.device)
        if self._validate_args:
            self._validate_sample(value)
        return scipy_op(
            "GammaLogProbBackward", _gamma_logpdf, *broadcast_all(value, self.concentration, self.rate)
        )

    def entropy(self) -> Tensor:
        return (
            self.concentration
            - torch.log(self.rate)
            + torch.lgamma(self.concentration)
            + (1.0 - self.concentration) * torch.digamma(self.concentration)
        )

    def cdf(self, value: Tensor | float) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return torch.special.gammainc(self.concentration, self.rate * value)


class Chi2(Gamma):
    """The chi-square distribution: ``Gamma(df / 2, 1 / 2)``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions.gamma_family import Chi2
        >>> Chi2(torch.tensor([4.0])).mean
        tensor([4.])
    """

    arg_constraints = {"df": constraints.positive}

    def __init__(self, df: Tensor | float, validate_args: bool | None = None) -> None:
        if isinstance(df, numbers.Number):
            df = torch.tensor(df, dtype=torch.get_default_dtype())
        super().__init__(0.5 * df, 0.5, validate_args=validate_args)

    def expand(self, batch_shape: SizeLike, _instance: Any = None) -> Any:
        return super().expand(batch_shape, self._get_checked_instance(Chi2, _instance))

    @property
    def df(self) -> Tensor:
        return self.concentration * 2


def _dirichlet_logpdf(value, concentration):
    # fgrad.scipy.stats.dirichlet.logpdf takes one concentration vector (x's first axis is
    # the category): map it over the batch
    flat_x = fnp.reshape(value, (-1, value.shape[-1]))
    flat_a = fnp.reshape(concentration, (-1, concentration.shape[-1]))
    return fnp.reshape(fgrad.vmap(_dirichlet_one)(flat_x, flat_a), value.shape[:-1])


def _dirichlet_one(x, alpha):
    return fnp.sum(_xlogy(alpha - 1.0, x)) + _gammaln(fnp.sum(alpha)) - fnp.sum(_gammaln(alpha))


class Dirichlet(ExponentialFamily):
    """The Dirichlet distribution over the simplex, concentrations on the last axis.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions.gamma_family import Dirichlet
        >>> Dirichlet(torch.tensor([1.0, 3.0])).mean
        tensor([0.2500, 0.7500])
    """

    arg_constraints = {"concentration": constraints.independent(constraints.positive, 1)}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, concentration: Tensor | float, validate_args: bool | None = None) -> None:
        if concentration.dim() < 1:
            raise ValueError("`concentration` parameter must be at least one-dimensional.")
        self.concentration = concentration
        batch_shape, event_shape = concentration.shape[:-1], concentration.shape[-1:]
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

    def expand(self, batch_shape: SizeLike, _instance: Any = None) -> Any:
        new = self._get_checked_instance(Dirichlet, _instance)
        batch_shape = torch.Size(batch_shape)
        new.concentration = self.concentration.expand(batch_shape + self.event_shape)
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def rsample(self, sample_shape: SizeLike | list[int] | tuple[int, ...] = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        return sample_dirichlet(self.concentration.expand(shape))

    def log_prob(self, value: Tensor | float) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        shape = torch.broadcast_shapes(value.shape, self.concentration.shape)
        return scipy_op(
            "DirichletLogProbBackward",
            _dirichlet_logpdf,
            value.expand(shape),
            self.concentration.expand(shape),
        )

    @property
    def mean(self) -> Tensor:
        return self.concentration / self.concentration.sum(-1, True)

    @property
    def mode(self) -> Tensor:
        concentrationm1 = (self.concentration - 1).clamp(min=0.0)
        mode = concentrationm1 / concentrationm1.sum(-1, True)
        mask = (self.concentration < 1).all(dim=-1)
        mode[mask] = torch.nn.functional.one_hot(mode[mask].argmax(dim=-1), concentrationm1.shape[-1]).to(
            mode
        )
        return mode

    @property
    def variance(self) -> Tensor:
        con0 = self.concentration.sum(-1, True)
        return self.concentration * (con0 - self.concentration) / (con0.pow(2) * (con0 + 1))

    def entropy(self) -> Tensor:
        k = self.concentration.size(-1)
        a0 = self.concentration.sum(-1)
        return (
            torch.lgamma(self.concentration).sum(-1)
            - torch.lgamma(a0)
            - (k - a0) * torch.digamma(a0)
            - ((self.concentration - 1.0) * torch.digamma(self.concentration)).sum(-1)
        )


class Beta(ExponentialFamily):
    """The beta distribution on [0, 1] (a two-category `Dirichlet`).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions.gamma_family import Beta
        >>> Beta(torch.tensor([1.0]), torch.tensor([3.0])).mean
        tensor([0.2500])
    """

    arg_constraints = {"concentration1": constraints.positive, "concentration0": constraints.positive}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, concentration1: Tensor | float, concentration0: Tensor | float,
                 validate_args: bool | None = None) -> None:
        if isinstance(concentration1, numbers.Number) and isinstance(concentration0, numbers.Number):
            concentration1_concentration0 = torch.tensor([float(concentration1), float(concentration0)])
        else:
            concentration1, concentration0 = broadcast_all(concentration1, concentration0)
            concentration1_concentration0 = torch.stack([concentration1, concentration0], -1)
        self._dirichlet = Dirichlet(concentration1_concentration0, validate_args=validate_args)
        super().__init__(self._dirichlet._batch_shape, validate_args=validate_args)

    def expand(self, batch_shape: SizeLike, _instance: Any = None) -> Any:
        new = self._get_checked_instance(Beta, _instance)
        batch_shape = torch.Size(batch_shape)
        new._dirichlet = self._dirichlet.expand(batch_shape)
        Distribution.__init__(new, batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def concentration1(self) -> Tensor:
        return self._dirichlet.concentration[..., 0]

    @property
    def concentration0(self) -> Tensor:
        return self._dirichlet.concentration[..., 1]

    @property
    def mean(self) -> Tensor:
        return self.concentration1 / (self.concentration1 + self.concentration0)

    @property
    def mode(self) -> Tensor:
        return self._dirichlet.mode[..., 0]

    @property
    def variance(self) -> Tensor:
        total = self.concentration1 + self.concentration0
        return self.concentration1 * self.concentration0 / (total.pow(2) * (total + 1))

    def rsample(self, sample_shape: SizeLike | list[int] | tuple[int, ...] = ()) -> Tensor:
        return self._dirichlet.rsample(sample_shape).select(-1, 0)

    def log_prob(self, value: Tensor | float) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return scipy_op(
            "BetaLogProbBackward",
            _beta.logpdf,
            *broadcast_all(value, self.concentration1, self.concentration0),
        )

    def entropy(self) -> Tensor:
        return self._dirichlet.entropy()


class StudentT(Distribution):
    """Student's t distribution with ``df`` degrees of freedom, location and scale.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions.gamma_family import StudentT
        >>> StudentT(torch.tensor([3.0])).variance
        tensor([3.])
    """

    arg_constraints = {"df": constraints.positive, "loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, df: Tensor | float, loc: Tensor | float = 0.0, scale: Tensor | float = 1.0,
                 validate_args: bool | None = None) -> None:
        self.df, self.loc, self.scale = broadcast_all(df, loc, scale)
        super().__init__(self.df.size(), validate_args=validate_args)

    def expand(self, batch_shape: SizeLike, _instance: Any = None) -> Any:
        new = self._get_checked_instance(StudentT, _instance)
        batch_shape = torch.Size(batch_shape)
        new.df = self.df.expand(batch_shape)
        new.loc = self.loc.expand(batch_shape)
        new.scale = self.scale.expand(batch_shape)
        Distribution.__init__(new, batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self) -> Tensor:
        m = self.loc.clone()
        m[self.df <= 1] = math.nan
        return m

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def variance(self) -> Tensor:
        m = self.df.clone()
        m[self.df > 2] = self.scale[self.df > 2].pow(2) * self.df[self.df > 2] / (self.df[self.df > 2] - 2)
        m[(self.df <= 2) & (self.df > 1)] = math.inf
        m[self.df <= 1] = math.nan
        return m

    def rsample(self, sample_shape: SizeLike | list[int] | tuple[int, ...] = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        x = torch.randn(shape, dtype=self.df.dtype, device=self.df.device)
        z = Chi2(self.df).rsample(sample_shape)
        y = x * torch.rsqrt(z / self.df)
        return self.loc + self.scale * y

    def log_prob(self, value: Tensor | float) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return scipy_op(
            "StudentTLogProbBackward", _t.logpdf, *broadcast_all(value, self.df, self.loc, self.scale)
        )

    def entropy(self) -> Tensor:
        lbeta = torch.lgamma(0.5 * self.df) + math.lgamma(0.5) - torch.lgamma(0.5 * (self.df + 1))
        return (
            self.scale.log()
            + 0.5 * (self.df + 1) * (torch.digamma(0.5 * (self.df + 1)) - torch.digamma(0.5 * self.df))
            + 0.5 * self.df.log()
            + lbeta
        )
