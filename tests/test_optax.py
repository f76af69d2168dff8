"""optax, unmodified, on fgrad through the jax alias (`fgrad.jax_alias`, docs/jax-ecosystem.md).

Every run is a subprocess, as a user runs it: ``python -m fgrad.jax_alias program.py`` or
``python -m fgrad.jax_alias -m pytest <optax test file>``.  Needs optax (the ``ecosystem``
extra); the live comparison with JAX also needs jax.  The long runs of optax's own test files
are ``-m slow``."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

optax = pytest.importorskip("optax")
pytestmark = pytest.mark.cpu_program  # every test runs a program with FGRAD_BACKEND=cpu

ROOT = pathlib.Path(__file__).resolve().parents[1]
TOUR = ROOT / "tests" / "optax_programs" / "optax_tour.py"
STORED = ROOT / "tests" / "stored" / "optax_tour_jax.json"
OPTAX_DIR = pathlib.Path(optax.__file__).parent


def _env(**extra: str) -> dict:
    return {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
            "JAX_PLATFORMS": "cpu", "FGRAD_BACKEND": "cpu", **extra}


def _run(args: list[str], timeout: int = 600, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=ROOT,
                          env=_env(**env), timeout=timeout)


def _flat(results: dict) -> dict[str, np.ndarray]:
    out = {}
    for section, entries in results.items():
        if section.startswith("_"):
            continue
        for name, value in entries.items():
            parts = value.values() if isinstance(value, dict) else [value]
            out[f"{section}/{name}"] = np.concatenate([np.ravel(np.asarray(p, float)) for p in parts])
    return out


def _assert_same(got: dict, want: dict) -> None:
    g, w = _flat(got), _flat(want)
    assert sorted(g) == sorted(w)
    bad = {k: float(np.max(np.abs(g[k] - w[k]))) for k in w
           if not np.allclose(g[k], w[k], rtol=1e-7, atol=1e-8)}
    assert not bad, f"differs from JAX (max abs error per entry): {bad}"


QUICK = ["sgd", "adamw", "lion", "lbfgs", "chain_clip_adam_schedule", "multi_transform"]


def _tour(*names: str, real_jax: bool = False) -> dict:
    args = [str(TOUR), *names] if real_jax else ["-m", "fgrad.jax_alias", str(TOUR), *names]
    proc = _run(args, JAX_ENABLE_X64="1")  # the stored numbers are JAX's with x64 (both runs)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def _stored(*names: str) -> dict:
    want = json.loads(STORED.read_text())
    if names:
        want["optimizers"] = {k: v for k, v in want["optimizers"].items() if k in names}
    return want


def test_optax_tour_matches_stored_jax_numbers():
    # optimizers on a quadratic under jit (lbfgs: regression, its jitted step made the fusion
    # pass's pruned dependency search merge kernels into a cycle), 8 schedules and 14 losses;
    # stored from JAX 0.10.2 + optax 0.2.8 in float64 (the file's _produced_by says how)
    _assert_same(_tour(*QUICK), _stored(*QUICK))


@pytest.mark.slow
def test_optax_tour_all_optimizers_match_stored_jax_numbers():
    # all 25: adam, nadam, amsgrad, adamax, adagrad, adadelta, adafactor, rmsprop, lamb, lars,
    # novograd, radam, yogi, fromage, sm3, adabelief, masked weight decay, clip, ...
    _assert_same(_tour(), _stored())


@pytest.mark.slow
def test_optax_tour_matches_live_jax():
    pytest.importorskip("jax")
    _assert_same(_tour(), _tour(real_jax=True))


def _pytest_optax_file(relative: str, *extra: str) -> subprocess.CompletedProcess:
    return _run(["-m", "fgrad.jax_alias", "-m", "pytest", str(OPTAX_DIR / relative), "-q",
                 "-p", "no:cacheprovider", "-o", "addopts=", *extra])


def test_optax_base_tests_pass_on_fgrad():
    proc = _pytest_optax_file("_src/base_test.py")
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert " passed" in proc.stdout and "failed" not in proc.stdout


def test_optax_tests_that_switch_x64_off_pass_on_fgrad():
    """float64_test switches 64-bit types off in tearDown and checks float32 states;
    _casting_test compares with ``jnp.array([1.3, ...])``, float32 under JAX's default (the
    alias's default too); both failed before fgrad had a 32-bit mode (docs/x64-off.md)."""
    proc = _run(["-m", "fgrad.jax_alias", "-m", "pytest", str(OPTAX_DIR / "_src/float64_test.py"),
                 str(OPTAX_DIR / "tree_utils/_casting_test.py"), "-q", "-p", "no:cacheprovider",
                 "-o", "addopts="])
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert "39 passed" in proc.stdout, proc.stdout[-500:]


@pytest.mark.slow
@pytest.mark.parametrize("relative", [
    # files that pass completely on fgrad (docs/jax-ecosystem.md has the table of all 52)
    "contrib/_reduce_on_plateau_test.py", "_src/linesearch_test.py", "losses/_classification_test.py",
    "_src/combine_test.py", "_src/transform_test.py", "_src/lookahead_test.py",
    "schedules/_join_test.py", "losses/_regression_test.py", "losses/_smoothing_test.py",
    "losses/_ranking_test.py", "losses/_segmentation_test.py", "projections/_projections_test.py",
    "transforms/_clipping_test.py", "transforms/_masking_test.py", "transforms/_adding_test.py",
    "transforms/_combining_test.py", "transforms/_constraining_test.py", "contrib/_privacy_test.py",
    "assignment/_hungarian_algorithm_test.py",
])
def test_optax_test_file_passes_on_fgrad(relative):
    proc = _pytest_optax_file(relative)
    assert proc.returncode == 0, proc.stdout[-3000:]
