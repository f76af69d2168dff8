"""Least-squares fitting with jax.numpy.linalg as scientific JAX code uses it: a polynomial
design matrix by vander, solutions by lstsq (residuals, rank, singular values), the normal
equations with cholesky and cho_solve, QR, SVD with a truncation, pinv with rcond, ridge
regression via eigh, weighted least squares, the log-determinant for the evidence with
slogdet, leave-one-out residuals from the hat matrix, gradients of the fit through the solve,
and a rank-deficient case."""

import jax
import jax.numpy as jnp
from jax import random
from jax.scipy.linalg import cho_factor, cho_solve, solve_triangular

key = random.PRNGKey(0)
kx, kn = random.split(key)
x = jnp.sort(random.uniform(kx, (30,), minval=-1.0, maxval=1.0))
y = 1.0 - 2.0 * x + 0.5 * x ** 3 + 0.05 * random.normal(kn, x.shape)
A = jnp.vander(x, 4, increasing=True)
print("design", A.shape, A[0])

coef, res, rank, sv = jnp.linalg.lstsq(A, y)
print("lstsq coef", coef)
print("residual", res, "rank", rank, "sv", sv)
c, low = cho_factor(A.T @ A)
coef_ne = cho_solve((c, low), A.T @ y)
print("normal equations", coef_ne, "low", low)
Q, R = jnp.linalg.qr(A)
coef_qr = solve_triangular(R, Q.T @ y, lower=False)
print("qr", coef_qr, Q.shape, R.shape)
U, s, Vt = jnp.linalg.svd(A, full_matrices=False)
coef_svd = Vt.T @ ((U.T @ y) / s)
print("svd", coef_svd, "cond", s[0] / s[-1])
print("pinv", jnp.linalg.pinv(A) @ y)
print("agree", jnp.allclose(coef, coef_ne, atol=1e-4), jnp.allclose(coef_qr, coef_svd, atol=1e-4))

w, V = jnp.linalg.eigh(A.T @ A)
for lam in [0.0, 0.1, 1.0]:
    ridge = V @ ((V.T @ (A.T @ y)) / (w + lam))
    print("ridge", lam, ridge)

weights = 1.0 / (0.05 + jnp.abs(x))
Wsqrt = jnp.sqrt(weights)[:, None]
coef_w = jnp.linalg.lstsq(A * Wsqrt, y * Wsqrt[:, 0])[0]
print("weighted", coef_w)

H = A @ jnp.linalg.solve(A.T @ A, A.T)
resid = y - H @ y
loo = resid / (1 - jnp.diag(H))
print("hat trace", jnp.trace(H), "loo rmse", jnp.sqrt(jnp.mean(loo ** 2)))


def log_evidence(log_alpha, log_beta):
    alpha, beta = jnp.exp(log_alpha), jnp.exp(log_beta)
    S = alpha * jnp.eye(4) + beta * A.T @ A
    m = beta * jnp.linalg.solve(S, A.T @ y)
    sign, logdet = jnp.linalg.slogdet(S)
    e = beta / 2 * jnp.sum((y - A @ m) ** 2) + alpha / 2 * m @ m
    return 2 * log_alpha + 15 * log_beta - e - logdet / 2 - 15 * jnp.log(2 * jnp.pi), sign


ev, sign = log_evidence(0.0, 5.0)
print("evidence", ev, "sign", sign)
g = jax.grad(lambda a, b: log_evidence(a, b)[0], argnums=(0, 1))(0.0, 5.0)
print("d evidence", g)
la, lb = 0.0, 5.0
for _ in range(30):
    ga, gb = jax.grad(lambda a, b: log_evidence(a, b)[0], argnums=(0, 1))(la, lb)
    la, lb = la + 0.05 * ga, lb + 0.005 * gb
print("optimized", jnp.array([la, lb]), log_evidence(la, lb)[0])

dcoef = jax.jacobian(lambda yy: jnp.linalg.lstsq(A, yy)[0])(y)
print("d coef / dy", dcoef.shape, jnp.allclose(dcoef, jnp.linalg.pinv(A), atol=1e-4))
gs = jax.grad(lambda A: jnp.sum(jnp.linalg.svd(A, compute_uv=False)))(A)
print("d sum(sv) / dA", gs[0])

B = jnp.concatenate([A, A[:, 1:2] * 2.0], axis=1)
cb, rb, rankb, svb = jnp.linalg.lstsq(B, y)
print("rank deficient", rankb, rb, svb[-1] < 1e-4)
print("pinv rtol", jnp.linalg.pinv(B, rtol=1e-3) @ y)
print("matrix_rank", jnp.linalg.matrix_rank(B), jnp.linalg.matrix_rank(A))
