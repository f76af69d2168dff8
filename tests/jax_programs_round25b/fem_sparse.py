"""Finite elements with sparse matrices as JAX-FEM-style code writes them: 1-D P1 and P2
element matrices by vmap, global assembly as BCOO triplets with duplicates summed
(sum_duplicates, nse), Dirichlet rows by masking, cg from jax.scipy.sparse.linalg on the
sparse matvec, L2 errors with observed convergence orders for both element orders, the
gradient of the compliance with respect to the element coefficients through cg against the
adjoint formula, a BCSR copy of the stiffness, a 2-D P1 Laplacian on a structured
triangulation, its lowest eigenvalues by a shifted subspace iteration (qr, Rayleigh-Ritz by
eigh, fori_loop) against a dense eigh and pi^2 (m^2 + n^2), and sparse.sparsify of a
dense-written function."""

import jax
import jax.numpy as jnp
from jax.experimental import sparse
from jax.scipy.sparse.linalg import cg

jnp.set_printoptions(precision=5, suppress=True)


def p1_element(x0, x1, a):
    h = x1 - x0
    K = a / h * jnp.array([[1.0, -1.0], [-1.0, 1.0]])
    M = h / 6 * jnp.array([[2.0, 1.0], [1.0, 2.0]])
    return K, M


def p2_element(x0, x1, a):
    h = x1 - x0
    K = a / (3 * h) * jnp.array([[7.0, 1.0, -8.0], [1.0, 7.0, -8.0], [-8.0, -8.0, 16.0]])
    M = h / 30 * jnp.array([[4.0, -1.0, 2.0], [-1.0, 4.0, 2.0], [2.0, 2.0, 16.0]])
    return K, M


def assemble(n_el, order, a_el):
    x = jnp.linspace(0.0, 1.0, n_el + 1)
    if order == 1:
        Ke, Me = jax.vmap(p1_element)(x[:-1], x[1:], a_el)
        conn = jnp.stack([jnp.arange(n_el), jnp.arange(1, n_el + 1)], axis=1)
        n_dof = n_el + 1
    else:
        Ke, Me = jax.vmap(p2_element)(x[:-1], x[1:], a_el)
        mids = n_el + 1 + jnp.arange(n_el)  # midpoint nodes numbered after the vertices
        conn = jnp.stack([jnp.arange(n_el), jnp.arange(1, n_el + 1), mids], axis=1)
        n_dof = 2 * n_el + 1
    k = conn.shape[1]
    rows = jnp.repeat(conn, k, axis=1).ravel()
    cols = jnp.tile(conn, (1, k)).ravel()
    idx = jnp.stack([rows, cols], axis=1)
    K = sparse.BCOO((Ke.ravel(), idx), shape=(n_dof, n_dof))
    M = sparse.BCOO((Me.ravel(), idx), shape=(n_dof, n_dof))
    coords = x if order == 1 else jnp.concatenate([x, 0.5 * (x[:-1] + x[1:])])
    return K, M, conn, coords


# -u'' = pi^2 sin(pi x), u(0) = u(1) = 0: u = sin(pi x)
def solve(n_el, order, a_el=None):
    a_el = jnp.ones(n_el) if a_el is None else a_el
    K, M, conn, xc = assemble(n_el, order, a_el)
    f = M @ (jnp.pi ** 2 * jnp.sin(jnp.pi * xc))
    free = ((xc > 0) & (xc < 1)).astype(f.dtype)

    def matvec(u):
        return free * (K @ (free * u)) + (1 - free) * u
    u, _ = cg(matvec, free * f, tol=1e-10, maxiter=400)
    return u, K, M, xc, f


K1, M1, _, _ = assemble(4, 1, jnp.ones(4))
print("P1 triplets", K1.nse, "after sum_duplicates", K1.sum_duplicates().nse)
print("P1 stiffness (4 elements)\n", K1.todense())
print("row sums zero:", bool(jnp.allclose(K1.todense().sum(1), 0.0, atol=1e-5)),
      "mass total", M1.todense().sum())

for order, meshes in ((1, (4, 8, 16)), (2, (2, 4))):  # P2 at 8 elements is at float32 round-off
    errs = []
    for n_el in meshes:
        u, K, M, xc, f = solve(n_el, order)
        e = u - jnp.sin(jnp.pi * xc)
        errs.append(jnp.sqrt(e @ (M @ e)))
    errs = jnp.stack(errs)
    print(f"P{order} nodal L2 errors", errs, "orders", jnp.round(jnp.log2(errs[:-1] / errs[1:]), 2))

u8, K8, M8, x8, f8 = solve(8, 2)
print("P2 solution at x = 0.5:", u8[4], "energy", 0.5 * u8 @ (K8 @ u8))


