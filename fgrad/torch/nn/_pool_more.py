"""Pooling beyond max/avg: ``max_pool*_with_indices``, ``max_unpool*``, ``lp_pool*`` and
``fractional_max_pool2d/3d``.

``max_unpool`` is one op (``MaxUnpoolNDBackward0``) whose definition scatters each value to
its index in a zero output (its gradient is the gather at the indices, by the scatter's
rule); ``lp_pool`` is PyTorch's composite over ``avg_pool``; a fractional max pool draws
its samples as PyTorch's Python code does (``torch.rand(N, C, nd)``), builds PyTorch's
pseudo-random window starts on the host (``generate_intervals`` of the C++ kernel, in the
input's dtype) and takes the first maximum of each window through a gather, so its
gradient goes to the element its index names.

Example::

    >>> import fgrad.torch as torch
    >>> import fgrad.torch.nn.functional as F
    >>> y, i = F.max_pool1d_with_indices(torch.tensor([[[1.0, 3.0, 2.0, 0.0]]]), 2)
    >>> F.max_unpool1d(y, i, 2)
    tensor([[[0., 3., 2., 0.]]])
"""

from __future__ import annotations

import numpy as np

import fgrad.numpy as fnp
import fgrad.torch as torch
import fgrad.torch._conventions as _conv
import fgrad.torch._device as _dev
from .._tensor import Tensor
import fgrad.torch.types as types
from ._defop import buf as _buf, defop as _defop

__all__ = ["max_pool1d_with_indices", "max_pool2d_with_indices", "max_pool3d_with_indices",
           "adaptive_max_pool1d_with_indices", "adaptive_max_pool2d_with_indices",
           "adaptive_max_pool3d_with_indices", "max_unpool1d", "max_unpool2d", "max_unpool3d", "lp_pool1d",
           "lp_pool2d", "lp_pool3d", "fractional_max_pool2d", "fractional_max_pool3d",
           "fractional_max_pool2d_with_indices", "fractional_max_pool3d_with_indices"]


def _tuple(x, n: int) -> tuple:
    if isinstance(x, (list, tuple)):
        return tuple(int(v) for v in x) if len(x) != 1 else (int(x[0]),) * n
    return (int(x),) * n


def _F():
    import fgrad.torch.nn.functional as F
    return F


# -- with_indices ---------------------------------------------------------------------------


def max_pool1d_with_indices(input: Tensor, kernel_size: types.IntOrInts,
                            stride: types.IntOrInts | None = None,
                            padding: types.IntOrInts = 0, dilation: types.IntOrInts = 1,
                            ceil_mode: bool = False,
                            return_indices: bool = False) -> tuple[Tensor, Tensor]:
    """``max_pool1d`` with its indices (always returned, as in PyTorch).

    Example::

        >>> import fgrad.torch as torch
        >>> max_pool1d_with_indices(torch.tensor([[[1.0, 3.0, 2.0, 0.0]]]), 2)[1]
        tensor([[[1, 2]]])
    """
    return _F().max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices=True)


def max_pool2d_with_indices(input: Tensor, kernel_size: types.IntOrInts,
                            stride: types.IntOrInts | None = None,
                            padding: types.IntOrInts = 0, dilation: types.IntOrInts = 1,
                            ceil_mode: bool = False,
                            return_indices: bool = False) -> tuple[Tensor, Tensor]:
    """``max_pool2d`` with the flat (H*W) index of each maximum.

    Example::

        >>> import fgrad.torch as torch
        >>> max_pool2d_with_indices(torch.arange(4.0).view(1, 1, 2, 2), 2)[1]
        tensor([[[[3]]]])
    """
    return _F().max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices=True)


