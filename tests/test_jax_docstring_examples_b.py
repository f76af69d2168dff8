"""JAX's own docstring examples beyond ``jax.numpy`` print on fgrad what they print on JAX.

``tests/stored/jax_docstring_examples_b.json`` holds, for each public function of ``jax``
(the transforms), ``jax.lax``, ``jax.nn``, ``jax.nn.initializers``, ``jax.random``,
``jax.tree_util``, ``jax.tree``, ``jax.debug`` and ``jax.scipy.*`` whose examples agree, the
examples' sources and what JAX 0.10.2 printed for them (x64 off, the docs' default), written by
``python tools/jax_docstring_examples_b.py --store``.  Each function's examples run here on
fgrad (``jax`` -> fgrad, ``jnp`` -> fgrad.numpy, ``lax`` -> fgrad.lax, imports redirected) and
must print the same text, with numbers equal to 2e-5 (the tool's "close"); a function stored
as "same" must stay exactly the same.  With JAX installed the stored outputs are checked
against JAX's live output too.  JAX is imported only inside the live tests.

The default run takes all but the slowest function (about 6 s of CPU time); ``-m slow`` runs
the rest.  docs/jax-docstring-examples-b.md lists what was found and fixed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import jax_docstring_examples as tool  # noqa: E402
import jax_docstring_examples_b as runner  # noqa: E402

STORED = json.loads(runner.STORED.read_text())
FUNCTIONS = STORED["functions"]
X64 = STORED["x64"]

# measured: the one function whose fgrad run takes over a second (3 s: remat policies)
SLOW = {"jax.checkpoint"}
# a sample whose live JAX comparison runs by default (the rest with -m slow)
LIVE_SAMPLE = {"jax.lax.dynamic_slice", "jax.nn.relu", "jax.tree.map", "jax.scipy.linalg.dft",
               "jax.scipy.signal.convolve", "jax.vmap"}


def _params(names, slow):
    return [pytest.param(n, id=n, marks=(pytest.mark.slow,) if n in slow else ())
            for n in sorted(names)]


@pytest.mark.parametrize("name", _params(FUNCTIONS, SLOW))
def test_fgrad_prints_what_jax_printed(name):
    entry = FUNCTIONS[name]
    status, detail = runner.run_fgrad(entry, X64)
    allowed = (tool.SAME,) if entry["status"] == tool.SAME else (tool.SAME, tool.CLOSE)
    assert status in allowed, f"{name}: {status}: {detail}"


@pytest.mark.parametrize("name", _params(FUNCTIONS, set(FUNCTIONS) - LIVE_SAMPLE))
def test_stored_outputs_are_jaxs(name):
    jax = pytest.importorskip("jax")
    if jax.__version__ != STORED["jax_version"]:
        pytest.skip(f"the stored text is JAX {STORED['jax_version']}'s; JAX {jax.__version__} "
                    "is installed")
    entry = FUNCTIONS[name]
    live = runner.run_jax(entry, X64)
    status, detail = tool.compare_outputs(live, entry["outputs"], entry["wants"], X64)
    assert status in (tool.SAME, tool.CLOSE), f"{name}: {detail}"


def test_stored_reference_covers_the_modules():
    """The stored functions come from the runner's modules, each with its examples' sources,
    the docstring's text and JAX's outputs, one per example."""
    assert STORED["jax_version"] == "0.10.2" and X64 is False
    assert len(FUNCTIONS) >= 190
    for name, entry in FUNCTIONS.items():
        assert entry["module"] in runner.MODULES and name.startswith(entry["module"] + ".")
        assert len(entry["sources"]) == len(entry["wants"]) == len(entry["outputs"]) > 0
    assert SLOW <= set(FUNCTIONS) and LIVE_SAMPLE <= set(FUNCTIONS)
    # session 16's widening: the other modules fgrad has, and methods with their own examples
    assert {"jax.custom_derivatives.custom_gradient", "jax.experimental.checkify.checkify",
            "jax.experimental.sparse.sparsify", "jax.Array.at", "jax.custom_jvp.defjvp",
            "jax.lax.linalg.ormqr"} <= set(FUNCTIONS)
