"""Fake quantization for quantization-aware training: ``torch.fake_quantize_per_tensor_affine``
and ``torch.fake_quantize_per_channel_affine``.  The forward rounds to the integer grid and
back, ``(clamp(rint(x * (1 / scale)) + zero_point, quant_min, quant_max) - zero_point) * scale``,
with PyTorch's arithmetic: the reciprocal of the float32 scale in float32, the product in the
input's precision (float32 for float16/bfloat16), the dequantized value in float32, cast to
the input's dtype; a floating per-channel zero point is added before rounding and the result
dequantized in the input's precision, as PyTorch's.
The gradient is the straight-through estimator: the incoming gradient where the rounded value
fell inside ``[quant_min, quant_max]``, zero where it was clamped (differentiable again: the
mask is a constant).  Scale and zero point get no gradient, as in PyTorch.

Example::

    >>> import fgrad.torch as torch
    >>> x = torch.tensor([-1.0, 0.26, 0.9], requires_grad=True)
    >>> y = torch.fake_quantize_per_tensor_affine(x, 0.1, 3, 0, 8)
    >>> y.sum().backward()
    >>> [round(v, 4) for v in y.tolist()], x.grad.tolist()
    ([-0.3, 0.3, 0.5], [0.0, 1.0, 0.0])
"""

from __future__ import annotations

from typing import Any

import numpy as np

import fgrad.torch as torch

from ._tensor import Tensor

_NARROW = ("float16", "bfloat16")


def _check_range(quant_min: int, quant_max: int, zero_points: Tensor | int) -> None:
    # (PyTorch's first message has a stray run of spaces after "or"; fgrad's does not)
    if quant_min > quant_max:
        raise RuntimeError("`quant_min` should be less than or equal to `quant_max`.")
    zp = torch.as_tensor(zero_points)
    if bool(((zp < quant_min) | (zp > quant_max)).any()):
        raise RuntimeError("`zero_point` must be between `quant_min` and `quant_max`.")


def _check_input(x: Tensor, name: str) -> None:
    if not isinstance(x, Tensor):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(x).__name__}")
    if not x.is_floating_point():
        raise NotImplementedError(f'"{name}" not implemented for {x.dtype._legacy!r}: fake quantization '
                                  f"takes a floating-point input (convert it with .float())")


def _round_trip(x: Tensor, inv_scale: Tensor, scale: Tensor, zero_point: Tensor, float_zero_point: bool,
                quant_min: int, quant_max: int) -> tuple[Tensor, Tensor]:
    """The fake-quantized ``x`` and the mask of the elements not clamped (no autograd)."""
    work = x.float() if str(x.dtype).removeprefix("torch.") in _NARROW else x
    scaled = work * inv_scale.to(work.dtype)
    if float_zero_point:
        q = torch.round(scaled + zero_point.to(work.dtype))
    else:
        q = torch.round(scaled) + zero_point.to(work.dtype)
    mask = (q >= quant_min) & (q <= quant_max)
    level = q.clamp(quant_min, quant_max) - zero_point.to(work.dtype)
    # an integer zero point dequantizes in float32, a floating one in the input's precision
    out = level * scale.to(work.dtype) if float_zero_point else level.float() * scale.float()
    return out.to(x.dtype), mask


class FakeQuantizeCachemask(torch.autograd.Function):
    """The straight-through fake quantization: forward by `_round_trip`, backward the gradient
    where the value was not clamped."""

    @staticmethod
    def forward(ctx: Any, x: Tensor, inv_scale: Tensor, scale: Tensor, zero_point: Tensor,
                float_zero_point: bool, quant_min: int, quant_max: int) -> Tensor:
        out, mask = _round_trip(x, inv_scale, scale, zero_point, float_zero_point, quant_min, quant_max)
        ctx.save_for_backward(mask)
        return out

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        (mask,) = ctx.saved_tensors
        return grad * mask.to(grad.dtype), None, None, None, None, None, None


def _reciprocal32(scale: Tensor) -> Tensor:
    return (torch.ones((), dtype=torch.float32) / scale.float())


