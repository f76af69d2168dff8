"""A discrete VAE with categorical latents relaxed by Gumbel-softmax (Jang et al. 2017) on binary
8x8 patterns: RelaxedOneHotCategorical rsample with an annealed temperature, the straight-through
hard sample (F.gumbel_softmax(hard=True): one-hot forward, soft gradient), the KL to a uniform
prior by kl_divergence of OneHotCategorical distributions, a ContinuousBernoulli decoder
likelihood (its log normaliser near 0.5, mean and variance) against a Bernoulli one, the
latent codes' usage and perplexity, the temperature schedule by exp decay clamped below, and
RelaxedBernoulli/LogitRelaxedBernoulli samples' statistics (in float64)."""
# ruff: noqa: E501

import math

import torch
import torch.nn.functional as F
from torch import nn
from torch.distributions import (Bernoulli, ContinuousBernoulli, OneHotCategorical, RelaxedBernoulli,
                                 RelaxedOneHotCategorical, kl_divergence)
from torch.distributions.relaxed_bernoulli import LogitRelaxedBernoulli

torch.manual_seed(0)
# float64: ContinuousBernoulli's closed forms cancel catastrophically next to its Taylor region
# (at p = 0.499, p / (2p - 1) is -250 for a result near 0.5), so a one-ulp difference of a
# float32 log1p moved the training's third decimal
torch.set_default_dtype(torch.float64)
LATENTS, CATS = 4, 8


def make_patterns(n, gen):
    kind = torch.randint(0, 4, (n,), generator=gen)
    pos = torch.randint(0, 8, (n,), generator=gen)
    img = torch.zeros(n, 8, 8)
    r = torch.arange(8)
    for i in range(n):
        k, p = kind[i].item(), pos[i].item()
        if k == 0:
            img[i, p, :] = 1
        elif k == 1:
            img[i, :, p] = 1
        elif k == 2:
            img[i, r, (r + p) % 8] = 1
        else:
            img[i, r, (p - r) % 8] = 1
    flip = torch.rand(n, 8, 8, generator=gen) < 0.03
    return (img + flip.float()) % 2


class DVAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Flatten(), nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, LATENTS * CATS))
        self.dec = nn.Sequential(nn.Linear(LATENTS * CATS, 128), nn.ReLU(), nn.Linear(128, 64))

    def forward(self, x, tau, hard):
        logits = self.enc(x).view(-1, LATENTS, CATS)
        if hard:
            z = F.gumbel_softmax(logits, tau=tau, hard=True)
        else:
            z = RelaxedOneHotCategorical(torch.tensor(tau), logits=logits).rsample()
        return logits, z, self.dec(z.flatten(1))


gen = torch.Generator().manual_seed(0)
data = make_patterns(512, gen)
print("pixels on", f"{data.mean().item():.5f}", "first rows", data[0, 0].tolist())
prior = OneHotCategorical(probs=torch.full((CATS,), 1.0 / CATS))
for likelihood in ["bernoulli", "continuous_bernoulli"]:
    for hard in [False, True]:
        torch.manual_seed(1)
        model = DVAE()
        opt = torch.optim.Adam(model.parameters(), lr=2e-3)
        step = 0
        for _epoch in range(6):
            perm = torch.randperm(512)
            for b in range(0, 512, 64):
                x = data[perm[b:b + 64]]
                tau = max(0.5, math.exp(-3e-2 * step))
                logits, z, out = model(x, tau, hard)
                lik = Bernoulli(logits=out) if likelihood == "bernoulli" else ContinuousBernoulli(logits=out)
                rec = -lik.log_prob(x.flatten(1)).sum(1).mean()
                kl = kl_divergence(OneHotCategorical(logits=logits), prior).sum(1).mean()
                loss = rec + kl
                opt.zero_grad()
                loss.backward()
                opt.step()
                step += 1
        with torch.no_grad():
            logits = model.enc(data).view(-1, LATENTS, CATS)
            codes = logits.argmax(-1)
            usage = F.one_hot(codes, CATS).float().mean(0)
            perplexity = torch.exp(-(usage * torch.log(usage + 1e-10)).sum(-1))
            recon = model.dec(F.one_hot(codes, CATS).double().flatten(1)).sigmoid()
            err = ((recon > 0.5).float() != data.flatten(1)).float().mean().item()
        print(f"{likelihood:20s} hard {hard!s:5s} tau {tau:.4f} rec {rec.item():.4f} kl {kl.item():.4f} pixel err {err:.4f} perplexity {[round(v, 3) for v in perplexity.tolist()]}")

# straight-through: one-hot forward, the soft sample's gradient
logits = torch.tensor([[1.0, 2.0, 0.5]], requires_grad=True)
torch.manual_seed(5)
hard = F.gumbel_softmax(logits, tau=0.7, hard=True)
torch.manual_seed(5)
soft = F.gumbel_softmax(logits, tau=0.7, hard=False)
w = torch.tensor([[1.0, -2.0, 3.0]])
g_hard = torch.autograd.grad((hard * w).sum(), logits)[0]
g_soft = torch.autograd.grad((soft * w).sum(), logits)[0]
print("hard", hard.tolist(), "soft", [round(v, 5) for v in soft[0].tolist()], "same gradient", torch.allclose(g_hard, g_soft))

cb = ContinuousBernoulli(probs=torch.tensor([0.1, 0.4999, 0.5, 0.7]))
print("CB mean", [round(v, 5) for v in cb.mean.tolist()], "var", [round(v, 5) for v in cb.variance.tolist()])
print("CB log_prob(0.3)", [round(v, 5) for v in cb.log_prob(torch.full((4,), 0.3)).tolist()], "entropy", [round(v, 5) for v in cb.entropy().tolist()])
torch.manual_seed(2)
s = cb.rsample((2000,))
print("CB sample mean", [round(v, 3) for v in s.mean(0).tolist()], "cdf(icdf(u))", torch.allclose(cb.cdf(cb.icdf(torch.tensor(0.3))), torch.tensor(0.3), atol=1e-5))
torch.manual_seed(3)
rb = RelaxedBernoulli(torch.tensor(0.5), probs=torch.tensor([0.2, 0.8]))
lrb = LogitRelaxedBernoulli(torch.tensor(0.5), probs=torch.tensor([0.2, 0.8]))
rs = rb.sample((4000,))
print("RelaxedBernoulli mean", [round(v, 3) for v in rs.mean(0).tolist()], "above 0.5", [round(v, 3) for v in (rs > 0.5).float().mean(0).tolist()])
print("LogitRelaxedBernoulli log_prob", [round(v, 5) for v in lrb.log_prob(torch.tensor([0.0, 1.0])).tolist()])
roc = RelaxedOneHotCategorical(torch.tensor(0.5), probs=torch.tensor([0.2, 0.3, 0.5]))
torch.manual_seed(4)
x = roc.rsample((3,))
print("relaxed one-hot rows sum", [round(v, 5) for v in x.sum(-1).tolist()], "log_prob", [round(v, 4) for v in roc.log_prob(x).tolist()])
