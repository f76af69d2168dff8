"""``F.interpolate``/``nn.Upsample``, ``pixel_shuffle``, ``embedding_bag`` and
``local_response_norm`` against PyTorch 2.13: values, gradients and ``grad_fn`` names from
stored numbers (``tests/stored/torch_nn_more.json``, recorded by ``nn_more_cases.py``) and,
when torch is installed, live; the ``resample`` primitive under the functional transforms.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
import fgrad.torch as ft
import fgrad.torch.nn.functional as F
from fgrad.ops.resample import AxisMap, resample
from fgrad.torch import nn

from nn_more_cases import CASES, STORED, data, run

STORED_NUMBERS = json.loads(STORED.read_text())


def _compare(got: dict, want: dict, tol: float) -> None:
    np.testing.assert_allclose(np.array(got["out"]), np.array(want["out"]), rtol=tol, atol=tol)
    assert len(got["grads"]) == len(want["grads"])
    for g, w in zip(got["grads"], want["grads"]):
        np.testing.assert_allclose(np.array(g), np.array(w), rtol=tol, atol=tol)
    assert got["grad_fn"] == want["grad_fn"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_stored_pytorch_numbers(name):
    _compare(run(ft, F, name), STORED_NUMBERS[name], 1e-12)


@pytest.mark.parametrize("name", [n for n in sorted(CASES) if n.startswith("interpolate")][::3])
def test_float32_matches_live_pytorch(name):
    torch = pytest.importorskip("torch")
    import torch.nn.functional as TF

    _compare(run(ft, F, name, "float32"), run(torch, TF, name, "float32"), 2e-6)


def test_live_pytorch_agrees_with_the_stored_numbers():
    torch = pytest.importorskip("torch")
    import torch.nn.functional as TF

    for name in sorted(CASES)[::7]:
        _compare(run(torch, TF, name), STORED_NUMBERS[name], 1e-12)


def test_nearest_uses_the_given_scale_factor():
    # 3 -> 4 pixels with scale_factor=1.5: PyTorch reads floor(j / 1.5) = [0, 0, 1, 2], not
    # floor(j * 3 / 4) = [0, 0, 1, 2]... and at 5 -> 7 (1.5) floor(j/1.5)=[0,0,1,2,2,3,4]
    x = ft.arange(5.0).reshape(1, 1, 5)
    assert F.interpolate(x, scale_factor=1.5).flatten().tolist() == [0, 0, 1, 2, 2, 3, 4]
    assert F.interpolate(x, scale_factor=1.5, recompute_scale_factor=True).flatten().tolist() == [
        0,
        0,
        1,
        2,
        2,
        3,
        4,
    ]
    assert F.interpolate(x, size=7).flatten().tolist() == [0, 0, 1, 2, 2, 3, 4]
    assert F.interpolate(x, scale_factor=1.4).flatten().tolist() == [0, 0, 1, 2, 2, 3, 4]
    # with the given scale 1.4 (7 outputs): floor(j / 1.4) = [0, 0, 1, 2, 2, 3, 4]; with
    # recompute, 5/7: floor(j * 5/7) = [0, 0, 1, 2, 2, 3, 4] -- they differ at 0.6:
    y = ft.arange(10.0).reshape(1, 1, 10)
    assert F.interpolate(y, scale_factor=0.35).flatten().tolist() == [0, 2, 5]
    assert F.interpolate(y, scale_factor=0.35, recompute_scale_factor=True).flatten().tolist() == [0, 3, 6]


def test_integer_nearest_keeps_dtype_and_interpolating_modes_refuse_integers():
    x = ft.arange(6, dtype=ft.uint8).reshape(1, 1, 2, 3)
    out = F.interpolate(x, scale_factor=2)
    assert out.dtype == ft.uint8 and out.shape == (1, 1, 4, 6)
    with pytest.raises(NotImplementedError, match="not implemented for 'Long'"):
        F.interpolate(ft.zeros(1, 1, 2, 2, dtype=ft.long), scale_factor=2, mode="bilinear")


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"size": 3, "scale_factor": 2}, ValueError, "only one of size or scale_factor"),
        ({}, ValueError, "either size or scale_factor"),
        ({"size": (3, 3, 3)}, ValueError, "same number of spatial dimensions"),
        (
            {"scale_factor": 2, "mode": "linear"},
            NotImplementedError,
            "Got 4D input, but linear mode needs 3D",
        ),
        ({"scale_factor": 2, "align_corners": True}, ValueError, "align_corners option can only be set"),
        ({"size": 3, "recompute_scale_factor": True}, ValueError, "recompute_scale_factor is not meaningful"),
        ({"scale_factor": 2, "mode": "linear", "antialias": True}, ValueError, "Anti-alias option"),
        ({"scale_factor": 2, "mode": "lanczos"}, NotImplementedError, "lanczos"),
        ({"scale_factor": 2, "mode": "cubic"}, NotImplementedError, "Only 3D, 4D and 5D"),
        ({"scale_factor": 0.1}, RuntimeError, "should be greater than 0"),
    ],
)
def test_bad_arguments_raise_pytorchs_errors(kwargs, error, match):
    with pytest.raises(error, match=match):
        F.interpolate(ft.zeros(1, 1, 4, 4), **kwargs)


def test_modules():
    x = ft.tensor(data((1, 2, 3, 4)), requires_grad=True)
    assert ft.equal(
        nn.Upsample(scale_factor=2, mode="bilinear")(x), F.interpolate(x, scale_factor=2.0, mode="bilinear")
    )
    assert ft.equal(nn.UpsamplingNearest2d(size=(5, 5))(x), F.interpolate(x, size=(5, 5)))
    assert ft.equal(
        nn.UpsamplingBilinear2d(scale_factor=2)(x),
        F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=True),
    )
    assert repr(nn.Upsample(scale_factor=2, mode="bilinear")) == "Upsample(scale_factor=2.0, mode='bilinear')"
    assert repr(nn.UpsamplingBilinear2d(size=(3, 4))) == "UpsamplingBilinear2d(size=(3, 4), mode='bilinear')"
    assert repr(nn.PixelShuffle(2)) == "PixelShuffle(upscale_factor=2)"
    assert repr(nn.PixelUnshuffle(3)) == "PixelUnshuffle(downscale_factor=3)"
    assert repr(nn.LocalResponseNorm(3)) == "LocalResponseNorm(3, alpha=0.0001, beta=0.75, k=1.0)"
    want = "EmbeddingBag(10, 3, mode='sum', padding_idx=1)"
    assert repr(nn.EmbeddingBag(10, 3, mode="sum", padding_idx=1)) == want
    y = nn.PixelShuffle(2)(ft.zeros(1, 8, 2, 3))
    assert y.shape == (1, 2, 4, 6) and nn.PixelUnshuffle(2)(y).shape == (1, 8, 2, 3)
    bag = nn.EmbeddingBag(10, 3, mode="max")
    assert bag(ft.tensor([[1, 2], [3, 4]])).shape == (2, 3)
    assert bag.weight.shape == (10, 3)


def test_embedding_bag_errors():
    w = ft.zeros(5, 2)
    with pytest.raises(ValueError, match="offsets has to be a 1D Tensor but got None"):
        F.embedding_bag(ft.tensor([1, 2]), w)
    with pytest.raises(ValueError, match="if input is 2D, then offsets has to be None"):
        F.embedding_bag(ft.tensor([[1, 2]]), w, ft.tensor([0]))
    with pytest.raises(ValueError, match="mode has to be one of sum, mean or max"):
        F.embedding_bag(ft.tensor([[1, 2]]), w, mode="min")
    with pytest.raises(NotImplementedError, match="per_sample_weights is only supported for mode='sum'"):
        F.embedding_bag(ft.tensor([[1, 2]]), w, per_sample_weights=ft.ones(1, 2))
    with pytest.raises(RuntimeError, match="offsets\\[0\\] has to be 0"):
        F.embedding_bag(ft.tensor([1, 2]), w, ft.tensor([1]))
    with pytest.raises(IndexError, match="out of range"):
        F.embedding_bag(ft.tensor([[1, 7]]), w)


def test_embedding_bag_max_cache_key_includes_the_padding_mask():
    # regression: two calls with the same bags but a different padding_idx once shared a
    # cached program (the mask was not part of the key) and gave the first call's result
    w = ft.tensor(data((7, 3)))
    idx, off = ft.tensor([1, 2, 4, 5]), ft.tensor([0, 2])
    first = F.embedding_bag(idx, w, off, mode="max")
    second = F.embedding_bag(idx, w, off, mode="max", padding_idx=2)
    assert ft.equal(second[0], w[1].clone()) or not ft.equal(first, second)
    assert ft.equal(second[0], w[1])


def test_pixel_shuffle_errors():
    with pytest.raises(RuntimeError, match="divisible by the square of upscale_factor"):
        F.pixel_shuffle(ft.zeros(1, 3, 2, 2), 2)
    with pytest.raises(RuntimeError, match="divisible by downscale_factor"):
        F.pixel_unshuffle(ft.zeros(1, 3, 3, 2), 2)
    with pytest.raises(TypeError):
        F.pixel_shuffle(ft.zeros(1, 4, 2, 2), 2.0)


# -- the primitive --------------------------------------------------------------------------

_LINEAR = AxisMap(
    np.array([[0, 1], [0, 1], [1, 2], [2, 2]]), np.array([[1.0, 0.0], [0.4, 0.6], [0.7, 0.3], [1.0, 0.0]]), 3
)


def test_transpose_is_the_dense_transpose():
    dense = np.zeros((4, 3))
    for j in range(4):
        for k, w in zip(_LINEAR.index[j], _LINEAR.weight[j]):
            dense[j, k] += w
    back = np.zeros((3, 4))
    t = _LINEAR.transposed()
    for k in range(3):
        for j, w in zip(t.index[k], t.weight[k]):
            back[k, j] += w
    np.testing.assert_array_equal(back, dense.T)
    assert t.transposed() is _LINEAR


def test_primitive_under_transforms():
    x = fnp.asarray(data((2, 3, 2)))
    f = lambda x: fnp.sum(resample(x, _LINEAR, 1) ** 3)  # noqa: E731
    fgrad.test_util.check_grads(f, (x,), order=2, modes=("fwd", "rev"))
    batched = fgrad.vmap(lambda x: resample(x, _LINEAR, 0), in_axes=0, out_axes=0)(x)
    np.testing.assert_allclose(np.asarray(batched), np.asarray(resample(x, _LINEAR, 1)))
    np.testing.assert_allclose(
        np.asarray(fgrad.jit(lambda x: resample(x, _LINEAR, -2))(x)), np.asarray(resample(x, _LINEAR, 1))
    )


def test_primitive_errors():
    with pytest.raises(ValueError, match="reads 3 positions"):
        resample(fnp.zeros((4,)), _LINEAR, 0)
    with pytest.raises(TypeError, match="floating"):
        resample(fnp.zeros((3,), dtype=fnp.int32), _LINEAR, 0)
    with pytest.raises(IndexError):
        AxisMap(np.array([[3]]), np.ones((1, 1)), 3)


def test_modules_under_functional_transforms():
    import fgrad
    from fgrad.torch.func import functional_call

    ft.manual_seed(0)
    m = nn.Sequential(
        nn.Conv2d(1, 2, 3, padding=1), nn.Upsample(scale_factor=2, mode="bicubic"), nn.PixelUnshuffle(2)
    )
    params = {k: fnp.asarray(v.detach().numpy()) for k, v in m.named_parameters()}  # default device
    x_host = data((1, 1, 4, 4)).astype(np.float32)
    x = fnp.asarray(x_host)

    def loss(p):
        return fnp.sum(functional_call(m, p, (x,)) ** 2)

    (m(ft.tensor(x_host)) ** 2).sum().backward()
    for g in (fgrad.grad(loss)(params), fgrad.jit(fgrad.grad(loss))(params)):
        got = fgrad.device_get(g["0.weight"])
        np.testing.assert_allclose(got, m[0].weight.grad.numpy(), rtol=1e-5, atol=1e-6)
    batched = fgrad.vmap(lambda xi: functional_call(m, params, (xi[None],)))(fnp.stack([x[0], 2 * x[0]]))
    assert batched.shape == (2, 1, 8, 4, 4)


def test_instance_norm_bias_argument_and_repr():
    # regression: InstanceNorm had no `bias` keyword (PyTorch 2.13 has one) and its repr left
    # out "bias=..."; the reprs are torch 2.13's
    m = nn.InstanceNorm2d(3, affine=True, bias=False)
    assert [n for n, _ in m.named_parameters()] == ["weight"] and m.bias is None
    assert (
        repr(m)
        == "InstanceNorm2d(3, eps=1e-05, momentum=0.1, affine=True, bias=False, track_running_stats=False)"
    )
    assert repr(nn.InstanceNorm1d(3)) == (
        "InstanceNorm1d(3, eps=1e-05, momentum=0.1, affine=False, bias=False, track_running_stats=False)"
    )
    x = ft.tensor(data((2, 3, 4, 5)))
    np.testing.assert_allclose(
        m(x).detach().numpy(), F.instance_norm(x, weight=m.weight).detach().numpy(), rtol=1e-6
    )
