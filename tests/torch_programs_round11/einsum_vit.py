"""A small Vision Transformer as in lucidrains' vit-pytorch, with einops-style reshapes written
by hand (rearrange "b c (h p1) (w p2) -> b (h w) (p1 p2 c)" via reshape/permute, and
unfold-based patches for comparison), einsum attention "b h i d, b h j d -> b h i j", a
class token, learned positional embeddings, pre-norm blocks with GELU MLPs, and training."""
# ruff: noqa: B007, E501  (written as the published program is)

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def to_patches(img, p):
    b, c, H, W = img.shape
    x = img.reshape(b, c, H // p, p, W // p, p)
    x = x.permute(0, 2, 4, 3, 5, 1)
    return x.reshape(b, (H // p) * (W // p), p * p * c)


img = torch.arange(2 * 3 * 4 * 4, dtype=torch.float32).reshape(2, 3, 4, 4)
patches = to_patches(img, 2)
unf = F.unfold(img, kernel_size=2, stride=2).transpose(1, 2)
print(patches.shape, unf.shape, patches[0, 1])
print(torch.equal(patches.sort(-1).values, unf.sort(-1).values))
print(torch.einsum("bnd->bdn", patches).shape, torch.einsum("ii->i", torch.eye(3) * 2), torch.einsum("i,j->ij", torch.arange(2.0), torch.arange(3.0)))


class Attention(nn.Module):
    def __init__(self, dim, heads=4, dim_head=8):
        super().__init__()
        inner = heads * dim_head
        self.heads = heads
        self.scale = dim_head ** -0.5
        self.norm = nn.LayerNorm(dim)
        self.to_qkv = nn.Linear(dim, inner * 3, bias=False)
        self.to_out = nn.Linear(inner, dim)

    def forward(self, x):
        x = self.norm(x)
        b, n, _ = x.shape
        qkv = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = (t.reshape(b, n, self.heads, -1).transpose(1, 2) for t in qkv)
        dots = torch.einsum("bhid,bhjd->bhij", q, k) * self.scale
        attn = dots.softmax(dim=-1)
        out = torch.einsum("bhij,bhjd->bhid", attn, v)
        out = out.transpose(1, 2).reshape(b, n, -1)
        return self.to_out(out), attn


class ViT(nn.Module):
    def __init__(self, image_size=8, patch_size=2, num_classes=3, dim=32, depth=2, channels=3):
        super().__init__()
        num_patches = (image_size // patch_size) ** 2
        self.p = patch_size
        self.to_patch_embedding = nn.Sequential(nn.LayerNorm(patch_size * patch_size * channels), nn.Linear(patch_size * patch_size * channels, dim), nn.LayerNorm(dim))
        self.pos_embedding = nn.Parameter(torch.randn(1, num_patches + 1, dim) * 0.02)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.layers = nn.ModuleList([nn.ModuleList([Attention(dim), nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 64), nn.GELU(), nn.Linear(64, dim))]) for _ in range(depth)])
        self.head = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, num_classes))

    def forward(self, img):
        x = self.to_patch_embedding(to_patches(img, self.p))
        b = x.shape[0]
        x = torch.cat((self.cls_token.expand(b, -1, -1), x), dim=1)
        x = x + self.pos_embedding
        attns = []
        for attn, ff in self.layers:
            a, w = attn(x)
            x = a + x
            x = ff(x) + x
            attns.append(w)
        return self.head(x[:, 0]), attns


model = ViT()
print(sum(p.numel() for p in model.parameters()), model.layers[0][0].to_qkv)
imgs = torch.randn(24, 3, 8, 8)
labels = (imgs[:, 0, :4].mean((1, 2)) > 0).long() + (imgs[:, 1, 4:].mean((1, 2)) > 0).long()
opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.05)
for epoch in range(8):
    logits, attns = model(imgs)
    loss = F.cross_entropy(logits, labels, label_smoothing=0.1)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 2 == 1:
        print(epoch, f"{loss.item():.4f}", f"{(logits.argmax(1) == labels).float().mean().item():.4f}")
print(attns[-1].shape, f"{attns[-1][0, 0, 0].sum().item():.4f}")
print(f"{attns[-1][0, 0, 0, :5].tolist()[0]:.4f}", f"{model.cls_token.norm().item():.4f}")
