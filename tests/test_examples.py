"""The demo and the README's code run, and what they print is right.

The demo prints its own cross-checks (per-example vs batch gradients, HVP vs full Hessian,
power iteration vs eigvalsh); these tests parse them and hold them to tolerances, and check
that training actually learned the task.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FLOAT = r"([-+]?\d+\.?\d*(?:e[-+]?\d+)?)"


def _run(args, timeout=120):
    env = dict(os.environ)
    # examples/ too: a converted copy run from elsewhere imports examples/_training_plot.py
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "examples"),
                                         env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.setdefault("OMP_NUM_THREADS", "1")
    proc = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, f"{args} failed:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


@pytest.fixture(scope="module")
def demo_output():
    return _run(["examples/demo.py"])


def test_demo_cross_checks_agree(demo_output):
    diffs = [float(v) for v in re.findall(r"max \|[^|\n]+\| = " + FLOAT, demo_output)]
    assert len(diffs) == 4, demo_output  # per-example (2), HVP, symmetry
    assert max(diffs) < 1e-8, demo_output


def test_demo_per_example_gradients_shape(demo_output):
    m = re.search(r"dloss/dW1 has shape \((\d+), (\d+), (\d+)\)", demo_output)
    assert m and tuple(map(int, m.groups())) == (200, 2, 16), demo_output
    lo, med, hi = map(float, re.search(
        r"gradient norms: min " + FLOAT + ", median " + FLOAT + ", max " + FLOAT, demo_output).groups())
    assert 0 < lo <= med <= hi, demo_output


def test_demo_training_learns(demo_output):
    steps = [(int(s), float(loss), float(acc)) for s, loss, acc in re.findall(
        r"step\s+(\d+)\s+loss " + FLOAT + r"\s+accuracy " + FLOAT, demo_output)]
    assert [s for s, _, _ in steps] == [0, 100, 200, 300], demo_output
    losses = [loss for _, loss, _ in steps]
    assert all(b < a for a, b in zip(losses, losses[1:], strict=False)), demo_output  # strictly decreasing
    assert losses[-1] < 0.5 * losses[0], demo_output
    assert steps[-1][2] >= 0.95, demo_output  # two moons are separable by a small MLP


def test_demo_top_eigenvalue(demo_output):
    power, exact = map(float, re.search(
        r"power iteration on HVPs " + FLOAT + ", numpy eigvalsh of the full Hessian " + FLOAT,
        demo_output).groups())
    assert exact != 0 and abs(power - exact) <= 1e-3 * abs(exact), demo_output


def _have(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:  # a parent package is missing
        return False


def _readme_python_blocks():
    text = (ROOT / "README.md").read_text()
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


@pytest.mark.parametrize("i", range(len(_readme_python_blocks())))
def test_readme_python_blocks_run(i):
    code = _readme_python_blocks()[i]
    if "fgrad.torch" in code and not all(map(_have, ("fgrad.torch.nn", "fgrad.torch.optim"))):
        pytest.skip("fgrad.torch (nn, optim) not available yet")
    _run(["-c", code])


def test_readme_quick_start_is_two_commands():
    text = (ROOT / "README.md").read_text()
    first_section = re.search(r"^## (.+)$", text, flags=re.M)
    assert first_section and first_section.group(1).strip() == "Quick start"
    section = text[first_section.end():].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, flags=re.S)
    assert len(blocks) == 1
    commands = [c for c in blocks[0].strip().splitlines() if c.strip()]
    assert len(commands) == 2
    assert commands[0].startswith("pip install -e .") and "examples/demo.py" in commands[0]
    assert "'.[test]'" in commands[1] and commands[1].rstrip().endswith("pytest")
    # CI installs the same extra and runs exactly the README's test command
    ci = (ROOT / ".ci" / "run").read_text()
    install, test = (c.strip() for c in commands[1].split("&&"))
    assert re.search(r"^\s*python -m " + re.escape(install) + r"(\s|$)", ci, flags=re.M), ci
    assert re.search(r"^\s*" + re.escape(test) + r"(\s+</dev/null)?\s*$", ci, flags=re.M), ci


def test_benchmark_cases_are_well_formed():
    # in a subprocess: importing `benchmarks` pins thread counts in os.environ
    out = _run(["-c", """
from benchmarks.cases import IMPLS, all_cases
cases = all_cases()
names = [c.name for c in cases]
assert len(names) == len(set(names)), names
for c in cases:
    impls = c().implementations()
    assert "fgrad" in impls and c.reference in impls, c.name
    assert all(peer in IMPLS and peer in impls for peer, _ in c.goals), c.name