def compliance(a_el):
    u, K, M, xc, f = solve(8, 1, a_el)
    return f @ u


a0 = 1.0 + 0.5 * jnp.sin(jnp.arange(8.0))
g = jax.grad(compliance)(a0)
u, K, M, xc, f = solve(8, 1, a0)
du = jnp.diff(u)
h = 1.0 / 8
g_adjoint = -(du ** 2) / h  # dC/da_e = -u_e^T dK_e/da_e u_e
print("compliance", compliance(a0), "\ngradient (through cg)", g, "\nadjoint formula     ", g_adjoint)
print("agree:", bool(jnp.allclose(g, g_adjoint, rtol=1e-3, atol=1e-5)))

Kc = sparse.BCSR.from_bcoo(K1.sum_duplicates())
print("BCSR indptr", Kc.indptr, "indices", Kc.indices, "\nBCSR @ ones", Kc @ jnp.ones(5))

# 2-D P1 Laplacian on the unit square, interior nodes only (homogeneous Dirichlet)
n = 10
xs = jnp.linspace(0.0, 1.0, n + 1)
X, Y = jnp.meshgrid(xs, xs, indexing="ij")
pts = jnp.stack([X.ravel(), Y.ravel()], axis=1)
ij = jnp.arange((n + 1) ** 2).reshape(n + 1, n + 1)
lower = jnp.stack([ij[:-1, :-1], ij[1:, :-1], ij[1:, 1:]], axis=-1).reshape(-1, 3)
upper = jnp.stack([ij[:-1, :-1], ij[1:, 1:], ij[:-1, 1:]], axis=-1).reshape(-1, 3)
tris = jnp.concatenate([lower, upper])


def tri_matrices(p):
    Bm = jnp.stack([p[1] - p[0], p[2] - p[0]], axis=1)
    area = 0.5 * jnp.abs(jnp.linalg.det(Bm))
    grads = jnp.linalg.inv(Bm).T @ jnp.array([[-1.0, 1.0, 0.0], [-1.0, 0.0, 1.0]])
    return area * grads.T @ grads, area / 12 * (jnp.ones((3, 3)) + jnp.eye(3))


Ke2, Me2 = jax.vmap(tri_matrices)(pts[tris])
idx2 = jnp.stack([jnp.repeat(tris, 3, axis=1).ravel(), jnp.tile(tris, (1, 3)).ravel()], axis=1)
N2 = (n + 1) ** 2
# keep the entries that cancel: which sums round to exactly 0 depends on the float32 round-off
K2 = sparse.BCOO((Ke2.ravel(), idx2), shape=(N2, N2)).sum_duplicates(remove_zeros=False)
M2 = sparse.BCOO((Me2.ravel(), idx2), shape=(N2, N2)).sum_duplicates(remove_zeros=False)
print("2-D: triangles", tris.shape[0], "stored entries", K2.nse, "area", Me2.sum())
interior = ij[1:-1, 1:-1].ravel()
Kd = K2.todense()[jnp.ix_(interior, interior)]
Md = M2.todense()[jnp.ix_(interior, interior)]
Lc = jnp.linalg.cholesky(Md)
Linv = jax.scipy.linalg.solve_triangular(Lc, jnp.eye(Lc.shape[0]), lower=True)
A_std = Linv @ Kd @ Linv.T
A_std = 0.5 * (A_std + A_std.T)
dense_eigs = jnp.linalg.eigvalsh(A_std)[:4]
print("lowest generalized eigenvalues (dense)", dense_eigs)
print("pi^2 (m^2 + n^2)", jnp.pi ** 2 * jnp.array([2.0, 5.0, 5.0, 8.0]))
shift = 200.0
X0 = jax.random.normal(jax.random.PRNGKey(0), (A_std.shape[0], 3))
B_shift = shift * jnp.eye(A_std.shape[0]) - A_std


def subspace_step(_, Q):
    Q, _ = jnp.linalg.qr(B_shift @ Q)
    return Q


Q = jax.lax.fori_loop(0, 300, subspace_step, jnp.linalg.qr(X0)[0])
theta, W = jnp.linalg.eigh(Q.T @ B_shift @ Q)
print("subspace iteration lowest three", jnp.round(jnp.sort(shift - theta), 2), "agree with eigh:",
      bool(jnp.allclose(jnp.sort(shift - theta), dense_eigs[:3], rtol=1e-3)))


@sparse.sparsify
def rayleigh(A, v):
    return (v @ (A @ v)) / (v @ v)


v_int = jnp.sin(jnp.pi * pts[:, 0]) * jnp.sin(jnp.pi * pts[:, 1])
print("Rayleigh quotients (sparsified) K:", rayleigh(K2, v_int), "M:", rayleigh(M2, v_int),
      "ratio", rayleigh(K2, v_int) / rayleigh(M2, v_int))
