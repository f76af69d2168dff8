"""Spectroscopy and radiation physics with jax.scipy.special as astrophysics notebooks write
it: the Voigt profile from the Faddeeva function wofz (normalisation by trapezoid, its
Gaussian and Lorentzian limits, the half width against the Olivero approximation), a
Voigt line fitted to a noisy spectrum by Levenberg-Marquardt with jacfwd and a lax.while_loop,
the Planck function integrated against the Stefan-Boltzmann constant via zeta(4), Bose and
Fermi integrals through zeta and polygamma, an optically thin line's curve of growth with erfcx,
a rotational partition function, von Mises line-of-sight angles with i0e/i1e, and a dipole
radiation pattern expanded in spherical harmonics (sph_harm_y) by quadrature."""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.scipy.special import erfcx, i0e, i1e, polygamma, sph_harm_y, wofz, zeta

jnp.set_printoptions(precision=5, suppress=True)
cdt = jnp.complex128 if jax.config.jax_enable_x64 else jnp.complex64


def voigt(x, sigma, gamma):
    z = (x + 1j * gamma) / (sigma * jnp.sqrt(2.0))
    return wofz(z.astype(cdt)).real / (sigma * jnp.sqrt(2 * jnp.pi))


x = jnp.linspace(-30.0, 30.0, 6001)
prof = voigt(x, 0.8, 0.5)
print("Voigt area on [-30, 30]", jax.scipy.integrate.trapezoid(prof, x), "peak", voigt(0.0, 0.8, 0.5))
gauss = jnp.exp(-0.5 * (x[2990:3011:5] / 0.8) ** 2) / (0.8 * jnp.sqrt(2 * jnp.pi))
print("gamma -> 0 is the Gaussian:", bool(jnp.allclose(voigt(x[2990:3011:5], 0.8, 1e-4), gauss, atol=1e-4)))
lor = 0.5 / jnp.pi / (x[2990:3011:5] ** 2 + 0.25)
print("sigma -> 0 is the Lorentzian:", bool(jnp.allclose(voigt(x[2990:3011:5], 1e-3, 0.5), lor, rtol=2e-3)))
fG, fL = 2 * 0.8 * jnp.sqrt(2 * jnp.log(2.0)), 2 * 0.5
olivero = 0.5346 * fL + jnp.sqrt(0.2166 * fL ** 2 + fG ** 2)
half = voigt(0.0, 0.8, 0.5) / 2


def hwhm(_, bracket):
    lo, hi = bracket
    mid = 0.5 * (lo + hi)
    above = voigt(mid, 0.8, 0.5) > half
    return jnp.where(above, mid, lo), jnp.where(above, hi, mid)


lo, hi = lax.fori_loop(0, 40, hwhm, (jnp.asarray(0.0), jnp.asarray(5.0)))
print("FWHM by bisection", 2 * lo, "Olivero-Longbothum", olivero)
print("d peak / d gamma", jax.grad(voigt, argnums=2)(0.0, 0.8, 0.5))

# Levenberg-Marquardt fit of amplitude, centre, sigma, gamma
k_noise = jax.random.PRNGKey(4)
xs = jnp.linspace(-6.0, 6.0, 121)
true = jnp.array([3.0, 0.4, 0.7, 0.3])


def model(p, x):
    return p[0] * voigt(x - p[1], p[2], p[3])


ys = model(true, xs) + 0.01 * jax.random.normal(k_noise, xs.shape)


def residual(p):
    return model(p, xs) - ys


def lm(p0, lam0=1e-2):
    def cond(state):
        return (state[3] < 60) & (state[2] > 1e-9)

    def body(state):
        p, lam, step, i = state
        r = residual(p)
        J = jax.jacfwd(residual)(p)
        A = J.T @ J
        dp = jnp.linalg.solve(A + lam * jnp.diag(jnp.diag(A)), -J.T @ r)
        better = jnp.sum(residual(p + dp) ** 2) < jnp.sum(r ** 2)
        return (jnp.where(better, p + dp, p), jnp.where(better, lam / 3, lam * 4),
                jnp.where(better, jnp.linalg.norm(dp), step), i + 1)
    return lax.while_loop(cond, body, (p0, jnp.asarray(lam0), jnp.asarray(1.0), 0))


p_fit, lam_end, _, its = lm(jnp.array([2.0, 0.0, 1.0, 0.1]))
print("fitted (A, x0, sigma, gamma)", p_fit, "rms residual", jnp.sqrt(jnp.mean(residual(p_fit) ** 2)))
J = jax.jacfwd(residual)(p_fit)
se = 0.01 * jnp.sqrt(jnp.diag(jnp.linalg.inv(J.T @ J)))
print("standard errors", se)

