"""torch.utils.checkpoint: recomputation really happens, gradients equal the un-checkpointed
ones (dropout included: the RNG state is restored for the recomputation) and PyTorch's."""

from __future__ import annotations

import doctest
import importlib

import numpy as np
import pytest

import fgrad.torch as ft
from fgrad.torch.utils.checkpoint import checkpoint, checkpoint_sequential

try:
    import torch as _torch
except Exception:  # noqa: BLE001
    _torch = None


def _block(lib, seed=0):
    lib.manual_seed(seed)
    net = lib.nn.Sequential(lib.nn.Linear(4, 8), lib.nn.Tanh(), lib.nn.Dropout(0.3), lib.nn.Linear(8, 4))
    rng = np.random.default_rng(1)
    with lib.no_grad():
        for p in net.parameters():
            p.copy_(lib.tensor(rng.standard_normal(tuple(p.shape)) * 0.5, dtype=p.dtype))
    return net


def _grads(lib, net, use_ckpt, use_reentrant=False):
    x = lib.tensor(np.linspace(-1, 1, 12).reshape(3, 4), dtype=lib.float32, requires_grad=True)
    lib.manual_seed(7)
    h = x * 2
    y = checkpoint(net, h, use_reentrant=use_reentrant) if use_ckpt else net(h)
    (y ** 2).sum().backward()
    return [x.grad.numpy().copy()] + [p.grad.numpy().copy() for p in net.parameters()]


@pytest.mark.parametrize("use_reentrant", [True, False])
def test_gradients_equal_the_uncheckpointed_ones_with_dropout(use_reentrant):
    plain = _grads(ft, _block(ft), False)
    ckpt = _grads(ft, _block(ft), True, use_reentrant)
    for a, b in zip(plain, ckpt):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)


def test_the_function_is_recomputed_and_its_graph_not_kept():
    calls = []
    w = ft.tensor([1.5, -0.5], requires_grad=True)

    def f(x):
        calls.append(ft.is_grad_enabled())
        return ft.sin(x * w).exp()

    x = ft.tensor([0.3, 0.7], requires_grad=True)
    y = checkpoint(f, x, use_reentrant=True)
    assert calls == [False]  # the first run records nothing
    y.sum().backward()
    assert calls == [False, True]  # recomputed with grad enabled during backward
    expected_x = (ft.cos(x * w) * ft.sin(x * w).exp() * w).detach()
    np.testing.assert_allclose(x.grad.numpy(), expected_x.numpy(), rtol=1e-6)
    expected_w = (ft.cos(x * w) * ft.sin(x * w).exp() * x).detach()
    np.testing.assert_allclose(w.grad.numpy(), expected_w.numpy(), rtol=1e-6)


def test_autograd_grad_through_checkpoint_raises():
    x = ft.ones(2, requires_grad=True)
    y = checkpoint(ft.sin, x, use_reentrant=True)
    with pytest.raises(RuntimeError, match="incompatible with .grad()"):
        ft.autograd.grad(y.sum(), x)


def test_use_reentrant_must_be_given_and_non_tensor_args_pass_through():
    x = ft.ones(2, requires_grad=True)
    with pytest.warns(UserWarning, match="use_reentrant parameter should be passed explicitly"):
        y = checkpoint(lambda t, k: t * k, x, 3.0)
    y.sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]
    with pytest.raises(ValueError, match="Unexpected keyword arguments: scale"):
        checkpoint(lambda t, scale: t * scale, x, use_reentrant=True, scale=2.0)
    z = checkpoint(lambda t, scale: t * scale, x, use_reentrant=False, scale=2.0)
    assert z.tolist() == [2.0, 2.0]


def test_checkpoint_sequential_matches_plain():
    ft.manual_seed(0)
    net = ft.nn.Sequential(*[ft.nn.Linear(4, 4) for _ in range(5)])
    x = ft.ones(2, 4, requires_grad=True)
    checkpoint_sequential(net, 2, x, use_reentrant=False).pow(2).sum().backward()
    ckpt = [p.grad.clone() for p in net.parameters()] + [x.grad.clone()]
    net.zero_grad()
    x.grad = None
    net(x).pow(2).sum().backward()
    for a, b in zip(ckpt, [p.grad for p in net.parameters()] + [x.grad]):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6, atol=1e-7)


def test_matches_torch_checkpoint():
    torch = pytest.importorskip("torch")
    ours = _block(ft).eval()
    theirs = _block(torch).eval()  # no dropout: RNG streams differ between the libraries
    for a, b in zip(_grads(ft, ours, True), _grads(torch, theirs, True)):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_docstring_examples_run():
    module = importlib.import_module("fgrad.torch.utils.checkpoint")
    res = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert res.failed == 0 and res.attempted > 0
