"""Run under ``mpiexec -n N``: every collective of fgrad.distributed, its AD and batching
rules, jit with collectives, data-parallel training against full-batch training, and the
mismatch error (cheap default check and debug mode).  Each process checks its own
results and prints ``OK <rank>``;
any failure raises (and, through the abort hook, ends the job with a traceback).

Usage: mpiexec -n 2 python tests/mpi_programs/mpi_functional.py [steps]
"""

import sys

import numpy as np

import fgrad
import fgrad.distributed as dist
import fgrad.numpy as fnp
from fgrad.backends import world as W


def close(a, b, tol=1e-12, what=""):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape, (what, a.shape, b.shape)
    assert np.allclose(a, b, rtol=tol, atol=tol), (what, a, b)


def collectives(n, r):
    v = np.arange(3.0)
    x = (r + 1) * v
    tri = n * (n + 1) / 2
    close(dist.psum(x), tri * v, what="psum")
    close(dist.pmean(x), tri / n * v, what="pmean")
    close(dist.pmax(x - r), np.max([(q + 1) * v - q for q in range(n)], axis=0), what="pmax")
    close(dist.pmin(x), v, what="pmin")
    close(dist.psum({"a": 1.0, "b": np.ones(2)})["b"], n * np.ones(2), what="psum tree")
    # all_gather: stacked, on another axis, tiled
    ref = np.stack([(q + 1) * v for q in range(n)])
    close(dist.all_gather(x), ref, what="all_gather")
    close(dist.all_gather(x[None], axis=1), ref[None], what="all_gather axis=1")
    close(dist.all_gather(x, tiled=True), ref.reshape(-1), what="all_gather tiled")
    # psum_scatter: process r keeps block r of the sum
    y = np.arange(n * 2.0).reshape(n, 2) * (r + 1)
    close(dist.psum_scatter(y), tri * np.arange(n * 2.0).reshape(n, 2)[r], what="psum_scatter")
    yt = np.arange(n * 4.0).reshape(2, n * 2) * (r + 1)
    close(dist.psum_scatter(yt, scatter_dimension=1, tiled=True),
          tri * np.arange(n * 4.0).reshape(2, n * 2)[:, 2 * r:2 * r + 2], what="psum_scatter tiled")
    # ppermute: a ring, and a partial permutation (non-destinations get zeros)
    ring = [(q, (q + 1) % n) for q in range(n)]
    close(dist.ppermute(x, perm=ring), ((r - 1) % n + 1) * v, what="ppermute ring")
    close(dist.ppermute(x, perm=[(0, n - 1)]), v if r == n - 1 else 0 * v, what="ppermute partial")
    close(dist.broadcast(x, root=n - 1), n * v, what="broadcast")
    dist.barrier()


def derivatives(n, r):
    tri = n * (n + 1) / 2
    v = np.arange(1.0, 4.0)
    x = (r + 1) * v
    # JVPs: linear collectives map tangents like values
    _, t = fgrad.jvp(lambda a: dist.psum(a), (x,), (v * (r + 1),))
    close(t, tri * v, what="jvp psum")
    _, t = fgrad.jvp(lambda a: dist.all_gather(a), (x,), (x,))
    close(t, np.stack([(q + 1) * v for q in range(n)]), what="jvp all_gather")
    # pmax's tangent is the winner's (the last process holds the max)
    _, t = fgrad.jvp(dist.pmax, (x,), (np.full(3, float(r)),))
    close(t, np.full(3, float(n - 1)), what="jvp pmax")
    # transposes: psum -> pvary (identity), pvary -> psum
    g = fgrad.grad(lambda a: (dist.psum(a) * v).sum())(x)
    close(g, v, what="grad psum (transpose is pvary: local cotangent)")
    g = fgrad.grad(lambda w: (dist.pvary(w) * x).sum())(v)
    close(g, tri * v, what="grad pvary (transpose is psum)")
    # all_gather <-> psum_scatter
    cts = np.stack([(r + 1) * (j + 1) * v for j in range(n)])
    g = fgrad.vjp(dist.all_gather, x)[1](cts)[0]
    close(g, (r + 1) * tri * v, what="vjp all_gather")
    g = fgrad.vjp(dist.psum_scatter, np.stack([x] * n))[1]((r + 1) * v)[0]
    close(g, np.stack([(q + 1) * v for q in range(n)]), what="vjp psum_scatter")
    ring = [(q, (q + 1) % n) for q in range(n)]
    g = fgrad.vjp(lambda a: dist.ppermute(a, perm=ring), x)[1]((r + 1) * v)[0]
    close(g, ((r + 1) % n + 1) * v, what="vjp ppermute (inverse permutation)")
    g = fgrad.vjp(lambda a: dist.broadcast(a, root=0), x)[1]((r + 1) * v)[0]
    close(g, tri * v if r == 0 else 0 * v, what="vjp broadcast (sum into the root)")
    # pmean of a per-process loss: the gradient of replicated params is the mean gradient
    g = fgrad.grad(lambda w: dist.pmean((dist.pvary(w) * x).sum()))(v)
    close(g, tri / n * v, what="grad pmean(pvary)")
    # second order through a collective: d2/dw2 of psum(sum(pvary(w)^3 * x))
    h = fgrad.grad(lambda w: fgrad.grad(lambda u: dist.psum((dist.pvary(u) ** 3 * x).sum()))(w).sum())(v)
    close(h, 6 * v * tri * v, what="second order")
    # vmap: collectives map over a batch axis
    X = np.stack([x, 2 * x])
    close(fgrad.vmap(dist.psum)(X), tri * np.stack([v, 2 * v]), what="vmap psum")
    gathered = np.stack([np.stack([(q + 1) * v, 2 * (q + 1) * v]) for q in range(n)])
    close(fgrad.vmap(dist.all_gather, in_axes=1, out_axes=1)(X.T), gathered, what="vmap all_gather")
    close(fgrad.vmap(lambda a: (dist.pvary(a) * dist.pmax(a), dist.barrier())[0])(X),
          X * n * np.stack([v, 2 * v]), what="vmap pvary, pmax, barrier")
    close(fgrad.vmap(lambda a: dist.broadcast(dist.ppermute(a, perm=[(0, 0)]), root=0))(X),
          np.stack([v, 2 * v]), what="vmap ppermute, broadcast")
    close(fgrad.vmap(dist.pmin)(X), np.stack([v, 2 * v]), what="vmap pmin")
    close(fgrad.vmap(lambda a: dist.psum_scatter(a))(np.stack([np.stack([x] * n)] * 2)),
          np.stack([tri * v] * 2), what="vmap psum_scatter")


