"""More of `fgrad.lax`: ``approx_max_k``/``approx_min_k`` (exact on this backend, as JAX's CPU
lowering is) and ``conv_general_dilated_patches`` (image patches as a grouped convolution
with a one-hot kernel, JAX's construction), each a composition of fgrad ops so `jit`, `vmap`
and `grad` apply.

>>> import fgrad.numpy as fnp
>>> from fgrad import lax
>>> lax.approx_max_k(fnp.asarray([3.0, 1.0, 4.0, 1.5]), 2)
[Array([4., 3.], dtype=float64), Array([2, 0], dtype=int32)]
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from . import numpy as fnp
from .core.x64_mode import canonical_dtype
from .ops.convolution import conv_dimension_numbers, conv_general_dilated
from .ops.sorting import top_k
from .typing import Array, ArrayLike, DTypeLike

__all__ = ["approx_max_k", "approx_min_k", "conv_general_dilated_patches", "dtype"]


def _check_k(name: str, operand: Array, k: int, reduction_dimension: int) -> int:
    nd = operand.ndim
    if not -nd <= reduction_dimension < max(nd, 1):
        raise ValueError(f"{name}: reduction_dimension {reduction_dimension} is out of range for an "
                         f"operand of shape {operand.shape}")
    axis = reduction_dimension % nd
    if not 0 <= int(k) <= operand.shape[axis]:
        raise ValueError(f"{name}: k must be between 0 and the size of the reduction dimension "
                         f"({operand.shape[axis]}), got {k}")
    return axis


def approx_max_k(operand: ArrayLike, k: int, reduction_dimension: int = -1, recall_target: float = 0.95,
                 reduction_input_size_override: int = -1, aggregate_to_topk: bool = True
                 ) -> list[Array]:
    """The ``k`` largest values along ``reduction_dimension`` and their indices (int32),
    largest first.  JAX's TPU kernel is approximate; on CPU (and here) the result is exact,
    so ``recall_target`` and ``reduction_input_size_override`` change nothing.

    >>> import fgrad.numpy as fnp
    >>> approx_max_k(fnp.asarray([[1.0, 5.0], [7.0, 2.0]]), 1, reduction_dimension=0)[1]
    Array([[1, 0]], dtype=int32)
    """
    x = fnp.asarray(operand)
    axis = _check_k("approx_max_k", x, k, reduction_dimension)
    values, indices = top_k(fnp.moveaxis(x, axis, -1), int(k))
    return [fnp.moveaxis(values, -1, axis), fnp.moveaxis(indices, -1, axis)]


def approx_min_k(operand: ArrayLike, k: int, reduction_dimension: int = -1, recall_target: float = 0.95,
                 reduction_input_size_override: int = -1, aggregate_to_topk: bool = True
                 ) -> list[Array]:
    """The ``k`` smallest values along ``reduction_dimension`` and their indices (int32),
    smallest first; exact, as `approx_max_k`.

    >>> import fgrad.numpy as fnp
    >>> approx_min_k(fnp.asarray([3.0, 1.0, 4.0, 1.5]), 2)
    [Array([1. , 1.5], dtype=float64), Array([1, 3], dtype=int32)]
    """
    x = fnp.asarray(operand)
    axis = _check_k("approx_min_k", x, k, reduction_dimension)
    values, indices = top_k(-fnp.moveaxis(x, axis, -1), int(k))
    return [fnp.moveaxis(-values, -1, axis), fnp.moveaxis(indices, -1, axis)]


def conv_general_dilated_patches(lhs: ArrayLike, filter_shape: Sequence[int], window_strides: Sequence[int],
                                 padding: str | Sequence[tuple[int, int]],
                                 lhs_dilation: Sequence[int] | None = None,
                                 rhs_dilation: Sequence[int] | None = None,
                                 dimension_numbers: Any = None, precision: Any = None,
                                 preferred_element_type: DTypeLike | None = None) -> Array:
    """The patches a convolution with a ``filter_shape`` window would see: the output's
    feature dimension has ``C * prod(filter_shape)`` entries, channel-major (entry
    ``c * prod(filter_shape) + p`` is input channel ``c`` at window position ``p``), as JAX's.

    >>> import fgrad.numpy as fnp
    >>> x = fnp.arange(9.0).reshape(1, 1, 3, 3)
    >>> conv_general_dilated_patches(x, (2, 2), (1, 1), "VALID")[0, :, 0, 0]
    Array([0., 1., 3., 4.], dtype=float64)
    """
    x = fnp.asarray(lhs)
    filter_shape = tuple(int(s) for s in filter_shape)
    nd = x.ndim
    if len(filter_shape) != nd - 2:
        raise ValueError(f"conv_general_dilated_patches: filter_shape {filter_shape} must have one entry "
                         f"per spatial dimension of lhs (shape {x.shape})")
    dn = conv_dimension_numbers(x.shape, (1, 1) + filter_shape, dimension_numbers)
    lhs_spec, rhs_spec, _ = dn
    channels = x.shape[lhs_spec[1]]
    size = math.prod(filter_shape)
    kernel = np.eye(size, dtype=np.dtype(x.dtype)).reshape((size, 1) + filter_shape)
    kernel = np.tile(kernel, (channels,) + (1,) * (kernel.ndim - 1))  # (C * P, 1, *filter)
    # the kernel's axes in the layout the dimension numbers name: out, in, then spatial
    kernel = np.transpose(kernel, np.argsort(rhs_spec))
    return conv_general_dilated(x, fnp.asarray(kernel, dtype=x.dtype), window_strides, padding,
                                lhs_dilation=lhs_dilation, rhs_dilation=rhs_dilation,
                                dimension_numbers=dn, feature_group_count=channels,
                                precision=precision, preferred_element_type=preferred_element_type)


def dtype(x: Any, *, canonicalize: bool = False) -> np.dtype:
    """The dtype of ``x`` (an array, scalar, dtype or type), JAX's ``lax.dtype``.

    >>> dtype(1.0), dtype(fnp.ones(2, dtype="float32"))
    (dtype('float64'), dtype('float32'))
    """
    if isinstance(x, (type, np.dtype, str)):
        dt = np.dtype(x)
    else:
        dt = getattr(x, "dtype", None)
        dt = np.dtype(fnp.result_type(x) if dt is None else dt)
    return canonical_dtype(dt) if canonicalize else dt
