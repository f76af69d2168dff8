"""Convolutions as the "conv arithmetic" notebooks exercise them: Conv1d/2d/3d with stride,
dilation, groups (depthwise), padding='same'/'valid' and padding_mode reflect/replicate/
circular, ConvTranspose with output_padding and groups and dilation, F.conv2d with a
hand-made Sobel kernel, output-size formulas checked, the equivalence of conv2d and
unfold+matmul, and the gradients with respect to input, weight and bias."""
# ruff: noqa: E501

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
img = torch.arange(36.0).reshape(1, 1, 6, 6)
sobel = torch.tensor([[[[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]]]])
print(F.conv2d(img, sobel), F.conv2d(img, sobel, padding=1, stride=2), F.conv2d(img, sobel.transpose(2, 3), padding="same"))
x = torch.randn(2, 4, 9, 9)
for kw in [dict(), dict(stride=2), dict(padding=2, dilation=2), dict(groups=2), dict(groups=4, padding="same"), dict(padding="valid", stride=(1, 3)),
           dict(padding=1, padding_mode="reflect"), dict(padding=2, padding_mode="replicate"), dict(padding=1, padding_mode="circular", stride=2)]:
    torch.manual_seed(1)
    conv = nn.Conv2d(4, 4, 3, **kw)
    y = conv(x)
    print(kw, tuple(y.shape), y[0, :, 1, 1])
torch.manual_seed(2)
c1 = nn.Conv1d(3, 6, 5, stride=2, padding=2, groups=3, padding_mode="circular")
s = torch.randn(2, 3, 11)
print(c1(s)[0, :, :3], nn.Conv1d(3, 2, 4, padding="same", dilation=2)(s)[1, :, :4])
c3 = nn.Conv3d(2, 3, (2, 3, 3), stride=(1, 2, 2), padding=(0, 1, 1))
v = torch.randn(1, 2, 4, 5, 5)
print(c3(v).shape, c3(v)[0, :, 0, 0, :2])
for kw in [dict(stride=2), dict(stride=2, output_padding=1), dict(stride=3, padding=1, output_padding=2), dict(groups=2, stride=2), dict(dilation=2, padding=1)]:
    torch.manual_seed(3)
    ct = nn.ConvTranspose2d(4, 2, 3, **kw)
    yt = ct(x[:, :, :4, :4])
    print(kw, tuple(yt.shape), yt[0, :, 1, :3])
torch.manual_seed(4)
ct1 = nn.ConvTranspose1d(3, 2, 4, stride=2, padding=1)
print(ct1(s)[0, :, :4], ct1(s, output_size=[23]).shape)
ct3 = nn.ConvTranspose3d(2, 1, 2, stride=2)
print(ct3(v).shape, ct3(v)[0, 0, 0, 0, :4])

w = torch.randn(5, 4, 3, 3)
cols = F.unfold(x, 3, padding=1)
via_unfold = (w.view(5, -1) @ cols).view(2, 5, 9, 9)
print(torch.allclose(via_unfold, F.conv2d(x, w, padding=1), atol=1e-5))
xr = x.clone().requires_grad_()
conv = nn.Conv2d(4, 6, 3, stride=2, padding=1, dilation=1, groups=2)
ctr = nn.ConvTranspose2d(6, 4, 3, stride=2, padding=1, output_padding=1)
outp = ctr(torch.tanh(conv(xr)))
loss = (outp[:, :, :9, :9] - x).pow(2).mean() + F.conv2d(xr, w, padding=2, dilation=2).abs().mean()
loss.backward()
print(outp.shape, loss)
print(xr.grad[0, 0, :2], conv.weight.grad[0, 0], conv.bias.grad, ctr.weight.grad[0, 0], ctr.bias.grad)
cr = nn.Conv2d(4, 2, 3, padding=2, padding_mode="reflect")
xr.grad = None
cr(xr).pow(2).sum().backward()
print(xr.grad[0, 0, :2], cr.weight.grad[1, 3])
