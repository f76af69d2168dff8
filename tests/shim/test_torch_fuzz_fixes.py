"""Defects found by ``tools/torch_fuzz.py`` (differential fuzzing of ``fgrad.torch`` against
PyTorch 2.13), each pinned by analytic numbers, finite differences or PyTorch's numbers stored
here; the live comparison runs where torch is installed. See docs/torch-fuzz.md."""

from __future__ import annotations

import cmath
import math

import numpy as np
import pytest

import fgrad.torch as ft

inf, nan = math.inf, math.nan


def test_complex_acosh_gradient_is_the_principal_branchs():
    # d/dz acosh z = 1 / (sqrt(z - 1) sqrt(z + 1)); 1 / sqrt(z^2 - 1) has the wrong sign where Re z < 0.
    # PyTorch's gradient of a real loss is the conjugate of the derivative.
    zs = [-2.9173183 + 0.8973695j, 0.3 - 0.2j, 2 + 1j, -0.5 - 3j]
    z = ft.tensor(zs, dtype=ft.complex128, requires_grad=True)
    (g,) = ft.autograd.grad(ft.acosh(z).real.sum(), z)
    want = [(1 / (cmath.sqrt(w - 1) * cmath.sqrt(w + 1))).conjugate() for w in zs]
    h = 1e-6
    fd = [((cmath.acosh(w + h) - cmath.acosh(w - h)) / (2 * h)).conjugate() for w in zs]
    np.testing.assert_allclose(g.numpy(), want, rtol=1e-12)
    np.testing.assert_allclose(g.numpy(), fd, rtol=1e-8)
    assert abs(g.numpy()[0] - (-0.32418340678574964 + 0.11157381685222845j)) < 1e-7  # PyTorch's


def test_real_acosh_gradient_keeps_pytorchs_formula():
    x = ft.tensor([-2.0, -0.5, 1.0, 3.0], dtype=ft.float64, requires_grad=True)
    (g,) = ft.autograd.grad(ft.acosh(x).sum(), x)
    np.testing.assert_allclose(g.numpy(), [1 / math.sqrt(3), nan, inf, 1 / math.sqrt(8)])  # PyTorch's


HARDSWISH_X = [inf, -inf, 3.0, -3.0, 1.0, nan, -4.0, 2.9]
# PyTorch 2.13's value, gradient and second derivative at HARDSWISH_X
HARDSWISH_Y = [inf, nan, 3.0, -0.0, 2 / 3, nan, -0.0, 2.9 * 5.9 / 6]
HARDSWISH_G = [1.0, 0.0, 1.0, 0.0, 5 / 6, 1.0, 0.0, 2.9 / 3 + 0.5]
HARDSWISH_GG = [0.0, 0.0, 0.0, 0.0, 1 / 3, 0.0, 0.0, 1 / 3]


def _hardswish_numbers(T):
    x = T.tensor(HARDSWISH_X, dtype=T.float64, requires_grad=True)
    y = T.nn.functional.hardswish(x)
    (g,) = T.autograd.grad(y.sum(), x, create_graph=True)
    (gg,) = T.autograd.grad(g.sum(), x)
    return y.detach().numpy(), g.detach().numpy(), gg.numpy()


def test_hardswish_at_infinities_nan_and_minus_three():
    # the gradient at +inf was NaN (the middle branch's inf derivative times a zero cotangent),
    # the value at -inf 0 and at -3 +0 (PyTorch's kernel x * clamp(x + 3, 0, 6) / 6: NaN, -0)
    y, g, gg = _hardswish_numbers(ft)
    np.testing.assert_allclose(y, HARDSWISH_Y, rtol=1e-15)
    assert np.signbit(y[3]) and np.signbit(y[6])
    np.testing.assert_allclose(g, HARDSWISH_G, rtol=1e-15)
    np.testing.assert_allclose(gg, HARDSWISH_GG, rtol=1e-15)


def test_hardswish_numbers_match_live_torch():
    torch = pytest.importorskip("torch")
    for mine, theirs in zip(_hardswish_numbers(ft), _hardswish_numbers(torch)):
        np.testing.assert_array_equal(mine, theirs)


def test_angle_of_real_input_keeps_nan_and_is_recorded():
    x = ft.tensor([nan, -inf, inf, -0.0, -2.0, 3.0], requires_grad=True)
    y = ft.angle(x)
    np.testing.assert_array_equal(y.detach().numpy(), np.float32([nan, math.pi, 0, 0, math.pi, 0]))
    assert y.requires_grad and y.grad_fn is not None  # as PyTorch: recorded, gradient zero
    (g,) = ft.autograd.grad((2 * y).sum(), x)
    np.testing.assert_array_equal(g.numpy(), np.zeros(6, np.float32))
    assert ft.angle(ft.tensor([-1, 2, 0])).dtype == ft.float32


@pytest.mark.parametrize("shape", [(0,), (2, 0), (2, 0, 3)])
def test_in_place_ops_on_empty_tensors(shape):
    # NumPy gives empty arrays zero strides; the overlap check took them for broadcast views
    x = ft.zeros(shape).clone()
    assert x.floor_() is x and x.add_(1) is x and x.shape == shape
    assert x._version == 2


def test_empty_tensors_report_pytorchs_contiguous_strides():
    assert ft.empty(2, 0, 3).stride() == (3, 3, 1)  # PyTorch's
    assert ft.empty(0, 3).stride() == (3, 1)
    assert ft.tensor([[], []]).stride() == (1, 1)
    assert ft.empty(2, 0, 3).is_contiguous()
