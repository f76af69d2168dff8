"""Issue 16 (the fixed part of the `torch_lstm`/`torch_gru` steps, every classifier's loss):
`F.nll_loss` (and so `F.cross_entropy`) of a batch of rows with no ignored target and no
class weights runs a 5-primitive definition (`functional._nll_unmasked`) instead of the
masked general one.  Its values, gradients and second derivatives are bit for bit those of the
general definition (which a weight of ones selects, with the same numbers: weights 1, divisor
N), including the signs of zero losses; and PyTorch's, at its rounding."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.torch as ft
from fgrad.torch.nn import functional as F

from _peers import torch_or_none


def _inputs(kind: str, dtype, N: int = 9, C: int = 5):
    r = np.random.default_rng(7)
    x = (3 * r.standard_normal((N, C))).astype(dtype)
    if kind == "zeros":
        x[:] = 0.0
    elif kind == "negative zeros":
        x[:] = -0.0
    elif kind == "large":
        x *= np.finfo(dtype).max / 8
    return x, r.integers(0, C, N)


def _loss_and_grads(x, t, reduction, weighted, how):
    xt = ft.tensor(x, requires_grad=True)
    w = ft.ones(x.shape[1], dtype=xt.dtype) if weighted else None
    f = F.nll_loss if how == "nll_loss" else F.cross_entropy
    loss = f(xt, ft.tensor(t), weight=w, reduction=reduction)
    ct = np.linspace(-1.5, 2.0, loss.numel()).reshape(tuple(loss.shape)).astype(x.dtype)
    (g,) = ft.autograd.grad(loss, xt, ft.tensor(ct), create_graph=True)
    if how == "nll_loss":  # linear in x: no second derivative
        assert not g.requires_grad
        return [a.detach().numpy() for a in (loss, g)]
    (h,) = ft.autograd.grad((g * g).sum(), xt)
    return [a.detach().numpy() for a in (loss, g, h)]


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal values with equal signs (of zeros too); NaNs equal whatever their sign bit."""
    nan = np.isnan(a)
    return bool(np.array_equal(nan, np.isnan(b)) and np.array_equal(a[~nan], b[~nan])
                and np.array_equal(np.signbit(a[~nan]), np.signbit(b[~nan])))


@pytest.mark.parametrize("how", ["nll_loss", "cross_entropy"])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("kind", ["random", "zeros", "negative zeros", "large"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_unmasked_definition_is_the_general_one_bit_for_bit(how, reduction, kind, dtype):
    x, t = _inputs(kind, dtype)
    fast = _loss_and_grads(x, t, reduction, False, how)
    general = _loss_and_grads(x, t, reduction, True, how)
    for name, a, b in zip(("loss", "grad", "second derivative"), fast, general):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert _same_bits(a, b), (name, a, b)
    if kind == "zeros" and reduction == "mean" and how == "nll_loss":
        assert fast[0] == 0 and not np.signbit(fast[0])  # +0.0, as the general definition's


def test_unmasked_definition_is_taken_only_without_ignored_targets():
    x, t = _inputs("random", np.float32)
    xt = ft.tensor(x, requires_grad=True)
    plain = F.nll_loss(xt, ft.tensor(t))
    prims = {e.prim.name for e in plain.grad_fn._prog.jaxpr.eqns}
    assert not {"select_n", "ne"} & prims, prims  # no mask in the backward program
    t2 = t.copy()
    t2[3] = -100
    masked = F.nll_loss(xt, ft.tensor(t2))
    want = -np.mean(np.delete(x[np.arange(len(t)), np.where(t2 < 0, 0, t2)], 3))
    np.testing.assert_allclose(masked.item(), want, rtol=1e-6)
    assert masked.grad_fn._prog is not plain.grad_fn._prog


def test_against_pytorch():
    torch = torch_or_none()
    if torch is None:
        pytest.skip("PyTorch not installed")
    x, t = _inputs("random", np.float32, 16, 10)
    for reduction in ("mean", "sum", "none"):
        loss, g, _ = _loss_and_grads(x, t, reduction, False, "cross_entropy")
        xt = torch.tensor(x, requires_grad=True)
        ref = torch.nn.functional.cross_entropy(xt, torch.tensor(t), reduction=reduction)
        ct = np.linspace(-1.5, 2.0, ref.numel()).reshape(tuple(ref.shape)).astype(np.float32)
        ref.backward(torch.tensor(ct))
        np.testing.assert_allclose(loss, ref.detach().numpy(), rtol=2e-6, atol=1e-6)
        np.testing.assert_allclose(g, xt.grad.numpy(), rtol=2e-6, atol=1e-7)
