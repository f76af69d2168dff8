"""A small variational autoencoder in the style of the PyTorch examples, written with
torch.distributions: an encoder giving Normal(mu, sigma), the reparameterised sample by
rsample, the KL term by kl_divergence against a standard Normal prior (checked against the
closed form), a Bernoulli(logits) likelihood, Independent for the event dimension, the
importance-weighted bound (IWAE) with logsumexp, and Adam with a few epochs."""
# ruff: noqa: E501

import math

import torch
import torch.nn as nn
from torch.distributions import Bernoulli, Independent, Normal, kl_divergence

torch.manual_seed(0)
D, Z, N = 12, 3, 64
data = (torch.rand(N, D) < torch.linspace(0.1, 0.9, D)).float()


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(D, 16), nn.Tanh(), nn.Linear(16, 2 * Z))
        self.dec = nn.Sequential(nn.Linear(Z, 16), nn.Tanh(), nn.Linear(16, D))

    def posterior(self, x):
        mu, log_sigma = self.enc(x).chunk(2, dim=-1)
        return Independent(Normal(mu, log_sigma.exp()), 1)

    def forward(self, x):
        q = self.posterior(x)
        z = q.rsample()
        px = Independent(Bernoulli(logits=self.dec(z)), 1)
        prior = Independent(Normal(torch.zeros(Z), torch.ones(Z)), 1)
        kl = kl_divergence(q, prior)
        return px.log_prob(x), kl, q


model = VAE()
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for epoch in range(40):
    ll, kl, q = model(data)
    loss = -(ll - kl).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 10 == 0:
        print(f"epoch {epoch} elbo {-loss.item():.4f} kl {kl.mean().item():.4f}")

with torch.no_grad():
    q = model.posterior(data[:4])
    mu, sigma = q.base_dist.loc, q.base_dist.scale
    closed = 0.5 * (mu ** 2 + sigma ** 2 - 1 - 2 * sigma.log()).sum(-1)
    print("kl closed form", [round(v, 4) for v in closed.tolist()])
    print("kl library   ", [round(v, 4) for v in kl_divergence(q, Independent(Normal(torch.zeros(Z), torch.ones(Z)), 1)).tolist()])
    print("entropy", [round(v, 4) for v in q.entropy().tolist()])
    print("batch/event shape", tuple(q.batch_shape), tuple(q.event_shape))

    K = 8
    z = q.rsample((K,))  # (K, 4, Z)
    print("sample shape", tuple(z.shape))
    px = Independent(Bernoulli(logits=model.dec(z)), 1)
    prior = Independent(Normal(torch.zeros(Z), torch.ones(Z)), 1)
    logw = px.log_prob(data[:4]) + prior.log_prob(z) - q.log_prob(z)
    iwae = torch.logsumexp(logw, 0) - math.log(K)
    print("iwae", [round(v, 4) for v in iwae.tolist()])
    print("mean prob", [round(v, 4) for v in torch.sigmoid(model.dec(mu)).mean(0).tolist()[:6]])

# the reparameterisation's gradient: d E[z^2] / d mu = 2 mu on average
mu = torch.tensor([0.5, -1.0], requires_grad=True)
torch.manual_seed(1)
s = Normal(mu, torch.tensor([1.0, 0.5])).rsample((4000,))
(s ** 2).mean(0).sum().backward()
print("reparam grad", [round(v, 2) for v in mu.grad.tolist()])
print("log_prob", round(Normal(0.0, 2.0).log_prob(torch.tensor(1.0)).item(), 6), "cdf", round(Normal(0.0, 2.0).cdf(torch.tensor(1.0)).item(), 6),
      "icdf", round(Normal(0.0, 2.0).icdf(torch.tensor(0.9)).item(), 6))
