"""A Gaussian mixture fitted two ways, as in clustering notebooks: expectation-maximisation by
hand (responsibilities by logsumexp over MultivariateNormal log_probs, weighted means and
covariances, the log-likelihood per iteration) and gradient descent on the
MixtureSameFamily negative log-likelihood with Categorical logits and softplus scales;
then k-means with torch.cdist and argmin, and cluster agreement."""
# ruff: noqa: B007, E501  (written as the published program is)

import torch
from torch.distributions import Categorical, Independent, MixtureSameFamily, MultivariateNormal, Normal

torch.manual_seed(0)
means_true = torch.tensor([[-2.0, 0.0], [2.0, 1.0], [0.0, 3.0]])
counts = [60, 90, 50]
X = torch.cat([m + 0.5 * torch.randn(n, 2) for m, n in zip(means_true, counts)])
labels_true = torch.cat([torch.full((n,), k) for k, n in enumerate(counts)])
N, K = X.shape[0], 3

mu = X[torch.tensor([0, 70, 160])].clone()
cov = torch.eye(2).repeat(K, 1, 1)
pi = torch.full((K,), 1.0 / K)
for it in range(15):
    log_p = torch.stack([MultivariateNormal(mu[k], cov[k]).log_prob(X) for k in range(K)], 1) + pi.log()
    ll = torch.logsumexp(log_p, 1)
    resp = (log_p - ll[:, None]).exp()
    Nk = resp.sum(0)
    pi = Nk / N
    mu = (resp.T @ X) / Nk[:, None]
    for k in range(K):
        d = X - mu[k]
        cov[k] = (resp[:, k, None] * d).T @ d / Nk[k] + 1e-6 * torch.eye(2)
    if it % 5 == 4:
        print(it, f"{ll.mean().item():.5f}")
print(pi, mu, sep="\n")
print(cov[0])
em_labels = resp.argmax(1)

logits = torch.zeros(K, requires_grad=True)
locs = X[torch.tensor([0, 70, 160])].clone().requires_grad_(True)
raw_scale = torch.zeros(K, 2, requires_grad=True)
opt = torch.optim.Adam([logits, locs, raw_scale], lr=0.05)
for step in range(150):
    mix = MixtureSameFamily(Categorical(logits=logits), Independent(Normal(locs, torch.nn.functional.softplus(raw_scale) + 1e-3), 1))
    nll = -mix.log_prob(X).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    if step % 50 == 49:
        print(step, f"{nll.item():.4f}")
print(mix.mixture_distribution.probs.detach(), mix.batch_shape, mix.event_shape)
print(locs.detach())
print(f"{mix.mean.detach()[0].item():.4f}", mix.variance.detach().shape, mix.sample((3,)).shape)
post = mix.component_distribution.log_prob(X.unsqueeze(1)) + mix.mixture_distribution.logits
sgd_labels = post.argmax(1)

centroids = X[torch.tensor([0, 70, 160])].clone()
for it in range(10):
    assign = torch.cdist(X, centroids).argmin(1)
    centroids = torch.stack([X[assign == k].mean(0) for k in range(K)])
print(centroids, torch.bincount(assign))
inertia = (X - centroids[assign]).pow(2).sum()
print(f"inertia {inertia.item():.4f}")
for name, lab in [("em", em_labels), ("sgd", sgd_labels), ("kmeans", assign)]:
    print(name, (lab == labels_true).float().mean().item(), torch.bincount(lab, minlength=K).tolist())
