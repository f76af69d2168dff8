"""Random layers that must print PyTorch's numbers under ``torch.manual_seed``:
``gumbel_softmax``, ``alpha_dropout``, ``feature_alpha_dropout``, ``rrelu``/``rrelu_``.

Each draws from the shim's PyTorch-compatible generator in PyTorch's order:
``gumbel_softmax`` is PyTorch's Python code (``exponential_`` on an ``empty_like``); the
alpha dropouts are ATen's ``_dropout_impl`` (one ``bernoulli_(1 - p)`` per element, or per
(N, C) channel for the feature variant, then ``a * noise`` and the affine correction ``b``);
``rrelu`` in training draws one ``uniform_real_distribution<double>(lower, upper)`` per
*non-positive* element, in memory order, as ATen's CPU kernel does, and multiplies by the
noise (so its gradient is the noise, PyTorch's ``RreluWithNoiseBackward0``).

Example::

    >>> import fgrad.torch as torch
    >>> import fgrad.torch.nn.functional as F
    >>> F.alpha_dropout(torch.ones(3), 0.5, training=False)
    tensor([1., 1., 1.])
"""

from __future__ import annotations

import math
import warnings

import numpy as np

import fgrad.torch as torch
import fgrad.torch._device as _dev
import fgrad.torch._random as _random
from .._tensor import Tensor
from ._defop import buf as _buf

__all__ = ["gumbel_softmax", "alpha_dropout", "feature_alpha_dropout", "rrelu", "rrelu_"]

_SELU_ALPHA = 1.7580993408473766  # -selu's alpha * scale: the value alpha dropout drops to


def gumbel_softmax(logits: Tensor, tau: float = 1, hard: bool = False, eps: float = 1e-10,
                   dim: int = -1) -> Tensor:
    """Samples of the Gumbel-softmax distribution over ``dim``; ``hard=True`` returns one-hot
    vectors whose gradient is the soft sample's (straight-through).

    Example::

        >>> import fgrad.torch as torch
        >>> _ = torch.manual_seed(0)
        >>> gumbel_softmax(torch.zeros(3), hard=True).sum()
        tensor(1.)
    """
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    gumbels = -torch.empty_like(logits).exponential_().log()
    gumbels = (logits + gumbels) / tau
    y_soft = gumbels.softmax(dim)
    if hard:
        index = y_soft.max(dim, keepdim=True)[1]
        y_hard = torch.zeros_like(logits).scatter_(dim, index, 1.0)
        return y_hard - y_soft.detach() + y_soft
    return y_soft


def _alpha_dropout(input: Tensor, p: float, training: bool, inplace: bool, feature: bool) -> Tensor:
    if not isinstance(input, Tensor):
        name = "feature_alpha_dropout" if feature else "alpha_dropout"
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not training or input.numel() == 0:
        return input
    if p == 1:
        zero = torch.zeros((), dtype=input.dtype, device=input.device)
        return input.mul_(zero) if inplace else input * zero
    if feature:
        if input.dim() < 2:
            raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
        shape = tuple(input.shape[:2]) + (1,) * (input.dim() - 2)
    else:
        shape = tuple(input.shape)
    noise = torch.empty(shape, dtype=input.dtype, device=input.device).bernoulli_(1 - p)
    a = 1.0 / math.sqrt((_SELU_ALPHA * _SELU_ALPHA * p + 1) * (1 - p))
    b = noise.add(-1).mul_(_SELU_ALPHA * a).add_(_SELU_ALPHA * a * p)
    noise.mul_(a)
    return input.mul_(noise).add_(b) if inplace else (input * noise).add_(b)


def alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False) -> Tensor:
    """Dropout for SELU networks: dropped elements take SELU's negative saturation value and
    an affine map keeps the mean and variance.

    Example::

        >>> import fgrad.torch as torch
        >>> alpha_dropout(torch.ones(2), 0.2, training=False)
        tensor([1., 1.])
    """
    return _alpha_dropout(input, p, training, inplace, False)


def feature_alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False,
                          inplace: bool = False) -> Tensor:
    """Alpha dropout of whole channels (one draw per (N, C)).

    Example::

        >>> import fgrad.torch as torch
        >>> feature_alpha_dropout(torch.ones(1, 2, 2), 0.2, training=False).shape
        torch.Size([1, 2, 2])
    """
    return _alpha_dropout(input, p, training, inplace, True)


def _rrelu_noise(input: Tensor, lower: float, upper: float) -> Tensor:
    """1 for positive elements, a ``U(lower, upper)`` double draw per non-positive element
    (memory order), in ``input``'s dtype."""
    xb = np.asarray(_dev.to_host(_buf(input.contiguous())))
    neg = xb <= 0
    eng = _random._grng(None, _buf(input))
    draws = eng.uniform(int(neg.sum()), np.float64, lower, upper)
    noise = np.ones(xb.shape, xb.dtype)
    noise[neg] = draws.astype(xb.dtype)
    return torch.tensor(noise, device=input.device)


def rrelu(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False,
          inplace: bool = False) -> Tensor:
    """Randomized leaky ReLU: a random slope in [lower, upper] per non-positive element when
    training, the mean slope otherwise.

    Example::

        >>> import fgrad.torch as torch
        >>> rrelu(torch.tensor([-2.0, 1.0]), 0.25, 0.25, training=True)
        tensor([-0.5000,  1.0000])
    """
    if not training:
        import fgrad.torch.nn.functional as F
        return F.leaky_relu(input, (lower + upper) / 2, inplace)
    noise = _rrelu_noise(input, lower, upper)
    return input.mul_(noise) if inplace else input * noise


def rrelu_(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False) -> Tensor:
    """In-place ``rrelu``.

    Example::

        >>> import fgrad.torch as torch
        >>> rrelu_(torch.tensor([-2.0, 1.0]), 0.25, 0.25)
        tensor([-0.5000,  1.0000])
    """
    return rrelu(input, lower, upper, training, inplace=True)
