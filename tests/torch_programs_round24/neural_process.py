"""Neural processes (Garnelo et al. 2018) on 1-D Gaussian-process functions: tasks sampled
from an RBF-kernel GP by a batched Cholesky (torch.linalg.cholesky with jitter), random
context/target splits; a conditional neural process (deterministic mean-aggregated encoder)
and a latent neural process (a Normal latent from context and from target sets,
rsample, torch.distributions.kl_divergence between the posteriors) trained by the ELBO
with a Normal likelihood whose scale is 0.1 + 0.9 softplus; predictive log-likelihood on
held-out tasks compared with the exact GP posterior (torch.linalg.solve_triangular)."""
# ruff: noqa: E501

import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal, kl_divergence

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)  # Cholesky of the kernel matrices and 300 Adam steps


def rbf(x1, x2, length=0.4, scale=1.0):
    return scale ** 2 * torch.exp(-0.5 * (x1.unsqueeze(-1) - x2.unsqueeze(-2)) ** 2 / length ** 2)


def sample_tasks(batch, n_points, gen):
    x = torch.rand(batch, n_points, generator=gen) * 4 - 2
    K = rbf(x, x) + 1e-4 * torch.eye(n_points)
    L = torch.linalg.cholesky(K)
    y = (L @ torch.randn(batch, n_points, 1, generator=gen)).squeeze(-1)
    return x.unsqueeze(-1), y.unsqueeze(-1)


def split(x, y, gen):
    n_ctx = int(torch.randint(3, 15, (), generator=gen))
    return x[:, :n_ctx], y[:, :n_ctx], x, y  # targets include the context, as in the paper


def mlp(sizes):
    layers = []
    for a, b in zip(sizes[:-1], sizes[1:]):
        layers += [nn.Linear(a, b), nn.ReLU()]
    return nn.Sequential(*layers[:-1])


class NeuralProcess(nn.Module):
    def __init__(self, latent, h=64):
        super().__init__()
        self.latent = latent
        self.det_encoder = mlp([2, h, h, h])
        if latent:
            self.lat_encoder = mlp([2, h, h])
            self.to_stats = nn.Linear(h, 2 * h)
        self.decoder = mlp([1 + h + (h if latent else 0), h, h, 2])

    def z_dist(self, x, y):
        s = self.lat_encoder(torch.cat([x, y], -1)).mean(1)
        mu, raw = self.to_stats(s).chunk(2, -1)
        return Normal(mu, 0.1 + 0.9 * torch.sigmoid(raw))

    def forward(self, xc, yc, xt, yt=None):
        r = self.det_encoder(torch.cat([xc, yc], -1)).mean(1, keepdim=True).expand(-1, xt.shape[1], -1)
        parts, kl = [xt, r], None
        if self.latent:
            prior = self.z_dist(xc, yc)
            post = self.z_dist(xt, yt) if yt is not None else prior
            z = post.rsample() if self.training else post.mean
            parts.append(z.unsqueeze(1).expand(-1, xt.shape[1], -1))
            kl = kl_divergence(post, prior).sum(-1) if yt is not None else None
        mu, raw = self.decoder(torch.cat(parts, -1)).chunk(2, -1)
        return Normal(mu, 0.1 + 0.9 * F.softplus(raw)), kl


def gp_posterior_loglik(xc, yc, xt, yt, noise=1e-2):
    Kcc = rbf(xc, xc) + noise * torch.eye(xc.shape[-1])
    Ktc = rbf(xt, xc)
    L = torch.linalg.cholesky(Kcc)
    A = torch.linalg.solve_triangular(L, Ktc.transpose(-1, -2), upper=False)
    alpha = torch.linalg.solve_triangular(L, yc.unsqueeze(-1), upper=False)
    mean = (A.transpose(-1, -2) @ alpha).squeeze(-1)
    var = (1.0 + noise - (A ** 2).sum(-2)).clamp_min(1e-9)
    return Normal(mean, var.sqrt()).log_prob(yt).mean()


gen = torch.Generator().manual_seed(0)
test_tasks = [split(*sample_tasks(16, 40, gen), gen) for _ in range(4)]
exact = torch.stack([gp_posterior_loglik(xc[..., 0], yc[..., 0], xt[..., 0], yt[..., 0]) for xc, yc, xt, yt in test_tasks]).mean()
print(f"exact GP posterior predictive log-likelihood per point: {exact.item():.4f}")

for name, latent in [("CNP", False), ("latent NP", True)]:
    torch.manual_seed(1)
    model = NeuralProcess(latent)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(300):
        model.train()
        xc, yc, xt, yt = split(*sample_tasks(16, 40, gen), gen)
        pred, kl = model(xc, yc, xt, yt)
        nll = -pred.log_prob(yt).sum((1, 2)).mean()
        loss = nll + (kl.mean() if kl is not None else 0.0)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 100 == 99:
            model.eval()
            with torch.no_grad():
                ll = torch.stack([model(xc_, yc_, xt_)[0].log_prob(yt_).mean() for xc_, yc_, xt_, yt_ in test_tasks]).mean()
            extra = f" kl {kl.mean().item():.4f}" if kl is not None else ""
            print(f"{name:9s} step {step + 1} train loss {loss.item():.4f}{extra} test loglik/point {ll.item():.4f}")
    with torch.no_grad():
        xc, yc, xt, yt = test_tasks[0]
        pred, _ = model(xc[:1], yc[:1], torch.linspace(-2, 2, 5).view(1, 5, 1))
    print(f"{name} mean on a grid: {[round(v, 3) for v in pred.mean.flatten().tolist()]}")
    print(f"{name} std on a grid:  {[round(v, 3) for v in pred.stddev.flatten().tolist()]}")

print("entropy of N(0, 1):", round(Normal(0.0, 1.0).entropy().item(), 6), "=", round(0.5 * math.log(2 * math.pi * math.e), 6))
