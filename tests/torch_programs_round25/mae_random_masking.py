"""A masked autoencoder (He et al. 2022) on 16x16 synthetic images of oriented bars: patches
by F.unfold and images back by F.fold (checked as inverses), fixed 2-D sine-cosine position
embeddings, per-sample random masking by argsort of uniform noise with the kept tokens
gathered and the restore order from argsort of the shuffle, a transformer encoder on the
visible tokens only (nn.TransformerEncoderLayer, norm_first, GELU, batch_first), a narrow
decoder over mask tokens unshuffled by gather, the normalised-pixel loss on masked patches
only; AdamW with weight decay excluded from norms and biases (parameter groups) and a warmup
+ cosine LambdaLR; then a linear probe on the frozen encoder's mean token."""
# ruff: noqa: E501

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)
torch.manual_seed(0)
IMG, P = 16, 4
L = (IMG // P) ** 2
D, DD = 32, 24


def bars(n):
    angle = torch.randint(0, 4, (n,))
    yy, xx = torch.meshgrid(torch.arange(IMG, dtype=torch.float64), torch.arange(IMG, dtype=torch.float64), indexing="ij")
    theta = angle.double().view(n, 1, 1) * math.pi / 4
    freq = 0.8 + 0.4 * torch.rand(n, 1, 1)
    phase = torch.rand(n, 1, 1) * 2 * math.pi
    img = torch.sin(freq * (xx * torch.cos(theta) + yy * torch.sin(theta)) + phase)
    return (img + 0.1 * torch.randn(n, IMG, IMG)).unsqueeze(1), angle


def patchify(imgs):
    return F.unfold(imgs, kernel_size=P, stride=P).transpose(1, 2)  # (N, L, P*P)


def unpatchify(patches):
    return F.fold(patches.transpose(1, 2), output_size=IMG, kernel_size=P, stride=P)


def sincos_2d(dim, grid):
    omega = 1.0 / 10000 ** (torch.arange(dim // 4, dtype=torch.float64) / (dim / 4))
    ys, xs = torch.meshgrid(torch.arange(grid, dtype=torch.float64), torch.arange(grid, dtype=torch.float64), indexing="ij")
    out_y = ys.flatten()[:, None] * omega[None]
    out_x = xs.flatten()[:, None] * omega[None]
    return torch.cat([out_y.sin(), out_y.cos(), out_x.sin(), out_x.cos()], 1)


class MAE(nn.Module):
    def __init__(self, mask_ratio=0.75):
        super().__init__()
        self.mask_ratio = mask_ratio
        self.patch_embed = nn.Linear(P * P, D)
        self.register_buffer("pos", sincos_2d(D, IMG // P).unsqueeze(0))
        self.register_buffer("dec_pos", sincos_2d(DD, IMG // P).unsqueeze(0))
        layer = nn.TransformerEncoderLayer(D, 4, 64, dropout=0.0, activation="gelu", batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(D)
        self.dec_embed = nn.Linear(D, DD)
        self.mask_token = nn.Parameter(torch.zeros(1, 1, DD))
        dlayer = nn.TransformerEncoderLayer(DD, 2, 48, dropout=0.0, activation="gelu", batch_first=True, norm_first=True)
        self.decoder = nn.TransformerEncoder(dlayer, 1, enable_nested_tensor=False)
        self.pred = nn.Linear(DD, P * P)
        nn.init.normal_(self.mask_token, std=0.02)

    def random_masking(self, x):
        n, l, d = x.shape
        keep = int(l * (1 - self.mask_ratio))
        noise = torch.rand(n, l)
        shuffle = torch.argsort(noise, dim=1)
        restore = torch.argsort(shuffle, dim=1)
        kept_ids = shuffle[:, :keep]
        x_kept = torch.gather(x, 1, kept_ids.unsqueeze(-1).expand(-1, -1, d))
        mask = torch.ones(n, l)
        mask[:, :keep] = 0
        mask = torch.gather(mask, 1, restore)
        return x_kept, mask, restore

    def encode(self, imgs, masking=True):
        x = self.patch_embed(patchify(imgs)) + self.pos
        if masking:
            x, mask, restore = self.random_masking(x)
        else:
            mask = restore = None
        return self.norm(self.encoder(x)), mask, restore

    def forward(self, imgs):
        latent, mask, restore = self.encode(imgs)
        x = self.dec_embed(latent)
        n, keep, _ = x.shape
        tokens = torch.cat([x, self.mask_token.expand(n, L - keep, -1)], 1)
        tokens = torch.gather(tokens, 1, restore.unsqueeze(-1).expand(-1, -1, DD)) + self.dec_pos
        pred = self.pred(self.decoder(tokens))
        target = patchify(imgs)
        mean, var = target.mean(-1, keepdim=True), target.var(-1, keepdim=True)
        target = (target - mean) / (var + 1e-6) ** 0.5
        loss = ((pred - target) ** 2).mean(-1)
        return (loss * mask).sum() / mask.sum(), pred, mask


imgs, labels = bars(256)
test_imgs, test_labels = bars(64)
print("images", tuple(imgs.shape), "patches", tuple(patchify(imgs).shape))
print("fold(unfold(x)) == x:", torch.equal(unpatchify(patchify(imgs[:4])), imgs[:4]))
pe = sincos_2d(D, 4)
print(f"position embedding {tuple(pe.shape)}, row norms {pe.norm(dim=1)[:3].tolist()[0]:.4f}")

model = MAE()
decay = [p for n, p in model.named_parameters() if p.ndim >= 2 and "mask_token" not in n]
no_decay = [p for n, p in model.named_parameters() if p.ndim < 2 or "mask_token" in n]
print("parameter groups", len(decay), len(no_decay), "sizes", sum(p.numel() for p in decay), sum(p.numel() for p in no_decay))
opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.05}, {"params": no_decay, "weight_decay": 0.0}], lr=2e-3, betas=(0.9, 0.95))
total_steps, warmup = 120, 12
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: (s + 1) / warmup if s < warmup else 0.5 * (1 + math.cos(math.pi * (s - warmup) / (total_steps - warmup))))

x_kept, mask, restore = model.random_masking(torch.arange(2 * L * 1.0).view(2, L, 1))
print("kept tokens", x_kept.squeeze(-1).tolist(), "masked per image", mask.sum(1).tolist())

step = 0
for epoch in range(1, 5):
    perm = torch.randperm(256)
    for i in range(0, 256, 32):
        loss, _, _ = model(imgs[perm[i:i + 32]])
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        step += 1
    with torch.no_grad():
        test_loss, _, _ = model(test_imgs)
    print(f"epoch {epoch} step {step} loss {loss.item():.5f} test {test_loss.item():.5f} lr {sched.get_last_lr()[0]:.6f}")
for epoch in range(5, 16):
    perm = torch.randperm(256)
    for i in range(0, 256, 32):
        loss, _, _ = model(imgs[perm[i:i + 32]])
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        step += 1
    if epoch % 5 == 0:
        with torch.no_grad():
            test_loss, pred, mask = model(test_imgs)
        print(f"epoch {epoch} step {step} loss {loss.item():.5f} test {test_loss.item():.5f} lr {sched.get_last_lr()[0]:.8f}")

with torch.no_grad():
    recon = unpatchify(pred)
    print("reconstruction", tuple(recon.shape), f"masked fraction {mask.mean().item():.4f}")
    feats = model.encode(imgs, masking=False)[0].mean(1)
    test_feats = model.encode(test_imgs, masking=False)[0].mean(1)
for p in model.parameters():
    p.requires_grad_(False)
probe = nn.Linear(D, 4)
popt = torch.optim.LBFGS(probe.parameters(), lr=0.5, max_iter=100, line_search_fn="strong_wolfe")


def closure():
    popt.zero_grad()
    loss = F.cross_entropy(probe(feats), labels) + 1e-3 * probe.weight.pow(2).sum()
    loss.backward()
    return loss


popt.step(closure)
with torch.no_grad():
    acc = (probe(test_feats).argmax(1) == test_labels).double().mean()
    train_acc = (probe(feats).argmax(1) == labels).double().mean()
print(f"linear probe: train accuracy {train_acc.item():.4f} test accuracy {acc.item():.4f}")
print("frozen encoder has no gradients:", all(p.grad is None or not p.requires_grad for p in model.encoder.parameters()))
