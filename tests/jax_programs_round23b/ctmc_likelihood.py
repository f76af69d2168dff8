"""A continuous-time Markov chain observed at irregular times: transition matrices by
``jax.scipy.linalg.expm``, the likelihood's gradient in the log rates, a fit by gradient
ascent in a jitted ``lax.scan``, the stationary distribution and mean first-passage times by
``jnp.linalg.solve``, and ``expm_frechet`` against a directional derivative of ``expm``."""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax, random
from jax.scipy.linalg import expm, expm_frechet

N_STATES = 3
MASK = 1.0 - jnp.eye(N_STATES)


def generator(log_rates):
    rates = jnp.exp(log_rates) * MASK
    return rates - jnp.diag(rates.sum(axis=1))


def transition(q, dt):
    return expm(q * dt)


true_log_rates = jnp.log(jnp.array([[1.0, 0.8, 0.2], [0.3, 1.0, 0.6], [0.5, 0.1, 1.0]]))
Q = generator(true_log_rates)
print("generator rows sum to", jnp.round(jnp.abs(Q.sum(axis=1)).max(), 6))

# simulate a path observed at random gaps
key = random.PRNGKey(23)
k_gap, k_path = random.split(key)
gaps = 0.2 + random.exponential(k_gap, (400,)) * 0.5
P_all = jax.vmap(transition, in_axes=(None, 0))(Q, gaps)
print("P(dt) rows sum to 1:", bool(jnp.allclose(P_all.sum(-1), 1.0, atol=1e-5)))
print("P(0.5) =\n", jnp.round(transition(Q, 0.5), 4))


def step(state, inputs):
    p, k = inputs
    nxt = random.categorical(k, jnp.log(p[state]))
    return nxt, nxt


keys = random.split(k_path, gaps.shape[0])
_, states = lax.scan(step, jnp.array(0), (P_all, keys))
starts = jnp.concatenate([jnp.array([0]), states[:-1]])
print("visits per state:", jnp.bincount(states, length=N_STATES))
counts = jnp.zeros((N_STATES, N_STATES)).at[starts, states].add(1.0)
print("transition counts:\n", counts.astype(jnp.int32))


def log_likelihood(log_rates, starts, ends, gaps):
    q = generator(log_rates)
    p = jax.vmap(transition, in_axes=(None, 0))(q, gaps)
    return jnp.sum(jnp.log(p[jnp.arange(gaps.shape[0]), starts, ends]))


ll_true = log_likelihood(true_log_rates, starts, states, gaps)
print("log-likelihood at the true rates:", jnp.round(ll_true, 3))

g = jax.grad(log_likelihood)(true_log_rates, starts, states, gaps)
print("gradient (off-diagonal):", jnp.round(g[MASK > 0], 3))
# directional check by a central difference
direction = MASK * jnp.array([[0.0, 1.0, -0.5], [0.3, 0.0, 0.2], [-0.4, 0.7, 0.0]])
eps = 0.05
fd = (log_likelihood(true_log_rates + eps * direction, starts, states, gaps)
      - log_likelihood(true_log_rates - eps * direction, starts, states, gaps)) / (2 * eps)
print("directional derivative: grad", jnp.round(jnp.sum(g * direction), 2), " central difference",
      jnp.round(fd, 2))


@jax.jit
def fit(log_rates0):
    def ascent(params, _):
        value, grad = jax.value_and_grad(log_likelihood)(params, starts, states, gaps)
        return params + 0.004 * grad * MASK, value

    return lax.scan(ascent, log_rates0, None, length=150)


start = jnp.zeros((N_STATES, N_STATES))
fitted, trace = fit(start)
print("log-likelihood trace:", jnp.round(trace[::30], 2))
print("fitted rates:\n", jnp.round(jnp.exp(fitted) * MASK, 2))
print("true rates:\n", jnp.round(jnp.exp(true_log_rates) * MASK, 2))

# stationary distribution: pi Q = 0, sum(pi) = 1, replacing one equation
Qf = generator(fitted)
A = Qf.T.at[-1].set(jnp.ones(N_STATES))
b = jnp.zeros(N_STATES).at[-1].set(1.0)
pi = jnp.linalg.solve(A, b)
print("stationary distribution:", jnp.round(pi, 4))
print("expm(50 Q) rows:", jnp.round(expm(50.0 * Qf)[0], 4))
print("empirical occupation:", jnp.round(jnp.bincount(states, length=N_STATES) / states.shape[0], 3))

# mean first-passage times into state 2: -Q_sub m = 1 over the other states
sub = Qf[:2, :2]
m = jnp.linalg.solve(-sub, jnp.ones(2))
print("mean first-passage times to state 2:", jnp.round(m, 3))


# its gradient in the rates: how much each rate shortens the passage
def passage(log_rates):
    q = generator(log_rates)
    return jnp.linalg.solve(-q[:2, :2], jnp.ones(2))[0]


gm = jax.grad(passage)(fitted)
print("d passage / d log-rate:", jnp.round(gm[MASK > 0], 3))

# the Frechet derivative of expm against jvp
E = np.array([[0.0, 0.5, -0.5], [0.2, -0.2, 0.0], [0.1, 0.0, -0.1]])
expA, frechet = expm_frechet(Q * 0.7, jnp.asarray(E))
_, tangent = jax.jvp(expm, (Q * 0.7,), (jnp.asarray(E),))
print("expm_frechet == jvp(expm):", bool(jnp.allclose(frechet, tangent, atol=1e-5)))
print("frechet derivative:\n", jnp.round(frechet, 4))
print("dtype:", frechet.dtype, expA.dtype)
