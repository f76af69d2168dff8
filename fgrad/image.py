"""``fgrad.image``: JAX's ``jax.image`` -- `resize` and `scale_and_translate`.

Both are separable: each resized axis gets a weight matrix from JAX's kernels (triangle,
Keys cubic with ``a = -0.5``, PyTorch's cubic with ``a = -0.75`` and edge padding, Lanczos 3
and 5, area overlap; widened by ``1 / scale`` when antialiasing a downsample; columns
normalised to sum 1; samples whose centre falls outside the input weigh 0), computed once on
the host and stored sparsely as an `fgrad.ops.resample.AxisMap` -- so an axis costs a gather
over the kernel's few taps instead of JAX's dense ``einsum``, and the gradient is the
transposed map (a gather again).  ``scale`` and ``translation`` must be concrete (Python or
NumPy numbers): the maps are built from them.

Example::

    >>> import fgrad.numpy as fnp
    >>> resize(fnp.array([0.0, 1.0]), (4,), "linear")
    Array([0.  , 0.25, 0.75, 1.  ], dtype=float64)
"""

from __future__ import annotations

import enum
from typing import Callable, Sequence

import numpy as np

from . import numpy as fnp
from .core.array import Tracer
from .ops.resample import AxisMap, resample

__all__ = ["ResizeMethod", "resize", "scale_and_translate"]


class ResizeMethod(enum.Enum):
    """The resampling kernels (JAX's names and values).

    Example::

        >>> import fgrad.torch as torch
        >>> import numpy as np
        >>> from fgrad.image import weight_matrix, sparse_map, ResizeMethod, _triangle
        >>> ResizeMethod.from_string('bilinear')
        <ResizeMethod.LINEAR: 1>
    """

    NEAREST = 0
    LINEAR = 1
    LANCZOS3 = 2
    LANCZOS5 = 3
    CUBIC = 4
    CUBIC_PYTORCH = 5
    AREA = 6

    @staticmethod
    def from_string(s: str) -> "ResizeMethod":
        """The method a string names (``"bilinear"`` and ``"trilinear"`` are ``LINEAR``...)."""
        names = {
            "nearest": "NEAREST",
            "linear": "LINEAR",
            "bilinear": "LINEAR",
            "trilinear": "LINEAR",
            "triangle": "LINEAR",
            "lanczos3": "LANCZOS3",
            "lanczos5": "LANCZOS5",
            "cubic": "CUBIC",
            "bicubic": "CUBIC",
            "tricubic": "CUBIC",
            "cubic-pytorch": "CUBIC_PYTORCH",
            "bicubic-pytorch": "CUBIC_PYTORCH",
            "area": "AREA",
        }
        if s not in names:
            raise ValueError(f'Unknown resize method "{s}"')
        return ResizeMethod[names[s]]


def _lanczos(radius: float) -> Callable:
    def kernel(x):
        with np.errstate(divide="ignore", invalid="ignore"):
            y = radius * np.sin(np.pi * x) * np.sin(np.pi * x / radius)
            out = np.where(x > 1e-3, y / np.where(x != 0, np.pi**2 * x**2, 1), 1.0)
        return np.where(x > radius, 0.0, out)

    return kernel


def _keys_cubic(x):
    out = ((1.5 * x - 2.5) * x) * x + 1.0
    out = np.where(x >= 1.0, ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0, out)
    return np.where(x >= 2.0, 0.0, out)


def _opencv_cubic(x):
    a = -0.75
    out = ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0
    out = np.where(x >= 1.0, ((a * x - 5.0 * a) * x + 8.0 * a) * x - 4.0 * a, out)
    return np.where(x >= 2.0, 0.0, out)


def _triangle(x):
    return np.maximum(0.0, 1.0 - np.abs(x))


