"""Two host convolution paths of round 20 (docs/speed-programs.md).

Unit-stride convolutions run on wide rows (`fgrad.ops.convolution._wide_rows_product`): each
patch row is one contiguous run of the padded input; the output positions past the real ones
are computed and dropped.  The kept outputs are the plain columns layout's dot products over
the same terms in the same order (equal bit for bit on the ResNet's layers with OpenBLAS, a
few ulps apart on some shapes, where the BLAS blocks a longer row differently); keeping the
patches (a compiled program) gives eager's numbers and the plain layout's patch matrix; all
agree with the definition (a float64 sum over the windows) and with PyTorch's convolutions
and gradients through the shim.

Convolutions of a dilated lhs with more kernel than output positions (transposed
convolutions' weight gradients) run as the swapped convolution (`_conv_swapped`): the
definition's numbers to rounding, eager and compiled alike.
"""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.ops.convolution as C



def _params(nd, padding, lhs_dilation=None, rhs_dilation=None, spec=None):
    iota = tuple(range(nd + 2))
    spec = spec or (iota, iota, iota)
    return dict(window_strides=(1,) * nd, padding=tuple(padding), lhs_dilation=lhs_dilation or (1,) * nd,
                rhs_dilation=rhs_dilation or (1,) * nd, feature_group_count=1, batch_group_count=1,
                dimension_numbers=C.ConvDimensionNumbers(*spec))


def _definition(x, w, p):
    """The convolution summed window by window in float64 (NC.../OI... layouts)."""
    nd = x.ndim - 2
    xd = C.dilate_and_pad(np, x.astype(np.float64), 2, p["lhs_dilation"], p["padding"])
    kernel = w.shape[2:]
    out = C._out_spatial(xd.shape[2:], kernel, (1,) * nd, ((0, 0),) * nd, (1,) * nd, p["rhs_dilation"])
    v = C.window_view(np, xd, kernel, (1,) * nd, p["rhs_dilation"], out, 2)  # (N, C, *out, *K)
    sp, ks = "xyz"[:nd], "klm"[:nd]
    return np.einsum(f"nc{sp}{ks},oc{ks}->no{sp}", v, w.astype(np.float64))