def max_pool3d_with_indices(input: Tensor, kernel_size: types.IntOrInts,
                            stride: types.IntOrInts | None = None,
                            padding: types.IntOrInts = 0, dilation: types.IntOrInts = 1,
                            ceil_mode: bool = False,
                            return_indices: bool = False) -> tuple[Tensor, Tensor]:
    """``max_pool3d`` with the flat (D*H*W) index of each maximum.

    Example::

        >>> import fgrad.torch as torch
        >>> max_pool3d_with_indices(torch.arange(8.0).view(1, 1, 2, 2, 2), 2)[1]
        tensor([[[[[7]]]]])
    """
    return _F().max_pool3d(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices=True)


def adaptive_max_pool1d_with_indices(input: Tensor, output_size: types.IntOrInts,
                                     return_indices: bool = False) -> tuple[Tensor, Tensor]:
    """``adaptive_max_pool1d`` with its indices.

    Example::

        >>> import fgrad.torch as torch
        >>> adaptive_max_pool1d_with_indices(torch.tensor([[[1.0, 3.0, 2.0, 0.0]]]), 1)[1]
        tensor([[[1]]])
    """
    return _F().adaptive_max_pool1d(input, output_size, return_indices=True)


def adaptive_max_pool2d_with_indices(input: Tensor, output_size: types.IntOrInts,
                                     return_indices: bool = False) -> tuple[Tensor, Tensor]:
    """``adaptive_max_pool2d`` with its indices.

    Example::

        >>> import fgrad.torch as torch
        >>> adaptive_max_pool2d_with_indices(torch.arange(4.0).view(1, 1, 2, 2), 1)[1]
        tensor([[[[3]]]])
    """
    return _F().adaptive_max_pool2d(input, output_size, return_indices=True)


def adaptive_max_pool3d_with_indices(input: Tensor, output_size: types.IntOrInts,
                                     return_indices: bool = False) -> tuple[Tensor, Tensor]:
    """``adaptive_max_pool3d`` with its indices.

    Example::

        >>> import fgrad.torch as torch
        >>> adaptive_max_pool3d_with_indices(torch.arange(8.0).view(1, 1, 2, 2, 2), 1)[1]
        tensor([[[[[7]]]]])
    """
    return _F().adaptive_max_pool3d(input, output_size, return_indices=True)


# -- max_unpool -----------------------------------------------------------------------------


def _unpool_output_size(input: Tensor, kernel, stride, padding, output_size, nd: int) -> tuple:
    """PyTorch's ``_unpool_output_size`` (its checks and messages)."""
    in_size = tuple(input.shape)
    default = tuple((in_size[-nd + d] - 1) * stride[d] + kernel[d] - 2 * padding[d] for d in range(nd))
    if output_size is None:
        return default
    output_size = tuple(int(s) for s in output_size)
    if len(output_size) == nd + 2:
        output_size = output_size[2:]
    if len(output_size) != nd:
        raise ValueError(f"output_size should be a sequence containing {nd} or {nd + 2} elements, but it "
                         f"has a "
                         f"length of '{len(output_size)}'")
    for d in range(nd):
        lo = default[d] - stride[d]
        hi = default[d] + stride[d]
        if not lo < output_size[d] < hi:
            raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between {lo} and {hi})')
    return output_size


