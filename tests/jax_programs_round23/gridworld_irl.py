"""Tabular reinforcement learning and maximum-entropy inverse RL on a gridworld as RL course
code writes it in JAX: a 5x5 slippery gridworld's transition tensor built with jnp.clip and
.at[].add, value iteration in lax.while_loop to a tolerance, policy evaluation by
jnp.linalg.solve inside policy iteration (lax.while_loop until the policy is stable), tabular
Q-learning with epsilon-greedy exploration in lax.scan over episodes with split keys,
soft (entropy-regularised) value iteration with logsumexp, expected state-visitation
frequencies by a forward lax.scan, and MaxEnt IRL: the demonstrations' log-likelihood
differentiated with jax.grad through soft value iteration to recover state rewards."""

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.scipy.special import logsumexp

jnp.set_printoptions(precision=3, suppress=True)
SIZE, GAMMA, SLIP = 5, 0.9, 0.1
S, A = SIZE * SIZE, 4
MOVES = jnp.array([[-1, 0], [0, 1], [1, 0], [0, -1]])  # up, right, down, left


def build_transitions():
    rows, cols = jnp.divmod(jnp.arange(S), SIZE)
    nxt = jnp.clip(jnp.stack([rows, cols], -1)[:, None, :] + MOVES[None], 0, SIZE - 1)
    target = nxt[..., 0] * SIZE + nxt[..., 1]  # (S, A)
    T = jnp.zeros((S, A, S))
    s_idx, a_idx = jnp.meshgrid(jnp.arange(S), jnp.arange(A), indexing="ij")
    T = T.at[s_idx, a_idx, target].add(1.0 - SLIP)
    for slip in range(A):  # slip uniformly into any direction
        T = T.at[s_idx, a_idx, target[:, slip][:, None]].add(SLIP / A)
    return T


T = build_transitions()
# a goal corner, a pit in the middle, and small distinct step costs (no tied actions)
R = jnp.zeros(S).at[S - 1].set(1.0).at[12].set(-0.5) - 0.05 * random.uniform(random.PRNGKey(11), (S,))
print("transitions stochastic:", bool(jnp.allclose(T.sum(-1), 1.0)), "shape", T.shape)


@jax.jit
def value_iteration(R, tol=1e-5):
    def cond(state):
        return (state[1] > tol) & (state[2] < 1000)

    def body(state):
        V, _, it = state
        V_new = jnp.max(R[:, None] + GAMMA * T @ V, axis=1)
        return V_new, jnp.max(jnp.abs(V_new - V)), it + 1

    V, _, iters = lax.while_loop(cond, body, (jnp.zeros(S), jnp.inf, 0))
    return V, iters


V, iters = value_iteration(R)
greedy = jnp.argmax(R[:, None] + GAMMA * T @ V, axis=1)
print("value iteration sweeps", int(iters), "V\n", V.reshape(SIZE, SIZE))
print("greedy policy (0=up 1=right 2=down 3=left)\n", greedy.reshape(SIZE, SIZE))


@jax.jit
def policy_iteration(R):
    def evaluate(pi):
        P_pi = T[jnp.arange(S), pi]  # (S, S)
        return jnp.linalg.solve(jnp.eye(S) - GAMMA * P_pi, R)

    def cond(state):
        return state[2] & (state[1] < 50)

    def body(state):
        pi, it, _ = state
        V = evaluate(pi)
        new_pi = jnp.argmax(R[:, None] + GAMMA * T @ V, axis=1)
        return new_pi, it + 1, jnp.any(new_pi != pi)

    myopic = jnp.argmax(T @ R, axis=1)  # the first policy: greedy on the next reward
    pi, it, _ = lax.while_loop(cond, body, (myopic, 0, True))
    return pi, evaluate(pi), it


pi, V_pi, pi_iters = policy_iteration(R)
print(
    "policy iteration rounds",
    int(pi_iters),
    "same policy:",
    bool(jnp.all(pi == greedy)),
    "same values:",
    bool(jnp.allclose(V_pi, V, atol=1e-4)),
)


@jax.jit
def q_learning(key, episodes=300, horizon=40, alpha=0.2, eps=0.2):
    def episode(Q, k):
        def step(carry, kk):
            s, Q = carry
            k1, k2, k3 = random.split(kk, 3)
            a = jnp.where(random.uniform(k1) < eps, random.randint(k2, (), 0, A), jnp.argmax(Q[s]))
            s2 = random.categorical(k3, jnp.log(T[s, a] + 1e-12))
            target = R[s] + GAMMA * jnp.max(Q[s2])
            Q = Q.at[s, a].add(alpha * (target - Q[s, a]))
            return (s2, Q), R[s]

        k0, ks = random.split(k)
        s0 = random.randint(k0, (), 0, S)
        (_, Q), rewards = lax.scan(step, (s0, Q), random.split(ks, horizon))
        return Q, rewards.sum()

    return lax.scan(episode, jnp.zeros((S, A)), random.split(key, episodes))


Q, returns = q_learning(random.PRNGKey(0))
print(
    "Q-learning mean return first 50",
    f"{float(returns[:50].mean()):.3f}",
    "last 50",
    f"{float(returns[-50:].mean()):.3f}",
)
print(
    "Q-greedy agrees with the optimal policy in", int(jnp.sum(jnp.argmax(Q, 1) == greedy)), "of", S, "states"
)


def soft_value_iteration(R, iters=60):
    def body(V, _):
        Qs = R[:, None] + GAMMA * T @ V
        return logsumexp(Qs, axis=1), None

    V = lax.scan(body, jnp.zeros(S), None, length=iters)[0]
    Qs = R[:, None] + GAMMA * T @ V
    return Qs - logsumexp(Qs, axis=1, keepdims=True)  # log pi(a|s)


def visitation(log_pi, start, horizon=15):
    def step(d, _):
        d_next = jnp.einsum("s,sa,sat->t", d, jnp.exp(log_pi), T)
        return d_next, d

    return lax.scan(step, start, None, length=horizon)[1].sum(0)


# demonstrations from the soft-optimal policy of the true reward
log_pi_true = soft_value_iteration(5.0 * R)
k_s, k_a = random.split(random.PRNGKey(1))
demo_states = random.randint(k_s, (400,), 0, S)
demo_actions = random.categorical(k_a, log_pi_true[demo_states])


def demo_log_likelihood(theta):
    return jnp.mean(soft_value_iteration(theta)[demo_states, demo_actions])


@jax.jit
def irl_step(theta):
    ll, g = jax.value_and_grad(demo_log_likelihood)(theta)
    return theta + 20.0 * g, ll


theta = jnp.zeros(S)
for it in range(150):
    theta, ll = irl_step(theta)
    if it % 50 == 0 or it == 149:
        print(f"IRL step {it:3d}: demo log-likelihood {float(ll):.4f}")
print(
    "recovered reward argmax",
    int(jnp.argmax(theta)),
    "argmin",
    int(jnp.argmin(theta)),
    "corr with true",
    f"{float(jnp.corrcoef(theta, R)[0, 1]):.3f}",
)
start = jnp.full(S, 1.0 / S)
svf = visitation(soft_value_iteration(theta), start)
print(
    "expected visits at goal",
    f"{float(svf[S - 1]):.3f}",
    "at pit",
    f"{float(svf[12]):.3f}",
    "total",
    f"{float(svf.sum()):.3f}",
)
