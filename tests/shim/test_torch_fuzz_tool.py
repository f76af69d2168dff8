"""Smoke tests of ``tools/torch_fuzz.py``, the differential fuzzer of ``fgrad.torch`` against
PyTorch: its draws and its comparison run without torch; a few seeds against live torch run
where it is installed (and would report the defects the tool found, on the old code)."""

from __future__ import annotations

import importlib.util
import pathlib
import sys

import numpy as np
import pytest

TOOL = pathlib.Path(__file__).resolve().parents[2] / "tools" / "torch_fuzz.py"


@pytest.fixture(scope="module")
def fuzz():
    spec = importlib.util.spec_from_file_location("torch_fuzz", TOOL)
    module = importlib.util.module_from_spec(spec)
    sys.modules["torch_fuzz"] = module  # its dataclass looks its module up
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop("torch_fuzz", None)


def test_every_case_draws_its_arguments(fuzz):
    names = [c.name for c in fuzz.CASES]
    assert len(names) == len(set(names)) and len(names) > 300
    for c in fuzz.CASES:
        args, kw = c.make(np.random.default_rng(7))
        assert isinstance(kw, dict), c.name
        assert not any(isinstance(a, np.generic) for a in args), c.name  # 0-d draws are arrays, not scalars


def test_value_gap_matches_nan_inf_and_tolerance(fuzz):
    gap = fuzz._value_gap
    t = np.array([1.0, np.nan, np.inf, -np.inf, 0.0])
    assert gap(t, t.copy(), 1e-10) is None
    assert gap(t, np.array([1.0, 0.0, np.inf, -np.inf, 0.0]), 1e-10)  # NaN where torch has NaN
    assert gap(t, np.array([1.0, np.nan, -np.inf, -np.inf, 0.0]), 1e-10)  # the infinity's sign
    assert gap(t, np.array([1.0 + 1e-12, np.nan, np.inf, -np.inf, 0.0]), 1e-10) is None
    assert gap(t, np.array([1.0 + 1e-6, np.nan, np.inf, -np.inf, 0.0]), 1e-10)
    assert gap(np.array([1, 2]), np.array([1, 3]), 0.0)  # integers exactly


def test_compare_reports_dtype_shape_and_count(fuzz):
    import fgrad.torch as ft

    a = ft.tensor([1.0, 2.0])
    assert fuzz.compare(a, a.clone()) is None
    assert "dtype" in fuzz.compare(a, a.double())
    assert "shape" in fuzz.compare(a, a[:1])
    assert "outputs" in fuzz.compare((a, a), (a,))


FIXED = ["acosh", "F.hardswish", "angle", "F.unfold", "chunk", "cat", "reduce_sum", "softmax", "flip",
         "addmm", "maximum", "floor"]


@pytest.mark.slow
def test_fuzz_finds_nothing_in_the_cases_it_found_defects_in(fuzz):
    pytest.importorskip("torch")
    results = fuzz.fuzz(set(FIXED), draws=2, seed=0)
    assert not results, fuzz.summarize(results)


def test_fuzz_reports_a_wrong_value_and_a_wrong_gradient(fuzz, monkeypatch):
    pytest.importorskip("torch")
    import fgrad.torch as ft

    sin = ft.sin
    monkeypatch.setattr(ft, "sin", lambda x: sin(x) * 1.001)
    assert any(stage == "forward" for stage, _, _ in fuzz.fuzz({"sin"}, draws=6)["sin"])
    monkeypatch.setattr(ft, "sin", lambda x: sin(x) + (x - x.detach()) * 0.5)  # value right, gradient not
    assert any(stage == "grad" for stage, _, _ in fuzz.fuzz({"sin"}, draws=6)["sin"])