print(len(cases), "cases")
"""])
    assert int(out.split()[0]) >= 4


def test_benchmark_runner_smoke(tmp_path):
    """The runner itself: one tiny case, numpy + fgrad only, markdown between the markers."""
    readme = tmp_path / "README.md"
    readme.write_text("before\n<!-- bench:start -->\nold\n<!-- bench:end -->\nafter\n")
    out = _run(["-m", "benchmarks", "--only", "sin", "--exclude", "autograd,torch,jax",
                "--repeat", "2", "--min-time", "0.002", "--write-readme", "--readme", str(readme)])
    assert "target: ≤ 3× numpy" in out
    text = readme.read_text()
    assert text.startswith("before\n<!-- bench:start -->\n") and text.endswith("<!-- bench:end -->\nafter\n")
    assert "old" not in text and "| `fgrad.numpy.sin`, 8 elements (float64) |" in text


@pytest.mark.slow
def test_breadth_benchmark_snippets_run_on_fgrad():
    """Every snippet of `benchmarks.breadth` runs on fgrad under the peers' names (once)."""
    import json

    from benchmarks.breadth import JAX_SNIPPETS, TORCH_SNIPPETS

    for face, snippets in (("torch", TORCH_SNIPPETS), ("jax", JAX_SNIPPETS)):
        out = _run(["-m", "benchmarks.breadth", "--repeats", "1", "--worker", face, "fgrad"])
        times = json.loads(out.strip().splitlines()[-1])
        assert list(times) == [name for name, _, _ in snippets], times  # every one, names unique
        assert all(t >= 0 for t in times.values()), times


# ---- examples/jax_tutorial_mlp.py: a JAX program that runs by changing its imports ----------

# its output under JAX 0.10.2 (the same file with the four imports changed)
JAX_TUTORIAL_OUTPUT = """\
[0]['b']     (16,)
[0]['w']     (1, 16)
[1]['b']     (16,)
[1]['w']     (16, 16)
[2]['b']     (1,)
[2]['w']     (16, 1)
parameters: 321
check_grads passed (order 2, fwd and rev)
step    0  loss 0.24057698  grad norm 1.53596635
step  100  loss 0.02532867  grad norm 0.05722123
step  200  loss 0.01398144  grad norm 0.01727719
step  300  loss 0.01175324  grad norm 0.01364973
final loss 0.01173462
"""

_TO_JAX = [("import fgrad as jax\n", "import jax\n"),
           ("import fgrad.numpy as jnp\n", "import jax.numpy as jnp\n"),
           ("from fgrad.test_util import", "from jax.test_util import"),
           ("from fgrad.flatten_util import", "from jax.flatten_util import")]


def _same_text_and_numbers(got: str, want: str) -> None:
    words = lambda s: re.sub(FLOAT, "#", s)  # noqa: E731
    assert words(got) == words(want), got
    for a, b in zip(re.findall(FLOAT, got), re.findall(FLOAT, want), strict=True):
        assert abs(float(a) - float(b)) <= 1e-6 * max(1.0, abs(float(b))), (a, b, got)


def test_jax_tutorial_example_matches_jax():
    _same_text_and_numbers(_run(["examples/jax_tutorial_mlp.py"]), JAX_TUTORIAL_OUTPUT)


def test_jax_tutorial_example_is_a_jax_program_by_its_imports():
    source = (ROOT / "examples" / "jax_tutorial_mlp.py").read_text()
    converted = source
    for ours, theirs in _TO_JAX:
        assert source.count(ours) == 1, ours
        converted = converted.replace(ours, theirs)
    assert "fgrad" not in converted.split('"""', 2)[2]  # nothing else names fgrad


@pytest.mark.slow
def test_jax_tutorial_example_runs_under_live_jax(tmp_path):
    pytest.importorskip("jax")
    source = (ROOT / "examples" / "jax_tutorial_mlp.py").read_text()
    for ours, theirs in _TO_JAX:
        source = source.replace(ours, theirs)
    path = tmp_path / "jax_tutorial_mlp_jax.py"
    path.write_text(source)
    _same_text_and_numbers(_run([str(path)], timeout=300), JAX_TUTORIAL_OUTPUT)


# --- examples/stax_classifier.py: a JAX-style program (stax + optimizers) on fgrad and on JAX

STAX_EXAMPLE = ROOT / "examples" / "stax_classifier.py"
FGRAD_TO_JAX_IMPORTS = {
    "import fgrad as jax\n": "import jax\n",
    "import fgrad.numpy as jnp\n": "import jax.numpy as jnp\n",
    "from fgrad import random\n": "from jax import random\n",
    "from fgrad.example_libraries import optimizers, stax\n":
        "from jax.example_libraries import optimizers, stax\n",
}


def _stax_epochs(output):
    losses = [float(v) for v in re.findall(r"Training set loss " + FLOAT, output)]
    tests = [float(v) for v in re.findall(r"Test set accuracy " + FLOAT, output)]
    assert len(losses) == len(tests) == 5, output
    return losses, tests


def test_stax_classifier_learns():
    losses, tests = _stax_epochs(_run([str(STAX_EXAMPLE)]))
    assert all(b < a for a, b in zip(losses, losses[1:])), losses
    assert tests[-1] >= 0.85, tests


@pytest.mark.slow  # starting JAX and compiling takes ~20 s
def test_stax_classifier_is_a_jax_program():
    pytest.importorskip("jax")
    source = STAX_EXAMPLE.read_text()
    for ours, theirs in FGRAD_TO_JAX_IMPORTS.items():
        assert ours in source
        source = source.replace(ours, theirs)
    code = source.split('"""', 2)[2]  # below the docstring: no fgrad left
    assert "fgrad" not in code
    losses, tests = _stax_epochs(_run(["-c", source]))
    assert all(b < a for a, b in zip(losses, losses[1:])), losses
    assert tests[-1] >= 0.85, tests
