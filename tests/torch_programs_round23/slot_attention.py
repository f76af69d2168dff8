"""Slot Attention (Locatello et al. 2020, the google-research / lucidrains recipe): slots drawn
from a learned Gaussian (mu + exp(log_sigma) * randn), iterative attention whose softmax is
over the slots (competition) and whose weights are renormalised over the inputs, a shared
GRUCell update on flattened slots plus a residual MLP, LayerNorms on inputs/slots/MLP; a
set-prediction autoencoder on toy scenes of 2-D points with a spatial broadcast decoder that
emits per-slot reconstructions and alpha masks mixed by a softmax over slots; trained with
Adam and warmup + exponential decay by LambdaLR; slot permutation equivariance is checked.
In float64: Adam on gradients of norm 0.02 grows float32 rounding to the printed digits."""
# ruff: noqa: E501

import torch
import torch.nn.functional as F
from torch import nn

torch.set_default_dtype(torch.float64)
torch.manual_seed(0)


class SlotAttention(nn.Module):
    def __init__(self, num_slots, dim, iters=3, eps=1e-8, hidden=64):
        super().__init__()
        self.num_slots, self.iters, self.eps, self.scale = num_slots, iters, eps, dim ** -0.5
        self.slots_mu = nn.Parameter(torch.randn(1, 1, dim))
        self.slots_log_sigma = nn.Parameter(torch.zeros(1, 1, dim))
        nn.init.xavier_uniform_(self.slots_log_sigma)
        self.to_q, self.to_k, self.to_v = (nn.Linear(dim, dim, bias=False) for _ in range(3))
        self.gru = nn.GRUCell(dim, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, hidden), nn.ReLU(inplace=True), nn.Linear(hidden, dim))
        self.norm_input, self.norm_slots, self.norm_pre_ff = nn.LayerNorm(dim), nn.LayerNorm(dim), nn.LayerNorm(dim)

    def forward(self, inputs, slots=None):
        b, n, d = inputs.shape
        if slots is None:
            sigma = self.slots_log_sigma.exp().expand(b, self.num_slots, -1)
            slots = self.slots_mu.expand(b, self.num_slots, -1) + sigma * torch.randn(b, self.num_slots, d)
        inputs = self.norm_input(inputs)
        k, v = self.to_k(inputs), self.to_v(inputs)
        for _ in range(self.iters):
            slots_prev = slots
            q = self.to_q(self.norm_slots(slots))
            dots = torch.einsum("bid,bjd->bij", q, k) * self.scale
            attn = dots.softmax(dim=1) + self.eps
            attn = attn / attn.sum(dim=-1, keepdim=True)
            updates = torch.einsum("bjd,bij->bid", v, attn)
            slots = self.gru(updates.reshape(-1, d), slots_prev.reshape(-1, d)).reshape(b, -1, d)
            slots = slots + self.mlp(self.norm_pre_ff(slots))
        return slots, attn


class SetAutoencoder(nn.Module):
    def __init__(self, num_slots=3, dim=32):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(3, dim), nn.ReLU(), nn.Linear(dim, dim))
        self.slot_attention = SlotAttention(num_slots, dim)
        self.decoder = nn.Sequential(nn.Linear(dim + 2, dim), nn.ReLU(), nn.Linear(dim, 2))

    def forward(self, points, grid):
        feats = self.encoder(points)
        slots, attn = self.slot_attention(feats)
        b, k, d = slots.shape
        g = grid.size(0)
        z = torch.cat([slots[:, :, None].expand(b, k, g, d), grid[None, None].expand(b, k, g, 2)], -1)
        out = self.decoder(z)
        recon, alpha = out[..., :1], out[..., 1:]
        masks = alpha.softmax(dim=1)
        return (recon * masks).sum(1).squeeze(-1), masks.squeeze(-1), attn, slots


def make_scenes(b, gen):
    centers = torch.rand(b, 3, 2, generator=gen) * 1.6 - 0.8
    pts = centers[:, :, None] + 0.08 * torch.randn(b, 3, 8, 2, generator=gen)
    pts = pts.reshape(b, 24, 2)
    ids = torch.arange(3).repeat_interleave(8).expand(b, 24)
    lin = torch.linspace(-1, 1, 8)
    grid = torch.stack(torch.meshgrid(lin, lin, indexing="ij"), -1).reshape(-1, 2)
    d2 = torch.cdist(grid[None].expand(b, -1, -1), centers)
    image = torch.exp(-(d2 ** 2) / 0.05).sum(-1)
    feats = torch.cat([pts, torch.ones(b, 24, 1)], -1)
    return feats, ids, grid, image


gen = torch.Generator().manual_seed(0)
model = SetAutoencoder()
opt = torch.optim.Adam(model.parameters(), lr=4e-3)
warmup, decay = 20, 0.5 ** (1 / 100)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / warmup) * decay ** s)
for step in range(120):
    feats, ids, grid, image = make_scenes(16, gen)
    recon, masks, attn, slots = model(feats, grid)
    loss = F.mse_loss(recon, image)
    opt.zero_grad()
    loss.backward()
    grad_norm = nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    sched.step()
    if step % 30 == 0 or step == 119:
        print(f"step {step:3d} loss {loss.item():.4f} grad {grad_norm.item():.3f} lr {sched.get_last_lr()[0]:.5f}")

torch.manual_seed(5)
feats, ids, grid, image = make_scenes(4, gen)
with torch.no_grad():
    recon, masks, attn, slots = model(feats, grid)
    print("attn", tuple(attn.shape), "sums over inputs", attn.sum(-1).allclose(torch.ones(4, 3)))
    print("masks sum to 1", masks.sum(1).allclose(torch.ones(4, 64)))
    assign = attn.argmax(1)
    purity = torch.stack([F.one_hot(assign[b][ids[b] == c], 3).sum(0).max() for b in range(4) for c in range(3)]).double().sum() / (4 * 24)
    print(f"eval mse {F.mse_loss(recon, image).item():.4f} slot purity {purity.item():.3f}")
    sa = model.slot_attention
    init = torch.randn(4, 3, 32)
    perm = torch.tensor([2, 0, 1])
    s1, a1 = sa(model.encoder(feats), init)
    s2, a2 = sa(model.encoder(feats), init[:, perm])
    print("permutation equivariant", torch.allclose(s1[:, perm], s2, atol=1e-5), torch.allclose(a1[:, perm], a2, atol=1e-6))
    print("slot norms", [round(v, 3) for v in slots[0].norm(dim=-1).tolist()])
print("log_sigma grad", model.slot_attention.slots_log_sigma.grad is not None)
