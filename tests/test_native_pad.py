"""`fgrad.core.native_pad`: a convolution input's padding in one C pass gives NumPy's two-pass
result (fill, then the input copied in) exactly, with the kernels on and off; cases it does
not take are left to NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
from fgrad.core import native_loops, native_pad
from fgrad.ops import convolution as conv

HAS_CC = native_loops._compiler() is not None and native_loops.cache_dir() is not None
needs_cc = pytest.mark.skipif(not HAS_CC, reason="no C compiler or no private cache directory")


def _numpy_pad(x, padding, fill, tail):
    shape = x.shape[:-2] + tuple(n + lo + hi for n, (lo, hi) in zip(x.shape[-2:], padding))
    z = np.full(int(np.prod(shape)) + tail, fill, x.dtype)
    view = z[:int(np.prod(shape))].reshape(shape)
    view[(Ellipsis,) + tuple(slice(lo, lo + n) for n, (lo, _) in zip(x.shape[-2:], padding))] = x
    return z


@needs_cc
@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("shape,padding,fill,tail", [
    ((32, 8, 32, 32), ((1, 1), (1, 1)), 0, 2),  # a ResNet layer's input with the wide rows' tail
    ((2, 3, 5, 7), ((0, 2), (3, 0)), 0.0, 0),
    ((4, 1, 1), ((2, 2), (2, 2)), -np.inf, 5),
    ((3, 4, 6), ((0, 0), (0, 0)), 1.5, 3),
])
def test_pad_planes_is_numpys(shape, padding, fill, tail, dt):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape).astype(dt)
    x.flat[0] = -0.0
    views = [x]
    if x.ndim == 4:  # a weight gradient's lhs: (C, N, H, W) of an (N, C, H, W) array; a flipped axis
        views += [x.transpose(1, 0, 2, 3), x[::-1, :, :, :], x[:, ::2]]
    for v in views:
        want = _numpy_pad(v, padding, fill, tail)
        got = np.empty_like(want)
        assert native_pad.pad_planes(v, got, padding, fill)
        np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))


@needs_cc
def test_dilate_and_pad_takes_it_and_matches_the_numpy_path(monkeypatch):
    calls = []
    real = native_pad.pad_planes
    monkeypatch.setattr(native_pad, "pad_planes", lambda *a: calls.append(1) or real(*a))
    x = np.random.default_rng(1).standard_normal((2, 3, 6, 5)).astype(np.float32)
    on = conv.dilate_and_pad(np, x, 2, (1, 1), ((1, 2), (2, 1)), tail=4)
    fgrad.config.update("native_loops", False)
    try:
        off = conv.dilate_and_pad(np, x, 2, (1, 1), ((1, 2), (2, 1)), tail=4)
    finally:
        fgrad.config.update("native_loops", None)
    np.testing.assert_array_equal(on, off)
    assert calls == [1, 1] and on.shape == (2, 3, 9, 8)


@pytest.mark.parametrize("x,padding,fill", [
    (np.ones((2, 3), np.float16), ((1, 1), (1, 1)), 0.0),  # dtype
    (np.ones((2, 6), np.float32)[:, ::2], ((1, 1), (1, 1)), 0.0),  # rows not contiguous
    (np.ones((3, 2, 4), np.float32).transpose(1, 0, 2), ((1, 1), (1, 1)), 0.0),  # planes not contiguous
    (np.ones((2, 2, 2, 2, 2), np.float32), ((1, 1), (1, 1)), 0.0),  # three leading axes
    (np.ones((2, 3), np.float32), ((-1, 1), (1, 1)), 0.0),  # cropping
    (np.ones((2, 3), np.float32), ((1, 1), (1, 1)), np.float32(0)),  # a NumPy scalar fill
])
def test_cases_left_to_numpy(x, padding, fill):
    z = np.zeros(100, x.dtype)
    assert native_pad.pad_planes(x, z, padding, fill) is False
    assert not z.any()
