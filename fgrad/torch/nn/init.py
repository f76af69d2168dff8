"""``torch.nn.init``: in-place initialisers and PyTorch's fan/gain rules.

Example::

    >>> import fgrad.torch as torch
    >>> w = torch.empty(3, 5)
    >>> _ = torch.nn.init.kaiming_uniform_(w, a=5 ** 0.5)   # Linear's default
    >>> bool((w.abs() <= 1 / 5 ** 0.5).all())
    True
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import fgrad.torch as torch

from .._tensor import Tensor

__all__ = [
    "calculate_gain", "uniform_", "normal_", "trunc_normal_", "constant_", "ones_", "zeros_", "eye_",
    "dirac_", "xavier_uniform_", "xavier_normal_", "kaiming_uniform_", "kaiming_normal_", "orthogonal_",
    "sparse_", "uniform", "normal", "constant", "xavier_uniform", "xavier_normal", "kaiming_uniform",
    "kaiming_normal"
]


def _no_grad_warn_empty(tensor: Tensor) -> bool:
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=3)
        return True
    return False


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    """The recommended gain for ``nonlinearity`` (PyTorch's table).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.init.calculate_gain('relu'), torch.nn.init.calculate_gain('leaky_relu', 0.2)
        (1.4142135623730951, 1.3867504905630728)
    """
    linear_fns = ["linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                  "conv_transpose3d"]
    if nonlinearity in linear_fns or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, (int, float)):
            negative_slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    dimensions = tensor.dim()
    if dimensions < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    num_input_fmaps = tensor.size(1)
    num_output_fmaps = tensor.size(0)
    receptive_field_size = 1
    for s in tensor.shape[2:]:
        receptive_field_size *= s
    return num_input_fmaps * receptive_field_size, num_output_fmaps * receptive_field_size


def _calculate_correct_fan(tensor: Tensor, mode: str) -> int:
    mode = mode.lower()
    valid_modes = ["fan_in", "fan_out"]
    if mode not in valid_modes:
        raise ValueError(f"Mode {mode} not supported, please use one of {valid_modes}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def _gen(generator) -> dict:
    return {} if generator is None else {"generator": generator}


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0,
             generator: torch.Generator | None = None) -> Tensor:
    """Fill with U(a, b).

    Example::

        >>> import fgrad.torch as torch
        >>> _ = torch.manual_seed(0)
        >>> torch.nn.init.uniform_(torch.empty(3), -1.0, 1.0)
        tensor([-0.0075,  0.5364, -0.8230])
    """
    with torch.no_grad():
        return tensor.uniform_(a, b, **_gen(generator))


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0,
            generator: torch.Generator | None = None) -> Tensor:
    """Fill with N(mean, std**2).

    Example::

        >>> import fgrad.torch as torch
        >>> _ = torch.manual_seed(0)
        >>> torch.nn.init.normal_(torch.empty(3), mean=0.0, std=0.1)
        tensor([ 0.1541, -0.0293, -0.2179])
    """
    with torch.no_grad():
        return tensor.normal_(mean, std, **_gen(generator))


def trunc_normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, a: float = -2.0, b: float = 2.0,
                  generator: torch.Generator | None = None) -> Tensor:
    """Fill with N(mean, std**2) truncated to [a, b] by rejection, drawing as PyTorch 2.13 does
    (so seeded fills are PyTorch's): when [a, b] holds more than 30% of the mass, normals are
    redrawn where they fall outside; otherwise uniform proposals on [a, b] are accepted with
    probability pdf / pdf(mode).

    Example::

        >>> _ = torch.manual_seed(0)
        >>> trunc_normal_(torch.empty(5))
        tensor([ 1.5410, -0.2934,  0.8380,  0.5684, -1.0845])
    """
    def norm_cdf(x):
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    if (mean < a - 2 * std) or (mean > b + 2 * std):
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The distribution of "
                      "values may be incorrect.", stacklevel=2)
    gen = _gen(generator)
    with torch.no_grad():
        if norm_cdf((b - mean) / std) - norm_cdf((a - mean) / std) > 0.3:
            lo, hi = tensor.new_tensor(a).item(), tensor.new_tensor(b).item()  # the dtype's bounds
            result = tensor.normal_(mean, std, **gen)
            while True:
                outside = (result < lo) | (result > hi)
                if not outside.any():
                    break
                result = torch.where(outside, torch.empty_like(result).normal_(mean, std, **gen), result)
            if result is not tensor:
                tensor.copy_(result)
            return tensor
        log_peak = -0.5 * ((max(a, min(mean, b)) - mean) / std) ** 2

        def rejected(proposals):
            log_pdf = (proposals - mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)
            return torch.empty_like(tensor).uniform_(**gen).log_().gt(log_pdf)

        tensor.uniform_(a, b, **gen)
        pending = rejected(tensor.clone())
        result = tensor
        while pending.any():
            proposals = torch.empty_like(tensor).uniform_(a, b, **gen)
            result = torch.where(pending, proposals, result)
            pending = torch.where(pending, rejected(proposals), pending)
        if result is not tensor:
            tensor.copy_(result)
        return tensor


def constant_(tensor: Tensor, val: float) -> Tensor:
    """Fills ``tensor`` with ``val`` in place (no gradient recorded) and returns it.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.init.constant_(torch.empty(3), 0.5)
        tensor([0.5000, 0.5000, 0.5000])
    """

    with torch.no_grad():
        return tensor.fill_(val)


def ones_(tensor: Tensor) -> Tensor:
    """Fills ``tensor`` with ones in place (no gradient recorded) and returns it.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.init.ones_(torch.empty(2, 2))
        tensor([[1., 1.],
                [1., 1.]])
    """

    with torch.no_grad():
        return tensor.fill_(1)


def zeros_(tensor: Tensor) -> Tensor:
    """Fills ``tensor`` with zeros in place (no gradient recorded) and returns it.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.init.zeros_(torch.empty(3))
        tensor([0., 0., 0.])
    """

    with torch.no_grad():
        return tensor.zero_()


def eye_(tensor: Tensor) -> Tensor:
    """Fill a 2-D tensor with the identity.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.init.eye_(torch.empty(2, 3))
        tensor([[1., 0., 0.],
                [0., 1., 0.]])
    """
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with torch.no_grad():
        tensor.copy_(torch.eye(*tensor.shape, dtype=tensor.dtype))
    return tensor


def dirac_(tensor: Tensor, groups: int = 1) -> Tensor:
    """Fill a {3,4,5}-D conv weight with the Dirac delta (identity convolution).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.init.dirac_(torch.empty(2, 2, 3))
        tensor([[[0., 1., 0.],
                 [0., 0., 0.]],
        <BLANKLINE>
                [[0., 0., 0.],
                 [0., 1., 0.]]])
    """
    dimensions = tensor.dim()
    if dimensions not in [3, 4, 5]:
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.size()
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    out_chans_per_grp = sizes[0] // groups
    min_dim = min(out_chans_per_grp, sizes[1])
    with torch.no_grad():
        tensor.zero_()
        for g in range(groups):
            for d in range(min_dim):
                idx = (g * out_chans_per_grp + d, d) + tuple(s // 2 for s in sizes[2:])
                tensor[idx] = 1
    return tensor


def xavier_uniform_(tensor: Tensor, gain: float = 1.0, generator: torch.Generator | None = None) -> Tensor:
    """U(-a, a) with ``a = gain * sqrt(6 / (fan_in + fan_out))``.

    Example::

        >>> import fgrad.torch as torch
        >>> _ = torch.manual_seed(0)
        >>> torch.nn.init.xavier_uniform_(torch.empty(2, 3))
        tensor([[-0.0082,  0.5876, -0.9016],
                [-0.8062, -0.4219,  0.2938]])
    """
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return uniform_(tensor, -a, a, generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator: torch.Generator | None = None) -> Tensor:
    """N(0, std**2) with ``std = gain * sqrt(2 / (fan_in + fan_out))``.

    Example::

        >>> import fgrad.torch as torch
        >>> _ = torch.manual_seed(0)
        >>> torch.nn.init.xavier_normal_(torch.empty(2, 3))
        tensor([[ 0.9746, -0.1856, -1.3780],
                [ 0.3595, -0.6859, -0.8845]])
    """
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator)


def kaiming_uniform_(tensor: Tensor, a: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu",
                     generator: torch.Generator | None = None) -> Tensor:
    """U(-bound, bound) with ``bound = gain * sqrt(3 / fan)`` (He et al.).

    Example::

        >>> import fgrad.torch as torch
        >>> _ = torch.manual_seed(0)
        >>> torch.nn.init.kaiming_uniform_(torch.empty(2, 3), nonlinearity='relu')
        tensor([[-0.0106,  0.7586, -1.1640],
                [-1.0408, -0.5447,  0.3792]])
    """
    if _no_grad_warn_empty(tensor):
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    std = gain / math.sqrt(fan)
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor: Tensor, a: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu",
                    generator: torch.Generator | None = None) -> Tensor:
    """N(0, std**2) with ``std = gain / sqrt(fan)``.

    Example::

        >>> import fgrad.torch as torch
        >>> _ = torch.manual_seed(0)
        >>> torch.nn.init.kaiming_normal_(torch.empty(2, 3), mode='fan_out')
        tensor([[ 1.5410, -0.2934, -2.1788],
                [ 0.5684, -1.0845, -1.3986]])
    """
    if _no_grad_warn_empty(tensor):
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    std = gain / math.sqrt(fan)
    return normal_(tensor, 0.0, std, generator)


def orthogonal_(tensor: Tensor, gain: float = 1.0, generator: torch.Generator | None = None) -> Tensor:
    """A (semi-)orthogonal matrix from the QR decomposition of a Gaussian one.

    Example::

        >>> import fgrad.torch as torch
        >>> w = torch.nn.init.orthogonal_(torch.empty(3, 3))
        >>> torch.allclose(w @ w.T, torch.eye(3), atol=1e-6)
        True
    """
    if tensor.ndimension() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.size(0)
    cols = tensor.numel() // rows
    flattened = torch.empty(rows, cols, dtype=tensor.dtype).normal_(0, 1, **_gen(generator))
    if rows < cols:
        flattened = flattened.t()
    q, r = torch.linalg.qr(flattened)
    d = torch.diagonal(r, 0)
    q = q * d.sign()
    if rows < cols:
        q = q.t()
    with torch.no_grad():
        tensor.view_as(q).copy_(q)
        tensor.mul_(gain)
    return tensor


def sparse_(tensor: Tensor, sparsity: float, std: float = 0.01,
            generator: torch.Generator | None = None) -> Tensor:
    """Each column gets ``ceil(sparsity * rows)`` zeros, the rest N(0, std**2).

    Example::

        >>> import fgrad.torch as torch
        >>> w = torch.nn.init.sparse_(torch.empty(4, 3), sparsity=0.5)
        >>> (w == 0).sum(0)
        tensor([2, 2, 2])
    """
    if tensor.ndimension() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    num_zeros = int(math.ceil(sparsity * rows))
    with torch.no_grad():
        tensor.normal_(0, std, **_gen(generator))
        for col_idx in range(cols):
            row_indices = torch.randperm(rows)
            zero_indices = row_indices[:num_zeros]
            tensor[zero_indices, col_idx] = 0
    return tensor


def _deprecated(new):
    def f(*args: Any, **kwargs: Any) -> Tensor:
        warnings.warn(f"`nn.init.{new.__name__[:-1]}` is now deprecated in favor of "
                      f"`nn.init.{new.__name__}`.",
                      FutureWarning, stacklevel=2)
        return new(*args, **kwargs)

    f.__name__ = new.__name__[:-1]
    value = {"constant_": ", 0.5", "sparse_": ", 0.5"}.get(new.__name__, "")
    shape = "2, 3, 3" if new.__name__ == "dirac_" else "2, 3"
    f.__doc__ = f"""Deprecated spelling of `{new.__name__}`: warns (a ``FutureWarning``) and calls it.

    Example::

        >>> import warnings
        >>> import fgrad.torch as torch
        >>> with warnings.catch_warnings(record=True) as caught:
        ...     warnings.simplefilter("always")
        ...     w = torch.nn.init.{f.__name__}(torch.empty({shape}){value})
        >>> w.shape, caught[0].category.__name__
        (torch.Size([{shape}]), 'FutureWarning')
    """
    return f


uniform = _deprecated(uniform_)
normal = _deprecated(normal_)
constant = _deprecated(constant_)
xavier_uniform = _deprecated(xavier_uniform_)
xavier_normal = _deprecated(xavier_normal_)
kaiming_uniform = _deprecated(kaiming_uniform_)
kaiming_normal = _deprecated(kaiming_normal_)
eye = _deprecated(eye_)
dirac = _deprecated(dirac_)
orthogonal = _deprecated(orthogonal_)
sparse = _deprecated(sparse_)
