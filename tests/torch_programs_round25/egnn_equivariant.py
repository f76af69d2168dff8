"""An E(n)-equivariant graph network (Satorras et al. 2021) on small point clouds: fully
connected edges from torch.combinations, messages from squared distances, coordinate updates
by weighted relative positions aggregated with index_add_, node features aggregated with
scatter_add_; a random rotation from torch.linalg.qr (det fixed to +1 by torch.linalg.det)
and a translation leave the predicted energy invariant and rotate the predicted forces.
Trained to regress the energy of a Lennard-Jones-like pair potential with forces as
-autograd.grad(energy, positions, create_graph=True) in the loss (force matching)."""
# ruff: noqa: E501

import torch
import torch.nn as nn

torch.set_default_dtype(torch.float64)
torch.manual_seed(0)
n_atoms = 5
pairs = torch.combinations(torch.arange(n_atoms), 2)
src = torch.cat([pairs[:, 0], pairs[:, 1]])
dst = torch.cat([pairs[:, 1], pairs[:, 0]])
print("edges", tuple(pairs.shape), "directed", src.numel())


def pair_energy(pos):
    r = torch.pdist(pos)
    return (4 * ((1.0 / r) ** 12 - (1.0 / r) ** 6)).sum()


def make_cloud():
    while True:
        pos = torch.randn(n_atoms, 3) * 0.9
        if torch.pdist(pos).min() > 0.95:
            return pos


clouds = torch.stack([make_cloud() for _ in range(64)])
energies = torch.stack([pair_energy(p) for p in clouds])
forces = torch.stack([-torch.autograd.grad(pair_energy(p.requires_grad_()), p)[0] for p in clouds.clone()])
print(f"energies mean {energies.mean().item():.4f} std {energies.std().item():.4f}; force rms {forces.pow(2).mean().sqrt().item():.4f}")


class EGCL(nn.Module):
    def __init__(self, h):
        super().__init__()
        self.edge = nn.Sequential(nn.Linear(2 * h + 1, h), nn.SiLU(), nn.Linear(h, h), nn.SiLU())
        self.coord = nn.Sequential(nn.Linear(h, h), nn.SiLU(), nn.Linear(h, 1, bias=False))
        self.node = nn.Sequential(nn.Linear(2 * h, h), nn.SiLU(), nn.Linear(h, h))
        nn.init.xavier_uniform_(self.coord[-1].weight, gain=0.001)

    def forward(self, h, x):
        rel = x[src] - x[dst]
        d2 = (rel ** 2).sum(-1, keepdim=True)
        m = self.edge(torch.cat([h[src], h[dst], d2], -1))
        trans = rel * self.coord(m)
        count = torch.zeros(x.shape[0], 1).index_add_(0, src, torch.ones(src.numel(), 1))
        x = x + torch.zeros_like(x).index_add_(0, src, trans) / count
        agg = torch.zeros_like(h).scatter_add_(0, src.unsqueeze(1).expand(-1, h.shape[1]), m)
        h = h + self.node(torch.cat([h, agg], -1))
        return h, x


class EGNN(nn.Module):
    def __init__(self, h=24, layers=3):
        super().__init__()
        self.embed = nn.Parameter(torch.randn(1, h) * 0.1)
        self.layers = nn.ModuleList([EGCL(h) for _ in range(layers)])
        self.readout = nn.Sequential(nn.Linear(h, h), nn.SiLU(), nn.Linear(h, 1))

    def forward(self, x):
        h = self.embed.expand(x.shape[0], -1)
        for layer in self.layers:
            h, x = layer(h, x)
        return self.readout(h).sum(), x


def random_rotation():
    q, r = torch.linalg.qr(torch.randn(3, 3))
    q = q * torch.sign(torch.diagonal(r))
    if torch.linalg.det(q) < 0:
        q[:, 0] = -q[:, 0]
    return q


model = EGNN()
print("parameters", sum(p.numel() for p in model.parameters()))
R = random_rotation()
shift = torch.tensor([0.3, -1.2, 2.0])
print(f"rotation: orthogonal {torch.allclose(R @ R.T, torch.eye(3))}, det {torch.linalg.det(R).item():.6f}")


def predict(pos, create_graph=False):
    pos = pos.clone().requires_grad_()
    e, x_out = model(pos)
    (g,) = torch.autograd.grad(e, pos, create_graph=create_graph)
    return e, -g, x_out


p = clouds[0]
e1, f1, x1 = predict(p)
e2, f2, x2 = predict(p @ R.T + shift)
print("energy invariant:", torch.allclose(e1, e2, atol=1e-10), "| forces rotate:", torch.allclose(f1 @ R.T, f2, atol=1e-10), "| coordinates equivariant:", torch.allclose(x1 @ R.T + shift, x2, atol=1e-10))
perm = torch.tensor([2, 0, 4, 1, 3])
e3, f3, _ = predict(p[perm])
print("permutation invariant:", torch.allclose(e1, e3, atol=1e-10), "| forces permute:", torch.allclose(f1[perm], f3, atol=1e-10))

train, test = slice(0, 48), slice(48, 64)
e_mean, e_std = energies[train].mean(), energies[train].std()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(1, 10):
    order = torch.randperm(48)
    tot = 0.0
    for i in range(0, 48, 16):
        loss = 0.0
        for j in order[i:i + 16].tolist():
            e, f, _ = predict(clouds[j], create_graph=True)
            loss = loss + ((e - (energies[j] - e_mean) / e_std) ** 2 + 0.1 * ((f - forces[j] / e_std) ** 2).mean()) / 16
        opt.zero_grad()
        loss.backward()
        opt.step()
        tot += loss.item()
    if epoch % 3 == 0:
        errs = torch.stack([predict(clouds[j])[0].detach() * e_std + e_mean - energies[j] for j in range(48, 64)])
        print(f"epoch {epoch:2d} train loss {tot / 3:.5f} test energy MAE {errs.abs().mean().item():.4f}")

e1, f1, _ = predict(clouds[60])
e2, f2, _ = predict(clouds[60] @ R.T + shift)
print("after training: energy invariant", torch.allclose(e1, e2, atol=1e-10), "| forces rotate", torch.allclose(f1 @ R.T, f2, atol=1e-10))
pred_f = torch.stack([predict(clouds[j])[1] * e_std for j in range(48, 64)])
cos = nn.functional.cosine_similarity(pred_f.reshape(-1, 3), forces[test].reshape(-1, 3), dim=1)
print(f"test force cosine similarity mean {cos.mean().item():.4f}")
