"""Peak memory of ``load`` for a 128 MiB checkpoint: fgrad.torch against PyTorch.

Run ``python -m benchmarks.load_memory``.  Each load runs in a fresh subprocess; the number
reported is the growth of the peak resident set (``VmHWM`` of /proc/self/status: unlike
``ru_maxrss`` it does not inherit the parent's peak across exec) over the resident set just
before the load, i.e. what loading the file cost on top of the imported library.  For fgrad
the tracemalloc peak (NumPy's allocations are traced) is shown too.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import textwrap

_CHILD = textwrap.dedent(
    """
    import resource, sys, tracemalloc
    lib, path = sys.argv[1], sys.argv[2]
    if lib == "torch":
        import torch as mod
    else:
        import fgrad.torch as mod
    def status_kib(field):
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    before = status_kib("VmRSS")
    tracemalloc.start()
    obj = mod.load(path)
    traced = tracemalloc.get_traced_memory()[1]
    # VmHWM: this process's peak RSS (ru_maxrss would carry the parent's peak over exec)
    peak = status_kib("VmHWM")
    assert peak <= resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print((peak - before) / 1024, traced / 2**20)
    """
)


def _make_checkpoints(directory: str) -> dict:
    import numpy as np

    import fgrad.torch as ft

    rng = np.random.default_rng(0)
    one = {"w": ft.tensor(rng.standard_normal(32 * 2**20, dtype=np.float32))}  # one 128 MiB tensor
    many = {f"layer{i}.weight": ft.tensor(rng.standard_normal(2**20, dtype=np.float32)) for i in range(32)}
    paths = {}
    for name, obj in (("one 128 MiB tensor", one), ("32 x 4 MiB tensors", many)):
        path = os.path.join(directory, name.replace(" ", "_") + ".pt")
        ft.save(obj, path)
        paths[name] = path
    del one, many
    return paths


def _measure(lib: str, path: str) -> tuple[float, float]:
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, lib, path], capture_output=True, text=True, check=True
    )
    rss, traced = out.stdout.split()
    return float(rss), float(traced)


def main() -> None:
    try:
        import torch  # noqa: F401

        libs = ["fgrad", "torch"]
    except ImportError:
        libs = ["fgrad"]
    with tempfile.TemporaryDirectory() as d:
        for name, path in _make_checkpoints(d).items():
            size = os.path.getsize(path) / 2**20
            for lib in libs:
                rss, traced = _measure(lib, path)
                extra = f", tracemalloc peak {traced:.0f} MiB" if lib == "fgrad" else ""
                print(f"{name} ({size:.0f} MiB file): {lib:5s} peak RSS growth {rss:.0f} MiB{extra}")


if __name__ == "__main__":
    main()
