"""examples/char_transformer.py: a PyTorch program (a character-level transformer language
model) run on fgrad.torch by its import line prints PyTorch's numbers and learns.

The test (slow: 12 s) runs 60 steps on fgrad.torch and compares the printed losses with PyTorch's
(stored, and live in the slow test, which also trains the full 300 steps on both)."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINE = re.compile(r"step\s+(\d+)\s+loss ([\d.]+)\s+lr ([\d.]+)")

# printed by `python examples/char_transformer.py --torch --steps 60` (PyTorch 2.13, CPU)
TORCH_60 = {"steps": [(0, 2.95047, 0.0003), (50, 1.25723, 0.000522), (60, 1.22852, 0.0003)],
            "validation": 1.24934}


def _run(*args: str, timeout: int = 300) -> str:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.setdefault("OMP_NUM_THREADS", "1")
    proc = subprocess.run([sys.executable, "examples/char_transformer.py", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, f"{args} failed:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


def _parse(out: str):
    steps = [(int(s), float(loss), float(lr)) for s, loss, lr in LINE.findall(out)]
    val = float(re.search(r"validation loss ([\d.]+)", out).group(1))
    sample = re.search(r"sample: '(.*)'", out).group(1)
    return steps, val, sample


@pytest.mark.slow  # 12 s; the char-GPT port (tests/test_example_torch_ports.py) runs by default
def test_runs_on_fgrad_torch_and_prints_pytorchs_losses():
    out = _run("--steps", "60")
    assert out.startswith("backend fgrad.torch"), out
    steps, val, _ = _parse(out)
    assert [s for s, _, _ in steps] == [s for s, _, _ in TORCH_60["steps"]], out
    for (_, loss, lr), (_, want_loss, want_lr) in zip(steps, TORCH_60["steps"]):
        assert loss == pytest.approx(want_loss, abs=2e-4), out
        assert lr == pytest.approx(want_lr, abs=1e-6), out
    assert val == pytest.approx(TORCH_60["validation"], abs=5e-4), out
    assert steps[-1][1] < 0.5 * steps[0][1], out  # it learns


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_full_training_matches_pytorch_and_writes_sentences():
    ours, theirs = _parse(_run()), _parse(_run("--torch"))
    for (s1, l1, r1), (s2, l2, r2) in zip(ours[0], theirs[0]):
        assert s1 == s2 and l1 == pytest.approx(l2, rel=2e-3) and r1 == pytest.approx(r2, rel=1e-6)
    assert ours[1] == pytest.approx(theirs[1], rel=5e-3)
    assert ours[1] < 0.25 * ours[0][0][1]  # validation loss far below the initial (uniform) loss
    words = set(re.findall(r"[a-z]+", ours[2]))
    assert words & {"cat", "dog", "bird", "fish", "man"} and words & {"sees", "likes", "eats", "finds"}
