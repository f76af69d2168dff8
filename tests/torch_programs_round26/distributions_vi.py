"""Variational inference with torch.distributions: a LogNormal built as a
TransformedDistribution (ExpTransform) and a logit-normal (SigmoidTransform after an
AffineTransform) checked against closed forms, a ComposeTransform's log-determinant, a
Gaussian mixture by MixtureSameFamily fitted by maximum likelihood, Independent's event shape
and log_prob, kl_divergence in closed form against Monte Carlo, rsample's reparametrised
gradients against the score-function estimator, and a mean-field ADVI fit of a Bayesian
logistic regression's posterior with a constraint registry transform (biject_to)."""
# ruff: noqa: E501

import math

import torch
import torch.distributions as D
from torch.distributions import constraints, transforms

torch.set_default_dtype(torch.float64)
torch.manual_seed(0)

base = D.Normal(torch.tensor(0.3), torch.tensor(0.8))
lognormal = D.TransformedDistribution(base, [transforms.ExpTransform()])
x = torch.tensor([0.5, 1.0, 3.0])
print("lognormal log_prob equals D.LogNormal:", torch.allclose(lognormal.log_prob(x), D.LogNormal(0.3, 0.8).log_prob(x)))
print("lognormal log_prob:", lognormal.log_prob(x))
logit_normal = D.TransformedDistribution(D.Normal(0.0, 1.0), [transforms.AffineTransform(0.5, 2.0), transforms.SigmoidTransform()])
u = torch.tensor([0.1, 0.5, 0.9])
z = torch.logit(u)
manual = D.Normal(0.5, 2.0).log_prob(z) - torch.log(u * (1 - u))
print("logit-normal log_prob by the change of variables:", torch.allclose(logit_normal.log_prob(u), manual), logit_normal.log_prob(u))
t = transforms.ComposeTransform([transforms.AffineTransform(1.0, 3.0), transforms.TanhTransform()])
a = torch.tensor([-0.2, 0.1, 0.4])
ld = t.log_abs_det_jacobian(a, t(a))
num = torch.log(torch.autograd.functional.jacobian(lambda v: t(v), a).diagonal().abs())
print("compose log|det J| equals autograd's:", torch.allclose(ld, num), "| inverse round trip:", torch.allclose(t.inv(t(a)), a))

# Gaussian mixture by maximum likelihood
true = D.MixtureSameFamily(D.Categorical(torch.tensor([0.3, 0.5, 0.2])),
                           D.Normal(torch.tensor([-2.0, 0.5, 3.0]), torch.tensor([0.5, 0.7, 0.4])))
data = true.sample((600,))
logits = torch.zeros(3, requires_grad=True)
locs = torch.tensor([-1.0, 0.0, 1.0], requires_grad=True)
log_scales = torch.zeros(3, requires_grad=True)
opt = torch.optim.Adam([logits, locs, log_scales], lr=0.05)
for step in range(1, 301):
    mix = D.MixtureSameFamily(D.Categorical(logits=logits), D.Normal(locs, log_scales.exp()))
    nll = -mix.log_prob(data).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    if step % 100 == 0:
        print(f"mixture step {step} nll {nll.item():.8f} weights {[round(w, 4) for w in logits.softmax(0).tolist()]} locs {[round(m, 4) for m in locs.tolist()]}")
print(f"mixture mean {mix.mean.item():.8f} variance {mix.variance.item():.8f} true nll {-true.log_prob(data).mean().item():.8f}")

