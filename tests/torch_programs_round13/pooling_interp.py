"""Pooling, resampling and padding layers as vision notebooks use them: AvgPool with
count_include_pad / ceil_mode / divisor_override, MaxPool with dilation and ceil_mode and
return_indices, adaptive pools to non-divisible sizes, LPPool, F.interpolate in every mode
(nearest, nearest-exact, linear, bilinear, bicubic, trilinear, area, align_corners,
scale_factor with recompute_scale_factor, antialias), PixelShuffle/PixelUnshuffle, F.pad in
every mode, and the gradients through them."""
# ruff: noqa: E501

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(1, 2, 7, 7)
print(F.avg_pool2d(x, 3, stride=2, padding=1), F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False))
print(F.avg_pool2d(x, 2, ceil_mode=True), F.avg_pool2d(x, 3, stride=2, ceil_mode=True, padding=1, count_include_pad=False), F.avg_pool2d(x, 2, divisor_override=3))
v, idx = F.max_pool2d(x, 3, stride=2, padding=1, dilation=1, ceil_mode=True, return_indices=True)
print(v, idx)
print(F.max_pool2d(x, 2, dilation=2), F.max_pool1d(x[0], 3, stride=2, ceil_mode=True))
print(F.adaptive_avg_pool2d(x, (3, 5)), F.adaptive_max_pool2d(x, 4, return_indices=True))
print(F.adaptive_avg_pool1d(x[0], 5), F.adaptive_max_pool1d(x[0], 3), F.lp_pool2d(x.abs(), 2, 3, stride=2), F.lp_pool1d(x[0], 3, 2))
v3 = torch.randn(1, 1, 4, 5, 6)
print(F.avg_pool3d(v3, 2), F.max_pool3d(v3, (2, 2, 3), stride=(1, 2, 2)), F.adaptive_avg_pool3d(v3, (2, 3, 4)).shape)

small = torch.arange(12.0).reshape(1, 1, 3, 4)
for mode in ["nearest", "nearest-exact", "bilinear", "bicubic", "area"]:
    print(mode, F.interpolate(small, size=(5, 7), mode=mode))
for mode in ["bilinear", "bicubic"]:
    print(mode, F.interpolate(small, scale_factor=1.5, mode=mode, align_corners=True))
print(F.interpolate(small, scale_factor=(0.6, 1.3), mode="bilinear", recompute_scale_factor=True))
print(F.interpolate(small, scale_factor=(0.6, 1.3), mode="nearest"))
print(F.interpolate(x, size=(3, 3), mode="bilinear", antialias=True), F.interpolate(x, size=(4, 2), mode="bicubic", antialias=True))
seq = torch.arange(5.0).reshape(1, 1, 5)
print(F.interpolate(seq, size=8, mode="linear"), F.interpolate(seq, size=3, mode="linear", align_corners=True), F.interpolate(seq, scale_factor=2, mode="nearest"))
print(F.interpolate(v3, size=(3, 3, 3), mode="trilinear"), F.interpolate(v3, scale_factor=0.5, mode="nearest"))
print(nn.Upsample(scale_factor=2, mode="nearest")(small), nn.UpsamplingBilinear2d(scale_factor=2)(small))

ps = nn.PixelShuffle(2)
c = torch.arange(32.0).reshape(1, 8, 2, 2)
print(ps(c), nn.PixelUnshuffle(2)(ps(c)).equal(c))
q = torch.arange(12.0).reshape(1, 1, 3, 4)
for mode in ["constant", "reflect", "replicate", "circular"]:
    print(mode, F.pad(q, (2, 1, 1, 2), mode=mode) if mode != "constant" else F.pad(q, (2, 1, 1, 2), value=-1.0))
print(F.pad(q, (-1, 1, 0, -1)), F.pad(torch.arange(4.0).reshape(1, 1, 4), (3, 3), mode="reflect"), F.pad(torch.arange(4.0).reshape(1, 4), (1, 2), mode="replicate"))

g = x.clone().requires_grad_()
out = (F.avg_pool2d(g, 3, stride=2, padding=1, count_include_pad=False).sum() + F.max_pool2d(g, 3, stride=2, ceil_mode=True).sum()
       + (F.interpolate(g, size=(4, 9), mode="bicubic") ** 2).sum() + F.adaptive_avg_pool2d(g, (3, 5)).pow(2).sum()
       + F.pad(g, (2, 2, 1, 1), mode="reflect").pow(2).mean() + F.interpolate(g, size=(3, 3), mode="bilinear", antialias=True).sum()
       + F.interpolate(g, scale_factor=0.4, mode="area").sum() + F.lp_pool2d(g, 2, 2).sum())
out.backward()
print(g.grad)
