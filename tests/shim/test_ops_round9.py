"""fgrad/torch/_ops_round9.py: torch.cond / torch.while_loop (eager, PyTorch's checks,
gradients through the branch taken), the functional RNN cells (PyTorch's values and
gradients), nonzero_static, constant_pad_nd, empty_permuted, frobenius/nuclear norms, the
unsafe splits and the legacy Tensor.new / as_subclass."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.torch as ft


def test_cond_and_while_loop():
    x = ft.tensor([0.5, 1.0], requires_grad=True)
    y = ft.cond(x.sum() > 0, lambda v: v.sin(), lambda v: v.cos(), (x,))
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.cos([0.5, 1.0]), rtol=1e-6)
    assert ft.cond(False, lambda v: v + 1, lambda v: v - 1, [ft.tensor(1.0)]).item() == 0.0
    with pytest.raises(RuntimeError, match="the branches must return the same structure"):
        ft.cond(True, lambda v: v.sin(), lambda v: v.sum(), (x,))
    with pytest.raises(RuntimeError, match="expected the predicate to be a tensor with one element"):
        ft.cond(ft.tensor([True, False]), lambda v: v, lambda v: v, (x,))
    i, v = ft.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * 2), (ft.tensor(0), ft.ones(2)))
    assert i.item() == 3 and v.tolist() == [8.0, 8.0]
    with pytest.raises(RuntimeError, match="body_fn must return the carried inputs' shapes and dtypes"):
        ft.while_loop(lambda i: i < 3, lambda i: i + 1.5, (ft.tensor(0),))


def _cells(lib):
    lib.manual_seed(0)
    x, h, c = lib.randn(2, 3), lib.randn(2, 4), lib.randn(2, 4)
    ws = [
        lib.randn(16, 3),
        lib.randn(16, 4),
        lib.randn(16),
        lib.randn(16),
        lib.randn(12, 3),
        lib.randn(12, 4),
        lib.randn(12),
        lib.randn(12),
        lib.randn(4, 3),
        lib.randn(4, 4),
        lib.randn(4),
        lib.randn(4),
    ]
    leaves = [x, h, c, *ws]
    for t in leaves:
        t.requires_grad_()
    h1, c1 = lib.lstm_cell(x, (h, c), *ws[0:4])
    g = lib.gru_cell(x, h, *ws[4:8])
    r = lib.rnn_tanh_cell(x, h, *ws[8:12]) + lib.rnn_relu_cell(x, h, *ws[8:12])
    loss = (h1 * 1.5 + c1).sum() + (g * g).sum() + r.sum()
    grads = lib.autograd.grad(loss, leaves)
    return [t.detach().numpy() for t in (h1, c1, g, r, *grads)]


def test_rnn_cells_match_pytorch_values_and_gradients():
    torch = pytest.importorskip("torch")
    for got, want in zip(_cells(ft), _cells(torch)):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_rnn_cells_check_sizes():
    with pytest.raises(RuntimeError, match="weight_ih first dim must be 4 \\* hidden_size = 16, but got 12"):
        ft.lstm_cell(ft.zeros(2, 3), (ft.zeros(2, 4), ft.zeros(2, 4)), ft.zeros(12, 3), ft.zeros(16, 4))
    with pytest.raises(RuntimeError, match="input has inconsistent input_size: got 5 expected 3"):
        ft.gru_cell(ft.zeros(2, 5), ft.zeros(2, 4), ft.zeros(12, 3), ft.zeros(12, 4))


def test_small_functions():
    assert ft.nonzero_static(ft.tensor([0, 1, 0, 2]), size=3).flatten().tolist() == [1, 3, -1]
    assert ft.nonzero_static(ft.tensor([0, 1, 0, 2]), size=1, fill_value=-5).tolist() == [[1]]
    x = ft.arange(6.0).reshape(2, 3)
    assert ft.constant_pad_nd(x, [1, -1], 9.0).tolist() == [[9.0, 0.0, 1.0], [9.0, 3.0, 4.0]]
    assert ft.empty_permuted((2, 3, 4), (2, 0, 1)).stride() == (3, 1, 6)
    with pytest.warns(UserWarning, match="frobenius_norm is deprecated"):
        np.testing.assert_allclose(ft.frobenius_norm(x, dim=(0, 1)).item(), np.sqrt(55), rtol=1e-6)
    with pytest.warns(UserWarning, match="nuclear_norm is deprecated"):
        np.testing.assert_allclose(ft.nuclear_norm(x).item(), np.linalg.norm(x.numpy(), "nuc"), rtol=1e-5)
    assert [t.shape[1] for t in ft.unsafe_split(x, 2, 1)] == [2, 1]
    assert [t.shape[1] for t in x.unsafe_chunk(3, 1)] == [1, 1, 1]


def test_legacy_new_and_as_subclass():
    x = ft.zeros(2, dtype=ft.float64)
    assert x.new().shape == (0,) and x.new(2, 3).shape == (2, 3) and x.new(2, 3).dtype == ft.float64
    assert x.new(ft.Size([4])).shape == (4,)
    assert x.new([1, 2]).tolist() == [1.0, 2.0] and x.new((1, 2)).dtype == ft.float64
    with pytest.raises(TypeError, match="new\\(\\): expected a tensor of dtype"):
        x.new(ft.tensor([1, 2]))

    class Marked(ft.Tensor):
        pass

    w = ft.ones(2, requires_grad=True)
    m = w.as_subclass(Marked)
    assert type(m) is Marked
    (m * 3).sum().backward()
    assert w.grad.tolist() == [3.0, 3.0]
    assert not x.is_distributed() and x.const_data_ptr() == x.data_ptr()
