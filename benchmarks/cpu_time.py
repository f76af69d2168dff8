"""One benchmark case's fgrad and peer step functions timed in thread CPU time.

On a machine shared with other jobs wall-clock times swing by several times; the CPU time
of this thread (``time.thread_time``) does not count the time other processes hold the
core.  Run it once per checkout, back to back, for an A/B comparison::

    PYTHONPATH=/tmp/old python -m benchmarks.cpu_time torch_gpt --rounds 12
    PYTHONPATH=.        python -m benchmarks.cpu_time torch_gpt --rounds 12

It prints one JSON line: for each implementation the best per-call CPU time over the rounds
(each round calls every implementation ``--calls`` times, alternating) and the ratio
fgrad / peer.
"""

from __future__ import annotations

import os
import sys

if __package__ in (None, ""):  # run as a script: python benchmarks/cpu_time.py
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    __package__ = "benchmarks"  # noqa: A001

from . import _env  # noqa: E402,F401  (thread pinning, before numpy)

import argparse  # noqa: E402
import gc  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402

from .cases import all_cases  # noqa: E402


def cpu_times(name: str, rounds: int = 12, calls: int = 3, peers: tuple = ("torch", "jax")) -> dict:
    """Best per-call thread CPU time (seconds) of each implementation of case ``name``."""
    (cls,) = [c for c in all_cases() if c.name == name]
    case = cls()
    case.setup()
    fns = {k: getattr(case, k)() for k in ("fgrad", *peers) if k in case.implementations()}
    for fn in fns.values():
        for _ in range(3):
            fn()
    best = {k: float("inf") for k in fns}
    gc.collect()
    gc.disable()
    try:
        for _ in range(rounds):
            for k, fn in fns.items():
                t0 = time.thread_time()
                for _ in range(calls):
                    fn()
                best[k] = min(best[k], (time.thread_time() - t0) / calls)
    finally:
        gc.enable()
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("case")
    ap.add_argument("--rounds", type=int, default=12)
    ap.add_argument("--calls", type=int, default=3)
    args = ap.parse_args()
    best = cpu_times(args.case, args.rounds, args.calls)
    out = {k: round(v * 1e3, 4) for k, v in best.items()}
    for k, v in best.items():
        if k != "fgrad":
            out[f"fgrad/{k}"] = round(best["fgrad"] / v, 3)
    print(json.dumps({"case": args.case, "ms": out}))


if __name__ == "__main__":
    main()
