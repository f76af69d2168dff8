"""A small capsule network (Sabour et al.) as in the CapsNet reimplementations: primary
capsules from a conv reshaped into 8-D vectors, the squash non-linearity, prediction vectors
u_hat from a per-capsule weight via einsum/matmul, three iterations of routing-by-agreement
(softmax over the output capsules, agreement via dot products, the coupling logits updated
with the predictions detached in the inner iterations), the margin loss, reconstruction from
the masked class capsule, and the norms as class probabilities."""
# ruff: noqa: E501

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)
B, N_CLASS = 6, 3


def squash(s, dim=-1, eps=1e-8):
    n2 = (s ** 2).sum(dim, keepdim=True)
    return n2 / (1 + n2) * s / torch.sqrt(n2 + eps)


class CapsNet(nn.Module):
    def __init__(self, routing=3):
        super().__init__()
        self.conv = nn.Conv2d(1, 16, 5)
        self.primary = nn.Conv2d(16, 4 * 8, 3, stride=2)
        n_prim = 4 * 3 * 3
        self.W = nn.Parameter(0.05 * torch.randn(1, n_prim, N_CLASS, 12, 8))
        self.decoder = nn.Sequential(nn.Linear(12 * N_CLASS, 32), nn.ReLU(), nn.Linear(32, 121), nn.Sigmoid())
        self.routing = routing

    def forward(self, x, y=None):
        h = F.relu(self.conv(x))
        u = self.primary(h).view(x.shape[0], 4, 8, 3, 3).permute(0, 1, 3, 4, 2).reshape(x.shape[0], -1, 8)
        u = squash(u)
        u_hat = (self.W @ u[:, :, None, :, None]).squeeze(-1)  # (B, n_prim, classes, 12)
        b = torch.zeros(x.shape[0], u_hat.shape[1], N_CLASS)
        for i in range(self.routing):
            c = b.softmax(dim=2)
            if i < self.routing - 1:
                v = squash((c.unsqueeze(-1) * u_hat.detach()).sum(1))
                b = b + torch.einsum("bpcd,bcd->bpc", u_hat.detach(), v)
            else:
                v = squash((c.unsqueeze(-1) * u_hat).sum(1))
        lengths = v.norm(dim=-1)
        if y is None:
            y = lengths.argmax(1)
        mask = F.one_hot(y, N_CLASS).unsqueeze(-1).float()
        recon = self.decoder((v * mask).flatten(1))
        return lengths, recon, c


def margin_loss(lengths, y, m_pos=0.9, m_neg=0.1, lam=0.5):
    t = F.one_hot(y, N_CLASS).float()
    loss = t * F.relu(m_pos - lengths) ** 2 + lam * (1 - t) * F.relu(lengths - m_neg) ** 2
    return loss.sum(1).mean()


def make_images(n):
    y = torch.arange(n) % N_CLASS
    img = torch.zeros(n, 1, 11, 11)
    for i in range(n):
        k = int(y[i])
        if k == 0:
            img[i, 0, 5, :] = 1.0
        elif k == 1:
            img[i, 0, :, 5] = 1.0
        else:
            img[i, 0].fill_diagonal_(1.0)
    return (img + 0.1 * torch.rand_like(img)).clamp(0, 1), y


model = CapsNet()
x, y = make_images(B)
print(squash(torch.tensor([[3.0, 4.0], [0.0, 0.0], [0.1, 0.0]])))
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
for step in range(25):
    lengths, recon, c = model(x, y)
    loss = margin_loss(lengths, y) + 0.0005 * F.mse_loss(recon, x.flatten(1), reduction="sum")
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 6 == 0:
        print(f"step {step:2d} loss {loss.item():.5f} acc {(lengths.argmax(1) == y).float().mean().item():.3f}")

with torch.no_grad():
    lengths, recon, c = model(x)
print(lengths.round(decimals=4), lengths.argmax(1), y)
print(c.shape, c[0, :4].round(decimals=4), c.sum(2)[0, :3])
print(recon.shape, recon.mean().item().__round__(4), model.W.grad.abs().sum().item().__round__(3))
