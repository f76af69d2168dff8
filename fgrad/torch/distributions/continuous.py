"""Univariate continuous distributions: `Normal`, `Uniform`, `Exponential`, `Laplace`,
`Cauchy` (PyTorch's parameters, shapes, moments, entropies, samplers).

Log-densities are the ``fgrad.scipy.stats`` ones (`scipy_op`); moments, entropies and the
(inverse) CDFs are PyTorch's formulas written with tensor ops.

Example::

    >>> import fgrad.torch as torch
    >>> from fgrad.torch.distributions import Normal
    >>> Normal(torch.tensor([0.0]), torch.tensor([2.0])).entropy()
    tensor([2.1121])
"""

from __future__ import annotations

import math
import numbers

import fgrad.torch as torch
from fgrad.scipy.stats import cauchy as _cauchy
from fgrad.scipy.stats import expon as _expon
from fgrad.scipy.stats import laplace as _laplace
from fgrad.scipy.stats import norm as _norm

from . import constraints
from .distribution import Distribution, ExponentialFamily, broadcast_all, scipy_op
from fgrad.torch.types import SizeLike, Tensor
from typing import Any

__all__ = ["Cauchy", "Exponential", "Laplace", "Normal", "Uniform"]


def _batch_of(*params) -> torch.Size:
    return torch.Size() if all(isinstance(p, numbers.Number) for p in params) else None


