"""PyTorch's meta-device construction pattern: build under ``with torch.device("meta")``,
then ``to_empty`` and initialize or load weights.  fgrad makes "meta" tensors on the CPU
(they hold data), so the pattern runs and gives PyTorch's numbers."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.torch as ft


def _build(torch):
    with torch.device("meta"):
        return torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4), torch.nn.Linear(4, 2))


def test_meta_context_then_to_empty_and_load_state_dict():
    # regression: `with torch.device("meta")` raised "Torch not compiled with CUDA enabled"
    # and nn.Module had no `to_empty`
    src = ft.nn.Sequential(ft.nn.Linear(3, 4), ft.nn.BatchNorm1d(4), ft.nn.Linear(4, 2))
    m = _build(ft).to_empty(device="cpu")
    assert m[0].weight.shape == (4, 3) and m[1].running_mean.shape == (4,)
    assert m[0].weight.requires_grad and isinstance(m[0].weight, ft.nn.Parameter)
    m.load_state_dict(src.state_dict())
    x = ft.arange(6.0).view(2, 3)
    np.testing.assert_array_equal(m(x).detach().numpy(), src(x).detach().numpy())
    assert ft.empty(2, device="meta").shape == (2,)  # factories still take device="meta"
    assert ft.zeros(1).device == ft.device("cpu")  # the context is left on exit


def test_to_empty_recurse_false_keeps_children():
    m = ft.nn.Sequential(ft.nn.Linear(2, 2))
    w = m[0].weight
    assert m.to_empty(device="cpu", recurse=False)[0].weight is w


def test_meta_pattern_matches_pytorch_live():
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    ft.manual_seed(0)
    outs = []
    for lib in (torch, ft):
        m = _build(lib).to_empty(device="cpu")
        for mod in m:
            mod.reset_parameters()
        x = lib.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]])
        outs.append(m(x).detach().numpy())
    np.testing.assert_allclose(outs[1], outs[0], rtol=1e-6, atol=1e-7)


def test_meta_tensors_are_marked_and_draw_nothing():
    ft.manual_seed(3)
    expect = ft.rand(4).numpy()
    ft.manual_seed(3)
    with ft.device("meta"):
        w = ft.randn(5, 5)
        p = ft.nn.Parameter(ft.empty(3))
        p.normal_()
        lin = ft.nn.Linear(8, 8)
    ext = ft.nn.Linear(8, 8, device="meta")  # explicit device, its reset draws nothing either
    assert w.is_meta and p.is_meta and lin.weight.is_meta and ext.weight.is_meta
    assert not ft.zeros(1).is_meta
    np.testing.assert_array_equal(ft.rand(4).numpy(), expect)  # the stream did not move
    ft.set_default_device("meta")
    try:
        assert ft.ones(2).is_meta
    finally:
        ft.set_default_device("cpu")
    assert not ft.ones(2).is_meta
    lin.to_empty(device="cpu")
    assert not lin.weight.is_meta


def test_meta_random_stream_live():
    torch = pytest.importorskip("torch")
    vals = []
    for lib in (torch, ft):
        lib.manual_seed(7)
        with lib.device("meta"):
            lib.nn.Linear(16, 16)
            lib.randn(10)
        lib.nn.Linear(4, 4, device="meta")
        vals.append(lib.rand(3).numpy())
    np.testing.assert_array_equal(vals[1], vals[0])
