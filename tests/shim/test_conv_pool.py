"""Convolution, transposed convolution, pooling, unfold/fold in the shim: values, gradients
and (for convolutions) double backward against PyTorch 2.13 -- stored fingerprints, and
whole arrays live when torch is installed; grad_fn names; the backward runs no scatter."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.torch as ft
from fgrad.ops import indexing as _indexing


def F(lib):
    return lib.nn.functional


def _module(lib, cls, weight_shape, *args, **kw):
    m = getattr(lib.nn, cls)(*args, **kw).double()
    with lib.no_grad():
        m.weight.copy_(lib.tensor(np.linspace(-1, 1, int(np.prod(weight_shape))).reshape(weight_shape)))
        if m.bias is not None:
            m.bias.copy_(lib.tensor(np.linspace(0.1, 0.3, m.bias.shape[0])))
    return m


# name -> (function of (lib, *tensors), input shapes, check double backward)
CASES = {
    "conv2d_stride_pad_dilation_bias": (
        lambda t, x, w, b: F(t).conv2d(x, w, b, stride=(2, 1), padding=(1, 2), dilation=(1, 2)),
        [(2, 2, 7, 8), (6, 2, 3, 2), (6,)],
        True,
    ),
    "conv2d_groups": (lambda t, x, w: F(t).conv2d(x, w, groups=2), [(2, 4, 5, 5), (6, 2, 3, 3)], True),
    "conv2d_same_dilated": (
        lambda t, x, w: F(t).conv2d(x, w, padding="same", dilation=2),
        [(2, 3, 6, 7), (2, 3, 3, 2)],
        True,
    ),
    "conv1d_valid_strided": (
        lambda t, x, w: F(t).conv1d(x, w, padding="valid", stride=3),
        [(2, 3, 10), (2, 3, 3)],
        False,
    ),
    "conv1d_unbatched": (lambda t, x, w: F(t).conv1d(x, w, padding=2), [(3, 10), (2, 3, 3)], False),
    "conv3d": (
        lambda t, x, w: F(t).conv3d(x, w, stride=2, padding=1),
        [(1, 2, 5, 4, 6), (3, 2, 3, 2, 3)],
        True,
    ),
    "conv2d_reflect": (
        lambda t, x: _module(t, "Conv2d", (3, 2, 3, 3), 2, 3, 3, padding=1, padding_mode="reflect")(x),
        [(2, 2, 5, 6)],
        False,
    ),
    "conv2d_replicate": (
        lambda t, x: _module(t, "Conv2d", (3, 2, 3, 3), 2, 3, 3, padding=1, padding_mode="replicate")(x),
        [(2, 2, 5, 6)],
        False,
    ),
    "conv2d_circular": (
        lambda t, x: _module(t, "Conv2d", (3, 2, 3, 3), 2, 3, 3, padding=1, padding_mode="circular")(x),
        [(2, 2, 5, 6)],
        False,
    ),
    "conv_transpose2d_all": (
        lambda t, x, w, b: F(t).conv_transpose2d(
            x, w, b, stride=(2, 3), padding=(1, 0), output_padding=(1, 2), dilation=(1, 2)
        ),
        [(2, 4, 4, 3), (4, 3, 3, 2), (3,)],
        True,
    ),
    "conv_transpose2d_groups": (
        lambda t, x, w: F(t).conv_transpose2d(x, w, stride=2, groups=2, padding=1),
        [(2, 4, 4, 3), (4, 3, 3, 3)],
        True,
    ),
    "conv_transpose1d": (
        lambda t, x, w: F(t).conv_transpose1d(x, w, stride=3, output_padding=1),
        [(2, 2, 5), (2, 3, 2)],
        False,
    ),
    "conv_transpose3d": (
        lambda t, x, w: F(t).conv_transpose3d(x, w, stride=2, padding=1),
        [(1, 2, 3, 3, 2), (2, 2, 3, 2, 3)],
        False,
    ),
    "ConvTranspose2d_output_size": (
        lambda t, x: _module(t, "ConvTranspose2d", (2, 3, 3, 3), 2, 3, 3, stride=2)(x, output_size=(10, 9)),
        [(1, 2, 4, 4)],
        False,
    ),
    "max_pool2d_pad": (lambda t, x: F(t).max_pool2d(x, 3, 2, 1), [(2, 3, 7, 8)], False),
    "max_pool2d_ceil_indices": (
        lambda t, x: F(t).max_pool2d(x, 3, 2, 1, ceil_mode=True, return_indices=True),
        [(2, 3, 8, 8)],
        False,
    ),
    "max_pool2d_dilation_indices": (
        lambda t, x: F(t).max_pool2d(x, (2, 3), (1, 2), (1, 1), dilation=(2, 1), return_indices=True),
        [(2, 3, 7, 8)],
        False,
    ),
    "max_pool1d_ceil": (
        lambda t, x: F(t).max_pool1d(x, 3, 2, ceil_mode=True, return_indices=True),
        [(2, 3, 10)],
        False,
    ),
    "max_pool3d": (lambda t, x: F(t).max_pool3d(x, 2, return_indices=True), [(1, 2, 4, 5, 4)], False),
    "MaxPool2d_unbatched": (lambda t, x: t.nn.MaxPool2d(2)(x), [(3, 6, 6)], False),
    "avg_pool2d_ceil_no_pad_count": (
        lambda t, x: F(t).avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False),
        [(2, 3, 8, 7)],
        False,
    ),
    "avg_pool2d_divisor": (
        lambda t, x: F(t).avg_pool2d(x, 3, 2, 1, divisor_override=5),
        [(2, 3, 8, 7)],
        False,
    ),
    "avg_pool1d": (lambda t, x: F(t).avg_pool1d(x, 2), [(2, 3, 9)], False),
    "avg_pool3d": (lambda t, x: F(t).avg_pool3d(x, 2, 1, 1), [(1, 2, 4, 3, 5)], False),
    "adaptive_max_pool2d_even": (
        lambda t, x: F(t).adaptive_max_pool2d(x, (3, 2), return_indices=True),
        [(2, 3, 6, 6)],
        False,
    ),
    "adaptive_max_pool2d_uneven": (
        lambda t, x: F(t).adaptive_max_pool2d(x, (4, 3), return_indices=True),
        [(2, 3, 6, 7)],
        False,
    ),
    "adaptive_max_pool3d": (
        lambda t, x: F(t).adaptive_max_pool3d(x, 2, return_indices=True),
        [(1, 2, 4, 4, 6)],
        False,
    ),
    "AdaptiveAvgPool3d": (lambda t, x: t.nn.AdaptiveAvgPool3d((2, 3, 1))(x), [(1, 2, 4, 5, 6)], False),
    "adaptive_max_pool1d": (lambda t, x: F(t).adaptive_max_pool1d(x, 3), [(2, 9)], False),
    "unfold": (
        lambda t, x: F(t).unfold(x, (2, 3), dilation=(1, 2), padding=1, stride=(2, 1)),
        [(2, 3, 6, 7)],
        False,
    ),
    "fold": (
        lambda t, x: F(t).fold(x, (5, 6), (2, 3), dilation=(1, 2), padding=1, stride=(2, 1)),
        [(2, 18, 12)],
        False,
    ),
    "Fold_of_Unfold": (lambda t, x: t.nn.Fold((4, 5), 2)(t.nn.Unfold(2)(x)), [(2, 3, 4, 5)], False),
    "unfold_unbatched": (lambda t, x: F(t).unfold(x, 2), [(3, 4, 4)], False),
}


def fingerprints(lib, name):
    """[output fingerprints..., gradient fingerprints..., (double-backward fingerprints...)] for
    inputs drawn from the case's seed; every value is sum(v * cos(arange(v.size)))."""
    fn, shapes, double = CASES[name]
    rng = np.random.default_rng(sorted(CASES).index(name))
    ts = [lib.tensor(rng.standard_normal(s), requires_grad=True) for s in shapes]
    out = fn(lib, *ts)
    outs = out if isinstance(out, tuple) else (out,)
    y = outs[0]
    ct = lib.tensor(np.cos(np.arange(y.numel())).reshape(tuple(y.shape)))
    grads = lib.autograd.grad((y * ct).sum(), ts, create_graph=double)
    vals = [o.detach().numpy() for o in outs] + [g.detach().numpy() for g in grads]
    if double:
        second = lib.autograd.grad(sum((g * g).sum() for g in grads), ts, allow_unused=True)
        vals += [np.zeros(1) if g is None else g.detach().numpy() for g in second]
    return vals


