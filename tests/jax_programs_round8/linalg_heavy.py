"""jax.numpy.linalg-heavy code: least squares, Cholesky and triangular solves, eigh/svd/qr,
determinants, and gradients through decompositions."""

import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl

key = jax.random.PRNGKey(7)
k1, k2 = jax.random.split(key)
A = jax.random.normal(k1, (5, 5))
spd = A @ A.T + 5 * jnp.eye(5)
b = jax.random.normal(k2, (5,))

L = jnp.linalg.cholesky(spd)
z = jsl.solve_triangular(L, b, lower=True)
x = jsl.solve_triangular(L.T, z, lower=False)
print("cholesky solve", x)
print("residual small", bool(jnp.allclose(spd @ x, b, atol=1e-4)))
print("solve", jnp.linalg.solve(spd, b))
print("det", jnp.linalg.det(spd), "slogdet", jnp.linalg.slogdet(spd))
print("inv diag", jnp.diag(jnp.linalg.inv(spd)))

w, V = jnp.linalg.eigh(spd)
print("eigh", w)
print("eigvecs orthonormal", bool(jnp.allclose(V.T @ V, jnp.eye(5), atol=1e-5)))
print("eigvalsh", jnp.linalg.eigvalsh(spd))
print("reconstruct", bool(jnp.allclose((V * w) @ V.T, spd, atol=1e-4)))

M = A[:, :3]
U, s, Vt = jnp.linalg.svd(M, full_matrices=False)
print("svd", U.shape, s, Vt.shape)
print("svd values only", jnp.linalg.svd(M, compute_uv=False))
print("rank", jnp.linalg.matrix_rank(M), "cond", jnp.linalg.cond(M))
print("pinv@M ~ I", bool(jnp.allclose(jnp.linalg.pinv(M) @ M, jnp.eye(3), atol=1e-4)))
Q, R = jnp.linalg.qr(M)
print("qr", Q.shape, R.shape, jnp.abs(jnp.diag(R)))
sol, res, rank, sv = jnp.linalg.lstsq(M, b)
print("lstsq", sol, res, rank)
print("norms", jnp.linalg.norm(A), jnp.linalg.norm(A, 2), jnp.linalg.norm(A, "nuc"),
      jnp.linalg.norm(b, 1), jnp.linalg.norm(A, axis=0))
print("matrix_power", jnp.linalg.matrix_power(jnp.array([[1.0, 1.0], [0.0, 1.0]]), 5))
print("expm", jsl.expm(jnp.array([[0.0, 1.0], [-1.0, 0.0]])))
print("trace", jnp.trace(spd), "outer", jnp.outer(b[:2], b[:2]))
print("einsum", jnp.einsum("ij,jk->ik", A[:2], A[:, :2]), jnp.einsum("ii->", spd))
lu, piv = jsl.lu_factor(spd)
print("lu_solve", jsl.lu_solve((lu, piv), b))
P, Lm, Um = jsl.lu(A)
print("lu", bool(jnp.allclose(P @ Lm @ Um, A, atol=1e-5)))


# gradients through decompositions
def logdet_chol(a):
    return 2 * jnp.sum(jnp.log(jnp.diag(jnp.linalg.cholesky(a))))


print("grad logdet", jnp.diag(jax.grad(logdet_chol)(spd)))
print("inv diag again", jnp.diag(jnp.linalg.inv(spd)))
print("grad top eigenvalue", jnp.diag(jax.grad(lambda a: jnp.linalg.eigh(a)[0][-1])(spd)))
print("grad nuclear", jax.grad(lambda m: jnp.sum(jnp.linalg.svd(m, compute_uv=False)))(M)[0])
print("grad solve", jax.grad(lambda bb: jnp.sum(jnp.linalg.solve(spd, bb)))(b))
print("grad det", jax.grad(jnp.linalg.det)(jnp.array([[2.0, 1.0], [1.0, 3.0]])))
print("jvp qr", jax.jvp(lambda m: jnp.linalg.qr(m)[1], (M,), (jnp.ones_like(M),))[1][0])
print("batched solve", jnp.linalg.solve(jnp.stack([spd, 2 * spd]), jnp.stack([b, b])[..., None])[..., 0])
print("vmap det", jax.vmap(jnp.linalg.det)(jnp.stack([spd, spd.T + jnp.eye(5)])))
