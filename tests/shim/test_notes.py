"""The PyTorch notes' code examples (examples/notes/) on fgrad.torch print PyTorch's numbers.

Every script runs (in one subprocess, through examples/notes/_runner.py) with ``import
fgrad.torch``; its printed lines are compared with what the same script prints under PyTorch
2.13 CPU (recorded in examples/notes/reference_outputs.json, or computed live when torch is
importable).  fgrad.torch reproduces PyTorch's CPU random streams, so lines that print random
draws are compared too.  A line must match PyTorch's text exactly, except that numbers printed
to full precision may differ in their last digits (float sums in another order): a line whose
text matches with its numbers masked, and whose numbers agree to a relative 1e-5, passes.
Object addresses are blanked.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NOTES = os.path.join(ROOT, "examples", "notes")
sys.path.insert(0, NOTES)

import _runner  # noqa: E402

SCRIPTS = _runner.scripts()


def _run_backend(backend: str, seed_offset: int = 0) -> dict:
    out = os.path.join(os.environ.get("TMPDIR", "/tmp"),
                       f"fgrad_notes_{backend}_{seed_offset}_{os.getpid()}.json")
    env = dict(os.environ)
    # the recorded reference is a CPU-only PyTorch: the scripts run with fgrad's default
    # device, not a GPU (or FGRAD_BACKEND=fake's stand-in) as the default
    env.pop("FGRAD_BACKEND", None)
    # ... and on a machine without CUDA: with a GPU visible, `torch.cuda.is_available()` is
    # True for both libraries and the scripts that check it take their CUDA path (an extra
    # print in qs16; qs24 draws its data from the CUDA generator: other numbers, as PyTorch's)
    env["CUDA_VISIBLE_DEVICES"] = ""
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env.setdefault(var, "1")  # BLAS threads spinning on a busy machine make the loops crawl
    subprocess.run([sys.executable, os.path.join(NOTES, "_runner.py"), "--backend", backend, "--seed-offset",
                    str(seed_offset), "--json", out], check=True, cwd=ROOT, env=env, timeout=900,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(out, encoding="utf-8") as fh:
        res = json.load(fh)
    os.unlink(out)
    return res


def _torch_available() -> bool:
    try:
        import torch  # noqa: F401
    except Exception:  # noqa: BLE001 — any failure means "not available"
        return False
    return True


@pytest.fixture(scope="module")
def fgrad_outputs() -> dict:
    return _run_backend("fgrad")


@pytest.fixture(scope="module")
def recorded() -> dict:
    with open(_runner.REFERENCE, encoding="utf-8") as fh:
        return json.load(fh)["scripts"]


_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


# Lines printing the last loss of a float32 training run that fell ~12 orders of magnitude (from
# ~1e7 to ~1e-5): the residual is float32 rounding noise, so a different summation order in
# matmul changes it by up to ~1% (PyTorch with another BLAS thread count does the same).
NOISE_FLOOR = {("c01_tensors.py", 0), ("c02_autograd.py", 0), ("c03_custom_function.py", 0),
               ("c04_nn.py", 0), ("c05_optim.py", 0), ("c06_module.py", 0)}


def _same_line(got: str, want: str, rtol: float = 1e-5) -> bool:
    """Equal text, or equal text with numbers masked and numbers within ``rtol`` relative
    (full precision prints of float sums); short prints (4 decimals) must match exactly."""
    if got == want:
        return True
    if _NUMBER.sub("#", got) != _NUMBER.sub("#", want):
        return False
    g, w = _NUMBER.findall(got), _NUMBER.findall(want)
    for a, b in zip(g, w):
        if a == b:
            continue
        if len(b.split(".")[-1]) < 8:  # a short print that differs: a real difference
            return False
        if abs(float(a) - float(b)) > rtol * max(abs(float(b)), 1e-30):
            return False
    return True


def _compare(name: str, got: dict, expected: list) -> None:
    assert got["error"] is None, f"{name} raised:\n{got['error']}"
    lines = _runner.normalize(got["stdout"])
    assert len(lines) == len(expected), (
        f"{name}: printed {len(lines)} lines, PyTorch printed {len(expected)}\n--- fgrad:\n"
        + "\n".join(lines) + "\n--- torch:\n" + "\n".join(map(str, expected)))
    bad = [(i, g, e) for i, (g, e) in enumerate(zip(lines, expected))
           if not _same_line(g, e, 1e-2 if (name, i) in NOISE_FLOOR else 1e-5)]
    assert not bad, f"{name}: lines differ from PyTorch's:\n" + "\n".join(
        f"  line {i}: fgrad {g!r}\n          torch {e!r}" for i, g, e in bad)


@pytest.mark.parametrize("name", SCRIPTS)
def test_note_matches_recorded_pytorch(name, fgrad_outputs, recorded) -> None:
    _compare(name, fgrad_outputs[name], recorded[name])


def test_same_line_tolerates_only_full_precision_rounding() -> None:
    assert _same_line("loss 0.979121208190918", "loss 0.9791210889816284")
    assert not _same_line("tensor([0.6614, 0.2669])", "tensor([0.6614, 0.2670])")
    assert not _same_line("loss 0.979121208190918", "loss 0.979821208190918")
    assert not _same_line("a 1.0", "b 1.0")


@pytest.mark.slow
@pytest.mark.skipif(not _torch_available(), reason="torch is not installed")
def test_notes_match_live_pytorch(fgrad_outputs) -> None:
    """Re-derive the reference with the installed PyTorch and compare."""
    live = _run_backend("torch", 0)
    failures = []
    for name in SCRIPTS:
        try:
            _compare(name, fgrad_outputs[name], _runner.normalize(live[name]["stdout"]))
        except AssertionError as e:
            failures.append(str(e))
    assert not failures, "\n\n".join(failures)


def test_plot_flag_is_optional() -> None:
    """Plotting scripts run headless without --plot (matplotlib is never imported)."""
    for name in ("qs24_linreg0_manual.py", "qs25_linreg1_autograd.py", "qs26_linreg2_optim.py"):
        src = _runner.source_for(name, "fgrad")
        assert "PLOT = '--plot' in sys.argv" in src
        assert "if PLOT:\n    from matplotlib" in src
