"""Rank-deficient least squares and column subset selection in JAX, as a numerical linear
algebra course writes them: jax.scipy.linalg.qr with pivoting=True (LAPACK's geqp3, in the
"full", "economic" and "r" modes), the numerical rank from |diag R|, a basic solution by
solve_triangular on the leading block, qr_multiply with pivoting, against jnp.linalg.lstsq
(minimum norm), jnp.linalg.pinv, matrix_rank and a truncated SVD; the upper Cholesky factor of
the Gram matrix by jax.scipy.linalg.cholesky (only the upper triangle read), and gradients of a
ridge fit through cho_factor/cho_solve."""

import jax
import jax.numpy as jnp
from jax.scipy.linalg import cho_factor, cho_solve, cholesky, qr, qr_multiply, solve_triangular

jnp.set_printoptions(precision=5, suppress=True)

key = jax.random.PRNGKey(3)
k1, k2, k3 = jax.random.split(key, 3)
B = jax.random.normal(k1, (12, 3))
C = jax.random.normal(k2, (3, 6))
ramp = jnp.array([[0.5] * 12]).T * jnp.arange(12.0)[:, None] / 12
A = jnp.concatenate([B @ C, ramp], axis=1)  # rank 4 of 7
b = jax.random.normal(k3, (12,))
print("A", A.shape, "matrix_rank", int(jnp.linalg.matrix_rank(A)))

Q, R, P = qr(A, pivoting=True)
# (the pivots past the rank order columns whose remaining norms are rounding noise)
print("full:", Q.shape, R.shape, "leading pivots", P[:4], P.dtype)
print("|diag R|", jnp.abs(jnp.diag(R)))
print("A[:, P] == Q R:", bool(jnp.allclose(A[:, P], Q @ R, atol=1e-4)))
diag = jnp.abs(jnp.diag(R))
rank = int(jnp.sum(diag > diag[0] * 1e-5))
print("numerical rank", rank)
Qe, Re, Pe = qr(A, mode="economic", pivoting=True)
Rr, Pr = qr(A, mode="r", pivoting=True)
print("economic", Qe.shape, Re.shape, "r mode", Rr.shape, bool(jnp.all(Pe == P) & jnp.all(Pr == P)))
print("diag R non-increasing:", bool(jnp.all(diag[:-1] >= diag[1:] - 1e-5)))

# basic solution: x[P[:r]] = R11^-1 (Q^T b)[:r]
qtb = Q.T @ b
x_basic = jnp.zeros(A.shape[1]).at[P[:rank]].set(solve_triangular(R[:rank, :rank], qtb[:rank]))
x_min, res, rk, sv = jnp.linalg.lstsq(A, b, rcond=1e-5)
print("lstsq rank", int(rk), "singular values", sv)
print("same residual:", bool(jnp.allclose(A @ x_basic, A @ x_min, atol=1e-4)),
      "residual", round(float(jnp.linalg.norm(A @ x_min - b)), 4))
print("basic nonzeros", int(jnp.sum(jnp.abs(x_basic) > 0)), "norms basic/min",
      round(float(jnp.linalg.norm(x_basic)), 4), round(float(jnp.linalg.norm(x_min)), 4))
print("pinv agrees:", bool(jnp.allclose(jnp.linalg.pinv(A, rtol=1e-5) @ b, x_min, atol=1e-4)))
U, s, Vt = jnp.linalg.svd(A, full_matrices=False)
x_svd = Vt[:rank].T @ ((U[:, :rank].T @ b) / s[:rank])
print("truncated svd agrees:", bool(jnp.allclose(x_svd, x_min, atol=1e-4)))

# qr_multiply with pivoting: Q^T b as a row times Q
qtb_row, R2, P2 = qr_multiply(A, b, mode="right", pivoting=True)
print("qr_multiply:", qtb_row.shape, bool(jnp.allclose(qtb_row, qtb[:7], atol=1e-4)), bool(jnp.all(P2 == P)))

# column subset selection: the first `rank` pivots span the column space
S = A[:, P[:rank]]
proj = S @ jnp.linalg.lstsq(S, A)[0]
print("selected columns", jnp.sort(P[:rank]), "reconstruction error", float(jnp.linalg.norm(proj - A)) < 1e-3)

# Cholesky of the Gram matrix: the upper factor reads the upper triangle only
G = A[:, P[:rank]].T @ A[:, P[:rank]]
Gu = jnp.triu(G) + jnp.tril(jnp.full_like(G, 7.0), -1)  # garbage below the diagonal
Rg = cholesky(Gu)
Lg = cholesky(jnp.tril(G) + jnp.triu(jnp.full_like(G, 7.0), 1), lower=True)
print("upper factor reads upper:", bool(jnp.allclose(Rg.T @ Rg, G, rtol=1e-4)))
print("lower factor reads lower:", bool(jnp.allclose(Lg @ Lg.T, G, rtol=1e-4)))
print("R of qr vs cholesky:",
      bool(jnp.allclose(jnp.abs(Re[:rank, :rank]), jnp.abs(Rg), rtol=1e-3, atol=1e-3)))


# a ridge fit on the selected columns, differentiated wrt the penalty
def ridge(lam):
    c = cho_factor(G + lam * jnp.eye(rank))
    w = cho_solve(c, S.T @ b)
    return jnp.sum((S @ w - b) ** 2), w


(loss, w), dloss = jax.value_and_grad(ridge, has_aux=True)(0.1)
print("ridge loss", round(float(loss), 5), "d loss / d lambda", round(float(dloss), 5))
# d loss / d lambda = 2 (S w - b)^T S dw with dw = -(G + lambda I)^-1 w
dw = -cho_solve(cho_factor(G + 0.1 * jnp.eye(rank)), w)
print("vs the closed form:", bool(jnp.allclose(dloss, 2 * (S @ w - b) @ (S @ dw), rtol=1e-3, atol=1e-5)))
print("weights", w)
