"""`fgrad.core.native_sums`: float32 sums with a float64 accumulator in C, bit for bit NumPy's
``np.add.reduce(x, axis=axes, dtype=np.float64)``, and the float64 squared deviations' sums;
the callers (`ops.shape`'s wide sums, BatchNorm's running statistics) give the same bits with
the kernels on and off.

The values are spread over 2**-40..2**40 with random signs, so any other order of the float64
additions than NumPy's shows in the sums (checked: summing the runs in another order fails)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
import fgrad.torch as ftorch
from fgrad.core import native_loops, native_sums
from fgrad.ops import shape as shape_ops

HAS_CC = native_loops._compiler() is not None and native_loops.cache_dir() is not None
needs_cc = pytest.mark.skipif(not HAS_CC, reason="no C compiler or no private cache directory")

# (shape, summed axes): BatchNorm's layouts, rows of features, runs of 1..8192, odd sizes,
# size-1 axes, leading or trailing blocks only
CASES = [((32, 8, 32, 32), (0, 2, 3)), ((32, 16, 16, 16), (0, 2, 3)), ((32, 32, 8, 8), (0, 2, 3)),
         ((64, 64, 1, 1), (0, 2, 3)), ((64, 64), (0,)), ((300, 5), (0,)), ((8, 3, 5, 7), (0, 2, 3)),
         ((2, 3, 64, 128), (0, 2, 3)), ((5, 2, 8192), (0, 2)), ((7, 3, 129), (0, 2)), ((7, 3, 127), (0, 2)),
         ((1, 3, 9), (0, 2)), ((70, 2, 2), (0, 2)), ((2, 1000, 3), (0, 2)), ((3, 4, 5, 6), (0, 1)),
         ((100, 7, 9), (0, 1)), ((3, 2, 50, 60), (2, 3)), ((4, 5, 6, 7), (0, 3)), ((65, 2, 3, 4), (0,)),
         ((2, 3, 1, 17), (0, 2, 3))]


@pytest.fixture(autouse=True)
def _small_arrays_too(monkeypatch):
    """The kernels take arrays of any size here (the callers leave small ones to NumPy)."""
    monkeypatch.setattr(native_sums, "MIN_SIZE", 1)


def _hard(rng, shape):
    return (rng.standard_normal(shape) * 2.0 ** rng.integers(-40, 40, shape)).astype(np.float32)


@needs_cc
@pytest.mark.parametrize("shape,axes", CASES)
def test_wide_sums_are_numpys_bit_for_bit(shape, axes):
    rng = np.random.default_rng(sum(shape))
    for x in (_hard(rng, shape), rng.standard_normal(shape).astype(np.float32)):
        want = np.add.reduce(x, axis=axes, dtype=np.float64)
        got = native_sums.wide_sums(x, axes)
        assert got is not None
        np.testing.assert_array_equal(got.view(np.uint64), want.view(np.uint64))
        mean = np.add.reduce(x, axis=axes, dtype=np.float64, keepdims=True) / (x.size // want.size)
        d = np.subtract(x, mean, dtype=np.float64)
        np.multiply(d, d, out=d)
        want2 = np.add.reduce(d, axis=axes)
        got2 = native_sums.sq_dev_sums(x, axes, mean)
        np.testing.assert_array_equal(got2.view(np.uint64), want2.view(np.uint64))


def test_another_order_would_show():
    """The test data tells orders apart: the same runs summed last-to-first differ."""
    rng = np.random.default_rng(0)
    x = _hard(rng, (32, 8, 64))
    want = np.add.reduce(x, axis=(0, 2), dtype=np.float64)
    other = sum(np.add.reduce(x[a].astype(np.float64), axis=1) for a in reversed(range(32)))
    assert (other != want).any()


@needs_cc
def test_specials_and_signed_zeros():
    x = np.full((3, 4, 9), -0.0, np.float32)
    x[0, 1, 2], x[1, 2, 3], x[2, 3, 0], x[2, 3, 1] = np.inf, np.nan, np.inf, -np.inf
    for axes in ((0, 2), (0,)):
        y = x if axes == (0, 2) else x[:, :, 0].copy()
        with np.errstate(invalid="ignore"):  # (inf - inf; the callers run with NumPy's reports off)
            want = np.add.reduce(y, axis=axes, dtype=np.float64)
        got = native_sums.wide_sums(y, axes)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("x,axes", [
    (np.ones((3, 4, 9000), np.float32), (0, 2)),  # runs longer than a buffer
    (np.ones((100, 1, 1), np.float32), (0, 2)),  # one kept value: NumPy sums one run
    (np.ones((4, 5, 6), np.float32), (0, 1, 2)),  # nothing kept
    (np.ones((4, 5, 6), np.float32), (1,)),  # kept axes not one block
    (np.ones((4, 5, 6), np.float64), (0,)),  # not float32
    (np.ones((6, 5), np.float32).T, (0,)),  # not C-contiguous
    (np.ones((0, 5), np.float32), (0,)),  # empty
])
def test_cases_left_to_numpy(x, axes):
    assert native_sums.wide_sums(x, axes) is None


def test_small_arrays_left_to_numpy(monkeypatch):
    monkeypatch.setattr(native_sums, "MIN_SIZE", 8192)
    assert native_sums.blocks(np.ones((64, 64), np.float32), (0,)) is None
    assert native_sums.blocks(np.ones((64, 128), np.float32), (0,)) == (64, 128, 1)


@needs_cc
def test_another_numpy_buffer_size_is_left_to_numpy():
    x = np.ones((3, 4, 5000), np.float32)
    assert native_sums.blocks(x, (0, 2)) == (3, 4, 5000)
    old = np.getbufsize()
    for size in (4096, 16384):  # another buffer: another order possible, NumPy sums
        np.setbufsize(size)
        try:
            assert native_sums.blocks(x, (0, 2)) is None
            assert native_sums.blocks(np.ones((300, 40), np.float32), (0,)) is None
        finally:
            np.setbufsize(old)


def _switched_off(f):
    fgrad.config.update("native_loops", False)
    try:
        return f()
    finally:
        fgrad.config.update("native_loops", None)


def test_switch_off_and_no_compiler(monkeypatch):
    x = np.ones((4, 3, 5), np.float32)
    assert _switched_off(lambda: native_sums.wide_sums(x, (0, 2))) is None
    monkeypatch.setattr(native_loops, "load", lambda source, flags=None: None)
    monkeypatch.setattr(native_loops, "_functions", {})
    assert native_sums.wide_sums(x, (0, 2)) is None
    assert native_sums.sq_dev_sums(x, (0, 2), np.zeros(3)) is None


@needs_cc
def test_fgrad_sums_and_batch_norm_statistics_same_bits_on_and_off():
    """`fnp.sum` (eager and under jit) and BatchNorm's running statistics: the kernels' bits
    are the NumPy path's."""
    rng = np.random.default_rng(5)
    x = _hard(rng, (16, 4, 8, 8))

    def run():
        s = np.asarray(fnp.sum(fnp.asarray(x), axis=(0, 2, 3)))
        sj = np.asarray(fgrad.jit(lambda v: fnp.sum(v * 2.0, axis=(0, 2, 3)))(fnp.asarray(x)))
        bn = ftorch.nn.BatchNorm2d(4)
        xt = ftorch.tensor(rng.standard_normal((16, 4, 8, 8)).astype(np.float32) * 3 + 1)
        for _ in range(2):
            bn(xt)
        return s, sj, bn.running_mean.numpy().copy(), bn.running_var.numpy().copy()

    state = rng.bit_generator.state
    on = run()
    rng.bit_generator.state = state
    off = _switched_off(run)
    for a, b in zip(on, off):
        np.testing.assert_array_equal(a.view(np.uint32), b.view(np.uint32))


