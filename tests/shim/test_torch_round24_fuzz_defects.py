"""Defects found in round 24 of differential testing of ``fgrad.torch`` against PyTorch 2.13
(``tools/torch_fuzz.py`` and the open list in docs/shim-conventions.md), each pinned by PyTorch's
numbers stored here; the live comparison runs where torch is installed."""

from __future__ import annotations

import math

import pytest

import fgrad.torch as ft
from tests._stored_torch import live_torch, outcome, same, stored_and_live

inf, nan = math.inf, math.nan


_live, _same = live_torch, same
_outcome, _stored_and_live = outcome, stored_and_live


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


# -- smaller value, gradient and shape defects ----------------------------------------------

def _grad(T, f, x, *more):
    x = T.tensor(x, dtype=T.float64, requires_grad=True)
    return T.autograd.grad(f(x, *more).sum(), x)[0].tolist()


def _multi_margin(T, p, weighted):
    # row 1 has a hinge term exactly at 0 (PyTorch: no gradient); rows 2-3 NaN terms (skipped)
    x = T.tensor([[-0.5, -3.0, -1.0], [3.5, -1.5, 2.5], [nan, 1.0, 2.0], [1.0, nan, 0.0]], dtype=T.float64,
                 requires_grad=True)
    w = T.tensor([1.0, 2.0, 3.0], dtype=T.float64) if weighted else None
    loss = T.nn.functional.multi_margin_loss(x, T.tensor([2, 0, 1, 1]), p=p, weight=w, reduction="none")
    return [loss.tolist(), T.autograd.grad(loss.sum(), x)[0].tolist()]


MULTI_MARGIN_WANT = {
    (1, False): [[0.5, 0.0, 0.6666666666666666, 0.0],
                 [[0.3333333333333333, 0.0, -0.3333333333333333], [0.0, 0.0, 0.0],
                  [0.0, -0.3333333333333333, 0.3333333333333333], [0.0, 0.0, 0.0]]],
    (2, True): [[2.25, 0.0, 2.6666666666666665, 0.0],
                [[3.0, 0.0, -3.0], [0.0, 0.0, 0.0], [0.0, -2.6666666666666665, 2.6666666666666665],
                 [0.0, 0.0, 0.0]]],
}


@pytest.mark.parametrize("p,weighted", sorted(MULTI_MARGIN_WANT))
def test_multi_margin_loss_hinge_is_pytorchs(p, weighted):
    for a, b in zip(_multi_margin(ft, p, weighted), MULTI_MARGIN_WANT[p, weighted], strict=True):
        _same(a, b)


def test_multi_margin_loss_hinge_matches_live_torch():
    T = _live()
    for p in (1, 2):
        for weighted in (False, True):
            for a, b in zip(_multi_margin(ft, p, weighted), _multi_margin(T, p, weighted), strict=True):
                _same(a, b)


def _elus(T):
    F = T.nn.functional
    x = [nan, 1.0, -1.0, 0.0]
    return [_grad(T, F.selu, x), _grad(T, F.elu, x), _grad(T, lambda v: F.celu(v, 2.0), x),
            _grad(T, lambda v: F.elu(v, 0.5), x)]


ELUS_WANT = [[1.0507009873554805, 1.0507009873554805, 0.646768603034814, 1.7580993408473766],
             [1.0, 1.0, 0.36787944117144233, 1.0], [1.0, 1.0, 0.6065306597126334, 1.0],
             [1.0, 1.0, 0.18393972058572117, 0.5]]


def test_elu_family_gradient_at_nan_is_the_linear_branchs():
    for a, b in zip(_elus(ft), ELUS_WANT, strict=True):
        _same(a, b)


def test_elu_family_gradient_at_nan_matches_live_torch():
    for a, b in zip(_elus(ft), _elus(_live()), strict=True):
        _same(a, b)


_ANY_ALL = [
    lambda T: tuple(T.any(T.zeros(2, 0, 3, dtype=T.uint8), keepdim=True).shape),
    lambda T: tuple(T.all(T.ones(2, 3), keepdim=True).shape),
    lambda T: tuple(T.ones(2, 3, dtype=T.bool).any(keepdim=True).shape),
    lambda T: tuple(T.all(T.ones(2, 3), dim=(), keepdim=True).shape),
    lambda T: tuple(T.any(T.tensor(1.0), keepdim=True).shape),
]
ANY_ALL_WANT = [(1, 1, 1), (1, 1), (1, 1), (2, 3), ()]


