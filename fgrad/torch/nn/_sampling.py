"""``F.affine_grid`` and ``F.grid_sample``: sampling an image at arbitrary coordinates.

Both are compositions of Tensor ops, so their gradients (with respect to the image through
``gather``'s scatter-add transpose, with respect to the grid through the interpolation
weights) are the engine's rules; nothing is differentiated by hand.  The coordinate rules
(unnormalisation, ``border``/``reflection`` padding, the bicubic coefficients with
``A = -0.75``) and the order in which the corner terms are summed are PyTorch's
(``aten/src/ATen/native/GridSampler.h`` and its CPU kernels).

Example::

    >>> import fgrad.torch as torch
    >>> import fgrad.torch.nn.functional as F
    >>> theta = torch.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
    >>> grid = F.affine_grid(theta, [1, 1, 2, 2], align_corners=True)
    >>> F.grid_sample(torch.arange(4.0).view(1, 1, 2, 2), grid, align_corners=True)
    tensor([[[[0., 1.],
              [2., 3.]]]])
"""

from __future__ import annotations

import itertools
import warnings

import fgrad.torch as torch
from .._tensor import Tensor
import fgrad.torch.types as types

__all__ = ["affine_grid", "grid_sample"]

_ALIGN_WARNING = ("Default grid_sample and affine_grid behavior has changed to align_corners=False since "
                  "1.3.0. "
                  "Please specify align_corners=True if the old behavior is desired. See the documentation "
                  "of "
                  "grid_sample for details.")


def _base_coords(theta: Tensor, n: int, align_corners: bool) -> Tensor:
    """PyTorch's ``linspace_from_neg_one``: ``n`` points over [-1, 1], scaled by
    ``(n - 1) / n`` when the corners are not aligned."""
    if n <= 1:
        return torch.zeros(1, dtype=theta.dtype, device=theta.device)
    r = torch.linspace(-1, 1, n, dtype=theta.dtype, device=theta.device)
    if not align_corners:
        r = r * (n - 1) / n
    return r


def affine_grid(theta: Tensor, size: types.SizeLike, align_corners: bool | None = None) -> Tensor:
    """The sampling grid of a batch of affine maps ``theta`` ((N, 2, 3) for a 4-D ``size``,
    (N, 3, 4) for a 5-D one): ``grid[n, h, w] = theta[n] @ (x_w, y_h, 1)``.

    Example::

        >>> import fgrad.torch as torch
        >>> theta = torch.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
        >>> affine_grid(theta, [1, 1, 1, 2], align_corners=True)
        tensor([[[[-1.,  0.],
                  [ 1.,  0.]]]])
    """
    if align_corners is None:
        warnings.warn(_ALIGN_WARNING, UserWarning, stacklevel=2)
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    size = [int(s) for s in size]
    if len(size) == 4:
        if theta.dim() != 3 or tuple(theta.shape[-2:]) != (2, 3):
            raise ValueError(f"Expected a batch of 2D affine matrices of shape Nx2x3 for size {size}. "
                             f"Got {theta.shape}.")
        spatial = size[-2:]
    elif len(size) == 5:
        if theta.dim() != 3 or tuple(theta.shape[-2:]) != (3, 4):
            raise ValueError(f"Expected a batch of 3D affine matrices of shape Nx3x4 for size {size}. "
                             f"Got {theta.shape}.")
        spatial = size[-3:]
    else:
        raise NotImplementedError("affine_grid only supports 4D and 5D sizes, for 2D and 3D affine "
                                  "transforms, "
                                  f"respectively. Got size {size}.")
    if min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    n, nd = size[0], len(spatial)
    # base[..., 0] runs along the last axis (x), base[..., 1] along the one before (y), ...
    axes = [_base_coords(theta, s, align_corners) for s in spatial]  # outermost first (z, y, x)
    cols = []
    for k in range(nd):  # column k is the coordinate of axis nd - 1 - k
        a = nd - 1 - k
        shape = [1] * nd
        shape[a] = spatial[a]
        cols.append(axes[a].view(shape).expand(*spatial))
    cols.append(torch.ones(spatial, dtype=theta.dtype, device=theta.device))
    base = torch.stack(cols, -1).view(1, -1, nd + 1).expand(n, -1, -1)
    return base.bmm(theta.transpose(1, 2)).view(n, *spatial, nd)


