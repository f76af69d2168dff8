"""A mixture density network (Bishop) on the inverted sine problem: an MLP outputs mixture
logits, means and log-scales; the loss is -log p(y|x) under
MixtureSameFamily(Categorical(logits), Normal), trained with Adam and a StepLR; then samples
under a seed, the mixture's mean/variance, cdf, the most likely component, and the same
log-likelihood written by hand with logsumexp."""
# ruff: noqa: E501

import math

import torch
import torch.nn as nn
from torch.distributions import Categorical, Independent, MixtureSameFamily, Normal

torch.manual_seed(1)
N, K = 256, 3
y = torch.rand(N, 1) * 2 - 1
x = y + 0.3 * torch.sin(2 * math.pi * y) + 0.05 * torch.randn(N, 1)


class MDN(nn.Module):
    def __init__(self, hidden=24, k=K):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(1, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, k)
        self.mu = nn.Linear(hidden, k)
        self.log_sigma = nn.Linear(hidden, k)

    def forward(self, x):
        h = self.body(x)
        return self.pi(h), self.mu(h), self.log_sigma(h).clamp(-5, 3)

    def dist(self, x):
        logits, mu, log_sigma = self(x)
        return MixtureSameFamily(Categorical(logits=logits), Normal(mu, log_sigma.exp()))


model = MDN()
opt = torch.optim.Adam(model.parameters(), lr=0.005)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=30, gamma=0.5)
for epoch in range(80):
    nll = -model.dist(x).log_prob(y.squeeze(1)).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    sched.step()
    if epoch % 20 == 0 or epoch == 79:
        print(f"epoch {epoch:3d} nll {nll.item():.4f} lr {sched.get_last_lr()[0]:.4f}")

with torch.no_grad():
    xs = torch.linspace(-1, 1, 5).unsqueeze(1)
    d = model.dist(xs)
    print(d.batch_shape, d.event_shape, d.mixture_distribution.probs.round(decimals=3))
    print("mean", d.mean.round(decimals=3), "var", d.variance.round(decimals=3))
    print("cdf(0)", d.cdf(torch.zeros(5)).round(decimals=3))
    logits, mu, log_sigma = model(xs)
    best = logits.argmax(1)
    print("mode component", best, mu.gather(1, best.unsqueeze(1)).squeeze(1).round(decimals=3))
    hand = torch.logsumexp(torch.log_softmax(logits, 1) + Normal(mu, log_sigma.exp()).log_prob(torch.zeros(5, 1)), 1)
    print(torch.allclose(hand, d.log_prob(torch.zeros(5)), atol=1e-5), hand.round(decimals=3))
    torch.manual_seed(5)
    s = d.sample((4,))
    print(s.shape, s.round(decimals=3))
    ind = Independent(Normal(mu, log_sigma.exp()), 1)
    print(ind.batch_shape, ind.event_shape, ind.log_prob(mu).round(decimals=3), ind.entropy().round(decimals=3))
    cat = Categorical(logits=logits)
    print(cat.entropy().round(decimals=4), cat.log_prob(torch.tensor([0, 1, 2, 0, 1])).round(decimals=4))
