"""`GeneralizedPareto`: the peaks-over-threshold law with ``loc``, ``scale`` and
``concentration`` (the exponential at concentration 0); samples are ``icdf(u)``.

Example::

    >>> import fgrad.torch as torch
    >>> from fgrad.torch.distributions import GeneralizedPareto
    >>> GeneralizedPareto(0.0, 1.0, 0.0).log_prob(torch.tensor(1.0))
    tensor(-1.)
"""

from __future__ import annotations

import math
import numbers

import fgrad.torch as torch

from . import constraints
from .distribution import Distribution, broadcast_all
from fgrad.torch.types import SizeLike, Tensor
from typing import Any

__all__ = ["GeneralizedPareto"]


class GeneralizedPareto(Distribution):
    """Density ``(1/scale) (1 + c z)^(-1/c - 1)`` for ``z = (x - loc) / scale``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import GeneralizedPareto
        >>> GeneralizedPareto(0.0, 2.0, 0.5).mean
        tensor(4.)
    """

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive,
                       "concentration": constraints.real}
    has_rsample = True

    def __init__(self, loc: Tensor | float, scale: Tensor | float, concentration: Tensor | float,
                 validate_args: bool | None = None) -> None:
        self.loc, self.scale, self.concentration = broadcast_all(loc, scale, concentration)
        if all(isinstance(v, numbers.Number) for v in (loc, scale, concentration)):
            batch_shape = torch.Size()
        else:
            batch_shape = self.loc.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape: SizeLike, _instance: Any = None) -> Any:
        new = self._get_checked_instance(GeneralizedPareto, _instance)
        batch_shape = torch.Size(batch_shape)
        new.loc = self.loc.expand(batch_shape)
        new.scale = self.scale.expand(batch_shape)
        new.concentration = self.concentration.expand(batch_shape)
        Distribution.__init__(new, batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def _safe_concentration(self):
        eq_zero = torch.isclose(self.concentration, torch.zeros_like(self.concentration))
        return eq_zero, torch.where(eq_zero, torch.ones_like(self.concentration), self.concentration)

    def rsample(self, sample_shape: SizeLike = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        u = torch.rand(shape, dtype=self.loc.dtype, device=self.loc.device)
        return self.icdf(u)

    def _z(self, x):
        return (x - self.loc) / self.scale

    def log_prob(self, value: Tensor | float) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero, safe = self._safe_concentration()
        y = 1 / safe + torch.ones_like(z)
        where_nonzero = torch.where(y == 0, y, y * torch.log1p(safe * z))
        return -self.scale.log() - torch.where(eq_zero, z, where_nonzero)

    def log_survival_function(self, value: Tensor | float) -> Any:
        """``log P(X > value)``."""
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero, safe = self._safe_concentration()
        return torch.where(eq_zero, -z, -torch.log1p(safe * z) / safe)

    def log_cdf(self, value: Tensor | float) -> Any:
        """``log P(X <= value)``."""
        return torch.log1p(-torch.exp(self.log_survival_function(value)))

    def cdf(self, value: Tensor | float) -> Tensor:
        return torch.exp(self.log_cdf(value))

    def icdf(self, value: Tensor | float) -> Tensor:
        eq_zero, safe = self._safe_concentration()
        logu = torch.log1p(-value)
        where_nonzero = self.loc + self.scale / safe * torch.expm1(-safe * logu)
        return torch.where(eq_zero, self.loc - self.scale * logu, where_nonzero)

    @property
    def mean(self) -> Tensor:
        valid = self.concentration < 1
        safe = torch.where(valid, self.concentration, 0.5)
        return torch.where(valid, self.loc + self.scale / (1 - safe), math.nan)

    @property
    def variance(self) -> Tensor:
        valid = self.concentration < 0.5
        safe = torch.where(valid, self.concentration, 0.25)
        return torch.where(valid, self.scale**2 / ((1 - safe) ** 2 * (1 - 2 * safe)), math.nan)

    def entropy(self) -> Tensor:
        return torch.broadcast_to(torch.log(self.scale) + self.concentration + 1, self._batch_shape)

    @property
    def mode(self) -> Tensor:
        return self.loc

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self) -> Any:
        lower = self.loc
        upper = torch.where(self.concentration < 0, lower - self.scale / self.concentration, math.inf)
        return constraints.interval(lower, upper)
