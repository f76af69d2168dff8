"""torch.distributions as probabilistic-programming tutorials use it: sample/rsample shapes
with sample_shape and batch/event shapes, log_prob/entropy/mean/variance/cdf/icdf of Normal,
Beta, Gamma, Dirichlet, Poisson, Binomial, Bernoulli (probs and logits), Categorical,
OneHotCategorical, Multinomial, Exponential, Laplace, StudentT, Uniform, LogNormal,
MultivariateNormal (covariance, scale_tril, precision), LowRankMultivariateNormal,
Independent, MixtureSameFamily, TransformedDistribution with affine/exp/sigmoid transforms,
kl_divergence pairs, reparameterised gradients, and a REINFORCE-style score gradient."""
# ruff: noqa: E501

import torch
import torch.distributions as D

torch.manual_seed(0)
n = D.Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))
print(n.batch_shape, n.event_shape, n.sample((3,)).shape, n.rsample((2, 4)).shape)
x = torch.tensor([0.5, -1.0])
print(n.log_prob(x), n.entropy(), n.cdf(x), n.icdf(torch.tensor([0.1, 0.9])), n.mean, n.stddev, n.variance)
for d in [D.Beta(torch.tensor([2.0, 0.5]), torch.tensor([3.0, 0.5])), D.Gamma(torch.tensor([2.0, 0.7]), torch.tensor([1.5, 3.0])),
          D.Exponential(torch.tensor([0.5, 2.0])), D.Laplace(0.0, torch.tensor([1.0, 3.0])), D.StudentT(torch.tensor([3.0, 10.0])),
          D.Uniform(torch.tensor([0.0, -1.0]), torch.tensor([1.0, 4.0])), D.LogNormal(torch.tensor([0.0, 0.5]), torch.tensor([0.5, 1.0])),
          D.Cauchy(0.0, torch.tensor([1.0, 0.5])), D.HalfNormal(torch.tensor([1.0, 2.0])), D.Gumbel(0.0, torch.tensor([1.0, 2.0])), D.Chi2(torch.tensor([3.0, 5.0]))]:
        v = torch.tensor([0.3, 0.6])
        print(type(d).__name__, d.log_prob(v), d.mean, d.variance, d.entropy(), d.sample().shape)
print(D.Beta(2.0, 3.0).cdf(torch.tensor(0.3)) if False else D.Exponential(2.0).cdf(torch.tensor(0.3)), D.Uniform(0.0, 2.0).icdf(torch.tensor(0.25)), D.Laplace(0.0, 1.0).cdf(torch.tensor([-1.0, 1.0])))
di = D.Dirichlet(torch.tensor([[1.0, 2.0, 3.0], [0.5, 0.5, 0.5]]))
print(di.batch_shape, di.event_shape, di.log_prob(torch.tensor([0.2, 0.3, 0.5])), di.mean, di.entropy(), di.sample((2,)).shape)
po = D.Poisson(torch.tensor([1.0, 4.0]))
print(po.log_prob(torch.tensor([0.0, 3.0])), po.mean, po.sample((5,)))
bi = D.Binomial(10, torch.tensor([0.2, 0.7]))
print(bi.log_prob(torch.tensor([2.0, 9.0])), bi.mean, bi.variance, bi.entropy() if False else bi.sample((3,)))
be = D.Bernoulli(logits=torch.tensor([-1.0, 0.0, 2.0]))
print(be.probs, be.log_prob(torch.tensor([1.0, 0.0, 1.0])), be.entropy(), be.sample((2,)))
cat = D.Categorical(logits=torch.tensor([[1.0, 2.0, 0.5], [0.0, 0.0, 3.0]]))
print(cat.probs, cat.log_prob(torch.tensor([1, 2])), cat.entropy(), cat.sample((4,)), cat.enumerate_support())
oh = D.OneHotCategorical(probs=torch.tensor([0.2, 0.5, 0.3]))
print(oh.sample((3,)), oh.log_prob(torch.tensor([0.0, 1.0, 0.0])), oh.entropy())
mn = D.Multinomial(6, probs=torch.tensor([0.2, 0.5, 0.3]))
print(mn.sample((2,)), mn.log_prob(torch.tensor([1.0, 3.0, 2.0])), mn.mean)
geo = D.Geometric(probs=torch.tensor([0.3]))
print(geo.log_prob(torch.tensor([2.0])), geo.mean, geo.sample((4,)).squeeze(), D.NegativeBinomial(3.0, probs=torch.tensor(0.4)).log_prob(torch.tensor(2.0)))

