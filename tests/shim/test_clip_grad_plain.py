"""``clip_grad_norm_``'s buffer path (`clip_grad._plain_total_norm`, the in-place scaling on
plain host gradients) gives the bits of the tensor-op path it replaces (``vector_norm`` per
gradient, ``stack``, ``vector_norm``, ``mul_``), and PyTorch's values to rounding; gradients
it does not take go the tensor-op way."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.torch as ft
from fgrad.torch.nn.utils import clip_grad
from tests._peers import torch_or_none

SHAPES = [(64, 64), (64,), (300, 257), (3, 5, 7), (), (0, 4), (5000,)]


def _grads(dtype, seed=0):
    rng = np.random.default_rng(seed)
    out = []
    for shape in SHAPES:
        # magnitudes over 2**-30..2**30: any change in the sum's order shows in the last bits
        g = rng.standard_normal(shape) * 2.0 ** rng.integers(-30, 30, shape)
        out.append(np.asarray(g, dtype))
    out += [np.asfortranarray(out[2]), np.asfortranarray(rng.standard_normal((1024, 700)).astype(dtype)),
            np.asfortranarray(rng.standard_normal((3, 5, 700)).astype(dtype))]  # (matmul weight grads)
    return out


def _clip(grads, max_norm, tensor_ops: bool):
    ps = [ft.nn.Parameter(ft.zeros(g.shape, dtype=ft.from_numpy(g).dtype)) for g in grads]
    for p, g in zip(ps, grads):
        p.grad = ft.from_numpy(g.copy(order="K"))
    if tensor_ops:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(clip_grad, "_plain_total_norm", lambda tensors: None)
            mp.setattr(clip_grad, "_plain_grad", lambda *a: False)
            total = ft.nn.utils.clip_grad_norm_(ps, max_norm)
    else:
        total = ft.nn.utils.clip_grad_norm_(ps, max_norm)
    return total, [p.grad.numpy() for p in ps], ps


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("max_norm", [1.0, 1e30])  # clipped, and not (the scale clamped to 1)
def test_the_tensor_ops_bits(dtype, max_norm):
    grads = _grads(dtype)
    assert clip_grad._plain_total_norm([ft.from_numpy(g) for g in grads]) is not None  # (taken)
    total, got, ps = _clip(grads, max_norm, False)
    assert ps[-1].grad._buf.flags.f_contiguous and not ps[-1].grad._buf.flags.c_contiguous
    want_total, want, _ = _clip(grads, max_norm, True)
    assert total.dtype == want_total.dtype and total.shape == () and total.grad_fn is None
    assert total.numpy().tobytes() == want_total.numpy().tobytes()
    for a, b in zip(got, want):
        assert a.shape == b.shape and a.tobytes() == b.tobytes()
    assert all(p.grad._version == 1 for p in ps)  # one in-place op each, as ``mul_``
    for g in grads:  # each gradient's norm (the total above is dominated by the largest)
        t = ft.from_numpy(g)
        fast = ft.nn.utils.get_total_norm([t])
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(clip_grad, "_plain_total_norm", lambda tensors: None)
            assert fast.numpy().tobytes() == ft.nn.utils.get_total_norm([t]).numpy().tobytes()


def test_what_it_does_not_take_goes_the_tensor_op_way(monkeypatch):
    calls = []
    real = ft.Tensor.mul_
    monkeypatch.setattr(ft.Tensor, "mul_", lambda self, *a, **k: calls.append(1) or real(self, *a, **k))
    base = ft.randn(6, 8)
    cases = {
        "mixed dtypes": [ft.randn(4), ft.randn(4, dtype=ft.float64)],
        "a view": [base[:, ::2]],
        "bfloat16": [ft.randn(4).bfloat16()],
    }
    for name, gs in cases.items():
        assert clip_grad._plain_total_norm(gs) is None, name
    assert clip_grad._plain_total_norm([base.t().contiguous(), base]) is not None
    assert clip_grad._plain_total_norm([base.t()]) is None  # (a view)
    assert clip_grad._plain_total_norm([ft.from_numpy(np.ones((6, 8), np.float32)[:, ::2])]) is None
    p = ft.nn.Parameter(ft.ones(4))
    p.grad = ft.full((4,), 3.0, requires_grad=True)  # a gradient with autograd history (create_graph)
    total = ft.nn.utils.clip_grad_norm_([p], 1.0)
    assert calls and total.item() == 6.0 and np.allclose(p.grad.detach().numpy(), 0.5)


def test_matches_pytorch():
    torch = torch_or_none()
    if torch is None:
        pytest.skip("PyTorch not installed (the tensor-op comparison above holds without it)")
    for dtype in (np.float32, np.float64):
        grads = _grads(dtype, seed=1)
        total, got, _ = _clip(grads, 1.0, False)
        tps = [torch.nn.Parameter(torch.zeros(g.shape, dtype=torch.from_numpy(g).dtype)) for g in grads]
        for p, g in zip(tps, grads):
            p.grad = torch.from_numpy(g.copy(order="K"))
        ttotal = torch.nn.utils.clip_grad_norm_(tps, 1.0)
        rtol = 1e-5 if dtype == np.float32 else 1e-12
        np.testing.assert_allclose(total.item(), ttotal.item(), rtol=rtol)
        for a, p in zip(got, tps):
            np.testing.assert_allclose(a, p.grad.numpy(), rtol=rtol, atol=0)
