"""Published PyTorch training programs (``examples/torch_*.py``) on ``fgrad.torch`` and on
PyTorch: each program's CPU time on both, and the geometric mean of the ratios.

    python -m benchmarks.programs                 # 5 timed runs of each program per library
    python -m benchmarks.programs --repeats 9
    python -m benchmarks.programs --old /tmp/old-checkout    # also that checkout's fgrad

Each example is the PyTorch program with only its import line changed (it imports PyTorch
when ``FGRAD_EXAMPLE_BACKEND=torch``).  One worker process per library (pinned to one
thread like ``python -m benchmarks``) imports the library first, so import time is not
counted, then runs every program once untimed (the "first run": it stages fgrad's cached
programs, as a real program's first steps do) and then ``--repeats`` times, timed in process
CPU time (time spent waiting for a core on a shared machine is not counted).  The workers
take turns program by program.  Printed per program: the first run's time and the best of
the timed runs on each library, and their ratio (fgrad / PyTorch); then the geometric mean
of the best-run ratios (issue 16's "real published training programs" row).

``--old TREE`` adds a third worker, started in another checkout (it imports that checkout's
fgrad and runs this checkout's programs), taking its turns with the other two, so one run
compares two versions of fgrad in the same minutes: the ratios of both, and old/new.
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
    ("torch_resnet_cifar.py", ["--epochs", "1"]),
    ("torch_vae.py", ["--epochs", "1"]),
    ("torch_transformer_encoder.py", ["--epochs", "1"]),
    ("torch_text_embeddingbag.py", ["--epochs", "2"]),
    ("torch_regression_mlp.py", ["--epochs", "3"]),
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


def _worker(backend: str, examples: str) -> None:
    os.environ["FGRAD_EXAMPLE_BACKEND"] = backend
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [os.getcwd()] + [p for p in sys.path if os.path.abspath(p or ".") != here]
    import benchmarks  # noqa: F401  (thread pinning before numpy/torch)

    if backend == "torch":
        import torch  # noqa: F401
    else:
        import fgrad.torch  # noqa: F401
    print("ready", flush=True)
    for line in sys.stdin:
        name, *args = line.split()
        print(_run_program(os.path.join(examples, name), args), flush=True)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--old", metavar="TREE", help="also time the fgrad of this checkout")
    ap.add_argument("--only", nargs="+", metavar="NAME", help="only these programs (file names)")
    ap.add_argument("--worker", choices=["fgrad", "torch"], help=argparse.SUPPRESS)
    ap.add_argument("--examples", default=os.path.join(ROOT, "examples"), help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.worker:
        _worker(a.worker, a.examples)
        return
    programs = [(n, args) for n, args in PROGRAMS if not a.only or n in a.only or n[:-3] in a.only]
    workers = {"fgrad": ("fgrad", ROOT), "torch": ("torch", ROOT)}
    if a.old:
        workers["old"] = ("fgrad", os.path.abspath(a.old))
    procs = {}
    for lib, (backend, tree) in workers.items():
        p = subprocess.Popen([sys.executable, os.path.join(ROOT, "benchmarks", "programs.py"),
                              "--worker", backend, "--examples", os.path.join(ROOT, "examples")],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=tree)
        if p.stdout.readline().strip() != "ready":
            raise SystemExit(f"benchmarks.programs: the {lib} worker did not start")
        procs[lib] = p

    def ask(lib: str, name: str, args: list) -> float:
        p = procs[lib]
        p.stdin.write(" ".join([name, *args]) + "\n")
        p.stdin.flush()
        return float(p.stdout.readline())

    ratios: dict = {lib: [] for lib in procs if lib != "torch"}
    for name, args in programs:
        first = {lib: ask(lib, name, args) for lib in procs}
        runs: dict = {lib: [] for lib in procs}
        order = list(procs)
        for _ in range(a.repeats):
            for lib in order:
                runs[lib].append(ask(lib, name, args))
            order.reverse()
        best = {lib: min(v) for lib, v in runs.items()}
        spread = {lib: (max(v) - min(v)) / min(v) for lib, v in runs.items()}
        for lib in ratios:
            ratios[lib].append(best[lib] / best["torch"])
        line = "; ".join(f"{lib} first {first[lib]:.2f} s, best {best[lib]:.3f} s (spread {spread[lib]:.0%})"
                         for lib in procs)
        rs = ", ".join(f"{lib} {best[lib] / best['torch']:.2f}x" for lib in ratios)
        print(f"{name} {' '.join(args)}: {line}: ratio {rs}", flush=True)
    for p in procs.values():
        p.stdin.close()
        p.wait()
    for lib, rs in ratios.items():
        label = "" if lib == "fgrad" else f" ({lib} = {a.old})"
        print(f"geometric mean of the ratios{label}: {math.exp(sum(map(math.log, rs)) / len(rs)):.2f}x")


if __name__ == "__main__":
    main()
