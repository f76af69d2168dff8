"""ConvNeXt V1/V2 (Liu et al. 2022, Woo et al. 2023, the facebookresearch/ConvNeXt-V2 block): a
patchify stem (Conv2d k=s=2), blocks of a 7x7 depthwise Conv2d (groups=dim), a LayerNorm that
supports channels_first by hand (mean/var over dim 1) and channels_last via F.layer_norm after
permute(0, 2, 3, 1), an inverted-bottleneck MLP as Linear layers on channels-last tensors,
Global Response Normalization (torch.norm over (1, 2) divided by its channel mean), V1's layer
scale, stochastic depth (DropPath by a per-sample bernoulli_ mask scaled by 1/keep), a
downsampling layer, trunc_normal_ init, AdamW with a cosine schedule and warmup by
SequentialLR(LinearLR, CosineAnnealingLR), label smoothing; trained on synthetic oriented
stripes, then the channels_first and channels_last LayerNorms are checked to agree."""
# ruff: noqa: E501

import math

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


class LayerNorm(nn.Module):
    def __init__(self, dim, eps=1e-6, data_format="channels_last"):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.bias = nn.Parameter(torch.zeros(dim))
        self.eps, self.data_format, self.shape = eps, data_format, (dim,)

    def forward(self, x):
        if self.data_format == "channels_last":
            return F.layer_norm(x, self.shape, self.weight, self.bias, self.eps)
        u = x.mean(1, keepdim=True)
        s = (x - u).pow(2).mean(1, keepdim=True)
        x = (x - u) / torch.sqrt(s + self.eps)
        return self.weight[:, None, None] * x + self.bias[:, None, None]


