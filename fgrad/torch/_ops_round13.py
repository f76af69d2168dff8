"""Top-level PyTorch functions real code reaches for that the shim lacked (round 13): the
``sym_*`` helpers of size arithmetic (plain Python numbers here: fgrad has no symbolic
sizes), the ``native_*`` normalization and dropout entry points that also return what their
backward saves, in-place and feature dropout variants, ``as_strided_scatter``,
``get_device_module``, ``set_anomaly_enabled``, ``is_distributed``, ``_assert`` (round 23:
torchvision's models check shapes with it) and ``Tensor.new_empty_strided``.  Each is written
with the shim's own functions, so gradients, dtypes and the random stream are those of the
functions it composes.

Example::

    >>> import fgrad.torch as torch
    >>> out, mean, rstd = torch.native_layer_norm(torch.tensor([[1.0, 3.0]]), [2], None, None, 1e-5)
    >>> mean.tolist(), out.shape
    ([[2.0]], torch.Size([1, 2]))
"""

from __future__ import annotations

import builtins
import math
from collections.abc import Sequence
from typing import Any

import fgrad.torch as torch

from ._tensor import Tensor

Number = int | float | bool


def _promoted(a: Number, b: Number, value: Number) -> Number:
    return float(value) if isinstance(a, float) or isinstance(b, float) else value


def sym_int(a: Any) -> int:
    """``int(a)`` truncating toward zero (a size expression's value; fgrad's sizes are ints).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.sym_int(-3.7)
        -3
    """
    return math.trunc(a) if isinstance(a, float) else int(a)


def sym_float(a: Any) -> float:
    """``float(a)``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.sym_float(3)
        3.0
    """
    return float(a)


def sym_max(a: Number, b: Number) -> Number:
    """The larger of two numbers, a float when either is (PyTorch's promotion).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.sym_max(2.0, 5), torch.sym_max(2, 5)
        (5.0, 5)
    """
    return _promoted(a, b, builtins.max(a, b))


def sym_min(a: Number, b: Number) -> Number:
    """The smaller of two numbers, a float when either is.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.sym_min(2.0, 5)
        2.0
    """
    return _promoted(a, b, builtins.min(a, b))


def sym_not(a: Any) -> bool:
    """``not a``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.sym_not(True)
        False
    """
    return not a


def sym_sqrt(a: Number) -> float:
    """``math.sqrt(a)``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.sym_sqrt(4)
        2.0
    """
    return math.sqrt(a)


def sym_sum(args: Sequence[Number]) -> Number:
    """The sum of a sequence of numbers.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.sym_sum([1, 2, 3])
        6
    """
    return builtins.sum(args)


def sym_ite(b: Any, t: Any, f: Any) -> Any:
    """``t if b else f``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.sym_ite(False, 1, 2)
        2
    """
    return t if b else f


def _number(fn: str, size: Any) -> None:
    if isinstance(size, bool) or not isinstance(size, (int, float)):
        raise TypeError(f"{fn}(): argument 'size' (position 1) must be Number, not {type(size).__name__}")


def sym_constrain_range(size: int, *, min: int | None = None, max: int | None = None) -> None:
    """A no-op for a concrete size (PyTorch constrains symbolic sizes for ``torch.export``).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.sym_constrain_range(5, min=2, max=10)
    """
    _number("sym_constrain_range", size)


def sym_constrain_range_for_size(size: int, *, min: int | None = None, max: int | None = None) -> None:
    """A no-op for a concrete size (see `sym_constrain_range`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.sym_constrain_range_for_size(5)
    """
    _number("sym_constrain_range_for_size", size)


def _norm_stats(x: Tensor, dims: tuple[int, ...], eps: float) -> tuple[Tensor, Tensor]:
    """Mean and reciprocal standard deviation (biased variance) over ``dims``, kept."""
    var, mean = torch.var_mean(x, dim=dims, unbiased=False, keepdim=True)
    return mean, torch.rsqrt(var + eps)