# (x shape, w shape, padding, lhs dilation, rhs dilation)
GEOMETRIES = [
    ((4, 8, 32, 32), (8, 8, 3, 3), ((1, 1), (1, 1)), None, None),  # the ResNet's 3x3 layers
    ((3, 16, 16, 16), (16, 16, 3, 3), ((1, 1), (1, 1)), None, None),
    ((2, 3, 11, 9), (5, 3, 3, 2), ((2, 0), (1, 3)), None, None),  # uneven padding, a 3x2 kernel
    ((2, 4, 12, 10), (3, 4, 3, 3), ((1, 1), (1, 1)), None, (2, 3)),  # atrous
    ((2, 4, 9, 10), (3, 4, 3, 3), ((-1, 1), (1, -2)), None, None),  # cropping
    ((2, 2, 6, 5), (3, 2, 3, 3), ((2, 2), (2, 2)), (2, 1), None),  # lhs dilation (shift-add or rows)
    ((2, 3, 10, 10), (4, 3, 1, 1), ((0, 0), (0, 0)), None, None),  # 1x1: nothing read past a plane
    ((2, 3, 10, 10), (4, 3, 3, 1), ((0, 0), (0, 0)), None, None),  # inner kernel extent 1, no padding
    ((2, 3, 6, 7, 8), (4, 3, 3, 2, 3), ((1, 1), (0, 1), (1, 1)), None, None),  # 3-D
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("geom", GEOMETRIES, ids=[str(g[0]) + str(g[1]) for g in GEOMETRIES])
def test_wide_rows_equal_the_columns_layout_and_the_definition(geom, dtype, monkeypatch):
    xs, ws, padding, ld, rd = geom
    rng = np.random.default_rng(len(xs) + xs[1] * 7 + ws[0])
    x, w = rng.standard_normal(xs).astype(dtype), rng.standard_normal(ws).astype(dtype)
    p = _params(len(xs) - 2, padding, ld, rd)
    plain = C._conv_impl(np, x, w, **p)
    kept, patches = C._conv_impl(np, x, w, keep=True, **p)
    with monkeypatch.context() as m:
        m.setattr(C, "_wide_rows", lambda *a: False)  # the plain columns layout
        columns, columns_patches = C._conv_impl(np, x, w, keep=True, **p)
    # keeping the patches gives the eager numbers (a compiled program equals eager bit for bit),
    # and the plain layout's patch matrix (the weight gradient reads it)
    np.testing.assert_array_equal(plain, kept)
    if columns_patches is not None:
        np.testing.assert_array_equal(patches, columns_patches)
    ref = _definition(x, w, p)
    ulp = np.finfo(dtype).eps * np.abs(ref).max()
    np.testing.assert_allclose(plain, columns, rtol=0, atol=8 * ulp)
    assert plain.flags.c_contiguous
    tol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(plain, ref, rtol=tol, atol=tol * np.abs(ref).max())


def test_the_wide_path_is_taken_for_a_3x3_layer(monkeypatch):
    calls = []
    real = C._wide_rows_product
    monkeypatch.setattr(C, "_wide_rows_product", lambda *a: calls.append(a[1].shape) or real(*a))
    x, w = np.ones((2, 4, 16, 16), np.float32), np.ones((4, 4, 3, 3), np.float32)
    C._conv_impl(np, x, w, **_params(2, ((1, 1), (1, 1))))
    assert calls == [(2, 4, 16, 16)]
    calls.clear()
    strided = dict(_params(2, ((1, 1), (1, 1))), window_strides=(2, 2))
    C._conv_impl(np, x, w, **strided)  # strided windows keep the plain layout
    C._conv_impl(np, x[:, :, :1], w[:, :, :1], **_params(2, ((0, 0), (1, 1))))  # one row of output
    assert calls == [(2, 4, 1, 16)]


def test_wide_rows_with_non_finite_inputs_match_the_columns_layout(monkeypatch):
    """The dropped positions read neighbouring values and the zero tail: what they make
    (inf * 0 = nan) is dropped; the kept outputs have the columns layout's infinities and
    NaNs."""
    x = np.ones((2, 3, 8, 8), np.float32)
    x[0, 1, 0, 0], x[1, 2, 7, 7], x[1, 0, 3, 0] = np.inf, np.nan, -np.inf
    w = np.arange(3 * 3 * 9, dtype=np.float32).reshape(3, 3, 3, 3) - 40
    p = _params(2, ((1, 1), (1, 1)))
    with np.errstate(all="ignore"):
        plain = C._conv_impl(np, x, w, **p)
        monkeypatch.setattr(C, "_wide_rows", lambda *a: False)
        kept = C._conv_impl(np, x, w, **p)
    np.testing.assert_array_equal(np.isnan(plain), np.isnan(kept))
    np.testing.assert_array_equal(np.isinf(plain), np.isinf(kept))
    assert np.isfinite(plain).sum() > plain.size // 2
    fin = np.isfinite(kept)
    np.testing.assert_allclose(plain[fin], kept[fin], rtol=1e-6)


def test_shim_conv2d_forward_and_gradients_match_pytorch():
    """Through the shim: outputs and input/weight gradients of a 3x3 layer against PyTorch's
    (live when installed; the float64 definition and finite differences otherwise)."""
    import fgrad.torch as ft

    rng = np.random.default_rng(3)
    xn, wn = rng.standard_normal((3, 4, 10, 9)), rng.standard_normal((5, 4, 3, 3))
    gn = rng.standard_normal((3, 5, 10, 9))
    x, w = ft.tensor(xn, requires_grad=True), ft.tensor(wn, requires_grad=True)
    y = ft.nn.functional.conv2d(x, w, padding=1)
    y.backward(ft.tensor(gn))
    p = _params(2, ((1, 1), (1, 1)))
    np.testing.assert_allclose(y.detach().numpy(), _definition(xn, wn, p), rtol=1e-12, atol=1e-12)
    # gradients: <g, conv(x, w)> is bilinear, so central differences are exact up to rounding
    eps = 1e-3
    for arr, grad, idx in ((xn, x.grad.numpy(), (1, 2, 0, 4)), (wn, w.grad.numpy(), (3, 1, 2, 0))):
        hi, lo = arr.copy(), arr.copy()
        hi[idx] += eps
        lo[idx] -= eps
        f = (lambda a: (_definition(a, wn, p) * gn).sum()) if arr is xn else \
            (lambda a: (_definition(xn, a, p) * gn).sum())
        assert abs((f(hi) - f(lo)) / (2 * eps) - grad[idx]) < 1e-8
    try:
        import torch as pt
    except ImportError:
        return
    xt, wt = pt.tensor(xn, requires_grad=True), pt.tensor(wn, requires_grad=True)
    yt = pt.nn.functional.conv2d(xt, wt, padding=1)
    yt.backward(pt.tensor(gn))
    np.testing.assert_allclose(y.detach().numpy(), yt.detach().numpy(), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(x.grad.numpy(), xt.grad.numpy(), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(w.grad.numpy(), wt.grad.numpy(), rtol=1e-12, atol=1e-12)


# -- a dilated lhs with more kernel than output positions: the swapped convolution ---------

# (x shape, w shape, padding, lhs dilation): the weight gradients of transposed convolutions
SWAPPED = [
    ((32, 32, 4, 4), (16, 32, 8, 8), ((2, 2), (2, 2)), (2, 2)),  # the DCGAN's
    ((16, 32, 8, 8), (1, 32, 16, 16), ((2, 2), (2, 2)), (2, 2)),
    ((3, 4, 5), (2, 4, 9), ((1, 2),), (2,)),  # 1-D
    ((2, 3, 4, 3), (4, 3, 7, 6), ((3, 0), (1, 2)), (2, 3)),  # uneven padding, two dilations
    ((2, 3, 5, 4), (2, 3, 8, 7), ((-1, 2), (2, -1)), (2, 2)),  # cropping
    ((2, 2, 3, 3, 2), (3, 2, 5, 5, 3), ((1, 1), (1, 1), (1, 1)), (2, 2, 1)),  # 3-D
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("geom", SWAPPED, ids=[str(g[0]) + str(g[1]) for g in SWAPPED])
def test_swapped_convolution_equals_the_definition(geom, dtype, monkeypatch):
    xs, ws, padding, ld = geom
    rng = np.random.default_rng(xs[0] + ws[0] * 5 + len(xs))
    x, w = rng.standard_normal(xs).astype(dtype), rng.standard_normal(ws).astype(dtype)
    p = _params(len(xs) - 2, padding, ld)
    assert C._prefer_swapped(xs, ws, p["window_strides"], padding, ld, p["rhs_dilation"], 1, 1)
    got = C._conv_impl(np, x, w, **p)
    kept, patches = C._conv_impl(np, x, w, keep=True, **p)
    np.testing.assert_array_equal(got, kept)  # a compiled program computes eager's numbers
    assert patches is None and got.flags.c_contiguous
    monkeypatch.setattr(C, "_prefer_swapped", lambda *a: False)
    before = C._conv_impl(np, x, w, **p)
    ref = _definition(x, w, p)
    tol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(got, ref, rtol=tol, atol=tol * np.abs(ref).max())
    np.testing.assert_allclose(got, before, rtol=tol, atol=tol * np.abs(ref).max())


def test_swapped_convolution_in_other_layouts():
    """NHWC / HWIO layouts (a transposed lhs and rhs, the output laid out back)."""
    rng = np.random.default_rng(5)
    x, w = rng.standard_normal((3, 4, 4, 6)), rng.standard_normal((8, 8, 6, 5))  # NHWC, HWIO
    y = np.asarray(fgrad.lax.conv_general_dilated(x, w, (1, 1), ((2, 2), (2, 2)), lhs_dilation=(2, 2),
                                                  dimension_numbers=("NHWC", "HWIO", "NHWC")))
    xn, wn = x.transpose(0, 3, 1, 2), w.transpose(3, 2, 0, 1)
    ref = _definition(xn, wn, _params(2, ((2, 2), (2, 2)), (2, 2))).transpose(0, 2, 3, 1)
    np.testing.assert_allclose(y, ref, rtol=1e-12, atol=1e-12)


def test_shim_conv_transpose2d_gradients_match_pytorch():
    """`ConvTranspose2d`'s weight gradient is a swapped convolution: the shim's gradients
    against central differences of the float64 definition, and PyTorch's (live), including
    double backward."""
    import fgrad.torch as ft

    rng = np.random.default_rng(11)
    xn, wn = rng.standard_normal((4, 6, 4, 4)), rng.standard_normal((6, 3, 4, 4))
    x, w = ft.tensor(xn, requires_grad=True), ft.tensor(wn, requires_grad=True)
    y = ft.nn.functional.conv_transpose2d(x, w, stride=2, padding=1)
    gn = rng.standard_normal(tuple(y.shape))
    (gw,) = ft.autograd.grad((y * ft.tensor(gn)).sum(), (w,), create_graph=True)

    def loss(wv):  # <g, conv_transpose(x, w)> through the definition
        flipped = np.flip(wv.transpose(1, 0, 2, 3), (2, 3))
        return (_definition(xn, flipped, _params(2, ((2, 2), (2, 2)), (2, 2))) * gn).sum()

    eps, idx = 1e-3, (2, 1, 3, 0)
    hi, lo = wn.copy(), wn.copy()
    hi[idx] += eps
    lo[idx] -= eps
    assert abs((loss(hi) - loss(lo)) / (2 * eps) - gw.detach().numpy()[idx]) < 1e-8
    (gx2,) = ft.autograd.grad((gw * gw).sum(), (x,))  # double backward: d|dL/dw|^2 / dx
    try:
        import torch as pt
    except ImportError:
        return
    xt, wt = pt.tensor(xn, requires_grad=True), pt.tensor(wn, requires_grad=True)
    yt = pt.nn.functional.conv_transpose2d(xt, wt, stride=2, padding=1)
    (gwt,) = pt.autograd.grad((yt * pt.tensor(gn)).sum(), (wt,), create_graph=True)
    (gx2t,) = pt.autograd.grad((gwt * gwt).sum(), (xt,))
    np.testing.assert_allclose(y.detach().numpy(), yt.detach().numpy(), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(gw.detach().numpy(), gwt.detach().numpy(), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(gx2.numpy(), gx2t.numpy(), rtol=1e-11, atol=1e-11)
