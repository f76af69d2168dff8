"""`embedding_bag`'s sums and means on host weights run directly and record a linear node
(`graph.record_linear`) instead of programs keyed by each batch's bags (session 24: a new
batch traced and compiled two programs, ~1 ms).  Both routes must give the same bits,
values and gradients of every order."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.torch as torch
import fgrad.torch.nn.functional as F
from fgrad.torch.nn import _embedding_bag

RNG = np.random.default_rng(5)


def _run(staged: bool, weight: np.ndarray, inp, offsets, ct: np.ndarray, **kw):
    _embedding_bag.LINEAR_NODES = not staged
    try:
        w = torch.tensor(weight, requires_grad=True)
        out = F.embedding_bag(torch.tensor(inp), w, None if offsets is None else torch.tensor(offsets), **kw)
        (out * torch.tensor(ct)).sum().backward()
        return out.detach().numpy(), w.grad.numpy(), out.grad_fn.name()
    finally:
        _embedding_bag.LINEAR_NODES = True


CASES = [  # (indices, offsets, keyword arguments)
    (RNG.integers(0, 30, 40), np.array([0, 3, 3, 17, 20, 39]), {}),  # an empty bag, a long one
    (RNG.integers(0, 30, 40), np.array([0, 5, 10, 15, 40]), {"include_last_offset": True}),
    (RNG.integers(0, 30, (6, 4)), None, {}),
    (RNG.integers(0, 30, 40), np.array([0, 2, 9, 30]), {"padding_idx": 3}),
    (np.array([1, 1, 1, 2, 1, 1, 0]), np.array([0, 4]), {}),  # duplicates within a bag
    (RNG.integers(0, 3, 60), np.arange(0, 60, 3), {}),  # few rows read by many bags (sparse transpose)
]


@pytest.mark.parametrize("case", range(len(CASES)))
@pytest.mark.parametrize("mode", ["sum", "mean"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_direct_route_has_the_staged_bits(case, mode, dtype):
    inp, offsets, kw = CASES[case]
    weight = RNG.standard_normal((30, 5)).astype(dtype)
    bags = len(offsets) - kw.get("include_last_offset", False) if offsets is not None else inp.shape[0]
    ct = RNG.standard_normal((bags, 5)).astype(dtype)
    direct = _run(False, weight, inp, offsets, ct, mode=mode, **kw)
    staged = _run(True, weight, inp, offsets, ct, mode=mode, **kw)
    for a, b in zip(direct[:2], staged[:2]):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))
    assert direct[2] == staged[2] == "EmbeddingBagBackward0"


def test_gradient_is_the_bag_membership_count():
    """Analytic: d sum(embedding_bag_sum(w)) / d w[r] = how many times row r is in a bag."""
    inp = np.array([0, 2, 2, 5, 1, 2])
    w = torch.randn(6, 3, requires_grad=True)
    F.embedding_bag(torch.tensor(inp), w, torch.tensor([0, 2, 4]), mode="sum").sum().backward()
    want = np.bincount(inp, minlength=6).astype(np.float32)[:, None] * np.ones((1, 3), np.float32)
    np.testing.assert_array_equal(w.grad.numpy(), want)


@pytest.mark.parametrize("mode", ["sum", "mean"])
def test_double_backward(mode):
    """The gradient is linear in the cotangent: its derivative (create_graph) is the same map."""
    inp, off = torch.tensor([0, 2, 1, 2, 3]), torch.tensor([0, 2])
    w = torch.randn(4, 3, requires_grad=True)
    v = torch.randn(2, 3, requires_grad=True)
    out = F.embedding_bag(inp, w, off, mode=mode)
    (gw,) = torch.autograd.grad((out * v).sum(), w, create_graph=True)
    u = torch.randn(4, 3)
    (gv,) = torch.autograd.grad((gw * u).sum(), v)
    # d/dv sum(u * d/dw sum(v * bag(w))) = bag(u)
    np.testing.assert_allclose(gv.numpy(), F.embedding_bag(inp, u, off, mode=mode).numpy(), rtol=1e-6)


def test_graph_and_retain():
    w = torch.randn(5, 2, requires_grad=True)
    out = F.embedding_bag(torch.tensor([1, 2, 3]), w, torch.tensor([0, 1]))
    assert out.grad_fn.name() == "EmbeddingBagBackward0"
    assert out.grad_fn.next_functions[0][0].name() == "torch::autograd::AccumulateGrad"
    out.sum().backward()
    with pytest.raises(RuntimeError, match="second time"):
        out.sum().backward()
    with torch.no_grad():
        assert F.embedding_bag(torch.tensor([1, 2, 3]), w, torch.tensor([0, 1])).grad_fn is None


def test_batches_seen_again_reuse_their_map():
    w = torch.randn(50, 4, requires_grad=True)
    inp = torch.tensor(RNG.integers(0, 50, 30))
    off = torch.arange(0, 30, 3)
    F.embedding_bag(inp, w, off).sum().backward()
    first = list(_embedding_bag._RECENT)[-1]
    F.embedding_bag(inp.clone(), w, off).sum().backward()
    assert list(_embedding_bag._RECENT)[-1] is first and first._transposed is not None


def test_peer_values():
    peer = pytest.importorskip("torch")
    weight = RNG.standard_normal((30, 5)).astype(np.float32)
    inp, off = RNG.integers(0, 30, 40), np.array([0, 3, 3, 17, 20, 39])
    for mode in ("sum", "mean"):
        w, pw = torch.tensor(weight, requires_grad=True), peer.tensor(weight, requires_grad=True)
        a = F.embedding_bag(torch.tensor(inp), w, torch.tensor(off), mode=mode)
        b = peer.nn.functional.embedding_bag(peer.tensor(inp), pw, peer.tensor(off), mode=mode)
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-6, atol=1e-7)
        a.sum().backward()
        b.sum().backward()
        np.testing.assert_allclose(w.grad.numpy(), pw.grad.numpy(), rtol=1e-6)


def test_a_new_batch_stages_no_program():
    """Fails before session 24: each new batch traced and compiled a forward and a backward
    program keyed by its bags (and pushed other programs out of the caches)."""
    from fgrad.torch import _dispatch
    from fgrad.torch.autograd import graph

    w = torch.randn(40, 4, requires_grad=True)
    off = torch.arange(0, 24, 4)

    def step(seed):
        inp = torch.tensor(np.random.default_rng(seed).integers(0, 40, 24))
        F.embedding_bag(inp, w, off, mode="mean").sum().backward()

    step(0)
    forwards, backwards = len(_dispatch._FORWARDS), len(graph._PROGS)
    for seed in range(1, 4):
        step(seed)
    assert (len(_dispatch._FORWARDS), len(graph._PROGS)) == (forwards, backwards)
