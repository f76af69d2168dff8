"""`Upsample` (and its fixed-mode forms `UpsamplingNearest2d`, `UpsamplingBilinear2d`) and
`PixelShuffle`/`PixelUnshuffle`: modules over ``F.interpolate`` and ``F.pixel_shuffle``.

Example::

    >>> import fgrad.torch as torch
    >>> torch.nn.Upsample(scale_factor=2)(torch.ones(1, 1, 2)).shape
    torch.Size([1, 1, 4])
"""

from __future__ import annotations

import fgrad.torch.nn.functional as F
from .module import Module
from fgrad.torch.types import IntOrInts, Tensor

__all__ = ["PixelShuffle", "PixelUnshuffle", "Upsample", "UpsamplingBilinear2d", "UpsamplingNearest2d"]


class Upsample(Module):
    """Resize the spatial axes of its input (``F.interpolate`` with the stored options).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.Upsample(scale_factor=2, mode='nearest')(torch.tensor([[[1.0, 2.0]]]))
        tensor([[[1., 1., 2., 2.]]])
    """

    __constants__ = ["size", "scale_factor", "mode", "align_corners", "name", "recompute_scale_factor"]

    def __init__(
        self,
        size: int | tuple[int, ...] | None = None,
        scale_factor: float | tuple[float, ...] | None = None,
        mode: str = "nearest",
        align_corners: bool | None = None,
        recompute_scale_factor: bool | None = None,
    ) -> None:
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        if isinstance(scale_factor, tuple):
            self.scale_factor = tuple(float(f) for f in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input: Tensor) -> Tensor:
        return F.interpolate(
            input,
            self.size,
            self.scale_factor,
            self.mode,
            self.align_corners,
            recompute_scale_factor=self.recompute_scale_factor,
        )

    def extra_repr(self) -> str:
        info = (
            f"scale_factor={self.scale_factor!r}" if self.scale_factor is not None else f"size={self.size!r}"
        )
        return info + f", mode={self.mode!r}"


class UpsamplingNearest2d(Upsample):
    """``Upsample(mode="nearest")`` for 4-d inputs.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.UpsamplingNearest2d(scale_factor=2)(torch.tensor([[[[1.0, 2.0]]]]))
        tensor([[[[1., 1., 2., 2.],
                  [1., 1., 2., 2.]]]])
    """

    def __init__(self, size: IntOrInts | None = None,
                 scale_factor: float | tuple[float, float] | None = None) -> None:
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """``Upsample(mode="bilinear", align_corners=True)`` for 4-d inputs.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.UpsamplingBilinear2d(scale_factor=2)(torch.tensor([[[[1.0, 2.0]]]]))
        tensor([[[[1.0000, 1.3333, 1.6667, 2.0000],
                  [1.0000, 1.3333, 1.6667, 2.0000]]]])
    """

    def __init__(self, size: IntOrInts | None = None,
                 scale_factor: float | tuple[float, float] | None = None) -> None:
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)


class PixelShuffle(Module):
    """``(*, C r^2, H, W) -> (*, C, H r, W r)``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.PixelShuffle(2)(torch.arange(4.0).reshape(1, 4, 1, 1))
        tensor([[[[0., 1.],
                  [2., 3.]]]])
    """

    __constants__ = ["upscale_factor"]

    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input: Tensor) -> Tensor:
        return F.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self) -> str:
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    """``(*, C, H r, W r) -> (*, C r^2, H, W)``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.PixelUnshuffle(2)(torch.arange(4.0).reshape(1, 1, 2, 2)).flatten()
        tensor([0., 1., 2., 3.])
    """

    __constants__ = ["downscale_factor"]

    def __init__(self, downscale_factor: int) -> None:
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input: Tensor) -> Tensor:
        return F.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self) -> str:
        return f"downscale_factor={self.downscale_factor}"
