"""Bayes by Backprop (Blundell et al. 2015) for 1-D regression with a gap in the data: a
Bayesian linear layer with a factorised Gaussian posterior (softplus-parametrised scales,
rsample by the reparametrisation trick), the closed-form KL to a Gaussian prior
(torch.distributions.kl_divergence of Independent Normals) and a Monte Carlo KL against a
scale-mixture prior (MixtureSameFamily); the local reparametrisation trick as an
alternative; the ELBO with a learned homoscedastic noise; predictive mean and standard
deviation from 100 posterior samples (inside and outside the data), calibration of the
95% intervals; and the same network under MC dropout for comparison."""
# ruff: noqa: E501

import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical, Independent, MixtureSameFamily, Normal, kl_divergence

torch.set_default_dtype(torch.float64)
torch.manual_seed(0)

x_left = torch.rand(60, 1) * 1.5 - 2.0
x_right = torch.rand(60, 1) * 1.5 + 0.5
x = torch.cat([x_left, x_right])
y = torch.sin(2 * x) + 0.3 * x + 0.1 * torch.randn_like(x)
x_test = torch.linspace(-3, 3, 13).unsqueeze(1)
y_test = torch.sin(2 * x_test) + 0.3 * x_test
print("data", tuple(x.shape), f"y mean {y.mean().item():.4f} std {y.std().item():.4f}")


class BayesLinear(nn.Module):
    def __init__(self, n_in, n_out, prior_sd=1.0, local=False):
        super().__init__()
        self.w_mu = nn.Parameter(torch.empty(n_out, n_in).uniform_(-0.2, 0.2))
        self.w_rho = nn.Parameter(torch.full((n_out, n_in), -5.0))
        self.b_mu = nn.Parameter(torch.zeros(n_out))
        self.b_rho = nn.Parameter(torch.full((n_out,), -5.0))
        self.prior_sd = prior_sd
        self.local = local

    def posterior(self):
        return (Independent(Normal(self.w_mu, F.softplus(self.w_rho)), 2),
                Independent(Normal(self.b_mu, F.softplus(self.b_rho)), 1))

    def kl(self):
        qw, qb = self.posterior()
        pw = Independent(Normal(torch.zeros_like(self.w_mu), self.prior_sd * torch.ones_like(self.w_mu)), 2)
        pb = Independent(Normal(torch.zeros_like(self.b_mu), self.prior_sd * torch.ones_like(self.b_mu)), 1)
        return kl_divergence(qw, pw) + kl_divergence(qb, pb)

    def forward(self, x):
        if self.local:  # sample the pre-activations instead of the weights
            mean = F.linear(x, self.w_mu, self.b_mu)
            var = F.linear(x ** 2, F.softplus(self.w_rho) ** 2, F.softplus(self.b_rho) ** 2)
            return mean + var.sqrt() * torch.randn_like(mean)
        qw, qb = self.posterior()
        return F.linear(x, qw.rsample(), qb.rsample())


class BNN(nn.Module):
    def __init__(self, local=False):
        super().__init__()
        self.l1 = BayesLinear(1, 32, local=local)
        self.l2 = BayesLinear(32, 32, local=local)
        self.l3 = BayesLinear(32, 1, local=local)
        self.log_noise = nn.Parameter(torch.tensor(-1.0))

    def forward(self, x):
        return self.l3(torch.tanh(self.l2(torch.tanh(self.l1(x)))))

    def kl(self):
        return self.l1.kl() + self.l2.kl() + self.l3.kl()


# the closed-form KL against a Monte Carlo estimate, and a scale-mixture prior's MC KL
layer = BayesLinear(3, 2)
with torch.no_grad():
    layer.w_rho.fill_(-0.5)
qw, _ = layer.posterior()
pw = Independent(Normal(torch.zeros(2, 3), torch.ones(2, 3)), 2)
w = qw.sample((20000,))
print(f"KL closed form {kl_divergence(qw, pw).item():.5f}, Monte Carlo {(qw.log_prob(w) - pw.log_prob(w)).mean().item():.5f}")
mix = MixtureSameFamily(Categorical(torch.tensor([0.5, 0.5])), Normal(torch.zeros(2), torch.tensor([1.0, math.exp(-6)])))
print(f"scale-mixture prior log p(0.1) {mix.log_prob(torch.tensor(0.1)).item():.5f}, MC KL {(qw.log_prob(w) - mix.log_prob(w).sum((1, 2))).mean().item():.4f}")


def train(model, steps=900, lr=1e-2, label=""):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    n = len(x)
    for step in range(1, steps + 1):
        pred = model(x)
        nll = -Normal(pred, model.log_noise.exp()).log_prob(y).sum()
        loss = (nll + model.kl()) / n
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 300 == 0:
            print(f"{label} step {step}: ELBO/n {-loss.item():.5f} nll/n {nll.item() / n:.5f} KL {model.kl().item():.3f} noise {model.log_noise.exp().item():.4f}")
    return model


def predictive(model, xs, samples=100):
    with torch.no_grad():
        preds = torch.stack([model(xs) for _ in range(samples)])
    return preds.mean(0).squeeze(1), preds.std(0).squeeze(1)


bnn = train(BNN(), label="weights")
torch.manual_seed(1)
mean, sd = predictive(bnn, x_test)
print("x     ", [round(v, 2) for v in x_test.squeeze(1).tolist()])
print("mean  ", [round(v, 3) for v in mean.tolist()])
print("sd    ", [round(v, 3) for v in sd.tolist()])
inside = ((x_test > -2) & (x_test < -0.5) | (x_test > 0.5) & (x_test < 2)).squeeze(1)
print(f"mean sd inside the data {sd[inside].mean().item():.4f}, outside {sd[~inside].mean().item():.4f}")
m_tr, s_tr = predictive(bnn, x)
total_sd = (s_tr ** 2 + bnn.log_noise.exp() ** 2).sqrt()
covered = ((y.squeeze(1) - m_tr).abs() < 1.96 * total_sd).double().mean()
print(f"95% interval coverage on the training data {covered.item():.4f}")

torch.manual_seed(2)
bnn_local = train(BNN(local=True), label="local")
torch.manual_seed(3)
mean_l, sd_l = predictive(bnn_local, x_test)
print("local sd", [round(v, 3) for v in sd_l.tolist()])

# MC dropout with the same architecture
torch.manual_seed(4)
net = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Dropout(0.1), nn.Linear(32, 32), nn.Tanh(), nn.Dropout(0.1), nn.Linear(32, 1))
opt = torch.optim.Adam(net.parameters(), lr=1e-2, weight_decay=1e-4)
for _step in range(1, 1001):
    loss = F.mse_loss(net(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"MC dropout final mse {loss.item():.5f}, training mode: {net.training}")
with torch.no_grad():
    preds = torch.stack([net(x_test) for _ in range(100)])
print("dropout sd", [round(v, 3) for v in preds.std(0).squeeze(1).tolist()])
net.eval()
with torch.no_grad():
    print("eval mode is deterministic:", torch.equal(net(x_test), net(x_test)))
