"""Quantile regression with the pinball loss, as forecasting tutorials write it in JAX:
pinball loss by jax.nn.relu of both signs, its subgradient at ties, a linear model fitted for
several quantiles at once with non-crossing quantiles enforced by a cumulative softplus
parametrization, compared with jnp.quantile of the residuals and with the empirical coverage;
a smoothed (Huber) pinball loss; a straight-through estimator built from
jax.lax.stop_gradient (x + stop_gradient(round(x) - x)), and the quantile of a sample as the
minimizer of the pinball loss (jnp.sort, jnp.quantile methods) with its gradient by
jax.grad; conformalized quantile intervals with jnp.quantile(method="higher")."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax

jnp.set_printoptions(precision=4, suppress=True)
TAUS = jnp.array([0.1, 0.5, 0.9])


def pinball(residual, tau):
    return tau * jax.nn.relu(residual) + (1 - tau) * jax.nn.relu(-residual)


def huber_pinball(residual, tau, delta=0.1):
    a = jnp.abs(residual)
    h = jnp.where(a <= delta, 0.5 * residual**2 / delta, a - 0.5 * delta)
    return jnp.where(residual >= 0, tau, 1 - tau) * h


r = jnp.array([-1.0, 0.0, 2.0])
print("pinball", pinball(r, 0.3), "grad", jax.vmap(jax.grad(pinball), in_axes=(0, None))(r, 0.3))
print("huber  ", huber_pinball(r, 0.3), "grad", jax.vmap(jax.grad(huber_pinball), in_axes=(0, None))(r, 0.3))

key = jax.random.PRNGKey(5)
kx, ke, kc = jax.random.split(key, 3)
n = 400
x = jax.random.uniform(kx, (n,), minval=0.0, maxval=4.0)
noise = jax.random.normal(ke, (n,)) * (0.2 + 0.3 * x)  # heteroscedastic
y = 1.0 + 0.8 * x + noise


def quantiles(params, x):
    """Non-crossing: the lowest quantile, then softplus increments."""
    base = params["a0"] + params["b0"] * x
    inc = jax.nn.softplus(params["da"][None, :] + params["db"][None, :] * x[:, None])
    return jnp.concatenate([base[:, None], base[:, None] + jnp.cumsum(inc, axis=1)], axis=1)


def loss(params, x, y, smooth=False):
    q = quantiles(params, x)
    res = y[:, None] - q
    fn = huber_pinball if smooth else pinball
    return jnp.mean(jax.vmap(fn, in_axes=(1, 0), out_axes=1)(res, TAUS))


params = {"a0": jnp.asarray(0.0), "b0": jnp.asarray(0.0), "da": jnp.zeros(2), "db": jnp.zeros(2)}


@partial(jax.jit, static_argnums=1)
def train(params, smooth):
    def step(p, _):
        g = jax.grad(loss)(p, x, y, smooth)
        return jax.tree.map(lambda a, b: a - 0.1 * b, p, g), loss(p, x, y, smooth)

    return lax.scan(step, params, None, length=300)


for smooth in [False, True]:
    fitted, losses = train(params, smooth)
    q = quantiles(fitted, x)
    coverage = jnp.mean(y[:, None] <= q, axis=0)
    print(f"smooth={smooth}: loss {float(losses[-1]):.4f} coverage {coverage}")
    slopes = (quantiles(fitted, jnp.array([4.0])) - quantiles(fitted, jnp.array([0.0])))[0] / 4.0
    print("  slopes per quantile", slopes)
    grid_q = quantiles(fitted, jnp.linspace(-2, 6, 50))
    print("  crossing anywhere:", bool(jnp.any(jnp.diff(grid_q, axis=1) < 0)))

# the pinball minimizer of a sample is its quantile
sample = jax.random.gamma(kc, 2.0, (101,))
grid = jnp.sort(sample)
risk = jax.vmap(lambda c: jnp.mean(pinball(sample - c, 0.7)))(grid)
best = grid[jnp.argmin(risk)]
print("argmin pinball", f"{float(best):.5f}", "jnp.quantile", f"{float(jnp.quantile(sample, 0.7)):.5f}",
      "lower", f"{float(jnp.quantile(sample, 0.7, method='lower')):.5f}",
      "nearest", f"{float(jnp.quantile(sample, 0.7, method='nearest')):.5f}")
sub = jax.grad(lambda c: jnp.mean(pinball(sample - c, 0.7)))(best)
print("subgradient at the minimizer is zero:", bool(jnp.abs(sub) < 1e-6))
print("d quantile / d sample nonzero at", jnp.nonzero(jax.grad(lambda s: jnp.quantile(s, 0.7))(sample))[0])
print("percentile of 10..90", jnp.percentile(sample, jnp.array([10.0, 50.0, 90.0]), method="midpoint"))


# straight-through estimator: forward rounds, backward is the identity
def ste_round(v):
    return v + lax.stop_gradient(jnp.round(v) - v)


v = jnp.array([0.2, 1.7, -2.5, 3.5])
print("ste forward", ste_round(v), "grad", jax.grad(lambda v: jnp.sum(ste_round(v) ** 2))(v))
print("plain round grad", jax.grad(lambda v: jnp.sum(jnp.round(v) ** 2))(v))
w = jnp.asarray(0.0)
for _ in range(20):
    w = w - 0.1 * jax.grad(lambda w: jnp.mean((ste_round(w * x) - 2.0 * x) ** 2))(w)
print("quantized slope", f"{float(w):.4f}")

# conformalized quantile regression: widen the 10-90 band by a calibration quantile
fitted, _ = train(params, False)
q_cal = quantiles(fitted, x[:200])
scores = jnp.maximum(q_cal[:, 0] - y[:200], y[:200] - q_cal[:, 2])
level = jnp.ceil((200 + 1) * 0.8) / 200
qhat = jnp.quantile(scores, level, method="higher")
q_test = quantiles(fitted, x[200:])
inside = (y[200:] >= q_test[:, 0] - qhat) & (y[200:] <= q_test[:, 2] + qhat)
print("conformal correction", f"{float(qhat):.4f}", "test coverage", f"{float(inside.mean()):.3f}")