def fp(v) -> float:
    v = np.asarray(v, dtype=np.float64)
    return float(np.sum(v * np.cos(np.arange(v.size)).reshape(v.shape)))


# PyTorch 2.13 (CPU, float64): fingerprints(torch, name), rounded to 10 digits
STORED = {
    "conv2d_stride_pad_dilation_bias": [
        40.5702972826,
        50.273269393,
        0.9261181747,
        1.045842604,
        -103.2955107252,
        228.0019849907,
        0.0,
    ],
    "conv2d_groups": [-19.1381323333, 0.5665446174, -2.4325232317, -20.7989699034, 33.4650130627],
    "conv2d_same_dilated": [8.1502529195, -6.4385326223, 0.8953594882, 4149.508490554, -278.3077684825],
    "conv1d_valid_strided": [-14.150880519, 1.9262440477, 5.8009572379],
    "conv1d_unbatched": [-0.6645013116, -6.4809725593, 7.6871859516],
    "conv3d": [-29.7425479386, 2.2276632646, -2.790185057, -37.5567357381, -97.8284862554],
    "conv2d_reflect": [6.8683276434, -334.4559934232],
    "conv2d_replicate": [-114.4907602695, -306.2225179146],
    "conv2d_circular": [-120.8738721988, -235.1597321562],
    "conv_transpose2d_all": [
        53.3891900844,
        -1.6905234342,
        1.673609347,
        0.0751098817,
        40.8436470916,
        441.4361648962,
        0.0,
    ],
    "conv_transpose2d_groups": [-10.7789315281, 73.690101194, -1.0645270045, -267.7983211795, 197.0422788727],
    "conv_transpose1d": [-5.2550073128, -0.5991203798, -7.2682245823],
    "conv_transpose3d": [-27.8224062758, 0.4619008736, 47.8277615139],
    "ConvTranspose2d_output_size": [2.4585424285, -0.1841860023],
    "max_pool2d_pad": [-4.9501341454, -2.3199900753],
    "max_pool2d_ceil_indices": [2.579127421, -418.8878391518, 6.9393208187],
    "max_pool2d_dilation_indices": [-0.8945657191, -2.4882441149, 4.5445862483],
    "max_pool1d_ceil": [5.440215531, -13.6378220583, 0.0029830612],
    "max_pool3d": [2.8284432232, 107.3902018416, -2.302964198],
    "MaxPool2d_unbatched": [5.7775972915, -0.8508988715],
    "avg_pool2d_ceil_no_pad_count": [-4.8738147766, 0.6189521419],
    "avg_pool2d_divisor": [-0.9775823643, 0.9204648667],
    "avg_pool1d": [-1.9757471987, -0.8607552295],
    "avg_pool3d": [-5.4367708551, 1.1805615226],
    "adaptive_max_pool2d_even": [0.2405205369, -183.7349108392, -2.7973837657],
    "adaptive_max_pool2d_uneven": [1.3301979653, -30.9078593223, 2.9435205356],
    "adaptive_max_pool3d": [1.0066402034, 63.0015695255, 1.0483378875],
    "AdaptiveAvgPool3d": [-0.0742382117, -0.1008889328],
    "adaptive_max_pool1d": [0.703451052, -2.0777990449],
    "unfold": [19.623351114, -0.2975594649],
    "fold": [-0.8285438402, -0.192298567],
    "Fold_of_Unfold": [27.755242957, 144.1103931558],
    "unfold_unbatched": [0.2996060387, -1.7234027406],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_stored_torch(name):
    got = [fp(v) for v in fingerprints(ft, name)]
    np.testing.assert_allclose(got, STORED[name], rtol=1e-8, atol=1e-8)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_live_torch(name):
    torch = pytest.importorskip("torch")
    got, want = fingerprints(ft, name), fingerprints(torch, name)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-10)


