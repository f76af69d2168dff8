"""Clustering and dimensionality reduction in PyTorch, as in the unsupervised-learning
notebooks: k-means++ seeding with torch.multinomial on squared distances, Lloyd iterations
with cdist/argmin and index_add_/bincount centroid updates, inertia and a silhouette score;
PCA three ways (torch.linalg.svd of the centred data, eigh of torch.cov, torch.pca_lowrank)
with a sign convention, explained variance ratios, whitening, reconstruction error; and
torch.corrcoef, torch.histc and torch.quantile of the projections."""
# ruff: noqa: E501

import torch

torch.manual_seed(21)
K, D = 3, 4
means = torch.tensor([[0.0, 0.0, 0.0, 0.0], [4.0, 4.0, 0.0, 1.0], [0.0, 5.0, 3.0, -2.0]])
X = torch.cat([means[k] + torch.randn(30, D) * (0.5 + 0.3 * k) for k in range(K)])
print(X.shape, X.mean(0).round(decimals=4), X.std(0).round(decimals=4))


def kmeans_pp(X, k):
    idx = [int(torch.randint(len(X), (1,)))]
    for _ in range(k - 1):
        d2 = torch.cdist(X, X[idx]).min(1).values ** 2
        idx.append(int(torch.multinomial(d2 / d2.sum(), 1)))
    return X[idx].clone(), idx


def lloyd(X, C, iters=10):
    for it in range(iters):  # noqa: B007 - returned after the loop
        assign = torch.cdist(X, C).argmin(1)
        counts = torch.bincount(assign, minlength=len(C)).float()
        sums = torch.zeros_like(C).index_add_(0, assign, X)
        newC = sums / counts.clamp(min=1)[:, None]
        shift = (newC - C).norm()
        C = newC
        if shift < 1e-6:
            break
    inertia = ((X - C[assign]) ** 2).sum()
    return C, assign, inertia, it


C0, idx = kmeans_pp(X, K)
print("seeds", idx)
C, assign, inertia, it = lloyd(X, C0)
order = C[:, 0].argsort() * 10 + C[:, 1].argsort()
print("iters", it, "inertia", round(inertia.item(), 3), torch.bincount(assign).sort().values.tolist())
print(C[C[:, 1].argsort()].round(decimals=3))

D_all = torch.cdist(X, X)
same = assign[:, None] == assign[None]
a = (D_all * same).sum(1) / (same.sum(1) - 1)
b = torch.stack([D_all[:, assign == k].mean(1) for k in range(K)], 1).masked_fill(torch.nn.functional.one_hot(assign, K).bool(), float("inf")).min(1).values
print("silhouette", ((b - a) / torch.maximum(a, b)).mean().item().__round__(4))

Xc = X - X.mean(0)
U, S, Vh = torch.linalg.svd(Xc, full_matrices=False)
signs = torch.sign(Vh[:, Vh.abs().argmax(1)].diagonal())
Vh = Vh * signs[:, None]
evals, evecs = torch.linalg.eigh(torch.cov(X.t()))
evals, evecs = evals.flip(0), evecs.flip(1)
evecs = evecs * torch.sign(evecs[evecs.abs().argmax(0), torch.arange(D)])
print(S.round(decimals=3), (S ** 2 / (len(X) - 1)).round(decimals=3), evals.round(decimals=3))
print(Vh.round(decimals=3), torch.allclose(Vh.t().abs(), evecs.abs(), atol=1e-4))
ratio = evals / evals.sum()
print("explained", ratio.round(decimals=4), ratio.cumsum(0).round(decimals=4))
U2, S2, V2 = torch.pca_lowrank(X, q=2, center=True, niter=4)
print(S2.round(decimals=3), torch.allclose(S2, S[:2], atol=1e-3), V2.shape)
Z = Xc @ Vh[:2].t()
recon = Z @ Vh[:2] + X.mean(0)
print("recon mse", ((recon - X) ** 2).mean().item().__round__(5), (S[2:] ** 2).sum().item() / X.numel() - ((recon - X) ** 2).mean().item() < 1e-4)
W = Xc @ Vh.t() / S * (len(X) - 1) ** 0.5
print(torch.cov(W.t()).round(decimals=3).abs())
print(torch.corrcoef(X.t()).round(decimals=3))
print(torch.histc(Z[:, 0], bins=6), torch.quantile(Z[:, 1], torch.tensor([0.1, 0.5, 0.9])).round(decimals=3))
