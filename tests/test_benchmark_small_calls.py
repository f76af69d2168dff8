"""Smoke test of `benchmarks.small_calls` (CI runs benchmarks only at tiny sizes): every timed
call runs once on fgrad's shim and returns what the same call would give, so the benchmark
cannot silently time an error path."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_small_call_runs_on_the_shim():
    # in a subprocess: importing `benchmarks` pins thread counts in os.environ
    code = ("import fgrad.torch as m\nfrom benchmarks.small_calls import calls\n"
            "for name, fn in calls(m).items():\n"
            "    out = fn()\n"
            "    assert out is not None, name\n"
            "    print(name, type(out).__name__)\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert any(line.startswith("stack(64 rows of 8) Tensor") for line in lines), lines
    assert any(line.startswith("arange(10) Tensor") for line in lines), lines
