"""Gradients of ``torch.linalg.det`` and ``slogdet`` of complex matrices, PyTorch's numbers.

Silently wrong before: the cofactor matrix behind det's derivative (``_conventions._adjugate_t``)
was built from the SVD as for real matrices (``U diag Vh`` where the complex case needs
``conj(U) diag conj(Vh)``), so every complex det gradient was wrong; complex ``slogdet`` raised
(its JVP gave a complex tangent to the real log|det| and none to the sign).  The complex-aware
``gradcheck`` (test_gradcheck_complex.py) is what exposed them."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
import fgrad.torch as ft
from tests._peers import torch_or_none

A0 = np.array([[1 + 1j, 0.5, 0.2j], [0.3 - 0.1j, 2, 0.1], [0.2, 0.4j, 1.5 - 0.5j]])
W = 0.3 + 0.7j
# torch 2.13: A.grad of (det(A) * W).real, and of (sign * W).real + logabsdet
DET_GRAD = np.array([[1.628 - 1.788j, -0.324 + 0.176j, -0.192 + 0.216j],
                     [-0.424 + 0.506j, -0.072 - 1.688j, 0.43 - 0.23j],
                     [0.295 + 0.085j, 0.004 + 0.068j, -0.88 - 1.91j]])
SLOGDET_GRAD = np.array([
    [0.9055931003 + 0.1591814838j, -0.1224573846 - 0.0682704046j, -0.108450125 - 0.0177294587j],
    [-0.2488097494 - 0.0332522557j, 0.5275903239 - 0.3665667819j, 0.1613705137 + 0.0913342159j],
    [0.032715576 + 0.1120573717j, -0.0210299306 + 0.0151201111j, 0.4345092561 - 0.6712899123j]])


def _grads(m):
    a = m.tensor(A0, requires_grad=True)
    (m.linalg.det(a) * W).real.backward()
    b = m.tensor(A0, requires_grad=True)
    sign, logabsdet = m.linalg.slogdet(b)
    ((sign * W).real + logabsdet).backward()
    return a.grad.numpy(), b.grad.numpy()


def test_stored_pytorch_numbers():
    det_grad, slogdet_grad = _grads(ft)
    np.testing.assert_allclose(det_grad, DET_GRAD, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(slogdet_grad, SLOGDET_GRAD, rtol=1e-8, atol=1e-10)


def test_functional_face_is_the_conjugate_convention():
    """``fgrad.grad`` of a real function of a complex matrix is JAX's: the conjugate of PyTorch's."""
    g = fgrad.grad(lambda a: (fnp.linalg.det(a) * W).real)(A0)
    np.testing.assert_allclose(np.asarray(g), DET_GRAD.conj(), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("f", [lambda a: ft.linalg.det(a), lambda a: ft.linalg.slogdet(a)[0],
                               lambda a: ft.linalg.slogdet(a)[1], lambda a: ft.logdet(a)])
def test_gradcheck_both_orders(f):
    a = ft.tensor(A0, requires_grad=True)
    assert ft.autograd.gradcheck(f, (a,))
    assert ft.autograd.gradgradcheck(f, (a,))


def test_real_matrices_unchanged():
    a = ft.tensor(A0.real.copy(), requires_grad=True)
    ft.linalg.det(a).backward()
    np.testing.assert_allclose(a.grad.numpy(), np.linalg.det(A0.real) * np.linalg.inv(A0.real).T, rtol=1e-12)


def test_live_pytorch():
    torch = torch_or_none()
    if torch is None:
        pytest.skip("PyTorch is not installed")
    for want, got in zip(_grads(torch), _grads(ft)):
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12)
