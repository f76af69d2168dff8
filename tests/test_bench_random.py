"""The random benchmark cases (`benchmarks/cases/random.py`), run tiny: fgrad's draws against
``jax.random``'s (live) within each case's tolerance (exact but for normal).  In a
subprocess: importing `benchmarks` pins threads."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

CODE = """
import numpy as np
import jax
from benchmarks.cases import random as cases
names = []
for case in (cases.RandomNormal, cases.RandomNormalF64, cases.RandomUniform, cases.RandomUniformF64,
             cases.RandomBits):
    c = case()
    c.n = 1000
    jax.config.update("jax_enable_x64", bool(c.jax_x64))
    c.setup()
    got, want = c.fgrad()(), c.jax()()
    assert got.shape == want.shape == (1000,) and got.dtype == want.dtype, c.name
    np.testing.assert_allclose(got, want, rtol=c.rtol, atol=c.atol, err_msg=c.name)
    names.append(c.name)
print(" ".join(names))
"""


def test_random_cases_agree_with_jax():
    pytest.importorskip("jax")
    root = pathlib.Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", CODE], cwd=root, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["random_normal", "random_normal_f64", "random_uniform",
                                   "random_uniform_f64", "random_bits"]
