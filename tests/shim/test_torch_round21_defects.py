"""Round 21's defects of ``fgrad.torch`` (docs/torch-programs-round21.md), each against
PyTorch 2.13's numbers stored here (printed by the same code with ``import torch``) and, when
PyTorch is installed, live."""

from __future__ import annotations

import pytest

import fgrad.torch as torch


# ---- gradgradcheck's grad_outputs come from the global generator, as PyTorch's -------------------

def _rng_after_gradgradcheck(lib):
    """The next ``rand`` after gradgradcheck with drawn grad_outputs: PyTorch draws them with
    ``torch.testing.make_tensor(..., low=-1, high=1)`` from the global generator."""
    out = []
    for func, kw in ((lambda p: (p ** 3).sum(), {}), (lambda p: p ** 3, {}),
                     (lambda p: p ** 3, {"gen_non_contig_grad_outputs": True}),
                     (lambda p: (p ** 3, (p > 0).double(), p * 2), {})):
        lib.manual_seed(9)
        p = lib.linspace(-1.0, 1.0, 6, dtype=lib.float64).requires_grad_()
        assert lib.autograd.gradgradcheck(func, (p,), **kw)
        out.append(lib.rand(1).item())
    return out


# PyTorch 2.13
_RNG_AFTER = [0.4798964262008667, 0.13809555768966675, 0.44679152965545654, 0.44679152965545654]


def test_gradgradcheck_draws_grad_outputs_from_the_global_generator():
    """gradgradcheck drew its grad_outputs from a private NumPy generator: a program's random
    numbers after it (a training run) were not PyTorch's."""
    assert _rng_after_gradgradcheck(torch) == _RNG_AFTER


def test_gradgradcheck_draws_grad_outputs_as_live_pytorch():
    real = pytest.importorskip("torch")
    assert _rng_after_gradgradcheck(torch) == _rng_after_gradgradcheck(real)


def test_gradgradcheck_pairs_grad_outputs_with_the_differentiable_outputs_only():
    """Given grad_outputs are one per output that requires grad (PyTorch's convention); a
    non-differentiable output before them took the first one and the differentiable one was
    left out: nothing was checked and a wrong second derivative passed."""

    class DetachedSquare(torch.autograd.Function):  # right first, wrong second derivative
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * a

        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            return g * 2 * a.detach()

    p = torch.linspace(-1.0, 1.0, 6, dtype=torch.float64).requires_grad_()
    v = torch.linspace(0.5, 1.5, 6, dtype=torch.float64).requires_grad_()
    assert torch.autograd.gradcheck(DetachedSquare.apply, (p,))
    assert torch.autograd.gradgradcheck(lambda x: ((x > 0).double(), x ** 3), (p,), (v,))
    assert not torch.autograd.gradgradcheck(lambda x: ((x > 0).double(), DetachedSquare.apply(x)), (p,), (v,),
                                            raise_exception=False)


# ---- gradcheck of a non-contiguous input --------------------------------------------------------

def test_gradcheck_of_a_non_contiguous_input():
    """gradcheck refused a transposed or strided input ("inputs must be contiguous"); PyTorch
    checks it, and a wrong gradient through it is still caught."""
    base = torch.linspace(-1.0, 1.0, 12, dtype=torch.float64).reshape(3, 4)
    for x in (base.t(), base[:, ::2]):
        x = x.detach().requires_grad_()
        assert not x.is_contiguous()
        assert torch.autograd.gradcheck(lambda a: a.sin() * a[:1], (x,))

    class WrongExp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a.exp()

        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            return g * a  # wrong: exp(a)

    x = base.t().detach().requires_grad_()
    assert not torch.autograd.gradcheck(WrongExp.apply, (x,), raise_exception=False)
    assert torch.equal(x, base.t())  # the perturbations are undone
