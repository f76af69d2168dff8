"""More of ``torch.distributions``: `Geometric`, `Multinomial`, `Gumbel`, `Pareto` and
`HalfNormal`, built as PyTorch builds them (Gumbel and Pareto are transformed uniform and
exponential variables, Multinomial counts categorical draws), so seeded samples draw
PyTorch's CPU streams and are PyTorch's numbers.

Example::

    >>> import fgrad.torch as torch
    >>> from fgrad.torch.distributions import Geometric
    >>> Geometric(torch.tensor([0.25])).mean
    tensor([3.])
"""

from __future__ import annotations

import math
import numbers

import fgrad.torch as torch
import fgrad.torch.nn.functional as F

from . import constraints
from .continuous import Exponential, Normal, Uniform
from .discrete import Binomial, Categorical
from .distribution import (BinaryProbsLogits, Distribution, broadcast_all)
from .transformed_distribution import TransformedDistribution
from .transforms import AffineTransform, ExpTransform
from fgrad.torch.distributions.constraints import Constraint
from fgrad.torch.types import SizeLike, Tensor
from typing import Any

__all__ = ["Geometric", "Gumbel", "HalfNormal", "Multinomial", "Pareto"]

_EULER = 0.57721566490153286060


class Geometric(BinaryProbsLogits, Distribution):
    """The number of failures before the first success of trials with success probability
    ``probs``: ``floor(log(u) / log1p(-probs))`` for a uniform ``u`` in ``[tiny, 1)``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import Geometric
        >>> Geometric(torch.tensor([0.5])).log_prob(torch.tensor([2.0]))
        tensor([-2.0794])
    """

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.nonnegative_integer

    def __init__(self, probs: Tensor | float | None = None, logits: Tensor | float | None = None,
                 validate_args: bool | None = None) -> None:
        super().__init__(self._set_probs_or_logits(probs, logits), validate_args=validate_args)
        if self._validate_args and probs is not None and not bool((self.probs > 0).all()):
            raise ValueError(f"Expected parameter probs (Tensor of shape {tuple(self.probs.shape)}) of "
                             f"distribution {self!r} to be positive but found invalid values:\n"
                             f"{self.probs[~(self.probs > 0)]}")

    def expand(self, batch_shape: SizeLike, _instance: Any = None) -> Any:
        new = self._get_checked_instance(Geometric, _instance)
        batch_shape = torch.Size(batch_shape)
        self._expand_probs_or_logits(new, batch_shape)
        Distribution.__init__(new, batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self) -> Tensor:
        return 1.0 / self.probs - 1.0

    @property
    def mode(self) -> Tensor:
        return torch.zeros_like(self.probs)

    @property
    def variance(self) -> Tensor:
        return (1.0 / self.probs - 1.0) / self.probs

    def sample(self, sample_shape: SizeLike = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        tiny = torch.finfo(self.probs.dtype).tiny
        with torch.no_grad():
            u = self.probs.new_empty(shape).uniform_(tiny, 1)
            return (u.log() / (-self.probs).log1p()).floor()

    def log_prob(self, value: Tensor | float) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        value, probs = broadcast_all(value, self.probs)
        probs = torch.where((probs == 1) & (value == 0), torch.zeros_like(probs), probs)
        return value * (-probs).log1p() + self.probs.log()

    def entropy(self) -> Tensor:
        return F.binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none") / self.probs


class Multinomial(Distribution):
    """Counts of ``total_count`` draws from a categorical distribution (``probs`` or
    ``logits`` over the last dimension).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import Multinomial
        >>> Multinomial(4, torch.tensor([0.5, 0.5])).log_prob(torch.tensor([2.0, 2.0]))
        tensor(-0.9808)
    """

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real}

    def __init__(self, total_count: int | Tensor = 1, probs: Tensor | float | None = None,
                 logits: Tensor | float | None = None,
                 validate_args: bool | None = None) -> None:
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        self._categorical = Categorical(probs=probs, logits=logits)
        self._binomial = Binomial(total_count=total_count, probs=self.probs)
        super().__init__(self._categorical.batch_shape, self._categorical.param_shape[-1:],
                         validate_args=validate_args)

    def expand(self, batch_shape: SizeLike, _instance: Any = None) -> Any:
        new = self._get_checked_instance(Multinomial, _instance)
        batch_shape = torch.Size(batch_shape)
        new.total_count = self.total_count
        new._categorical = self._categorical.expand(batch_shape)
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @constraints.dependent_property(is_discrete=True, event_dim=1)
    def support(self) -> Any:
        return constraints.integer_interval(0, self.total_count)

    @property
    def logits(self) -> Tensor:
        return self._categorical.logits

    @property
    def probs(self) -> Tensor:
        return self._categorical.probs

    @property
    def param_shape(self) -> SizeLike:
        return self._categorical.param_shape

    @property
    def mean(self) -> Tensor:
        return self.probs * self.total_count

    @property
    def variance(self) -> Tensor:
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape: SizeLike = ()) -> Tensor:
        sample_shape = torch.Size(sample_shape)
        draws = self._categorical.sample(torch.Size((self.total_count,)) + sample_shape)
        order = list(range(1, draws.dim())) + [0]  # (count, sample, batch) -> (sample, batch, count)
        draws = draws.permute(*order)
        counts = torch.zeros(self._extended_shape(sample_shape), dtype=draws.dtype, device=draws.device)
        counts.scatter_add_(-1, draws, torch.ones_like(draws))
        return counts.type_as(self.probs)

    def log_prob(self, value: Tensor | float) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        logits = torch.where((value == 0) & (logits == -math.inf), torch.zeros_like(logits), logits)
        log_factorial_n = torch.lgamma(value.sum(-1) + 1)
        log_factorial_xs = torch.lgamma(value + 1).sum(-1)
        return log_factorial_n - log_factorial_xs + (logits * value).sum(-1)

    def entropy(self) -> Tensor:
        n = torch.tensor(float(self.total_count), dtype=self.probs.dtype)
        term1 = n * self._categorical.entropy() - torch.lgamma(n + 1)
        support = self._binomial.enumerate_support(expand=False)[1:]
        binomial_probs = torch.exp(self._binomial.log_prob(support))
        return term1 + (binomial_probs * torch.lgamma(support + 1)).sum([0, -1])