def _max_unpool(input: Tensor, indices: Tensor, kernel_size, stride, padding, output_size, nd: int) -> Tensor:
    kernel = _tuple(kernel_size, nd)
    stride = kernel if stride is None else _tuple(stride, nd)
    padding = _tuple(padding, nd)
    osz = _unpool_output_size(input, kernel, stride, padding, output_size, nd)
    if indices.dtype != torch.int64:
        raise RuntimeError(f"elements in indices should be type int64 but got: {indices.dtype}")
    if tuple(indices.shape) != tuple(input.shape):
        raise RuntimeError(f"Expected shape of indices to be same as that of the input tensor "
                           f"({list(input.shape)}) but got indices tensor with shape: {list(indices.shape)}")
    unbatched = input.dim() == nd + 1
    x = input.unsqueeze(0) if unbatched else input
    idx = indices.unsqueeze(0) if unbatched else indices
    n, c = x.shape[0], x.shape[1]
    size = int(np.prod(osz))
    ib = np.asarray(_dev.to_host(_buf(idx)))
    if ib.size and (ib.min() < 0 or ib.max() >= size):
        bad = int(ib.max() if ib.max() >= size else ib.min())
        raise RuntimeError(f"Found an invalid max index: {bad} (output volumes are of size "
                           f"{'x'.join(map(str, osz))})")
    # the row index and the zero output are operands, so they live on the input's device
    rows = torch.arange(n * c, device=x.device).view(n, c, 1)
    base = torch.zeros((n * c, size), dtype=x.dtype, device=x.device)

    def fn(v, i, r, flat):
        vv = fnp.reshape(v, (n, c, -1))
        ii = fnp.reshape(i, (n, c, -1))
        out = flat.at[(r, ii)].set(vv)
        return fnp.reshape(out, (n, c) + osz)

    y = _defop(f"MaxUnpool{nd}DBackward0", ("max_unpool", nd, n, c, osz), fn, (x, idx, rows, base),
               edges=(0,))
    return y.squeeze(0) if unbatched else y


def max_unpool1d(input: Tensor, indices: Tensor, kernel_size: types.IntOrInts,
                 stride: types.IntOrInts | None = None,
                 padding: types.IntOrInts = 0, output_size: types.SizeLike | None = None) -> Tensor:
    """The partial inverse of ``max_pool1d``: each value placed at its index, zeros elsewhere.

    Example::

        >>> import fgrad.torch as torch
        >>> max_unpool1d(torch.tensor([[[3.0]]]), torch.tensor([[[1]]]), 2)
        tensor([[[0., 3.]]])
    """
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 1)


def max_unpool2d(input: Tensor, indices: Tensor, kernel_size: types.IntOrInts,
                 stride: types.IntOrInts | None = None,
                 padding: types.IntOrInts = 0, output_size: types.SizeLike | None = None) -> Tensor:
    """The partial inverse of ``max_pool2d`` (indices flat over H*W).

    Example::

        >>> import fgrad.torch as torch
        >>> max_unpool2d(torch.tensor([[[[3.0]]]]), torch.tensor([[[[2]]]]), 2)
        tensor([[[[0., 0.],
                  [3., 0.]]]])
    """
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 2)


def max_unpool3d(input: Tensor, indices: Tensor, kernel_size: types.IntOrInts,
                 stride: types.IntOrInts | None = None,
                 padding: types.IntOrInts = 0, output_size: types.SizeLike | None = None) -> Tensor:
    """The partial inverse of ``max_pool3d`` (indices flat over D*H*W).

    Example::

        >>> import fgrad.torch as torch
        >>> max_unpool3d(torch.tensor([[[[[3.0]]]]]), torch.tensor([[[[[7]]]]]), 2).flatten()
        tensor([0., 0., 0., 0., 0., 0., 0., 3.])
    """
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 3)


# -- lp_pool --------------------------------------------------------------------------------


def _lp_pool(input: Tensor, norm_type: float, kernel_size, stride, ceil_mode: bool, nd: int) -> Tensor:
    F = _F()
    k = _tuple(kernel_size, nd)
    avg = (F.avg_pool1d, F.avg_pool2d, F.avg_pool3d)[nd - 1]
    if stride is not None:
        out = avg(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    # PyTorch's formula; its relu's gradient is a select, which stops the inf that pow(0, 1/p)
    # sends back at a window summing to 0 (F.relu's product would make it NaN)
    kept = _defop("ReluBackward0", "relu_select", _conv.relu_select, (torch.abs(out),))
    return (torch.sign(out) * kept).mul(int(np.prod(k))).pow(1.0 / norm_type)


def lp_pool1d(input: Tensor, norm_type: float, kernel_size: types.IntOrInts,
              stride: types.IntOrInts | None = None, ceil_mode: bool = False) -> Tensor:
    """The p-norm of each window: ``(sum x^p)^(1/p)``.

    Example::

        >>> import fgrad.torch as torch
        >>> lp_pool1d(torch.tensor([[[3.0, 4.0]]]), 2, 2)
        tensor([[[5.]]])
    """
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 1)