def jit_programs(n, r):
    w = W.world()
    v = np.arange(3.0)
    f = fgrad.jit(lambda: dist.psum(fnp.asarray(v)))
    for _ in range(2):  # communicates on every call (never folded at compile time)
        before = w.seq
        close(f(), n * v, what="jit psum(constant)")
        assert w.seq == before + 1, (w.seq, before)
    g = fgrad.jit(lambda a: (dist.psum(a), a * 2)[1])  # an unused psum still runs
    before = w.seq
    close(g(v), 2 * v, what="jit unused psum")
    assert w.seq == before + 1
    h = fgrad.jit(lambda a: dist.psum(a) + dist.psum(a))  # two collectives, not merged by CSE
    before = w.seq
    close(h(v), 2 * n * v, what="jit repeated psum")
    assert w.seq == before + 2
    # jit of a data-parallel gradient
    def loss(p, xb):
        return ((xb @ p) ** 2).mean()
    xb = np.arange(6.0).reshape(3, 2) + r
    p = np.array([0.5, -0.25])
    eager = fgrad.grad(dist.data_parallel(loss))(p, xb)
    close(fgrad.jit(fgrad.grad(dist.data_parallel(loss)))(p, xb), eager, what="jit(grad(dp))")


def training(n, r, steps):
    """Data-parallel SGD equals full-batch SGD on one process (float64, 1e-6 and tighter)."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(8 * n, 5))
    Y = np.tanh(X @ rng.normal(size=(5, 2)))
    params = {"w1": rng.normal(size=(5, 6)) * 0.5, "b1": np.zeros(6), "w2": rng.normal(size=(6, 2)) * 0.5}

    def loss(p, x, y):
        h = fnp.tanh(x @ p["w1"] + p["b1"])
        return ((h @ p["w2"] - y) ** 2).mean()

    xs, ys = dist.shard(X), dist.shard(Y)
    step_dp = fgrad.jit(fgrad.value_and_grad(dist.data_parallel(loss)))
    p_dp = dict(params)
    p_ref = dict(params)
    for _ in range(steps):
        l_dp, g_dp = step_dp(p_dp, xs, ys)
        l_ref, g_ref = fgrad.value_and_grad(loss)(p_ref, X, Y)
        close(l_dp, l_ref, 1e-12, "loss")
        for k in params:
            close(g_dp[k], g_ref[k], 1e-12, "gradient " + k)
        p_dp = {k: p_dp[k] - 0.1 * g_dp[k] for k in params}
        p_ref = {k: p_ref[k] - 0.1 * g_ref[k] for k in params}
    for k in params:
        close(p_dp[k], p_ref[k], 1e-6, "trained " + k)
    # the same parameters on every process
    for k in params:
        close(dist.pmax(p_dp[k]), p_dp[k], 0, "replicated " + k)


def mismatch(n, r):
    """Both the cheap default check and debug mode name the two sides of a mismatch."""
    for debug in (False, True):
        fgrad.config.update("distributed_debug", debug)
        try:
            dist.psum(np.ones(3 if r == 0 else 2))
        except dist.CollectiveMismatchError as e:
            msg = str(e)
            assert "float64[3]" in msg and "float64[2]" in msg and "all_reduce(sum)" in msg, msg
        else:
            raise AssertionError(f"a mismatched psum did not raise (debug={debug})")
        try:  # different operations at the same point
            if r == 0:
                dist.psum(np.ones(2))
            else:
                dist.broadcast(np.ones(2), root=0)
        except dist.CollectiveMismatchError as e:
            assert "broadcast" in str(e) and "all_reduce" in str(e), str(e)
        else:
            raise AssertionError(f"psum against broadcast did not raise (debug={debug})")
        try:  # the same shape, another dtype
            dist.psum(np.ones(2, np.float32 if r == 0 else np.float64))
        except dist.CollectiveMismatchError as e:
            assert "float32[2]" in str(e) and "float64[2]" in str(e), str(e)
        else:
            raise AssertionError(f"float32 against float64 did not raise (debug={debug})")
        close(dist.psum(np.ones(2)), n * np.ones(2), what="after a mismatch")
    fgrad.config.update("distributed_debug", False)
    # switched off, matching collectives still run (the check only guards)
    fgrad.config.update("distributed_check", False)
    close(dist.psum(np.ones(2)), n * np.ones(2), what="without the check")
    fgrad.config.update("distributed_check", True)


def main():
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    dist.initialize()
    n, r = dist.process_count(), dist.process_index()
    assert n > 1, "run under mpiexec -n 2 (or more)"
    collectives(n, r)
    derivatives(n, r)
    jit_programs(n, r)
    training(n, r, steps)
    mismatch(n, r)
    dist.barrier()
    print(f"OK {r}", flush=True)


if __name__ == "__main__":
    main()
