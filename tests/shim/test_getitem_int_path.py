"""``t[i]`` with a Python int (a dataset's hot path) takes a short route: it must behave as
the general basic-index path and as PyTorch -- a view that writes through, records
SelectBackward0, and raises PyTorch's IndexError out of range."""

import numpy as np
import pytest

import fgrad.torch as torch


@pytest.mark.parametrize("i", [-3, -1, 0, 2])
def test_int_index_is_a_writable_view_with_select_backward(i):
    x = torch.arange(12.0).reshape(3, 4).clone()
    v = x[i]
    assert v._base is x and v.shape == (4,)
    v.add_(100)
    assert np.array_equal(np.asarray(x[i]), np.arange(4.0) + 4 * (i % 3) + 100)
    w = torch.ones(3, 2, requires_grad=True)
    y = w[i]
    assert type(y.grad_fn).__name__ == "SelectBackward0"
    (y * torch.tensor([2.0, 3.0])).sum().backward()
    expect = np.zeros((3, 2))
    expect[i] = [2.0, 3.0]
    assert np.array_equal(np.asarray(w.grad), expect)


def test_int_index_out_of_range_and_0d():
    x = torch.zeros(3, 2)
    with pytest.raises(IndexError, match="out of bounds|out of range"):
        x[3]
    with pytest.raises(IndexError):
        x[-4]
    with pytest.raises(IndexError):
        torch.tensor(1.0)[0]


def test_int_index_matches_torch():
    real = pytest.importorskip("torch")
    a = np.arange(24.0).reshape(4, 3, 2)
    for i in range(-4, 4):
        got, want = torch.tensor(a)[i], real.tensor(a)[i]
        assert np.array_equal(np.asarray(got), want.numpy()) and got.is_contiguous() == want.is_contiguous()
