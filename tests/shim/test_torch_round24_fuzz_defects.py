"""Defects found in round 24 of differential testing of ``fgrad.torch`` against PyTorch 2.13
(``tools/torch_fuzz.py`` and the open list in docs/shim-conventions.md), each pinned by PyTorch's
numbers stored here; the live comparison runs where torch is installed."""

from __future__ import annotations

import math

import numpy as np
import pytest

import fgrad.torch as ft

inf, nan = math.inf, math.nan


def _live():
    return pytest.importorskip("torch")


def _same(mine, theirs, rtol=1e-12):
    """Equal nested lists of numbers: NaN where NaN, infinities and the sign of zero alike."""
    a, b = np.asarray(mine, dtype=float), np.asarray(theirs, dtype=float)
    assert a.shape == b.shape, (mine, theirs)
    np.testing.assert_allclose(a, b, rtol=rtol, atol=1e-300)
    assert (np.signbit(a) == np.signbit(b))[(a == 0) & (b == 0)].all(), (mine, theirs)


# -- a value written twice (duplicate indices, no accumulate): PyTorch's gradient -------------
# (every written value gets the gradient at its destination; fgrad gave the overwritten ones 0)

_WRITES = {
    "index_put": lambda T, x, v, i: T.index_put(x, (i,), v),
    "index_put_": lambda T, x, v, i: x.clone().index_put_((i,), v),
    "setitem": lambda T, x, v, i: _setitem(x.clone(), i, v),
    "setitem_broadcast": lambda T, x, v, i: _setitem(x.clone(), i, v[0]),
    "setitem_of_a_view": lambda T, x, v, i: _setitem_view(T, x, v, i),
    "index_copy": lambda T, x, v, i: x.index_copy(0, i, v),
    "index_copy_": lambda T, x, v, i: x.clone().index_copy_(0, i, v),
    "scatter": lambda T, x, v, i: x.scatter(0, i, v),
    "scatter_": lambda T, x, v, i: x.clone().scatter_(0, i, v),
    "put": lambda T, x, v, i: x.put(i, v),
    "square_written": lambda T, x, v, i: _setitem(x.clone(), i, v * v),
}


def _setitem(y, i, v):
    y[i] = v
    return y


def _setitem_view(T, x, v, i):
    y = T.stack([x, x * 2])
    y[1][i] = v
    return y


def _write_grads(T, name):
    x = T.arange(5.0, dtype=T.float64).requires_grad_()
    v = T.tensor([10.0, 20.0, 30.0], dtype=T.float64, requires_grad=True)
    i = T.tensor([1, 1, 3])
    out = _WRITES[name](T, x, v, i)
    w = T.arange(1.0, out.numel() + 1, dtype=T.float64).reshape(out.shape)
    gx, gv = T.autograd.grad((out * w).sum(), (x, v), create_graph=True)
    ggv = T.autograd.grad((gv * gv).sum(), v)[0].tolist() if gv.requires_grad else None
    return [out.tolist(), gx.tolist(), gv.tolist(), ggv]


WRITES_WANT = {
    "index_put": [[0, 20, 2, 30, 4], [1, 0, 3, 0, 5], [2, 2, 4], None],
    "index_put_": [[0, 20, 2, 30, 4], [1, 0, 3, 0, 5], [2, 2, 4], None],
    "setitem": [[0, 20, 2, 30, 4], [1, 0, 3, 0, 5], [2, 2, 4], None],
    "setitem_broadcast": [[0, 10, 2, 10, 4], [1, 0, 3, 0, 5], [8, 0, 0], None],
    "setitem_of_a_view": [[[0, 1, 2, 3, 4], [0, 20, 4, 30, 8]], [13, 2, 19, 4, 25], [7, 7, 9], None],
    "index_copy": [[0, 20, 2, 30, 4], [1, 0, 3, 0, 5], [2, 2, 4], None],
    "index_copy_": [[0, 20, 2, 30, 4], [1, 0, 3, 0, 5], [2, 2, 4], None],
    "scatter": [[0, 20, 2, 30, 4], [1, 0, 3, 0, 5], [2, 2, 4], None],
    "scatter_": [[0, 20, 2, 30, 4], [1, 0, 3, 0, 5], [2, 2, 4], None],
    "put": [[0, 20, 2, 30, 4], [1, 0, 3, 0, 5], [2, 2, 4], None],
    "square_written": [[0, 400, 2, 900, 4], [1, 0, 3, 0, 5], [40, 80, 240], [320, 640, 3840]],
}


@pytest.mark.parametrize("name", sorted(_WRITES))
def test_a_value_written_twice_gets_pytorchs_gradient(name):
    got = _write_grads(ft, name)
    for a, b in zip(got, WRITES_WANT[name], strict=True):
        assert (a is None) == (b is None), (name, got)
        if a is not None:
            _same(a, b)


@pytest.mark.parametrize("name", sorted(_WRITES))
def test_a_value_written_twice_matches_live_torch(name):
    theirs = _write_grads(_live(), name)
    for a, b in zip(_write_grads(ft, name), theirs, strict=True):
        assert (a is None) == (b is None)
        if a is not None:
            _same(a, b)


