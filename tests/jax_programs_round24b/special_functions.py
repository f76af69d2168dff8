"""The corners of ``jax.scipy.special`` and ``jax.scipy.stats`` the earlier programs skipped,
as a physics/statistics notebook would use them: exponential integrals (``exp1``, ``expi``,
``expn``), ``sici``, ``fresnel``, ``dawsn``, the Faddeeva function ``wofz`` (a Voigt profile),
``spence``, ``poch``/``comb``/``gammasgn``, confluent and Gauss hypergeometric functions,
Owen's T, ``bessel_jn``, ``kl_div``/``rel_entr``, Box-Cox, ``sph_harm_y``; and the
distributions ``binom``, ``betabinom``, ``nbinom``, ``geom``, ``gumbel_l``/``gumbel_r``,
``gennorm``, ``pareto``, ``truncnorm``, ``vonmises``, ``wrapcauchy``, with ``stats.sem``."""

import jax
import jax.numpy as jnp
from jax.scipy import special as sp
from jax.scipy import stats

x = jnp.array([0.1, 0.5, 1.0, 2.5, 6.0])
print("exp1:", sp.exp1(x))
print("expi:", sp.expi(x), sp.expi(-x[:2]))
print("expn(2), expn(3):", sp.expn(2, x), sp.expn(3, x[:3]))
si, ci = sp.sici(x)
print("sici:", si, ci)
s, c = sp.fresnel(x)
print("fresnel:", s, c)
print("dawsn:", sp.dawsn(x))
print("spence:", sp.spence(jnp.array([0.0, 0.5, 1.0, 2.0])))
print("poch:", sp.poch(x, 3.0), "comb:", sp.comb(10.0, jnp.array([0.0, 3.0, 5.0])))
print("gammasgn:", sp.gammasgn(jnp.array([-2.5, -1.5, -0.5, 0.5])))
print("hyp1f1:", sp.hyp1f1(0.5, 1.5, -x))
print("hyp2f1:", sp.hyp2f1(1.0, 1.0, 2.0, jnp.array([-0.5, 0.0, 0.3, 0.6])))
print("log(1-z)/-z check:", -jnp.log1p(-0.3) / 0.3)
print("owens_t:", sp.owens_t(jnp.array([0.0, 0.5, 1.0, 2.0]), 0.75))
print("bessel_jn (n=0..3 at 2.0):", sp.bessel_jn(jnp.array([2.0]), v=3, n_iter=20)[:, 0])
p = jnp.array([0.2, 0.5, 0.3])
q = jnp.array([0.1, 0.6, 0.3])
print("kl_div:", sp.kl_div(p, q), "sum:", sp.kl_div(p, q).sum(), "rel_entr sum:", sp.rel_entr(p, q).sum())
print("boxcox:", sp.boxcox(x, 0.5), sp.boxcox(x, 0.0)[:2], "boxcox1p:", sp.boxcox1p(x, 0.5)[:3])

# derivatives against identities: d/dx E1(x) = -exp(-x)/x, d/dx Si(x) = sin(x)/x, F'(x) = 1 - 2xF
print("grad exp1:", jax.vmap(jax.grad(sp.exp1))(x), -jnp.exp(-x) / x)
print("grad dawsn:", jax.vmap(jax.grad(sp.dawsn))(x), 1 - 2 * x * sp.dawsn(x))

# a Voigt line profile from the Faddeeva function
nu = jnp.linspace(-3.0, 3.0, 7)
sigma, gamma = 0.8, 0.3
z = (nu + 1j * gamma) / (sigma * jnp.sqrt(2.0))
voigt = jnp.real(sp.wofz(z)) / (sigma * jnp.sqrt(2 * jnp.pi))
w = sp.wofz(jnp.array([0.0 + 0.0j, 1.0 + 1.0j, 2.0 + 0.5j]))
print("wofz(0), wofz(1+1j), wofz(2+0.5j):", jnp.real(w), jnp.imag(w))
grid = (jnp.linspace(-40, 40, 4001) + 1j * gamma) / (sigma * jnp.sqrt(2.0))
area = jnp.sum(jnp.real(sp.wofz(grid))) * 0.02 / (sigma * jnp.sqrt(2 * jnp.pi))
print("voigt:", voigt, "area approx:", area)

# spherical harmonics: Y_2^1 at a few angles
theta = jnp.array([0.3, 1.1, 2.0])
phi = jnp.array([0.4, 0.7, 2.5])
y21 = sp.sph_harm_y(jnp.array([2, 2, 2]), jnp.array([1, 1, 1]), theta, phi, n_max=2)
print("sph_harm_y l=2 m=1:", jnp.real(y21), jnp.imag(y21), "|Y|^2:", jnp.abs(y21) ** 2)

# discrete distributions
k = jnp.arange(6)
print("binom pmf:", stats.binom.pmf(k, 5, 0.3), "logpmf(2):", stats.binom.logpmf(2, 5, 0.3))
# (n = 4 keeps betaln's arguments below 8: there JAX's betaln is a series ~1e-6 from the exact
# value)
print("betabinom pmf:", stats.betabinom.pmf(k[:5], 4, 2.0, 3.0))
print("nbinom pmf:", stats.nbinom.pmf(k, 3, 0.4))
print("geom pmf:", stats.geom.pmf(k + 1, 0.25), "logpmf(0):", stats.geom.logpmf(0, 0.25))
print("binom sums to 1:", stats.binom.pmf(k, 5, 0.3).sum())

# continuous distributions
t = jnp.array([-1.0, 0.0, 0.5, 2.0])
print("gumbel_r:", stats.gumbel_r.pdf(t), stats.gumbel_r.cdf(t), stats.gumbel_r.sf(t))
print("gumbel_l:", stats.gumbel_l.logpdf(t), stats.gumbel_l.cdf(t))
print("gennorm beta=1.5:", stats.gennorm.pdf(t, 1.5), stats.gennorm.cdf(t, 1.5))
print("pareto b=3:", stats.pareto.pdf(jnp.array([0.5, 1.0, 2.0]), 3.0),
      stats.pareto.logpdf(2.0, 3.0, scale=1.5))
print("truncnorm [-1, 2]:", stats.truncnorm.pdf(t, -1.0, 2.0), stats.truncnorm.cdf(t, -1.0, 2.0))
print("truncnorm logsf:", stats.truncnorm.logsf(t, -1.0, 2.0))
print("vonmises kappa=2:", stats.vonmises.pdf(t, 2.0), stats.vonmises.logpdf(t - 0.5, 2.0))
print("wrapcauchy c=0.4:", stats.wrapcauchy.pdf(jnp.array([0.1, 1.0, 3.0, 6.0]), 0.4))
samples = jnp.array([2.1, 1.9, 2.4, 2.0, 1.7, 2.2, 2.3])
print("sem:", stats.sem(samples), stats.sem(samples, ddof=0))

# gradients of log densities in their parameters (maximum-likelihood scores)
score = jax.grad(lambda a, b: stats.betabinom.logpmf(3, 5, a, b).sum(), argnums=(0, 1))(2.0, 3.0)
print("betabinom score:", score)
print("gennorm score in beta:", jax.grad(lambda b: stats.gennorm.logpdf(t, b).sum())(1.5))
print("vonmises score in kappa:", jax.grad(lambda kap: stats.vonmises.logpdf(t, kap).sum())(2.0))
print("truncnorm grad in x:", jax.vmap(jax.grad(lambda v: stats.truncnorm.logpdf(v, -1.0, 2.0)))(t[1:]))
