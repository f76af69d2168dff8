"""Normalization layers as the "batch norm from scratch" notebooks compare them with the
built-ins: BatchNorm1d/2d running statistics with momentum and momentum=None (cumulative
average), eval mode, track_running_stats=False, affine=False, InstanceNorm with and without
running stats, GroupNorm, LayerNorm over several dims, RMSNorm, LocalResponseNorm, the
functional forms, hand-written versions checked against them, and their gradients."""
# ruff: noqa: E501

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(8, 3, 5, 5) * 2 + 1
bn = nn.BatchNorm2d(3)
for _ in range(3):
    y = bn(x)
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
manual = (x - x.mean((0, 2, 3), keepdim=True)) / torch.sqrt(x.var((0, 2, 3), unbiased=False, keepdim=True) + bn.eps)
print((y - manual).abs().max() < 1e-5)
cum = nn.BatchNorm2d(3, momentum=None)
for k in range(4):
    cum(x[2 * k: 2 * k + 2])
print(cum.running_mean, cum.running_var, cum.num_batches_tracked)
bn.eval()
print(bn(x)[0, :, 0, 0], nn.BatchNorm2d(3, track_running_stats=False).eval()(x)[0, :, 0, 0])
b1 = nn.BatchNorm1d(4, affine=False, momentum=0.3)
seq = torch.randn(6, 4, 7)
print(b1(seq).mean((0, 2)).abs().max() < 1e-6, b1.running_var, b1(seq[:, :, 0]).std(0, unbiased=False))
print(nn.BatchNorm1d(4)(torch.randn(5, 4)).sum(0).abs().max() < 1e-5)

inn = nn.InstanceNorm2d(3, affine=True, track_running_stats=True)
yi = inn(x)
print(yi[0, :, 0, :3], inn.running_mean, inn.running_var)
inn.eval()
print(inn(x)[0, :, 0, :3])
print(nn.InstanceNorm1d(4)(seq)[0, :, :3], F.instance_norm(seq, eps=1e-3)[1, 0, :3])

gn = nn.GroupNorm(3, 6)
z = torch.randn(4, 6, 3, 3)
with torch.no_grad():
    gn.weight.copy_(torch.linspace(0.5, 1.5, 6))
    gn.bias.fill_(0.1)
g = gn(z)
zz = z.reshape(4, 3, -1)
man = ((zz - zz.mean(-1, keepdim=True)) / (zz.var(-1, unbiased=False, keepdim=True) + 1e-5).sqrt()).reshape_as(z)
print(g[0, :, 0, 0], (g - (man * gn.weight[:, None, None] + 0.1)).abs().max() < 1e-5, F.group_norm(z, 2)[1, :, 1, 1])

ln = nn.LayerNorm([3, 5, 5])
print(ln(x)[0, 0, 0], ln(x).mean((1, 2, 3)).abs().max() < 1e-6, nn.LayerNorm(5, elementwise_affine=False, bias=False)(x)[0, 0, 0])
print(F.layer_norm(x, (5,), weight=torch.arange(5.0), bias=torch.ones(5))[0, 0, 0])
rms = nn.RMSNorm(5, eps=1e-6)
print(rms(x)[0, 0, 0], F.rms_norm(x, (5, 5))[0, 0, 0], nn.RMSNorm([5])(x).pow(2).mean(-1)[0, 0])
lrn = nn.LocalResponseNorm(3, alpha=1e-2, beta=0.75, k=2.0)
print(lrn(x)[0, :, 0, 0], F.local_response_norm(seq, 2)[0, :, 0])

xr = x.clone().requires_grad_()
bn2 = nn.BatchNorm2d(3)
loss = (bn2(xr) * torch.arange(3.0).view(1, 3, 1, 1)).pow(2).sum() + gn(xr[:, :, :3, :3].repeat(1, 2, 1, 1)[:4]).sum() * 0 + (ln(xr) * xr).sum()
loss.backward()
print(xr.grad[0, :, 0], bn2.weight.grad.round(decimals=2), bn2.bias.grad.abs().max() < 1e-3, ln.weight.grad[0, 0], gn.weight.grad)
xi = seq.clone().requires_grad_()
(nn.InstanceNorm1d(4, affine=True)(xi) * torch.linspace(-1, 1, 7)).sum().backward()
print(xi.grad[0])
xl = torch.randn(2, 5, requires_grad=True)
(rms(xl) * torch.arange(5.0)).sum().backward()
print(xl.grad, rms.weight.grad)
