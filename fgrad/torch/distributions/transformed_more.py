"""Distributions PyTorch builds by pushing a simpler one through transforms, built the same
way so seeded samples draw PyTorch's CPU streams: `HalfCauchy` (``|Cauchy(0, scale)|``),
`InverseGamma` (``1 / Gamma``), `Kumaraswamy` (a uniform through powers), `Weibull` (an
exponential through a power and a scale) and `LogisticNormal` (a normal through stick
breaking onto the simplex).

Example::

    >>> import fgrad.torch as torch
    >>> from fgrad.torch.distributions import Weibull
    >>> Weibull(torch.tensor([1.0]), torch.tensor([1.0])).mean
    tensor([1.])
"""

from __future__ import annotations

import math

import fgrad.torch as torch

from . import constraints
from .continuous import Cauchy, Exponential, Normal, Uniform
from .distribution import broadcast_all
from .gamma_family import Gamma
from .transformed_distribution import TransformedDistribution
from .transforms import AbsTransform, AffineTransform, PowerTransform, StickBreakingTransform
from fgrad.torch.types import SizeLike, Tensor
from typing import Any

__all__ = ["HalfCauchy", "InverseGamma", "Kumaraswamy", "LogisticNormal", "Weibull"]

_EULER = 0.57721566490153286060


class HalfCauchy(TransformedDistribution):
    """``|X|`` for ``X ~ Cauchy(0, scale)``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import HalfCauchy
        >>> HalfCauchy(torch.tensor([1.0])).log_prob(torch.tensor([0.0]))
        tensor([-0.4516])
    """

    arg_constraints = {"scale": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, scale: Tensor | float, validate_args: bool | None = None) -> None:
        base_dist = Cauchy(0, scale, validate_args=False)
        super().__init__(base_dist, AbsTransform(), validate_args=validate_args)

    def expand(self, batch_shape: SizeLike, _instance: Any = None) -> Any:
        new = self._get_checked_instance(HalfCauchy, _instance)
        return super().expand(batch_shape, _instance=new)

    @property
    def scale(self) -> Tensor:
        return self.base_dist.scale

    @property
    def mean(self) -> Tensor:
        return torch.full(self._extended_shape(), math.inf, dtype=self.scale.dtype, device=self.scale.device)

    @property
    def mode(self) -> Tensor:
        return torch.zeros_like(self.scale)

    @property
    def variance(self) -> Tensor:
        return self.base_dist.variance

    def log_prob(self, value: Tensor | float) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        value = torch.as_tensor(value, dtype=self.base_dist.scale.dtype, device=self.base_dist.scale.device)
        log_prob = self.base_dist.log_prob(value) + math.log(2)
        return torch.where(value >= 0, log_prob, -math.inf)

    def cdf(self, value: Tensor | float) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return 2 * self.base_dist.cdf(value) - 1

    def icdf(self, prob: Tensor) -> Tensor:
        return self.base_dist.icdf((prob + 1) / 2)

    def entropy(self) -> Tensor:
        return self.base_dist.entropy() - math.log(2)


class InverseGamma(TransformedDistribution):
    """``1 / X`` for ``X ~ Gamma(concentration, rate)``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import InverseGamma
        >>> InverseGamma(torch.tensor([3.0]), torch.tensor([4.0])).mean
        tensor([2.])
    """

    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, concentration: Tensor | float, rate: Tensor | float,
                 validate_args: bool | None = None) -> None:
        base_dist = Gamma(concentration, rate, validate_args=validate_args)
        neg_one = -base_dist.rate.new_ones(())
        super().__init__(base_dist, PowerTransform(neg_one), validate_args=validate_args)

    def expand(self, batch_shape: SizeLike, _instance: Any = None) -> Any:
        new = self._get_checked_instance(InverseGamma, _instance)
        return super().expand(batch_shape, _instance=new)

    @property
    def concentration(self) -> Tensor:
        return self.base_dist.concentration

    @property
    def rate(self) -> Tensor:
        return self.base_dist.rate

    @property
    def mean(self) -> Tensor:
        return torch.where(self.concentration > 1, self.rate / (self.concentration - 1), math.inf)

    @property
    def mode(self) -> Tensor:
        return self.rate / (self.concentration + 1)

    @property
    def variance(self) -> Tensor:
        c = self.concentration
        return torch.where(c > 2, self.rate.square() / ((c - 1).square() * (c - 2)), math.inf)

    def entropy(self) -> Tensor:
        c = self.concentration
        return c + self.rate.log() + c.lgamma() - (1 + c) * c.digamma()


def _kumaraswamy_moment(a, b, n: int):
    """``E[X^n] = b B(1 + n/a, b)`` of Kumaraswamy(a, b)."""
    arg = 1 + n / a
    return b * torch.exp(torch.lgamma(arg) + torch.lgamma(b) - torch.lgamma(arg + b))


