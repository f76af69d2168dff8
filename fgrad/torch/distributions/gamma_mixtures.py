"""Distributions built from gamma draws: `NegativeBinomial` (a Poisson with a gamma rate)
and `FisherSnedecor` (a ratio of two gammas), sampled with PyTorch's CPU streams, so seeded
samples are PyTorch's.

Example::

    >>> import fgrad.torch as torch
    >>> from fgrad.torch.distributions import NegativeBinomial
    >>> NegativeBinomial(torch.tensor([4.0]), probs=torch.tensor([0.5])).mean
    tensor([4.])
"""

from __future__ import annotations

import math
import numbers

import fgrad.torch as torch
import fgrad.torch.nn.functional as F

from . import constraints
from .distribution import BinaryProbsLogits, Distribution, broadcast_all, lazy_property
from .gamma_family import Gamma
from fgrad.torch.types import SizeLike, Tensor
from typing import Any

__all__ = ["FisherSnedecor", "NegativeBinomial"]


class NegativeBinomial(BinaryProbsLogits, Distribution):
    """The number of successes before ``total_count`` failures, each trial a success with
    probability ``probs``: sampled as ``Poisson(Gamma(total_count, exp(-logits)))``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import NegativeBinomial
        >>> NegativeBinomial(torch.tensor([3.0]), probs=torch.tensor([0.25])).variance
        tensor([1.3333])
    """

    arg_constraints = {
        "total_count": constraints.greater_than_eq(0),
        "probs": constraints.half_open_interval(0.0, 1.0),
        "logits": constraints.real,
    }
    support = constraints.nonnegative_integer

    def __init__(self, total_count: Tensor | float, probs: Tensor | float | None = None,
                 logits: Tensor | float | None = None,
                 validate_args: bool | None = None) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            self.total_count, self.probs = broadcast_all(total_count, probs)
            self.total_count = self.total_count.type_as(self.probs)
        else:
            self.total_count, self.logits = broadcast_all(total_count, logits)
            self.total_count = self.total_count.type_as(self.logits)
        self._param = self.probs if probs is not None else self.logits
        super().__init__(self._param.size(), validate_args=validate_args)

    def expand(self, batch_shape: SizeLike, _instance: Any = None) -> Any:
        new = self._get_checked_instance(NegativeBinomial, _instance)
        batch_shape = torch.Size(batch_shape)
        new.total_count = self.total_count.expand(batch_shape)
        self._expand_probs_or_logits(new, batch_shape)
        Distribution.__init__(new, batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self) -> Tensor:
        return self.total_count * torch.exp(self.logits)

    @property
    def mode(self) -> Tensor:
        return ((self.total_count - 1) * self.logits.exp()).floor().clamp(min=0.0)

    @property
    def variance(self) -> Tensor:
        return self.mean / torch.sigmoid(-self.logits)

    @lazy_property
    def _gamma(self):
        # not validated: a total count of zero is allowed
        return Gamma(concentration=self.total_count, rate=torch.exp(-self.logits), validate_args=False)

    def sample(self, sample_shape: SizeLike = ()) -> Tensor:
        with torch.no_grad():
            return torch.poisson(self._gamma.sample(sample_shape))

    def log_prob(self, value: Tensor | float) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        unnormalized = self.total_count * F.logsigmoid(-self.logits) + value * F.logsigmoid(self.logits)
        normalization = (-torch.lgamma(self.total_count + value) + torch.lgamma(1.0 + value)
                         + torch.lgamma(self.total_count))
        # total_count == value == 0 has probability one (lgamma(0) is infinite)
        normalization = normalization.masked_fill(self.total_count + value == 0.0, 0.0)
        return unnormalized - normalization


class FisherSnedecor(Distribution):
    """Fisher's F distribution with ``df1`` and ``df2`` degrees of freedom, sampled as the
    ratio of ``Gamma(df1 / 2, df1)`` and ``Gamma(df2 / 2, df2)`` draws (reparameterised).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import FisherSnedecor
        >>> FisherSnedecor(torch.tensor([3.0]), torch.tensor([6.0])).mean
        tensor([1.5000])
    """

    arg_constraints = {"df1": constraints.positive, "df2": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, df1: Tensor | float, df2: Tensor | float, validate_args: bool | None = None) -> None:
        self.df1, self.df2 = broadcast_all(df1, df2)
        self._gamma1 = Gamma(self.df1 * 0.5, self.df1)
        self._gamma2 = Gamma(self.df2 * 0.5, self.df2)
        scalar = isinstance(df1, numbers.Number) and isinstance(df2, numbers.Number)
        super().__init__(torch.Size() if scalar else self.df1.size(), validate_args=validate_args)

    def expand(self, batch_shape: SizeLike, _instance: Any = None) -> Any:
        new = self._get_checked_instance(FisherSnedecor, _instance)
        batch_shape = torch.Size(batch_shape)
        new.df1 = self.df1.expand(batch_shape)
        new.df2 = self.df2.expand(batch_shape)
        new._gamma1 = self._gamma1.expand(batch_shape)
        new._gamma2 = self._gamma2.expand(batch_shape)
        Distribution.__init__(new, batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self) -> Tensor:
        df2 = self.df2.clone()
        df2[df2 <= 2] = math.nan
        return df2 / (df2 - 2)

    @property
    def mode(self) -> Tensor:
        mode = (self.df1 - 2) / self.df1 * self.df2 / (self.df2 + 2)
        mode[self.df1 <= 2] = math.nan
        return mode

    @property
    def variance(self) -> Tensor:
        df2 = self.df2.clone()
        df2[df2 <= 4] = math.nan
        return 2 * df2.pow(2) * (self.df1 + df2 - 2) / (self.df1 * (df2 - 2).pow(2) * (df2 - 4))

    def rsample(self, sample_shape: SizeLike | list[int] | tuple[int, ...] = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        x1 = self._gamma1.rsample(sample_shape).view(shape)
        x2 = self._gamma2.rsample(sample_shape).view(shape)
        tiny = torch.finfo(x2.dtype).tiny
        return (x1 / x2.clamp(min=tiny)).clamp(min=tiny)

    def log_prob(self, value: Tensor | float) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        half1, half2 = self.df1 * 0.5, self.df2 * 0.5
        ratio = self.df1 / self.df2
        t1 = (half1 + half2).lgamma() - half1.lgamma() - half2.lgamma()
        t2 = half1 * ratio.log() + (half1 - 1) * torch.log(value)
        t3 = (half1 + half2) * torch.log1p(ratio * value)
        return t1 + t2 - t3