cov = torch.tensor([[2.0, 0.6, 0.1], [0.6, 1.0, 0.3], [0.1, 0.3, 0.5]])
mvn = D.MultivariateNormal(torch.zeros(3), covariance_matrix=cov)
pt = torch.tensor([0.5, -0.2, 0.1])
print(mvn.log_prob(pt), mvn.entropy(), mvn.scale_tril, mvn.rsample((2,)), mvn.variance)
print(D.MultivariateNormal(torch.zeros(3), scale_tril=torch.linalg.cholesky(cov)).log_prob(pt), D.MultivariateNormal(torch.zeros(3), precision_matrix=torch.linalg.inv(cov)).log_prob(pt))
lr = D.LowRankMultivariateNormal(torch.zeros(3), torch.tensor([[1.0], [0.5], [0.2]]), torch.tensor([0.5, 0.4, 0.3]))
print(lr.log_prob(pt), lr.covariance_matrix, lr.entropy())
ind = D.Independent(D.Normal(torch.zeros(4, 3), torch.ones(4, 3)), 1)
print(ind.batch_shape, ind.event_shape, ind.log_prob(torch.zeros(4, 3)))
mix = D.MixtureSameFamily(D.Categorical(torch.tensor([0.3, 0.7])), D.Normal(torch.tensor([-1.0, 2.0]), torch.tensor([0.5, 1.0])))
print(mix.log_prob(torch.tensor([0.0, 1.5, -1.0])), mix.mean, mix.variance, mix.sample((3,)))
tr = D.TransformedDistribution(D.Normal(0.0, 1.0), [D.transforms.AffineTransform(1.0, 2.0), D.transforms.ExpTransform()])
print(tr.log_prob(torch.tensor([0.5, 3.0])), tr.sample((2,)))
sig = D.TransformedDistribution(D.Normal(torch.zeros(2), torch.ones(2)), D.transforms.SigmoidTransform())
print(sig.log_prob(torch.tensor([0.2, 0.9])), D.transforms.StickBreakingTransform()(torch.tensor([0.0, 1.0])), D.transforms.SoftmaxTransform()(torch.tensor([1.0, 2.0])))
print(D.constraints.positive.check(torch.tensor([1.0, -1.0])), D.biject_to(D.constraints.unit_interval)(torch.tensor(0.0)), D.biject_to(D.constraints.positive)(torch.tensor([0.0, 1.0])))

pairs = [(D.Normal(0.0, 1.0), D.Normal(1.0, 2.0)), (D.Beta(2.0, 3.0), D.Beta(1.0, 1.0)), (D.Gamma(2.0, 1.0), D.Gamma(3.0, 2.0)), (D.Categorical(torch.tensor([0.2, 0.8])), D.Categorical(torch.tensor([0.5, 0.5]))),
         (D.Bernoulli(0.3), D.Bernoulli(0.6)), (D.Dirichlet(torch.tensor([1.0, 2.0])), D.Dirichlet(torch.tensor([2.0, 2.0]))), (D.Exponential(1.0), D.Exponential(3.0)), (D.Poisson(2.0), D.Poisson(3.0)),
         (mvn, D.MultivariateNormal(torch.ones(3), torch.eye(3))), (D.Laplace(0.0, 1.0), D.Laplace(1.0, 2.0)), (D.Uniform(0.0, 1.0), D.Uniform(-1.0, 2.0)), (ind, D.Independent(D.Normal(torch.ones(4, 3), 2 * torch.ones(4, 3)), 1))]
for p, q in pairs:
    print(type(p).__name__, D.kl_divergence(p, q))

mu = torch.tensor([0.5, -0.5], requires_grad=True)
log_sigma = torch.tensor([0.0, 0.3], requires_grad=True)
q = D.Normal(mu, log_sigma.exp())
z = q.rsample((1000,))
elbo = (D.Normal(0.0, 1.0).log_prob(z) - q.log_prob(z)).mean()
elbo.backward()
print(elbo, mu.grad, log_sigma.grad)
logits = torch.tensor([0.1, 0.5, -0.3], requires_grad=True)
pol = D.Categorical(logits=logits)
acts = pol.sample((64,))
reward = (acts == 1).float() * 2 - 1
(-(pol.log_prob(acts) * reward).mean()).backward()
print(acts[:10], logits.grad)
conc = torch.tensor([2.0, 3.0], requires_grad=True)
D.Gamma(conc, 1.0).rsample((100,)).mean().backward()
print(conc.grad)
a_ = torch.tensor(2.0, requires_grad=True)
D.kl_divergence(D.Beta(a_, 2.0), D.Beta(1.0, 1.0)).backward()
print(a_.grad)
