"""Swin Transformer blocks (Liu et al. 2021, microsoft/Swin-Transformer and timm): window
partition and reverse by view/permute, the cyclic shift by torch.roll over two dims, the shifted
window attention mask built by slices and masked_fill, the relative position bias table indexed
by a non-persistent buffer built with meshgrid/flatten/permute, trunc_normal_ initialisation,
DropPath (stochastic depth) by bernoulli_ and div, patch merging with strided slicing, F.pad to
a multiple of the window size, and a tiny classification run with AdamW and cosine decay."""
# ruff: noqa: E501

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


def drop_path(x, drop_prob=0.0, training=False, scale_by_keep=True):
    if drop_prob == 0.0 or not training:
        return x
    keep_prob = 1 - drop_prob
    shape = (x.shape[0],) + (1,) * (x.ndim - 1)
    random_tensor = x.new_empty(shape).bernoulli_(keep_prob)
    if keep_prob > 0.0 and scale_by_keep:
        random_tensor.div_(keep_prob)
    return x * random_tensor


class DropPath(nn.Module):
    def __init__(self, drop_prob=0.0):
        super().__init__()
        self.drop_prob = drop_prob

    def forward(self, x):
        return drop_path(x, self.drop_prob, self.training)

    def extra_repr(self):
        return f"drop_prob={round(self.drop_prob, 3):0.3f}"


