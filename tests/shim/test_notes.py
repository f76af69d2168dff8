"""The PyTorch notes' code examples (examples/notes/) on fgrad.torch print PyTorch's numbers.

Every script runs (in one subprocess, through examples/notes/_runner.py) with ``import
fgrad.torch``; its printed lines are compared with what the same script prints under PyTorch
2.13 CPU.  Lines that depend on random draws are excluded: they are the lines that differ
between three PyTorch runs with different seeds (recorded in
examples/notes/reference_outputs.json, or computed live when torch is importable).  Object
addresses are blanked.  Scripts with random data also print seed-independent checks
("loss fell: True", "fit ok: True"), which are compared like any other line.
"""

from __future__ import annotations

import json
import os
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


def _compare(name: str, got: dict, expected: list) -> None:
    assert got["error"] is None, f"{name} raised:\n{got['error']}"
    lines = _runner.normalize(got["stdout"])
    assert len(lines) == len(expected), (
        f"{name}: printed {len(lines)} lines, PyTorch printed {len(expected)}\n--- fgrad:\n"
        + "\n".join(lines) + "\n--- torch (None = random-dependent):\n" + "\n".join(map(str, expected)))
    bad = [(i, g, e) for i, (g, e) in enumerate(zip(lines, expected)) if e is not None and g != e]
    assert not bad, f"{name}: lines differ from PyTorch's:\n" + "\n".join(
        f"  line {i}: fgrad {g!r}\n          torch {e!r}" for i, g, e in bad)


def test_reference_covers_every_script(recorded) -> None:
    assert sorted(recorded) == SCRIPTS


@pytest.mark.parametrize("name", SCRIPTS)
def test_note_matches_recorded_pytorch(name, fgrad_outputs, recorded) -> None:
    _compare(name, fgrad_outputs[name], recorded[name])


@pytest.mark.slow
@pytest.mark.skipif(not _torch_available(), reason="torch is not installed")
def test_notes_match_live_pytorch(fgrad_outputs) -> None:
    """Re-derive the reference with the installed PyTorch (three seeds) and compare."""
    runs = [_run_backend("torch", k) for k in (1, 2, 3)]
    failures = []
    for name in SCRIPTS:
        outs = [_runner.normalize(r[name]["stdout"]) for r in runs]
        expected = [x if all(len(o) > i and o[i] == x for o in outs) else None for i, x in enumerate(outs[0])]
        try:
            _compare(name, fgrad_outputs[name], expected)
        except AssertionError as e:
            failures.append(str(e))
    assert not failures, "\n\n".join(failures)


def test_plot_flag_is_optional() -> None:
    """Plotting scripts run headless without --plot (matplotlib is never imported)."""
    for name in ("qs24_linreg0_manual.py", "qs25_linreg1_autograd.py", "qs26_linreg2_optim.py"):
        src = _runner.source_for(name, "fgrad")
        assert "PLOT = '--plot' in sys.argv" in src
        assert "if PLOT:\n    from matplotlib" in src
