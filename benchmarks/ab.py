"""Old tree vs new tree on one benchmark case, interleaved, in CPU time.

    python -m benchmarks.ab torch_lstm /tmp/old-checkout .      # 30 rounds of 5 calls
    python -m benchmarks.ab torch_lstm /tmp/old-checkout . --rounds 40 --number 5
    python -m benchmarks.ab grad /tmp/old-checkout . --peer torch   # another column as the peer

On a loaded machine (several processes sharing two cores) wall-clock minima swing by 2x
between runs, so this driver starts one worker process per tree (each imports that tree's
fgrad and the case's peer, pinned to one thread like ``python -m benchmarks``), then asks the
workers in turn, round after round (alternating the order), to time ``--number`` calls of
each implementation in *process CPU time* (time spent waiting for a core is not counted).
It prints, per tree, the best per-call time of fgrad and of the peer and their ratio: the
two ratios come from the same minutes, so they compare the trees.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import subprocess
import sys
import time


def _worker(tree: str, case: str, peer: str | None = None) -> None:
    sys.path.insert(0, os.path.abspath(tree))
    import benchmarks  # noqa: F401  (thread pinning before numpy/torch)
    from benchmarks.cases import all_cases

    found = [c for c in all_cases() if c.name == case]
    if not found:
        raise SystemExit(f"benchmarks.ab: no case named {case!r} in {tree}")
    c = found[0]()
    if (peer or c.reference) == "jax" or callable(getattr(c, "jax", None)):
        try:
            import jax
        except ImportError:
            pass
        else:  # as `benchmarks.run` does: float64 cases compare with JAX's float64
            jax.config.update("jax_enable_x64", bool(c.jax_x64))
    c.setup()
    fns = {"fgrad": c.fgrad(), "peer": getattr(c, peer or c.reference)()}
    for f in fns.values():
        for _ in range(3):
            f()
    print("ready", flush=True)
    for line in sys.stdin:
        name, n = line.split()
        f, n = fns[name], int(n)
        gc.disable()
        t0 = time.process_time()
        for _ in range(n):
            f()
        dt = (time.process_time() - t0) / n
        gc.enable()
        print(dt, flush=True)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("case")
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--number", type=int, default=5)
    ap.add_argument("--peer", default=None, help="the column to compare with (default: the case's reference)")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.worker:
        _worker(a.old, a.case, a.peer)
        return
    trees = {"old": a.old, "new": a.new}
    procs = {}
    for k, t in trees.items():
        extra = ["--peer", a.peer] if a.peer else []
        p = subprocess.Popen([sys.executable, os.path.abspath(__file__), a.case, t, t, "--worker", *extra],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=t)
        if p.stdout.readline().strip() != "ready":
            raise SystemExit(f"benchmarks.ab: the worker for {t} did not start")
        procs[k] = p
    res: dict = {(k, i): [] for k in trees for i in ("fgrad", "peer")}
    for r in range(a.rounds):
        order = [(k, i) for k in trees for i in ("fgrad", "peer")]
        for k, i in (reversed(order) if r % 2 else order):
            p = procs[k]
            p.stdin.write(f"{i} {a.number}\n")
            p.stdin.flush()
            res[(k, i)].append(float(p.stdout.readline()))
    for p in procs.values():
        p.stdin.close()
        p.wait()
    for k, t in trees.items():
        f, q = min(res[(k, "fgrad")]), min(res[(k, "peer")])
        print(f"{a.case} {k} ({t}): fgrad {_t(f)}, peer {_t(q)}, ratio {f / q:.2f}x "
              f"(medians {_t(statistics.median(res[(k, 'fgrad')]))} / "
              f"{_t(statistics.median(res[(k, 'peer')]))})")
    old, new = res[("old", "fgrad")], res[("new", "fgrad")]
    print(f"{a.case} fgrad new / old: {min(new) / min(old):.3f} (best), "
          f"{statistics.median(new) / statistics.median(old):.3f} (median)")


def _t(s: float) -> str:
    """A per-call time in ms, or in µs under a millisecond."""
    if s >= 1e-3:
        return f"{s * 1e3:.2f} ms"
    return f"{s * 1e6:.1f} µs" if s >= 1e-5 else f"{s * 1e6:.2f} µs"


if __name__ == "__main__":
    main()
