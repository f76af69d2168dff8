"""Sparse linear algebra with jax.experimental.sparse.linalg, in the style of scientific JAX
code: the top eigenpairs of a graph Laplacian by lobpcg_standard (a dense matrix, a BCOO
matrix applied through a callable, and a matrix-free stencil), against jnp.linalg.eigh;
spectral clustering of a two-community graph from the top eigenvectors of its normalized
adjacency; a 2-D Poisson problem assembled as BCSR and solved by spsolve from its CSR
buffers, against a dense solve; the sensitivity of the solution to the right-hand side and
to the stored matrix entries by jax.grad through spsolve, against finite differences."""

import numpy as np

import jax
import jax.numpy as jnp
from jax import random
from jax.experimental import sparse
from jax.experimental.sparse.linalg import lobpcg_standard, spsolve

jnp.set_printoptions(precision=4, suppress=True)
dtype = jnp.float64 if jax.config.jax_enable_x64 else jnp.float32


def sign_fixed(U):
    """Eigenvectors with their largest-magnitude entry positive (eigh's signs are arbitrary)."""
    idx = jnp.argmax(jnp.abs(U), axis=0)
    return U * jnp.sign(U[idx, jnp.arange(U.shape[1])])


def ring_laplacian_with_potential(n):
    """The Laplacian of a ring of n nodes plus a linear potential on the diagonal (distinct
    top eigenvalues)."""
    i = np.arange(n)
    rows = np.concatenate([i, i, i])
    cols = np.concatenate([i, (i + 1) % n, (i - 1) % n])
    vals = np.concatenate([2.0 + 3.0 * i / n, -np.ones(n), -np.ones(n)])
    return sparse.BCOO((jnp.asarray(vals, dtype), jnp.asarray(np.stack([rows, cols], 1))), shape=(n, n))


print("== top eigenpairs of a ring Laplacian with a potential ==")
n, k = 60, 3
L = ring_laplacian_with_potential(n)
X0 = random.normal(random.PRNGKey(0), (n, k), dtype)
theta, U, iters = lobpcg_standard(L.todense(), X0, m=400, tol=1e-7)
exact = jnp.linalg.eigvalsh(L.todense())[::-1][:k]
print("lobpcg (dense):", [float(t) for t in theta])
print("eigvalsh top 3:", [float(t) for t in exact])
print("converged early:", int(iters) < 400)
resid = jnp.linalg.norm(L @ U - U * theta, axis=0)
print("residuals small:", bool(jnp.all(resid < 1e-2)))
print("eigenvectors agree with eigh:", bool(jnp.allclose(
    sign_fixed(U), sign_fixed(jnp.linalg.eigh(L.todense())[1][:, ::-1][:, :k]), atol=1e-2)))
print("orthonormal:", bool(jnp.allclose(U.T @ U, jnp.eye(k), atol=1e-4)))
theta2, U2, _ = lobpcg_standard(lambda V: L @ V, X0, m=400, tol=1e-7)
print("callable BCOO matvec agrees:", bool(jnp.allclose(theta, theta2, rtol=1e-4)))

print("== a matrix-free operator (a 1-D Schrodinger stencil) ==")
m = 80
x = jnp.linspace(-4.0, 4.0, m, dtype=dtype)
h = x[1] - x[0]
potential = -x ** 2  # the top eigenvalues of -H, H = -d2/dx2 + x^2


def minus_hamiltonian(V):
    lap = (jnp.roll(V, 1, axis=0) - 2 * V + jnp.roll(V, -1, axis=0)).at[0].set(V[1] - 2 * V[0]).at[-1].set(
        V[-2] - 2 * V[-1])
    return lap / h ** 2 + potential[:, None] * V


dense_H = minus_hamiltonian(jnp.eye(m, dtype=dtype))
theta, U, _ = lobpcg_standard(minus_hamiltonian, random.normal(random.PRNGKey(1), (m, 2), dtype),
                              m=500)
w = jnp.linalg.eigvalsh(dense_H)[::-1][:2]
# |H| is ~400 here, so float32 eigenvalues near -3 carry errors of ~eps |H| = 5e-5
print("lobpcg:", [f"{float(t):.3f}" for t in theta], "eigvalsh:", [f"{float(t):.3f}" for t in w],
      "harmonic oscillator: [-1 -3]", "agree:", bool(jnp.allclose(theta, w, rtol=1e-4)))
print("ground state even:", bool(jnp.allclose(sign_fixed(U)[:, 0], sign_fixed(U)[::-1, 0], atol=1e-3)))

