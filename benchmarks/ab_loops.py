"""A/B timing of the loop workloads against an older checkout, JAX in the same process.

    taskset -c 0 python benchmarks/ab_loops.py REPO [newton,rnn]

imports fgrad from ``REPO`` (a checkout, e.g. a ``git worktree`` of an older commit), builds
the `jit_newton` and `jit_scan_rnn` benchmark cases' functions on fgrad and on JAX, and
prints the best per-call **process CPU time** of each over 15 alternating blocks, and their
ratio.  Process time is less disturbed than wall time by other jobs on a shared machine;
run old and new checkouts back to back (docs/speed-loops.md).
"""

from __future__ import annotations

import os
import sys
import time

os.environ["OMP_NUM_THREADS"] = "1"
os.environ["OPENBLAS_NUM_THREADS"] = "1"


def _rnn_loss(m, lax):
    def loss(params, xs):
        w, u, b = params

        def cell(h, x):
            h = m.tanh(h @ w + x @ u + b)
            return h, m.sum(h ** 2)

        _, per_step = lax.scan(cell, m.zeros((xs.shape[1], w.shape[0]), xs.dtype), xs)
        return m.sum(per_step)

    return loss


def _newton(m, lax):
    def cube_root(a):
        def cond(state):
            x, i = state
            return (m.max(m.abs(x ** 3 - a)) > 1e-5) & (i < 50)

        def body(state):
            x, i = state
            return x - (x ** 3 - a) / (3 * x ** 2), i + 1

        x, _ = lax.while_loop(cond, body, (m.ones_like(a) * 2, 0))
        return x

    return cube_root


def _make(case: str, lib, m, np):
    """``(call, calls per timed block)`` for one case on one library."""
    rng = np.random.default_rng(0)
    if case == "rnn":
        p = (0.1 * rng.standard_normal((128, 128)).astype(np.float32),
             0.1 * rng.standard_normal((64, 128)).astype(np.float32), np.zeros(128, np.float32))
        f = lib.jit(lib.value_and_grad(_rnn_loss(m, lib.lax)))
        params = tuple(m.asarray(q) for q in p)
        xs = m.asarray(rng.standard_normal((100, 32, 64)).astype(np.float32))
        return (lambda: np.asarray(f(params, xs)[0])), 20
    if case == "newton":
        a = m.asarray(rng.uniform(1, 8, 1000).astype(np.float32))
        f = lib.jit(_newton(m, lib.lax))
        return (lambda: np.asarray(f(a))), 1000
    raise SystemExit(f"unknown case {case!r}: newton, rnn")


def main() -> None:
    repo = os.path.abspath(sys.argv[1])
    cases = sys.argv[2].split(",") if len(sys.argv) > 2 else ["newton", "rnn"]
    sys.path.insert(0, repo)
    import numpy as np

    import fgrad
    import fgrad.numpy as fnp
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_platforms", "cpu")
    if not os.path.abspath(fgrad.__file__).startswith(repo):
        raise SystemExit(f"fgrad imported from {fgrad.__file__}, not {repo}")
    for case in cases:
        impls = {"fgrad": _make(case, fgrad, fnp, np), "jax": _make(case, jax, jnp, np)}
        for call, _ in impls.values():
            call()
            call()
        best = dict.fromkeys(impls, float("inf"))
        for _ in range(15):
            for name, (call, number) in impls.items():
                t0 = time.process_time()
                for _ in range(number):
                    call()
                best[name] = min(best[name], (time.process_time() - t0) / number)
        print(f"{case:8s} fgrad {best['fgrad'] * 1e6:9.1f} us  jax {best['jax'] * 1e6:9.1f} us  "
              f"ratio {best['fgrad'] / best['jax']:.2f}", flush=True)


if __name__ == "__main__":
    main()
