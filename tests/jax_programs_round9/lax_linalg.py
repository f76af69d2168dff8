"""jax.lax.linalg: qr, eigh, svd, cholesky, triangular_solve, lu and tridiagonal_solve,
checked through sign-free quantities (reconstructions, orthogonality, singular values), with
gradients of the decompositions, batching, and jnp.linalg built on them."""

import jax
import jax.numpy as jnp
from jax import lax

A = jnp.array([[4.0, 1.0, -2.0], [1.0, 3.0, 0.5], [-2.0, 0.5, 5.0]])
B = jnp.array([[1.0, 2.0], [3.0, -1.0], [0.5, 0.25]])

q, r = lax.linalg.qr(B, full_matrices=False)
print(q.shape, r.shape, jnp.round(q @ r - B, 5), jnp.round(q.T @ q, 5))
print(jnp.abs(jnp.diag(r)), jnp.round(jnp.abs(r), 5))
qf, rf = lax.linalg.qr(B)
print(qf.shape, rf.shape, jnp.round(qf @ rf - B, 5))

v, w = lax.linalg.eigh(A)
print(w, jnp.round(v @ jnp.diag(w) @ v.T - A, 4), jnp.round(jnp.abs(v.T @ v), 5))
v_lo, w_lo = lax.linalg.eigh(jnp.tril(A), lower=True)
print(w_lo)
print(jax.vmap(lambda m: lax.linalg.eigh(m)[1])(jnp.stack([A, 2 * A + jnp.eye(3)])))

u, s, vt = lax.linalg.svd(B, full_matrices=False)
print(s, jnp.round(u @ jnp.diag(s) @ vt - B, 5))
print(lax.linalg.svd(B, compute_uv=False), jnp.linalg.svd(B, compute_uv=False))

L = lax.linalg.cholesky(A)
print(L, jnp.round(L @ L.T - A, 5))
print(lax.linalg.cholesky(jnp.stack([A, A + jnp.eye(3)]))[1])
b = jnp.array([[1.0], [2.0], [3.0]])
print(lax.linalg.triangular_solve(L, b, left_side=True, lower=True))
print(lax.linalg.triangular_solve(L, b, left_side=True, lower=True, transpose_a=True))
print(lax.linalg.triangular_solve(L, b.T, left_side=False, lower=True))
print(lax.linalg.triangular_solve(L, b, left_side=True, lower=True, unit_diagonal=True))

lu, pivots, perm = lax.linalg.lu(A)
print(pivots, perm)
P = jnp.eye(3)[perm]
l_mat = jnp.tril(lu, -1) + jnp.eye(3)
print(jnp.round(l_mat @ jnp.triu(lu) - P @ A, 5))

dl = jnp.array([0.0, 1.0, 1.0])
d = jnp.array([4.0, 4.0, 4.0])
du = jnp.array([1.0, 1.0, 0.0])
rhs = jnp.array([[1.0], [2.0], [3.0]])
print(lax.linalg.tridiagonal_solve(dl, d, du, rhs))

# gradients through decompositions
print(jnp.round(jax.grad(lambda m: lax.linalg.eigh(m)[1].sum())(A), 5))
print(jnp.round(jax.grad(lambda m: lax.linalg.svd(m, compute_uv=False).sum())(B), 5))
print(jnp.round(jax.grad(lambda m: jnp.sum(lax.linalg.cholesky(m) ** 2))(A), 5))
print(jnp.round(jax.grad(lambda m: jnp.abs(jnp.diag(lax.linalg.qr(m, full_matrices=False)[1])).sum())(B), 5))
print(jax.grad(lambda bb: lax.linalg.triangular_solve(L, bb, left_side=True, lower=True).sum())(b))
print(jnp.round(jax.jacfwd(lambda m: lax.linalg.eigh(m)[1])(A)[0, 0], 5))

# jnp.linalg on top
print(jnp.linalg.eigvalsh(A), jnp.linalg.cholesky(A)[2], jnp.linalg.slogdet(A))
print(jnp.linalg.matrix_rank(B), jnp.linalg.cond(A), jnp.linalg.norm(A, ord=2), jnp.linalg.norm(A, "nuc"))
print(jnp.round(jnp.linalg.pinv(B) @ B, 5), jnp.linalg.lstsq(B, jnp.array([1.0, 0.0, 2.0]))[0])
print(jnp.linalg.matrix_power(A, 3)[0], jnp.linalg.multi_dot([A, A, B]))
print(jnp.linalg.tensorsolve(jnp.eye(4).reshape(2, 2, 2, 2) * 2, jnp.ones((2, 2))))
