"""torch.profiler / torch.autograd.profiler: operations, record_function ranges and the
backward pass recorded with PyTorch's names and nesting (self time = total minus children),
key_averages tables, schedules with on_trace_ready, Chrome traces, and every patched function
restored afterwards."""

from __future__ import annotations

import json

import pytest

import fgrad.torch as torch
import fgrad.torch.nn.functional as F
from fgrad.torch import _profile_state
from fgrad.torch.profiler import (
    ProfilerActivity,
    profile,
    record_function,
    schedule,
    tensorboard_trace_handler,
)


def test_ops_ranges_backward_and_nesting():
    m = torch.nn.Linear(4, 3)
    with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
        with record_function("model_inference"):
            y = (m(torch.randn(2, 4)).relu() + 1).sum()
        y.backward()
    rows = {r.key: r for r in prof.key_averages()}
    for name in (
        "model_inference",
        "aten::linear",
        "aten::addmm",
        "aten::relu",
        "aten::add",
        "aten::sum",
        "aten::randn",
        "autograd::engine::evaluate_function",
    ):
        assert rows[name].count == 1, name
    # linear contains addmm: its total includes it, its self time does not
    assert rows["aten::linear"].cpu_time_total >= rows["aten::addmm"].cpu_time_total
    assert (
        rows["aten::linear"].self_cpu_time_total
        <= rows["aten::linear"].cpu_time_total - rows["aten::addmm"].cpu_time_total + 1e-6
    )
    assert rows["model_inference"].cpu_time_total >= rows["aten::linear"].cpu_time_total
    shaped = {r.key: r.input_shapes for r in prof.key_averages(group_by_input_shape=True)}
    assert shaped["aten::addmm"] == [[2, 4], [3, 4], [3]]
    table = prof.key_averages().table(sort_by="cpu_time_total", row_limit=3)
    assert "Self CPU %" in table and "# of Calls" in table and "Self CPU time total:" in table
    # three data rows (which three depends on timing: an autograd row may be among them)
    assert len([ln for ln in table.splitlines() if ln.split() and ln.split()[0] in rows]) == 3
    with pytest.raises(AttributeError):
        prof.key_averages().table(sort_by="nonsense")


def test_patches_are_restored_and_nothing_records_outside():
    before = (torch.exp, F.relu, torch.Tensor.__add__, torch.Tensor.sum)
    with profile():
        torch.ones(2).exp()
        assert torch.exp is not before[0]
    assert (torch.exp, F.relu, torch.Tensor.__add__, torch.Tensor.sum) == before
    assert _profile_state.recorder is None
    with record_function("outside"):  # no profile: a no-op
        torch.ones(1)


def test_schedule_and_trace_handler(tmp_path):
    sched = schedule(wait=1, warmup=1, active=2, repeat=1)
    assert [sched(i).name for i in range(6)] == [
        "NONE",
        "WARMUP",
        "RECORD",
        "RECORD_AND_SAVE",
        "NONE",
        "NONE",
    ]
    seen = []
    with profile(schedule=sched, on_trace_ready=lambda p: seen.append(len(p.events()))) as p:
        for _ in range(6):
            torch.ones(3).exp()
            p.step()
    assert seen == [4]  # two recorded steps of two ops
    with profile(on_trace_ready=tensorboard_trace_handler(str(tmp_path))) as p:
        torch.ones(2) * 3
    (trace,) = list(tmp_path.iterdir())
    events = json.loads(trace.read_text())["traceEvents"]
    assert {e["name"] for e in events} >= {"aten::ones", "aten::mul"}
    p.export_chrome_trace(str(tmp_path / "t.json"))
    assert json.loads((tmp_path / "t.json").read_text())["traceEvents"]



def test_pytorch_2_13_export_and_timeout_keywords(tmp_path):
    """PyTorch 2.13's keywords are accepted: ``post_processing_timeout_s``/``activity_filters``
    (no effect: no Kineto post-processing), ``use_python_export`` (one writer), and the legacy
    profiler's ``metadata``, written as top-level keys of the trace (values are JSON text)."""
    with profile(post_processing_timeout_s=1.0,
                 on_trace_ready=tensorboard_trace_handler(str(tmp_path / "tb"), use_python_export=True)) as p:
        torch.ones(2).exp()
    p.export_chrome_trace(str(tmp_path / "a.json"), use_python_export=True)
    assert {e["name"] for e in json.loads((tmp_path / "a.json").read_text())["traceEvents"]} >= {"aten::exp"}
    assert len(list((tmp_path / "tb").iterdir())) == 1
    with torch.autograd.profiler.profile(post_processing_timeout_s=1.0, activity_filters=None) as prof:
        torch.ones(2).exp()
    prof.export_chrome_trace(str(tmp_path / "b.json"), {"run": '"r1"', "step": "3"}, use_python_export=True)
    trace = json.loads((tmp_path / "b.json").read_text())
    assert trace["run"] == "r1" and trace["step"] == 3
    assert {e["name"] for e in trace["traceEvents"]} >= {"aten::ones", "aten::exp"}

def test_legacy_autograd_profiler_and_one_at_a_time():
    with torch.autograd.profiler.profile() as prof:
        torch.ones(2).exp()
    assert [r.key for r in prof.key_averages()] == ["aten::ones", "aten::exp"]
    with torch.autograd.profiler.profile(enabled=False) as prof:
        torch.ones(2)
    assert list(prof.key_averages()) == []
    with profile():
        with pytest.raises(RuntimeError, match="another profiler is already recording"):
            with profile():
                pass
