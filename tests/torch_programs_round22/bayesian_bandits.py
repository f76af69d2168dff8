"""Bayesian multi-armed bandits (the Thompson-sampling tutorials of Russo et al. and the
Pyro/PyTorch bandit examples): Beta-Bernoulli Thompson sampling with conjugate posterior
updates, epsilon-greedy and UCB1 baselines, cumulative regret, a Binomial batch-reward
model (log_prob, entropy of the predictive counts, enumerate_support), a Gaussian bandit with
Normal-Normal updates and kl_divergence between posteriors, an Independent Bernoulli over arm
subsets enumerated, and a user-defined exponential family (natural parameters and log
normalizer) whose entropy and KL divergence come from Bregman divergences by autograd."""
# ruff: noqa: E501

import math

import torch
from torch.distributions import (Bernoulli, Beta, Binomial, Categorical, ExponentialFamily, Independent, Normal,
                                 kl_divergence)

torch.manual_seed(0)
true_p = torch.tensor([0.25, 0.45, 0.6, 0.5])
K, T = 4, 300
best = true_p.max()


def run_thompson(gen):
    alpha, beta = torch.ones(K), torch.ones(K)
    regret, pulls = [], torch.zeros(K, dtype=torch.long)
    for _ in range(T):
        theta = Beta(alpha, beta).sample()
        a = int(theta.argmax())
        r = Bernoulli(true_p[a]).sample()
        alpha[a] += r
        beta[a] += 1 - r
        pulls[a] += 1
        regret.append((best - true_p[a]).item())
    return alpha, beta, pulls, torch.tensor(regret).cumsum(0)


def run_eps_greedy(eps=0.1):
    counts, values = torch.zeros(K), torch.zeros(K)
    regret = []
    for _ in range(T):
        if torch.rand(()) < eps:
            a = int(torch.randint(K, ()))
        else:
            a = int(values.argmax())
        r = float(torch.bernoulli(true_p[a]))
        counts[a] += 1
        values[a] += (r - values[a]) / counts[a]
        regret.append((best - true_p[a]).item())
    return values, torch.tensor(regret).cumsum(0)


def run_ucb():
    counts, sums = torch.zeros(K), torch.zeros(K)
    regret = []
    for t in range(T):
        if t < K:
            a = t
        else:
            ucb = sums / counts + torch.sqrt(2 * math.log(t + 1) / counts)
            a = int(ucb.argmax())
        r = float(torch.bernoulli(true_p[a]))
        counts[a] += 1
        sums[a] += r
        regret.append((best - true_p[a]).item())
    return counts, torch.tensor(regret).cumsum(0)


alpha, beta, pulls, reg_ts = run_thompson(None)
post = Beta(alpha, beta)
print("thompson pulls", pulls.tolist(), "regret", [round(reg_ts[i].item(), 2) for i in (49, 149, 299)])
print("posterior mean", [round(v, 4) for v in post.mean.tolist()], "var", [f"{v:.6f}" for v in post.variance.tolist()])
print("posterior entropy (float64: a cancellation of lgamma sums)", [round(v, 4) for v in Beta(alpha.double(), beta.double()).entropy().tolist()])
print("P(best arm) by MC", [round(v, 3) for v in torch.bincount(post.sample((2000,)).argmax(1), minlength=K).div(2000).tolist()])
values, reg_eg = run_eps_greedy()
counts, reg_ucb = run_ucb()
print("eps-greedy values", [round(v, 3) for v in values.tolist()], "regret", round(reg_eg[-1].item(), 2))
print("ucb counts", counts.tolist(), "regret", round(reg_ucb[-1].item(), 2))

batch = Binomial(total_count=10, probs=post.mean)
print("binomial mean", [round(v, 3) for v in batch.mean.tolist()], "mode", batch.mode.tolist())
print("binomial entropy", [round(v, 4) for v in batch.entropy().tolist()], "perplexity", [round(v, 3) for v in batch.perplexity().tolist()])
support = batch.enumerate_support()
print("support", support.shape, support[:3, 0].tolist())
lp = batch.log_prob(support)
print("pmf sums", [round(v, 5) for v in lp.exp().sum(0).tolist()], "P(>=7)", [round(v, 4) for v in lp.exp()[7:].sum(0).tolist()])
try:
    Binomial(total_count=torch.tensor([5.0, 10.0]), probs=torch.tensor([0.5, 0.5])).entropy()
except NotImplementedError as e:
    print("NotImplementedError:", e)

obs = torch.tensor([1.2, 0.8, 1.1, 1.5])
prior = Normal(torch.tensor(0.0), torch.tensor(1.0))
tau2, n = 0.5 ** 2, obs.numel()
post_var = 1 / (1 / prior.scale ** 2 + n / tau2)
post_mu = post_var * (prior.loc / prior.scale ** 2 + obs.sum() / tau2)
gpost = Normal(post_mu, post_var.sqrt())
print("gaussian posterior", round(gpost.loc.item(), 4), round(gpost.scale.item(), 4), "KL(post||prior)", round(kl_divergence(gpost, prior).item(), 4))
print("info gain per obs", [round(kl_divergence(Normal(post_mu, post_var.sqrt()), Normal(obs[:i + 1].mean(), 0.5 / math.sqrt(i + 1))).item(), 4) for i in range(n)])

subset = Independent(Bernoulli(torch.tensor([[0.3, 0.8]])), 0)
print("independent support", subset.enumerate_support(expand=False).shape, subset.has_enumerate_support)
joint = Independent(Bernoulli(torch.tensor([0.3, 0.8])), 1)
print("joint enumerable", joint.has_enumerate_support, "log_prob", round(joint.log_prob(torch.tensor([1.0, 1.0])).item(), 4))
try:
    joint.enumerate_support()
except NotImplementedError as e:
    print("NotImplementedError:", e)
cat = Categorical(probs=post.mean / post.mean.sum())
print("arm choice support", cat.enumerate_support().tolist(), "entropy", round(cat.entropy().item(), 4))


class ExpRate(ExponentialFamily):
    """An exponential distribution written through its natural parameter -rate."""
    arg_constraints = {}

    def __init__(self, rate):
        self.rate = rate
        super().__init__(rate.shape)

    @property
    def _natural_params(self):
        return (-self.rate,)

    def _log_normalizer(self, x):
        return -torch.log(-x)

    @property
    def _mean_carrier_measure(self):
        return 0

    def log_prob(self, value):
        return self.rate.log() - self.rate * value


rates = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
e = ExpRate(rates)
ent = e.entropy()
print("bregman entropy", [round(v, 4) for v in ent.tolist()], "closed form", [round(v, 4) for v in (1 - rates.log()).tolist()])
kl = kl_divergence(ExpRate(rates), ExpRate(torch.tensor([1.0, 1.0, 1.0])))
print("bregman kl", [round(v, 4) for v in kl.tolist()])
(ent.sum() + kl.sum()).backward()
print("entropy detaches the parameters", rates.grad is None)
try:
    kl_divergence(ExpRate(rates), Normal(0.0, 1.0))
except NotImplementedError as e:
    print("NotImplementedError:", type(e).__name__)
