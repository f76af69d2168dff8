"""CMA-ES (Hansen's covariance matrix adaptation evolution strategy) as evosax-style code
writes it in JAX: the strategy state as a NamedTuple pytree, recombination weights and
learning rates from the population size, sampling through the Cholesky factor of C
(jnp.linalg.cholesky: unique, where eigh's eigenvectors of the initial C = I are arbitrary) with
jax.random.normal, ranking by jnp.argsort of vmapped fitness,
cumulative step-size adaptation and the rank-one and rank-mu covariance updates with
jnp.outer / einsum, the generation loop in lax.scan, restarts vmapped over seeds, the learned
covariance's spectrum by jnp.linalg.eigvalsh."""

from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import lax, random

jnp.set_printoptions(precision=4, suppress=True)
DIM, POP = 4, 12
MU = POP // 2
raw = jnp.log(MU + 0.5) - jnp.log(jnp.arange(1, MU + 1))
WEIGHTS = raw / raw.sum()
MU_EFF = 1.0 / jnp.sum(WEIGHTS**2)
C_SIGMA = (MU_EFF + 2.0) / (DIM + MU_EFF + 5.0)
D_SIGMA = 1.0 + 2.0 * jnp.maximum(0.0, jnp.sqrt((MU_EFF - 1.0) / (DIM + 1.0)) - 1.0) + C_SIGMA
C_C = (4.0 + MU_EFF / DIM) / (DIM + 4.0 + 2.0 * MU_EFF / DIM)
C_1 = 2.0 / ((DIM + 1.3) ** 2 + MU_EFF)
C_MU = jnp.minimum(1.0 - C_1, 2.0 * (MU_EFF - 2.0 + 1.0 / MU_EFF) / ((DIM + 2.0) ** 2 + MU_EFF))
CHI_N = jnp.sqrt(DIM) * (1.0 - 1.0 / (4.0 * DIM) + 1.0 / (21.0 * DIM**2))


class State(NamedTuple):
    mean: jnp.ndarray
    sigma: jnp.ndarray
    C: jnp.ndarray
    p_sigma: jnp.ndarray
    p_c: jnp.ndarray
    best: jnp.ndarray


def rosenbrock(x):
    return jnp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)


def ellipsoid(x):
    return jnp.sum(10.0 ** (3.0 * jnp.arange(DIM) / (DIM - 1)) * x**2)


def cma_generation(f, state, key):
    L = jnp.linalg.cholesky(state.C)
    z = random.normal(key, (POP, DIM))
    y = z @ L.T  # y ~ N(0, C)
    x = state.mean + state.sigma * y
    fitness = jax.vmap(f)(x)
    order = jnp.argsort(fitness)[:MU]
    y_w, z_w = WEIGHTS @ y[order], WEIGHTS @ z[order]  # z_w = L^-1 y_w
    mean = state.mean + state.sigma * y_w
    p_sigma = (1.0 - C_SIGMA) * state.p_sigma + jnp.sqrt(C_SIGMA * (2.0 - C_SIGMA) * MU_EFF) * z_w
    h_sigma = jnp.linalg.norm(p_sigma) / CHI_N < 1.4 + 2.0 / (DIM + 1.0)
    p_c = (1.0 - C_C) * state.p_c + h_sigma * jnp.sqrt(C_C * (2.0 - C_C) * MU_EFF) * y_w
    rank_mu = jnp.einsum("k,ki,kj->ij", WEIGHTS, y[order], y[order])
    C = (1.0 - C_1 - C_MU) * state.C + C_1 * jnp.outer(p_c, p_c) + C_MU * rank_mu
    C = (C + C.T) / 2.0
    sigma = state.sigma * jnp.exp(C_SIGMA / D_SIGMA * (jnp.linalg.norm(p_sigma) / CHI_N - 1.0))
    best = jnp.minimum(state.best, fitness[order[0]])
    return State(mean, sigma, C, p_sigma, p_c, best), (best, sigma)


def run_cma(f, key, x0, generations=60):
    init = State(x0, jnp.asarray(0.5), jnp.eye(DIM), jnp.zeros(DIM), jnp.zeros(DIM), jnp.asarray(jnp.inf))
    return lax.scan(lambda s, k: cma_generation(f, s, k), init, random.split(key, generations))


for name, f, x0 in (("ellipsoid", ellipsoid, jnp.ones(DIM)), ("rosenbrock", rosenbrock, jnp.zeros(DIM))):
    state, (best, sigma) = jax.jit(lambda k: run_cma(f, k, x0))(random.PRNGKey(0))
    print(f"{name}: best after 20/40/60 generations", best[jnp.array([19, 39, 59])])
    print("  mean", state.mean, f"sigma {float(state.sigma):.3e}")
    spectrum = jnp.linalg.eigvalsh(state.C)
    print(
        f"  covariance condition number {float(spectrum[-1] / spectrum[0]):.3e}",
        "symmetric:",
        bool(jnp.allclose(state.C, state.C.T)),
    )

# five restarts from different seeds and starting points in one vmapped call
keys = random.split(random.PRNGKey(7), 5)
starts = random.uniform(random.PRNGKey(8), (5, DIM), minval=-2.0, maxval=2.0)
states, (bests, _) = jax.jit(jax.vmap(lambda k, x0: run_cma(rosenbrock, k, x0)))(keys, starts)
print("restarts' final best", bests[:, -1], "solved:", jnp.sum(bests[:, -1] < 1e-4))
print("weights", WEIGHTS, f"mu_eff {float(MU_EFF):.3f} c_1 {float(C_1):.4f} c_mu {float(C_MU):.4f}")