# Planck: integral of x^3 / (e^x - 1) = Gamma(4) zeta(4) = pi^4 / 15
u = jnp.linspace(1e-4, 60.0, 20001)
planck = u ** 3 / jnp.expm1(u)
print("Planck integral", jax.scipy.integrate.trapezoid(planck, u), "6 zeta(4)", 6 * zeta(4.0, 1.0),
      "pi^4/15", jnp.pi ** 4 / 15)
print("zeta(3), zeta(2) vs pi^2/6", zeta(3.0, 1.0), zeta(2.0, 1.0), jnp.pi ** 2 / 6)
print("Hurwitz zeta(2, 1.5) = polygamma(1, 1.5):", zeta(2.0, 1.5), polygamma(1, 1.5))
print("Wien peak of x^3/(e^x - 1) by Newton:",
      lax.fori_loop(0, 20, lambda i, v: v - (3 * (1 - jnp.exp(-v)) - v) / (3 * jnp.exp(-v) - 1), 2.5))
print("polygamma orders 0-3 at 2.5", jnp.stack([polygamma(n, 2.5) for n in range(4)]))

# curve of growth of a Gaussian line: W(tau0) = integral of 1 - exp(-tau0 exp(-x^2))
taus = jnp.array([0.01, 0.1, 1.0, 10.0, 100.0])
grid = jnp.linspace(-8.0, 8.0, 4001)
W = jax.vmap(lambda t0: jax.scipy.integrate.trapezoid(1 - jnp.exp(-t0 * jnp.exp(-grid ** 2)), grid))(taus)
print("equivalent widths", W, "linear limit sqrt(pi) tau0", jnp.sqrt(jnp.pi) * taus[:2])
big = jnp.array([1.0, 5.0, 20.0, 100.0])
print("erfcx", erfcx(big), "asymptote 1/(x sqrt(pi))", 1 / (big * jnp.sqrt(jnp.pi)))

# rotational partition function of a rigid rotor, sum over J vs the high-temperature limit
Jr = jnp.arange(0.0, 200.0)
for T_over_theta in (0.5, 5.0, 50.0):
    Z = jnp.sum((2 * Jr + 1) * jnp.exp(-Jr * (Jr + 1) / T_over_theta))
    print(f"T/theta={T_over_theta}: Z", Z, "T/theta + 1/3", T_over_theta + 1 / 3)

# von Mises concentration: mean resultant length A(kappa) = I1/I0 with scaled Bessels
kap = jnp.array([0.5, 2.0, 10.0, 200.0])
print("A(kappa) = i1e/i0e", i1e(kap) / i0e(kap), "large-kappa 1 - 1/(2 kappa)", 1 - 1 / (2 * kap))

# a dipole pattern sin^2(theta) in spherical harmonics: only l = 0 and l = 2 with m = 0
nt, nph = 24, 16
ct, wt = np.polynomial.legendre.leggauss(nt)
theta = jnp.arccos(jnp.asarray(ct))
phi = jnp.arange(nph) * (2 * jnp.pi / nph)
TH, PH = jnp.meshgrid(theta, phi, indexing="ij")
wts = jnp.asarray(wt)[:, None] * (2 * jnp.pi / nph) * jnp.ones((1, nph))
pattern = jnp.sin(TH) ** 2
ls = jnp.arange(5)


def coefficient(l, m):
    # sph_harm_y takes 1-D arrays
    Y = sph_harm_y(jnp.full(TH.size, l), jnp.full(TH.size, m), TH.ravel(), PH.ravel(), n_max=4)
    return jnp.sum((wts * pattern).ravel() * jnp.conj(Y))


c_m0 = jnp.stack([coefficient(int(l), 0) for l in ls])
print("|c_l0| for l = 0..4", jnp.abs(c_m0), "exact l=0", 8 * jnp.sqrt(jnp.pi) / 3 / 2,
      "l=2", 4 / 3 * jnp.sqrt(jnp.pi / 5))
c_m1 = jnp.stack([coefficient(int(l), 1) for l in ls[1:]])
print("m = 1 coefficients vanish:", bool(jnp.abs(c_m1).max() < 1e-5))
Y11 = sph_harm_y(jnp.array([1]), jnp.array([1]), jnp.array([jnp.pi / 3]), jnp.array([jnp.pi / 4]), n_max=1)
print("Y_1^1 at (theta, phi) = (pi/3, pi/4)", Y11,
      "|Y| exact", 0.5 * jnp.sqrt(1.5 / jnp.pi) * jnp.sin(jnp.pi / 3))
