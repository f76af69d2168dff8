"""Continuous relaxations of discrete distributions (the Concrete / Gumbel-softmax family),
with reparameterised samples drawn as PyTorch draws them (one uniform per element):
`LogitRelaxedBernoulli`, `RelaxedBernoulli`, `ExpRelaxedCategorical`,
`RelaxedOneHotCategorical`, and `OneHotCategoricalStraightThrough` (one-hot samples with the
probabilities' gradient).

Example::

    >>> import fgrad.torch as torch
    >>> from fgrad.torch.distributions import RelaxedBernoulli
    >>> RelaxedBernoulli(torch.tensor(0.5), probs=torch.tensor([0.3])).batch_shape
    torch.Size([1])
"""

from __future__ import annotations


import fgrad.torch as torch

from . import constraints
from .discrete import Categorical, OneHotCategorical
from .distribution import BinaryProbsLogits, Distribution, broadcast_all, clamp_probs
from .transformed_distribution import TransformedDistribution
from .transforms import ExpTransform, SigmoidTransform
from fgrad.torch._tensor import Size
from fgrad.torch.types import SizeLike, Tensor
from typing import Any

__all__ = ["ExpRelaxedCategorical", "LogitRelaxedBernoulli", "OneHotCategoricalStraightThrough",
           "RelaxedBernoulli", "RelaxedOneHotCategorical"]


class _FromBase:
    """``temperature``, ``logits`` and ``probs`` of a relaxed distribution: its base's."""

    @property
    def temperature(self) -> Tensor:
        return self.base_dist.temperature

    @property
    def logits(self) -> Tensor:
        return self.base_dist.logits

    @property
    def probs(self) -> Tensor:
        return self.base_dist.probs