class _LocScale(Distribution):
    """Shared construction and ``expand`` of the location-scale families."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc: Tensor | float, scale: Tensor | float, validate_args: bool | None = None) -> None:
        batch = _batch_of(loc, scale)
        self.loc, self.scale = broadcast_all(loc, scale)
        super().__init__(batch if batch is not None else self.loc.size(), validate_args=validate_args)

    def expand(self, batch_shape: SizeLike, _instance: Any = None) -> Any:
        new = self._get_checked_instance(type(self), _instance)
        batch_shape = torch.Size(batch_shape)
        new.loc = self.loc.expand(batch_shape)
        new.scale = self.scale.expand(batch_shape)
        Distribution.__init__(new, batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self) -> Tensor:
        return self.loc

    @property
    def mode(self) -> Tensor:
        return self.loc


class Normal(_LocScale, ExponentialFamily):
    """The normal distribution ``N(loc, scale^2)``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import Normal
        >>> Normal(0.0, 1.0).cdf(torch.tensor(0.0))
        tensor(0.5000)
    """

    @property
    def stddev(self) -> Tensor:
        return self.scale

    @property
    def variance(self) -> Tensor:
        return self.stddev.pow(2)

    def rsample(self, sample_shape: SizeLike | list[int] | tuple[int, ...] = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        eps = torch.randn(shape, dtype=self.loc.dtype, device=self.loc.device)
        return self.loc + eps * self.scale

    def sample(self, sample_shape: SizeLike = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        with torch.no_grad():
            return torch.normal(self.loc.expand(shape), self.scale.expand(shape))

    def log_prob(self, value: Tensor | float) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return scipy_op("NormalLogProbBackward", _norm.logpdf, *broadcast_all(value, self.loc, self.scale))

    def cdf(self, value: Tensor | float) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 * (1 + torch.erf((value - self.loc) * self.scale.reciprocal() / math.sqrt(2)))

    def icdf(self, value: Tensor | float) -> Tensor:
        return self.loc + self.scale * torch.erfinv(2 * value - 1) * math.sqrt(2)

    def entropy(self) -> Tensor:
        return 0.5 + 0.5 * math.log(2 * math.pi) + torch.log(self.scale)


class Laplace(_LocScale):
    """The Laplace distribution with density ``exp(-|x - loc| / scale) / (2 scale)``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import Laplace, Cauchy, Uniform, Exponential
        >>> Laplace(0.0, 1.0).log_prob(torch.tensor(0.0))
        tensor(-0.6931)
    """

    @property
    def variance(self) -> Tensor:
        return 2 * self.scale.pow(2)

    @property
    def stddev(self) -> Tensor:
        return (2**0.5) * self.scale

    def rsample(self, sample_shape: SizeLike | list[int] | tuple[int, ...] = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        finfo = torch.finfo(self.loc.dtype)
        u = self.loc.new_empty(shape).uniform_(finfo.eps - 1, 1)
        return self.loc - self.scale * u.sign() * torch.log1p(-u.abs())

    def log_prob(self, value: Tensor | float) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return scipy_op(
            "LaplaceLogProbBackward", _laplace.logpdf, *broadcast_all(value, self.loc, self.scale)
        )

    def cdf(self, value: Tensor | float) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 - 0.5 * (value - self.loc).sign() * torch.expm1(-(value - self.loc).abs() / self.scale)

    def icdf(self, value: Tensor | float) -> Tensor:
        term = value - 0.5
        return self.loc - self.scale * term.sign() * torch.log1p(-2 * term.abs())

    def entropy(self) -> Tensor:
        return 1 + torch.log(2 * self.scale)


class Cauchy(_LocScale):
    """The Cauchy distribution (no mean: NaN; infinite variance).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import Laplace, Cauchy, Uniform, Exponential
        >>> Cauchy(0.0, 1.0).cdf(torch.tensor(1.0))
        tensor(0.7500)
    """

    @property
    def mean(self) -> Tensor:
        return torch.full(self._extended_shape(), math.nan, dtype=self.loc.dtype, device=self.loc.device)

    @property
    def variance(self) -> Tensor:
        return torch.full(self._extended_shape(), math.inf, dtype=self.loc.dtype, device=self.loc.device)

    def rsample(self, sample_shape: SizeLike | list[int] | tuple[int, ...] = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        eps = self.loc.new_empty(shape).cauchy_()
        return self.loc + eps * self.scale

    def log_prob(self, value: Tensor | float) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return scipy_op("CauchyLogProbBackward", _cauchy.logpdf, *broadcast_all(value, self.loc, self.scale))

    def cdf(self, value: Tensor | float) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return torch.atan((value - self.loc) / self.scale) / math.pi + 0.5

    def icdf(self, value: Tensor | float) -> Tensor:
        return torch.tan(math.pi * (value - 0.5)) * self.scale + self.loc

    def entropy(self) -> Tensor:
        return math.log(4 * math.pi) + self.scale.log()


class Uniform(Distribution):
    """The uniform distribution on ``[low, high)``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import Laplace, Cauchy, Uniform, Exponential
        >>> Uniform(0.0, 2.0).entropy()
        tensor(0.6931)
    """

    arg_constraints = {
        "low": constraints.dependent(is_discrete=False, event_dim=0),
        "high": constraints.dependent(is_discrete=False, event_dim=0),
    }
    has_rsample = True

    def __init__(self, low: Tensor | float, high: Tensor | float, validate_args: bool | None = None) -> None:
        batch = _batch_of(low, high)
        self.low, self.high = broadcast_all(low, high)
        super().__init__(batch if batch is not None else self.low.size(), validate_args=validate_args)
        if self._validate_args and not bool(torch.lt(self.low, self.high).all()):
            raise ValueError("Uniform is not defined when low>= high")

    def expand(self, batch_shape: SizeLike, _instance: Any = None) -> Any:
        new = self._get_checked_instance(Uniform, _instance)
        batch_shape = torch.Size(batch_shape)
        new.low = self.low.expand(batch_shape)
        new.high = self.high.expand(batch_shape)
        Distribution.__init__(new, batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self) -> Any:
        return constraints.interval(self.low, self.high)

    @property
    def mean(self) -> Tensor:
        return (self.high + self.low) / 2

    @property
    def mode(self) -> Tensor:
        return torch.nan * self.high

    @property
    def stddev(self) -> Tensor:
        return (self.high - self.low) / 12**0.5

    @property
    def variance(self) -> Tensor:
        return (self.high - self.low).pow(2) / 12

    def rsample(self, sample_shape: SizeLike | list[int] | tuple[int, ...] = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        rand = torch.rand(shape, dtype=self.low.dtype, device=self.low.device)
        return self.low + rand * (self.high - self.low)

    def log_prob(self, value: Tensor | float) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        lb = self.low.le(value).type_as(self.low)
        ub = self.high.gt(value).type_as(self.low)
        return torch.log(lb.mul(ub)) - torch.log(self.high - self.low)

    def cdf(self, value: Tensor | float) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        result = (value - self.low) / (self.high - self.low)
        return result.clamp(min=0, max=1)

    def icdf(self, value: Tensor | float) -> Tensor:
        return value * (self.high - self.low) + self.low

    def entropy(self) -> Tensor:
        return torch.log(self.high - self.low)


class Exponential(ExponentialFamily):
    """The exponential distribution with density ``rate exp(-rate x)``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import Laplace, Cauchy, Uniform, Exponential
        >>> Exponential(torch.tensor([2.0])).mean
        tensor([0.5000])
    """

    arg_constraints = {"rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, rate: Tensor | float, validate_args: bool | None = None) -> None:
        (self.rate,) = broadcast_all(rate)
        batch = torch.Size() if isinstance(rate, numbers.Number) else self.rate.size()
        super().__init__(batch, validate_args=validate_args)

    def expand(self, batch_shape: SizeLike, _instance: Any = None) -> Any:
        new = self._get_checked_instance(Exponential, _instance)
        batch_shape = torch.Size(batch_shape)
        new.rate = self.rate.expand(batch_shape)
        Distribution.__init__(new, batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self) -> Tensor:
        return self.rate.reciprocal()

    @property
    def mode(self) -> Tensor:
        return torch.zeros_like(self.rate)

    @property
    def stddev(self) -> Tensor:
        return self.rate.reciprocal()

    @property
    def variance(self) -> Tensor:
        return self.rate.pow(-2)

    def rsample(self, sample_shape: SizeLike | list[int] | tuple[int, ...] = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        return self.rate.new_empty(shape).exponential_() / self.rate

    def log_prob(self, value: Tensor | float) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        value, rate = broadcast_all(value, self.rate)
        return scipy_op(
            "ExponentialLogProbBackward", _expon.logpdf, value, torch.zeros_like(rate), rate.reciprocal()
        )

    def cdf(self, value: Tensor | float) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return 1 - torch.exp(-self.rate * value)

    def icdf(self, value: Tensor | float) -> Tensor:
        return -torch.log1p(-value) / self.rate

    def entropy(self) -> Tensor:
        return 1.0 - torch.log(self.rate)