def lp_pool2d(input: Tensor, norm_type: float, kernel_size: types.IntOrInts,
              stride: types.IntOrInts | None = None, ceil_mode: bool = False) -> Tensor:
    """The p-norm of each 2-D window.

    Example::

        >>> import fgrad.torch as torch
        >>> lp_pool2d(torch.ones(1, 1, 2, 2), 2, 2)
        tensor([[[[2.]]]])
    """
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 2)


def lp_pool3d(input: Tensor, norm_type: float, kernel_size: types.IntOrInts,
              stride: types.IntOrInts | None = None, ceil_mode: bool = False) -> Tensor:
    """The p-norm of each 3-D window.

    Example::

        >>> import fgrad.torch as torch
        >>> lp_pool3d(torch.ones(1, 1, 2, 2, 2), 1, 2)
        tensor([[[[[8.]]]]])
    """
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 3)


# -- fractional max pool --------------------------------------------------------------------


def _intervals(sample: float, in_size: int, out_size: int, pool: int, dtype) -> np.ndarray:
    """PyTorch's ``generate_intervals`` (arithmetic in the input's dtype)."""
    seq = np.empty(out_size, np.int64)
    if out_size > 1:
        alpha = dtype.type(in_size - pool) / dtype.type(out_size - 1)
        s = dtype.type(sample)
        base = int(s * alpha)
        for i in range(out_size - 1):
            seq[i] = int((dtype.type(i) + s) * alpha) - base
    seq[out_size - 1] = in_size - pool
    return seq


def _fractional(input: Tensor, kernel_size, output_size, output_ratio, return_indices: bool,
                samples, nd: int):
    name = f"fractional_max_pool{nd}d"
    if output_size is None and output_ratio is None:
        raise ValueError(f"{name} requires specifying either an output_size or an output_ratio")
    if input.dim() not in (nd + 1, nd + 2):
        raise RuntimeError(f"{name}(): Expected {nd + 1}D or {nd + 2}D tensor, but got: {list(input.shape)}")
    k = _tuple(kernel_size, nd)
    spatial = tuple(input.shape[-nd:])
    if output_size is None:
        ratio = _tuple_f(output_ratio, nd)
        output_size = [int(spatial[d] * ratio[d]) for d in range(nd)]
    osz = _tuple(output_size, nd)
    if samples is None:
        n_batch = 1 if input.dim() == nd + 1 else input.shape[0]
        samples = torch.rand(n_batch, input.shape[-nd - 1], nd, dtype=input.dtype, device=input.device)
    names = ("height", "width") if nd == 2 else ("time", "height", "width")
    for d in range(nd):
        if osz[d] + k[d] - 1 > spatial[d]:
            raise RuntimeError(f"{name}(): pool {names[d]} {k[d]} too large relative to input {names[d]} "
                               f"{spatial[d]}")
    unbatched = input.dim() == nd + 1
    x = input.unsqueeze(0) if unbatched else input
    n, c = x.shape[0], x.shape[1]
    sb = np.asarray(_dev.to_host(_buf(samples)))
    dt = np.dtype(sb.dtype)
    # per (n, c, output position): the flat spatial index of every element of the window
    idx = np.zeros((n, c) + osz + (int(np.prod(k)),), np.int64)
    for b in range(n):
        for ch in range(c):
            # the 2-D kernel reads samples (w, h), the 3-D one (t, h, w)
            order = (1, 0) if nd == 2 else (0, 1, 2)
            starts = [_intervals(float(sb[b, ch, order[d]]), spatial[d], osz[d], k[d], dt) for d in range(nd)]
            lin = np.zeros(osz + k, np.int64)
            for d in range(nd):
                pos = (starts[d].reshape([-1 if e == d else 1 for e in range(nd)] + [1] * nd)
                       + np.arange(k[d]).reshape([1] * nd + [-1 if e == d else 1 for e in range(nd)]))
                lin = lin * spatial[d] + pos
            idx[b, ch] = lin.reshape(osz + (-1,))
    flat = x.reshape(n, c, -1)
    gathered = flat.gather(2, torch.tensor(idx.reshape(n, c, -1), device=x.device)).view(n, c, *osz, -1)
    # the first maximum (NaN counts as the maximum, as in PyTorch's kernel)
    key = torch.where(gathered.isnan(), float("inf"), gathered)
    am = key.argmax(-1, keepdim=True)
    y = gathered.gather(-1, am).squeeze(-1)
    if unbatched:
        y = y.squeeze(0)
    if not return_indices:
        return y
    ind = torch.tensor(idx, device=x.device).gather(-1, am).squeeze(-1)
    return y, (ind.squeeze(0) if unbatched else ind)


