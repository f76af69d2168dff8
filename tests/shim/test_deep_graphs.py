"""Deep graphs in the shim: a chain of 20,000 recorded ops runs forward and backward with
no recursion, each node is applied once, the backward program is built once per
signature, and backward frees what the graph saved.  The 100,000-op variants are slow
(``python -m pytest -m slow tests/shim/test_deep_graphs.py``)."""

from __future__ import annotations

import gc
import time
import weakref

import numpy as np
import pytest

import fgrad.torch as torch
from fgrad.torch.autograd import graph as G


def _sin_chain_grad(n: int) -> np.ndarray:
    """d/dx sum(sin^n(x)) at x = 1 (float64), by the chain rule in a NumPy loop."""
    v, g = np.ones(3), np.ones(3)
    for _ in range(n):
        g = g * np.cos(v)
        v = np.sin(v)
    return g


def _count_calls(monkeypatch, owner, name):
    calls = [0]
    real = getattr(owner, name)

    def counted(*a, **k):
        calls[0] += 1
        return real(*a, **k)

    monkeypatch.setattr(owner, name, counted)
    return calls


@pytest.mark.parametrize("n", [20_000])
def test_deep_mul_chain_forward_and_backward(n):
    x = torch.ones(3, dtype=torch.float64, requires_grad=True)
    y = x
    for _ in range(n):
        y = y * 1.0001
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.full(3, 1.0001 ** n), rtol=1e-9)


def test_deep_sin_chain_applies_each_node_once_and_builds_one_program(monkeypatch):
    n = 10_000
    applied = _count_calls(monkeypatch, G.FnNode, "_apply")
    built = _count_calls(monkeypatch, G, "_build_program")
    G._PROGS.clear()
    x = torch.ones(3, dtype=torch.float64, requires_grad=True)
    y = x
    for _ in range(n):
        y = y.sin()
    y.sum().backward()
    assert applied[0] == n + 1  # n sins and the sum: linear work
    assert built[0] == 2  # one backward program per signature (sin, sum), not per node
    np.testing.assert_allclose(x.grad.numpy(), _sin_chain_grad(n), rtol=1e-12)


def test_backward_frees_the_saved_values_of_a_deep_graph():
    x = torch.ones(3, dtype=torch.float64, requires_grad=True)
    y, probe = x, None
    for i in range(10_000):
        y = y.sin()
        if i == 10:
            probe = weakref.ref(y)  # saved by the next sin node only
    assert probe() is not None
    y.sum().backward()
    assert probe() is None  # released by backward (retain_graph=False)
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.sum().backward()
    del y  # dropping a 10,000-deep chain of nodes does not overflow the C stack
    gc.collect()


def test_a_recorded_op_keeps_few_gc_tracked_objects_alive():
    """The cyclic GC's full collections traverse every live tracked object, so their cost
    per recorded op is what makes a long forward pass slow: a node, its edges tuple and
    one edge (the saved constants are an untracked tuple)."""
    def tracked_after(n):
        x = torch.ones(3, dtype=torch.float64, requires_grad=True)
        y = x
        for _ in range(n):
            y = y * 1.0001
        gc.collect()
        return len(gc.get_objects()), y

    a, ya = tracked_after(1000)
    del ya
    b, yb = tracked_after(3000)
    per_op = (b - a) / 2000
    assert per_op <= 3.05, per_op  # was 4: the saved constants were a (tracked) list


@pytest.mark.slow
@pytest.mark.parametrize("op", ["mul", "sin"])
def test_100k_chain_forward_and_backward(op):
    n = 100_000
    x = torch.ones(3, dtype=torch.float64, requires_grad=True)
    t0 = time.perf_counter()
    y = x
    for _ in range(n):
        y = y * 1.0001 if op == "mul" else y.sin()
    y.sum().backward()
    assert time.perf_counter() - t0 < 120  # a budget, not a timing ratio
    want = np.full(3, 1.0001 ** n) if op == "mul" else _sin_chain_grad(n)
    np.testing.assert_allclose(x.grad.numpy(), want, rtol=1e-9)
