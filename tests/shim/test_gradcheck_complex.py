"""``gradcheck``/``gradgradcheck`` of complex functions check the Jacobian of the function of
real numbers (real and imaginary parts of every input and output), as PyTorch's do.  Before,
complex inputs were perturbed along the real axis only and complex outputs were cast to
float64 (a ComplexWarning, and the imaginary parts never compared), so a wrong complex
backward passed.  Also ``torch.sgn``'s gradient for complex inputs: it was 0 (the sign
primitive's), PyTorch's is that of ``z / |z|``."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import fgrad.torch as ft
from tests._peers import torch_or_none


def _wrong_conjugation(m):
    class Square(m.autograd.Function):
        @staticmethod
        def forward(ctx, z):
            ctx.save_for_backward(z)
            return z * z

        @staticmethod
        def backward(ctx, g):
            (z,) = ctx.saved_tensors
            return g * 2 * z  # PyTorch's convention needs g * conj(2 z)

    return Square.apply


def test_a_wrong_complex_backward_fails():
    z = ft.tensor([3 + 4j, -2j], dtype=ft.complex128, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ft.autograd.gradcheck(_wrong_conjugation(ft), (z,), raise_exception=False) is False
        with pytest.raises(RuntimeError, match="Jacobian mismatch"):  # GradcheckError, as PyTorch's
            ft.autograd.gradcheck(_wrong_conjugation(ft), (z,))


@pytest.mark.parametrize("f", [lambda z: z * z, lambda z: z.exp(), lambda z: z.abs(),
                               lambda z: (z * z.conj()).real, lambda z: ft.sgn(z), lambda z: z.angle(),
                               lambda z: z / (1 + z)])
def test_right_complex_derivatives_pass_both_orders(f):
    z = ft.tensor([3 + 4j, -2j, 0.5 - 0.25j], dtype=ft.complex128, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ft.autograd.gradcheck(f, (z,))
        assert ft.autograd.gradgradcheck(f, (z,))
        assert ft.autograd.gradcheck(f, (z,), check_forward_ad=True)


def test_real_to_complex_functions():
    x = ft.tensor([0.3, 1.2], dtype=ft.float64, requires_grad=True)
    assert ft.autograd.gradcheck(lambda x: ft.polar(x, x), (x,))
    assert ft.autograd.gradcheck(lambda x: ft.polar(x, x).abs(), (x,))


# torch.sgn(w) * [1+2j, 0.5j, 1], real part summed, backward: torch 2.13
SGN_GRAD = np.array([0.32 - 0.24j, -0.1767767 - 0.1767767j, 0.0])


def test_sgn_gradient_of_complex_inputs():
    w = ft.tensor([3 + 4j, 1 - 1j, 0j], requires_grad=True)
    y = ft.sgn(w)
    assert y.grad_fn.name() == "SgnBackward0"
    (y * ft.tensor([1 + 2j, 0.5j, 1])).real.sum().backward()
    np.testing.assert_allclose(w.grad.numpy(), SGN_GRAD, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(y.detach().numpy(), [0.6 + 0.8j, 2 ** -0.5 * (1 - 1j), 0], rtol=1e-6)


def test_live_pytorch():
    torch = torch_or_none()
    if torch is None:
        pytest.skip("PyTorch is not installed")
    for m in (torch, ft):
        z = m.tensor([3 + 4j, -2j], dtype=m.complex128, requires_grad=True)
        assert m.autograd.gradcheck(_wrong_conjugation(m), (z,), raise_exception=False) is False
    w = torch.tensor([3 + 4j, 1 - 1j, 0j], requires_grad=True)
    (torch.sgn(w) * torch.tensor([1 + 2j, 0.5j, 1])).real.sum().backward()
    np.testing.assert_allclose(w.grad.numpy(), SGN_GRAD, rtol=1e-6, atol=1e-7)
