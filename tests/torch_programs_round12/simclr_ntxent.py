"""SimCLR-style contrastive learning as in self-supervised repos: two augmented views (random
flips with torch.where, random crops by roll, Gaussian noise, a per-sample brightness jitter),
a projection head, F.normalize, the NT-Xent loss (similarity matrix, masked_fill of the
diagonal, cross entropy against the positive index), the same loss via F.cosine_similarity,
temperature effects, a linear-evaluation probe on frozen features and top-1 retrieval."""
# ruff: noqa: B007, E501  (written as the published program is)

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N = 16
protos = torch.randn(4, 1, 6, 6)
labels = torch.arange(N) % 4
images = protos[labels] + 0.1 * torch.randn(N, 1, 6, 6)


def augment(x):
    flip = torch.rand(x.shape[0], 1, 1, 1) < 0.5
    x = torch.where(flip, x.flip(-1), x)
    shift = int(torch.randint(-1, 2, (1,)))
    x = x.roll(shift, dims=-2)
    x = x * (1 + 0.2 * (torch.rand(x.shape[0], 1, 1, 1) - 0.5))
    return x + 0.05 * torch.randn_like(x)


encoder = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(2), nn.Flatten())
head = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 8))


def nt_xent(z1, z2, t=0.5):
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    sim = z @ z.T / t
    sim = sim.masked_fill(torch.eye(2 * len(z1), dtype=torch.bool), float("-inf"))
    n = len(z1)
    target = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    return F.cross_entropy(sim, target)


def nt_xent_cos(z1, z2, t=0.5):
    z = torch.cat([z1, z2])
    sim = F.cosine_similarity(z.unsqueeze(1), z.unsqueeze(0), dim=-1) / t
    sim.fill_diagonal_(-1e9)
    n = len(z1)
    return F.cross_entropy(sim, torch.arange(2 * n).roll(n))


z1, z2 = head(encoder(augment(images))), head(encoder(augment(images)))
print(nt_xent(z1, z2).item(), nt_xent_cos(z1, z2).item(), [round(nt_xent(z1, z2, t).item(), 4) for t in (0.1, 1.0)])
params = list(encoder.parameters()) + list(head.parameters())
opt = torch.optim.AdamW(params, lr=3e-3, weight_decay=1e-4)
for step in range(25):
    loss = nt_xent(head(encoder(augment(images))), head(encoder(augment(images))))
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(params, 5.0)
    opt.step()
    if step % 5 == 0:
        print(step, f"{loss.item():.4f}")

with torch.no_grad():
    feats = encoder(images)
probe = nn.Linear(32, 4)
popt = torch.optim.SGD(probe.parameters(), lr=0.5)
for step in range(60):
    ploss = F.cross_entropy(probe(feats), labels)
    popt.zero_grad()
    ploss.backward()
    popt.step()
print("probe", round(ploss.item(), 4), (probe(feats).argmax(1) == labels).float().mean().item())
fn = F.normalize(feats, dim=1)
sims = fn @ fn.T
sims.fill_diagonal_(-2)
nn_idx = sims.argmax(1)
print("retrieval@1", (labels[nn_idx] == labels).float().mean().item(), torch.cdist(feats[:2], feats[:3]))
