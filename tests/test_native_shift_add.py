"""`fgrad.core.native_shift_add`: a convolution's shift-and-add (col2im) in one C loop gives
the NumPy loop's bits (the same additions in the same order from ``+0.0``), with the kernels
on and off, for the geometries `_conv_shift_add` runs: transposed convolutions (lhs
dilation), strided and dilated kernels, cropping, groups, one and two spatial axes."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.torch as ftorch
from fgrad.core import native_loops, native_shift_add
from fgrad.ops import convolution as conv

HAS_CC = native_loops._compiler() is not None and native_loops.cache_dir() is not None
needs_cc = pytest.mark.skipif(not HAS_CC, reason="no C compiler or no private cache directory")

# (x shape, w shape, strides, padding, lhs_dilation, rhs_dilation, groups)
GEOMETRIES = [
    ((4, 8, 4, 4), (3, 8, 4, 4), (1, 1), ((2, 2), (2, 2)), (2, 2), (1, 1), 1),  # DCGAN-style transposed
    ((2, 6, 5, 7), (4, 6, 3, 3), (1, 1), ((1, 2), (0, 1)), (2, 3), (1, 1), 1),  # uneven
    ((2, 4, 6, 6), (5, 4, 3, 3), (2, 2), ((1, 1), (1, 1)), (1, 1), (1, 1), 1),  # strided
    ((2, 4, 9, 8), (6, 2, 3, 2), (1, 2), ((-1, 2), (1, 0)), (1, 1), (2, 1), 2),  # cropping, dilation, groups
    ((3, 5, 11), (2, 5, 4), (1,), ((3, 3),), (3,), (1,), 1),  # one spatial axis
    ((1, 2, 3, 3), (8, 2, 2, 2), (1, 1), ((1, 1), (1, 1)), (2, 2), (2, 2), 1),
]


def _switched_off(f):
    fgrad.config.update("native_loops", False)
    try:
        return f()
    finally:
        fgrad.config.update("native_loops", None)


def _hard(rng, shape, dt):
    return (rng.standard_normal(shape) * 2.0 ** rng.integers(-20, 20, shape)).astype(dt)


@needs_cc
@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("geometry", GEOMETRIES)
def test_shift_add_bit_for_bit(geometry, dt, monkeypatch):
    xs, ws, strides, padding, ld, rd, groups = geometry
    rng = np.random.default_rng(len(xs) + xs[1])
    x, w = _hard(rng, xs, dt), _hard(rng, ws, dt)
    x.flat[3], w.flat[1] = np.inf, np.nan if dt == np.float64 else w.flat[1]

    def run():
        return conv._conv_shift_add(np, x, w, strides, padding, ld, rd, groups).copy()

    calls = []
    real = native_shift_add.shift_add_2d
    monkeypatch.setattr(native_shift_add, "shift_add_2d", lambda *a: calls.append(1) or real(*a))
    with np.errstate(all="ignore"):
        on = run()
        assert calls, "the native loop was not taken"
        off = _switched_off(run)
    assert on.dtype == off.dtype == dt
    np.testing.assert_array_equal(on.view(np.uint64 if dt == np.float64 else np.uint32),
                                  off.view(np.uint64 if dt == np.float64 else np.uint32))


def test_other_dtypes_and_layouts_left_to_numpy():
    rows = np.zeros((1, native_shift_add.ROW), np.int64)
    z16 = np.zeros((1, 1, 1, 1, 1, 1), np.float16)
    assert native_shift_add.shift_add_2d(z16, np.zeros((1, 1, 1, 1), np.float16), rows) is False
    z = np.zeros((1, 1, 1, 1, 2, 4), np.float32)[..., ::2]  # not C-contiguous
    assert native_shift_add.shift_add_2d(z, np.zeros((1, 1, 1, 1), np.float32), rows) is False
    assert native_shift_add.plan_rows((), 3) is None
    assert _switched_off(lambda: native_shift_add.shift_add_2d(
        np.zeros((1, 1, 1, 1, 1, 1), np.float32), np.zeros((1, 1, 1, 1), np.float32), rows)) is False


@needs_cc
def test_conv_transpose2d_gradients_same_bits_on_and_off():
    """The shim's `conv_transpose2d` forward and gradients (the DCGAN's layers)."""
    rng = np.random.default_rng(3)
    xv = rng.standard_normal((4, 8, 4, 4)).astype(np.float32)
    wv = rng.standard_normal((8, 4, 4, 4)).astype(np.float32)
    gv = rng.standard_normal((4, 4, 8, 8)).astype(np.float32)

    def run():
        x = ftorch.tensor(xv, requires_grad=True)
        w = ftorch.tensor(wv, requires_grad=True)
        y = ftorch.nn.functional.conv_transpose2d(x, w, stride=2, padding=1)
        y.backward(ftorch.tensor(gv))
        return [t.detach().numpy().copy() for t in (y, x.grad, w.grad)]

    for a, b in zip(run(), _switched_off(run)):
        np.testing.assert_array_equal(a.view(np.uint32), b.view(np.uint32))
