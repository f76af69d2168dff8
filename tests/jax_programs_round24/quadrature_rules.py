"""Numerical integration as numerical-analysis notebooks write it in JAX: Gauss-Legendre,
Gauss-Hermite and Gauss-Laguerre rules by the Golub-Welsch algorithm (eigh of the Jacobi
matrix built from the three-term recurrence), polynomial exactness to degree 2n-1,
Clenshaw-Curtis weights from a cosine sum, Romberg's Richardson table in lax.fori_loop,
tanh-sinh (double-exponential) quadrature for an endpoint singularity, a tensor-product 2-D
rule by jax.vmap, jax.scipy.integrate.trapezoid, expectations E[f(X)] for a Gaussian with
gradients in the mean and scale (against Monte Carlo with jax.random), and differentiation
under the integral sign by jax.grad through the rule."""

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.scipy.integrate import trapezoid
from jax.scipy.special import erf, gamma

jnp.set_printoptions(precision=5, suppress=True)


def golub_welsch(alpha, beta, mu0):
    """Nodes and weights from recurrence coefficients: diagonal alpha, off-diagonal sqrt(beta)."""
    J = jnp.diag(alpha) + jnp.diag(jnp.sqrt(beta), 1) + jnp.diag(jnp.sqrt(beta), -1)
    nodes, vectors = jnp.linalg.eigh(J)
    return nodes, mu0 * vectors[0] ** 2


def gauss_legendre(n):
    k = jnp.arange(1.0, n)
    return golub_welsch(jnp.zeros(n), k**2 / (4 * k**2 - 1), 2.0)


def gauss_hermite(n):  # weight exp(-x^2 / 2), probabilists' normalisation
    return golub_welsch(jnp.zeros(n), jnp.arange(1.0, n), 1.0)


def gauss_laguerre(n):  # weight exp(-x)
    k = jnp.arange(n) * 1.0
    return golub_welsch(2 * k + 1, k[1:] ** 2, 1.0)


x5, w5 = gauss_legendre(5)
print("Gauss-Legendre n=5 nodes", x5)
print("weights", w5, "sum", f"{float(w5.sum()):.6f}")
degrees = jnp.arange(12)
moments = jax.vmap(lambda d: jnp.sum(w5 * x5**d))(degrees)
exact = jnp.where(degrees % 2 == 0, 2.0 / (degrees + 1), 0.0)
print("exact through degree 9, not 10:", bool(jnp.allclose(moments[:10], exact[:10], atol=1e-5)),
      f"degree-10 error {float(moments[10] - exact[10]):.5f}")


def integrate(f, a, b, rule):
    x, w = rule
    return 0.5 * (b - a) * jnp.sum(w * f(0.5 * (b - a) * x + 0.5 * (a + b)))


gl10 = gauss_legendre(10)
print(f"int_0^2 exp(-x^2) = {float(integrate(lambda x: jnp.exp(-x**2), 0.0, 2.0, gl10)):.6f}"
      f" (sqrt(pi)/2 erf(2) = {float(jnp.sqrt(jnp.pi) / 2 * erf(2.0)):.6f})")


