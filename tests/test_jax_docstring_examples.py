"""JAX's own docstring examples for ``jax.numpy``, ``jax.numpy.linalg`` and ``jax.numpy.fft``,
run unchanged on fgrad (issue 12: a JAX program runs by changing its imports and prints the
same numbers).

``tools/jax_docstring_examples.py`` extracts each public function's doctest examples and runs
them with ``jax``/``jnp`` resolved to fgrad.  For the functions whose examples agree with JAX,
``tests/stored/jax_docstring_examples.json`` holds the example sources and JAX 0.10.2's
printed outputs (``python tools/jax_docstring_examples.py jax.numpy jax.numpy.linalg
jax.numpy.fft [--x64] --store tests/stored/jax_docstring_examples.json``), so the check runs
without JAX.  fgrad must print exactly JAX's text ("same"), or, for the few functions stored as
"close", the same text with numbers equal to 2e-5 (32-bit) / 1e-9 (x64) relative.

The default run checks every stored function with 64-bit types off (JAX's default, the
docs' mode); ``-m slow`` adds x64 mode and compares the stored outputs with the installed JAX.
This module never imports ``jax`` at collection time.  See docs/jax-docstring-examples.md.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests._host_numerics import AVX512

import fgrad
from jax_snippets import runner, strip_device

STORED = json.loads((Path(__file__).parent / "stored" / "jax_docstring_examples.json").read_text())
MODES = {"x32": False, "x64": True}
# documented accelerator numerics (docs/gpu_numerics.md): subnormals flush to zero (spacing(0)
# is the smallest normal float) and complex sinh/tanh and the FFTs come from the device's own
# loops, whose zero imaginary parts carry other signs
ACCELERATOR_NUMERICS = {"jax.numpy.spacing", "jax.numpy.sinh", "jax.numpy.tanh", "jax.numpy.fft.ihfft"}
# NumPy's float32 arctan2 on an AVX-512 host is another SIMD kernel, 1 ulp from the AVX2 one
# the stored output was printed with (tests/_host_numerics.py): close, not the same digits
HOST_SIMD_NUMERICS = {"jax.numpy.angle"}


def _names(mode: str) -> list[str]:
    return sorted(STORED[mode])


def _check(name: str, mode: str) -> None:
    if name in ACCELERATOR_NUMERICS and fgrad.backends.default_device().platform != "cpu":
        pytest.skip("an accelerator's documented numerics differ here (docs/gpu_numerics.md)")
    entry = STORED[mode][name]
    got, messages = runner.run_source(entry["sources"], "fgrad", MODES[mode])
    got = [strip_device(g) for g in got]  # (fgrad names an accelerator in its reprs; JAX never)
    # the stored functions agree with JAX, exceptions included: an expected exception is fine
    status, detail = runner.compare_outputs(got, entry["outputs"], ["Traceback"] * len(got),
                                            MODES[mode], messages)
    exact = entry["status"] == runner.SAME and not (AVX512 and name in HOST_SIMD_NUMERICS)
    allowed = {runner.SAME} if exact else {runner.SAME, runner.CLOSE}
    assert status in allowed, f"{name} ({mode}): {status}: {detail}"


@pytest.mark.parametrize("name", _names("x32"))
def test_docstring_examples_print_what_jax_prints(name):
    _check(name, "x32")


@pytest.mark.slow
@pytest.mark.parametrize("name", _names("x64"))
def test_docstring_examples_print_what_jax_prints_x64(name):
    _check(name, "x64")


@pytest.mark.slow
@pytest.mark.parametrize("mode", list(MODES))
def test_stored_outputs_are_live_jax(mode):
    pytest.importorskip("jax")
    wrong = []
    for name in _names(mode):
        entry = STORED[mode][name]
        got, _ = runner.run_source(entry["sources"], "jax", MODES[mode])
        if got != entry["outputs"]:
            wrong.append(name)
    assert not wrong, ("the installed JAX prints other outputs; rerun tools/jax_docstring_examples.py "
                       f"--store ({mode}): {wrong}")


def test_coverage_is_recorded():
    """The stored set is the agreeing functions of the run recorded in the docs page."""
    assert len(STORED["x32"]) >= 340 and len(STORED["x64"]) >= 340
    assert {"jax.numpy.pad", "jax.numpy.sinc", "jax.numpy.linspace", "jax.numpy.delete",
            "jax.numpy.repeat", "jax.numpy.piecewise"} <= set(STORED["x32"])
    # session 16: complex zero signs (cosh, ihfft), roots' leading zeros, donation (copy),
    # Lowered.cost_analysis (multi_dot)
    assert {"jax.numpy.cosh", "jax.numpy.fft.ihfft", "jax.numpy.fft.hfft", "jax.numpy.roots",
            "jax.numpy.copy", "jax.numpy.linalg.multi_dot"} <= set(STORED["x32"]) & set(STORED["x64"])


def test_runner_compares_as_documented():
    """The comparison itself: exact text is "same", last digits "close", a dtype "differs",
    an exception of another type "fgrad raises" (a subclass with JAX's type name is fine)."""
    cmp = runner.compare_outputs
    assert cmp(["Array(1., dtype=float32)\n"], ["Array(1., dtype=float32)\n"], [""], False)[0] == "same"
    assert cmp(["Array(1.0000001, dtype=float32)\n"], ["Array(1., dtype=float32)\n"], [""],
               False)[0] == "close"
    assert cmp(["Array(1., dtype=float64)\n"], ["Array(1., dtype=float32)\n"], [""], False)[0] == "differs"
    assert cmp(["<raises ValueError>"], ["<raises TypeError>"], ["Traceback"], False)[0] == "fgrad raises"
    assert cmp(["<raises ShapeError TypeError ValueError>"], ["<raises TypeError>"], ["Traceback"],
               False)[0] == "same"
    assert cmp(["x\n"], ["<raises NameError>"], ["x"], False)[0] == "jax raises"