class Kumaraswamy(TransformedDistribution):
    """``(1 - U^(1/b))^(1/a)`` for a uniform ``U``: density ``a b x^(a-1) (1 - x^a)^(b-1)``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import Kumaraswamy
        >>> Kumaraswamy(torch.tensor([1.0]), torch.tensor([1.0])).mean
        tensor([0.5000])
    """

    arg_constraints = {"concentration1": constraints.positive, "concentration0": constraints.positive}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, concentration1: Tensor | float, concentration0: Tensor | float,
                 validate_args: bool | None = None) -> None:
        self.concentration1, self.concentration0 = broadcast_all(concentration1, concentration0)
        base_dist = Uniform(torch.full_like(self.concentration0, 0), torch.full_like(self.concentration0, 1),
                            validate_args=validate_args)
        transforms = [
            PowerTransform(exponent=self.concentration0.reciprocal()),
            AffineTransform(loc=1.0, scale=-1.0),
            PowerTransform(exponent=self.concentration1.reciprocal()),
        ]
        super().__init__(base_dist, transforms, validate_args=validate_args)

    def expand(self, batch_shape: SizeLike, _instance: Any = None) -> Any:
        new = self._get_checked_instance(Kumaraswamy, _instance)
        new.concentration1 = self.concentration1.expand(batch_shape)
        new.concentration0 = self.concentration0.expand(batch_shape)
        return super().expand(batch_shape, _instance=new)

    @property
    def mean(self) -> Tensor:
        return _kumaraswamy_moment(self.concentration1, self.concentration0, 1)

    @property
    def mode(self) -> Tensor:
        a, b = self.concentration1, self.concentration0
        log_mode = a.reciprocal() * (-a).log1p() - (-a * b).log1p()
        log_mode = torch.where((b < 1) | (a < 1), math.nan, log_mode)
        return log_mode.exp()

    @property
    def variance(self) -> Tensor:
        return _kumaraswamy_moment(self.concentration1, self.concentration0, 2) - torch.pow(self.mean, 2)

    def entropy(self) -> Tensor:
        t1 = 1 - self.concentration1.reciprocal()
        t0 = 1 - self.concentration0.reciprocal()
        h0 = torch.digamma(self.concentration0 + 1) + _EULER
        return t0 + t1 * h0 - torch.log(self.concentration1) - torch.log(self.concentration0)


class Weibull(TransformedDistribution):
    """``scale * E^(1/concentration)`` for ``E ~ Exponential(1)``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import Weibull
        >>> Weibull(torch.tensor([2.0]), torch.tensor([1.0])).log_prob(torch.tensor([2.0]))
        tensor([-1.6931])
    """

    arg_constraints = {"scale": constraints.positive, "concentration": constraints.positive}
    support = constraints.positive

    def __init__(self, scale: Tensor | float, concentration: Tensor | float,
                 validate_args: bool | None = None) -> None:
        self.scale, self.concentration = broadcast_all(scale, concentration)
        self.concentration_reciprocal = self.concentration.reciprocal()
        base_dist = Exponential(torch.ones_like(self.scale), validate_args=validate_args)
        transforms = [PowerTransform(exponent=self.concentration_reciprocal),
                      AffineTransform(loc=0, scale=self.scale)]
        super().__init__(base_dist, transforms, validate_args=validate_args)

    def expand(self, batch_shape: SizeLike, _instance: Any = None) -> Any:
        new = self._get_checked_instance(Weibull, _instance)
        new.scale = self.scale.expand(batch_shape)
        new.concentration = self.concentration.expand(batch_shape)
        new.concentration_reciprocal = new.concentration.reciprocal()
        base_dist = self.base_dist.expand(batch_shape)
        transforms = [PowerTransform(exponent=new.concentration_reciprocal),
                      AffineTransform(loc=0, scale=new.scale)]
        TransformedDistribution.__init__(new, base_dist, transforms, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self) -> Tensor:
        return self.scale * torch.exp(torch.lgamma(1 + self.concentration_reciprocal))

    @property
    def mode(self) -> Tensor:
        return self.scale * ((self.concentration - 1) / self.concentration) ** self.concentration.reciprocal()

    @property
    def variance(self) -> Tensor:
        r = self.concentration_reciprocal
        return self.scale.pow(2) * (torch.exp(torch.lgamma(1 + 2 * r)) - torch.exp(2 * torch.lgamma(1 + r)))

    def entropy(self) -> Tensor:
        r = self.concentration_reciprocal
        return _EULER * (1 - r) + torch.log(self.scale * r) + 1


class LogisticNormal(TransformedDistribution):
    """A normal vector pushed onto the simplex by `StickBreakingTransform` (event size + 1).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import LogisticNormal
        >>> LogisticNormal(torch.zeros(2), torch.ones(2)).event_shape
        torch.Size([3])
    """

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, loc: Tensor | float, scale: Tensor | float, validate_args: bool | None = None) -> None:
        base_dist = Normal(loc, scale, validate_args=validate_args)
        if not base_dist.batch_shape:
            base_dist = base_dist.expand([1])
        super().__init__(base_dist, StickBreakingTransform(), validate_args=validate_args)

    def expand(self, batch_shape: SizeLike, _instance: Any = None) -> Any:
        new = self._get_checked_instance(LogisticNormal, _instance)
        return super().expand(batch_shape, _instance=new)

    @property
    def loc(self) -> Tensor:
        return self.base_dist.base_dist.loc

    @property
    def scale(self) -> Tensor:
        return self.base_dist.base_dist.scale
