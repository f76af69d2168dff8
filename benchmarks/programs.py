"""Published PyTorch training programs (``examples/torch_*.py``) on ``fgrad.torch`` and on
PyTorch: each program's CPU time on both, and the geometric mean of the ratios.

    python -m benchmarks.programs                 # 5 timed runs of each program per library
    python -m benchmarks.programs --repeats 9

Each example is the PyTorch program with only its import line changed (it imports PyTorch
when ``FGRAD_EXAMPLE_BACKEND=torch``).  One worker process per library (pinned to one
thread like ``python -m benchmarks``) imports the library first, so import time is not
counted, then runs every program once untimed (the "first run": it stages fgrad's cached
programs, as a real program's first steps do) and then ``--repeats`` times, timed in process
CPU time (time spent waiting for a core on a shared machine is not counted).  The workers
take turns program by program.  Printed per program: the first run's time and the best of
the timed runs on each library, and their ratio (fgrad / PyTorch); then the geometric mean
of the best-run ratios (issue 16's "real published training programs" row).
"""

from __future__ import annotations

import argparse
import math
import os
import runpy
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# program, arguments (small sizes: a few seconds each)
PROGRAMS = [
    ("torch_char_gpt.py", ["--steps", "30"]),
    ("torch_dcgan.py", ["--epochs", "1", "--batches", "8"]),
    ("torch_lstm_packed.py", ["--epochs", "1"]),
]


def _run_program(path: str, args: list) -> float:
    """CPU seconds of one run of the program at ``path`` (its output discarded)."""
    saved_argv, saved_out = sys.argv, sys.stdout
    sys.argv = [path, *args]
    t0 = time.process_time()
    with open(os.devnull, "w") as devnull:
        sys.stdout = devnull
        try:
            runpy.run_path(path, run_name="__main__")
        finally:
            sys.stdout, sys.argv = saved_out, saved_argv
    return time.process_time() - t0


def _worker(backend: str) -> None:
    os.environ["FGRAD_EXAMPLE_BACKEND"] = backend
    sys.path.insert(0, ROOT)
    import benchmarks  # noqa: F401  (thread pinning before numpy/torch)

    if backend == "torch":
        import torch  # noqa: F401
    else:
        import fgrad.torch  # noqa: F401
    print("ready", flush=True)
    for line in sys.stdin:
        i = int(line)
        name, args = PROGRAMS[i]
        print(_run_program(os.path.join(ROOT, "examples", name), args), flush=True)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--worker", choices=["fgrad", "torch"], help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.worker:
        _worker(a.worker)
        return
    procs = {}
    for lib in ("fgrad", "torch"):
        p = subprocess.Popen([sys.executable, "-m", "benchmarks.programs",
                              "--worker", lib], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True, cwd=ROOT)
        if p.stdout.readline().strip() != "ready":
            raise SystemExit(f"benchmarks.programs: the {lib} worker did not start")
        procs[lib] = p

    def ask(lib: str, i: int) -> float:
        p = procs[lib]
        p.stdin.write(f"{i}\n")
        p.stdin.flush()
        return float(p.stdout.readline())

    ratios = []
    for i, (name, args) in enumerate(PROGRAMS):
        first = {lib: ask(lib, i) for lib in procs}
        runs: dict = {lib: [] for lib in procs}
        for r in range(a.repeats):
            for lib in (("fgrad", "torch") if r % 2 == 0 else ("torch", "fgrad")):
                runs[lib].append(ask(lib, i))
        best = {lib: min(v) for lib, v in runs.items()}
        ratio = best["fgrad"] / best["torch"]
        ratios.append(ratio)
        spread = {lib: (max(v) - min(v)) / min(v) for lib, v in runs.items()}
        print(f"{name} {' '.join(args)}: first run fgrad {first['fgrad']:.2f} s, torch "
              f"{first['torch']:.2f} s; best fgrad {best['fgrad']:.3f} s (spread {spread['fgrad']:.0%}), "
              f"torch {best['torch']:.3f} s (spread {spread['torch']:.0%}): ratio {ratio:.2f}x")
    for p in procs.values():
        p.stdin.close()
        p.wait()
    print(f"geometric mean of the ratios: {math.exp(sum(map(math.log, ratios)) / len(ratios)):.2f}x")


if __name__ == "__main__":
    main()
