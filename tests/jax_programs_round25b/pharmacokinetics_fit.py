"""Fitting an ODE model to data as pharmacometrics notebooks do it in JAX: a one-compartment
model with first-order absorption solved by jax.experimental.ode.odeint (a pytree state,
extra arguments) against the closed-form Bateman function (with its ka == ke limit by
lax.cond), log-parameters fitted by jax.scipy.optimize.minimize(method="BFGS") to noisy
concentrations, the gradient through odeint's adjoint against the closed form's, the Fisher
information from jacrev of the predictions, Wald intervals from norm.ppf, a likelihood-ratio
test against a model with a fixed absorption rate (chi2.sf), the profile likelihood of the
elimination rate by a vmapped minimize, and repeated dosing by superposition in lax.scan."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental.ode import odeint
from jax.scipy.optimize import minimize
from jax.scipy.stats import chi2, norm

jnp.set_printoptions(precision=4, suppress=True)

dose = 100.0
true_log = jnp.log(jnp.array([1.2, 0.25, 20.0]))  # ka (1/h), ke (1/h), V (L)
times = jnp.array([0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0])
sigma = 0.15


def rhs(state, t, ka, ke, V):
    return {"gut": -ka * state["gut"], "conc": ka * state["gut"] / V - ke * state["conc"]}


def ode_conc(logp, ts):
    ka, ke, V = jnp.exp(logp)
    y0 = {"gut": jnp.asarray(dose), "conc": jnp.asarray(0.0)}
    tt = jnp.concatenate([jnp.zeros(1), ts])
    return odeint(rhs, y0, tt, ka, ke, V, rtol=1e-6, atol=1e-8)["conc"][1:]


def bateman(logp, t):
    ka, ke, V = jnp.exp(logp)
    return lax.cond(jnp.abs(ka - ke) < 1e-6,
                    lambda: dose / V * ka * t * jnp.exp(-ke * t),
                    lambda: dose / V * ka / (ka - ke) * (jnp.exp(-ke * t) - jnp.exp(-ka * t)))


closed = jax.vmap(bateman, in_axes=(None, 0))
print("odeint vs Bateman, max abs diff < 1e-4:",
      bool(jnp.abs(ode_conc(true_log, times) - closed(true_log, times)).max() < 1e-4))
same_rate = jnp.log(jnp.array([0.5, 0.5, 10.0]))
print("ka == ke limit", closed(same_rate, times[:4]), "odeint agrees:",
      bool(jnp.allclose(ode_conc(same_rate, times), closed(same_rate, times), rtol=1e-4)))
print("limit's gradient in log ke", jax.grad(bateman)(same_rate, 2.0))

noise = jax.random.normal(jax.random.PRNGKey(3), times.shape)
data = closed(true_log, times) * jnp.exp(sigma * noise)  # log-normal errors
print("data", data)


def nll(logp):
    resid = jnp.log(closed(logp, times)) - jnp.log(data)
    return 0.5 * jnp.sum(resid ** 2) / sigma ** 2


def nll_ode(logp):
    resid = jnp.log(ode_conc(logp, times)) - jnp.log(data)
    return 0.5 * jnp.sum(resid ** 2) / sigma ** 2


start = jnp.log(jnp.array([0.6, 0.1, 30.0]))
g_ode, g_closed = jax.grad(nll_ode)(start), jax.grad(nll)(start)
print("gradient at start, odeint adjoint", g_ode)
print("gradient at start, closed form  ", g_closed)
print("agree to 1e-3 relative:", bool(jnp.allclose(g_ode, g_closed, rtol=1e-3)))

res = minimize(nll, start, method="BFGS", options={"gtol": 1e-4})
print("BFGS success", bool(res.success), "estimates ka ke V", jnp.exp(res.x), "nll", res.fun)
print("|gradient| at optimum small:", bool(jnp.linalg.norm(jax.grad(nll)(res.x)) < 1e-2))

# Fisher information from the Jacobian of the log predictions
J = jax.jacrev(lambda p: jnp.log(closed(p, times)))(res.x)
fisher = J.T @ J / sigma ** 2
H = jax.hessian(nll)(res.x)
print("Gauss-Newton vs Hessian diag", jnp.diag(fisher), jnp.diag(H))
cov = jnp.linalg.inv(fisher)
se = jnp.sqrt(jnp.diag(cov))
z = norm.ppf(0.975)
print("z", z, "log-scale SE", se)
print("95% Wald intervals (ka, ke, V)\n", jnp.exp(jnp.stack([res.x - z * se, res.x + z * se], axis=1)))
corr = cov / jnp.outer(se, se)
print("correlation ke-V", corr[1, 2])

# likelihood-ratio test: ka fixed at 3/h
def nll_fixed(q):
    return nll(jnp.concatenate([jnp.log(jnp.array([3.0])), q]))


res0 = minimize(nll_fixed, res.x[1:], method="BFGS", options={"gtol": 1e-4})
lr = 2.0 * (res0.fun - res.fun)
print("LR statistic", lr, "p-value", chi2.sf(lr, 1), "reject at 5%:", bool(chi2.sf(lr, 1) < 0.05))


# profile likelihood of ke: minimise over (ka, V) for each fixed ke, all at once by vmap
@jax.vmap
def profile(log_ke):
    f = lambda q: nll(jnp.stack([q[0], log_ke, q[1]]))  # noqa: E731
    r = minimize(f, jnp.stack([res.x[0], res.x[2]]), method="BFGS", options={"gtol": 1e-4})
    return r.fun


grid = res.x[1] + jnp.linspace(-0.3, 0.3, 7)
prof = profile(grid) - res.fun
print("profile deviance", 2 * prof)
inside = 2 * prof < 3.841  # the chi-square(1) 95% quantile
print("grid points inside the 95% profile interval", int(inside.sum()))

# repeated dosing every 8 h by superposition, steady-state trough against the closed form
ka, ke, V = jnp.exp(res.x)
tau, n_doses = 8.0, 6


def add_dose(conc_at_t, k):
    t_since = 48.0 - k * tau
    return conc_at_t + jnp.where(t_since > 0, bateman(res.x, jnp.maximum(t_since, 0.0)), 0.0), t_since


c48, since = lax.scan(add_dose, 0.0, jnp.arange(n_doses))
acc = 1.0 / (1.0 - jnp.exp(-ke * tau))
acc_a = 1.0 / (1.0 - jnp.exp(-ka * tau))
trough_ss = dose / V * ka / (ka - ke) * (jnp.exp(-ke * tau) * acc - jnp.exp(-ka * tau) * acc_a)
print("trough after 6 doses", c48, "steady-state trough", trough_ss, "hours since doses", since)
print("half-life (h)", jnp.log(2.0) / ke, "AUC_inf", dose / (V * ke),
      "trapezoid AUC 0-24", jax.scipy.integrate.trapezoid(closed(res.x, times), times))
