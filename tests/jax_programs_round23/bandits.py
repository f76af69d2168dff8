"""Multi-armed bandits as reinforcement-learning tutorials write them in JAX: a Bernoulli bandit
whose agents are pure functions of (state, key) stepped by lax.scan and vmapped over
independent runs with split keys -- epsilon-greedy (jax.random.uniform / randint), UCB1 with
the log-count bonus, Thompson sampling from Beta posteriors (jax.random.beta) -- cumulative
regret curves, a Gaussian bandit with conjugate normal posteriors and Thompson sampling by
jax.random.normal, a contextual linear bandit (LinUCB with Sherman-Morrison rank-one updates
against jnp.linalg.inv), and gradient bandits (softmax preferences, jax.random.categorical,
baseline) whose update is checked against jax.grad of the expected reward."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax, random

jnp.set_printoptions(precision=4, suppress=True)
P = jnp.array([0.15, 0.35, 0.5, 0.55, 0.3])
ARMS, T, RUNS = P.shape[0], 400, 16


def pull(key, arm):
    return random.bernoulli(key, P[arm]).astype(jnp.float32)


def epsilon_greedy(state, key, t, eps=0.1):
    counts, values = state
    k1, k2 = random.split(key)
    explore = random.uniform(k1) < eps
    return jnp.where(explore, random.randint(k2, (), 0, ARMS), jnp.argmax(values))


def ucb1(state, key, t):
    counts, values = state
    bonus = jnp.sqrt(2.0 * jnp.log(t + 1.0) / jnp.maximum(counts, 1e-9))
    return jnp.where(jnp.any(counts == 0), jnp.argmin(counts), jnp.argmax(values + bonus))


def thompson(state, key, t):
    counts, values = state
    wins = values * counts
    return jnp.argmax(random.beta(key, 1.0 + wins, 1.0 + counts - wins))


@partial(jax.jit, static_argnums=0)
def run(policy, key):
    def step(state, inp):
        t, k = inp
        k_act, k_pull = random.split(k)
        arm = policy(state, k_act, t)
        r = pull(k_pull, arm)
        counts, values = state
        counts = counts.at[arm].add(1.0)
        values = values.at[arm].add((r - values[arm]) / counts[arm])
        return (counts, values), (r, P.max() - P[arm])

    init = (jnp.zeros(ARMS), jnp.zeros(ARMS))
    (counts, _), (rewards, regret) = lax.scan(
        step, init, (jnp.arange(T, dtype=jnp.float32), random.split(key, T))
    )
    return counts, jnp.cumsum(regret), rewards.sum()


keys = random.split(random.PRNGKey(42), RUNS)
for name, policy in (("eps-greedy", epsilon_greedy), ("UCB1", ucb1), ("Thompson", thompson)):
    counts, regret, total = jax.vmap(partial(run, policy))(keys)
    print(
        f"{name:10s} regret@100 {float(regret[:, 99].mean()):6.2f}",
        f"regret@{T} {float(regret[:, -1].mean()):6.2f}",
        f"reward {float(total.mean()):.2f} best-arm share {float(counts[:, 3].mean() / T):.3f}",
    )

# Gaussian bandit: unknown means, known noise 1, N(0, 1) priors; Thompson by normal draws
MU = jnp.array([0.2, -0.4, 0.9, 0.6])


def gaussian_thompson(key):
    def step(carry, k):
        prec, mean_times_prec = carry
        k1, k2 = random.split(k)
        sample = mean_times_prec / prec + random.normal(k1, (4,)) / jnp.sqrt(prec)
        arm = jnp.argmax(sample)
        r = MU[arm] + random.normal(k2)
        return (prec.at[arm].add(1.0), mean_times_prec.at[arm].add(r)), arm

    (prec, mtp), arms = lax.scan(step, (jnp.ones(4), jnp.zeros(4)), random.split(key, 300))
    return mtp / prec, jnp.bincount(arms, length=4)


post_mean, pulls = jax.vmap(gaussian_thompson)(random.split(random.PRNGKey(1), 8))
print("gaussian TS posterior means (run 0)", post_mean[0], "pulls per arm (avg)", pulls.mean(0))

# LinUCB: reward = <theta_a, x> + noise; A^{-1} by Sherman-Morrison, checked against inv
D = 3
theta = random.normal(random.PRNGKey(5), (ARMS, D)) * 0.5


def linucb(key, alpha=0.5):
    def step(carry, k):
        A_inv, b = carry
        kx, kr = random.split(k)
        x = random.normal(kx, (D,))
        theta_hat = jnp.einsum("aij,aj->ai", A_inv, b)
        ucb = theta_hat @ x + alpha * jnp.sqrt(jnp.einsum("i,aij,j->a", x, A_inv, x))
        arm = jnp.argmax(ucb)
        r = theta[arm] @ x + 0.1 * random.normal(kr)
        Ax = A_inv[arm] @ x
        A_inv = A_inv.at[arm].add(-jnp.outer(Ax, Ax) / (1.0 + x @ Ax))
        return (A_inv, b.at[arm].add(r * x)), (jnp.max(theta @ x) - theta[arm] @ x, arm, x)

    init = (jnp.broadcast_to(jnp.eye(D), (ARMS, D, D)), jnp.zeros((ARMS, D)))
    (A_inv, b), (regret, arms, xs) = lax.scan(step, init, random.split(key, 300))
    return A_inv, b, regret, arms, xs


A_inv, b, regret, arms, xs = linucb(random.PRNGKey(9))
onehot = jax.nn.one_hot(arms, ARMS)
A = jnp.eye(D) + jnp.einsum("ta,ti,tj->aij", onehot, xs, xs)
print("Sherman-Morrison == inv:", bool(jnp.allclose(A_inv, jnp.linalg.inv(A), atol=1e-4)))
print(f"LinUCB regret first 100 {float(regret[:100].sum()):.3f} last 100 {float(regret[-100:].sum()):.3f}")
print("theta error per arm", jnp.linalg.norm(jnp.einsum("aij,aj->ai", A_inv, b) - theta, axis=1))


# gradient bandit: preferences H, policy softmax(H); the exact expected-reward gradient
def expected_reward(H):
    return jax.nn.softmax(H) @ P


def gradient_bandit(key, lr=0.2):
    def step(carry, k):
        H, baseline, t = carry
        k1, k2 = random.split(k)
        pi = jax.nn.softmax(H)
        arm = random.categorical(k1, H)
        r = pull(k2, arm)
        H = H + lr * (r - baseline) * (jax.nn.one_hot(arm, ARMS) - pi)
        return (H, baseline + (r - baseline) / (t + 1.0), t + 1.0), r

    (H, _, _), rewards = lax.scan(step, (jnp.zeros(ARMS), 0.0, 0.0), random.split(key, 1000))
    return H, rewards


H, rewards = gradient_bandit(random.PRNGKey(3))
print("gradient bandit policy", jax.nn.softmax(H), f"mean reward {float(rewards.mean()):.3f}")
g = jax.grad(expected_reward)(H)
pi = jax.nn.softmax(H)
print("grad E[r] == pi * (P - pi.P):", bool(jnp.allclose(g, pi * (P - pi @ P), atol=1e-6)), g)
