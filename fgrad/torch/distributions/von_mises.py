"""`VonMises`: the circular normal distribution on angles, ``exp(k cos(x - loc)) / (2 pi I0(k))``.
Samples use Best and Fisher's (1979) rejection sampler as PyTorch runs it (in float64, three
uniforms per element per round), so seeded samples are PyTorch's; ``log I0``/``log I1`` come from
the exponentially scaled Bessel functions (exact, where PyTorch uses polynomial fits good to ~1e-7).

Example::

    >>> import fgrad.torch as torch
    >>> from fgrad.torch.distributions import VonMises
    >>> VonMises(torch.tensor([0.0]), torch.tensor([1.0])).log_prob(torch.tensor([0.0]))
    tensor([-1.0738])
"""

from __future__ import annotations

import math

import fgrad.torch as torch

from . import constraints
from .distribution import Distribution, broadcast_all, lazy_property
from fgrad.torch.types import SizeLike, Tensor
from typing import Any

__all__ = ["VonMises"]


def _log_i0(x):
    return torch.log(torch.special.i0e(x)) + x


def _log_i1(x):
    return torch.log(torch.special.i1e(x)) + x


def _rejection_sample(loc, concentration, proposal_r, x):
    done = torch.zeros(x.shape, dtype=torch.bool, device=loc.device)
    while not bool(done.all()):
        u1, u2, u3 = torch.rand((3,) + tuple(x.shape), dtype=loc.dtype, device=loc.device).unbind()
        z = torch.cos(math.pi * u1)
        f = (1 + proposal_r * z) / (proposal_r + z)
        c = concentration * (proposal_r - f)
        accept = ((c * (2 - c) - u2) > 0) | ((c / u2).log() + 1 - c >= 0)
        if bool(accept.any()):
            x = torch.where(accept, (u3 - 0.5).sign() * f.acos(), x)
            done = done | accept
    return (x + math.pi + loc) % (2 * math.pi) - math.pi


class VonMises(Distribution):
    """The von Mises distribution with mean angle ``loc`` and ``concentration``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import VonMises
        >>> VonMises(torch.tensor([0.0]), torch.tensor([2.0])).variance
        tensor([0.3022])
    """

    arg_constraints = {"loc": constraints.real, "concentration": constraints.positive}
    support = constraints.real
    has_rsample = False

    def __init__(self, loc: Tensor | float, concentration: Tensor | float,
                 validate_args: bool | None = None) -> None:
        self.loc, self.concentration = broadcast_all(loc, concentration)
        super().__init__(self.loc.shape, torch.Size(), validate_args)

    def log_prob(self, value: Tensor | float) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        log_prob = self.concentration * torch.cos(value - self.loc)
        return log_prob - math.log(2 * math.pi) - _log_i0(self.concentration)

    @lazy_property
    def _loc(self):
        return self.loc.to(torch.double)

    @lazy_property
    def _concentration(self):
        return self.concentration.to(torch.double)

    @lazy_property
    def _proposal_r(self):
        kappa = self._concentration
        tau = 1 + (1 + 4 * kappa**2).sqrt()
        rho = (tau - (2 * tau).sqrt()) / (2 * kappa)
        proposal_r = (1 + rho**2) / (2 * rho)
        return torch.where(kappa < 1e-5, 1 / kappa + kappa, proposal_r)  # Taylor series at small kappa

    def sample(self, sample_shape: SizeLike = ()) -> Tensor:
        with torch.no_grad():
            shape = self._extended_shape(sample_shape)
            x = torch.zeros(shape, dtype=self._loc.dtype, device=self.loc.device)
            return _rejection_sample(self._loc, self._concentration, self._proposal_r, x).to(self.loc.dtype)

    def expand(self, batch_shape: SizeLike, _instance: Any = None) -> Any:
        new = self._get_checked_instance(VonMises, _instance)
        batch_shape = torch.Size(batch_shape)
        new.loc = self.loc.expand(batch_shape)
        new.concentration = self.concentration.expand(batch_shape)
        Distribution.__init__(new, batch_shape, torch.Size(), validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self) -> Tensor:
        return self.loc

    @property
    def mode(self) -> Tensor:
        return self.loc

    @lazy_property
    def variance(self):
        """The circular variance ``1 - I1(k) / I0(k)``."""
        return 1 - (_log_i1(self.concentration) - _log_i0(self.concentration)).exp()
