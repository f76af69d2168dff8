"""examples/remat_deep_net.py (jax.checkpoint with a policy per layer) and
examples/char_rnn.py (a GRU under lax.scan, hand-written Adam): JAX programs that run on
fgrad by changing their imports only, and print what they print under JAX 0.10.2."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FLOAT = r"([-+]?\d+\.?\d*(?:e[-+]?\d+)?)"

# each example's output under JAX 0.10.2 (the same file with its fgrad imports changed)
EXAMPLES = {
    "remat_deep_net.py": {
        "imports": [("import fgrad as jax\n", "import jax\n"),
                    ("import fgrad.numpy as jnp\n", "import jax.numpy as jnp\n"),
                    ("from fgrad.ad_checkpoint import checkpoint_name\n",
                     "from jax.ad_checkpoint import checkpoint_name\n")],
        "output": """\
max |remat grad - plain grad| = 0.0e+00
step    0  loss 0.40399413
step  100  loss 0.00343899
step  200  loss 0.00106468
step  300  loss 0.00096987
final loss 0.00096939
""",
    },
    "char_rnn.py": {
        "imports": [("import fgrad as jax\n", "import jax\n"),
                    ("import fgrad.numpy as jnp\n", "import jax.numpy as jnp\n"),
                    ("from fgrad import lax\n", "from jax import lax\n")],
        "output": """\
vocabulary 28, batch (52, 25)
step    0  loss 3.345824
step   50  loss 0.061903
step  100  loss 0.033528
sample: the quick brown fox jumps over the lazy dog. \n""",
    },
}


def _run(args, timeout=300):
    env = dict(os.environ)
    # examples/ too: a converted copy run from elsewhere imports examples/_training_plot.py
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "examples"),
                                         env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.setdefault("OMP_NUM_THREADS", "1")
    proc = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, f"{args} failed:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


def _same_text_and_numbers(got: str, want: str, rtol: float = 1e-6) -> None:
    words = lambda s: re.sub(FLOAT, "#", s)  # noqa: E731
    assert words(got) == words(want), got
    for a, b in zip(re.findall(FLOAT, got), re.findall(FLOAT, want), strict=True):
        assert abs(float(a) - float(b)) <= rtol * max(1.0, abs(float(b))), (a, b, got)


def _as_jax(name: str) -> str:
    source = (ROOT / "examples" / name).read_text()
    for ours, theirs in EXAMPLES[name]["imports"]:
        assert source.count(ours) == 1, ours
        source = source.replace(ours, theirs)
    return source


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_prints_what_jax_prints(name):
    _same_text_and_numbers(_run([f"examples/{name}"]), EXAMPLES[name]["output"])


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_is_a_jax_program_by_its_imports(name):
    code = _as_jax(name).split('"""', 2)[2]  # below the docstring: nothing names fgrad
    assert "fgrad" not in code


@pytest.mark.slow  # starting JAX and compiling takes ~15 s per example
@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_runs_under_live_jax(name, tmp_path):
    pytest.importorskip("jax")
    path = tmp_path / name
    path.write_text(_as_jax(name))
    _same_text_and_numbers(_run([str(path)]), EXAMPLES[name]["output"])
