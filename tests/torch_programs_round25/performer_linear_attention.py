"""Linear attention: Performer's FAVOR+ (Choromanski et al. 2021) with positive orthogonal
random features (blocks of torch.linalg.qr, rows rescaled by chi-distributed norms),
the softmax kernel approximation's error against exact attention as the number of features
grows, causal linear attention by cumulative sums (torch.cumsum of k-v outer products by
torch.einsum) checked against a masked quadratic form, the elu+1 feature map of Katharopoulos
et al.; then a small causal language model on a periodic symbol sequence trained with exact
softmax attention (F.scaled_dot_product_attention, is_causal) and with linear attention
(features redrawn every step under torch.no_grad), their losses and accuracies."""
# ruff: noqa: E501

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)
torch.manual_seed(0)


def orthogonal_gaussian(m, d):
    blocks = []
    for _ in range((m + d - 1) // d):
        q, _ = torch.linalg.qr(torch.randn(d, d))
        blocks.append(q.T)
    w = torch.cat(blocks)[:m]
    norms = torch.randn(m, d).norm(dim=1, keepdim=True)
    return w * norms


def favor_features(x, w, is_query):
    # positive random features: exp(w.x - |x|^2/2) / sqrt(m); x already scaled by d^-1/4.  For
    # stability a maximum is subtracted: per row for queries (it cancels in the normalisation),
    # one over all keys for keys
    proj = x @ w.T
    top = proj.amax(-1, keepdim=True) if is_query else proj.amax((-1, -2), keepdim=True)
    return torch.exp(proj - (x ** 2).sum(-1, keepdim=True) / 2 - top.detach()) / w.shape[0] ** 0.5


def linear_attention(q, k, v, causal=False, eps=1e-9):
    if causal:
        kv = torch.cumsum(torch.einsum("...nd,...ne->...nde", k, v), dim=-3)
        num = torch.einsum("...nd,...nde->...ne", q, kv)
        den = torch.einsum("...nd,...nd->...n", q, torch.cumsum(k, dim=-2))
    else:
        kv = torch.einsum("...nd,...ne->...de", k, v)
        num = q @ kv
        den = q @ k.sum(-2).unsqueeze(-1)
        den = den.squeeze(-1)
    return num / (den.unsqueeze(-1) + eps)


n, d = 32, 8
q, k, v = torch.randn(3, 1, n, d).unbind(0)
q, k = q * 0.5, k * 0.5
exact = F.softmax(q @ k.transpose(-1, -2) / d ** 0.5, -1) @ v
w = orthogonal_gaussian(16, d)
print(f"orthogonal blocks: {torch.allclose((w[:8] / w[:8].norm(dim=1, keepdim=True)) @ (w[:8] / w[:8].norm(dim=1, keepdim=True)).T, torch.eye(8))}, shape {tuple(w.shape)}")
for m in (8, 64, 512):
    errs = []
    for _trial in range(5):
        w = orthogonal_gaussian(m, d)
        scale = d ** -0.25
        approx = linear_attention(favor_features(q * scale, w, True), favor_features(k * scale, w, False), v)
        errs.append((approx - exact).abs().mean())
    print(f"m={m:4d}: mean abs error vs softmax attention {torch.stack(errs).mean().item():.5f}")

# causal linear attention against the masked quadratic form
phi = lambda t: F.elu(t) + 1  # noqa: E731
qf, kf = phi(q), phi(k)
causal = linear_attention(qf, kf, v, causal=True)
scores = (qf @ kf.transpose(-1, -2)).masked_fill(torch.triu(torch.ones(n, n, dtype=torch.bool), 1), 0.0)
quadratic = (scores / scores.sum(-1, keepdim=True)) @ v
print("causal cumsum form equals the masked quadratic form:", torch.allclose(causal, quadratic, atol=1e-12))
print(f"first rows {[round(x, 5) for x in causal[0, 0, :3].tolist()]} last {[round(x, 5) for x in causal[0, -1, :3].tolist()]}")

# a small causal language model on a periodic sequence with noise
V, T = 8, 24
pattern = torch.tensor([0, 3, 1, 4, 1, 5, 2, 6])


def batch(bs):
    start = torch.randint(0, 8, (bs, 1))
    seq = pattern[(start + torch.arange(T + 1)) % 8]
    noise = torch.rand(bs, T + 1) < 0.05
    seq = torch.where(noise, torch.randint(0, V, (bs, T + 1)), seq)
    return seq[:, :-1], seq[:, 1:]


class Attention(nn.Module):
    def __init__(self, dim, heads, kind, m=32):
        super().__init__()
        self.h, self.dh, self.kind = heads, dim // heads, kind
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.register_buffer("w", orthogonal_gaussian(m, dim // heads))

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)
        if self.kind == "softmax":
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:
            s = self.dh ** -0.25
            y = linear_attention(favor_features(q * s, self.w, True), favor_features(k * s, self.w, False), v, causal=True)
        return self.proj(y.transpose(1, 2).reshape(b, t, c))

    def redraw(self):
        with torch.no_grad():
            self.w.copy_(orthogonal_gaussian(*self.w.shape))


class LM(nn.Module):
    def __init__(self, kind, dim=32):
        super().__init__()
        self.tok = nn.Embedding(V, dim)
        self.pos = nn.Parameter(torch.randn(T, dim) * 0.02)
        self.attn = Attention(dim, 4, kind)
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 64), nn.GELU(), nn.Linear(64, dim))
        self.head = nn.Linear(dim, V)

    def forward(self, idx):
        x = self.tok(idx) + self.pos[: idx.shape[1]]
        x = x + self.attn(self.ln1(x))
        x = x + self.mlp(self.ln2(x))
        return self.head(x)


x_eval, y_eval = batch(64)
for kind in ("softmax", "favor"):
    torch.manual_seed(1)
    model = LM(kind)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
    for step in range(1, 151):
        xb, yb = batch(32)
        loss = F.cross_entropy(model(xb).reshape(-1, V), yb.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if kind == "favor" and step % 10 == 0:
            model.attn.redraw()
        if step % 50 == 0:
            with torch.no_grad():
                logits = model(x_eval)
                ev = F.cross_entropy(logits.reshape(-1, V), y_eval.reshape(-1))
                acc = (logits.argmax(-1) == y_eval)[:, 8:].double().mean()
            print(f"{kind:8s} step {step}: loss {loss.item():.5f} eval {ev.item():.5f} accuracy after 8 tokens {acc.item():.4f}")
