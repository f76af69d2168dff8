"""Polynomial and quadrature utilities: `jnp.roots` (real and complex roots), `poly`,
`polyadd/polysub/polymul/polydiv`, `polyder/polyint`, `polyval` under vmap and grad,
`jnp.vander`, `jnp.trapezoid` and `jax.scipy.integrate.trapezoid`, Gauss-Legendre quadrature
built from the eigenvalues of the Jacobi matrix, and Chebyshev interpolation."""

import jax
import jax.numpy as jnp
from jax.scipy.integrate import trapezoid

p = jnp.array([1.0, -6.0, 11.0, -6.0])
print(jnp.sort(jnp.roots(p).real), jnp.poly(jnp.array([1.0, 2.0, 3.0])))
r = jnp.roots(jnp.array([1.0, 0.0, 1.0]))
print(jnp.sort_complex(r))
print(jnp.sort_complex(jnp.roots(jnp.array([0.0, 0.0, 2.0, -4.0]))))
q = jnp.array([2.0, 0.0, -1.0])
print(jnp.polyadd(p, q), jnp.polysub(p, q), jnp.polymul(p, q))
quot, rem = jnp.polydiv(p, jnp.array([1.0, -1.0]))
print(quot, rem)
print(jnp.polyder(p), jnp.polyder(p, 2), jnp.polyint(q), jnp.polyint(q, k=3.0), jnp.polyint(q, m=2))
xs = jnp.linspace(-1.0, 2.0, 5)
print(jnp.polyval(p, xs), jax.vmap(jax.grad(lambda t: jnp.polyval(p, t)))(xs))
print(jax.grad(lambda c: jnp.polyval(c, 1.5))(p))
print(jnp.vander(jnp.array([1.0, 2.0, 3.0]), 4), jnp.vander(jnp.array([1.0, 2.0]), increasing=True))
coef = jnp.polyfit(xs, jnp.sin(xs), 3)
print(coef)

t = jnp.linspace(0.0, jnp.pi, 101)
print(
    jnp.trapezoid(jnp.sin(t), t),
    trapezoid(jnp.sin(t), dx=t[1] - t[0]),
    jnp.trapezoid(jnp.array([1.0, 2.0, 4.0])),
)
print(jnp.trapezoid(jnp.outer(jnp.ones(3), t), t, axis=1))


def gauss_legendre(n):
    k = jnp.arange(1.0, n)
    beta = k / jnp.sqrt(4 * k * k - 1)
    J = jnp.diag(beta, 1) + jnp.diag(beta, -1)
    nodes, vecs = jnp.linalg.eigh(J)
    return nodes, 2 * vecs[0] ** 2


nodes, weights = gauss_legendre(6)
print(nodes, weights, jnp.sum(weights))
for f in [jnp.exp, lambda v: v**10, lambda v: 1 / (1 + 25 * v * v)]:
    print(jnp.sum(weights * f(nodes)))

# Chebyshev interpolation of Runge's function
n = 12
cheb = jnp.cos(jnp.pi * (jnp.arange(n) + 0.5) / n)
runge = 1 / (1 + 25 * cheb**2)
c = jnp.linalg.solve(jnp.vander(cheb, n), runge)
grid = jnp.linspace(-1, 1, 7)
print(jnp.polyval(c, grid), 1 / (1 + 25 * grid**2))