def test_any_all_keepdim_without_dim_keep_every_dim():
    assert [f(ft) for f in _ANY_ALL] == ANY_ALL_WANT


def test_any_all_keepdim_without_dim_match_live_torch():
    T = _live()
    assert [f(ft) for f in _ANY_ALL] == [f(T) for f in _ANY_ALL]


def _clamp_case(shapes, grads):
    def call(T):
        x, lo, hi = (T.ones(s, requires_grad=g) for s, g in zip(shapes, grads))
        y = T.clamp(x, lo, hi)
        got = T.autograd.grad(y.sum(), [v for v in (x, lo, hi) if v.requires_grad])
        return [tuple(y.shape)] + [g.tolist() for g in got]
    return call


_CLAMPS = {
    "0d x, lo[2], hi[1], bounds grad": _clamp_case(((), (2,), (1,)), (False, True, True)),
    "0d x, lo[2], hi[1], x grad": _clamp_case(((), (2,), (1,)), (True, False, False)),
    "x[2], lo[2,1], hi[1], x grad": _clamp_case(((2,), (2, 1), (1,)), (True, False, False)),
    "x[2], lo[1], hi[2,1], all grad": _clamp_case(((2,), (1,), (2, 1)), (True, True, True)),
    "x[2, 2], lo[2], hi[1], all grad": _clamp_case(((2, 2), (2,), (1,)), (True, True, True)),
}
CLAMPS_WANT = {
    "0d x, lo[2], hi[1], bounds grad": ("RuntimeError",
                                        "output with shape [1] doesn't match the broadcast shape [2]"),
    "0d x, lo[2], hi[1], x grad": ("ok", [(2,), 2.0]),
    "x[2], lo[2,1], hi[1], x grad": ("ok", [(2, 2), [2.0, 2.0]]),
    "x[2], lo[1], hi[2,1], all grad": ("RuntimeError",
                                       "output with shape [2] doesn't match the broadcast shape [2, 2]"),
    "x[2, 2], lo[2], hi[1], all grad": ("ok", [(2, 2), [[1.0, 1.0], [1.0, 1.0]], [0.0, 0.0], [0.0]]),
}


(
    test_clamp_with_bounds_broadcasting_past_an_operand_raises_in_backward,
    test_clamp_with_bounds_broadcasting_matches_live_torch,
) = _stored_and_live(_CLAMPS, CLAMPS_WANT)


def _logcumsumexp_empty(T):
    out = []
    for shape, d in (((2, 0), 1), ((2, 0), -1), ((0,), 0), ((2, 0, 3), 0)):
        x = T.zeros(shape, requires_grad=True)
        y = T.logcumsumexp(x, d)
        out.append((tuple(y.shape), tuple(T.autograd.grad(y.sum(), x)[0].shape)))
    return out


def test_logcumsumexp_of_an_empty_dim_differentiates():
    want = [((2, 0), (2, 0)), ((2, 0), (2, 0)), ((0,), (0,)), ((2, 0, 3), (2, 0, 3))]
    assert _logcumsumexp_empty(ft) == want


def test_logcumsumexp_of_an_empty_dim_matches_live_torch():
    assert _logcumsumexp_empty(ft) == _logcumsumexp_empty(_live())


def _zd(T):
    return T.tensor(5.0)


