"""Issue 16: the shim's LSTM train step.  `unbind`/`split` are one node whose backward is
one ``concatenate`` (not a full-size zero-padded gradient per piece: O(T^2) memory traffic
over a sequence); a layer direction is one op on the fused sequence primitive
(`fgrad.ops.rnn`, see tests/shim/test_rnn_fused.py) and the cells' step ops save their gate
activations, so no backward program runs the forward matmul, sigmoid or tanh again.
Gradients (first and second order) are checked against finite differences and, when
installed, PyTorch."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.torch as ft
from fgrad.torch import nn


def _prims(t) -> list[str]:
    return [e.prim.name for e in t.grad_fn._prog.jaxpr.eqns]


def test_unbind_backward_is_one_concatenate():
    x = ft.randn(50, 3, 8, requires_grad=True)
    ys = x.unbind(0)
    prims = _prims(ys[0])
    assert prims.count("concatenate") == 1
    assert not {"scatter", "scatter_add", "gather", "pad", "add"} & set(prims)
    loss = sum((y * (i + 1)).sum() for i, y in enumerate(ys))
    loss.backward()
    want = np.broadcast_to(np.arange(1, 51, dtype=np.float32)[:, None, None], (50, 3, 8))
    np.testing.assert_array_equal(x.grad.numpy(), want)


@pytest.mark.parametrize("sections,dim", [(2, 1), ([1, 3, 1], 1), (2, 0), (4, 2)])
def test_split_and_chunk_gradients(sections, dim):
    rng = np.random.default_rng(3)
    xn = rng.standard_normal((4, 5, 6))
    x = ft.tensor(xn, requires_grad=True)
    parts = x.split(sections, dim)
    weights = [rng.standard_normal(tuple(p.shape)) for p in parts]
    sum((p * ft.tensor(w)).sum() for p, w in zip(parts, weights)).backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.concatenate(weights, axis=dim))
    assert "concatenate" in _prims(parts[0])


def test_unbind_second_order():
    x = ft.tensor(np.linspace(-1, 1, 12).reshape(3, 4), requires_grad=True)
    a, b, c = x.unbind(0)
    (g,) = ft.autograd.grad((a * b * c).sum(), x, create_graph=True)
    (h,) = ft.autograd.grad((g * g).sum(), x)
    xn = x.detach().numpy()
    # g = (b c, a c, a b); d/dx sum(g^2) = (2 a (b^2 + c^2), 2 b (a^2 + c^2), 2 c (a^2 + b^2))
    a_, b_, c_ = xn
    want = np.stack([2 * a_ * (b_ ** 2 + c_ ** 2), 2 * b_ * (a_ ** 2 + c_ ** 2),
                     2 * c_ * (a_ ** 2 + b_ ** 2)])
    np.testing.assert_allclose(h.numpy(), want, rtol=1e-12)


def _step_prims(out, node_name):
    seen, stack = set(), [out.grad_fn]
    while stack:
        n = stack.pop()
        if n is None or id(n) in seen:
            continue
        seen.add(id(n))
        if type(n).__name__ == node_name and hasattr(n, "_prog"):
            return [e.prim.name for e in n._prog.jaxpr.eqns]
        stack.extend(f for f, _ in n.next_functions)
    raise AssertionError(f"no {node_name} node")


@pytest.mark.parametrize("name,node", [("LSTMCell", "MulBackward0"), ("GRUCell", "AddBackward0")])
def test_step_backward_reads_saved_gates(name, node):
    """The cells (and packed sequences) run one op per step; its backward reads the saved
    gates."""
    cell = getattr(nn, name)(3, 4)
    h = ft.randn(2, 4, requires_grad=True)
    out = cell(ft.randn(2, 3), (h, h * 0.5) if name == "LSTMCell" else h)
    out = out[0] if isinstance(out, tuple) else out
    # the step op's backward: dh = dg @ W and dW = dg^T h only (no forward matmul again),
    # and no sigmoid or tanh evaluated again
    prims = _step_prims(out, node)
    assert prims.count("dot_general") == 2
    assert "logistic" not in prims and "tanh" not in prims and "exp" not in prims


@pytest.mark.parametrize("name", ["LSTM", "GRU"])
def test_layer_backward_is_one_sequence_primitive(name):
    """A layer direction on a tensor input is one op whose backward is the backward-in-time
    primitive alone (no forward recurrence, sigmoid or tanh again)."""
    out, _ = getattr(nn, name)(3, 4)(ft.randn(5, 2, 3))
    assert _step_prims(out, "StackBackward0") == [f"{name.lower()}_sequence_vjp"]


def _lstm_loss(lstm, x):
    out, (h, c) = lstm(x)
    return (out ** 2).sum() + (h * c).sum()


def test_lstm_double_backward_vs_finite_differences():
    ft.manual_seed(0)
    lstm = nn.LSTM(2, 3, num_layers=2).double()
    rng = np.random.default_rng(5)
    xn = rng.standard_normal((4, 2, 2))
    v = rng.standard_normal((4, 2, 2))

    def grad_dot_v(xn_):
        x = ft.tensor(xn_, requires_grad=True)
        (g,) = ft.autograd.grad(_lstm_loss(lstm, x), x, create_graph=True)
        return g, x

    g, x = grad_dot_v(xn)
    (hv,) = ft.autograd.grad((g * ft.tensor(v)).sum(), x)  # Hessian-vector product
    eps = 1e-6
    up, down = grad_dot_v(xn + eps * v)[0], grad_dot_v(xn - eps * v)[0]
    fd = (up.detach().numpy() - down.detach().numpy()) / (2 * eps)
    np.testing.assert_allclose(hv.numpy(), fd, rtol=1e-5, atol=1e-7)


def test_lstm_train_step_matches_torch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(6)
    xn = rng.standard_normal((20, 3, 5)).astype(np.float32)
    grads = []
    for t in (ft, torch):
        t.manual_seed(0)
        m = t.nn.LSTM(5, 6, num_layers=2, bidirectional=True)
        with t.no_grad():
            for k, p in enumerate(m.parameters()):
                w = np.random.default_rng(k).uniform(-0.4, 0.4, tuple(p.shape)).astype(np.float32)
                p.copy_(t.from_numpy(w))
        x = t.tensor(xn, requires_grad=True)
        _lstm_loss(m, x).backward()
        grads.append([x.grad.numpy()] + [p.grad.numpy() for p in m.parameters()])
    for a, b in zip(*grads):
        np.testing.assert_allclose(a, b, rtol=2e-4, atol=2e-5)
