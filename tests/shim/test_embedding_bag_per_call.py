"""`embedding_bag` in ``max`` mode and with ``per_sample_weights`` on host weights runs its
definition eagerly and records a VJP linearized for the call (`graph.record_per_call`)
instead of forward and backward programs keyed by each batch's bags (before session 25 a new
batch traced and compiled both, ~3 ms, and left them in the caches).  Both routes must give
the same bits: values, gradients (weight and per-sample weights), double backward."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.torch as torch
import fgrad.torch.nn.functional as F
from fgrad.torch.nn import _embedding_bag
from tests.shim.test_embedding_bag_batches import CASES as BAG_CASES

RNG = np.random.default_rng(25)


def _run(staged: bool, weight: np.ndarray, inp, offsets, ct: np.ndarray, psw=None, **kw):
    _embedding_bag.PER_CALL_NODES = not staged
    try:
        w = torch.tensor(weight, requires_grad=True)
        p = None if psw is None else torch.tensor(psw, requires_grad=True)
        out = F.embedding_bag(torch.tensor(inp), w, None if offsets is None else torch.tensor(offsets),
                              per_sample_weights=p, **kw)
        (out * torch.tensor(ct)).sum().backward()
        grads = [w.grad.numpy()] + ([] if p is None else [p.grad.numpy()])
        return [out.detach().numpy(), *grads], out.grad_fn.name()
    finally:
        _embedding_bag.PER_CALL_NODES = True


# the sum/mean routes' cases: empty and long bags, include_last_offset, 2-d input, padding_idx,
# duplicates within a bag (max: ties), few rows read by many bags
CASES = BAG_CASES


def _weight(dtype, ties: bool):
    w = RNG.standard_normal((30, 5))
    return (np.round(w) if ties else w).astype(dtype)  # small integers: ties between rows


@pytest.mark.parametrize("case", range(len(CASES)))
@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_max_per_call_has_the_staged_bits(case, ties, dtype):
    inp, offsets, kw = CASES[case]
    weight = _weight(dtype, ties)
    bags = len(offsets) - kw.get("include_last_offset", False) if offsets is not None else inp.shape[0]
    ct = RNG.standard_normal((bags, 5)).astype(dtype)
    direct, name = _run(False, weight, inp, offsets, ct, mode="max", **kw)
    staged, staged_name = _run(True, weight, inp, offsets, ct, mode="max", **kw)
    for a, b in zip(direct, staged, strict=True):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))
    assert name == staged_name == "EmbeddingBagBackward0"


@pytest.mark.parametrize("case", range(len(CASES)))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_per_sample_weights_per_call_has_the_staged_bits(case, dtype):
    inp, offsets, kw = CASES[case]
    weight = _weight(dtype, False)
    psw = RNG.standard_normal(inp.shape).astype(dtype)
    bags = len(offsets) - kw.get("include_last_offset", False) if offsets is not None else inp.shape[0]
    ct = RNG.standard_normal((bags, 5)).astype(dtype)
    direct, name = _run(False, weight, inp, offsets, ct, psw, mode="sum", **kw)
    staged, staged_name = _run(True, weight, inp, offsets, ct, psw, mode="sum", **kw)
    assert len(direct) == 3
    for a, b in zip(direct, staged, strict=True):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))
    assert name == staged_name == "EmbeddingBagBackward0"


def test_gradients_analytic():
    """max: the gradient goes to the bag's largest row, per column; per_sample_weights: d/dw[r]
    = sum of the weights of r's occurrences, d/dpsw[i] = sum(w[inp[i]])."""
    w = torch.tensor([[1.0, 5.0], [3.0, 0.0], [2.0, 4.0]], requires_grad=True)
    F.embedding_bag(torch.tensor([0, 1, 2, 1]), w, torch.tensor([0, 3]), mode="max").sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), [[0, 1], [2, 1], [0, 0]])
    w.grad = None
    inp, p = torch.tensor([0, 2, 2, 1]), torch.tensor([0.5, 2.0, -1.0, 3.0], requires_grad=True)
    F.embedding_bag(inp, w, torch.tensor([0, 2]), mode="sum", per_sample_weights=p).sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), [[0.5, 0.5], [3, 3], [1, 1]])
    np.testing.assert_array_equal(p.grad.numpy(), [6, 6, 6, 3])


