"""Bijective transforms for `TransformedDistribution`: `ExpTransform`, `AffineTransform`,
`SigmoidTransform`, `TanhTransform`, and the inverse of each (``t.inv``).

A transform maps ``x`` to ``y = t(x)``, inverts it (``t.inv(y)``) and gives
``log |dy/dx|`` (`log_abs_det_jacobian`), summed over its event dimensions.

Example::

    >>> import fgrad.torch as torch
    >>> from fgrad.torch.distributions.transforms import ExpTransform
    >>> ExpTransform().inv(torch.tensor([1.0]))
    tensor([0.])
"""

from __future__ import annotations

import math
import numbers

import fgrad.torch as torch
import fgrad.torch.nn.functional as F

from . import constraints
from fgrad.torch.types import Tensor
from typing import Any

__all__ = ["AffineTransform", "ExpTransform", "SigmoidTransform", "TanhTransform", "Transform"]


class Transform:
    """A bijection with a log-Jacobian (see the module docstring).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions.transforms import ExpTransform
        >>> ExpTransform()(torch.tensor([0.0]))
        tensor([1.])
    """

    bijective = True
    domain = constraints.real
    codomain = constraints.real

    def __init__(self, cache_size: int = 0) -> None:
        self._cache_size = cache_size
        self._inv = None

    @property
    def event_dim(self) -> int:
        return self.domain.event_dim

    @property
    def inv(self) -> "Transform":
        if self._inv is None:
            self._inv = _InverseTransform(self)
        return self._inv

    @property
    def sign(self) -> int:
        raise NotImplementedError

    def __call__(self, x: Tensor) -> Tensor:
        return self._call(x)

    def _inv_call(self, y):
        return self._inverse(y)

    def _call(self, x):
        raise NotImplementedError

    def _inverse(self, y):
        raise NotImplementedError

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        raise NotImplementedError

    def __repr__(self) -> str:
        return self.__class__.__name__ + "()"


class _InverseTransform(Transform):
    def __init__(self, transform: Transform) -> None:
        super().__init__()
        self._inv = transform

    @property
    def domain(self):
        return self._inv.codomain

    @property
    def codomain(self):
        return self._inv.domain

    @property
    def sign(self) -> int:
        return self._inv.sign

    @property
    def inv(self) -> Transform:
        return self._inv

    def __call__(self, x):
        return self._inv._inv_call(x)

    def log_abs_det_jacobian(self, x, y):
        return -self._inv.log_abs_det_jacobian(y, x)

    def __repr__(self) -> str:
        return f"_InverseTransform({self._inv!r})"


class ExpTransform(Transform):
    """``y = exp(x)``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions.transforms import ExpTransform
        >>> ExpTransform().log_abs_det_jacobian(torch.tensor([1.0]), None)
        tensor([1.])
    """

    codomain = constraints.positive
    sign = +1

    def _call(self, x):
        return x.exp()

    def _inverse(self, y):
        return y.log()

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        return x


class SigmoidTransform(Transform):
    """``y = sigmoid(x)`` (inverse: ``logit`` of the clamped value).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions.transforms import SigmoidTransform
        >>> SigmoidTransform()(torch.tensor([0.0]))
        tensor([0.5000])
    """

    codomain = constraints.unit_interval
    sign = +1

    def _call(self, x):
        finfo = torch.finfo(x.dtype)
        return torch.clamp(torch.sigmoid(x), min=finfo.tiny, max=1.0 - finfo.eps)

    def _inverse(self, y):
        finfo = torch.finfo(y.dtype)
        y = y.clamp(min=finfo.tiny, max=1.0 - finfo.eps)
        return y.log() - (-y).log1p()

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        return -F.softplus(-x) - F.softplus(x)


class TanhTransform(Transform):
    """``y = tanh(x)``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions.transforms import TanhTransform
        >>> TanhTransform().inv(torch.tensor([0.0]))
        tensor([0.])
    """

    codomain = constraints.interval(-1.0, 1.0)
    sign = +1

    def _call(self, x):
        return x.tanh()

    def _inverse(self, y):
        return torch.atanh(y)

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        return 2.0 * (math.log(2.0) - x - F.softplus(-2.0 * x))


class AffineTransform(Transform):
    """``y = loc + scale * x`` (``event_dim`` trailing dims form one event).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions.transforms import AffineTransform
        >>> AffineTransform(1.0, 2.0)(torch.tensor([3.0]))
        tensor([7.])
    """

    def __init__(self, loc: Tensor | float, scale: Tensor | float, event_dim: int = 0,
                 cache_size: int = 0) -> None:
        super().__init__(cache_size=cache_size)
        self.loc = loc
        self.scale = scale
        self._event_dim = event_dim

    @property
    def event_dim(self) -> int:
        return self._event_dim

    @property
    def domain(self) -> Any:
        return (
            constraints.real
            if self._event_dim == 0
            else constraints.independent(constraints.real, self._event_dim)
        )

    @property
    def codomain(self) -> Any:
        return self.domain

    @property
    def sign(self) -> Tensor | int:
        if isinstance(self.scale, numbers.Real):
            return 1 if float(self.scale) > 0 else -1 if float(self.scale) < 0 else 0
        return self.scale.sign()

    def _call(self, x):
        return self.loc + self.scale * x

    def _inverse(self, y):
        return (y - self.loc) / self.scale

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        shape = x.shape
        scale = self.scale
        if isinstance(scale, numbers.Real):
            result = torch.full_like(x, math.log(abs(scale)))
        else:
            result = torch.abs(scale).log()
        if self._event_dim:
            result_size = result.size()[: result.dim() - self._event_dim] + (-1,)
            result = result.view(result_size).sum(-1)
            shape = shape[: len(shape) - self._event_dim]
        return result.expand(shape)
