"""Matrix functions and nonsymmetric spectra as in a control / Lie-group notebook:
jax.scipy.linalg.expm (and its gradient) for a continuous-time LTI system discretised by the
Van Loan block-matrix trick, checked against odeint-free series, the matrix logarithm's
inverse by sqrtm and funm, jnp.linalg.eig of a nonsymmetric matrix (eigenvalues sorted,
compared through the characteristic polynomial), schur, polar, Lyapunov-equation solution by
Kronecker products, and gradient descent on an SO(3) rotation parameterised through expm of
a skew matrix."""

import jax
import jax.numpy as jnp
from jax.scipy import linalg as jsl

jnp.set_printoptions(precision=5, suppress=True)

A = jnp.array([[0.0, 1.0, 0.0], [-2.0, -0.3, 1.0], [0.5, 0.0, -1.0]])
B = jnp.array([[0.0], [1.0], [0.5]])
dt = 0.1

# Van Loan: expm([[A, B], [0, 0]] dt) = [[Ad, Bd], [0, I]]
blk = jnp.zeros((4, 4)).at[:3, :3].set(A).at[:3, 3:].set(B)
E = jsl.expm(blk * dt)
Ad, Bd = E[:3, :3], E[:3, 3:]
print("Ad\n", Ad)
print("Bd", Bd.ravel())
series = sum(jnp.linalg.matrix_power(A * dt, k) / jnp.prod(jnp.arange(1.0, k + 1)) for k in range(12))
print("series agrees:", bool(jnp.allclose(series, Ad, atol=1e-6)))
print("expm(A) expm(-A) = I:", bool(jnp.allclose(jsl.expm(A) @ jsl.expm(-A), jnp.eye(3), atol=1e-5)))
g = jax.grad(lambda a: jnp.trace(jsl.expm(a)))(A)
print("d tr expm(A) / dA = expm(A)^T:", bool(jnp.allclose(g, jsl.expm(A).T, atol=1e-5)))
print("frechet", jsl.expm_frechet(A, jnp.eye(3), compute_expm=False)[0])

# a nonsymmetric spectrum
w, V = jnp.linalg.eig(A)
print("eig dtypes", w.dtype, V.dtype)
ws = jnp.sort_complex(w)
print("eigenvalues", ws)
print("char poly at eigenvalues ~ 0:", bool(jnp.max(jnp.abs(jnp.polyval(jnp.poly(A), w))) < 1e-4))
print("A V = V diag(w):", bool(jnp.allclose(A.astype(w.dtype) @ V, V * w, atol=1e-5)))
print("eigvals only", jnp.sort_complex(jnp.linalg.eigvals(A)))
print("stable (max Re < 0):", bool(jnp.max(w.real) < 0), f"spectral abscissa {jnp.max(w.real):.5f}")

T, Z = jsl.schur(A)
print("schur: Z T Z^T = A:", bool(jnp.allclose(Z @ T @ Z.T, A, atol=1e-5)),
      "subdiag", jnp.abs(T[2, 0]) < 1e-6)

S = jnp.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
R = jsl.sqrtm(S)
print("sqrtm real part\n", R.real, "\nsquares back:", bool(jnp.allclose(R @ R, S, atol=1e-4)))
F = jsl.funm(S, jnp.exp)
print("funm(exp) == expm:", bool(jnp.allclose(F, jsl.expm(S), rtol=1e-4)))
U, P = jsl.polar(A + 2 * jnp.eye(3))
print("polar: U orthogonal", bool(jnp.allclose(U.T @ U, jnp.eye(3), atol=1e-5)), "P symmetric",
      bool(jnp.allclose(P, P.T, atol=1e-5)))
print("P eigenvalues", jnp.linalg.eigvalsh(P))

# continuous Lyapunov equation A X + X A^T + Q = 0 by a Kronecker-product solve
Q = jnp.eye(3)
K = jnp.kron(jnp.eye(3), A) + jnp.kron(A, jnp.eye(3))
X = jnp.linalg.solve(K, -Q.reshape(-1, order="F")).reshape(3, 3, order="F")
print("gramian\n", X)
print("residual small:", bool(jnp.max(jnp.abs(A @ X + X @ A.T + Q)) < 1e-5))


# rotation fitting: find R = expm(hat(w)) aligning points
def hat(v):
    return jnp.array([[0.0, -v[2], v[1]], [v[2], 0.0, -v[0]], [-v[1], v[0], 0.0]])


pts = jax.random.normal(jax.random.PRNGKey(0), (20, 3))
R_true = jsl.expm(hat(jnp.array([0.3, -0.5, 0.8])))
target = pts @ R_true.T


def loss(v):
    return jnp.mean((pts @ jsl.expm(hat(v)).T - target) ** 2)


v = jnp.zeros(3)
step = jax.jit(lambda v: v - 0.5 * jax.grad(loss)(v))
for _ in range(100):
    v = step(v)
print("recovered axis-angle", v, f"loss {loss(v):.2e}" if loss(v) > 1e-8 else "loss < 1e-8")
print("det R", jnp.linalg.det(jsl.expm(hat(v))))
