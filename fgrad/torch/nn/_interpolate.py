"""``F.interpolate`` and ``F.pixel_shuffle``/``pixel_unshuffle`` with PyTorch's semantics.

Every interpolation mode is separable: the output is one `fgrad.ops.resample.AxisMap` per
spatial axis, applied in turn (``resample``: a gather and a weighted sum over 1, 2 or 4 taps,
or over an adaptive window for ``area``).  The maps reproduce PyTorch's CPU kernels
(``aten/src/ATen/native/UpSample.h``): the source coordinate of output ``j`` is
``scale * (j + 0.5) - 0.5`` (``scale * j`` with ``align_corners=True``), computed in the
input's floating type (float32 for float16/float32 inputs) with ``scale = 1 / scale_factor``
when a scale factor is given and not recomputed, ``in / out`` otherwise; linear modes clamp a
negative coordinate to 0 and the second tap to the last pixel; cubic uses Keys' kernel with
``A = -0.75`` and clamps the four taps to the border; nearest is ``floor(j * scale)`` in
float32 (``j // 2`` for an exact 2x), nearest-exact ``floor((j + 0.5) * scale)``; area is
adaptive average pooling.  The gradient is the transposed map, also a gather (see
``fgrad/ops/resample.py``).

Example::

    >>> import fgrad.torch as torch
    >>> import fgrad.torch.nn.functional as F
    >>> F.interpolate(torch.tensor([[[1.0, 2.0]]]), scale_factor=2, mode="linear")
    tensor([[[1.0000, 1.2500, 1.7500, 2.0000]]])
"""

from __future__ import annotations

import math
import numbers
import warnings

import numpy as np

import fgrad.numpy as fnp
from fgrad.ops.resample import AxisMap, resample
import fgrad.torch._fma as _fma
from fgrad.torch._conventions import mean

from .._tensor import Tensor
from ._defop import buf, defop
from collections.abc import Sequence
from fgrad.torch.types import IntOrInts

_A = -0.75  # PyTorch's cubic convolution coefficient
_MODES = ("nearest", "linear", "bilinear", "bicubic", "trilinear", "area", "nearest-exact")
_INTERPOLATING = ("linear", "bilinear", "bicubic", "trilinear")
_NEEDS = {"linear": 3, "bilinear": 4, "bicubic": 4, "trilinear": 5}
_GRAD_FN = {
    "nearest": "UpsampleNearest{d}DBackward0",
    "nearest-exact": "UpsampleNearestExact{d}DBackward0",
    "linear": "UpsampleLinear1DBackward0",
    "bilinear": "UpsampleBilinear2DBackward0",
    "bicubic": "UpsampleBicubic2DBackward0",
    "trilinear": "UpsampleTrilinear3DBackward0",
}


def _compute_scale(ftype, in_size: int, out_size: int, align_corners: bool, scale) -> np.floating:
    """PyTorch's ``area_pixel_compute_scale`` in the accumulation type ``ftype``."""
    if align_corners:
        return ftype((in_size - 1) / (out_size - 1)) if out_size > 1 else ftype(0)
    if scale is not None and scale > 0:
        return ftype(1.0 / scale)
    return ftype(in_size) / ftype(out_size)


def _source_coords(ftype, in_size: int, out_size: int, align_corners: bool, scale, cubic: bool):
    s = _compute_scale(ftype, in_size, out_size, align_corners, scale)
    j = np.arange(out_size).astype(ftype)
    if align_corners:
        return s * j
    if np.dtype(ftype) != np.float32:
        src = s * (j + ftype(0.5)) - ftype(0.5)
    else:  # PyTorch's float32 ``scale * (j + 0.5) - 0.5`` rounds once, as a fused multiply-add
        # (1/3 * 1.5 - 0.5 is 1.5e-8, not 0, so a weight-0 tap becomes a tiny positive one)
        src = _fma.fma32(np.full(out_size, s, ftype), j + ftype(0.5), np.full(out_size, ftype(-0.5), ftype))
    return src if cubic else np.maximum(src, ftype(0))