def _func_grad(T):
    i, w = T.tensor([1, 1, 3]), T.arange(1.0, 6.0, dtype=T.float64)

    def f(v):
        y = T.zeros(5, dtype=T.float64)
        y[i] = v
        return (y * w).sum()

    return T.func.grad(f)(T.tensor([10.0, 20.0, 30.0], dtype=T.float64)).tolist()


def test_a_value_written_twice_under_func_grad():
    _same(_func_grad(ft), [2, 2, 4])


def test_a_value_written_twice_under_func_grad_matches_live_torch():
    _same(_func_grad(ft), _func_grad(_live()))


# -- windows and taps where an input is infinite or NaN ------------------------------------
# (adaptive average pooling summed every input with a weight, 0 outside the window, so an
# infinity anywhere gave NaN; antialiased and area resizing padded short windows with
# weight-0 taps; linear resizing to the same size read the next pixel, PyTorch the pixel itself)

def _pools(T):
    F = T.nn.functional
    f64 = {"dtype": T.float64, "requires_grad": True}
    x = T.tensor([[[1.0, inf, 2.0, 3.0, -1.0], [0.0, 1.0, 2.0, 3.0, 4.0]]], **f64)
    x2 = T.tensor([[[[1.0, inf, 2.0], [0.0, 1.0, 2.0], [5.0, 6.0, 7.0]]]], **f64)
    x3 = T.tensor([[[[1.0, 2.0, 3.0], [nan, 5.0, 6.0], [7.0, 8.0, 9.0], [1.0, 2.0, inf]]]], dtype=T.float64,
                  requires_grad=True)
    outs = [F.adaptive_avg_pool1d(x, 3), F.adaptive_avg_pool2d(x2, 2), F.adaptive_avg_pool2d(x2, (2, 3)),
            F.adaptive_avg_pool3d(x2, (1, 2, 2)), F.interpolate(x2, size=(2, 2), mode="area"),
            F.interpolate(x, size=3, mode="area")]
    for mode in ("bilinear", "bicubic"):
        for aa in (False, True):
            outs.append(F.interpolate(x3, size=(4, 2), mode=mode, antialias=aa))
    outs.append(F.interpolate(x3, size=(4, 3), mode="bilinear"))
    outs.append(F.interpolate(x3, size=(4, 3), mode="bicubic", antialias=True))
    outs.append(F.interpolate(x3[0], size=3, mode="linear"))
    g = T.autograd.grad(sum((o * T.arange(1.0, o.numel() + 1, dtype=T.float64).reshape(o.shape)).sum()
                            for o in outs[:6]), (x, x2))
    return [o.tolist() for o in outs] + [v.tolist() for v in g]


POOLS_WANT = [
    [[[inf, inf, 1.0], [0.5, 2.0, 3.5]]],
    [[[[inf, inf], [3.0, 4.0]]]],
    [[[[0.5, inf, 2.0], [2.5, 3.5, 4.5]]]],
    [[[[inf, inf], [3.0, 4.0]]]],
    [[[[inf, inf], [3.0, 4.0]]]],
    [[[inf, inf, 1.0], [0.5, 2.0, 3.5]]],
    [[[[1.25, 2.75], [nan, 5.75], [7.25, 8.75], [1.25, nan]]]],
    [[[[1.375, 2.625], [nan, 5.625], [7.375, 8.625], [1.375, inf]]]],
    [[[[nan, nan], [nan, nan], [nan, nan], [nan, nan]]]],
    [[[[1.3097913322632424, 2.6902086677367576], [nan, nan], [7.309791332263242, 8.690208667736757],
       [-inf, inf]]]],
    [[[[1.0, 2.0, 3.0], [nan, 5.0, 6.0], [7.0, 8.0, 9.0], [1.0, 2.0, nan]]]],
    [[[[1.0, 2.0, 3.0], [nan, 5.0, 6.0], [7.0, 8.0, 9.0], [1.0, 2.0, inf]]]],
    [[[1.0, 2.0, 3.0], [nan, 5.0, 6.0], [7.0, 8.0, 9.0], [1.0, 2.0, nan]]],
    [[[1.0, 2.333333333333333, 1.3333333333333333, 4.333333333333333, 3.0],
      [4.0, 7.333333333333334, 3.3333333333333335, 9.333333333333334, 6.0]]],
    [[[[1.25, 3.25, 3.0], [5.5, 11.0, 9.0], [4.25, 7.75, 6.0]]]],
]


def test_windows_with_infinities_are_pytorchs():
    got = _pools(ft)
    assert len(got) == len(POOLS_WANT)
    for a, b in zip(got, POOLS_WANT):
        _same(a, b, rtol=1e-12)


def test_windows_with_infinities_match_live_torch():
    for a, b in zip(_pools(ft), _pools(_live()), strict=True):
        _same(a, b, rtol=1e-12)