# Independent and KL
q = D.Independent(D.Normal(torch.zeros(4, 3), torch.ones(4, 3) * 0.5), 1)
p = D.Independent(D.Normal(torch.ones(4, 3) * 0.2, torch.ones(4, 3)), 1)
print("batch_shape", tuple(q.batch_shape), "event_shape", tuple(q.event_shape), "log_prob shape", tuple(q.log_prob(torch.zeros(4, 3)).shape))
kl = D.kl_divergence(q, p)
s = q.sample((20000,))
mc = (q.log_prob(s) - p.log_prob(s)).mean(0)
print("closed-form KL:", kl, "| Monte Carlo within 0.03:", bool(((mc - kl).abs() < 0.03).all()))
print(f"KL(Gamma||Gamma) {D.kl_divergence(D.Gamma(2.0, 3.0), D.Gamma(1.5, 1.0)).item():.10f} KL(Beta||Beta) {D.kl_divergence(D.Beta(2.0, 3.0), D.Beta(1.0, 1.0)).item():.10f}")
print(f"KL(Dirichlet) {D.kl_divergence(D.Dirichlet(torch.tensor([1.0, 2.0, 3.0])), D.Dirichlet(torch.ones(3))).item():.10f} KL(MVN) {D.kl_divergence(D.MultivariateNormal(torch.zeros(2), torch.tensor([[2.0, 0.3], [0.3, 1.0]])), D.MultivariateNormal(torch.ones(2), torch.eye(2))).item():.10f}")

# reparametrised vs score-function gradients of E[(x - 2)^2], x ~ N(mu, sigma)
mu = torch.tensor(0.5, requires_grad=True)
sigma = torch.tensor(1.2, requires_grad=True)
dist = D.Normal(mu, sigma)
xs = dist.rsample((50000,))
g_rep = torch.autograd.grad((xs - 2).pow(2).mean(), [mu, sigma])
xs = dist.sample((50000,))
g_sf = torch.autograd.grad(((xs - 2).pow(2) * dist.log_prob(xs)).mean(), [mu, sigma])
exact = [2 * (0.5 - 2), 2 * 1.2]
print("reparametrised gradient", [round(g.item(), 4) for g in g_rep], "score function", [round(g.item(), 4) for g in g_sf], "exact", exact)
print("reparametrised is closer:", sum(abs(a.item() - e) for a, e in zip(g_rep, exact)) < sum(abs(a.item() - e) for a, e in zip(g_sf, exact)))

# ADVI for Bayesian logistic regression with a positive prior scale through biject_to
n, d = 200, 3
X = torch.randn(n, d)
w_true = torch.tensor([1.0, -2.0, 0.5])
y = D.Bernoulli(logits=X @ w_true).sample()
to_positive = D.biject_to(constraints.positive)
print("biject_to(positive):", type(to_positive).__name__)
q_loc = torch.zeros(d + 1, requires_grad=True)
q_log_scale = torch.full((d + 1,), -1.0, requires_grad=True)
opt = torch.optim.Adam([q_loc, q_log_scale], lr=0.05)
for step in range(1, 401):
    qd = D.Independent(D.Normal(q_loc, q_log_scale.exp()), 1)
    zs = qd.rsample((16,))
    w, tau = zs[:, :d], to_positive(zs[:, d])
    log_lik = D.Bernoulli(logits=w @ X.T).log_prob(y).sum(-1)
    log_prior = D.Normal(0.0, tau.unsqueeze(-1)).log_prob(w).sum(-1) + D.HalfCauchy(1.0).log_prob(tau) + to_positive.log_abs_det_jacobian(zs[:, d], tau)
    elbo = (log_lik + log_prior - qd.log_prob(zs)).mean()
    opt.zero_grad()
    (-elbo).backward()
    opt.step()
    if step % 100 == 0:
        print(f"ADVI step {step} elbo {elbo.item():.6f} posterior mean {[round(m, 4) for m in q_loc[:d].tolist()]} sd {[round(s, 4) for s in q_log_scale[:d].exp().tolist()]}")
print(f"posterior prior scale (median) {to_positive(q_loc[d]).item():.6f}")
print(f"entropy of q {qd.entropy().item():.8f} = {0.5 * (d + 1) * (1 + math.log(2 * math.pi)) + q_log_scale.sum().item():.8f}")
