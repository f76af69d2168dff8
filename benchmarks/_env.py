"""Pin every math library to N threads (default 1), and the process to N CPUs, *before*
numpy/torch/jax are imported.

Imported first by ``benchmarks/__init__.py``; reads ``--threads N`` from ``sys.argv`` itself
because the environment must be set before the argument parser's imports pull numpy in.
"""

from __future__ import annotations

import os
import sys

THREAD_VARS = (
    "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS",
)


def requested_threads(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    for i, a in enumerate(argv):
        if a == "--threads" and i + 1 < len(argv):
            return int(argv[i + 1])
        if a.startswith("--threads="):
            return int(a.split("=", 1)[1])
    return 1


def configure(threads: int | None = None) -> int:
    n = requested_threads() if threads is None else threads
    late = [m for m in ("numpy", "torch", "jax") if m in sys.modules]
    if late:
        print(f"benchmarks: warning: {', '.join(late)} imported before the thread settings; "
              "run `python -m benchmarks` in a fresh process for 1-thread numbers", file=sys.stderr)
    for v in THREAD_VARS:
        os.environ[v] = str(n)
    os.environ["JAX_PLATFORMS"] = "cpu"
    os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") +
                               f" --xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads={n}"
                               ).strip()
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    # XLA:CPU sizes its own thread pool from the CPUs this process may run on, whatever the
    # flags above say; pinning the process to n CPUs is what makes jax single-threaded.
    if hasattr(os, "sched_setaffinity"):
        cpus = sorted(os.sched_getaffinity(0))
        if len(cpus) > n:
            os.sched_setaffinity(0, set(cpus[-n:]))
    return n


def gpu_run(argv=None) -> bool:
    """True for ``python -m benchmarks.gpu``: a GPU benchmark keeps every CPU and JAX's GPU."""
    argv = getattr(sys, "orig_argv", sys.argv) if argv is None else argv
    return "benchmarks.gpu" in argv or any(a.endswith(os.path.join("benchmarks", "gpu.py")) for a in argv)


THREADS = None if gpu_run() else configure()