_AREA = object()
_KERNELS = {
    ResizeMethod.LINEAR: (1, _triangle),
    ResizeMethod.LANCZOS3: (3, _lanczos(3.0)),
    ResizeMethod.LANCZOS5: (5, _lanczos(5.0)),
    ResizeMethod.CUBIC: (2, _keys_cubic),
    ResizeMethod.CUBIC_PYTORCH: (2, _opencv_cubic),
    ResizeMethod.AREA: (1, _AREA),
}
_TINY = 1000.0 * float(np.finfo(np.float32).eps)


def _normalise(weights: np.ndarray) -> np.ndarray:
    total = weights.sum(axis=0, keepdims=True)
    return np.where(np.abs(total) > _TINY, weights / np.where(total != 0, total, 1), 0.0)


def weight_matrix(
    in_size: int,
    out_size: int,
    scale: float,
    translation: float,
    kernel,
    antialias: bool,
    edge_padding: bool,
    radius: int,
) -> np.ndarray:
    """JAX's ``compute_weight_mat``: the ``(in_size, out_size)`` weights of one axis.

    Example::

        >>> import fgrad.torch as torch
        >>> import numpy as np
        >>> from fgrad.image import weight_matrix, sparse_map, ResizeMethod, _triangle
        >>> weight_matrix(2, 4, 2.0, 0.0, _triangle, True, False, 1)[:, 0].tolist()
        [1.0, 0.0]
    """
    inv_scale = 1.0 / scale
    kernel_scale = max(inv_scale, 1.0) if antialias else 1.0
    sample = (np.arange(out_size) + 0.5) * inv_scale - translation * inv_scale - 0.5
    if edge_padding and antialias:
        k = int(np.ceil(radius * kernel_scale))
    else:
        k = radius if edge_padding else 0
    positions = np.arange(-k, in_size + k, dtype=np.float64)
    if kernel is _AREA:
        left = np.arange(out_size) * inv_scale - translation * inv_scale
        right = left + inv_scale
        pix = np.arange(in_size, dtype=np.float64)
        weights = np.maximum(
            0.0, np.minimum(right[None, :], pix[:, None] + 1.0) - np.maximum(left[None, :], pix[:, None])
        )
    else:
        weights = kernel(np.abs(sample[None, :] - positions[:, None]) / kernel_scale)
    if edge_padding:
        folded = np.zeros((in_size, out_size))
        np.add.at(folded, np.clip(positions.astype(np.int64), 0, in_size - 1), weights)  # host table, once
        return _normalise(folded)
    weights = _normalise(weights)
    inside = (sample >= -0.5) & (sample <= in_size - 0.5)
    return np.where(inside[None, :], weights, 0.0)


def sparse_map(weights: np.ndarray) -> AxisMap:
    """The nonzero entries of an ``(in, out)`` weight matrix as an `AxisMap` (out -> in).

    Example::

        >>> import fgrad.torch as torch
        >>> import numpy as np
        >>> from fgrad.image import weight_matrix, sparse_map, ResizeMethod, _triangle
        >>> sparse_map(np.array([[1.0, 0.0], [0.0, 1.0]])).index.tolist()
        [[0], [1]]
    """
    in_size, out_size = weights.shape
    nonzero = weights.T != 0
    width = max(int(nonzero.sum(axis=1).max(initial=0)), 1)
    order = np.argsort(~nonzero, axis=1, kind="stable")[:, :width]
    index = order
    weight = np.take_along_axis(weights.T, order, axis=1) * np.take_along_axis(nonzero, order, axis=1)
    return AxisMap(index, weight, in_size)


def _concrete(value, what: str) -> np.ndarray:
    if isinstance(value, Tracer) or any(isinstance(v, Tracer) for v in np.ravel(np.asarray(value, object))):
        raise TypeError(
            f"scale_and_translate: {what} must be concrete (Python or NumPy numbers): fgrad "
            "builds "
            "the resampling maps from it on the host; got a traced value"
        )
    return np.asarray(value, dtype=np.float64).reshape(-1)


def _float_image(image):
    image = fnp.asarray(image)
    return image if fnp.issubdtype(image.dtype, fnp.inexact) else image.astype(fnp.result_type(float))