def clenshaw_curtis(n):
    theta = jnp.pi * jnp.arange(n + 1) / n
    j = jnp.arange(1, n // 2 + 1)
    b = jnp.where(j == n // 2, 1.0, 2.0)
    terms = b[None, :] * jnp.cos(2 * j[None, :] * theta[:, None]) / (4 * j[None, :] ** 2 - 1)
    c = jnp.where((jnp.arange(n + 1) == 0) | (jnp.arange(n + 1) == n), 1.0, 2.0)
    return jnp.cos(theta), c / n * (1 - jnp.sum(terms, axis=1))


cc = clenshaw_curtis(16)
print(f"Clenshaw-Curtis n=16: weights sum {float(cc[1].sum()):.6f},",
      f"int_-1^1 1/(1+16x^2) = {float(jnp.sum(cc[1] / (1 + 16 * cc[0]**2))):.6f} (exact "
      f"{float(jnp.arctan(4.0) / 2):.6f})")


def romberg(f, a, b, levels=6):
    table = jnp.zeros((levels, levels))
    h = b - a
    table = table.at[0, 0].set(0.5 * h * (f(a) + f(b)))

    def level(i, carry):
        table, h = carry
        h = h / 2
        k = jnp.arange(2 ** (levels - 2) + 0.0)  # padded midpoints, masked to the 2^(i-1) used
        mids = jnp.sum(jnp.where(k < 2 ** (i - 1), f(a + (2 * k + 1) * h), 0.0))
        table = table.at[i, 0].set(0.5 * table[i - 1, 0] + h * mids)
        for j in range(1, levels):
            extrap = table[i, j - 1] + (table[i, j - 1] - table[i - 1, j - 1]) / (4.0**j - 1)
            table = table.at[i, j].set(jnp.where(j <= i, extrap, 0.0))
        return table, h

    table, _ = lax.fori_loop(1, levels, level, (table, h))
    return table


R = romberg(jnp.sin, 0.0, jnp.pi)
print("Romberg diagonal for int_0^pi sin:", jnp.diag(R))


def tanh_sinh(f, h=0.125, m=40):
    t = h * jnp.arange(-m, m + 1)
    u = 0.5 * jnp.pi * jnp.sinh(t)
    x = jax.nn.sigmoid(2 * u)  # (1 + tanh u) / 2 without the cancellation: nodes clustered at both ends
    w = 0.25 * h * jnp.pi * jnp.cosh(t) / jnp.cosh(u) ** 2
    return jnp.sum(jnp.where(x > 0, w * f(jnp.where(x > 0, x, 1.0)), 0.0))


print(f"tanh-sinh int_0^1 x^-1/2 = {float(tanh_sinh(lambda x: x**-0.5)):.5f},",
      f"int_0^1 log x = {float(tanh_sinh(jnp.log)):.5f}")

# tensor-product rule on [-1, 1]^2 by vmap over one axis
xs, ws = gl10
inner = jax.vmap(lambda y: jnp.sum(ws * jnp.exp(-(xs**2) - y**2 - xs * y)))(xs)
print(f"2-D Gauss: {float(jnp.sum(ws * inner)):.6f}")
grid = jnp.linspace(-1.0, 1.0, 201)
Z = jnp.exp(-(grid[:, None] ** 2) - grid[None, :] ** 2 - grid[:, None] * grid[None, :])
print(f"2-D trapezoid on 201^2 points: {float(trapezoid(trapezoid(Z, grid, axis=1), grid)):.6f}")

# Gaussian expectations by Gauss-Hermite, with gradients in the mean and scale
xh, wh = gauss_hermite(20)  # weights of the standard normal density (mu0 = 1)


def expect(f, mu, sigma):
    return jnp.sum(wh * f(mu + sigma * xh))


softplus_mean = lambda mu, sigma: expect(jax.nn.softplus, mu, sigma)
val = softplus_mean(0.5, 1.2)
dmu, dsigma = jax.grad(softplus_mean, argnums=(0, 1))(0.5, 1.2)
z = 0.5 + 1.2 * random.normal(random.key(0), (200_000,))
print(f"E softplus(X) = {float(val):.5f} (Monte Carlo {float(jnp.mean(jax.nn.softplus(z))):.3f}),",
      f"d/dmu {float(dmu):.5f} = E sigmoid(X) {float(expect(jax.nn.sigmoid, 0.5, 1.2)):.5f}, d/dsigma "
      f"{float(dsigma):.5f}")
print(f"E X^4 for sigma=1.2: {float(expect(lambda x: x**4, 0.0, 1.2)):.5f} (3 sigma^4 = {3 * 1.2**4:.5f})")

xl, wl = gauss_laguerre(12)
print("Gamma(s) by Gauss-Laguerre vs jax.scipy.special.gamma:",
      jnp.stack([jax.vmap(lambda s: jnp.sum(wl * xl ** (s - 1)))(jnp.array([2.0, 3.5, 5.0])),
                 gamma(jnp.array([2.0, 3.5, 5.0]))]))

# d/da int_0^1 x^a dx = -1 / (a + 1)^2
moment = lambda a: integrate(lambda x: x**a, 0.0, 1.0, gl10)
print(f"d/da int x^a at a=2: {float(jax.grad(moment)(2.0)):.6f} (exact {-1 / 9:.6f})",
      f"second derivative {float(jax.grad(jax.grad(moment))(2.0)):.6f} (exact {2 / 27:.6f})")
