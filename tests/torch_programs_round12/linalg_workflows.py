"""Linear-algebra workflows from scientific scripts: least squares three ways (linalg.lstsq,
the normal equations with cholesky_solve, pinv), eig/eigvals of a non-symmetric matrix (complex
results, sorted by real part), eigh of a covariance, matrix_exp of a rotation generator and its
gradient, solve/solve_triangular, slogdet, qr, svd low-rank reconstruction, matrix_rank, norms
and cond, and Newton's method with torch.linalg.solve on a 2-D system."""
# ruff: noqa: B007, E501  (written as the published program is)

import torch

torch.manual_seed(0)
torch.set_printoptions(precision=4)
A = torch.randn(20, 3, dtype=torch.float64)
x_true = torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64)
b = A @ x_true + 0.01 * torch.randn(20, dtype=torch.float64)
sol = torch.linalg.lstsq(A, b.unsqueeze(1))
print(sol.solution.squeeze(), sol.rank, sol.residuals)
L = torch.linalg.cholesky(A.T @ A)
print(torch.cholesky_solve((A.T @ b).unsqueeze(1), L).squeeze())
print(torch.linalg.pinv(A) @ b)

M = torch.tensor([[2.0, 1.0, 0.0], [-1.0, 2.0, 0.5], [0.0, 0.3, 1.0]])
vals, vecs = torch.linalg.eig(M)
order = torch.argsort(vals.real)
print(vals[order])
print((M.to(vals.dtype) @ vecs - vecs * vals).abs().max() < 1e-5)
print(torch.linalg.eigvals(M).abs().sort().values)

C = torch.cov(torch.randn(3, 50))
w, V = torch.linalg.eigh(C)
print(w)
print(torch.dist(V @ torch.diag(w) @ V.T, C) < 1e-5)

theta = torch.tensor(0.3, requires_grad=True)
G = torch.stack([torch.stack([torch.zeros(()), -theta]), torch.stack([theta, torch.zeros(())])])
R = torch.linalg.matrix_exp(G)
print(R)
R[1, 0].backward()
print("d sin/d theta", theta.grad, torch.cos(torch.tensor(0.3)))
S = torch.randn(3, 3, requires_grad=True)
torch.linalg.matrix_exp(S).sum().backward()
print(S.grad)

T = torch.triu(torch.randn(4, 4)) + 4 * torch.eye(4)
rhs = torch.randn(4, 2)
print(torch.linalg.solve_triangular(T, rhs, upper=True))
print(torch.linalg.solve(T, rhs))
sign, logdet = torch.linalg.slogdet(T)
print(sign, logdet, torch.logdet(T))
Q, Rq = torch.linalg.qr(torch.randn(5, 3))
print(Q.shape, Rq.shape, torch.allclose(Q.T @ Q, torch.eye(3), atol=1e-5))
print(Rq.diag().abs())

B = torch.randn(8, 2) @ torch.randn(2, 6)
U, Sv, Vh = torch.linalg.svd(B, full_matrices=False)
print(Sv[:2])
print(torch.linalg.matrix_rank(B), torch.dist(U[:, :2] * Sv[:2] @ Vh[:2], B) < 1e-4)
print(torch.linalg.norm(B), torch.linalg.matrix_norm(B, ord=2), torch.linalg.matrix_norm(B, ord="nuc"))
print(torch.linalg.vector_norm(B, ord=3, dim=1))
print(torch.linalg.cond(T), torch.linalg.cond(T, "fro"))


def F(v):
    x, y = v
    return torch.stack([x ** 2 + y ** 2 - 4, torch.exp(x) + y - 1])


v = torch.tensor([1.0, -1.0], dtype=torch.float64)
for it in range(6):
    J = torch.autograd.functional.jacobian(F, v)
    v = v - torch.linalg.solve(J, F(v))
    print(it, v, F(v).norm().item())
print(torch.linalg.multi_dot([torch.ones(2, 3), torch.ones(3, 4), torch.ones(4, 1)]).T)
print(torch.linalg.householder_product(*torch.geqrf(torch.eye(3) + 0.1)).diag())