print("== spectral clustering of two communities ==")
key = random.PRNGKey(7)
size = 20
labels = jnp.repeat(jnp.arange(2), size)
probs = jnp.where(labels[:, None] == labels[None, :], 0.6, 0.05)
upper = random.bernoulli(key, probs) & (jnp.arange(2 * size)[:, None] < jnp.arange(2 * size)[None, :])
adj = (upper | upper.T).astype(dtype)
deg = adj.sum(1)
norm_adj = adj / jnp.sqrt(deg[:, None] * deg[None, :])
S = sparse.BCOO.fromdense(norm_adj)
print("nse:", S.nse, "of", 4 * size * size)
theta, U, _ = lobpcg_standard(lambda V: S @ V + V, random.normal(random.PRNGKey(2), (2 * size, 2), dtype),
                              m=300, tol=1e-5)
print("top eigenvalues of I + D^-1/2 A D^-1/2:", theta)
fiedler = U[:, 1] * jnp.sign(U[0, 1])
found = (fiedler < 0).astype(jnp.int32)
agree = jnp.maximum(jnp.mean(found == labels), jnp.mean(found != labels))
print("communities recovered:", float(agree))

print("== a 2-D Poisson problem by spsolve ==")
g = 12
N = g * g
idx = np.arange(N).reshape(g, g)
rows, cols, vals = [], [], []
for i in range(g):
    for j in range(g):
        rows.append(idx[i, j]); cols.append(idx[i, j]); vals.append(4.0)
        for di, dj in [(1, 0), (-1, 0), (0, 1), (0, -1)]:
            if 0 <= i + di < g and 0 <= j + dj < g:
                rows.append(idx[i, j]); cols.append(idx[i + di, j + dj]); vals.append(-1.0)
K = sparse.BCOO((jnp.asarray(vals, dtype), jnp.asarray(np.stack([rows, cols], 1))), shape=(N, N))
Kcsr = sparse.BCSR.from_bcoo(K.sort_indices())
print("CSR buffers:", Kcsr.data.shape, Kcsr.indices.shape, Kcsr.indptr.shape)
xx, yy = jnp.meshgrid(jnp.linspace(0, 1, g, dtype=dtype), jnp.linspace(0, 1, g, dtype=dtype))
f = (jnp.sin(jnp.pi * xx) * jnp.sin(jnp.pi * yy)).ravel() / (g + 1) ** 2
u = spsolve(Kcsr.data, Kcsr.indices, Kcsr.indptr, f)
u_dense = jnp.linalg.solve(K.todense(), f)
print("max |u|:", float(jnp.max(u)), "agrees with dense solve:", bool(jnp.allclose(u, u_dense, rtol=1e-4)))
print("residual small:", float(jnp.linalg.norm(K @ u - f) / jnp.linalg.norm(f)) < 1e-4)
print("jit:", bool(jnp.allclose(jax.jit(spsolve)(Kcsr.data, Kcsr.indices, Kcsr.indptr, f), u, rtol=1e-4)))

print("== sensitivities through spsolve ==")
probe = jnp.zeros(N, dtype).at[N // 2 + g // 2].set(1.0)


def centre_value(data, rhs):
    return jnp.dot(probe, spsolve(data, Kcsr.indices, Kcsr.indptr, rhs))


g_rhs = jax.grad(centre_value, argnums=1)(Kcsr.data, f)
row = jnp.linalg.solve(K.todense().T, probe)
print("d u_c / d f = row of K^-1:", bool(jnp.allclose(g_rhs, row, rtol=1e-3)))
print("green's function peak:", float(g_rhs.max()))
g_data = jax.grad(centre_value, argnums=0)(Kcsr.data, f)
eps = 1e-3 if dtype == jnp.float32 else 1e-6
j = int(jnp.argmax(jnp.abs(g_data)))
bump = jnp.zeros_like(Kcsr.data).at[j].set(eps)
fd = (centre_value(Kcsr.data + bump, f) - centre_value(Kcsr.data - bump, f)) / (2 * eps)
print("largest d u_c / d K_ij:", float(g_data[j]), "finite difference agrees:",
      abs(float(fd) - float(g_data[j])) < 1e-2 * abs(float(g_data[j])))
scaled = jax.grad(lambda s: centre_value(s * Kcsr.data, f))(1.0)
print("d u_c / d scale = -u_c:", float(scaled), float(-centre_value(Kcsr.data, f)))
