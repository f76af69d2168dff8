"""torch.distributions beyond sampling, as in variational-inference code: kl_divergence between
families (Normal, Independent Normals, Categorical, Bernoulli, Beta, Gamma, Dirichlet,
MultivariateNormal, Laplace), a custom KL registered with register_kl, the Monte-Carlo KL
against the analytic one, constraints and biject_to/transform_to for unconstrained
parameters, support checks with validate_args, cdf/icdf/entropy/mean/variance, and
rsample gradients."""
# ruff: noqa: B007, E501  (written as the published program is)

import torch
from torch.distributions import (
    Bernoulli,
    Beta,
    Categorical,
    Dirichlet,
    Distribution,
    Exponential,
    Gamma,
    Independent,
    Laplace,
    LogNormal,
    MultivariateNormal,
    Normal,
    Uniform,
    constraints,
    kl_divergence,
    register_kl,
)
from torch.distributions import biject_to, transform_to

torch.manual_seed(0)
p, q = Normal(0.0, 1.0), Normal(torch.tensor([0.5, -1.0]), torch.tensor([2.0, 0.5]))
print(kl_divergence(p, q), kl_divergence(q, p))
print(kl_divergence(Independent(q, 1), Independent(Normal(torch.zeros(2), torch.ones(2)), 1)))
print(kl_divergence(Categorical(logits=torch.tensor([0.0, 1.0, 2.0])), Categorical(probs=torch.tensor([0.2, 0.3, 0.5]))))
print(kl_divergence(Bernoulli(0.3), Bernoulli(torch.tensor([0.1, 0.5]))))
print(kl_divergence(Beta(2.0, 3.0), Beta(1.0, 1.0)), kl_divergence(Gamma(2.0, 1.0), Gamma(3.0, 2.0)))
print(kl_divergence(Dirichlet(torch.tensor([1.0, 2.0, 3.0])), Dirichlet(torch.ones(3))))
mvn1 = MultivariateNormal(torch.zeros(2), torch.tensor([[1.0, 0.3], [0.3, 2.0]]))
mvn2 = MultivariateNormal(torch.ones(2), scale_tril=torch.tensor([[1.0, 0.0], [0.5, 1.5]]))
print(kl_divergence(mvn1, mvn2))
print(kl_divergence(Laplace(0.0, 1.0), Laplace(1.0, 2.0)), kl_divergence(Exponential(1.0), Exponential(3.0)))
print(kl_divergence(Uniform(0.0, 1.0), Uniform(-1.0, 2.0)))
print(kl_divergence(Uniform(-1.0, 2.0), Uniform(0.0, 1.0)))


class Spike(Distribution):
    arg_constraints = {}
    support = constraints.real

    def __init__(self, loc):
        self.loc = loc
        super().__init__(validate_args=False)


@register_kl(Spike, Normal)
def _kl_spike_normal(p, q):
    return -q.log_prob(p.loc)


print(kl_divergence(Spike(torch.tensor(0.5)), Normal(0.0, 1.0)))

z = q.rsample((20000,))
print((q.log_prob(z) - p.log_prob(z)).mean(0))

for c in [constraints.positive, constraints.unit_interval, constraints.simplex, constraints.corr_cholesky, constraints.interval(-2.0, 3.0)]:
    t = biject_to(c)
    u = torch.tensor([0.3, -1.2, 0.7]) if c is not constraints.corr_cholesky else torch.tensor([0.3, -1.2, 0.7])
    y = t(u)
    print(c, y, c.check(y).all().item(), t.log_abs_det_jacobian(u, y).sum())
print(transform_to(constraints.simplex)(torch.zeros(3)))
print(constraints.positive.check(torch.tensor([-1.0, 0.0, 2.0])), constraints.integer_interval(0, 3).check(torch.tensor([0, 3, 4])))

try:
    Normal(0.0, -1.0, validate_args=True)
except ValueError as e:
    print("ValueError", str(e).split(" ")[0:4])
try:
    Categorical(probs=torch.tensor([0.5, 0.5]), validate_args=True).log_prob(torch.tensor(3))
except ValueError as e:
    print("ValueError", "support" in str(e))

for d in [Normal(1.0, 2.0), LogNormal(0.0, 0.5), Gamma(3.0, 2.0), Beta(2.0, 5.0), Laplace(0.0, 1.5), Exponential(2.0)]:
    print(type(d).__name__, d.mean, d.variance, d.entropy())
print(Normal(0.0, 1.0).cdf(torch.tensor([-1.0, 0.0, 1.96])), Normal(0.0, 1.0).icdf(torch.tensor([0.025, 0.5, 0.975])))
print(Laplace(0.0, 1.0).cdf(torch.tensor(0.5)), Exponential(2.0).icdf(torch.tensor(0.5)), Uniform(0.0, 4.0).cdf(torch.tensor(1.0)))

mu = torch.tensor(0.5, requires_grad=True)
log_sigma = torch.tensor(0.0, requires_grad=True)
for step in range(200):
    qz = Normal(mu, log_sigma.exp())
    zs = qz.rsample((64,))
    elbo = (Normal(2.0, 0.5).log_prob(zs) - qz.log_prob(zs)).mean()
    mu.grad = log_sigma.grad = None
    (-elbo).backward()
    with torch.no_grad():
        mu -= 0.05 * mu.grad
        log_sigma -= 0.05 * log_sigma.grad
print(round(mu.item(), 3), round(log_sigma.exp().item(), 3))
print(kl_divergence(Normal(mu, log_sigma.exp()), Normal(2.0, 0.5)).item() < 0.05)