class Gumbel(TransformedDistribution):
    """The Gumbel distribution: ``loc - scale * log(-log(u))`` for a uniform ``u`` in
    ``[tiny, 1 - eps)``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import Gumbel
        >>> Gumbel(torch.tensor([0.0]), torch.tensor([1.0])).mean
        tensor([0.5772])
    """

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real

    def __init__(self, loc: Tensor | float, scale: Tensor | float, validate_args: bool | None = None) -> None:
        self.loc, self.scale = broadcast_all(loc, scale)
        finfo = torch.finfo(self.loc.dtype)
        if isinstance(loc, numbers.Number) and isinstance(scale, numbers.Number):
            base = Uniform(finfo.tiny, 1 - finfo.eps, validate_args=validate_args)
        else:
            base = Uniform(torch.full_like(self.loc, finfo.tiny), torch.full_like(self.loc, 1 - finfo.eps),
                           validate_args=validate_args)
        transforms = [ExpTransform().inv, AffineTransform(loc=0, scale=-torch.ones_like(self.scale)),
                      ExpTransform().inv, AffineTransform(loc=loc, scale=-self.scale)]
        super().__init__(base, transforms, validate_args=validate_args)

    def expand(self, batch_shape: SizeLike, _instance: Any = None) -> Any:
        new = self._get_checked_instance(Gumbel, _instance)
        new.loc = self.loc.expand(batch_shape)
        new.scale = self.scale.expand(batch_shape)
        return super().expand(batch_shape, _instance=new)

    def log_prob(self, value: Tensor | float) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        y = (self.loc - value) / self.scale
        return (y - y.exp()) - self.scale.log()

    @property
    def mean(self) -> Tensor:
        return self.loc + self.scale * _EULER

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def stddev(self) -> Tensor:
        return (math.pi / math.sqrt(6)) * self.scale

    @property
    def variance(self) -> Tensor:
        return self.stddev.pow(2)

    def entropy(self) -> Tensor:
        return self.scale.log() + (1 + _EULER)