def test_grad_fn_names():
    x = ft.randn(1, 2, 6, 6, requires_grad=True)
    w = ft.randn(3, 2, 3, 3, requires_grad=True)
    assert type(ft.nn.functional.conv2d(x, w).grad_fn).__name__ == "ConvolutionBackward0"
    assert (
        type(ft.nn.functional.conv_transpose2d(x, w.transpose(0, 1)).grad_fn).__name__
        == "ConvolutionBackward0"
    )
    assert type(ft.nn.functional.max_pool2d(x, 2).grad_fn).__name__ == "MaxPool2DWithIndicesBackward0"
    assert type(ft.nn.functional.avg_pool2d(x, 2).grad_fn).__name__ == "AvgPool2DBackward0"
    assert type(ft.nn.functional.unfold(x, 2).grad_fn).__name__ == "Im2ColBackward0"
    assert (
        type(ft.nn.functional.fold(ft.randn(1, 8, 4, requires_grad=True), 3, 2).grad_fn).__name__
        == "Col2ImBackward0"
    )


def test_backward_runs_no_scatter(monkeypatch):
    """Regression: conv/pool/unfold gathered windows with ``take``, whose backward is a
    scatter-add (np.add.at, NumPy's slowest path); now every backward is a convolution or a
    strided select-and-scatter."""

    def refuse(*args, **kwargs):
        raise AssertionError("scatter primitive ran in a convolution/pooling backward")

    monkeypatch.setattr(_indexing.scatter_p, "impl", refuse)
    x = ft.randn(2, 3, 9, 9, dtype=ft.float64, requires_grad=True)
    conv = ft.nn.Conv2d(3, 4, 3, stride=2, padding=1).double()
    y = ft.nn.functional.max_pool2d(conv(x), 3, 1, 1)
    y = (
        ft.nn.functional.avg_pool2d(y, 2)
        + ft.nn.functional.unfold(y, 2).sum()
        + ft.nn.functional.adaptive_max_pool2d(y, 1)
    )
    y.sum().backward()
    assert x.grad is not None and conv.weight.grad is not None


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: ft.nn.functional.conv2d(ft.ones(1, 3, 5, 5), ft.ones(2, 2, 3, 3)), "expected input"),
        (
            lambda: ft.nn.functional.conv2d(
                ft.ones(1, 2, 5, 5), ft.ones(2, 2, 3, 3), stride=2, padding="same"
            ),
            "padding='same' is not supported for strided convolutions",
        ),
        (
            lambda: ft.nn.functional.conv2d(ft.ones(1, 2, 2, 2), ft.ones(2, 2, 3, 3)),
            r"Calculated padded input size per channel: \(2 x 2\). Kernel size: \(3 x 3\). "
            r"Kernel size can't be greater",
        ),
        (
            lambda: ft.nn.functional.conv_transpose2d(
                ft.ones(1, 2, 3, 3), ft.ones(2, 2, 3, 3), stride=2, output_padding=2
            ),
            "output padding must be smaller",
        ),
        (
            lambda: ft.nn.functional.conv_transpose2d(ft.ones(1, 3, 3, 3), ft.ones(2, 2, 3, 3)),
            "expected input",
        ),
        (
            lambda: ft.nn.functional.max_pool2d(ft.ones(1, 1, 4, 4), 2, padding=2),
            "pad should be at most half",
        ),
        (lambda: ft.nn.functional.fold(ft.ones(1, 5, 4), 3, 2), "divisible by the product of kernel_size"),
        (
            lambda: ft.nn.functional.fold(ft.ones(1, 4, 5), 3, 2),
            "match the calculated number of sliding blocks",
        ),
    ],
)
def test_errors_are_runtime_errors_like_torch(call, match):
    with pytest.raises(RuntimeError, match=match):
        call()
