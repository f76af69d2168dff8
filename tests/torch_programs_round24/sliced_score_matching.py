"""Score-based modelling of a 2-D mixture: a score network s(x) trained by sliced score
matching (Song et al. 2019: v^T J v by a Jacobian-vector product through
torch.autograd.grad(create_graph=True) with Rademacher projections) and, for comparison, by
denoising score matching at one noise level; the exact score of the Gaussian mixture from
torch.func.grad of its log-density (MixtureSameFamily) under vmap; the exact Hutchinson
divergence against the full Jacobian trace (torch.func.jacrev); unadjusted Langevin sampling
from the learned score with a seeded generator, and the samples' mode occupancy."""
# ruff: noqa: E501

import torch
import torch.nn as nn
from torch.distributions import Categorical, Independent, MixtureSameFamily, Normal
from torch.func import grad, jacrev, vmap

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)  # second derivatives and 300 Adam steps

means = torch.tensor([[-2.0, 0.0], [2.0, 0.0], [0.0, 2.5]])
mixture = MixtureSameFamily(Categorical(torch.tensor([0.3, 0.3, 0.4])), Independent(Normal(means, 0.5 * torch.ones(3, 2)), 1))
true_score = vmap(grad(lambda x: mixture.log_prob(x)))

net = nn.Sequential(nn.Linear(2, 64), nn.Softplus(), nn.Linear(64, 64), nn.Softplus(), nn.Linear(64, 2))


def sliced_sm_loss(model, x, n_proj, gen):
    x = x.requires_grad_(True)
    s = model(x)
    loss = 0.0
    for _ in range(n_proj):
        v = torch.randint(0, 2, x.shape, generator=gen).to(x) * 2 - 1
        sv = (s * v).sum()
        jv, = torch.autograd.grad(sv, x, create_graph=True)
        loss = loss + ((jv * v).sum(-1) + 0.5 * (s * v).sum(-1) ** 2).mean()
    return loss / n_proj


def dsm_loss(model, x, sigma, gen):
    noise = torch.randn(x.shape, generator=gen)
    return 0.5 * ((model(x + sigma * noise) + noise / sigma) ** 2).sum(-1).mean()


x_probe = torch.tensor([[0.3, -0.2], [1.0, 1.0]])
J = vmap(jacrev(lambda x: net(x)))(x_probe)
print("jacrev trace of the untrained score:", [round(v, 6) for v in J.diagonal(dim1=-2, dim2=-1).sum(-1).tolist()])
xs = x_probe.clone().requires_grad_(True)
s = net(xs)
tr = sum(torch.autograd.grad(s[:, i].sum(), xs, retain_graph=True)[0][:, i] for i in range(2))
print("autograd trace:                     ", [round(v, 6) for v in tr.tolist()])
print("exact mixture score at probes:", true_score(x_probe).round(decimals=5).tolist())

gen = torch.Generator().manual_seed(0)
models = {"sliced": net, "denoising": nn.Sequential(nn.Linear(2, 64), nn.Softplus(), nn.Linear(64, 64), nn.Softplus(), nn.Linear(64, 2))}
grid = torch.stack(torch.meshgrid(torch.linspace(-3, 3, 7), torch.linspace(-1.5, 3.5, 6), indexing="ij"), -1).reshape(-1, 2)
for name, model in models.items():
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for step in range(300):
        x = mixture.sample((128,))
        loss = sliced_sm_loss(model, x, 2, gen) if name == "sliced" else dsm_loss(model, x, 0.2, gen)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 100 == 99:
            with torch.no_grad():
                fisher = ((model(grid) - true_score(grid)) ** 2).sum(-1).mean()
            print(f"{name:9s} step {step + 1} loss {loss.item():8.4f} score error on grid {fisher.item():.4f}")


@torch.no_grad()
def langevin(model, n, steps, eps, gen):
    x = torch.rand(n, 2, generator=gen) * 8 - 4
    for _ in range(steps):
        x = x + 0.5 * eps * model(x) + eps ** 0.5 * torch.randn(n, 2, generator=gen)
    return x


for name, model in models.items():
    samples = langevin(model, 400, 200, 0.01, gen)
    nearest = torch.cdist(samples, means).argmin(1)
    occupancy = torch.bincount(nearest, minlength=3).double() / 400
    print(f"{name:9s} Langevin mode occupancy {[round(v, 4) for v in occupancy.tolist()]} (true [0.3, 0.3, 0.4]), sample mean {[round(v, 3) for v in samples.mean(0).tolist()]}")
ref = langevin(lambda x: true_score(x), 400, 200, 0.01, gen)
print("exact-score Langevin occupancy", [round(v, 4) for v in (torch.bincount(torch.cdist(ref, means).argmin(1), minlength=3).double() / 400).tolist()])
