"""Bayesian linear regression in plain PyTorch as in probabilistic-programming primers: the
conjugate Normal posterior in closed form (MultivariateNormal with precision_matrix), the
posterior predictive, a random-walk Metropolis sampler and a Hamiltonian Monte Carlo sampler
with leapfrog steps driven by torch.autograd.grad over the log joint (Normal, HalfCauchy,
Gamma log_probs), acceptance rates, posterior means and credible intervals by quantile."""
# ruff: noqa: B007, E501  (written as the published program is)

import torch
from torch.distributions import Gamma, HalfCauchy, MultivariateNormal, Normal

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
n = 40
X = torch.cat([torch.ones(n, 1), torch.linspace(-1, 3, n).unsqueeze(1)], 1)
w_true = torch.tensor([0.5, -1.5])
sigma = 0.3
y = X @ w_true + sigma * torch.randn(n)

# conjugate posterior with prior N(0, I / alpha)
alpha = 1.0
precision = alpha * torch.eye(2) + X.T @ X / sigma ** 2
cov = torch.linalg.inv(precision)
mean = cov @ X.T @ y / sigma ** 2
post = MultivariateNormal(mean, precision_matrix=precision)
print(mean, post.covariance_matrix, post.entropy())
x_new = torch.tensor([[1.0, 0.0], [1.0, 3.0]])
pred_mean = x_new @ mean
pred_var = sigma ** 2 + (x_new @ cov * x_new).sum(1)
print(pred_mean, pred_var.sqrt())


def log_joint(theta):
    w, log_s = theta[:2], theta[2]
    s = log_s.exp()
    lp = Normal(0.0, 1.0).log_prob(w).sum() + HalfCauchy(1.0).log_prob(s) + log_s
    return lp + Normal(X @ w, s).log_prob(y).sum()


def metropolis(n_steps, step_size):
    theta = torch.zeros(3)
    lp = log_joint(theta)
    samples, accepted = [], 0
    for i in range(n_steps):
        prop = theta + step_size * torch.randn(3)
        lp_prop = log_joint(prop)
        if torch.rand(()) < (lp_prop - lp).exp():
            theta, lp = prop, lp_prop
            accepted += 1
        samples.append(theta)
    return torch.stack(samples), accepted / n_steps


samples, rate = metropolis(1500, 0.1)
kept = samples[500:]
print(f"metropolis acceptance {rate:.3f}", kept.mean(0), kept[:, 2].exp().mean())


def hmc(n_steps, eps, L):
    theta = torch.zeros(3)
    samples, accepted = [], 0
    for i in range(n_steps):
        p0 = torch.randn(3)
        q = theta.clone().requires_grad_(True)
        lp0 = log_joint(q)
        g, = torch.autograd.grad(lp0, q)
        p = p0 + 0.5 * eps * g
        for l in range(L):
            q = (q + eps * p).detach().requires_grad_(True)
            lp = log_joint(q)
            g, = torch.autograd.grad(lp, q)
            if l != L - 1:
                p = p + eps * g
        p = p + 0.5 * eps * g
        log_accept = (lp - 0.5 * p.dot(p)) - (lp0 - 0.5 * p0.dot(p0))
        if torch.log(torch.rand(())) < log_accept:
            theta = q.detach()
            accepted += 1
        samples.append(theta)
    return torch.stack(samples), accepted / n_steps


samples, rate = hmc(300, 0.05, 10)
kept = samples[100:]
print(f"hmc acceptance {rate:.3f}", kept.mean(0))
print(torch.quantile(kept[:, 1], torch.tensor([0.05, 0.5, 0.95])))
print(kept.std(0), Gamma(2.0, 3.0).log_prob(kept[:3, 2].exp()))
torch.set_default_dtype(torch.float32)
print(torch.ones(1).dtype)
