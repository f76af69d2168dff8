"""A Mamba block (Gu & Dao 2023, the mamba-minimal / mamba.py references): an input projection
split with chunk into x and the gate z, a causal depthwise Conv1d (padding k-1 then slicing),
SiLU, the input-dependent Delta/B/C by a linear layer split with torch.split, softplus(dt),
A = -exp(A_log) with the S4D-real initialisation repeated by einops-style repeat, the
discretisation exp(Delta A) and Delta B x by einsum, the selective scan written sequentially and
in parallel (cumsum of log-decays, a causal masked exp), the skip D, RMSNorm residual blocks, a
copying task trained with AdamW, and the recurrent inference step with a conv state and an SSM
state against the full forward."""
# ruff: noqa: E501

import math

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


class RMSNorm(nn.Module):
    def __init__(self, d, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def selective_scan_seq(u, delta, A, B, C, D):
    b, l, d = u.shape
    n = A.shape[1]
    dA = torch.exp(torch.einsum("bld,dn->bldn", delta, A))
    dBu = torch.einsum("bld,bln,bld->bldn", delta, B, u)
    x = torch.zeros(b, d, n)
    ys = []
    for i in range(l):
        x = dA[:, i] * x + dBu[:, i]
        ys.append(torch.einsum("bdn,bn->bd", x, C[:, i]))
    return torch.stack(ys, 1) + u * D


def selective_scan_par(u, delta, A, B, C, D):
    dA_log = torch.einsum("bld,dn->bldn", delta, A)
    dBu = torch.einsum("bld,bln,bld->bldn", delta, B, u)
    cum = torch.cumsum(dA_log, 1)
    L = u.shape[1]
    diff = cum.unsqueeze(2) - cum.unsqueeze(1)
    mask = torch.tril(torch.ones(L, L, dtype=torch.bool))[None, :, :, None, None]
    w = torch.exp(diff.masked_fill(~mask, float("-inf")))
    h = torch.einsum("blsdn,bsdn->bldn", w, dBu)
    return torch.einsum("bldn,bln->bld", h, C) + u * D


class MambaBlock(nn.Module):
    def __init__(self, d_model, d_state=8, expand=2, d_conv=4):
        super().__init__()
        self.d_inner, self.d_state, self.d_conv = expand * d_model, d_state, d_conv
        self.dt_rank = math.ceil(d_model / 16)
        self.in_proj = nn.Linear(d_model, 2 * self.d_inner, bias=False)
        self.conv1d = nn.Conv1d(self.d_inner, self.d_inner, d_conv, groups=self.d_inner, padding=d_conv - 1)
        self.x_proj = nn.Linear(self.d_inner, self.dt_rank + 2 * d_state, bias=False)
        self.dt_proj = nn.Linear(self.dt_rank, self.d_inner)
        dt = torch.exp(torch.rand(self.d_inner) * (math.log(0.1) - math.log(0.001)) + math.log(0.001)).clamp(min=1e-4)
        with torch.no_grad():
            self.dt_proj.bias.copy_(dt + torch.log(-torch.expm1(-dt)))
        A = torch.arange(1, d_state + 1, dtype=torch.float32).repeat(self.d_inner, 1)
        self.A_log = nn.Parameter(torch.log(A))
        self.D = nn.Parameter(torch.ones(self.d_inner))
        self.out_proj = nn.Linear(self.d_inner, d_model, bias=False)

    def ssm_params(self, x):
        dbc = self.x_proj(x)
        delta, B, C = torch.split(dbc, [self.dt_rank, self.d_state, self.d_state], dim=-1)
        return F.softplus(self.dt_proj(delta)), B, C

    def forward(self, x, parallel=False):
        L = x.shape[1]
        xz = self.in_proj(x)
        x, z = xz.chunk(2, dim=-1)
        x = self.conv1d(x.transpose(1, 2))[..., :L].transpose(1, 2)
        x = F.silu(x)
        delta, B, C = self.ssm_params(x)
        A = -torch.exp(self.A_log.float())
        scan = selective_scan_par if parallel else selective_scan_seq
        y = scan(x, delta, A, B, C, self.D)
        return self.out_proj(y * F.silu(z))

    def step(self, x, conv_state, ssm_state):
        xz = self.in_proj(x)
        x, z = xz.chunk(2, dim=-1)
        conv_state = torch.roll(conv_state, shifts=-1, dims=-1)
        conv_state[:, :, -1] = x
        x = torch.sum(conv_state * self.conv1d.weight.squeeze(1), dim=-1) + self.conv1d.bias
        x = F.silu(x)
        delta, B, C = self.ssm_params(x)
        A = -torch.exp(self.A_log)
        dA = torch.exp(delta.unsqueeze(-1) * A)
        ssm_state = dA * ssm_state + (delta * x).unsqueeze(-1) * B.unsqueeze(1)
        y = (ssm_state @ C.unsqueeze(-1)).squeeze(-1) + self.D * x
        return self.out_proj(y * F.silu(z)), conv_state, ssm_state


class Mamba(nn.Module):
    def __init__(self, vocab, d_model=16, n_layers=2):
        super().__init__()
        self.embedding = nn.Embedding(vocab, d_model)
        self.layers = nn.ModuleList([MambaBlock(d_model) for _ in range(n_layers)])
        self.norms = nn.ModuleList([RMSNorm(d_model) for _ in range(n_layers)])
        self.norm_f = RMSNorm(d_model)
        self.lm_head = nn.Linear(d_model, vocab, bias=False)
        self.lm_head.weight = self.embedding.weight

    def forward(self, ids, parallel=False):
        x = self.embedding(ids)
        for norm, layer in zip(self.norms, self.layers):
            x = x + layer(norm(x), parallel)
        return self.lm_head(self.norm_f(x))


blk = MambaBlock(8)
print("dt_rank", blk.dt_rank, "A", blk.A_log.shape, [round(v, 4) for v in (-torch.exp(blk.A_log[0, :4])).tolist()])
print("dt init", round(F.softplus(blk.dt_proj.bias).min().item(), 5), round(F.softplus(blk.dt_proj.bias).max().item(), 5))
u = torch.randn(2, 6, 8)
with torch.no_grad():
    ys, yp = blk(u), blk(u, parallel=True)
print("scan seq vs par", ys.shape, torch.allclose(ys, yp, atol=1e-5), round(ys.abs().mean().item(), 5))
conv_out = blk.conv1d(torch.randn(1, 16, 5))
print("causal conv", conv_out.shape, "params", sum(p.numel() for p in blk.parameters()))

model = Mamba(vocab=6)
print("tied", model.lm_head.weight is model.embedding.weight, "params", sum(p.numel() for p in model.parameters()))
gen = torch.Generator().manual_seed(2)
opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.01)
for it in range(40):
    seq = torch.randint(1, 5, (8, 4), generator=gen)
    ids = torch.cat([seq, torch.zeros(8, 1, dtype=torch.long) + 5, seq], 1)
    logits = model(ids[:, :-1])
    loss = F.cross_entropy(logits[:, 4:].reshape(-1, 6), ids[:, 5:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    if it % 10 == 0 or it == 39:
        acc = (logits[:, 4:].argmax(-1) == ids[:, 5:]).float().mean()
        print(f"it {it:2d} loss {loss.item():.4f} copy acc {acc.item():.3f}")

blk = model.layers[0]
x = torch.randn(1, 5, 16)
with torch.no_grad():
    full = blk(x)
    conv_state = torch.zeros(1, blk.d_inner, blk.d_conv)
    ssm_state = torch.zeros(1, blk.d_inner, blk.d_state)
    outs = []
    for t in range(5):
        o, conv_state, ssm_state = blk.step(x[:, t], conv_state, ssm_state)
        outs.append(o)
    rec = torch.stack(outs, 1)
print("recurrent step matches", torch.allclose(full, rec, atol=1e-5), round((full - rec).abs().max().item(), 6) < 1e-5, rec.shape)
print("state norms", round(conv_state.norm().item(), 4), round(ssm_state.norm().item(), 4))