# -- grid_sample ---------------------------------------------------------------------------


def _unnormalize(coord: Tensor, size: int, align_corners: bool) -> Tensor:
    if align_corners:
        return (coord + 1) / 2 * (size - 1)
    return ((coord + 1) * size - 1) / 2


def _reflect(x: Tensor, twice_low: int, twice_high: int) -> Tensor:
    """PyTorch's ``reflect_coordinates``: fold ``x`` into [low, high] by reflection."""
    if twice_low == twice_high:
        return torch.zeros_like(x)
    lo = twice_low / 2
    span = (twice_high - twice_low) / 2
    x = (x - lo).abs()
    extra = x.fmod(span)
    flips = (x / span).floor().detach()
    return torch.where(flips.remainder(2) == 0, extra + lo, span - extra + lo)


def _clip(coord: Tensor, size: int) -> Tensor:
    """PyTorch's ``clip_coordinates``: ``coord`` clamped to [0, size - 1], with gradient 1
    strictly inside and 0 on the ends (``clip_coordinates_set_grad``: a sample on the border
    does not move with the grid), as ``hardtanh``'s."""
    return torch.nn.functional.hardtanh(coord, 0.0, float(size - 1))


def _pad_coord(coord: Tensor, size: int, padding_mode: str, align_corners: bool) -> Tensor:
    if padding_mode == "border":
        return _clip(coord, size)
    if padding_mode == "reflection":
        coord = _reflect(coord, 0, 2 * (size - 1)) if align_corners else _reflect(coord, -1, 2 * size - 1)
        return _clip(coord, size)
    return coord


def _gather(flat: Tensor, idx: list, sizes: tuple, out_shape: tuple) -> tuple:
    """Values of ``flat`` (N, C, prod(sizes)) at integer coordinates ``idx`` (one float
    Tensor per spatial axis, outermost first, each (N, *out)); out-of-bounds positions
    read 0.  Returns (values (N, C, *out), in-bounds mask (N, 1, *out))."""
    n, c = flat.shape[0], flat.shape[1]
    valid = None
    lin = None
    for i, s in zip(idx, sizes):
        ok = (i >= 0) & (i <= s - 1)
        valid = ok if valid is None else valid & ok
        ic = torch.where(ok, i, 0.0).long()  # out of bounds, infinite or NaN: read at 0, masked
        lin = ic if lin is None else lin * s + ic
    lin = lin.reshape(n, 1, -1).expand(n, c, -1)
    vals = flat.gather(2, lin).view(n, c, *out_shape)
    return vals, valid.unsqueeze(1)


def _cubic_coeffs(t: Tensor) -> list:
    """PyTorch's ``get_cubic_upsample_coefficients`` (``A = -0.75``)."""
    a = -0.75

    def cc1(x):
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def cc2(x):
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a

    return [cc2(t + 1), cc1(t), cc1(1 - t), cc2(2 - t)]


