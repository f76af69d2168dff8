"""The loop benchmark cases (`benchmarks/cases/loops.py`), run tiny: fgrad against
``jax.jit`` (live) within each case's tolerance.  In a subprocess: importing `benchmarks`
pins threads."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

CODE = """
import numpy as np
import jax
from benchmarks.cases import loops
names = []
for case in (loops.LoopRK4, loops.LoopRK4Grad, loops.LoopRK4GradF64, loops.LoopNewtonScalar, loops.LoopKalman,
             loops.LoopWhileScalar):
    c = case()
    c.n = 20
    jax.config.update("jax_enable_x64", bool(c.jax_x64))
    c.setup()
    got, want = c.fgrad()(), c.jax()()
    assert len(got) == len(want), c.name
    for g, w in zip(got, want):
        # (an int counter: int64 in fgrad, whose x64 mode is on, int32 in jax's default)
        assert g.shape == w.shape and g.dtype.kind == w.dtype.kind, (c.name, g.dtype, w.dtype)
        assert g.dtype == w.dtype or g.dtype.kind == "i", (c.name, g.dtype, w.dtype)
        np.testing.assert_allclose(g, w, rtol=c.rtol, atol=c.atol, err_msg=c.name)
    names.append(c.name)
print(" ".join(names))
"""


def test_loop_cases_agree_with_jax():
    pytest.importorskip("jax")
    root = pathlib.Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", CODE], cwd=root, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["loop_rk4", "loop_rk4_grad", "loop_rk4_grad_f64", "loop_newton_scalar",
                                   "loop_kalman_grad", "loop_while_scalar"]