class LogitRelaxedBernoulli(BinaryProbsLogits, Distribution):
    """The logit of a `RelaxedBernoulli` sample: ``(logit(p) + logistic noise) / temperature``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions.relaxed_bernoulli import LogitRelaxedBernoulli
        >>> LogitRelaxedBernoulli(torch.tensor(1.0), logits=torch.tensor([0.0])).log_prob(torch.tensor([0.0]))
        tensor([-1.3863])
    """

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.real

    def __init__(self, temperature: Tensor | float, probs: Tensor | float | None = None,
                 logits: Tensor | float | None = None, validate_args: bool | None = None) -> None:
        self.temperature = temperature
        super().__init__(self._set_probs_or_logits(probs, logits), validate_args=validate_args)

    def expand(self, batch_shape: SizeLike, _instance: Any = None) -> Any:
        new = self._get_checked_instance(LogitRelaxedBernoulli, _instance)
        batch_shape = torch.Size(batch_shape)
        new.temperature = self.temperature
        self._expand_probs_or_logits(new, batch_shape)
        Distribution.__init__(new, batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def rsample(self, sample_shape: SizeLike = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        probs = clamp_probs(self.probs.expand(shape))
        uniforms = clamp_probs(torch.rand(shape, dtype=probs.dtype, device=probs.device))
        return (uniforms.log() - (-uniforms).log1p() + probs.log() - (-probs).log1p()) / self.temperature

    def log_prob(self, value: Tensor | float) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        diff = logits - value.mul(self.temperature)
        return self.temperature.log() + diff - 2 * diff.exp().log1p()


class RelaxedBernoulli(_FromBase, TransformedDistribution):
    """``sigmoid`` of a `LogitRelaxedBernoulli` sample: values in (0, 1) that approach a
    Bernoulli's as ``temperature`` goes to 0.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import RelaxedBernoulli
        >>> RelaxedBernoulli(torch.tensor(1.0), probs=torch.tensor([0.5])).log_prob(torch.tensor([0.5]))
        tensor([0.])
    """

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, temperature: Tensor | float, probs: Tensor | int | float | bool | None = None,
                 logits: Tensor | int | float | bool | None = None,
                 validate_args: bool | None = None) -> None:
        base_dist = LogitRelaxedBernoulli(temperature, probs, logits)
        super().__init__(base_dist, SigmoidTransform(), validate_args=validate_args)

    def expand(self, batch_shape: SizeLike, _instance: Any = None) -> Any:
        new = self._get_checked_instance(RelaxedBernoulli, _instance)
        return super().expand(batch_shape, _instance=new)



class ExpRelaxedCategorical(Distribution):
    """The log of a `RelaxedOneHotCategorical` sample (log-probabilities of the
    Gumbel-softmax): ``log_softmax((logits + Gumbel noise) / temperature)``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions.relaxed_categorical import ExpRelaxedCategorical
        >>> ExpRelaxedCategorical(torch.tensor(1.0), logits=torch.zeros(3)).event_shape
        torch.Size([3])
    """

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, temperature: Tensor | float, probs: Tensor | float | None = None,
                 logits: Tensor | float | None = None, validate_args: bool | None = None) -> None:
        self._categorical = Categorical(probs, logits)
        self.temperature = temperature
        batch_shape = self._categorical.batch_shape
        event_shape = self._categorical.param_shape[-1:]
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

    def expand(self, batch_shape: SizeLike, _instance: Any = None) -> Any:
        new = self._get_checked_instance(ExpRelaxedCategorical, _instance)
        batch_shape = torch.Size(batch_shape)
        new.temperature = self.temperature
        new._categorical = self._categorical.expand(batch_shape)
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def param_shape(self) -> Size:
        return self._categorical.param_shape

    @property
    def logits(self) -> Tensor:
        return self._categorical.logits

    @property
    def probs(self) -> Tensor:
        return self._categorical.probs

    def rsample(self, sample_shape: SizeLike = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        uniforms = clamp_probs(torch.rand(shape, dtype=self.logits.dtype, device=self.logits.device))
        gumbels = -((-(uniforms.log())).log())
        scores = (self.logits + gumbels) / self.temperature
        return scores - scores.logsumexp(dim=-1, keepdim=True)

    def log_prob(self, value: Tensor | float) -> Tensor:
        k = self._categorical._num_events
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        log_scale = (torch.full_like(self.temperature, float(k)).lgamma()
                     - self.temperature.log().mul(-(k - 1)))
        score = logits - value.mul(self.temperature)
        score = (score - score.logsumexp(dim=-1, keepdim=True)).sum(-1)
        return score + log_scale


class RelaxedOneHotCategorical(_FromBase, TransformedDistribution):
    """The Gumbel-softmax (Concrete) distribution: points of the simplex that approach one-hot
    vectors as ``temperature`` goes to 0.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import RelaxedOneHotCategorical
        >>> torch.manual_seed(0)  # doctest: +ELLIPSIS
        <...>
        >>> RelaxedOneHotCategorical(torch.tensor(0.5), probs=torch.tensor([0.2, 0.8])).sample().shape
        torch.Size([2])
    """

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, temperature: Tensor | float, probs: Tensor | float | None = None,
                 logits: Tensor | float | None = None, validate_args: bool | None = None) -> None:
        base_dist = ExpRelaxedCategorical(temperature, probs, logits, validate_args=validate_args)
        super().__init__(base_dist, ExpTransform(), validate_args=validate_args)

    def expand(self, batch_shape: SizeLike, _instance: Any = None) -> Any:
        new = self._get_checked_instance(RelaxedOneHotCategorical, _instance)
        return super().expand(batch_shape, _instance=new)



class OneHotCategoricalStraightThrough(OneHotCategorical):
    """`OneHotCategorical` whose ``rsample`` is the one-hot sample with the straight-through
    gradient of the probabilities (``sample + probs - probs.detach()``).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import OneHotCategoricalStraightThrough
        >>> OneHotCategoricalStraightThrough(probs=torch.tensor([0.0, 1.0])).rsample()
        tensor([0., 1.])
    """

    has_rsample = True

    def rsample(self, sample_shape: SizeLike | list[int] | tuple[int, ...] = ()) -> Tensor:
        samples = self.sample(sample_shape)
        probs = self._categorical.probs
        return samples + (probs - probs.detach())
