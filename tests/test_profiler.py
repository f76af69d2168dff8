"""`fgrad.profiler`: per-primitive times and result sizes for eager code, backward passes and
jitted functions (as one call, or op by op), the Chrome trace JSON of `trace`, annotations,
JAX's names, and that profiling leaves fgrad as it was (the bottom trace, the NaN checks)."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import profiler
from fgrad.core.trace import EVAL_TRACE, state


def _names(prof):
    return {r.name: r for r in prof.key_averages()}


def test_eager_primitives_are_counted_with_their_result_bytes():
    x = fnp.ones(100)
    with profiler.profile() as prof:
        for _ in range(3):
            fnp.exp(x)
    rows = _names(prof)
    assert rows["exp"].calls == 3 and rows["exp"].out_bytes == 3 * 800
    assert rows["exp"].total > 0 and rows["exp"].mean == rows["exp"].total / 3
    assert "exp" in prof.table() and "calls" in prof.table()
    assert state.trace is EVAL_TRACE  # restored


def test_backward_passes_are_profiled():
    with profiler.profile() as prof:
        fgrad.grad(lambda x: fnp.sum(fnp.tanh(x) ** 2))(fnp.ones(10))
    rows = _names(prof)
    assert {"tanh", "reduce_sum", "mul"} <= set(rows)
    assert rows["mul"].calls >= 2  # forward square's derivative and the chain rule through tanh


def test_jit_is_one_row_per_call_or_expanded():
    def f(x):
        return fnp.sin(x) * 2

    g = fgrad.jit(f)
    g(fnp.ones(3))
    with profiler.profile() as prof:
        g(fnp.ones(3))
        g(fnp.ones(3))
    assert [(r.name, r.calls) for r in prof.key_averages()] == [("jit(f)", 2)]
    with profiler.profile(expand_jit=True) as prof:
        out = g(fnp.ones(3))
    assert {"sin", "mul"} <= set(_names(prof))
    np.testing.assert_allclose(np.asarray(out), 2 * np.sin(1.0) * np.ones(3))
    assert not fgrad.transforms.jit.disable_jit.active  # restored


def test_trace_writes_chrome_trace_events_with_annotations(tmp_path):
    with profiler.trace(tmp_path) as t:
        with profiler.StepTraceAnnotation("train", step_num=1):
            fnp.sum(fnp.ones(5))
    data = json.loads((tmp_path / "fgrad.trace.json").read_text())
    names = [e["name"] for e in data["traceEvents"]]
    assert "reduce_sum" in names and "train" in names
    assert all(e["ph"] == "X" and e["dur"] >= 0 for e in data["traceEvents"])
    assert t.result.key_averages()[0].name == "reduce_sum"
    profiler.start_trace(os.fspath(tmp_path / "again"))
    with pytest.raises(RuntimeError, match="already"):
        profiler.start_trace(tmp_path)
    assert profiler.stop_trace() is None
    with pytest.raises(RuntimeError, match="No profile started"):  # JAX's message
        profiler.stop_trace()


def test_profiling_keeps_the_nan_checks_and_refuses_inside_transforms():
    with _debug_nans():
        with profiler.profile():
            with pytest.raises(FloatingPointError):
                fnp.log(-fnp.ones(2))
    with pytest.raises(RuntimeError, match="outside any transform"):
        fgrad.grad(lambda x: _enter(x))(1.0)


class _debug_nans:
    def __enter__(self):
        fgrad.config.update("jax_debug_nans", True)

    def __exit__(self, *exc):
        fgrad.config.update("jax_debug_nans", False)


def _enter(x):
    with profiler.profile():
        return x * 2


def test_memory_profile_lists_live_arrays(tmp_path):
    keep = fnp.ones((64, 32))
    text = profiler.device_memory_profile().decode()
    assert "float64[64,32]" in text and str(keep.nbytes) in text
    profiler.save_device_memory_profile(tmp_path / "mem.txt")
    assert "live arrays" in (tmp_path / "mem.txt").read_text()
    assert keep.nbytes == 64 * 32 * 8 and keep.itemsize == 8


def test_annotate_function_and_lazy_attribute():
    @profiler.annotate_function(name="step")
    def step(x):
        return x + 1

    assert step(1) == 2
    assert fgrad.profiler is profiler
