"""Deep Sets (Zaheer et al. 2017) and the Set Transformer (Lee et al. 2019, juho-lee/
set_transformer) on variable-size sets padded to one length: sum/mean/max pooling under a
padding mask (masked_fill with -inf before amax, a count by the mask's sum), MAB/SAB/ISAB
blocks on nn.MultiheadAttention with key_padding_mask and inducing points, pooling by
multihead attention (PMA) with learned seeds, a max-of-set regression task, the permutation
invariance of each model checked by shuffling each set's real elements, padding values that
must not matter, and attention weights averaged over heads and per head (in float64)."""
# ruff: noqa: E501

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
# float64: 160 Adam steps through attention and LayerNorm grow float32 rounding (gradients
# agree to 1e-6 relative at equal parameters) into the attention weights' fourth decimal
torch.set_default_dtype(torch.float64)
MAXLEN = 10


def make_sets(n, gen):
    lengths = torch.randint(3, MAXLEN + 1, (n,), generator=gen)
    x = torch.randn(n, MAXLEN, 2, generator=gen)
    pad = torch.arange(MAXLEN)[None, :] >= lengths[:, None]  # True where padded
    x = x.masked_fill(pad[..., None], 0.0)
    target_max = x[..., 0].masked_fill(pad, float("-inf")).amax(1)
    return x, pad, lengths, target_max


class DeepSets(nn.Module):
    def __init__(self, pool, h=32):
        super().__init__()
        self.pool = pool
        self.phi = nn.Sequential(nn.Linear(2, h), nn.ELU(), nn.Linear(h, h))
        self.rho = nn.Sequential(nn.ELU(), nn.Linear(h, h), nn.ELU(), nn.Linear(h, 1))

    def forward(self, x, pad):
        z = self.phi(x)
        keep = (~pad).unsqueeze(-1)
        if self.pool == "sum":
            s = (z * keep).sum(1)
        elif self.pool == "mean":
            s = (z * keep).sum(1) / keep.sum(1).clamp_min(1)
        else:
            s = z.masked_fill(~keep, float("-inf")).amax(1)
        return self.rho(s).squeeze(-1)


class MAB(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.att = nn.MultiheadAttention(d, heads, batch_first=True)
        self.ln0, self.ln1 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, d))

    def forward(self, q, k, key_pad=None, need_weights=False):
        h, w = self.att(q, k, k, key_padding_mask=key_pad, need_weights=need_weights)
        h = self.ln0(q + h)
        return self.ln1(h + self.ff(h)), w


class ISAB(nn.Module):
    def __init__(self, d, heads, m):
        super().__init__()
        self.inducing = nn.Parameter(torch.empty(1, m, d))
        nn.init.xavier_uniform_(self.inducing)
        self.mab0, self.mab1 = MAB(d, heads), MAB(d, heads)

    def forward(self, x, pad):
        h, _ = self.mab0(self.inducing.expand(x.size(0), -1, -1), x, pad)
        out, _ = self.mab1(x, h)
        return out


class SetTransformer(nn.Module):
    def __init__(self, d=32, heads=4, seeds=1):
        super().__init__()
        self.embed = nn.Linear(2, d)
        self.enc = nn.ModuleList([ISAB(d, heads, 4), ISAB(d, heads, 4)])
        self.seeds = nn.Parameter(torch.randn(1, seeds, d) * 0.1)
        self.pma = MAB(d, heads)
        self.sab = MAB(d, heads)
        self.out = nn.Linear(d, 1)

    def forward(self, x, pad, return_weights=False):
        h = self.embed(x)
        for blk in self.enc:
            h = blk(h, pad)
        p, w = self.pma(self.seeds.expand(x.size(0), -1, -1), h, pad, need_weights=return_weights)
        p, _ = self.sab(p, p)
        y = self.out(p).squeeze(-1).squeeze(-1)
        return (y, w) if return_weights else y


def permute_within(x, lengths, gen):
    x = x.clone()
    for i, n in enumerate(lengths.tolist()):
        perm = torch.randperm(n, generator=gen)
        x[i, :n] = x[i, perm]
    return x


gen = torch.Generator().manual_seed(0)
xtr, padtr, ltr, ytr = make_sets(256, gen)
xte, padte, lte, yte = make_sets(64, gen)
print("lengths", ltr[:12].tolist(), "mean", f"{ltr.float().mean().item():.3f}")
print("target max", [round(v, 4) for v in ytr[:5].tolist()])

models = {f"deepsets-{p}": DeepSets(p) for p in ["sum", "mean", "max"]}
models["set-transformer"] = SetTransformer()
for name, model in models.items():
    torch.manual_seed(1)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for _epoch in range(40):
        idx = torch.randperm(256)
        for b in range(0, 256, 64):
            j = idx[b:b + 64]
            loss = F.mse_loss(model(xtr[j], padtr[j]), ytr[j])
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    with torch.no_grad():
        pred = model(xte, padte)
        test = F.mse_loss(pred, yte).item()
        shuffled = model(permute_within(xte, lte, torch.Generator().manual_seed(5)), padte)
        invariant = torch.allclose(pred, shuffled, atol=1e-5)
        padded_junk = xte.masked_fill(padte[..., None], 3.0)
        pad_ignored = torch.allclose(pred, model(padded_junk, padte), atol=1e-5)
    print(f"{name:16s} train {loss.item():.4f} test {test:.4f} invariant {invariant} pad ignored {pad_ignored}")

st = models["set-transformer"]
with torch.no_grad():
    y, w = st(xte[:3], padte[:3], return_weights=True)
print("PMA weights shape", tuple(w.shape), "rows sum to 1", torch.allclose(w.sum(-1), torch.ones(3, 1)))
print("weight on padding", w.masked_select(padte[:3, None, :]).abs().max().item())
for i in range(3):
    n = lte[i].item()
    print(f"set {i} n={n} attention", [round(v, 4) for v in w[i, 0, :n].tolist()])
    print(f"  argmax attended element {w[i, 0].argmax().item()} argmax x0 {xte[i, :n, 0].argmax().item()}")
mha = st.pma.att
print("in_proj", tuple(mha.in_proj_weight.shape), "out_proj", tuple(mha.out_proj.weight.shape), "heads", mha.num_heads, "head_dim", mha.head_dim)
with torch.no_grad():
    _, w_heads = mha(st.seeds, st.embed(xte[:1]), st.embed(xte[:1]), key_padding_mask=padte[:1], average_attn_weights=False)
print("per-head weights", tuple(w_heads.shape), "head sums", [round(v, 4) for v in w_heads[0, :, 0].sum(-1).tolist()])
