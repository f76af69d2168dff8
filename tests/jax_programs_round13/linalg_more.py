"""jax.numpy.linalg beyond the basics (as in numerical-methods notebooks): norms with every
ord (vectors and matrices, axis tuples, keepdims), vector_norm/matrix_norm, cond, multi_dot,
matrix_power (negative too), tensorsolve/tensorinv, slogdet and its gradient, inv and pinv
gradients, eigvals of a nonsymmetric matrix, eigvalsh, svdvals, matrix_rank with rtol,
cholesky upper, qr modes, solve with batched right-hand sides, outer/vecdot/matrix_transpose,
and jax.scipy.linalg polar/sqrtm/expm_frechet/lu."""

import jax
import jax.numpy as jnp
import jax.scipy.linalg as sla

A = jnp.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
B = jnp.array([[1.0, 2.0, 0.0], [0.0, 1.0, 3.0], [1.0, 0.0, 1.0]])
v = jnp.array([3.0, -4.0, 12.0])
for ord in [None, 1, 2, jnp.inf, -jnp.inf, 0, 3]:
    print("vec", ord, jnp.linalg.norm(v, ord))
for ord in [None, "fro", "nuc", 1, -1, 2, -2, jnp.inf, -jnp.inf]:
    print("mat", ord, jnp.round(jnp.linalg.norm(B, ord), 4))
T = jnp.arange(24.0).reshape(2, 3, 4)
print(jnp.linalg.norm(T, axis=(1, 2)), jnp.linalg.norm(T, axis=-1, keepdims=True).shape)
print(jnp.linalg.vector_norm(T, axis=(0, 2), ord=1), jnp.round(jnp.linalg.matrix_norm(T, ord="nuc"), 3))
print(jnp.round(jnp.linalg.cond(A), 4), jnp.round(jnp.linalg.cond(B, 1), 4))
print(jnp.linalg.multi_dot([A, B, v]), jnp.linalg.matrix_power(B, 3)[0],
      jnp.round(jnp.linalg.matrix_power(A, -2)[0], 5))
Tm = jnp.eye(6).reshape(2, 3, 6) * 2.0
print(jnp.linalg.tensorinv(Tm, ind=2).shape, jnp.round(jnp.linalg.tensorsolve(Tm, jnp.ones((2, 3))), 3))
sign, logdet = jnp.linalg.slogdet(B)
print(sign, jnp.round(logdet, 5), jnp.linalg.det(B))
print(jnp.round(jax.grad(lambda M: jnp.linalg.slogdet(M)[1])(B), 4))
print(jnp.allclose(jax.grad(lambda M: jnp.linalg.slogdet(M)[1])(B), jnp.linalg.inv(B).T, atol=1e-5))
print(jnp.round(jax.grad(lambda M: jnp.linalg.inv(M)[0, 1])(A), 4))
R = jnp.array([[1.0, 2.0], [2.0, 4.0], [0.0, 1.0]])
print(jnp.round(jax.grad(lambda M: jnp.linalg.pinv(M).sum())(R), 4))
ev = jnp.linalg.eigvals(jnp.array([[0.0, -1.0], [1.0, 0.0]]))
print(ev.dtype, jnp.sort_complex(ev), jnp.round(jnp.linalg.eigvalsh(A), 4))
print(jnp.round(jnp.linalg.svdvals(B), 4), jnp.linalg.matrix_rank(R),
      jnp.linalg.matrix_rank(jnp.diag(jnp.array([1.0, 1e-3, 0.0])), rtol=1e-2))
U = jnp.linalg.cholesky(A, upper=True)
print(jnp.allclose(U.T @ U, A, atol=1e-5), jnp.round(U[0], 4))
q, r = jnp.linalg.qr(R, mode="reduced")
print(q.shape, r.shape, jnp.linalg.qr(R, mode="complete")[0].shape, jnp.linalg.qr(R, mode="r").shape)
rhs = jnp.stack([jnp.ones(3), v])
print(jnp.round(jnp.linalg.solve(A, rhs.T).T, 4),
      jnp.round(jnp.linalg.solve(jnp.stack([A, 2 * A]), v[None, :, None])[1, :, 0], 4))
print(jnp.linalg.outer(v, jnp.ones(2)).shape, jnp.linalg.vecdot(B, v), jnp.linalg.matrix_transpose(T).shape)
print(jnp.linalg.trace(T, offset=1), jnp.linalg.diagonal(T, offset=-1), jnp.linalg.cross(v, jnp.ones(3)))
u, p = sla.polar(B)
print(jnp.allclose(u @ p, B, atol=1e-5), jnp.allclose(u.T @ u, jnp.eye(3), atol=1e-5),
      jnp.round(jnp.linalg.eigvalsh(p), 4))
S = sla.sqrtm(A)
print(S.dtype, jnp.allclose(S @ S, A, atol=1e-4))
E, dE = sla.expm_frechet(0.1 * A, B)
print(jnp.allclose(E, sla.expm(0.1 * A), atol=1e-5), jnp.round(dE[0], 4))
P, L, Uu = sla.lu(B)
print(P, jnp.round(L, 4), jnp.allclose(P @ L @ Uu, B, atol=1e-6))
