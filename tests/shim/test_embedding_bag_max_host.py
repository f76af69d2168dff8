"""``EmbeddingBag`` in ``max`` mode on host float32/float64 weights computes its maxima in
NumPy and records a node linear in the cotangent (the ties fixed by the forward, as
PyTorch's saved ``max_indices``): no VJP traced per call (session 26).  Values, gradients
and ``create_graph`` gradients are bit for bit those of the per-call path it replaced
(`_embedding_bag.LINEAR_NODES = False`), on special values and on rows summed from a
hundred bags of wildly different magnitudes (where another summation order would show)."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.torch as torch
from fgrad.torch.nn import _embedding_bag as EB


@pytest.fixture
def linear_nodes():
    yield
    EB.LINEAR_NODES = True


def _special_case(host, seed, dtype, create):
    EB.LINEAR_NODES = host
    r = np.random.default_rng(seed)
    w0 = (r.standard_normal((30, 5)) * 10.0 ** r.integers(-8, 8, (30, 5))).astype(dtype)
    w0[0, :3] = [np.nan, np.inf, -np.inf]
    w0[1, :] = -np.inf  # a bag whose maximum is -inf: the padding ties (reduce_max's count)
    w0[2, :2], w0[3, :2] = [0.0, -0.0], [-0.0, 0.0]
    w = torch.tensor(w0, requires_grad=True)
    idx = torch.tensor(r.integers(0, 30, 60))
    off = torch.tensor([0, 0, 5, 6, 20, 20, 40, 59])  # empty bags too
    out = torch.nn.functional.embedding_bag(idx, w, off, mode="max", padding_idx=4)
    ct = r.standard_normal(out.shape).astype(dtype)
    ct[0, 0], ct[3, 1] = np.inf, np.nan
    if create:
        (g,) = torch.autograd.grad(out, w, torch.tensor(ct, requires_grad=True), create_graph=True)
        assert g.requires_grad
        return out.detach().numpy(), g.detach().numpy()
    out.backward(torch.tensor(ct))
    return out.detach().numpy(), w.grad.numpy()


def _many_bags(host, seed, dtype):
    EB.LINEAR_NODES = host
    r = np.random.default_rng(seed)
    w = torch.tensor(r.standard_normal((3, 4)).astype(dtype), requires_grad=True)
    out = torch.nn.functional.embedding_bag(torch.tensor(r.integers(0, 3, 400)), w,
                                            torch.arange(0, 400, 4), mode="max")
    ct = (r.standard_normal(out.shape) * 10.0 ** r.integers(-7, 7, out.shape)).astype(dtype)
    out.backward(torch.tensor(ct))
    return (w.grad.numpy(),)


def _same_bits(a, b):
    for x, y in zip(a, b, strict=True):
        assert x.dtype == y.dtype
        np.testing.assert_array_equal(x.view(np.uint8), y.view(np.uint8))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("create", [False, True])
def test_host_max_matches_the_per_call_path(linear_nodes, dtype, create):
    for seed in range(3):
        _same_bits(_special_case(True, seed, dtype, create), _special_case(False, seed, dtype, create))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_host_max_sums_rows_in_the_maps_order(linear_nodes, dtype):
    for seed in range(5):
        _same_bits(_many_bags(True, seed, dtype), _many_bags(False, seed, dtype))


def test_host_max_records_a_linear_node():
    from fgrad.torch.autograd import graph

    w = torch.randn(10, 3, requires_grad=True)
    out = torch.nn.functional.embedding_bag(torch.tensor([1, 2, 3, 4]), w, torch.tensor([0, 2]), mode="max")
    assert isinstance(out.grad_fn, graph._LinearNode)
    assert type(out.grad_fn).__name__ == "EmbeddingBagBackward0"


def test_host_max_matches_live_pytorch():
    pt = pytest.importorskip("torch")
    r = np.random.default_rng(7)
    w0 = r.standard_normal((50, 6)).astype(np.float32)
    idx, off = r.integers(0, 50, 64), [0, 3, 3, 10, 40]
    res = []
    for m in (torch, pt):
        w = m.tensor(w0, requires_grad=True)
        out = m.nn.functional.embedding_bag(m.tensor(idx), w, m.tensor(off), mode="max")
        (out * m.arange(out.numel(), dtype=m.float32).reshape(out.shape)).sum().backward()
        res.append((out.detach().numpy(), w.grad.numpy()))
    np.testing.assert_array_equal(res[0][0], res[1][0])
    np.testing.assert_array_equal(res[0][1], res[1][1])  # (no ties among random floats)
