"""Autoregressive time-series analysis as econometrics and signal-processing notebooks write
it in JAX: an AR(3) process simulated by lax.scan, the sample autocovariance by FFT against
the direct sum, Yule-Walker estimates from jax.scipy.linalg.toeplitz and solve, the
Levinson-Durbin recursion in lax.fori_loop (partial autocorrelations as a by-product),
conditional least squares with jnp.linalg.lstsq, Gaussian maximum likelihood by Newton steps
with jax.hessian, order selection by AIC, stationarity from jnp.roots of the characteristic
polynomial, psi weights and multi-step forecasts with their error bands by lax.scan, and the
periodogram against the model's spectral density."""

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.scipy.linalg import toeplitz

jnp.set_printoptions(precision=4, suppress=True)
phi_true = jnp.array([0.6, -0.3, 0.2])
sigma_true = 0.5
T, burn = 1000, 200
eps = sigma_true * random.normal(random.PRNGKey(3), (T + burn,))


def simulate(phi, eps):
    p = phi.shape[0]

    def step(history, e):
        x = jnp.dot(phi, history) + e
        return jnp.concatenate([x[None], history[:-1]]), x

    _, xs = lax.scan(step, jnp.zeros(p), eps)
    return xs


x = simulate(phi_true, eps)[burn:]
x = x - x.mean()
print(f"series: centred {bool(jnp.abs(x.mean()) < 1e-6)}, variance {float(x.var()):.4f}")


def autocov_fft(x, max_lag):
    n = x.shape[0]
    f = jnp.fft.rfft(x, n=2 * n)
    acov = jnp.fft.irfft(f * jnp.conj(f), n=2 * n)[: max_lag + 1] / n
    return acov


def autocov_direct(x, max_lag):
    n = x.shape[0]
    return jnp.stack([jnp.sum(x[: n - k] * x[k:]) / n for k in range(max_lag + 1)])


gamma = autocov_fft(x, 10)
print("autocovariance by FFT matches the direct sum:", bool(jnp.allclose(gamma, autocov_direct(x, 10),
                                                                         atol=1e-4)))
print("autocorrelation", gamma[:6] / gamma[0])

R = toeplitz(gamma[:3])
phi_yw = jnp.linalg.solve(R, gamma[1:4])
print("Yule-Walker phi", phi_yw, f"sigma^2 {float(gamma[0] - phi_yw @ gamma[1:4]):.4f}")


def levinson_durbin(r, order):
    def body(k, state):
        a, err, pacf = state
        mask = jnp.arange(order) < k
        acc = jnp.sum(jnp.where(mask, a * r[k - jnp.arange(order)], 0.0))
        kappa = (r[k + 1] - acc) / err
        a_rev = jnp.where(mask, a[jnp.clip(k - 1 - jnp.arange(order), 0, order - 1)], 0.0)
        a = jnp.where(mask, a - kappa * a_rev, 0.0).at[k].set(kappa)
        return a, err * (1 - kappa**2), pacf.at[k].set(kappa)

    a, err, pacf = lax.fori_loop(0, order, body, (jnp.zeros(order), r[0], jnp.zeros(order)))
    return a, err, pacf


a3, err3, pacf = levinson_durbin(gamma, 6)
print("Levinson-Durbin order 6", a3, f"innovation variance {float(err3):.4f}")
print("partial autocorrelations", pacf, "(cut off after lag 3)")
a_check, *_ = levinson_durbin(gamma, 3)
print("Levinson-Durbin order 3 equals Yule-Walker:", bool(jnp.allclose(a_check, phi_yw, atol=1e-4)))


def lag_matrix(x, p):
    n = x.shape[0]
    return jnp.stack([x[p - k - 1: n - k - 1] for k in range(p)], axis=1), x[p:]


def conditional_fit(x, p):
    Z, y = lag_matrix(x, p)
    phi, *_ = jnp.linalg.lstsq(Z, y)
    resid = y - Z @ phi
    return phi, jnp.mean(resid**2)


aic = []
for p in range(1, 7):
    phi_p, s2 = conditional_fit(x[6 - p:], p)  # the same 994 targets for every order
    aic.append(float(994 * jnp.log(s2) + 2 * (p + 1)))
print("AIC by order", [round(a, 2) for a in aic], "chosen order", int(jnp.argmin(jnp.array(aic))) + 1)
phi_ls, s2_ls = conditional_fit(x, 3)
print("conditional least squares", phi_ls, f"sigma^2 {float(s2_ls):.4f}")


def neg_log_likelihood(params):
    phi, log_sigma = params[:3], params[3]
    Z, y = lag_matrix(x, 3)
    resid = y - Z @ phi
    return 0.5 * jnp.sum(resid**2) * jnp.exp(-2 * log_sigma) + y.shape[0] * log_sigma


sigma2_yw = gamma[0] - phi_yw @ gamma[1:4]
params = jnp.concatenate([phi_yw, 0.5 * jnp.log(sigma2_yw)[None]])  # Newton from the Yule-Walker estimate
for _ in range(6):
    params = params - jnp.linalg.solve(jax.hessian(neg_log_likelihood)(params),
                                       jax.grad(neg_log_likelihood)(params))
std_err = jnp.sqrt(jnp.diag(jnp.linalg.inv(jax.hessian(neg_log_likelihood)(params))))
print("MLE phi", params[:3], f"sigma {float(jnp.exp(params[3])):.4f}", "standard errors", std_err[:3])

roots = jnp.roots(jnp.concatenate([-params[:3][::-1], jnp.ones(1)]))
print("characteristic root moduli", jnp.sort(jnp.abs(roots)), "stationary:",
      bool(jnp.all(jnp.abs(roots) > 1)))


def psi_weights(phi, n):
    def step(history, _):
        psi = jnp.dot(phi, history)
        return jnp.concatenate([psi[None], history[:-1]]), psi

    _, psi = lax.scan(step, jnp.array([1.0, 0.0, 0.0]), None, length=n - 1)
    return jnp.concatenate([jnp.ones(1), psi])


def forecast(phi, history, h):
    def step(hist, _):
        nxt = jnp.dot(phi, hist)
        return jnp.concatenate([nxt[None], hist[:-1]]), nxt

    _, path = lax.scan(step, history, None, length=h)
    return path


phi_hat, sigma_hat = params[:3], jnp.exp(params[3])
path = forecast(phi_hat, x[-3:][::-1], 8)
band = 1.96 * sigma_hat * jnp.sqrt(jnp.cumsum(psi_weights(phi_hat, 8) ** 2))
print("forecast", path)
print("95% half-widths", band, "-> unconditional", f"{float(1.96 * jnp.sqrt(gamma[0])):.4f}")

freqs = jnp.fft.rfftfreq(x.shape[0])[1:]
periodogram = jnp.abs(jnp.fft.rfft(x)[1:]) ** 2 / x.shape[0]
omega = 2 * jnp.pi * freqs
transfer = 1 - jnp.sum(phi_hat[None, :] * jnp.exp(-1j * omega[:, None] * jnp.arange(1, 4)), axis=1)
density = sigma_hat**2 / jnp.abs(transfer) ** 2
smooth = jnp.convolve(periodogram, jnp.ones(25) / 25, mode="same")
ratio = smooth[20:-20] / density[20:-20]
print(f"smoothed periodogram / model density: mean {float(ratio.mean()):.3f}, within [0.5, 2]:",
      bool(jnp.all((ratio > 0.5) & (ratio < 2.0))))
print(f"spectral peak at frequency {float(freqs[jnp.argmax(density)]):.4f}")