def native_layer_norm(input: Tensor, normalized_shape: Sequence[int], weight: Tensor | None,
                      bias: Tensor | None, eps: float) -> tuple[Tensor, Tensor, Tensor]:
    """``(layer_norm(input), mean, rstd)``: the statistics over the last
    ``len(normalized_shape)`` dimensions, kept as size-1 dimensions (what backward saves).

    Example::

        >>> import fgrad.torch as torch
        >>> _, mean, rstd = torch.native_layer_norm(torch.ones(2, 3), [3], None, None, 1e-5)
        >>> mean.shape, rstd.shape
        (torch.Size([2, 1]), torch.Size([2, 1]))
    """
    shape = tuple(normalized_shape)
    out = torch.nn.functional.layer_norm(input, shape, weight, bias, eps)
    dims = tuple(range(input.dim() - len(shape), input.dim()))
    mean, rstd = _norm_stats(input.detach(), dims, eps)
    return out, mean, rstd


def native_batch_norm(input: Tensor, weight: Tensor | None, bias: Tensor | None,
                      running_mean: Tensor | None, running_var: Tensor | None, training: bool,
                      momentum: float, eps: float) -> tuple[Tensor, Tensor, Tensor]:
    """``(batch_norm(input), save_mean, save_invstd)``: in training, the batch's per-channel
    mean and 1/sqrt(biased var + eps) (running statistics updated in place as
    ``F.batch_norm`` does); in evaluation, two empty tensors.

    Example::

        >>> import fgrad.torch as torch
        >>> out, m, s = torch.native_batch_norm(torch.tensor([[1.0], [3.0]]), None, None,
        ...                                     None, None, True, 0.1, 0.0)
        >>> out.tolist(), m.tolist(), s.tolist()
        ([[-1.0], [1.0]], [2.0], [1.0])
    """
    out = torch.nn.functional.batch_norm(input, running_mean, running_var, weight, bias,
                                         training, momentum, eps)
    if not training:
        empty = torch.empty(0, dtype=input.dtype)
        return out, empty, empty.clone()
    dims = (0, *range(2, input.dim()))
    mean, rstd = _norm_stats(input.detach(), dims, eps)
    return out, mean.reshape(-1), rstd.reshape(-1)