def linear_map(in_size: int, out_size: int, align_corners: bool, scale, ftype) -> AxisMap:
    """PyTorch's two-tap linear interpolation along one axis.

    Example::

        >>> import fgrad.torch as torch
        >>> import numpy as np
        >>> from fgrad.torch.nn._interpolate import linear_map
        >>> linear_map(2, 4, False, None, np.float64).weight.tolist()
        [[1.0, 0.0], [0.75, 0.25], [0.25, 0.75], [0.75, 0.25]]
    """
    if out_size == in_size:  # PyTorch copies: both taps at the pixel itself, weights 1 and 0
        j = np.arange(out_size)
        return AxisMap(np.stack([j, j], axis=1), np.tile([1.0, 0.0], (out_size, 1)), in_size)
    src = _source_coords(ftype, in_size, out_size, align_corners, scale, cubic=False)
    i0 = np.minimum(np.floor(src).astype(np.int64), in_size - 1)
    lam = np.clip(src - i0.astype(ftype), 0, 1).astype(ftype)
    i1 = i0 + (i0 < in_size - 1)
    index = np.stack([i0, i1], axis=1)
    weight = np.stack([ftype(1) - lam, lam], axis=1).astype(np.float64)
    return AxisMap(index, weight, in_size)


def _cc1(x, a):
    return ((a + 2) * x - (a + 3)) * x * x + 1


def _cc2(x, a):
    return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a


def cubic_map(in_size: int, out_size: int, align_corners: bool, scale, ftype) -> AxisMap:
    """PyTorch's four-tap cubic convolution (``A = -0.75``), taps clamped to the border.

    Example::

        >>> import fgrad.torch as torch
        >>> import numpy as np
        >>> from fgrad.torch.nn._interpolate import cubic_map
        >>> cubic_map(4, 4, True, None, np.float64).weight[1].tolist()
        [0.0, 1.0, 0.0, 0.0]
    """
    src = _source_coords(ftype, in_size, out_size, align_corners, scale, cubic=True)
    i0 = np.minimum(np.floor(src).astype(np.int64), in_size - 1)
    t = np.clip(src - i0.astype(ftype), 0, 1).astype(ftype)
    a = ftype(_A)
    one = ftype(1)
    weight = np.stack([_cc2(t + one, a), _cc1(t, a), _cc1(one - t, a), _cc2((one - t) + one, a)], axis=1)
    index = np.clip(i0[:, None] + np.arange(-1, 3)[None, :], 0, in_size - 1)
    return AxisMap(index, weight.astype(np.float64), in_size)


def nearest_map(in_size: int, out_size: int, scale, exact: bool) -> AxisMap:
    """PyTorch's nearest (``floor(j * scale)``) or nearest-exact (``floor((j + 0.5) * scale)``)
    source pixel, in float32 as PyTorch computes it.

    Example::

        >>> import fgrad.torch as torch
        >>> import numpy as np
        >>> from fgrad.torch.nn._interpolate import nearest_map
        >>> nearest_map(3, 4, 1.5, exact=False).index.ravel().tolist()
        [0, 0, 1, 2]
    """
    j = np.arange(out_size)
    if not exact and out_size == in_size:
        index = j
    elif not exact and out_size == 2 * in_size:
        index = j >> 1
    else:
        s = (
            np.float32(1.0 / scale)
            if scale is not None and scale > 0
            else np.float32(in_size) / np.float32(out_size)
        )
        pos = (j.astype(np.float64) + 0.5) * np.float64(s) if exact else j.astype(np.float32) * s
        index = np.minimum(np.floor(pos.astype(np.float32)).astype(np.int64), in_size - 1)
    return AxisMap(index[:, None], np.ones((out_size, 1)), in_size)


def area_map(in_size: int, out_size: int) -> AxisMap:
    """Adaptive average pooling's window sums: output ``j`` sums
    ``[floor(j*in/out), ceil((j+1)*in/out))`` (narrower windows padded with padding taps).

    Example::

        >>> from fgrad.torch.nn._interpolate import area_map
        >>> area_map(5, 2).index.tolist(), area_map(5, 2).weight.tolist()
        ([[0, 1, 2], [2, 3, 4]], [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]])
    """
    starts, ends = _area_windows(in_size, out_size)
    width = int((ends - starts).max(initial=1))
    offsets = np.arange(width)[None, :]
    inside = starts[:, None] + offsets < ends[:, None]
    index = np.where(inside, starts[:, None] + offsets, -1)  # (-1: a padding tap, not summed)
    return AxisMap(index, inside.astype(np.float64), in_size)


