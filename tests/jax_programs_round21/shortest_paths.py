"""All-pairs and single-source shortest paths on a small weighted digraph in JAX, as graph
algorithm notebooks write them with lax loops: Floyd-Warshall by lax.fori_loop over the
pivot, repeated min-plus "squaring" by lax.while_loop until nothing changes, Bellman-Ford
with negative edges and a cycle check, integer-weight versions with jnp.iinfo sentinels and
jnp.minimum on int32, path reconstruction from a successor matrix in a while_loop, vmap over
a batch of perturbed graphs, and the soft (log-sum-exp) min-plus relaxation whose gradient
wrt the edge weights is the expected edge usage, checked against the hard path as the
temperature goes to zero."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.scipy.special import logsumexp

jnp.set_printoptions(precision=4, suppress=True)
INF = jnp.inf
n = 6
edges = [(0, 1, 7.0), (0, 2, 9.0), (0, 5, 14.0), (1, 2, 10.0), (1, 3, 15.0), (2, 3, 11.0),
         (2, 5, 2.0), (3, 4, 6.0), (4, 5, 9.0), (5, 4, 9.0), (1, 0, 7.0), (2, 0, 9.0)]
src = jnp.array([e[0] for e in edges])
dst = jnp.array([e[1] for e in edges])
w = jnp.array([e[2] for e in edges])


def adjacency(weights):
    A = jnp.full((n, n), INF).at[src, dst].min(weights)
    return jnp.where(jnp.eye(n, dtype=bool), 0.0, A)


def floyd_warshall(A):
    succ0 = jnp.where(jnp.isfinite(A), jnp.arange(n)[None, :], -1)

    def body(k, state):
        D, succ = state
        via = D[:, k, None] + D[None, k, :]
        better = via < D
        return jnp.where(better, via, D), jnp.where(better, succ[:, k, None], succ)

    return lax.fori_loop(0, n, body, (A, succ0))


def min_plus(A, B):
    return jnp.min(A[:, :, None] + B[None, :, :], axis=1)


def by_squaring(A):
    def cond(state):
        D, prev, it = state
        return jnp.any(D != prev) & (it < 10)

    def body(state):
        D, _, it = state
        return min_plus(D, D), D, it + 1

    D, _, iters = lax.while_loop(cond, body, (min_plus(A, A), A, 1))
    return D, iters


A = adjacency(w)
D, succ = floyd_warshall(A)
print("distances from 0", D[0])
print("distance matrix\n", D)
D2, iters = by_squaring(A)
print("min-plus squaring agrees:", bool(jnp.array_equal(D, D2)), "after", int(iters), "squarings")


def path(succ, i, j):
    def cond(state):
        node, buf, k = state
        return (node != j) & (k < n)

    def body(state):
        node, buf, k = state
        nxt = succ[node, j]
        return nxt, buf.at[k].set(nxt), k + 1

    _, buf, k = lax.while_loop(cond, body, (i, jnp.full((n,), -1).at[0].set(i), 1))
    return buf, k


print("path 0 -> 4", path(succ, 0, 4))

# integer weights with an int32 sentinel (no inf for integers)
BIG = jnp.iinfo(jnp.int32).max // 4
Ai = jnp.full((n, n), BIG, jnp.int32).at[src, dst].set(w.astype(jnp.int32))
Ai = jnp.where(jnp.eye(n, dtype=bool), 0, Ai)
Di = lax.fori_loop(0, n, lambda k, D: jnp.minimum(D, D[:, k, None] + D[None, k, :]), Ai)
print("int32 distances from 0", Di[0], Di.dtype, "match:",
      bool(jnp.all(jnp.where(jnp.isfinite(D), Di == jnp.where(jnp.isfinite(D), D, 0).astype(jnp.int32),
                             Di == BIG))))


def bellman_ford(weights, source):
    dist = jnp.full((n,), INF).at[source].set(0.0)

    def relax(_, dist):
        return dist.at[dst].min(dist[src] + weights)

    dist = lax.fori_loop(0, n - 1, relax, dist)
    negative_cycle = jnp.any(dist[src] + weights < dist[dst])
    return dist, negative_cycle


print("bellman-ford", bellman_ford(w, 0))
w_neg = w.at[6].set(-3.0)  # 2 -> 5 negative, no cycle
print("with a negative edge", bellman_ford(w_neg, 0))
w_cycle = w_neg.at[9].set(-8.0).at[8].set(1.0)  # 5 -> 4 -> 5 has weight -7
print("negative cycle detected:", bool(bellman_ford(w_cycle, 0)[1]))

# a batch of perturbed graphs
noise = jax.random.uniform(jax.random.PRNGKey(0), (4, w.size), minval=0.0, maxval=5.0)
batch = jax.vmap(lambda ww: floyd_warshall(adjacency(ww))[0][0, 4])(w + noise)
print("batched d(0,4)", batch)


def soft_distance(weights, i, j, tau):
    A = adjacency(weights)

    def body(_, d):
        return jnp.minimum(d, -tau * logsumexp(-(d[:, None] + A) / tau, axis=0))

    d = lax.fori_loop(0, n, body, jnp.full((n,), 1e4).at[i].set(0.0))
    return d[j]


for tau in [1.0, 0.1, 0.01]:
    value, usage = jax.value_and_grad(soft_distance)(w, 0, 4, tau)
    print(f"tau={tau}: soft d(0,4) {float(value):.4f} edge usage {usage}")
print("hard path edges:", [edges[int(e)][:2] for e in jnp.nonzero(usage > 0.5)[0]])