def scale_and_translate(
    image,
    shape: Sequence[int],
    spatial_dims: Sequence[int],
    scale,
    translation,
    method,
    antialias: bool = True,
    precision=None,
):
    """Resample ``image`` to ``shape``: output location ``x`` samples the input at
    ``(x - translation) / scale`` along each of ``spatial_dims`` (half-pixel centres; samples
    outside the input give 0).

    Example::

        >>> import fgrad.numpy as fnp
        >>> scale_and_translate(fnp.arange(4.0), (2,), (0,), [0.5], [0.0], "linear", antialias=False)
        Array([0.5, 2.5], dtype=float64)
    """
    image = fnp.asarray(image)
    shape = tuple(int(s) for s in shape)
    if len(shape) != image.ndim:
        raise ValueError(
            f"shape must have length equal to the number of dimensions of x;  {shape} vs {image.shape}"
        )
    method = ResizeMethod.from_string(method) if isinstance(method, str) else method
    if method == ResizeMethod.NEAREST:
        raise ValueError("Nearest neighbor resampling is not currently supported for scale_and_translate.")
    scale = _concrete(scale, "scale")
    translation = _concrete(translation, "translation")
    if len(scale) != len(spatial_dims) or len(translation) != len(spatial_dims):
        raise ValueError(
            f"scale_and_translate: scale and translation need one entry per spatial dim "
            f"({len(spatial_dims)}), got {len(scale)} and {len(translation)}"
        )
    return _apply(_float_image(image), shape, spatial_dims, scale, translation, method, antialias)


def _apply(image, shape, spatial_dims, scale, translation, method, antialias):
    if method == ResizeMethod.CUBIC_PYTORCH and antialias:
        method = ResizeMethod.CUBIC
    radius, kernel = _KERNELS[method]
    edge_padding = method == ResizeMethod.CUBIC_PYTORCH and not antialias
    for i, d in enumerate(spatial_dims):
        d = d % image.ndim
        w = weight_matrix(
            image.shape[d],
            shape[d],
            float(scale[i]),
            float(translation[i]),
            kernel,
            antialias,
            edge_padding,
            radius,
        )
        image = resample(image, sparse_map(w), d)
    return image


def _nearest_map(in_size: int, out_size: int) -> AxisMap:
    f32 = np.float32
    pos = (np.arange(out_size, dtype=f32) + f32(0.5)) * f32(in_size) / f32(out_size)
    index = np.minimum(np.floor(pos.astype(f32)).astype(np.int64), in_size - 1)
    return AxisMap(index[:, None], np.ones((out_size, 1)), in_size)


def resize(image, shape: Sequence[int], method, antialias: bool = True, precision=None):
    """Resize ``image`` to ``shape`` (every axis whose size changes), as ``jax.image.resize``:
    half-pixel centres, ``antialias`` widens the kernel when downsampling; ``nearest`` keeps
    the dtype, the other methods promote integers to float.

    Example::

        >>> import fgrad.numpy as fnp
        >>> resize(fnp.array([[1.0, 2.0]]), (1, 4), "nearest")
        Array([[1., 1., 2., 2.]], dtype=float64)
    """
    image = fnp.asarray(image)
    shape = tuple(int(s) for s in shape)
    if len(shape) != image.ndim:
        raise ValueError(
            f"shape must have length equal to the number of dimensions of x;  {shape} vs {image.shape}"
        )
    method = ResizeMethod.from_string(method) if isinstance(method, str) else method
    dims = tuple(i for i in range(image.ndim) if image.shape[i] != shape[i])
    if method == ResizeMethod.NEAREST:
        for d in dims:
            image = resample(image, _nearest_map(image.shape[d], shape[d]), d)
        return image
    image = _float_image(image)
    scale = [1.0 if shape[d] == 0 else shape[d] / image.shape[d] for d in dims]
    return _apply(image, shape, dims, scale, [0.0] * len(dims), method, antialias)
