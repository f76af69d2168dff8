"""Entropy-regularised optimal transport as in the OT tutorials (Cuturi's Sinkhorn, the
log-domain stabilised form, the Sinkhorn divergence), all in PyTorch: a cost matrix from
torch.cdist (p=2, squared, and p=1), the kernel form and the logsumexp form of the
iterations, marginal errors, the transport plan, the gradient of the OT cost with respect to
the point positions used to move a point cloud (a Wasserstein flow), and a Wasserstein
barycenter of two 1-D histograms."""
# ruff: noqa: E501

import torch

torch.manual_seed(4)
n, m = 7, 5
x = torch.randn(n, 2)
y = torch.randn(m, 2) + torch.tensor([2.0, 0.5])
a = torch.full((n,), 1.0 / n)
b = torch.softmax(torch.randn(m), 0)
C = torch.cdist(x, y) ** 2
print(C.round(decimals=3), torch.cdist(x, y, p=1)[:2].round(decimals=3))
print(torch.allclose(C, ((x[:, None] - y[None]) ** 2).sum(-1), atol=1e-4))


def sinkhorn_kernel(a, b, C, eps, iters=200):
    K = torch.exp(-C / eps)
    u = torch.ones_like(a)
    for _ in range(iters):
        v = b / (K.t() @ u)
        u = a / (K @ v)
    return u[:, None] * K * v[None]


def sinkhorn_log(a, b, C, eps, iters=200):
    f = torch.zeros_like(a)
    g = torch.zeros_like(b)
    for _ in range(iters):
        f = -eps * torch.logsumexp((g[None] - C) / eps + torch.log(b)[None], dim=1)
        g = -eps * torch.logsumexp((f[:, None] - C) / eps + torch.log(a)[:, None], dim=0)
    P = torch.exp((f[:, None] + g[None] - C) / eps) * a[:, None] * b[None]
    return P, f, g


P1 = sinkhorn_kernel(a, b, C, eps=1.0)
P2, f, g = sinkhorn_log(a, b, C, eps=1.0)
print(P1.sum().item().__round__(5), (P1 - P2).abs().max().item() < 1e-5, (P2.sum(1) - a).abs().max().item() < 1e-5)
print(P2.round(decimals=4), (P2 * C).sum().item().__round__(4), (f @ a + g @ b).item().__round__(4))
for eps in [0.5, 0.1, 0.02]:
    P, f, g = sinkhorn_log(a, b, C, eps)
    print(eps, (P * C).sum().item().__round__(4), P.argmax(1).tolist(), (P.sum(0) - b).abs().max().item() < 1e-4)


def sinkhorn_cost(x, y, eps=0.1):
    P, f, g = sinkhorn_log(torch.full((len(x),), 1.0 / len(x)), torch.full((len(y),), 1.0 / len(y)), torch.cdist(x, y) ** 2, eps, 100)
    return (P * torch.cdist(x, y) ** 2).sum()


def divergence(x, y, eps=0.1):
    return sinkhorn_cost(x, y, eps) - 0.5 * sinkhorn_cost(x, x, eps) - 0.5 * sinkhorn_cost(y, y, eps)


z = x.clone().requires_grad_()
opt = torch.optim.SGD([z], lr=0.5)
for step in range(8):
    loss = divergence(z, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"flow {step} S {loss.item():.4f} |grad| {z.grad.norm().item():.4f} mean {z.mean(0).detach().round(decimals=3).tolist()}")

grid = torch.linspace(0, 1, 20)
h1 = torch.exp(-((grid - 0.2) ** 2) / 0.005)
h2 = torch.exp(-((grid - 0.8) ** 2) / 0.005)
H = torch.stack([h1 / h1.sum(), h2 / h2.sum()])
K = torch.exp(-((grid[:, None] - grid[None]) ** 2) / 0.01)
v = torch.ones_like(H)
w = torch.tensor([0.5, 0.5])
for _ in range(100):
    u = H / (v @ K.t())
    Ktu = u @ K
    bary = torch.exp((w[:, None] * torch.log(Ktu)).sum(0))
    v = bary[None] / Ktu
print(bary.argmax().item(), (bary / bary.sum()).round(decimals=3))
