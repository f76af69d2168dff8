"""Sparse coding by ISTA, FISTA and learned ISTA (Gregor & LeCun 2010): a dictionary with unit
columns (F.normalize over dim 0), k-sparse codes placed by topk + scatter, the step 1/L with L
from torch.linalg.matrix_norm(ord=2) against svdvals, soft thresholding by F.softshrink and by
hand (sign * relu), nn.Hardshrink/Tanhshrink, FISTA's momentum, LISTA's unrolled layers with
untied weights initialised from ISTA and per-layer thresholds trained with Adam, support
recovery (precision/recall), debiasing on the support by lu_factor/lu_solve of the normal
equations against torch.linalg.lstsq, and the condition number of the support columns."""
# ruff: noqa: E501

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
M, N, K = 20, 40, 3

gen = torch.Generator().manual_seed(0)
D = F.normalize(torch.randn(M, N, generator=gen), dim=0)
print("column norms", f"{D.norm(dim=0).min().item():.6f} {D.norm(dim=0).max().item():.6f}")
L = torch.linalg.matrix_norm(D, ord=2) ** 2
s = torch.linalg.svdvals(D)
print(f"L {L.item():.5f} sigma_max^2 {s[0].item() ** 2:.5f} sigma_min {s[-1].item():.5f} rank {torch.linalg.matrix_rank(D).item()}")


def make_codes(n, gen):
    scores = torch.rand(n, N, generator=gen)
    idx = scores.topk(K, dim=1).indices
    vals = torch.randn(n, K, generator=gen)
    vals = vals + 0.5 * vals.sign()
    return torch.zeros(n, N).scatter(1, idx, vals)


z_tr, z_te = make_codes(512, gen), make_codes(128, gen)
y_tr = z_tr @ D.T + 0.01 * torch.randn(512, M, generator=gen)
y_te = z_te @ D.T + 0.01 * torch.randn(128, M, generator=gen)
print("nonzeros per code", (z_tr != 0).sum(1)[:8].tolist())

lam = 0.1
x = torch.linspace(-0.3, 0.3, 7)
print("softshrink", F.softshrink(x, lam).tolist())
print("by hand   ", (x.sign() * F.relu(x.abs() - lam)).tolist())
print("hardshrink", nn.Hardshrink(lam)(x).tolist())
print("tanhshrink", [round(v, 6) for v in nn.Tanhshrink()(x).tolist()])


def objective(z, y):
    return 0.5 * (y - z @ D.T).pow(2).sum(1).mean() + lam * z.abs().sum(1).mean()


def ista(y, iters):
    z = torch.zeros(y.size(0), N)
    for _ in range(iters):
        z = F.softshrink(z + (y - z @ D.T) @ D / L, lam / L.item())
    return z


def fista(y, iters):
    z = torch.zeros(y.size(0), N)
    v, t = z, 1.0
    for _ in range(iters):
        z_next = F.softshrink(v + (y - v @ D.T) @ D / L, lam / L.item())
        t_next = (1 + (1 + 4 * t * t) ** 0.5) / 2
        v = z_next + (t - 1) / t_next * (z_next - z)
        z, t = z_next, t_next
    return z


def support_scores(z_hat, z_true, tol=1e-3):
    pred, true = z_hat.abs() > tol, z_true != 0
    tp = (pred & true).sum().item()
    return tp / max(pred.sum().item(), 1), tp / true.sum().item()


for iters in [5, 20, 100]:
    zi, zf = ista(y_te, iters), fista(y_te, iters)
    pi, ri = support_scores(zi, z_te)
    print(f"iters {iters:3d} ISTA obj {objective(zi, y_te).item():.5f} FISTA obj {objective(zf, y_te).item():.5f} ISTA P/R {pi:.4f}/{ri:.4f}")


class LISTA(nn.Module):
    def __init__(self, layers):
        super().__init__()
        self.We = nn.ParameterList([nn.Parameter(D.T.clone() / L) for _ in range(layers)])
        self.S = nn.ParameterList([nn.Parameter(torch.eye(N) - D.T @ D / L) for _ in range(layers)])
        self.theta = nn.Parameter(torch.full((layers,), lam / L.item()))

    def forward(self, y):
        z = F.softshrink(y @ self.We[0].T, 0.0)
        for k in range(len(self.S)):
            pre = z @ self.S[k].T + y @ self.We[k].T
            z = pre.sign() * F.relu(pre.abs() - self.theta[k])
        return z


model = LISTA(5)
with torch.no_grad():
    print(f"LISTA at init obj {objective(model(y_te), y_te).item():.5f} (ISTA 5: {objective(ista(y_te, 5), y_te).item():.5f})")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(30):
    perm = torch.randperm(512)
    for b in range(0, 512, 128):
        j = perm[b:b + 128]
        loss = F.mse_loss(model(y_tr[j]), z_tr[j])
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch % 10 == 9:
        with torch.no_grad():
            zl = model(y_te)
        print(f"epoch {epoch + 1} code mse {F.mse_loss(zl, z_te).item():.6f} obj {objective(zl, y_te).item():.5f} thresholds {[round(v, 4) for v in model.theta.tolist()]}")
with torch.no_grad():
    zl = model(y_te)
p, r = support_scores(zl, z_te)
print(f"LISTA P/R {p:.4f}/{r:.4f} ISTA-5 code mse {F.mse_loss(ista(y_te, 5), z_te).item():.6f}")

# debias on the recovered support of the first test signals
z100 = fista(y_te, 200)
for i in range(3):
    supp = (z100[i].abs() > 1e-3).nonzero().squeeze(1)
    A = D[:, supp]
    LU, piv = torch.linalg.lu_factor(A.T @ A)
    coef = torch.linalg.lu_solve(LU, piv, (A.T @ y_te[i]).unsqueeze(1)).squeeze(1)
    ls = torch.linalg.lstsq(A, y_te[i].unsqueeze(1)).solution.squeeze(1)
    print(f"signal {i} support {supp.tolist()} true {(z_te[i] != 0).nonzero().squeeze(1).tolist()} cond {torch.linalg.cond(A).item():.4f}")
    print(f"  lasso {[round(v, 4) for v in z100[i, supp].tolist()]} debiased {[round(v, 4) for v in coef.tolist()]} lstsq agrees {torch.allclose(coef, ls, atol=1e-4)}")
    print(f"  true  {[round(v, 4) for v in z_te[i, supp].tolist()]}")
P, Lf, U = torch.linalg.lu(A.T @ A)
print("P L U reconstructs", torch.allclose(P @ Lf @ U, A.T @ A, atol=1e-5), "pivots", piv.tolist())
