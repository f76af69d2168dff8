"""Dynamic programming with lax.scan and lax.fori_loop (as in sequence-alignment and soft-DTW
code written in JAX): Levenshtein edit distance row by row with scan, the longest common
subsequence with a fori_loop over a 2-D table updated by .at[], 0/1 knapsack over a value
table, soft-DTW with a logsumexp-based soft minimum and its gradient (the expected alignment),
Needleman-Wunsch scores vmapped over a batch of pairs, and a shortest path by Bellman-Ford
relaxations in a fori_loop."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.scipy.special import logsumexp


def edit_distance(a, b):
    n = b.shape[0]

    def row(prev, ca):
        def cell(left, inp):
            up, diag, cb = inp
            val = jnp.minimum(jnp.minimum(up + 1, left + 1), diag + (ca != cb))
            return val, val

        first = prev[0] + 1
        _, rest = lax.scan(cell, first, (prev[1:], prev[:-1], b))
        new = jnp.concatenate([first[None], rest])
        return new, new[-1]

    _, last = lax.scan(row, jnp.arange(n + 1), a)
    return last[-1]


def encode(s):
    return jnp.array([ord(c) for c in s])


print(edit_distance(encode("kitten"), encode("sitting")), edit_distance(encode("flaw"), encode("lawn")))
print(jax.jit(edit_distance)(encode("intention"), encode("execution")))


def lcs(a, b):
    n, m = a.shape[0], b.shape[0]
    table = jnp.zeros((n + 1, m + 1), jnp.int32)

    def body(k, t):
        i, j = k // m + 1, k % m + 1
        v = jnp.where(a[i - 1] == b[j - 1], t[i - 1, j - 1] + 1, jnp.maximum(t[i - 1, j], t[i, j - 1]))
        return t.at[i, j].set(v)

    return lax.fori_loop(0, n * m, body, table)[n, m]


print(lcs(encode("ABCBDAB"), encode("BDCABA")), lcs(encode("AGGTAB"), encode("GXTXAYB")))


def knapsack(weights, values, capacity):
    def item(best, wv):
        w, v = wv
        cand = jnp.where(jnp.arange(capacity + 1) >= w,
                         jnp.roll(best, w) + v, -1)
        return jnp.maximum(best, cand), None

    best, _ = lax.scan(item, jnp.zeros(capacity + 1, values.dtype), (weights, values))
    return best


print(knapsack(jnp.array([1, 3, 4, 5]), jnp.array([1, 4, 5, 7]), 7))


def softmin(x, gamma):
    return -gamma * logsumexp(-x / gamma)


def soft_dtw(x, y, gamma=0.1):
    D = (x[:, None] - y[None, :]) ** 2
    n, m = D.shape
    R = jnp.full((n + 1, m + 1), jnp.inf).at[0, 0].set(0.0)

    def body(k, R):
        i, j = k // m + 1, k % m + 1
        r = softmin(jnp.stack([R[i - 1, j - 1], R[i - 1, j], R[i, j - 1]]), gamma)
        return R.at[i, j].set(D[i - 1, j - 1] + r)

    return lax.fori_loop(0, n * m, body, R)[n, m]


x = jnp.sin(jnp.linspace(0, 3, 6))
y = jnp.sin(jnp.linspace(0.3, 3.3, 5))
print(jnp.round(soft_dtw(x, y), 4), jnp.round(soft_dtw(x, y, gamma=1.0), 4), soft_dtw(x, x, 1e-3) < 1e-3)
gx = jax.grad(soft_dtw)(x, y)
print(jnp.round(gx, 4))
print(jnp.round(jax.grad(soft_dtw, argnums=1)(x, y), 4))


def needleman_wunsch(a, b, match=1.0, mismatch=-1.0, gap=-1.0):
    n, m = a.shape[0], b.shape[0]
    F = jnp.zeros((n + 1, m + 1)).at[:, 0].set(gap * jnp.arange(n + 1)).at[0, :].set(gap * jnp.arange(m + 1))

    def body(k, F):
        i, j = k // m + 1, k % m + 1
        s = jnp.where(a[i - 1] == b[j - 1], match, mismatch)
        return F.at[i, j].set(jnp.max(jnp.array([F[i - 1, j - 1] + s, F[i - 1, j] + gap, F[i, j - 1] + gap])))

    return lax.fori_loop(0, n * m, body, F)[n, m]


A = jnp.array([[0, 1, 2, 3, 1], [2, 2, 1, 0, 3], [1, 1, 1, 1, 1]])
B = jnp.array([[0, 1, 3, 1, 1], [2, 1, 0, 3, 3], [1, 0, 1, 0, 1]])
print(jax.vmap(needleman_wunsch)(A, B))

inf = jnp.inf
W = jnp.array([[0, 4, inf, 5, inf],
               [inf, 0, 1, inf, 6],
               [2, inf, 0, 3, inf],
               [inf, inf, 1, 0, 2],
               [1, inf, inf, 4, 0]])


def bellman_ford(W, src):
    dist = jnp.full(W.shape[0], jnp.inf).at[src].set(0.0)
    return lax.fori_loop(0, W.shape[0] - 1, lambda _, d: jnp.min(d[:, None] + W, axis=0), dist)


print(bellman_ford(W, 0), jax.vmap(bellman_ford, (None, 0))(W, jnp.arange(5))[:, 4])