def native_group_norm(input: Tensor, weight: Tensor | None, bias: Tensor | None, N: int, C: int,
                      HxW: int, group: int, eps: float) -> tuple[Tensor, Tensor, Tensor]:
    """``(group_norm(input), mean, rstd)`` with the statistics of shape ``(N, group)``.

    Example::

        >>> import fgrad.torch as torch
        >>> _, mean, rstd = torch.native_group_norm(torch.ones(2, 4, 3), None, None, 2, 4, 3, 2, 1e-5)
        >>> mean.shape
        torch.Size([2, 2])
    """
    out = torch.nn.functional.group_norm(input, group, weight, bias, eps)
    grouped = input.detach().reshape(N, group, (C // group) * HxW)
    mean, rstd = _norm_stats(grouped, (2,), eps)
    return out, mean.reshape(N, group), rstd.reshape(N, group)


def native_dropout(input: Tensor, p: float, train: bool | None) -> tuple[Tensor, Tensor]:
    """``(output, mask)``: in training, ``F.dropout``'s output (the same draws) and the boolean
    mask of kept elements; otherwise the input (itself) and an all-True mask.

    Example::

        >>> import fgrad.torch as torch
        >>> out, mask = torch.native_dropout(torch.ones(3), 0.5, False)
        >>> mask.tolist()
        [True, True, True]
    """
    if not train:
        return input, torch.ones_like(input, dtype=torch.bool)
    if p >= 1:
        return input * 0, torch.zeros_like(input, dtype=torch.bool)
    mask = torch.empty_like(input).bernoulli_(1 - p)
    return input * mask * (1.0 / (1 - p)), mask.to(torch.bool)


def dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    """In-place `dropout` (``F.dropout(input, p, train, inplace=True)``).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.dropout_(torch.ones(2), 0.5, False).tolist()
        [1.0, 1.0]
    """
    return torch.nn.functional.dropout(input, p, train, inplace=True)


def feature_dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """Dropout of whole channels (``F.dropout2d``-style: dimension 1, one draw per
    (batch, channel)).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.feature_dropout(torch.ones(1, 2, 3), 0.5, False).shape
        torch.Size([1, 2, 3])
    """
    return _feature_dropout(input, p, train, inplace=False)


def feature_dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    """In-place `feature_dropout`.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.feature_dropout_(torch.ones(1, 2, 3), 0.5, False).shape
        torch.Size([1, 2, 3])
    """
    return _feature_dropout(input, p, train, inplace=True)


def _feature_dropout(input: Tensor, p: float, train: bool, inplace: bool) -> Tensor:
    # channels are dimension 1 whatever the rank: F.dropout2d's rule with every dim after it spatial
    return torch.nn.functional._feature_dropout(input, p, train, inplace, input.dim() - 2, "feature_dropout")


def alpha_dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    """In-place `alpha_dropout`.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.alpha_dropout_(torch.ones(2), 0.5, False).tolist()
        [1.0, 1.0]
    """
    return torch.nn.functional.alpha_dropout(input, p, train, inplace=True)


def feature_alpha_dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    """In-place `feature_alpha_dropout`.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.feature_alpha_dropout_(torch.ones(1, 2, 2), 0.5, False).shape
        torch.Size([1, 2, 2])
    """
    return torch.nn.functional.feature_alpha_dropout(input, p, train, inplace=True)


def as_strided_scatter(input: Tensor, src: Tensor, size: Sequence[int], stride: Sequence[int],
                       storage_offset: int | None = None) -> Tensor:
    """A copy of ``input`` with the elements that ``input.as_strided(size, stride,
    storage_offset)`` would view replaced by ``src`` (differentiable in both).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.as_strided_scatter(torch.zeros(4), torch.ones(2), (2,), (2,)).tolist()
        [1.0, 0.0, 1.0, 0.0]
    """
    out = input.clone()
    out.as_strided(size, stride, storage_offset).copy_(src)
    return out


def get_device_module(device: Any = None) -> Any:
    """The module of a device type: ``torch.cpu`` for the CPU (and no argument: the current
    accelerator if one is available, else the CPU), ``torch.cuda`` for "cuda".

    Example::

        >>> import fgrad.torch as torch
        >>> torch.get_device_module("cpu").__name__
        'fgrad.torch.cpu'
    """
    if device is None:
        kind = "cuda" if torch.cuda.is_available() else "cpu"
    else:
        kind = device.type if isinstance(device, torch.device) else str(device).split(":")[0]
    if kind == "cpu":
        return torch.cpu
    if kind == "cuda":
        return torch.cuda
    raise RuntimeError(f"Device '{kind}' does not have a corresponding module registered as 'torch.{kind}'.")


def set_anomaly_enabled(enabled: bool, check_nan: bool = True) -> None:
    """Turn anomaly detection on or off (the switch under ``torch.autograd.set_detect_anomaly``).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.set_anomaly_enabled(False)
        >>> torch.is_anomaly_enabled()
        False
    """
    if not isinstance(enabled, bool):
        raise TypeError(f"set_anomaly_enabled(): argument 'enabled' (position 1) must be bool, not "
                        f"{type(enabled).__name__}")
    torch.autograd.set_detect_anomaly(enabled, check_nan)


def is_distributed(input: Tensor) -> bool:
    """False: a tensor is never distributed in fgrad.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.is_distributed(torch.ones(2))
        False
    """
    return input.is_distributed()


def _new_empty_strided(self: Tensor, size: Sequence[int], stride: Sequence[int], *, dtype: Any = None,
                       device: Any = None, requires_grad: bool = False, layout: Any = None,
                       pin_memory: bool = False) -> Tensor:
    """A new uninitialized tensor of ``size`` and ``stride``, with ``self``'s dtype and device
    unless given.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.ones(2).new_empty_strided((2, 3), (1, 2)).stride()
        (1, 2)
    """
    return torch.empty_strided(size, stride, dtype=dtype if dtype is not None else self.dtype,
                               device=device if device is not None else self.device,
                               requires_grad=requires_grad)


def _assert(condition: Any, message: str) -> None:
    """Raise ``AssertionError(message)`` unless ``condition`` is true (a one-element tensor
    counts by its value; a larger one raises PyTorch's ambiguity error): the traceable
    ``assert`` model code uses, e.g. ``torch._assert(x.dim() == 3, "expected (N, S, E)")``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch._assert(torch.tensor(2) > 1, "too small") is None
        True
    """
    if not condition:
        raise AssertionError(message)


FUNCTIONS = {f.__name__: f for f in (
    sym_int, sym_float, sym_max, sym_min, sym_not, sym_sqrt, sym_sum, sym_ite, sym_constrain_range,
    sym_constrain_range_for_size, native_layer_norm, native_batch_norm, native_group_norm,
    native_dropout, dropout_, feature_dropout, feature_dropout_, alpha_dropout_,
    feature_alpha_dropout_, as_strided_scatter, get_device_module, set_anomaly_enabled, is_distributed,
    _assert)}
METHODS = {"new_empty_strided": _new_empty_strided}
