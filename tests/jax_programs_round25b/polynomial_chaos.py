"""Polynomial chaos expansions as uncertainty-quantification notebooks write them in JAX:
Legendre and probabilists' Hermite coefficient vectors built by the three-term recurrences with
jnp.polymul/polysub/polyadd, their derivatives and integrals by jnp.polyder/polyint, values
by jnp.polyval and by a lax.scan recurrence, Gauss-Legendre nodes from jnp.roots with
weights from the derivative, orthogonality by quadrature, a non-intrusive PCE of a decay
model with a log-normal rate (mean and variance against the closed form and Monte Carlo), the
Ishigami function's Sobol indices from a tensor Legendre basis fitted by jnp.linalg.lstsq,
and the gradient of the output variance with respect to the input spread."""

import itertools
import math

import jax
import jax.numpy as jnp
from jax import lax

jnp.set_printoptions(precision=5, suppress=True)


def legendre_coeffs(n_max):
    """P_0..P_n as highest-power-first coefficient vectors (Bonnet's recurrence)."""
    polys = [jnp.array([1.0]), jnp.array([1.0, 0.0])]
    for n in range(1, n_max):
        nxt = jnp.polysub(jnp.polymul(jnp.array([(2 * n + 1) / (n + 1), 0.0]), polys[n]),
                          (n / (n + 1)) * polys[n - 1])
        polys.append(nxt)
    return polys[: n_max + 1]


def hermite_coeffs(n_max):
    """He_0..He_n: He_{n+1} = x He_n - n He_{n-1}."""
    polys = [jnp.array([1.0]), jnp.array([1.0, 0.0])]
    for n in range(1, n_max):
        polys.append(jnp.polyadd(jnp.polymul(jnp.array([1.0, 0.0]), polys[n]), -n * polys[n - 1]))
    return polys[: n_max + 1]


P = legendre_coeffs(6)
He = hermite_coeffs(5)
print("P4 coefficients", P[4], "\nHe5 coefficients", He[5])
print("P4'", jnp.polyder(P[4]), "integral of P3 from 0", jnp.polyint(P[3]))
print("int_-1^1 P2^2 =", jnp.diff(jnp.polyval(jnp.polyint(jnp.polymul(P[2], P[2])), jnp.array([-1.0, 1.0]))),
      "(2/5)")


def legendre_scan(x, n):
    """P_0(x)..P_n(x) by the recurrence in lax.scan."""
    def step(carry, k):
        p_prev, p = carry
        p_next = ((2 * k + 1) * x * p - k * p_prev) / (k + 1)
        return (p, p_next), p_next
    _, rest = lax.scan(step, (jnp.ones_like(x), x), jnp.arange(1, n, dtype=x.dtype))
    return jnp.concatenate([jnp.ones_like(x)[None], x[None], rest])


xs = jnp.linspace(-1.0, 1.0, 5)
by_scan = legendre_scan(xs, 6)
by_polyval = jnp.stack([jnp.polyval(p, xs) for p in P])
print("scan recurrence = polyval:", bool(jnp.allclose(by_scan, by_polyval, atol=1e-5)), "P6(x)", by_scan[6])

# Gauss-Legendre from the roots of P_n, weights 2 / ((1 - x^2) P_n'(x)^2)
n_q = 6
nodes = jnp.sort(jnp.roots(P[n_q]).real)
weights = 2.0 / ((1 - nodes ** 2) * jnp.polyval(jnp.polyder(P[n_q]), nodes) ** 2)
print("nodes", nodes, "\nweights", weights, "sum", weights.sum())
gram = jnp.array([[jnp.sum(weights * jnp.polyval(P[i], nodes) * jnp.polyval(P[j], nodes)) for j in range(5)]
                  for i in range(5)])
print("Gram diagonal", jnp.diag(gram), "exact 2/(2i+1)", 2.0 / (2 * jnp.arange(5) + 1),
      "off-diagonal small:", bool(jnp.abs(gram - jnp.diag(jnp.diag(gram))).max() < 1e-5))

