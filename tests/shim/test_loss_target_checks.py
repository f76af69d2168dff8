"""`nll_loss`/`cross_entropy` read their class-index targets with one reduction when every
target lies in ``[0, C)`` (session 24): the checks and the ignored targets must come out as
before -- out-of-range targets raise PyTorch's IndexError, an ``ignore_index`` inside
``[0, C)`` is still masked, and the loss and gradient are PyTorch's."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.torch as ftorch
import fgrad.torch.nn.functional as F

LOGITS = np.random.default_rng(0).standard_normal((6, 4)).astype(np.float32)


def _loss_and_grad(lib, targets, **kw):
    x = lib.tensor(LOGITS, requires_grad=True)
    loss = lib.nn.functional.cross_entropy(x, lib.tensor(targets), **kw)
    loss.backward()
    return loss.detach().numpy(), x.grad.numpy()


def _by_hand(targets, ignore_index=-100):
    """Mean of ``-log_softmax(x)[n, t[n]]`` over the targets not ignored, and its gradient
    ``(softmax - onehot) / count`` on those rows (float64)."""
    x = LOGITS.astype(np.float64)
    logp = x - np.log(np.exp(x).sum(1, keepdims=True))
    t = np.asarray(targets)
    keep = t != ignore_index
    rows = np.flatnonzero(keep)
    loss = -logp[rows, t[rows]].sum() / keep.sum()
    grad = np.exp(logp)
    grad[rows, t[rows]] -= 1
    grad[~keep] = 0
    return loss, grad / keep.sum()


@pytest.mark.parametrize("targets, ignore_index", [
    ([0, 1, 2, 3, 0, 1], -100),   # all inside, nothing ignored
    ([0, 2, 2, 3, 2, 1], 2),      # ignore_index inside [0, C): still masked
    ([0, -100, 2, 3, 1, -100], -100),
    ([0, 9, 2, 3, 1, 9], 9),      # ignore_index past C: those targets are ignored, not out of range
])
def test_ignored_targets_are_masked(targets, ignore_index):
    loss, grad = _loss_and_grad(ftorch, targets, ignore_index=ignore_index)
    want_loss, want_grad = _by_hand(targets, ignore_index)
    np.testing.assert_allclose(loss, want_loss, rtol=1e-5)
    np.testing.assert_allclose(grad, want_grad, rtol=1e-5, atol=1e-7)
    torch = pytest.importorskip("torch")
    peer_loss, peer_grad = _loss_and_grad(torch, targets, ignore_index=ignore_index)
    # (within rounding: the shim's float32 log_softmax differs from PyTorch's AVX kernels in
    # the last bit on short rows, before and after session 24)
    np.testing.assert_allclose(loss, peer_loss, rtol=1e-6)
    np.testing.assert_allclose(grad, peer_grad, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("targets, bad", [([0, 1, 4, 3, 0, 1], 4), ([0, -1, 2, 3, 0, 1], -1),
                                          ([0, 1, 2, 3, 0, -100], None)])
def test_out_of_range_targets_raise(targets, bad):
    x = ftorch.tensor(LOGITS)
    if bad is None:  # -100 is the default ignore_index: not an error
        assert np.isfinite(F.nll_loss(x, ftorch.tensor(targets)).item())
        return
    with pytest.raises(IndexError, match=f"Target {bad} is out of bounds."):
        F.nll_loss(x, ftorch.tensor(targets), ignore_index=7)
    with pytest.raises(IndexError, match=f"Target {bad} is out of bounds."):
        F.cross_entropy(x, ftorch.tensor(targets), ignore_index=7)


def test_uint8_targets():
    t = np.array([0, 1, 2, 3, 0, 1], np.uint8)
    x = ftorch.tensor(LOGITS)
    want = F.nll_loss(x, ftorch.tensor(t.astype(np.int64))).item()
    assert F.nll_loss(x, ftorch.tensor(t)).item() == want
    with pytest.raises(IndexError, match="Target 4 is out of bounds."):
        F.nll_loss(x, ftorch.tensor(np.array([4, 0, 0, 0, 0, 0], np.uint8)))
