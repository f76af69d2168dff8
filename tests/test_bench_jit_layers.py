"""The layer benchmark cases (`benchmarks/cases/jit_layers.py`), run tiny: fgrad's jitted
layer norm, cross-entropy (value and gradient) and attention block against the cases' numpy
column and, when JAX is installed, against ``jax.jit`` live.  In a subprocess: importing
`benchmarks` pins threads."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

CODE = """
import numpy as np
from benchmarks.cases import jit_layers as cases
tiny = {"jit_layernorm": (6, 16), "jit_xent": (5, 40), "jit_attention": (2, 7, 8)}
for case in (cases.JitLayerNorm, cases.JitCrossEntropy, cases.JitAttention):
    c = case()
    c.shape = tiny[c.name]
    c.setup()
    got = c.fgrad()()
    peers = [c.numpy()()]
    if WITH_JAX:
        peers.append(c.jax()())
    tup = lambda v: v if isinstance(v, tuple) else (v,)
    for want in peers:
        for g, w in zip(tup(got), tup(want)):
            assert np.asarray(g).shape == np.asarray(w).shape, c.name
            np.testing.assert_allclose(g, w, rtol=2e-5, atol=1e-6, err_msg=c.name)
print("ok")
"""


@pytest.mark.parametrize("with_jax", [False, True])
def test_layer_cases_agree_with_numpy_and_jax(with_jax):
    if with_jax:
        pytest.importorskip("jax")
    root = pathlib.Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", CODE.replace("WITH_JAX", str(with_jax))], cwd=root,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