_ZERO_D = {
    "index_add": lambda T: _zd(T).index_add(0, T.tensor([0]), T.tensor(2.0)).tolist(),
    "index_add_ alpha": lambda T: _zd(T).index_add_(-1, T.tensor([0]), T.tensor(2.0), alpha=3).tolist(),
    "index_add 1-d source": lambda T: _zd(T).index_add(0, T.tensor([0]), T.tensor([2.0])).tolist(),
    "index_add two indices": lambda T: _zd(T).index_add(0, T.tensor([0, 0]), T.tensor(2.0)).tolist(),
    "index_add -1": lambda T: _zd(T).index_add(0, T.tensor([-1]), T.tensor(2.0)).tolist(),
    "index_copy": lambda T: _zd(T).index_copy(0, T.tensor([0]), T.tensor(2.0)).tolist(),
    "index_copy_ 1-d source": lambda T: _zd(T).index_copy_(0, T.tensor([0]), T.tensor([2.0])).tolist(),
    "index_copy two indices": lambda T: _zd(T).index_copy(0, T.tensor([0, 0]), T.tensor(2.0)).tolist(),
    "index_copy count": lambda T: _zd(T).index_copy(0, T.tensor([0]), T.tensor([2.0, 3.0])).tolist(),
    "index_copy two of two": lambda T: _zd(T).index_copy(0, T.tensor([0, 0]), T.tensor([2.0, 3.0])).tolist(),
    "index_copy 1": lambda T: _zd(T).index_copy(0, T.tensor([1]), T.tensor(2.0)).tolist(),
    "index_fill_": lambda T: _zd(T).index_fill_(0, T.tensor([0]), 7.0).tolist(),
    "index_fill tensor": lambda T: _zd(T).index_fill(0, T.tensor([0]), T.tensor(7.0)).tolist(),
    "index_fill empty": lambda T: _zd(T).index_fill(0, T.tensor([], dtype=T.long), 7.0).tolist(),
    "index_fill -1": lambda T: _zd(T).index_fill(0, T.tensor([-1, 0]), 3.0).tolist(),
    "index_fill 1": lambda T: _zd(T).index_fill(0, T.tensor([1]), 3.0).tolist(),
    "index_add grads": lambda T: _zero_d_grads(T, lambda x, s: x.index_add(0, T.tensor([0]), s, alpha=3)),
    "index_copy grads": lambda T: _zero_d_grads(T, lambda x, s: x.index_copy(0, T.tensor([0]), s)),
    "index_fill_ grads": lambda T: _zero_d_grads(T, lambda x, s: (x * s).index_fill_(0, T.tensor([0]), 1.0)),
}


def _zero_d_grads(T, f):
    x, s = T.tensor(5.0, requires_grad=True), T.tensor(2.0, requires_grad=True)
    y = f(x, s)
    return [y.tolist()] + [g.tolist() for g in T.autograd.grad(y * 2, (x, s))]


ZERO_D_WANT = {
    "index_add": ("ok", 7.0),
    "index_add_ alpha": ("ok", 11.0),
    "index_add 1-d source": ("RuntimeError", "source tensor shape must match self tensor shape, excluding "
                             "the specified dimension. Got self.shape = [] source.shape = [1]"),
    "index_add two indices": ("IndexError", "Dimension specified as 0 but tensor has no dimensions"),
    "index_add -1": ("IndexError", "index out of range in self"),
    "index_copy": ("ok", 2.0),
    "index_copy_ 1-d source": ("ok", 2.0),
    "index_copy two indices": ("IndexError", "index_copy_(): When source is scalar, index should have one "
                               "element (got 2)"),
    "index_copy count": ("IndexError", "index_copy_(): Number of indices (1) should be equal to "
                         "source.size(dim) (2)"),
    "index_copy two of two": ("ok", 3.0),
    "index_copy 1": ("IndexError", "index_copy_(): index 1 is out of bounds for dimension 0 with size 1"),
    "index_fill_": ("ok", 7.0),
    "index_fill tensor": ("ok", 7.0),
    "index_fill empty": ("ok", 5.0),
    "index_fill -1": ("ok", 3.0),
    "index_fill 1": ("IndexError", "index 1 is out of bounds for dimension 0 with size 1"),
    "index_add grads": ("ok", [11.0, 2.0, 6.0]),
    "index_copy grads": ("ok", [2.0, 0.0, 2.0]),
    "index_fill_ grads": ("ok", [1.0, 0.0, 0.0]),
}


(
    test_index_ops_of_a_zero_d_tensor_are_pytorchs,
    test_index_ops_of_a_zero_d_tensor_match_live_torch,
) = _stored_and_live(_ZERO_D, ZERO_D_WANT)



_EMPTY_AND_0D = {
    "diff of an empty dim": lambda T: tuple(T.diff(T.zeros(0), dim=0).shape),
    "diff n=2 of one element": lambda T: tuple(T.diff(T.zeros(1), n=2).shape),
    "diff of (2, 0) along 1": lambda T: tuple(T.diff(T.zeros(2, 0, requires_grad=True), dim=1).shape),
    "chunk of a 0-d tensor": lambda T: T.chunk(T.tensor(1.0), 2),
}
EMPTY_AND_0D_WANT = {
    "diff of an empty dim": ("ok", (0,)),
    "diff n=2 of one element": ("ok", (0,)),
    "diff of (2, 0) along 1": ("ok", (2, 0)),
    "chunk of a 0-d tensor": ("RuntimeError", "chunk expects at least a 1-dimensional tensor"),
}


(
    test_diff_of_empty_dims_and_chunk_of_0d_are_pytorchs,
    test_diff_of_empty_dims_and_chunk_of_0d_match_live_torch,
) = _stored_and_live(_EMPTY_AND_0D, EMPTY_AND_0D_WANT)