def test_sum_accumulator_kernel_used(monkeypatch):
    """The wide host sum asks `native_sums` first (and falls back to NumPy on None)."""
    calls = []
    real = native_sums.wide_sums
    monkeypatch.setattr(native_sums, "wide_sums", lambda x, axes: calls.append(axes) or real(x, axes))
    x = np.ones((100, 3), np.float32)
    np.testing.assert_array_equal(shape_ops._wide_sum(x, (0,), np.dtype(np.float64), np.dtype(np.float32)),
                                  np.full(3, 100, np.float32))
    assert calls == [(0,)]


@needs_cc
@pytest.mark.parametrize("shape,axes", [((64, 64), (0,)), ((16, 8, 4, 4), (0, 2, 3)), ((300, 5), (0,))])
def test_batch_norm_statistics_of_small_arrays_are_native_and_numpys(monkeypatch, shape, axes):
    """BatchNorm's statistics take the C sums from `STATS_MIN_SIZE` values (other callers from
    `MIN_SIZE`): the float64 mean and variance NumPy's two passes give, bit for bit."""
    monkeypatch.setattr(native_sums, "MIN_SIZE", 8192)
    from fgrad.torch.nn.functional import _batch_stats64

    x = _hard(np.random.default_rng(sum(shape)), shape)
    assert native_sums.wide_sums(x, axes) is None
    assert native_sums.wide_sums(x, axes, native_sums.STATS_MIN_SIZE) is not None
    size = x.size // math.prod(shape[i] for i in range(len(shape)) if i not in axes)
    mean, var = _batch_stats64(x, axes, size)
    want_mean = np.add.reduce(x, axis=axes, dtype=np.float64) / size
    d = np.subtract(x, np.add.reduce(x, axis=axes, dtype=np.float64, keepdims=True) / size, dtype=np.float64)
    want_var = np.add.reduce(d * d, axis=axes) / size
    np.testing.assert_array_equal(mean.reshape(-1).view(np.uint64), want_mean.reshape(-1).view(np.uint64))
    np.testing.assert_array_equal(var.view(np.uint64), want_var.view(np.uint64))
