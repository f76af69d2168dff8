"""A PixelCNN on 8x8 images with 4 intensity levels, as in the autoregressive-model lectures:
masked convolutions (type A and B masks registered as buffers, the weight multiplied by the
mask in forward), residual blocks, a 4-way softmax per pixel trained with cross_entropy on a
(B, C, H, W) target, bits per dimension, raster-order sampling with torch.multinomial under a
seed, and a check that the receptive field respects the ordering (a gradient of one output
pixel is zero at and after it)."""
# ruff: noqa: E501

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(11)
LEVELS, H = 4, 8


class MaskedConv2d(nn.Conv2d):
    def __init__(self, mask_type, *args, **kwargs):
        super().__init__(*args, **kwargs)
        assert mask_type in ("A", "B")
        self.register_buffer("mask", torch.ones_like(self.weight))
        _, _, kh, kw = self.weight.shape
        self.mask[:, :, kh // 2, kw // 2 + (mask_type == "B"):] = 0
        self.mask[:, :, kh // 2 + 1:] = 0

    def forward(self, x):
        return F.conv2d(x, self.weight * self.mask, self.bias, self.stride, self.padding)


class ResBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.net = nn.Sequential(nn.ReLU(), nn.Conv2d(c, c // 2, 1), nn.ReLU(),
                                 MaskedConv2d("B", c // 2, c // 2, 3, padding=1), nn.ReLU(), nn.Conv2d(c // 2, c, 1))

    def forward(self, x):
        return x + self.net(x)


class PixelCNN(nn.Module):
    def __init__(self, c=16):
        super().__init__()
        self.inp = MaskedConv2d("A", 1, c, 5, padding=2)
        self.blocks = nn.Sequential(*[ResBlock(c) for _ in range(2)])
        self.out = nn.Sequential(nn.ReLU(), nn.Conv2d(c, LEVELS, 1))

    def forward(self, x):
        return self.out(self.blocks(self.inp(x / (LEVELS - 1) * 2 - 1)))


def make_data(n):
    yy, xx = torch.meshgrid(torch.arange(H), torch.arange(H), indexing="ij")
    base = ((xx + yy) // 4).clamp(max=LEVELS - 1)
    imgs = base.expand(n, 1, H, H).clone()
    flip = torch.rand(n) < 0.5
    imgs[flip] = imgs[flip].flip(-1)
    noise = torch.rand(n, 1, H, H) < 0.1
    imgs[noise] = torch.randint(0, LEVELS, (int(noise.sum()),))
    return imgs


model = PixelCNN()
print(model.inp.mask[0, 0].int(), model.blocks[0].net[3].mask[0, 0].int())
print(sum(p.numel() for p in model.parameters()), [n for n, _ in model.named_buffers()])
data = make_data(64)
print(data.shape, data.dtype, torch.bincount(data.flatten(), minlength=LEVELS))
opt = torch.optim.RMSprop(model.parameters(), lr=2e-3)
for epoch in range(4):
    perm = torch.randperm(64)
    total = 0.0
    for idx in perm.chunk(4):
        x = data[idx]
        logits = model(x.float())
        loss = F.cross_entropy(logits, x.squeeze(1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
    print(f"epoch {epoch} nll {total / 64:.4f} bits/dim {total / 64 / math.log(2):.4f}")

x = data[:1].float().requires_grad_()
out = model(x)
out[0, :, 3, 4].sum().backward()
g = x.grad[0, 0].abs() > 0
print(g.int(), bool(g[3, 4:].any()), bool(g[4:].any()))

model.eval()
torch.manual_seed(2)
sample = torch.zeros(2, 1, H, H)
with torch.no_grad():
    for i in range(H):
        for j in range(H):
            probs = F.softmax(model(sample)[:, :, i, j], dim=1)
            sample[:, 0, i, j] = torch.multinomial(probs, 1).squeeze(1).float()
print(sample.long().squeeze(1))
with torch.no_grad():
    lp = F.log_softmax(model(data[:4].float()), 1).gather(1, data[:4]).sum((1, 2, 3))
print(lp.round(decimals=2))
