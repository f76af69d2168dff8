"""A Conformer encoder (Gulati et al. 2020) for keyword classification of synthetic
"spectrograms": SpecAugment time and frequency masks drawn per utterance (masked_fill with
broadcast boolean masks), a Conv2d subsampling front end, Conformer blocks with macaron
half-step feed-forward modules (SiLU, dropout), multi-head self-attention with a
key_padding_mask for padded frames, a convolution module (pointwise Conv1d + GLU, depthwise
Conv1d(groups=d) + BatchNorm1d + SiLU, pointwise), a final LayerNorm, masked mean pooling;
AdamW with a Noam-style LambdaLR warmup; accuracy and the attention weights' row sums."""
# ruff: noqa: E501

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)  # float32 agrees for the first steps, then drifts
N_MELS, N_CLASSES = 16, 4


def make_batch(b, gen):
    labels = torch.randint(0, N_CLASSES, (b,), generator=gen)
    lengths = torch.randint(24, 41, (b,), generator=gen)
    t = torch.arange(40.0)
    spec = 0.3 * torch.randn(b, 40, N_MELS, generator=gen)
    for i in range(b):
        band = 3 * labels[i] + torch.arange(4)
        chirp = torch.sin(t[: lengths[i]] * (0.2 + 0.15 * labels[i]))
        spec[i, : lengths[i], band] += chirp.unsqueeze(1)
        spec[i, lengths[i]:] = 0.0
    return spec, lengths, labels


def spec_augment(spec, gen, F_max=3, T_max=5):
    b, T, Fr = spec.shape
    f0 = torch.randint(0, Fr - F_max, (b, 1), generator=gen)
    fw = torch.randint(0, F_max + 1, (b, 1), generator=gen)
    t0 = torch.randint(0, T - T_max, (b, 1), generator=gen)
    tw = torch.randint(0, T_max + 1, (b, 1), generator=gen)
    fr, tr = torch.arange(Fr).unsqueeze(0), torch.arange(T).unsqueeze(0)
    fmask = (fr >= f0) & (fr < f0 + fw)
    tmask = (tr >= t0) & (tr < t0 + tw)
    return spec.masked_fill(fmask.unsqueeze(1) | tmask.unsqueeze(2), 0.0)


class FeedForward(nn.Sequential):
    def __init__(self, d, p):
        super().__init__(nn.LayerNorm(d), nn.Linear(d, 4 * d), nn.SiLU(), nn.Dropout(p), nn.Linear(4 * d, d), nn.Dropout(p))


class ConvModule(nn.Module):
    def __init__(self, d, k=7, p=0.1):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.pw1 = nn.Conv1d(d, 2 * d, 1)
        self.dw = nn.Conv1d(d, d, k, padding=k // 2, groups=d)
        self.bn = nn.BatchNorm1d(d)
        self.pw2 = nn.Conv1d(d, d, 1)
        self.drop = nn.Dropout(p)

    def forward(self, x, pad_mask):
        x = self.norm(x).masked_fill(pad_mask.unsqueeze(-1), 0.0).transpose(1, 2)
        x = F.glu(self.pw1(x), dim=1)
        x = F.silu(self.bn(self.dw(x)))
        return self.drop(self.pw2(x).transpose(1, 2))


class ConformerBlock(nn.Module):
    def __init__(self, d, heads, p=0.1):
        super().__init__()
        self.ff1, self.ff2 = FeedForward(d, p), FeedForward(d, p)
        self.attn_norm = nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, heads, dropout=p, batch_first=True)
        self.conv = ConvModule(d)
        self.final_norm = nn.LayerNorm(d)

    def forward(self, x, pad_mask):
        x = x + 0.5 * self.ff1(x)
        h = self.attn_norm(x)
        a, w = self.attn(h, h, h, key_padding_mask=pad_mask, need_weights=True)
        x = x + a
        x = x + self.conv(x, pad_mask)
        x = x + 0.5 * self.ff2(x)
        return self.final_norm(x), w


class Conformer(nn.Module):
    def __init__(self, d=32, heads=4, n_blocks=2):
        super().__init__()
        self.subsample = nn.Sequential(nn.Conv2d(1, d, 3, stride=2, padding=1), nn.ReLU())
        self.proj = nn.Linear(d * (N_MELS // 2), d)
        self.blocks = nn.ModuleList([ConformerBlock(d, heads) for _ in range(n_blocks)])
        self.head = nn.Linear(d, N_CLASSES)

    def forward(self, spec, lengths):
        x = self.subsample(spec.unsqueeze(1))  # (B, d, T/2, F/2)
        b, d, t, f = x.shape
        x = self.proj(x.permute(0, 2, 1, 3).reshape(b, t, d * f))
        sub_len = (lengths + 1) // 2
        pad_mask = torch.arange(t).unsqueeze(0) >= sub_len.unsqueeze(1)
        weights = []
        for block in self.blocks:
            x, w = block(x, pad_mask)
            weights.append(w)
        keep = (~pad_mask).unsqueeze(-1).to(x.dtype)
        pooled = (x * keep).sum(1) / keep.sum(1)
        return self.head(pooled), weights, pad_mask


gen = torch.Generator().manual_seed(0)
model = Conformer()
print("parameters:", sum(p.numel() for p in model.parameters()))
opt = torch.optim.AdamW(model.parameters(), lr=1.0, betas=(0.9, 0.98), eps=1e-9, weight_decay=0.01)
warmup, d_model = 20, 32
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: 0.5 * d_model ** -0.5 * min((s + 1) ** -0.5, (s + 1) * warmup ** -1.5))
val = make_batch(64, gen)
for step in range(80):
    model.train()
    spec, lengths, labels = make_batch(32, gen)
    logits, _, _ = model(spec_augment(spec, gen), lengths)
    loss = F.cross_entropy(logits, labels, label_smoothing=0.1)
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    if step % 20 == 19:
        model.eval()
        with torch.no_grad():
            vl, _, _ = model(val[0], val[1])
            acc = (vl.argmax(1) == val[2]).float().mean()
        print(f"step {step + 1} lr {sched.get_last_lr()[0]:.5f} loss {loss.item():.4f} val acc {acc.item():.4f}")

model.eval()
with torch.no_grad():
    logits, weights, pad_mask = model(val[0][:3], val[1][:3])
    w = weights[-1]
print("attention weights shape:", tuple(w.shape), "row sums:", [round(v, 5) for v in w.sum(-1)[:, :3].flatten().tolist()])
print("weight on padded keys:", w.masked_select(pad_mask.unsqueeze(1).expand_as(w)).abs().max().item())
print("padded frames per utterance:", pad_mask.sum(1).tolist())
print("probabilities:\n", F.softmax(logits, -1).round(decimals=4))