class GRN(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.gamma = nn.Parameter(torch.zeros(1, 1, 1, dim))
        self.beta = nn.Parameter(torch.zeros(1, 1, 1, dim))

    def forward(self, x):
        gx = torch.norm(x, p=2, dim=(1, 2), keepdim=True)
        nx = gx / (gx.mean(dim=-1, keepdim=True) + 1e-6)
        return self.gamma * (x * nx) + self.beta + x


def drop_path(x, p, training):
    if p == 0.0 or not training:
        return x
    keep = 1 - p
    mask = x.new_empty((x.shape[0],) + (1,) * (x.ndim - 1)).bernoulli_(keep)
    return x * mask.div_(keep)


class Block(nn.Module):
    def __init__(self, dim, drop_path=0.0, v2=True, layer_scale=1e-6):
        super().__init__()
        self.dwconv = nn.Conv2d(dim, dim, kernel_size=7, padding=3, groups=dim)
        self.norm = LayerNorm(dim)
        self.pwconv1 = nn.Linear(dim, 4 * dim)
        self.act = nn.GELU()
        self.grn = GRN(4 * dim) if v2 else nn.Identity()
        self.pwconv2 = nn.Linear(4 * dim, dim)
        self.gamma = nn.Parameter(layer_scale * torch.ones(dim)) if not v2 else None
        self.drop_path = drop_path

    def forward(self, x):
        shortcut = x
        x = self.dwconv(x).permute(0, 2, 3, 1)
        x = self.pwconv2(self.grn(self.act(self.pwconv1(self.norm(x)))))
        if self.gamma is not None:
            x = self.gamma * x
        return shortcut + drop_path(x.permute(0, 3, 1, 2), self.drop_path, self.training)


class ConvNeXt(nn.Module):
    def __init__(self, num_classes=4, dims=(16, 32), depths=(2, 2), v2=True, drop_path_rate=0.1):
        super().__init__()
        rates = torch.linspace(0, drop_path_rate, sum(depths)).tolist()
        self.stem = nn.Sequential(nn.Conv2d(1, dims[0], 2, stride=2), LayerNorm(dims[0], data_format="channels_first"))
        self.down = nn.Sequential(LayerNorm(dims[0], data_format="channels_first"), nn.Conv2d(dims[0], dims[1], 2, stride=2))
        self.stage1 = nn.Sequential(*[Block(dims[0], rates[i], v2) for i in range(depths[0])])
        self.stage2 = nn.Sequential(*[Block(dims[1], rates[depths[0] + i], v2) for i in range(depths[1])])
        self.norm = nn.LayerNorm(dims[1], eps=1e-6)
        self.head = nn.Linear(dims[1], num_classes)
        self.apply(self._init)

    @staticmethod
    def _init(m):
        if isinstance(m, (nn.Conv2d, nn.Linear)):
            nn.init.trunc_normal_(m.weight, std=0.02)
            nn.init.constant_(m.bias, 0)

    def forward(self, x):
        x = self.stage2(self.down(self.stage1(self.stem(x))))
        return self.head(self.norm(x.mean([-2, -1])))


def stripes(n, gen):
    y = torch.randint(0, 4, (n,), generator=gen)
    angle = y.float() * math.pi / 4 + 0.15 * torch.randn(n, generator=gen)
    freq = 1.2 + 0.3 * torch.rand(n, 1, 1, generator=gen)
    lin = torch.arange(16.0) - 7.5
    yy, xx = torch.meshgrid(lin, lin, indexing="ij")
    proj = xx * torch.cos(angle)[:, None, None] + yy * torch.sin(angle)[:, None, None]
    img = torch.sin(freq * proj) + 0.3 * torch.randn(n, 16, 16, generator=gen)
    return img.unsqueeze(1), y


gen = torch.Generator().manual_seed(0)
Xtr, ytr = stripes(256, gen)
Xte, yte = stripes(128, gen)
for v2 in (True, False):
    torch.manual_seed(1)
    model = ConvNeXt(v2=v2)
    decay = [p for n, p in model.named_parameters() if p.ndim > 1 and "grn" not in n]
    other = [p for n, p in model.named_parameters() if not (p.ndim > 1 and "grn" not in n)]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.05}, {"params": other, "weight_decay": 0.0}], lr=4e-3)
    epochs, steps = 8, 8
    warm = torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.1, total_iters=steps)
    cos = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=(epochs - 1) * steps, eta_min=1e-5)
    sched = torch.optim.lr_scheduler.SequentialLR(opt, [warm, cos], milestones=[steps])
    print("v2" if v2 else "v1", "params", sum(p.numel() for p in model.parameters()), "decay tensors", len(decay))
    for ep in range(epochs):
        model.train()
        perm = torch.randperm(256, generator=gen)
        for i in range(steps):
            idx = perm[i * 32:(i + 1) * 32]
            loss = F.cross_entropy(model(Xtr[idx]), ytr[idx], label_smoothing=0.1)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        if ep % 3 == 0 or ep == epochs - 1:
            model.eval()
            with torch.no_grad():
                acc = (model(Xte).argmax(1) == yte).float().mean().item()
            print(f"  epoch {ep} loss {loss.item():.4f} test acc {acc:.3f} lr {sched.get_last_lr()[0]:.6f}")
    if v2:
        print("  grn gamma norm", round(model.stage1[0].grn.gamma.norm().item(), 4), "beta", round(model.stage1[0].grn.beta.norm().item(), 4))
    else:
        print("  layer scale", [f"{model.stage2[i].gamma.abs().mean().item():.2e}" for i in range(2)])

ln = LayerNorm(16, data_format="channels_first")
with torch.no_grad():
    ln.weight.uniform_(0.5, 1.5)
    ln.bias.normal_()
x = torch.randn(2, 16, 5, 5)
ref = F.layer_norm(x.permute(0, 2, 3, 1), (16,), ln.weight, ln.bias, 1e-6).permute(0, 3, 1, 2)
print("channels_first == channels_last", torch.allclose(ln(x), ref, atol=1e-5))
torch.manual_seed(3)
y = drop_path(torch.ones(8, 2, 2, 2), 0.5, True)
print("drop path kept", (y[:, 0, 0, 0] > 0).sum().item(), "values", sorted(set(y.flatten().tolist())))
