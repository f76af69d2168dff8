"""Paired-comparison and ranking models as sports-analytics and preference-learning code writes
them in JAX: a round-robin tournament simulated with jax.random.bernoulli from latent
skills, the Bradley-Terry maximum-likelihood skills by Newton's method with jax.hessian
(the sum-to-zero gauge fixed by a projection) against gradient ascent with jax.grad, online
Elo ratings in lax.scan, a Plackett-Luce model whose rankings are sampled by the Gumbel
trick (jax.random.gumbel + jnp.argsort) and whose log-likelihood uses a reverse
lax.cumlogsumexp, its skills fitted by jax.value_and_grad, and rank correlations (Kendall's
tau from pairwise signs, Spearman from double argsort)."""

import jax
import jax.numpy as jnp
from jax import lax, random

jnp.set_printoptions(precision=3, suppress=True)
PLAYERS = 8
skill = jnp.linspace(-1.5, 1.5, PLAYERS)
skill = skill[random.permutation(random.PRNGKey(0), PLAYERS)]
print("true skills", skill)

# every pair plays 6 games
i, j = jnp.triu_indices(PLAYERS, k=1)
i, j = jnp.repeat(i, 6), jnp.repeat(j, 6)
p_win = jax.nn.sigmoid(skill[i] - skill[j])
win = random.bernoulli(random.PRNGKey(1), p_win).astype(jnp.float32)
order = random.permutation(random.PRNGKey(2), i.shape[0])
i, j, win = i[order], j[order], win[order]
wins = jnp.zeros(PLAYERS).at[i].add(win).at[j].add(1.0 - win)
print("games", i.shape[0], "wins per player", wins)


def bt_log_likelihood(s):
    d = s[i] - s[j]
    return jnp.sum(win * jax.nn.log_sigmoid(d) + (1.0 - win) * jax.nn.log_sigmoid(-d)) - 0.01 * jnp.sum(s**2)


@jax.jit
def newton(s):
    def body(_, s):
        g, H = jax.grad(bt_log_likelihood)(s), jax.hessian(bt_log_likelihood)(s)
        s = s - jnp.linalg.solve(H, g)
        return s - s.mean()

    return lax.fori_loop(0, 8, body, s)


s_newton = newton(jnp.zeros(PLAYERS))
print("Bradley-Terry (Newton)", s_newton, f"log-lik {float(bt_log_likelihood(s_newton)):.4f}")
print("stationary:", bool(jnp.allclose(jax.grad(bt_log_likelihood)(s_newton), 0.0, atol=1e-3)))


@jax.jit
def gradient_ascent(s):
    return lax.fori_loop(0, 500, lambda _, s: s + 0.02 * jax.grad(bt_log_likelihood)(s), s)


s_ga = gradient_ascent(jnp.zeros(PLAYERS))
print("gradient ascent agrees:", bool(jnp.allclose(s_ga - s_ga.mean(), s_newton, atol=1e-3)))
# the covariance on the sum-to-zero subspace: the gauge direction's curvature fixed by 1 1^T / n
cov = jnp.linalg.inv(-jax.hessian(bt_log_likelihood)(s_newton) + jnp.ones((PLAYERS, PLAYERS)) / PLAYERS)
print("standard errors", jnp.sqrt(jnp.diag(cov)))


def elo(ratings, game, k=24.0):
    a, b, result = game
    expected = 1.0 / (1.0 + 10.0 ** ((ratings[b] - ratings[a]) / 400.0))
    delta = k * (result - expected)
    return ratings.at[a].add(delta).at[b].add(-delta), expected


ratings, expected = lax.scan(elo, jnp.full(PLAYERS, 1500.0), (i, j, win))
print("Elo ratings", ratings, f"mean {float(ratings.mean()):.1f}")
brier = jnp.mean((expected - win) ** 2)
print(f"Elo Brier score {float(brier):.4f} (coin flip 0.25)")


def kendall_tau(x, y):
    sx = jnp.sign(x[:, None] - x[None, :])
    sy = jnp.sign(y[:, None] - y[None, :])
    n = x.shape[0]
    return jnp.sum(sx * sy) / (n * (n - 1))


def spearman(x, y):
    rx = jnp.argsort(jnp.argsort(x)).astype(jnp.float32)
    ry = jnp.argsort(jnp.argsort(y)).astype(jnp.float32)
    return jnp.corrcoef(rx, ry)[0, 1]


print(
    f"Kendall tau BT {float(kendall_tau(s_newton, skill)):.4f} Elo {float(kendall_tau(ratings, skill)):.4f}",
    f"Spearman BT {float(spearman(s_newton, skill)):.4f}",
)


# Plackett-Luce: a ranking's probability is a product of softmax choices of the remaining items
def sample_ranking(key, s):
    return jnp.argsort(-(s + random.gumbel(key, s.shape)))


def pl_log_likelihood(s, ranking):
    ordered = s[ranking]
    tail_lse = lax.cumlogsumexp(ordered, reverse=True)  # log sum over the not-yet-chosen
    return jnp.sum(ordered - tail_lse)


rankings = jax.vmap(sample_ranking, in_axes=(0, None))(random.split(random.PRNGKey(3), 300), skill)
first = jnp.bincount(rankings[:, 0], length=PLAYERS) / 300.0
print("first-place frequency", first, "softmax", jax.nn.softmax(skill))

# brute force on 3 items: the PL probabilities of all 6 rankings sum to one
perms = jnp.array([[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]])
probs = jnp.exp(jax.vmap(pl_log_likelihood, in_axes=(None, 0))(skill[:3], perms))
print("PL probabilities of 3 items", probs, f"sum {float(probs.sum()):.6f}")


def pl_loss(s):
    return -jnp.mean(jax.vmap(pl_log_likelihood, in_axes=(None, 0))(s, rankings)) + 1e-3 * jnp.sum(s**2)


@jax.jit
def pl_step(s):
    loss, g = jax.value_and_grad(pl_loss)(s)
    s = s - 0.5 * g
    return s - s.mean(), loss


s_pl = jnp.zeros(PLAYERS)
for it in range(200):
    s_pl, loss = pl_step(s_pl)
    if it % 50 == 0 or it == 199:
        print(f"PL step {it:3d}: loss {float(loss):.4f}")
print("PL skills", s_pl, f"Kendall tau {float(kendall_tau(s_pl, skill)):.4f}")