@pytest.mark.parametrize("psw", [False, True])
def test_double_backward_matches_the_staged_route(psw):
    inp, off = np.array([0, 2, 1, 2, 3, 3]), np.array([0, 2, 5])
    weight = RNG.standard_normal((4, 3))
    pw = RNG.standard_normal(6) if psw else None
    v0, u0 = RNG.standard_normal((3, 3)), RNG.standard_normal((4, 3))
    got = []
    for staged in (False, True):
        _embedding_bag.PER_CALL_NODES = not staged
        try:
            w = torch.tensor(weight, requires_grad=True)
            p = None if pw is None else torch.tensor(pw, requires_grad=True)
            v = torch.tensor(v0, requires_grad=True)
            out = F.embedding_bag(torch.tensor(inp), w, torch.tensor(off), mode="sum" if psw else "max",
                                  per_sample_weights=p)
            (gw,) = torch.autograd.grad((out * v).sum(), w, create_graph=True)
            (gv,) = torch.autograd.grad((gw * torch.tensor(u0)).sum(), v)
            got.append(gv.numpy())
        finally:
            _embedding_bag.PER_CALL_NODES = True
    np.testing.assert_array_equal(got[0], got[1])


def test_graph_and_retain():
    w = torch.randn(5, 2, requires_grad=True)
    out = F.embedding_bag(torch.tensor([1, 2, 3]), w, torch.tensor([0, 1]), mode="max")
    assert out.grad_fn.name() == "EmbeddingBagBackward0"
    assert out.grad_fn.next_functions[0][0].name() == "torch::autograd::AccumulateGrad"
    out.sum().backward()
    with pytest.raises(RuntimeError, match="second time"):
        out.sum().backward()
    with torch.no_grad():
        assert F.embedding_bag(torch.tensor([1, 2, 3]), w, torch.tensor([0, 1]), mode="max").grad_fn is None


def test_peer_values():
    peer = pytest.importorskip("torch")
    weight = RNG.standard_normal((30, 5)).astype(np.float32)
    inp, off = RNG.integers(0, 30, 40), np.array([0, 3, 7, 17, 20, 39])
    psw = RNG.standard_normal(40).astype(np.float32)
    for mode, p in (("max", None), ("sum", psw)):
        w, pw = torch.tensor(weight, requires_grad=True), peer.tensor(weight, requires_grad=True)
        a = F.embedding_bag(torch.tensor(inp), w, torch.tensor(off), mode=mode,
                            per_sample_weights=None if p is None else torch.tensor(p))
        b = peer.nn.functional.embedding_bag(peer.tensor(inp), pw, peer.tensor(off), mode=mode,
                                             per_sample_weights=None if p is None else peer.tensor(p))
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-6, atol=1e-6)
        a.sum().backward()
        b.sum().backward()
        np.testing.assert_allclose(w.grad.numpy(), pw.grad.numpy(), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("mode", ["max", "psw"])
def test_a_new_batch_stages_no_program(mode):
    """Fails before session 25: each new batch traced and compiled a forward and a backward
    program keyed by its bags (and pushed other programs out of the caches)."""
    from fgrad.torch import _dispatch
    from fgrad.torch.autograd import graph

    w = torch.randn(40, 4, requires_grad=True)
    off = torch.arange(0, 24, 4)

    def step(seed):
        rng = np.random.default_rng(seed)
        inp = torch.tensor(rng.integers(0, 40, 24))
        p = torch.tensor(rng.standard_normal(24).astype(np.float32)) if mode == "psw" else None
        F.embedding_bag(inp, w, off, mode="sum" if p is not None else "max",
                        per_sample_weights=p).sum().backward()

    step(0)
    forwards, backwards = len(_dispatch._FORWARDS), len(graph._PROGS)
    for seed in range(1, 4):
        step(seed)
    assert (len(_dispatch._FORWARDS), len(graph._PROGS)) == (forwards, backwards)