def grid_sample(input: Tensor, grid: Tensor, mode: str = "bilinear", padding_mode: str = "zeros",
                align_corners: bool | None = None) -> Tensor:
    """Sample ``input`` (N, C, H, W) or (N, C, D, H, W) at the normalised coordinates of
    ``grid`` ((N, H', W', 2) or (N, D', H', W', 3), last axis (x, y[, z]) in [-1, 1]);
    ``mode`` ``'bilinear'``, ``'nearest'`` or ``'bicubic'`` (4-D only), ``padding_mode``
    ``'zeros'``, ``'border'`` or ``'reflection'``.

    Example::

        >>> import fgrad.torch as torch
        >>> img = torch.arange(4.0).view(1, 1, 2, 2)
        >>> grid_sample(img, torch.zeros(1, 1, 1, 2), align_corners=True)
        tensor([[[[1.5000]]]])
    """
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise ValueError("nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or "
                         "'bicubic', "
                         f"but got: '{mode}'")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
                         f"'reflection', but got: '{padding_mode}'")
    if align_corners is None:
        warnings.warn(_ALIGN_WARNING, UserWarning, stacklevel=2)
        align_corners = False
    if input.dim() not in (4, 5) or grid.dim() != input.dim():
        raise RuntimeError(f"grid_sampler(): expected 4D or 5D input and grid with same number of "
                           f"dimensions, "
                           f"but got input with sizes {list(input.shape)} and grid with sizes "
                           f"{list(grid.shape)}")
    nd = input.dim() - 2
    if grid.shape[-1] != nd:
        raise RuntimeError(f"grid_sampler(): expected grid to have size {nd} in last dimension, but got grid "
                           f"with sizes {list(grid.shape)}")
    if input.shape[0] != grid.shape[0]:
        raise RuntimeError("grid_sampler(): expected grid and input to have same batch size, but got input "
                           "with "
                           f"sizes {list(input.shape)} and grid with sizes {list(grid.shape)}")
    if mode == "bicubic" and nd != 2:
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
    if input.dtype != grid.dtype:
        raise RuntimeError(f"grid_sampler(): expected input and grid to have same dtype, but input has "
                           f"{input.dtype} and grid has {grid.dtype}")
    sizes = tuple(input.shape[2:])  # outermost first (D, H, W)
    out_shape = tuple(grid.shape[1:-1])
    flat = input.reshape(input.shape[0], input.shape[1], -1)
    # coordinates outermost first: grid[..., nd - 1] is the outermost axis
    raw = [_unnormalize(grid[..., nd - 1 - a], sizes[a], align_corners) for a in range(nd)]
    if mode == "bicubic":
        return _bicubic(flat, raw, sizes, out_shape, padding_mode, align_corners)
    coords = [_pad_coord(c, s, padding_mode, align_corners) for c, s in zip(raw, sizes)]
    if mode == "nearest":
        vals, valid = _gather(flat, [c.round().detach() for c in coords], sizes, out_shape)
        # the grid's gradient is 0, as PyTorch's (not missing: autograd.grad(out, grid) works);
        # the 0 outside the image is a select of the grid that never picks it
        never = torch.zeros_like(valid)
        zero = torch.where(never, grid.sum(-1).unsqueeze(1), 0.0)
        return torch.where(valid, vals, zero)
    lo = [c.floor().detach() for c in coords]
    if nd == 2:  # PyTorch's vectorised 2-D kernel: e = 1 - (x - x0), weight = w_y * w_x
        hi_w = [c - f for c, f in zip(coords, lo)]
        lo_w = [1 - w for w in hi_w]
    else:  # the 3-D kernel: (x0 + 1 - x), weight = w_x * w_y * w_z
        lo_w = [f + 1 - c for c, f in zip(coords, lo)]
        hi_w = [c - f for c, f in zip(coords, lo)]
    out = None
    for corner in itertools.product((0, 1), repeat=nd):  # outermost axis slowest: nw, ne, sw, se
        idx = [f + k for f, k in zip(lo, corner)]
        ws = [hi_w[a] if corner[a] else lo_w[a] for a in range(nd)]
        if nd == 2:
            w = ws[0] * ws[1]
        else:
            w = ws[2] * ws[1] * ws[0]
        vals, valid = _gather(flat, idx, sizes, out_shape)
        term = torch.where(valid, vals, 0.0) * w.unsqueeze(1)
        out = term if out is None else out + term
    return out


def _bicubic(flat: Tensor, raw: list, sizes: tuple, out_shape: tuple, padding_mode: str,
             align_corners: bool) -> Tensor:
    """Bicubic sampling: 4 x 4 taps around ``floor`` of the unnormalised coordinate, each tap's
    integer coordinate padded (PyTorch's ``get_value_bounded``), rows interpolated first."""
    iy, ix = raw
    y0, x0 = iy.floor().detach(), ix.floor().detach()
    cx = _cubic_coeffs(ix - x0)
    cy = _cubic_coeffs(iy - y0)
    out = None
    for j in range(4):
        row = None
        for i in range(4):
            yy = _pad_coord(y0 - 1 + j, sizes[0], padding_mode, align_corners)
            xx = _pad_coord(x0 - 1 + i, sizes[1], padding_mode, align_corners)
            vals, valid = _gather(flat, [yy, xx], sizes, out_shape)
            term = torch.where(valid, vals, 0.0) * cx[i].unsqueeze(1)
            row = term if row is None else row + term
        term = row * cy[j].unsqueeze(1)
        out = term if out is None else out + term
    return out
