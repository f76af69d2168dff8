"""Exact Gaussian-process regression as in GP tutorials written in plain PyTorch: an RBF kernel
with softplus-constrained hyperparameters, Cholesky factor, cholesky_solve, the marginal
log-likelihood (also via MultivariateNormal(scale_tril=...)), Adam on the hyperparameters,
predictive mean and variance with solve_triangular."""
# ruff: noqa: E501  (written as the published program is)


import math

import torch
import torch.nn.functional as F
from torch.distributions import MultivariateNormal

torch.manual_seed(6)
torch.set_default_dtype(torch.float64)
train_x = torch.linspace(0, 1, 15)
train_y = torch.sin(train_x * (2 * math.pi)) + torch.randn(train_x.size()) * 0.2
test_x = torch.linspace(0, 1, 5)

raw_lengthscale = torch.tensor(0.0, requires_grad=True)
raw_outputscale = torch.tensor(0.0, requires_grad=True)
raw_noise = torch.tensor(-1.0, requires_grad=True)


def kernel(a, b, ls, os):
    d = (a.unsqueeze(-1) - b.unsqueeze(-2)) / ls
    return os * torch.exp(-0.5 * d.pow(2))


def mll():
    ls, os, noise = F.softplus(raw_lengthscale), F.softplus(raw_outputscale), F.softplus(raw_noise)
    K = kernel(train_x, train_x, ls, os) + noise * torch.eye(len(train_x))
    L = torch.linalg.cholesky(K)
    alpha = torch.cholesky_solve(train_y.unsqueeze(-1), L)
    n = len(train_x)
    val = -0.5 * (train_y.unsqueeze(0) @ alpha).squeeze() - L.diagonal().log().sum() - 0.5 * n * math.log(2 * math.pi)
    return val / n, L


opt = torch.optim.Adam([raw_lengthscale, raw_outputscale, raw_noise], lr=0.1)
for i in range(50):
    opt.zero_grad()
    val, L = mll()
    loss = -val
    loss.backward()
    opt.step()
    if i % 10 == 0:
        print(f"iter {i} loss {loss.item():.5f} lengthscale {F.softplus(raw_lengthscale).item():.4f} "
              f"noise {F.softplus(raw_noise).item():.4f}")
with torch.no_grad():
    val, L = mll()
    mvn = MultivariateNormal(torch.zeros(len(train_x)), scale_tril=L)
    print("mll", round(val.item(), 6), "via distribution", round(mvn.log_prob(train_y).item() / len(train_x), 6))
    ls, os = F.softplus(raw_lengthscale), F.softplus(raw_outputscale)
    Ks = kernel(test_x, train_x, ls, os)
    mean = Ks @ torch.cholesky_solve(train_y.unsqueeze(-1), L)
    v = torch.linalg.solve_triangular(L, Ks.t(), upper=False)
    var = kernel(test_x, test_x, ls, os).diagonal() - v.pow(2).sum(0)
    print("mean", [round(m, 4) for m in mean.squeeze(-1).tolist()])
    print("std", [round(s, 4) for s in var.clamp_min(0).sqrt().tolist()])
    samples = MultivariateNormal(mean.squeeze(-1), covariance_matrix=kernel(test_x, test_x, ls, os)
                                 - v.t() @ v + 1e-6 * torch.eye(5)).sample((3,))
    print("samples", samples.shape, [round(s, 3) for s in samples[0].tolist()])