class Pareto(TransformedDistribution):
    """The Pareto distribution: ``scale * exp(E)`` for ``E ~ Exponential(alpha)``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import Pareto
        >>> Pareto(torch.tensor([1.0]), torch.tensor([3.0])).mean
        tensor([1.5000])
    """

    arg_constraints = {"alpha": constraints.positive, "scale": constraints.positive}

    def __init__(self, scale: Tensor | float, alpha: Tensor | float,
                 validate_args: bool | None = None) -> None:
        self.scale, self.alpha = broadcast_all(scale, alpha)
        base = Exponential(self.alpha, validate_args=validate_args)
        super().__init__(base, [ExpTransform(), AffineTransform(loc=0, scale=self.scale)],
                         validate_args=validate_args)

    def expand(self, batch_shape: SizeLike | list[int] | tuple[int, ...], _instance: Any = None) -> Any:
        new = self._get_checked_instance(Pareto, _instance)
        new.scale = self.scale.expand(batch_shape)
        new.alpha = self.alpha.expand(batch_shape)
        return super().expand(batch_shape, _instance=new)

    @property
    def mean(self) -> Tensor:
        a = self.alpha.clamp(min=1)  # infinite for alpha <= 1
        return a * self.scale / (a - 1)

    @property
    def mode(self) -> Tensor:
        return self.scale

    @property
    def variance(self) -> Tensor:
        a = self.alpha.clamp(min=2)  # infinite for alpha <= 2
        return self.scale.pow(2) * a / ((a - 1).pow(2) * (a - 2))

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self) -> Constraint:
        return constraints.greater_than_eq(self.scale)

    def entropy(self) -> Tensor:
        return (self.scale / self.alpha).log() + (1 + self.alpha.reciprocal())


class HalfNormal(Distribution):
    """``|X|`` for ``X ~ Normal(0, scale)``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import HalfNormal
        >>> HalfNormal(torch.tensor([1.0])).log_prob(torch.tensor([0.0]))
        tensor([-0.2258])
    """

    arg_constraints = {"scale": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, scale: Tensor | float, validate_args: bool | None = None) -> None:
        self.base_dist = Normal(0, scale, validate_args=False)
        super().__init__(self.base_dist.batch_shape, validate_args=validate_args)

    def expand(self, batch_shape: SizeLike, _instance: Any = None) -> Any:
        new = self._get_checked_instance(HalfNormal, _instance)
        new.base_dist = self.base_dist.expand(batch_shape)
        Distribution.__init__(new, torch.Size(batch_shape), validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def scale(self) -> Tensor:
        return self.base_dist.scale

    @property
    def mean(self) -> Tensor:
        return self.scale * math.sqrt(2 / math.pi)

    @property
    def mode(self) -> Tensor:
        return torch.zeros_like(self.scale)

    @property
    def variance(self) -> Tensor:
        return self.scale.pow(2) * (1 - 2 / math.pi)

    def rsample(self, sample_shape: SizeLike | list[int] | tuple[int, ...] = ()) -> Tensor:
        return self.base_dist.rsample(sample_shape).abs()

    def sample(self, sample_shape: SizeLike = ()) -> Tensor:
        with torch.no_grad():
            return self.base_dist.sample(sample_shape).abs()

    def log_prob(self, value: Tensor | float) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        lp = self.base_dist.log_prob(value) + math.log(2)
        return torch.where(value >= 0, lp, torch.full_like(lp, -math.inf))

    def cdf(self, value: Tensor | float) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return 2 * self.base_dist.cdf(value) - 1

    def icdf(self, prob: Tensor) -> Tensor:
        return self.base_dist.icdf((prob + 1) / 2)

    def entropy(self) -> Tensor:
        return self.base_dist.entropy() - math.log(2)