def _area_windows(in_size: int, out_size: int):
    starts = (np.arange(out_size) * in_size) // out_size
    ends = -((-(np.arange(1, out_size + 1) * in_size)) // out_size)
    return starts, ends


def area_pool(input: Tensor, sizes: Sequence[int]) -> Tensor:
    """Adaptive average pooling of the last ``len(sizes)`` axes to ``sizes`` (PyTorch's
    ``adaptive_avg_pool1d/2d/3d`` and ``interpolate(mode="area")``): each window's sum divided
    by its size along each axis in turn (``sum / kh / kw``, as PyTorch's kernel); an output of
    size 1 along every axis is PyTorch's ``mean``.  A window sums only its own elements, so an
    infinity elsewhere does not reach it.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.nn._interpolate import area_pool
        >>> area_pool(torch.tensor([[1.0, float("inf"), 2.0, 4.0]]), [2])
        tensor([[inf, 3.]])
    """
    nd = len(sizes)
    dt = buf(input).dtype
    if all(o == 1 for o in sizes) and dt.kind == "f":
        axes = tuple(range(input.dim() - nd, input.dim()))
        return defop("MeanBackward1" if nd > 1 else "SqueezeBackward1", ("area_mean", axes),
                     lambda x: mean(x, axes, True), (input,))
    first = input.dim() - nd
    steps = tuple((first + i, area_map(n, o)) for i, (n, o) in enumerate(zip(input.shape[first:], sizes)))
    counts = []
    for i, (n, o) in enumerate(zip(input.shape[first:], sizes)):
        starts, ends = _area_windows(n, o)
        counts.append((ends - starts).astype(dt if dt.kind == "f" else np.float32)
                      .reshape((o,) + (1,) * (nd - 1 - i)))

    def fn(x, *ks):
        for axis, m in steps:
            x = resample(x, m, axis)
        for k in ks:
            x = x / k
        return x

    # (PyTorch pools 1-d as 2-d and squeezes)
    grad_fn = "SqueezeBackward1" if nd == 1 else f"AdaptiveAvgPool{nd}DBackward0"
    return defop(grad_fn, ("area_pool", steps), fn, (input, *counts))


def _aa_filter(kind: str, x):
    x = np.abs(x)
    if kind == "bilinear":
        return np.where(x < 1, 1 - x, 0)
    a = -0.5  # PyTorch's antialiasing cubic (Keys, a = -0.5: PIL's)
    outer = np.where(x < 2, (((x - 5) * x + 8) * x - 4) * a, 0)
    return np.where(x < 1, ((a + 2) * x - (a + 3)) * x * x + 1, outer)


def antialias_map(in_size: int, out_size: int, align_corners: bool, scale, ftype, kind: str) -> AxisMap:
    """PyTorch's antialiased bilinear/bicubic weights (``_compute_weights_aa``): when
    downsampling, the filter is widened by the scale and sampled at every input pixel it
    covers around ``scale * (j + 0.5)``; weights normalised to sum 1.  An axis whose size does
    not change is copied (PyTorch skips it).

    Example::

        >>> import numpy as np
        >>> m = antialias_map(4, 2, False, None, np.float64, "bilinear")
        >>> m.index[0].tolist(), m.weight[0].round(4).tolist()
        ([0, 1, 2], [0.4286, 0.4286, 0.1429])
    """
    if out_size == in_size:
        return AxisMap(np.arange(out_size)[:, None], np.ones((out_size, 1)), in_size)
    s = _compute_scale(ftype, in_size, out_size, align_corners, scale)
    half = ftype((2 if kind == "bilinear" else 4) * 0.5)
    support = half * s if s >= 1 else half
    center = s * (np.arange(out_size) + ftype(0.5)).astype(ftype)
    invscale = ftype(1) / s if s >= 1 else ftype(1)
    xmin = np.maximum((center - support + ftype(0.5)).astype(np.int64), 0)
    xsize = np.minimum((center + support + ftype(0.5)).astype(np.int64), in_size) - xmin
    j = np.arange(max(int(xsize.max(initial=1)), 1))[None, :]
    w = _aa_filter(kind, ((j + xmin[:, None]).astype(ftype) - center[:, None] + ftype(0.5)) * invscale)
    w = np.where(j < xsize[:, None], w.astype(ftype), 0)
    total = w.sum(axis=1, keepdims=True)
    w = np.where(total != 0, w / np.where(total != 0, total, 1), 0)
    index = np.where(j < xsize[:, None], j + xmin[:, None], -1)  # (-1: a padding tap, not summed)
    return AxisMap(index, w.astype(np.float64), in_size)


def _as_list(value, dim: int, what: str, spatial) -> list:
    if isinstance(value, (list, tuple)):
        if len(value) != dim:
            other = "output size" if what == "size" else "scale_factor"
            raise ValueError(
                f"Input and {'output' if what == 'size' else 'scale_factor'} must have the same number "
                f"of spatial dimensions, but got input with spatial dimensions of {list(spatial)} and "
                f"{other} of {list(value)}. Please provide input tensor in (N, C, d1, d2, ...,dK) format "
                f"and {other} in (o1, o2, ...,oK) format."
            )
        return list(value)
    return [value] * dim


def _output_sizes(input: Tensor, size, scale_factor, recompute_scale_factor):
    """(output sizes, the scale factors the kernels use: None where recomputed)."""
    dim = input.dim() - 2
    spatial = tuple(input.shape[2:])
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if recompute_scale_factor:
            raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
        sizes = [int(s) for s in _as_list(size, dim, "size", spatial)]
        return sizes, [None] * dim
    if scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    scales = [float(s) for s in _as_list(scale_factor, dim, "scale_factor", spatial)]
    sizes = [int(math.floor(float(n) * s)) for n, s in zip(spatial, scales)]
    return sizes, ([None] * dim if recompute_scale_factor else scales)


def interpolate(input: Tensor, size: IntOrInts | None = None,
                scale_factor: float | Sequence[float] | None = None, mode: str = "nearest",
                align_corners: bool | None = None, recompute_scale_factor: bool | None = None,
                antialias: bool = False) -> Tensor:
    """Resize the spatial axes of an ``(N, C, d1[, d2[, d3]])`` tensor (PyTorch's
    ``F.interpolate``; see the module docstring for the exact coordinate rules).

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.nn.functional as F
        >>> F.interpolate(torch.arange(4.0).reshape(1, 1, 2, 2), size=(3, 3), mode="bilinear",
        ...               align_corners=True)
        tensor([[[[0.0000, 0.5000, 1.0000],
                  [1.0000, 1.5000, 2.0000],
                  [2.0000, 2.5000, 3.0000]]]])
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"interpolate(): argument 'input' must be Tensor, not {type(input).__name__}")
    if mode == "lanczos":
        raise NotImplementedError("interpolate(mode='lanczos') is not implemented in fgrad.torch yet")
    if mode not in _MODES:
        raise NotImplementedError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) for the modes: "
            f"nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact (got {mode})"
        )
    if mode in _INTERPOLATING:
        align_corners = bool(align_corners) if align_corners is not None else False
    elif align_corners is not None:
        raise ValueError(
            "align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic "
            "| trilinear"
        )
    if input.dim() not in (3, 4, 5):
        raise NotImplementedError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) for the modes: "
            f"nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact (got {mode})"
        )
    if antialias and not (mode in ("bilinear", "bicubic") and input.dim() == 4):
        raise ValueError(
            "Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and "
            "requires a 4-D tensor as input"
        )
    sizes, scales = _output_sizes(input, size, scale_factor, recompute_scale_factor)
    if mode == "area":
        scales = [None] * len(sizes)
    if mode in _NEEDS and input.dim() != _NEEDS[mode]:
        raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs {_NEEDS[mode]}D input")
    for o in sizes:
        if o < 0 or (o == 0 and mode != "area"):  # (area: adaptive average pooling, empty sizes allowed)
            names = "DHW"[3 - len(sizes) :]
            raise RuntimeError(
                "Input and output sizes should be greater than 0, but got input ("
                + ", ".join(f"{a}: {n}" for a, n in zip(names, input.shape[2:]))
                + (") and output (" if len(sizes) == 1 else ") output (")  # (PyTorch's 1-d kernels' words)
                + ", ".join(f"{a}: {n}" for a, n in zip(names, sizes))
                + ")"
            )
    dtype = buf(input).dtype
    if mode not in ("nearest", "nearest-exact") and dtype.kind != "f":
        raise NotImplementedError(f"\"upsample_{mode}\" not implemented for '{_torch_dtype_name(dtype)}'")
    if mode == "area":
        return area_pool(input, sizes)
    ftype = np.float64 if dtype == np.float64 else np.float32
    maps = []
    for n, o, s in zip(input.shape[2:], sizes, scales):
        if mode in ("nearest", "nearest-exact"):
            maps.append(nearest_map(n, o, s, exact=mode == "nearest-exact"))
        elif antialias:
            maps.append(antialias_map(n, o, align_corners, s, ftype, mode))
        elif mode == "bicubic":
            maps.append(cubic_map(n, o, align_corners, s, ftype))
        else:
            maps.append(linear_map(n, o, align_corners, s, ftype))
    grad_fn = _GRAD_FN[mode].format(d=len(maps))
    if antialias:
        grad_fn = grad_fn.replace("2DBackward0", "2DAaBackward0")
    return _apply_maps(input, maps, grad_fn)


def _torch_dtype_name(dtype) -> str:
    return {
        "int64": "Long",
        "int32": "Int",
        "int16": "Short",
        "int8": "Char",
        "uint8": "Byte",
        "bool": "Bool",
    }.get(np.dtype(dtype).name, np.dtype(dtype).name)


def _is_identity(m: AxisMap) -> bool:
    return (
        m.is_selection
        and m.out_size == m.in_size
        and bool(np.array_equal(m.index[:, 0], np.arange(m.in_size)))
    )


def _apply_maps(input: Tensor, maps: list, grad_fn: str) -> Tensor:
    first = input.dim() - len(maps)
    steps = tuple((first + i, m) for i, m in enumerate(maps) if not _is_identity(m))

    def fn(x):
        for axis, m in steps:
            x = resample(x, m, axis)
        return x

    return defop(grad_fn, ("interpolate", steps), fn, (input,))


def upsample(input: Tensor, size: IntOrInts | None = None,
             scale_factor: float | Sequence[float] | None = None, mode: str = "nearest",
             align_corners: bool | None = None) -> Tensor:
    """Deprecated alias of `interpolate` (as in PyTorch).

    Example::

        >>> import fgrad.torch as torch
        >>> import numpy as np
        >>> from fgrad.torch.nn._interpolate import upsample
        >>> import warnings
        >>> with warnings.catch_warnings():  # (the deprecation warning)
        ...     warnings.simplefilter("ignore")
        ...     upsample(torch.ones(1, 1, 2), scale_factor=2).shape
        torch.Size([1, 1, 4])
    """
    warnings.warn(
        "`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.", stacklevel=2
    )
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input: Tensor, size: IntOrInts | None = None,
                     scale_factor: float | Sequence[float] | None = None) -> Tensor:
    """Deprecated: ``interpolate(mode="nearest")``.

    Example::

        >>> import fgrad.torch as torch
        >>> import numpy as np
        >>> from fgrad.torch.nn._interpolate import upsample_nearest
        >>> import warnings
        >>> with warnings.catch_warnings():  # (the deprecation warning)
        ...     warnings.simplefilter("ignore")
        ...     upsample_nearest(torch.ones(1, 1, 2, 2), scale_factor=2).shape
        torch.Size([1, 1, 4, 4])
    """
    warnings.warn(
        "`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.",
        stacklevel=2,
    )
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input: Tensor, size: IntOrInts | None = None,
                      scale_factor: float | Sequence[float] | None = None) -> Tensor:
    """Deprecated: ``interpolate(mode="bilinear", align_corners=True)``.

    Example::

        >>> import fgrad.torch as torch
        >>> import numpy as np
        >>> from fgrad.torch.nn._interpolate import upsample_bilinear
        >>> import warnings
        >>> with warnings.catch_warnings():  # (the deprecation warning)
        ...     warnings.simplefilter("ignore")
        ...     upsample_bilinear(torch.ones(1, 1, 2, 2), size=3).shape
        torch.Size([1, 1, 3, 3])
    """
    warnings.warn(
        "`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.",
        stacklevel=2,
    )
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


# -- pixel shuffle ----------------------------------------------------------------------------


def _check_factor(name: str, factor) -> int:
    if isinstance(factor, bool) or not isinstance(factor, numbers.Integral):
        raise TypeError(
            f"{name}(): argument "
            f"'{'upscale_factor' if name == 'pixel_shuffle' else 'downscale_factor'}' "
            f"must be int, not {type(factor).__name__}"
        )
    if factor <= 0:
        what = "upscale_factor" if name == "pixel_shuffle" else "downscale_factor"
        raise RuntimeError(f"{name} expects a positive {what}, but got {factor}")
    return int(factor)


def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:
    """``(*, C r^2, H, W) -> (*, C, H r, W r)``: channel blocks become ``r x r`` pixel blocks.

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.nn.functional as F
        >>> F.pixel_shuffle(torch.arange(4.0).reshape(1, 4, 1, 1), 2)
        tensor([[[[0., 1.],
                  [2., 3.]]]])
    """
    r = _check_factor("pixel_shuffle", upscale_factor)
    if input.dim() < 3:
        raise RuntimeError(
            f"pixel_shuffle expects input to have at least 3 dimensions, but got input with "
            f"{input.dim()} dimension(s)"
        )
    *batch, c, h, w = input.shape
    if c % (r * r):
        raise RuntimeError(
            "pixel_shuffle expects its input's 'channel' dimension to be divisible by the "
            "square "
            f"of upscale_factor, but input.size(-3)={c} is not divisible by {r * r}"
        )
    nb = len(batch)
    oc = c // (r * r)
    perm = tuple(range(nb)) + tuple(nb + i for i in (0, 3, 1, 4, 2))

    def fn(x):
        x = fnp.reshape(x, tuple(batch) + (oc, r, r, h, w))
        return fnp.reshape(fnp.transpose(x, perm), tuple(batch) + (oc, h * r, w * r))

    return defop("PixelShuffleBackward0", ("pixel_shuffle", r), fn, (input,))


def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:
    """``(*, C, H r, W r) -> (*, C r^2, H, W)``, the inverse of `pixel_shuffle`.

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.nn.functional as F
        >>> F.pixel_unshuffle(torch.arange(4.0).reshape(1, 1, 2, 2), 2).flatten()
        tensor([0., 1., 2., 3.])
    """
    r = _check_factor("pixel_unshuffle", downscale_factor)
    if input.dim() < 3:
        raise RuntimeError(
            f"pixel_unshuffle expects input to have at least 3 dimensions, but got input with "
            f"{input.dim()} dimension(s)"
        )
    *batch, c, h, w = input.shape
    if h % r or w % r:
        axis, n = ("height", h) if h % r else ("width", w)
        raise RuntimeError(
            f"pixel_unshuffle expects {axis} to be divisible by downscale_factor, but "
            "input.size("
            f"{-2 if axis == 'height' else -1})={n} is not divisible by {r}"
        )
    nb = len(batch)
    perm = tuple(range(nb)) + tuple(nb + i for i in (0, 2, 4, 1, 3))

    def fn(x):
        x = fnp.reshape(x, tuple(batch) + (c, h // r, r, w // r, r))
        return fnp.reshape(fnp.transpose(x, perm), tuple(batch) + (c * r * r, h // r, w // r))

    return defop("PixelUnshuffleBackward0", ("pixel_unshuffle", r), fn, (input,))