def _tuple_f(x, n: int) -> tuple:
    if isinstance(x, (list, tuple)):
        return tuple(float(v) for v in x)
    return (float(x),) * n


def fractional_max_pool2d(input: Tensor, kernel_size: types.IntOrInts,
                          output_size: types.IntOrInts | None = None,
                          output_ratio: float | tuple[float,
                                                      float] | None = None, return_indices: bool = False,
                          _random_samples: Tensor | None = None) -> Tensor | tuple[Tensor, Tensor]:
    """Max pooling over pseudo-random windows (Graham, 2014); samples drawn from the
    generator as PyTorch draws them.

    Example::

        >>> import fgrad.torch as torch
        >>> fractional_max_pool2d(torch.arange(16.0).view(1, 1, 4, 4), 2, output_size=1)
        tensor([[[[15.]]]])
    """
    return _fractional(input, kernel_size, output_size, output_ratio, return_indices, _random_samples, 2)


def fractional_max_pool3d(input: Tensor, kernel_size: types.IntOrInts,
                          output_size: types.IntOrInts | None = None,
                          output_ratio: float | tuple[float, float, float] | None = None,
                          return_indices: bool = False,
                          _random_samples: Tensor | None = None) -> Tensor | tuple[Tensor, Tensor]:
    """3-D fractional max pooling.

    Example::

        >>> import fgrad.torch as torch
        >>> fractional_max_pool3d(torch.arange(8.0).view(1, 1, 2, 2, 2), 2, output_size=1)
        tensor([[[[[7.]]]]])
    """
    return _fractional(input, kernel_size, output_size, output_ratio, return_indices, _random_samples, 3)


def fractional_max_pool2d_with_indices(input: Tensor, kernel_size: types.IntOrInts,
                                       output_size: types.IntOrInts | None = None,
                                       output_ratio: float | tuple[float, float] | None = None,
                                       return_indices: bool = False,
                                       _random_samples: Tensor | None = None) -> tuple[Tensor, Tensor]:
    """``fractional_max_pool2d`` with its indices.

    Example::

        >>> import fgrad.torch as torch
        >>> fractional_max_pool2d_with_indices(torch.arange(16.0).view(1, 1, 4, 4), 2, output_size=1)[1]
        tensor([[[[15]]]])
    """
    return _fractional(input, kernel_size, output_size, output_ratio, True, _random_samples, 2)


def fractional_max_pool3d_with_indices(input: Tensor, kernel_size: types.IntOrInts,
                                       output_size: types.IntOrInts | None = None,
                                       output_ratio: float | tuple[float, float, float] | None = None,
                                       return_indices: bool = False,
                                       _random_samples: Tensor | None = None) -> tuple[Tensor, Tensor]:
    """``fractional_max_pool3d`` with its indices.

    Example::

        >>> import fgrad.torch as torch
        >>> fractional_max_pool3d_with_indices(torch.arange(8.0).view(1, 1, 2, 2, 2), 2, output_size=1)[1]
        tensor([[[[[7]]]]])
    """
    return _fractional(input, kernel_size, output_size, output_ratio, True, _random_samples, 3)
