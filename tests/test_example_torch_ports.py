"""examples/torch_*.py: PyTorch programs (a nanoGPT-style character model under bfloat16
autocast, the DCGAN tutorial, an LSTM over packed sequences, a small CIFAR ResNet, the
examples' VAE, a Transformer-encoder classifier, the EmbeddingBag text classifier, a tabular
regression MLP) run on fgrad.torch by their import line and print PyTorch's numbers.

The default tests run each for a few steps and compare every printed number with PyTorch
2.13's output of the same command (tests/stored/torch_examples/*_short.txt, written by
``python examples/<name>.py --torch <args>``). The slow tests run the full programs against
the stored full outputs and, when torch is installed, against live PyTorch
(``python -m pytest -m slow tests/test_example_torch_ports.py``).

Tolerances. The float32 programs print PyTorch's numbers to the last of the 4 printed digits
(compared to 1.5e-4: a float32 difference may flip a last digit's rounding; the VAE's summed
losses, in the hundreds, to 2e-6 relative). The GPT trains under bfloat16 autocast: the
shim's bfloat16 ops round once per op as PyTorch's CPU kernels do, but PyTorch's flash
attention sums in blocks of its own, so a few percent of attention outputs differ by one
bfloat16 rounding (2**-8 relative); those differences average out in the losses (within
5e-4 after 8 steps, 1.5e-3 after 200) and the gradient norms (0.2% after 200 steps: 1.5067
vs 1.5041), and the sampled text is the same.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STORED = ROOT / "tests" / "stored" / "torch_examples"
NUMBER = re.compile(r"-?\d+\.\d+(?:e-?\d+)?")
needs_torch = pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")

SHORT_ARGS = {
    "torch_char_gpt": ["--steps", "8"],
    "torch_dcgan": ["--epochs", "1", "--batches", "5"],
    "torch_lstm_packed": ["--epochs", "1", "--batches", "5"],
    "torch_resnet_cifar": ["--epochs", "1", "--batches", "5"],
    "torch_vae": ["--epochs", "1", "--batches", "5"],
    "torch_transformer_encoder": ["--epochs", "1", "--batches", "5"],
    "torch_text_embeddingbag": ["--epochs", "1", "--batches", "5"],
    "torch_regression_mlp": ["--epochs", "1", "--batches", "5"],
}


def run_example(name: str, *args: str, backend: str = "fgrad", timeout: int = 900) -> str:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["FGRAD_EXAMPLE_BACKEND"] = backend
    env.setdefault("OMP_NUM_THREADS", "1")
    proc = subprocess.run([sys.executable, f"examples/{name}.py", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, f"{name} {args} ({backend}) failed:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


def _tolerance(name: str, line: str, full: bool) -> tuple[float, float]:
    """(absolute, relative) tolerance for the numbers of one printed line."""
    if name == "torch_vae":
        return 1.5e-4, 2e-6
    if name != "torch_char_gpt":
        return 1.5e-4, 0.0
    if "grad norm" in line:
        return 0.0, 4e-3 if full else 1e-3
    return (2e-3 if full else 5e-4), 0.0


def assert_same_output(name: str, ours: str, theirs: str, full: bool) -> None:
    """Same lines, same text around the numbers, numbers within the example's tolerance; the
    GPT's sampled text (its last line) may differ in a few characters."""
    a, b = ours.strip().splitlines(), theirs.strip().splitlines()
    assert len(a) == len(b), f"{len(a)} lines vs PyTorch's {len(b)}:\n{ours}"
    for i, (x, y) in enumerate(zip(a, b)):
        if name == "torch_char_gpt" and i == len(a) - 1:  # the sample drawn with torch.multinomial
            same = sum(p == q for p, q in zip(x, y))
            assert same >= 0.9 * len(y), f"sample {x!r} vs PyTorch's {y!r}"
            continue
        assert NUMBER.sub("#", x) == NUMBER.sub("#", y), f"line {i}: {x!r} vs PyTorch's {y!r}"
        atol, rtol = _tolerance(name, x, full)
        for p, q in zip(NUMBER.findall(x), NUMBER.findall(y)):
            assert float(p) == pytest.approx(float(q), abs=atol, rel=rtol), f"line {i}: {x!r} vs {y!r}"


@pytest.mark.parametrize("name", sorted(SHORT_ARGS))
def test_example_prints_pytorchs_numbers(name):
    ours = run_example(name, *SHORT_ARGS[name])
    assert_same_output(name, ours, (STORED / f"{name}_short.txt").read_text(), full=False)


def test_examples_are_ports_by_import_line_only():
    """The programs name fgrad in one place only: ``import fgrad.torch as torch``, the
    alternative of an ``import torch``."""
    for name in SHORT_ARGS:
        tree = ast.parse((ROOT / "examples" / f"{name}.py").read_text())
        imports = [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))]
        fgrad_imports = [ast.unparse(n) for n in imports if "fgrad" in ast.unparse(n)]
        assert fgrad_imports == ["import fgrad.torch as torch"], (name, fgrad_imports)
        assert "import torch" in [ast.unparse(n) for n in imports], name
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        assert "fgrad" not in names, name


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SHORT_ARGS))
def test_full_example_prints_pytorchs_stored_numbers(name):
    ours = run_example(name)
    assert_same_output(name, ours, (STORED / f"{name}_full.txt").read_text(), full=True)


@pytest.mark.slow
@needs_torch
@pytest.mark.parametrize("name", sorted(SHORT_ARGS))
def test_example_matches_live_pytorch(name):
    theirs = run_example(name, *SHORT_ARGS[name], backend="torch")
    assert theirs == (STORED / f"{name}_short.txt").read_text()  # the stored record is current
    assert_same_output(name, run_example(name, *SHORT_ARGS[name]), theirs, full=False)


def test_benchmarked_programs_are_the_tested_examples():
    """`python -m benchmarks.programs` times the programs this file checks against PyTorch."""
    sys.path.insert(0, str(ROOT))
    try:
        from benchmarks.programs import PROGRAMS
    finally:
        sys.path.remove(str(ROOT))
    names = [name for name, _ in PROGRAMS]
    assert len(names) == len(set(names)) and {n[:-3] for n in names} == set(SHORT_ARGS), names
    assert all((ROOT / "examples" / n).is_file() for n in names)


@pytest.mark.slow
@needs_torch
def test_programs_benchmark_driver_smoke():
    """The driver itself, with a second fgrad worker (``--old``: here the same checkout), one
    small program, one timed run each."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    cmd = [sys.executable, "-m", "benchmarks.programs", "--only", "torch_vae", "--repeats", "1",
           "--old", str(ROOT)]
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert lines[0].startswith("torch_vae.py --epochs 1: fgrad first") and "ratio fgrad" in lines[0], lines
    assert lines[-2].startswith("geometric mean of the ratios: ") and lines[-1].startswith(
        f"geometric mean of the ratios (old = {ROOT}): "), lines
