"""Finite elements in JAX as computational-mechanics tutorials write them: a 2-D P1 (linear
triangle) discretisation of -div(k grad u) = f on the unit square, element stiffness matrices
by vmap, global assembly by .at[rows, cols].add scatter, Dirichlet conditions by masking, the
solve by jnp.linalg.solve, by jax.scipy.linalg.lu_factor/lu_solve and matrix-free by
jax.scipy.sparse.linalg.cg with a segment_sum matvec; convergence against the manufactured
solution; the gradient of a compliance objective wrt per-element conductivities (checked
against the adjoint formula) and a few steps of conductivity identification."""

import jax
import jax.numpy as jnp
from jax.scipy.linalg import lu_factor, lu_solve
from jax.scipy.sparse.linalg import cg

jnp.set_printoptions(precision=5, suppress=True)


def mesh(n):
    xs = jnp.linspace(0.0, 1.0, n + 1)
    X, Y = jnp.meshgrid(xs, xs, indexing="ij")
    nodes = jnp.stack([X.ravel(), Y.ravel()], axis=1)
    idx = jnp.arange((n + 1) ** 2).reshape(n + 1, n + 1)
    a, b, c, d = idx[:-1, :-1].ravel(), idx[1:, :-1].ravel(), idx[:-1, 1:].ravel(), idx[1:, 1:].ravel()
    tris = jnp.concatenate([jnp.stack([a, b, d], 1), jnp.stack([a, d, c], 1)])
    boundary = (nodes[:, 0] == 0) | (nodes[:, 0] == 1) | (nodes[:, 1] == 0) | (nodes[:, 1] == 1)
    return nodes, tris, boundary


def element(p):
    """Stiffness of a linear triangle with vertices p (3, 2) and its area."""
    B = jnp.stack([p[1] - p[0], p[2] - p[0]], axis=1)  # Jacobian
    area = 0.5 * jnp.abs(jnp.linalg.det(B))
    ref_grads = jnp.array([[-1.0, -1.0], [1.0, 0.0], [0.0, 1.0]])
    grads = ref_grads @ jnp.linalg.inv(B)
    return area * grads @ grads.T, area


def assemble(nodes, tris, k, f_vals):
    Ke, area = jax.vmap(element)(nodes[tris])
    Ke = Ke * k[:, None, None]
    n = nodes.shape[0]
    rows = jnp.repeat(tris[:, :, None], 3, axis=2)
    cols = jnp.repeat(tris[:, None, :], 3, axis=1)
    K = jnp.zeros((n, n)).at[rows, cols].add(Ke)
    fe = area[:, None] / 3.0 * f_vals[tris].mean(axis=1, keepdims=True) * jnp.ones((1, 3))
    F = jnp.zeros(n).at[tris].add(fe)
    return K, F, Ke


def apply_dirichlet(K, F, boundary):
    inner = ~boundary
    K = jnp.where(inner[:, None] & inner[None, :], K, 0.0) + jnp.diag(boundary.astype(K.dtype))
    return K, jnp.where(inner, F, 0.0)


exact = lambda p: jnp.sin(jnp.pi * p[:, 0]) * jnp.sin(jnp.pi * p[:, 1])
source = lambda p: 2 * jnp.pi**2 * exact(p)

for n in (4, 8, 16):
    nodes, tris, boundary = mesh(n)
    K, F, _ = assemble(nodes, tris, jnp.ones(tris.shape[0]), source(nodes))
    Kd, Fd = apply_dirichlet(K, F, boundary)
    u = jnp.linalg.solve(Kd, Fd)
    err = jnp.max(jnp.abs(u - exact(nodes)))
    print(f"n={n}: nodes {nodes.shape[0]} elements {tris.shape[0]} max error {float(err):.5f}")

nodes, tris, boundary = mesh(8)
k = jnp.ones(tris.shape[0])
K, F, Ke = assemble(nodes, tris, k, source(nodes))
print("stiffness symmetric:", bool(jnp.allclose(K, K.T)),
      "row sums ~0:", bool(jnp.allclose(K.sum(1), 0, atol=1e-5)))
print("element 0 stiffness", Ke[0])
Kd, Fd = apply_dirichlet(K, F, boundary)
u_dense = jnp.linalg.solve(Kd, Fd)
u_lu = lu_solve(lu_factor(Kd), Fd)
print("lu == solve:", bool(jnp.allclose(u_lu, u_dense, atol=1e-5)))

# matrix-free conjugate gradients: matvec by gathering element dofs and segment_sum
inner = ~boundary


def matvec(v):
    v = jnp.where(inner, v, 0.0)
    local = jnp.einsum("eij,ej->ei", Ke, v[tris])
    out = jax.ops.segment_sum(local.ravel(), tris.ravel(), num_segments=nodes.shape[0])
    return jnp.where(inner, out, v)


u_cg, info = cg(matvec, Fd, tol=1e-10, maxiter=200)
print("cg == solve:", bool(jnp.allclose(u_cg, u_dense, atol=1e-4)), "centre value", round(float(u_cg[40]), 4))


# compliance J(k) = F.u(k); dJ/dk_e = -u_e^T Ke0 u_e (self-adjoint problem)
def compliance(k):
    K, F, _ = assemble(nodes, tris, k, source(nodes))
    Kd, Fd = apply_dirichlet(K, F, boundary)
    return Fd @ jnp.linalg.solve(Kd, Fd)


g = jax.grad(compliance)(k)
Ke0, _ = jax.vmap(element)(nodes[tris])
ue = u_dense[tris]
adjoint = -jnp.einsum("ei,eij,ej->e", ue, Ke0, ue)
print("compliance", round(float(compliance(k)), 5))
print("grad[:6]", g[:6])
print("grad == adjoint:", bool(jnp.allclose(g, adjoint, rtol=1e-3, atol=1e-6)))

# identify a conductivity field from a measured solution
k_true = 1.0 + 0.5 * (nodes[tris].mean(axis=1)[:, 0] > 0.5)
K, F, _ = assemble(nodes, tris, k_true, source(nodes))
u_meas = jnp.linalg.solve(*apply_dirichlet(K, F, boundary))


def misfit(logk):
    K, F, _ = assemble(nodes, tris, jnp.exp(logk), source(nodes))
    u = jnp.linalg.solve(*apply_dirichlet(K, F, boundary))
    return 1e3 * jnp.sum((u - u_meas) ** 2) + 1e-4 * jnp.sum(logk**2)


step = jax.jit(jax.value_and_grad(misfit))
logk = jnp.zeros(tris.shape[0])
for i in range(40):
    val, gk = step(logk)
    logk = logk - 2.0 * gk
    if i % 10 == 0:
        print(f"identification {i}: misfit {float(val):.5f}")
print("mean k left/right", round(float(jnp.exp(logk)[k_true == 1.0].mean()), 2),
      round(float(jnp.exp(logk)[k_true == 1.5].mean()), 2))
