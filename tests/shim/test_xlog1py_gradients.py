"""``torch.special.xlog1py``'s derivatives at ``input == 0`` are PyTorch's (found by the PyTorch
docstring-example run, session 15): the composite gave NaN for ``input`` where ``other <= -1``
(PyTorch: 0) and named its node ``WhereBackward0``."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.torch as torch

X = [0.0, 0.0, 0.0, 2.0, 0.0, 0.0, -1.5]
Y = [0.5, -1.0, 0.0, 0.5, -2.0, float("nan"), 3.0]
# PyTorch 2.13: xlog1py(x, y).sum().backward()
WANT_VALUE = [0.0, 0.0, 0.0, 0.8109302162163288, 0.0, float("nan"), -2.0794415416798357]
WANT_DX = [0.4054651081081644, 0.0, 0.0, 0.4054651081081644, 0.0, float("nan"), 1.3862943611198906]
WANT_DY = [0.0, float("nan"), 0.0, 1.3333333333333333, -0.0, float("nan"), -0.375]


def _run(lib):
    x = lib.tensor(X, dtype=lib.float64, requires_grad=True)
    y = lib.tensor(Y, dtype=lib.float64, requires_grad=True)
    r = lib.special.xlog1py(x, y)
    r.sum().backward()
    names = [r.grad_fn.name(), lib.special.xlog1py(x, 2.0).grad_fn.name(),
             lib.special.xlog1py(2.0, y).grad_fn.name()]
    return r.detach().numpy(), x.grad.numpy(), y.grad.numpy(), names


def _check(got):
    value, dx, dy, names = got
    np.testing.assert_allclose(value, WANT_VALUE, rtol=1e-15, equal_nan=True)
    np.testing.assert_allclose(dx, WANT_DX, rtol=1e-15, equal_nan=True)
    np.testing.assert_allclose(dy, WANT_DY, rtol=1e-15, equal_nan=True)
    assert np.signbit(dy[4])  # 0 / (1 + y) with y = -2: -0.0 as PyTorch
    assert names == ["SpecialXlog1PyBackward0", "SpecialXlog1PyBackward2", "SpecialXlog1PyBackward1"]


def test_xlog1py_derivatives_as_pytorchs_stored():
    _check(_run(torch))


def test_xlog1py_derivatives_as_pytorchs_live():
    pt = pytest.importorskip("torch")
    _check(_run(pt))


def test_xlog1py_broadcasts_and_second_derivative():
    x = torch.tensor([[0.0], [1.5]], dtype=torch.float64, requires_grad=True)
    y = torch.tensor([0.25, 2.0], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(torch.special.xlog1py, (x, y))
    assert torch.autograd.gradgradcheck(torch.special.xlog1py, (x, y))
