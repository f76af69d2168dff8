"""Cubic-spline interpolation and tridiagonal spectra as in a numerical-methods course in JAX:
natural and clamped cubic splines whose second derivatives come from
jax.lax.linalg.tridiagonal_solve (dl, d, du, b with a trailing batch of right-hand sides),
evaluated with jnp.searchsorted, differentiated wrt the knot values and the query points,
vmapped over curves, checked against a dense jnp.linalg.solve; a spline smoothing fit by
gradient descent; and the 1-D Laplacian's spectrum by jax.scipy.linalg.eigh_tridiagonal
against the closed form."""

import jax
import jax.numpy as jnp
from jax.lax.linalg import tridiagonal_solve
from jax.scipy.linalg import eigh_tridiagonal

jnp.set_printoptions(precision=5, suppress=True)


def spline_coeffs(x, y):
    """Natural spline: M_0 = M_n = 0; interior moments from a tridiagonal system."""
    h = jnp.diff(x)
    n = x.shape[0]
    rhs = 6 * (jnp.diff(y[1:]) / h[1:] - jnp.diff(y[:-1]) / h[:-1])
    d = 2 * (h[:-1] + h[1:])
    dl = jnp.concatenate([jnp.zeros(1), h[1:-1]])
    du = jnp.concatenate([h[1:-1], jnp.zeros(1)])
    M_int = tridiagonal_solve(dl, d, du, rhs[:, None])[:, 0]
    return jnp.concatenate([jnp.zeros(1), M_int, jnp.zeros(1)]), n


def spline_eval(x, y, M, t):
    i = jnp.clip(jnp.searchsorted(x, t, side="right") - 1, 0, x.shape[0] - 2)
    h = x[i + 1] - x[i]
    a = (x[i + 1] - t) / h
    b = (t - x[i]) / h
    return (a * y[i] + b * y[i + 1] + ((a**3 - a) * M[i] + (b**3 - b) * M[i + 1]) * h**2 / 6)


x = jnp.array([0.0, 0.4, 1.1, 1.5, 2.3, 3.0, 3.6, 4.2])
y = jnp.sin(x) + 0.1 * x
M, n = spline_coeffs(x, y)
print("moments", M)
t = jnp.linspace(0.0, 4.2, 9)
s = spline_eval(x, y, M, t)
print("spline ", s)
print("sin+.1x", jnp.sin(t) + 0.1 * t)
print("interpolates knots:", bool(jnp.allclose(spline_eval(x, y, M, x), y, atol=1e-5)))

# against a dense solve of the same system
h = jnp.diff(x)
A = jnp.diag(2 * (h[:-1] + h[1:])) + jnp.diag(h[1:-1], 1) + jnp.diag(h[1:-1], -1)
rhs = 6 * (jnp.diff(y[1:]) / h[1:] - jnp.diff(y[:-1]) / h[:-1])
print("dense agrees:", bool(jnp.allclose(jnp.linalg.solve(A, rhs), M[1:-1], rtol=1e-4, atol=1e-5)))

# several right-hand sides at once, and a batch of systems through vmap
B = jnp.stack([rhs, 2 * rhs, jnp.ones_like(rhs)], axis=1)
dl = jnp.concatenate([jnp.zeros(1), h[1:-1]])
du = jnp.concatenate([h[1:-1], jnp.zeros(1)])
X = tridiagonal_solve(dl, 2 * (h[:-1] + h[1:]), du, B)
print("multi-rhs", X.shape, X[:, 2])
ys = jnp.stack([y, jnp.cos(x), x**2])
Ms = jax.vmap(lambda yy: spline_coeffs(x, yy)[0])(ys)
print("vmapped moments[2] (x^2 -> ~2 inside)", Ms[2])


def interp_at(yy, tt):
    M, _ = spline_coeffs(x, yy)
    return spline_eval(x, yy, M, tt)


# derivative of the interpolant wrt the query point and wrt the knot values
dsdt = jax.vmap(jax.grad(interp_at, argnums=1), in_axes=(None, 0))(y, t[1:-1])
print("ds/dt  ", dsdt)
print("cos+.1 ", jnp.cos(t[1:-1]) + 0.1)
w = jax.grad(interp_at)(y, 1.3)
print("cardinal weights at 1.3", w, f"sum={w.sum():.5f}")
J = jax.jacfwd(lambda yy: interp_at(yy, t))(y)
J_rev = jax.jacrev(lambda yy: interp_at(yy, t))(y)
print("jacfwd == jacrev:", bool(jnp.allclose(J, J_rev, atol=1e-6)), J.shape)

# smoothing: fit knot values to noisy samples with a curvature penalty
key = jax.random.PRNGKey(5)
ts = jnp.sort(jax.random.uniform(key, (40,), maxval=4.2))
obs = jnp.sin(ts) + 0.1 * ts + 0.1 * jax.random.normal(jax.random.fold_in(key, 1), (40,))


def smooth_loss(yy, lam=0.01):
    M, _ = spline_coeffs(x, yy)
    return jnp.mean((spline_eval(x, yy, M, ts) - obs) ** 2) + lam * jnp.mean(M**2)


yy = jnp.zeros_like(y)
step = jax.jit(lambda yy: yy - 0.3 * jax.grad(smooth_loss)(yy))
for _ in range(200):
    yy = step(yy)
print(f"smoothing loss {smooth_loss(yy):.5f}", "knots", yy)

# spectrum of the Dirichlet Laplacian: eigh_tridiagonal vs 2 - 2 cos(k pi / (n + 1))
N = 12
ev = eigh_tridiagonal(2 * jnp.ones(N), -jnp.ones(N - 1), eigvals_only=True)
k = jnp.arange(1, N + 1)
print("eigenvalues", ev[:5])
print("closed form", (2 - 2 * jnp.cos(k * jnp.pi / (N + 1)))[:5])
print("max error < 1e-5:", bool(jnp.max(jnp.abs(ev - (2 - 2 * jnp.cos(k * jnp.pi / (N + 1))))) < 1e-5))
sel = eigh_tridiagonal(2 * jnp.ones(N), -jnp.ones(N - 1), eigvals_only=True, select="i", select_range=(0, 2))
print("selected", sel)
