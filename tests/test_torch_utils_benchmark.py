"""torch.utils.benchmark: Timer's semantics, and Measurement/Compare formats compared with
PyTorch's on the same (fixed) times -- stored, and live when PyTorch is installed."""

import importlib

import numpy as np
import pytest

import fgrad.torch as torch
from fgrad.torch.utils import benchmark

# (label, sub_label, description, num_threads, raw times, number_per_run)
CASES = [
    ("add", "3", "ones", 1, [9.6e-4, 9.7e-4, 9.9e-4, 1.0e-3, 9.57e-4], 1000),
    ("add", "3", "mul", 1, [3.1e-3, 3.2e-3, 3.15e-3, 3.3e-3], 1000),
    ("add", "30", "ones", 1, [1.2e-2, 1.25e-2, 1.3e-2, 1.21e-2], 1000),
    ("add", "3", "ones", 4, [5e-4, 6e-4, 5.5e-4, 5.2e-4], 1000),
    ("other", "x", "d", 1, [2e-5, 2.1e-5, 2.05e-5, 4e-5], 10),
]

STORED_REPR = """add: 3
ones
setup: x = 1
  Median: 970.00 ns
  IQR:    30.00 ns (960.00 to 990.00)
  5 measurements, 1000 runs per measurement, 1 thread"""

STORED_TABLE = (  # PyTorch 2.13's str(Compare(...)) of CASES[:4] + _extra
    "[----------------- add ------------------]\n"
    "          |    ones   |   mul    |   div  \n"
    "1 threads: -------------------------------\n"
    "      3   |    970.0  |  3175.0  |  2000.0\n"
    "      30  |  12300.0  |          |        \n"
    "4 threads: -------------------------------\n"
    "      3   |    535.0  |          |        \n"
    "\nTimes are in nanoseconds (ns).\n")


def _measurements(mod):
    b = mod.utils.benchmark
    return [b.Measurement(n, times, b.TaskSpec("x + y", "x = 1", label=lab, sub_label=sub, description=d,
                                               num_threads=th))
            for lab, sub, d, th, times, n in CASES]


def _strip_address(r):
    return r.split("\n", 1)[1]


def test_measurement_stats_and_repr_stored():
    m = _measurements(torch)[0]
    assert m.number_per_run == 1000
    np.testing.assert_allclose(m.times, np.array(CASES[0][4]) / 1000)
    np.testing.assert_allclose(m.median, 9.7e-7)
    np.testing.assert_allclose(m.mean, np.mean(CASES[0][4]) / 1000)
    np.testing.assert_allclose(m.iqr, 3e-8)
    assert _strip_address(repr(m)) == STORED_REPR
    assert repr(m).startswith("<fgrad.torch.utils.benchmark.common.Measurement object at 0x")
    single = benchmark.Measurement(100, [1.18e-4], benchmark.TaskSpec("pass", "pass"))
    assert _strip_address(repr(single)) == "pass\n  1.18 us\n  1 measurement, 100 runs , 1 thread"
    warned = _measurements(torch)[4]
    assert warned.has_warnings and "WARNING: Interquartile range is" in repr(warned)


def test_measurements_match_pytorch_live():
    pt = pytest.importorskip("torch")
    importlib.import_module("torch.utils.benchmark")  # (an import statement would rebind `torch`)

    for mine, theirs in zip(_measurements(torch), _measurements(pt), strict=True):
        assert _strip_address(repr(mine)) == _strip_address(repr(theirs))
        for attr in ("median", "mean", "iqr", "significant_figures", "has_warnings", "title", "env"):
            assert getattr(mine, attr) == pytest.approx(getattr(theirs, attr)), attr
        assert mine.meets_confidence() == theirs.meets_confidence()


def test_compare_table_stored():
    table = str(benchmark.Compare(_measurements(torch)[:4] + [_extra(torch)]))
    assert table == STORED_TABLE


def _extra(mod):
    b = mod.utils.benchmark
    return b.Measurement(1000, [2e-3] * 4, b.TaskSpec("x + y", "x = 1", label="add", sub_label="3",
                                                       description="div", num_threads=1))


@pytest.mark.parametrize("options", [(), ("trim",), ("colorize",), ("rowwise",), ("highlight",),
                                     ("trim", "highlight", "colorize")])
def test_compare_matches_pytorch_live(options):
    pt = pytest.importorskip("torch")
    importlib.import_module("torch.utils.benchmark")  # (an import statement would rebind `torch`)

    tables = []
    for mod in (torch, pt):
        c = mod.utils.benchmark.Compare(_measurements(mod) + [_extra(mod)])
        if "trim" in options:
            c.trim_significant_figures()
        if "colorize" in options:
            c.colorize()
        if "rowwise" in options:
            c.colorize(rowwise=True)
        if "highlight" in options:
            c.highlight_warnings()
        tables.append(str(c))
    assert tables[0] == tables[1]


def test_timer_semantics():
    t = benchmark.Timer("x * y", setup="y = 2", globals={"x": torch.ones(3)}, label="mul", sub_label="3",
                        description="ones", num_threads=1)
    m = t.timeit(50)
    assert m.number_per_run == 50 and len(m.raw_times) == 1 and m.times[0] > 0
    assert (m.label, m.sub_label, m.description, m.title) == ("mul", "3", "ones", "mul: 3")
    calls = []
    b = t.blocked_autorange(callback=lambda n, s: calls.append((n, s)), min_run_time=0.02)
    assert sum(b.raw_times) >= 0.02 and len(calls) == len(b.raw_times)
    assert all(n == b.number_per_run for n, _ in calls)
    a = t.adaptive_autorange(min_run_time=0.01, max_run_time=0.5)
    assert len(a.raw_times) >= 4 or sum(a.raw_times) > 0.5
    # torch in the globals is fgrad.torch
    assert benchmark.Timer("torch.ones(2).sum()").timeit(3).number_per_run == 3
    assert "Times are in" in str(benchmark.Compare([m, b]))
    with pytest.raises(ValueError, match="Currently only a `str` stmt is supported"):
        benchmark.Timer(lambda: None)
    with pytest.raises(NotImplementedError, match="blocked_autorange"):
        t.repeat()
    with pytest.raises(ValueError, match="Expected an instance of `Measurement`"):
        benchmark.Compare([1])


def test_helpers_stored():
    assert benchmark.select_unit(2.5e-6) == ("us", 1e-6)
    assert benchmark.select_unit(3.0) == ("s", 1)
    assert benchmark.trim_sigfig(3.14159, 2) == 3.1
    assert benchmark.unit_to_english("ms") == "millisecond"
    assert benchmark.ordered_unique([3, 1, 3, 2]) == [3, 1, 2]