def fake_quantize_per_tensor_affine(input: Tensor, scale: float | Tensor, zero_point: int | Tensor,
                                    quant_min: int, quant_max: int) -> Tensor:
    """``input`` quantized to ``quant_min..quant_max`` with one ``scale`` and ``zero_point``
    and dequantized again; the gradient passes where no clamping happened (straight-through).
    ``scale``/``zero_point`` may be Python numbers or one-element tensors (a floating zero
    point tensor is truncated to an integer, as PyTorch's).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.fake_quantize_per_tensor_affine(torch.tensor([0.5, 1.5, 2.5, 9.0]), 1.0, 0, -8, 7).tolist()
        [0.0, 2.0, 2.0, 7.0]
    """
    name = "fake_quantize_per_tensor_affine"
    _check_input(input, name)
    scale_value = scale.item() if isinstance(scale, Tensor) else float(scale)
    zp_value = int(zero_point.item()) if isinstance(zero_point, Tensor) else int(zero_point)
    _check_range(quant_min, quant_max, zp_value)
    scale32 = torch.tensor(np.float32(scale_value))
    return FakeQuantizeCachemask.apply(input, _reciprocal32(scale32), scale32,
                                       torch.tensor(zp_value, dtype=torch.int32), False, quant_min, quant_max)


def fake_quantize_per_channel_affine(input: Tensor, scale: Tensor, zero_point: Tensor, axis: int,
                                     quant_min: int, quant_max: int) -> Tensor:
    """``input`` fake-quantized with one ``scale[c]`` and ``zero_point[c]`` per index ``c`` of
    dimension ``axis`` (a weight's output channels): ``scale`` float32 or bfloat16,
    ``zero_point`` int32 (added after rounding) or float/half (added before, as learnable
    quantizers use); the gradient is straight-through where nothing was clamped.

    Example::

        >>> import fgrad.torch as torch
        >>> w = torch.tensor([[0.26, -0.9], [0.26, -0.9]])
        >>> s = torch.tensor([0.1, 0.5])
        >>> torch.fake_quantize_per_channel_affine(w, s, torch.zeros(2, dtype=torch.int32), 0, -4, 3).tolist()
        [[0.30000001192092896, -0.4000000059604645], [0.5, -1.0]]
    """
    name = "fake_quantize_per_channel_affine"
    _check_input(input, name)
    sdt, zdt = str(scale.dtype).removeprefix("torch."), str(zero_point.dtype).removeprefix("torch.")
    if sdt not in ("float32", "bfloat16"):
        raise RuntimeError(f"Scale must be Float or BFloat16, found {scale.dtype._legacy}")
    if zdt not in ("int32", "float32", "float16"):
        raise RuntimeError(f"Zero-point must be Int32, Float or Half, found {zero_point.dtype._legacy}")
    if scale.dim() != 1:
        raise RuntimeError("scale should be a 1-D tensor")
    if zero_point.dim() != 1:
        raise RuntimeError("zero point should be a 1-D tensor")
    if axis < 0:
        raise RuntimeError("`axis` must be between 0 and number of dimensions of input")
    if axis >= input.dim():
        raise IndexError(f"Dimension out of range (expected to be in range of [{-max(input.dim(), 1)}, "
                         f"{max(input.dim(), 1) - 1}], but got {axis})")
    if scale.numel() != input.size(axis) or zero_point.numel() != input.size(axis):
        raise RuntimeError("dimensions of scale and zero-point are not consistent with input tensor")
    _check_range(quant_min, quant_max, zero_point)
    shape = [1] * input.dim()
    shape[axis] = -1
    scale32 = scale.detach().float().reshape(shape)
    zero_points = zero_point.detach().reshape(shape)
    return FakeQuantizeCachemask.apply(input, _reciprocal32(scale32), scale32, zero_points, zdt != "int32",
                                       quant_min, quant_max)


FUNCTIONS = {f.__name__: f for f in (fake_quantize_per_tensor_affine, fake_quantize_per_channel_affine)}
METHODS: dict = {}