# Gauss-Hermite (probabilists') by Golub-Welsch for the Gaussian germ
m_q = 10
off = jnp.sqrt(jnp.arange(1.0, m_q))
Jm = jnp.diag(off, 1) + jnp.diag(off, -1)
gh_nodes, vecs = jnp.linalg.eigh(Jm)
gh_w = vecs[0] ** 2
print("E[xi^4] by Gauss-Hermite", jnp.sum(gh_w * gh_nodes ** 4), "(3)")


# non-intrusive PCE of u = exp(-k t), k = k0 exp(s xi), xi ~ N(0, 1)
def model(xi, s, k0=1.0, t=1.0):
    return jnp.exp(-k0 * jnp.exp(s * xi) * t)


def pce_coeffs(s, order=5):
    u = model(gh_nodes, s)
    basis = jnp.stack([jnp.polyval(h, gh_nodes) for h in He[: order + 1]])
    norms = jnp.array([math.factorial(i) for i in range(order + 1)], dtype=basis.dtype)
    return (basis @ (gh_w * u)) / norms, norms


s0 = 0.3
c, norms = pce_coeffs(s0)
mean_pce, var_pce = c[0], jnp.sum(c[1:] ** 2 * norms[1:])
print("PCE coefficients 0-2", c[:3], "higher ones below 2e-3:", bool(jnp.abs(c[3:]).max() < 2e-3))
xi_mc = jax.random.normal(jax.random.PRNGKey(0), (200_000,))
u_mc = model(xi_mc, s0)
print("mean PCE", mean_pce, "MC", u_mc.mean(), "| variance PCE", var_pce, "MC", u_mc.var())


def pce_variance(s):
    c, norms = pce_coeffs(s)
    return jnp.sum(c[1:] ** 2 * norms[1:])


dvar = jax.grad(pce_variance)(s0)
h = 1e-3
print("dVar/ds", dvar, "central difference", (pce_variance(s0 + h) - pce_variance(s0 - h)) / (2 * h))


# Ishigami function on [-pi, pi]^3, PCE by least squares in a total-degree Legendre basis
def ishigami(z, a=7.0, b=0.1):
    return jnp.sin(z[..., 0]) + a * jnp.sin(z[..., 1]) ** 2 + b * z[..., 2] ** 4 * jnp.sin(z[..., 0])


degree = 8
multi = [mi for mi in itertools.product(range(degree + 1), repeat=3) if sum(mi) <= degree]
P_hi = legendre_coeffs(degree)
u_pts = jax.random.uniform(jax.random.PRNGKey(1), (900, 3), minval=-1.0, maxval=1.0)
y = ishigami(jnp.pi * u_pts)
# (3, degree + 1, N): every 1-D Legendre value at every point
vals = jnp.stack([jnp.stack([jnp.polyval(p, u_pts[:, d]) for p in P_hi]) for d in range(3)])
A = jnp.stack([vals[0, i] * vals[1, j] * vals[2, k] for (i, j, k) in multi], axis=1)
coef, resid, rank, sv = jnp.linalg.lstsq(A, y)
print("basis size", len(multi), "rank", int(rank), "condition", sv[0] / sv[-1] < 1e3)
norm2 = jnp.array([1.0 / ((2 * i + 1) * (2 * j + 1) * (2 * k + 1)) for (i, j, k) in multi])
contrib = coef ** 2 * norm2
mi = jnp.array(multi)
total_var = jnp.sum(contrib[1:])
only = [(mi[:, d] > 0) & (mi.sum(1) == mi[:, d]) for d in range(3)]  # terms in input d alone
first = jnp.stack([jnp.sum(jnp.where(only[d], contrib, 0.0)) for d in range(3)])
total = jnp.stack([jnp.sum(jnp.where(mi[:, d] > 0, contrib, 0.0)) for d in range(3)])
a, b = 7.0, 0.1
D = a ** 2 / 8 + b * jnp.pi ** 4 / 5 + b ** 2 * jnp.pi ** 8 / 18 + 0.5
S_exact = jnp.array([(b * jnp.pi ** 4 / 5 + b ** 2 * jnp.pi ** 8 / 50 + 0.5) / D, a ** 2 / 8 / D, 0.0])
print("mean", coef[0], "variance", total_var, "exact", D)
print("first-order Sobol S1, S2", (first / total_var)[:2], "exact", S_exact[:2],
      "S3 ~ 0:", bool(first[2] / total_var < 1e-3))
print("total Sobol", total / total_var)
