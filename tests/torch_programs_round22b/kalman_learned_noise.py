"""A differentiable Kalman filter and Rauch-Tung-Striebel smoother for a constant-velocity
tracker, its process and measurement noise learned by maximising the innovations'
log-likelihood (MultivariateNormal.log_prob of each innovation with covariance S) with Adam
through the whole filter, noise scales kept positive by softplus of raw parameters and Q built
by a Kronecker product, the gain by torch.linalg.solve instead of an inverse, the Joseph-form
covariance update, cholesky_ex to check positive definiteness, innovations whitened by
solve_triangular, NIS consistency, smoother vs filter RMSE, and torch.func.jacrev of the
filtered mean with respect to the measurements (float64)."""
# ruff: noqa: E501

import torch
import torch.nn.functional as F
from torch import nn
from torch.distributions import MultivariateNormal

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
dt = 0.1
A1 = torch.tensor([[1.0, dt], [0.0, 1.0]])
A = torch.block_diag(A1, A1)  # state (x, vx, y, vy)
H = torch.tensor([[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0]])
Q1 = torch.tensor([[dt ** 3 / 3, dt ** 2 / 2], [dt ** 2 / 2, dt]])


def simulate(T, q, r, gen):
    x = torch.tensor([0.0, 1.0, 0.0, 0.5])
    Q = torch.kron(torch.eye(2), Q1) * q
    Lq = torch.linalg.cholesky(Q)
    xs, zs = [], []
    for _ in range(T):
        x = A @ x + Lq @ torch.randn(4, generator=gen)
        xs.append(x)
        zs.append(H @ x + r ** 0.5 * torch.randn(2, generator=gen))
    return torch.stack(xs), torch.stack(zs)


class KalmanFilter(nn.Module):
    def __init__(self):
        super().__init__()
        self.raw_q = nn.Parameter(torch.tensor(0.0))
        self.raw_r = nn.Parameter(torch.tensor(0.0))

    def noise(self):
        q, r = F.softplus(self.raw_q), F.softplus(self.raw_r)
        return torch.kron(torch.eye(2), Q1) * q, torch.eye(2) * r

    def forward(self, zs):
        Q, R = self.noise()
        m, P = torch.zeros(4), torch.eye(4) * 10.0
        I = torch.eye(4)
        means, covs, preds, loglik, nis = [], [], [], 0.0, []
        for z in zs:
            m_pred, P_pred = A @ m, A @ P @ A.T + Q
            preds.append((m_pred, P_pred))
            S = H @ P_pred @ H.T + R
            v = z - H @ m_pred
            loglik = loglik + MultivariateNormal(torch.zeros(2), covariance_matrix=S).log_prob(v)
            K = torch.linalg.solve(S, H @ P_pred).T
            m = m_pred + K @ v
            IKH = I - K @ H
            P = IKH @ P_pred @ IKH.T + K @ R @ K.T  # Joseph form
            L = torch.linalg.cholesky(S)
            w = torch.linalg.solve_triangular(L, v.unsqueeze(1), upper=False).squeeze(1)
            nis.append(w.dot(w))
            means.append(m)
            covs.append(P)
        return torch.stack(means), torch.stack(covs), preds, loglik, torch.stack(nis)


def rts(means, covs, preds):
    ms, Ps = [means[-1]], [covs[-1]]
    for t in range(len(means) - 2, -1, -1):
        m_pred, P_pred = preds[t + 1]
        G = torch.linalg.solve(P_pred, A @ covs[t]).T
        ms.insert(0, means[t] + G @ (ms[0] - m_pred))
        Ps.insert(0, covs[t] + G @ (Ps[0] - P_pred) @ G.T)
    return torch.stack(ms), torch.stack(Ps)


gen = torch.Generator().manual_seed(0)
xs, zs = simulate(60, q=0.5, r=0.04, gen=gen)
print("first measurements", [[round(v, 4) for v in z] for z in zs[:3].tolist()])
kf = KalmanFilter()
opt = torch.optim.Adam(kf.parameters(), lr=0.1)
for it in range(80):
    _, _, _, loglik, _ = kf(zs)
    loss = -loglik / len(zs)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 20 == 0 or it == 79:
        print(f"it {it:2d} nll {loss.item():.6f} q {F.softplus(kf.raw_q).item():.5f} r {F.softplus(kf.raw_r).item():.5f} grad_q {kf.raw_q.grad.item():.6f}")

with torch.no_grad():
    means, covs, preds, loglik, nis = kf(zs)
    sm, sP = rts(means, covs, preds)
pos = [0, 2]
rmse = lambda est: (est[:, pos] - xs[:, pos]).pow(2).sum(1).mean().sqrt().item()
print(f"rmse measurements {(zs - xs[:, pos]).pow(2).sum(1).mean().sqrt().item():.5f} filter {rmse(means):.5f} smoother {rmse(sm):.5f}")
print(f"NIS mean {nis.mean().item():.4f} (2 expected) within chi2 95% {(nis < 5.991).double().mean().item():.4f}")
info = torch.linalg.cholesky_ex(covs[-1]).info.item()
print(f"final P positive definite {info == 0} trace {covs[-1].trace().item():.6f} smoothed trace {sP[0].trace().item():.6f}")
print("final state", [round(v, 4) for v in means[-1].tolist()], "true", [round(v, 4) for v in xs[-1].tolist()])
bad = torch.linalg.cholesky_ex(torch.tensor([[1.0, 2.0], [2.0, 1.0]]))
print("indefinite cholesky_ex info", bad.info.item())


def last_mean(z):
    return kf(z)[0][-1]


with torch.no_grad():
    J = torch.func.jacrev(last_mean)(zs[-5:])
print("jacobian shape", tuple(J.shape), "d x_T / d z_T", [[round(v, 5) for v in row] for row in J[:, -1, :].tolist()])
print("earlier measurements matter less", J[0, -1, 0].abs().item() > J[0, -3, 0].abs().item())