def window_partition(x, ws):
    B, H, W, C = x.shape
    x = x.view(B, H // ws, ws, W // ws, ws, C)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(-1, ws, ws, C)


def window_reverse(windows, ws, H, W):
    B = int(windows.shape[0] / (H * W / ws / ws))
    x = windows.view(B, H // ws, W // ws, ws, ws, -1)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(B, H, W, -1)


class WindowAttention(nn.Module):
    def __init__(self, dim, ws, num_heads):
        super().__init__()
        self.dim, self.ws, self.num_heads = dim, ws, num_heads
        self.scale = (dim // num_heads) ** -0.5
        self.relative_position_bias_table = nn.Parameter(torch.zeros((2 * ws - 1) * (2 * ws - 1), num_heads))
        coords = torch.stack(torch.meshgrid(torch.arange(ws), torch.arange(ws), indexing="ij"))
        coords_flatten = torch.flatten(coords, 1)
        rel = coords_flatten[:, :, None] - coords_flatten[:, None, :]
        rel = rel.permute(1, 2, 0).contiguous()
        rel[:, :, 0] += ws - 1
        rel[:, :, 1] += ws - 1
        rel[:, :, 0] *= 2 * ws - 1
        self.register_buffer("relative_position_index", rel.sum(-1), persistent=False)
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)
        nn.init.trunc_normal_(self.relative_position_bias_table, std=0.02)
        self.softmax = nn.Softmax(dim=-1)

    def forward(self, x, mask=None):
        B_, N, C = x.shape
        qkv = self.qkv(x).reshape(B_, N, 3, self.num_heads, C // self.num_heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        attn = (q * self.scale) @ k.transpose(-2, -1)
        bias = self.relative_position_bias_table[self.relative_position_index.view(-1)].view(N, N, -1)
        attn = attn + bias.permute(2, 0, 1).contiguous().unsqueeze(0)
        if mask is not None:
            nW = mask.shape[0]
            attn = attn.view(B_ // nW, nW, self.num_heads, N, N) + mask.unsqueeze(1).unsqueeze(0)
            attn = attn.view(-1, self.num_heads, N, N)
        attn = self.softmax(attn)
        return self.proj((attn @ v).transpose(1, 2).reshape(B_, N, C))


class SwinBlock(nn.Module):
    def __init__(self, dim, res, num_heads, ws=4, shift=0, drop_path=0.0):
        super().__init__()
        self.res, self.ws, self.shift = res, ws, shift
        self.norm1 = nn.LayerNorm(dim)
        self.attn = WindowAttention(dim, ws, num_heads)
        self.drop_path = DropPath(drop_path) if drop_path > 0.0 else nn.Identity()
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
        if shift > 0:
            H, W = res
            img_mask = torch.zeros((1, H, W, 1))
            cnt = 0
            for h in (slice(0, -ws), slice(-ws, -shift), slice(-shift, None)):
                for w in (slice(0, -ws), slice(-ws, -shift), slice(-shift, None)):
                    img_mask[:, h, w, :] = cnt
                    cnt += 1
            mw = window_partition(img_mask, ws).view(-1, ws * ws)
            attn_mask = mw.unsqueeze(1) - mw.unsqueeze(2)
            attn_mask = attn_mask.masked_fill(attn_mask != 0, float(-100.0)).masked_fill(attn_mask == 0, float(0.0))
        else:
            attn_mask = None
        self.register_buffer("attn_mask", attn_mask)

    def forward(self, x):
        H, W = self.res
        B, L, C = x.shape
        shortcut = x
        x = self.norm1(x).view(B, H, W, C)
        if self.shift > 0:
            x = torch.roll(x, shifts=(-self.shift, -self.shift), dims=(1, 2))
        xw = window_partition(x, self.ws).view(-1, self.ws * self.ws, C)
        aw = self.attn(xw, mask=self.attn_mask).view(-1, self.ws, self.ws, C)
        x = window_reverse(aw, self.ws, H, W)
        if self.shift > 0:
            x = torch.roll(x, shifts=(self.shift, self.shift), dims=(1, 2))
        x = shortcut + self.drop_path(x.view(B, H * W, C))
        return x + self.drop_path(self.mlp(self.norm2(x)))


class PatchMerging(nn.Module):
    def __init__(self, res, dim):
        super().__init__()
        self.res = res
        self.reduction = nn.Linear(4 * dim, 2 * dim, bias=False)
        self.norm = nn.LayerNorm(4 * dim)

    def forward(self, x):
        H, W = self.res
        B, L, C = x.shape
        x = x.view(B, H, W, C)
        x = torch.cat([x[:, 0::2, 0::2, :], x[:, 1::2, 0::2, :], x[:, 0::2, 1::2, :], x[:, 1::2, 1::2, :]], -1)
        return self.reduction(self.norm(x.view(B, -1, 4 * C)))


class TinySwin(nn.Module):
    def __init__(self, num_classes=3, dim=16):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, kernel_size=2, stride=2)
        self.blocks = nn.Sequential(SwinBlock(dim, (8, 8), 2, 4, 0, 0.1), SwinBlock(dim, (8, 8), 2, 4, 2, 0.1))
        self.merge = PatchMerging((8, 8), dim)
        self.norm = nn.LayerNorm(2 * dim)
        self.head = nn.Linear(2 * dim, num_classes)
        self.apply(self._init_weights)

    def _init_weights(self, m):
        if isinstance(m, nn.Linear):
            nn.init.trunc_normal_(m.weight, std=0.02)
            if m.bias is not None:
                nn.init.constant_(m.bias, 0)
        elif isinstance(m, nn.LayerNorm):
            nn.init.constant_(m.bias, 0)
            nn.init.constant_(m.weight, 1.0)

    def forward(self, x):
        x = F.pad(x, (0, (-x.shape[-1]) % 2, 0, (-x.shape[-2]) % 2))
        x = self.patch_embed(x).flatten(2).transpose(1, 2)
        x = self.merge(self.blocks(x))
        x = self.norm(x).mean(1)
        return self.head(x)


x = torch.arange(2 * 8 * 8 * 3, dtype=torch.float32).view(2, 8, 8, 3)
w = window_partition(x, 4)
print("partition", w.shape, torch.equal(window_reverse(w, 4, 8, 8), x))
print("roll", torch.roll(torch.arange(9).view(3, 3), shifts=(1, -1), dims=(0, 1)).tolist(), torch.roll(torch.arange(6), 2).tolist())
blk = SwinBlock(16, (8, 8), 2, ws=4, shift=2)
print("mask", blk.attn_mask.shape, int((blk.attn_mask == -100).sum()), blk.attn_mask[3, 0, :6].tolist())
print("rel index", blk.attn.relative_position_index.shape, blk.attn.relative_position_index[0, :5].tolist(), blk.attn.relative_position_index.max().item())
print("state keys", [k for k in blk.state_dict() if "index" in k or "mask" in k or "table" in k])
t = torch.empty(10000)
nn.init.trunc_normal_(t, mean=0.0, std=1.0, a=-2.0, b=2.0)
print("trunc_normal", f"{t.min().item():.4f}" if t.min().item() >= -2 else "out", t.abs().max().item() <= 2.0, f"{t.std().item():.2f}")
print(DropPath(0.25))
dp = DropPath(0.5)
torch.manual_seed(1)
print("drop_path", dp(torch.ones(6, 2)).tolist())
dp.eval()
print("drop_path eval", dp(torch.ones(2, 2)).sum().item())

torch.manual_seed(0)
model = TinySwin()
print("params", sum(p.numel() for p in model.parameters()))
imgs = torch.randn(12, 3, 15, 15)
labels = torch.arange(12) % 3
imgs[labels == 1, 0] += 1.0
imgs[labels == 2, 1] -= 1.0
decay = [p for n, p in model.named_parameters() if p.ndim > 1 and "table" not in n]
no_decay = [p for n, p in model.named_parameters() if p.ndim <= 1 or "table" in n]
opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.05}, {"params": no_decay, "weight_decay": 0.0}], lr=3e-3)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=20, eta_min=1e-5)
for ep in range(20):
    model.train()
    out = model(imgs)
    loss = F.cross_entropy(out, labels, label_smoothing=0.1)
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    if ep % 5 == 0 or ep == 19:
        model.eval()
        with torch.no_grad():
            acc = (model(imgs).argmax(1) == labels).float().mean().item()
        print(f"ep {ep:2d} loss {loss.item():.4f} acc {acc:.3f} lr {sched.get_last_lr()[0]:.6f}")
