"""Collaborative filtering by matrix factorisation as recommender tutorials write it in JAX:
synthetic ratings from low-rank factors, an explicit (user, item, rating) triplet list,
embedding lookups with biases, minibatch SGD with weight decay in a jitted step (gradients to
embedding tables as scatter-adds), per-user rating counts by jax.ops.segment_sum, alternating
least squares with a vmapped jnp.linalg.solve per user and per item (masked normal equations
from dense one-hot-free gathers), RMSE on held-out pairs, and top-k recommendations by
lax.top_k after masking seen items with -inf."""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

jnp.set_printoptions(precision=4, suppress=True)
USERS, ITEMS, RANK = 30, 20, 3

key = jax.random.PRNGKey(11)
ku, ki, kn, ks, kinit = jax.random.split(key, 5)
U_true = jax.random.normal(ku, (USERS, RANK))
V_true = jax.random.normal(ki, (ITEMS, RANK))
full = U_true @ V_true.T + 0.1 * jax.random.normal(kn, (USERS, ITEMS))
observed = jax.random.bernoulli(ks, 0.4, (USERS, ITEMS))
users, items = jnp.nonzero(observed)
ratings = full[users, items]
perm = jax.random.permutation(jax.random.PRNGKey(0), users.shape[0])
n_test = users.shape[0] // 5
test, train = perm[:n_test], perm[n_test:]
print("ratings", ratings.shape, ratings.dtype, "train", train.shape[0], "test", test.shape[0])
counts = jax.ops.segment_sum(jnp.ones_like(train), users[train], num_segments=USERS)
print(
    "ratings per user: min",
    int(counts.min()),
    "max",
    int(counts.max()),
    "mean",
    f"{float(counts.mean()):.3f}",
)


def predict(params, u, i):
    return (
        jnp.sum(params["U"][u] * params["V"][i], axis=-1) + params["bu"][u] + params["bi"][i] + params["mu"]
    )


def loss(params, u, i, r, wd=0.02):
    err = predict(params, u, i) - r
    reg = wd * (jnp.sum(params["U"][u] ** 2) + jnp.sum(params["V"][i] ** 2)) / u.shape[0]
    return jnp.mean(err**2) + reg


def rmse(params, idx):
    return jnp.sqrt(jnp.mean((predict(params, users[idx], items[idx]) - ratings[idx]) ** 2))


k1, k2 = jax.random.split(kinit)
params = {
    "U": 0.1 * jax.random.normal(k1, (USERS, RANK)),
    "V": 0.1 * jax.random.normal(k2, (ITEMS, RANK)),
    "bu": jnp.zeros(USERS),
    "bi": jnp.zeros(ITEMS),
    "mu": jnp.mean(ratings[train]),
}


@jax.jit
def epoch(params, key):
    order = jax.random.permutation(key, train)
    batches = order[: (order.shape[0] // 16) * 16].reshape(-1, 16)

    def step(p, b):
        g = jax.grad(loss)(p, users[b], items[b], ratings[b])
        g["mu"] = jnp.zeros_like(g["mu"])  # keep the global mean fixed
        return jax.tree.map(lambda a, d: a - 0.1 * d, p, g), None

    return lax.scan(step, params, batches)[0]


g = jax.grad(loss)(params, users[train[:5]], items[train[:5]], ratings[train[:5]])
print(
    "embedding gradient touches rows",
    jnp.nonzero(jnp.any(g["U"] != 0, axis=1))[0],
    "of users",
    jnp.sort(users[train[:5]]),
)
key = jax.random.PRNGKey(1)
for ep in range(60):
    key, k = jax.random.split(key)
    params = epoch(params, k)
    if ep % 20 == 0:
        print(f"epoch {ep:2d} train {float(rmse(params, train)):.4f} test {float(rmse(params, test)):.4f}")
print("SGD final: train", f"{float(rmse(params, train)):.4f}", "test", f"{float(rmse(params, test)):.4f}")

# alternating least squares on the train mask
mask = jnp.zeros((USERS, ITEMS), bool).at[users[train], items[train]].set(True)
R = jnp.where(mask, full, 0.0)


def solve_rows(R, mask, F, lam=0.1):
    def one(r, m):
        Fm = F * m[:, None]
        A = Fm.T @ F + lam * jnp.eye(F.shape[1])
        return jnp.linalg.solve(A, Fm.T @ r)

    return jax.vmap(one)(R, mask)


@jax.jit
def als(U, V):
    def sweep(carry, _):
        U, V = carry
        U = solve_rows(R, mask, V)
        V = solve_rows(R.T, mask.T, U)
        err = jnp.sqrt(jnp.sum(jnp.where(mask, U @ V.T - full, 0.0) ** 2) / jnp.sum(mask))
        return (U, V), err

    return lax.scan(sweep, (U, V), None, length=15)


(U, V), errs = als(0.1 * jax.random.normal(k1, (USERS, RANK)), 0.1 * jax.random.normal(k2, (ITEMS, RANK)))
print("ALS train rmse per sweep", errs[jnp.array([0, 4, 14])])
als_test = jnp.sqrt(jnp.mean(((U @ V.T)[users[test], items[test]] - ratings[test]) ** 2))
print(
    "ALS test rmse", f"{float(als_test):.4f}", "train rmse decreasing:", bool(jnp.all(jnp.diff(errs) <= 1e-6))
)

# recommendations: best unseen items per user
scores = jnp.where(observed, -jnp.inf, U @ V.T)
top_scores, top_items = lax.top_k(scores, 3)
print("top-3 unseen items for users 0-3\n", top_items[:4], "\n", top_scores[:4])
hits = jnp.take_along_axis(full, top_items, axis=1) > jnp.median(full, axis=1, keepdims=True)
print("recommended items above the user's median true rating", f"{float(hits.mean()):.3f}")
print("never recommends a seen item:", bool(~jnp.any(jnp.take_along_axis(observed, top_items, axis=1))))
print("numpy view of user 0's factors", np.asarray(U[0]).round(3))
