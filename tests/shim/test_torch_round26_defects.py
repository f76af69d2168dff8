"""Defects found by round 26 of the PyTorch programs (tests/torch_programs_round26/,
docs/torch-programs-round26.md), each pinned by an independent computation (ordinary autograd
of the analytic formula) or by PyTorch's numbers."""

from __future__ import annotations

import pytest

import fgrad.torch as torch
from fgrad.torch import func


def _layer():
    torch.manual_seed(0)
    lin = torch.nn.Linear(3, 2).double()
    return lin, torch.tensor([0.3, -1.2, 0.8], dtype=torch.float64)


def _jacobian_by_formula(lin, x):
    """d tanh(W x + b) / dx = diag(1 - y^2) W, by ordinary autograd-tracked ops."""
    y = torch.tanh(lin(x))
    return (1 - y ** 2)[:, None] * lin.weight


def _param_grads(loss, lin):
    return [g.detach() for g in torch.autograd.grad(loss, [lin.weight, lin.bias])]


@pytest.mark.parametrize("transform", ["jacrev", "jacfwd"])
def test_a_jacobian_of_a_module_closed_over_trains_its_parameters(transform):
    """``jacrev(lambda x: model(x))(x)`` closes over the model's parameters: PyTorch records
    the Jacobian in autograd, so a Jacobian penalty's gradient reaches them.  fgrad traced the
    function in ``x`` only: the Jacobian had no grad_fn, and ``(loss + penalty).backward()``
    silently dropped the penalty's gradient."""
    lin, x = _layer()
    J = getattr(func, transform)(lambda t: torch.tanh(lin(t)))(x)
    assert J.requires_grad and J.grad_fn is not None
    got = _param_grads(lin(x).sum() + (J ** 2).sum(), lin)
    want = _param_grads(lin(x).sum() + (_jacobian_by_formula(lin, x) ** 2).sum(), lin)
    for g, w in zip(got, want):
        assert torch.allclose(g, w, rtol=1e-12, atol=1e-14)


def test_grad_vmap_hessian_of_closures_are_recorded():
    """The same for ``grad`` (an input-gradient penalty), ``vmap`` and ``hessian``."""
    lin, x = _layer()
    g = func.grad(lambda t: torch.tanh(lin(t)).sum())(x)
    want = _jacobian_by_formula(lin, x).sum(0)
    assert torch.allclose(g, want, rtol=1e-12)
    for a, b in zip(_param_grads((g ** 2).sum(), lin), _param_grads((want ** 2).sum(), lin)):
        assert torch.allclose(a, b, rtol=1e-12, atol=1e-14)
    xs = torch.stack([x, 2 * x])
    v = func.vmap(lambda t: lin(t))(xs)
    for a, b in zip(_param_grads((v ** 3).sum(), lin), _param_grads((lin(xs) ** 3).sum(), lin)):
        assert torch.allclose(a, b, rtol=1e-12, atol=1e-14)
    w = torch.tensor(1.5, dtype=torch.float64, requires_grad=True)
    H = func.hessian(lambda t: w * (t ** 3).sum())(x)  # 6 w diag(x)
    (dw,) = torch.autograd.grad(H.trace(), w)
    assert torch.allclose(dw, 6 * x.sum())


def test_vjp_and_jvp_record_primals_and_closures():
    """``torch.func.vjp``/``jvp`` results take part in autograd (closed-over parameters and
    primals that require grad), as PyTorch's."""
    lin, x = _layer()
    ones = torch.ones(2, dtype=torch.float64)
    out, pull = func.vjp(lambda t: torch.tanh(lin(t)), x)
    (gx,) = pull(ones)
    assert out.requires_grad and gx.requires_grad
    want = ones @ _jacobian_by_formula(lin, x)
    assert torch.allclose(gx, want, rtol=1e-12)
    for a, b in zip(_param_grads(gx.sum() + out.sum(), lin),
                    _param_grads(want.sum() + torch.tanh(lin(x)).sum(), lin)):
        assert torch.allclose(a, b, rtol=1e-12, atol=1e-14)
    t = torch.tensor([1.0, 0.5, -2.0], dtype=torch.float64)
    o, jt = func.jvp(lambda u: torch.tanh(lin(u)), (x,), (t,))
    assert jt.requires_grad
    for a, b in zip(_param_grads(jt.sum(), lin), _param_grads((_jacobian_by_formula(lin, x) @ t).sum(), lin)):
        assert torch.allclose(a, b, rtol=1e-12, atol=1e-14)
    xr = x.clone().requires_grad_()
    (gp,) = func.vjp(lambda u: (u ** 3).sum(), xr)[1](torch.tensor(1.0, dtype=torch.float64))
    (d2,) = torch.autograd.grad(gp.sum(), xr)  # d/dx sum 3 x^2 = 6 x
    assert torch.allclose(d2, 6 * x)


def test_closures_under_no_grad_stay_unrecorded():
    lin, x = _layer()
    with torch.no_grad():
        assert not func.jacrev(lambda t: lin(t))(x).requires_grad
    assert not func.jacrev(lambda t: t * 2)(x).requires_grad


def test_grad_and_values_value_is_an_ordinary_tensor_in_autograd():
    """``grad_and_value``'s value (a reduction) came back as a Tensor over a NumPy scalar,
    which the dispatcher took for a traced (functional) tensor: every op on it ran unrecorded,
    so ``value * w + w`` gave ``w.grad == 1`` instead of ``value + 1``."""
    x = torch.tensor([1.0, 2.0], dtype=torch.float64)
    g, value = func.grad_and_value(lambda t: (t ** 2).sum())(x)
    assert value.item() == 5.0 and g.tolist() == [2.0, 4.0]
    w = torch.tensor(3.0, dtype=torch.float64, requires_grad=True)
    (value * w + w).backward()
    assert w.grad.item() == 6.0
    xr = x.clone().requires_grad_()
    _, value = func.grad_and_value(lambda t: (t ** 2).sum())(xr)
    (dx,) = torch.autograd.grad(value * 2, xr)
    assert dx.tolist() == [4.0, 8.0]


def test_linearize_records_closures():
    lin, x = _layer()
    out, jvp_fn = func.linearize(lambda t: torch.tanh(lin(t)), x)
    t = torch.tensor([1.0, 0.5, -2.0], dtype=torch.float64)
    jt = jvp_fn(t)
    assert out.requires_grad and jt.requires_grad
    for a, b in zip(_param_grads(jt.sum() + out.sum(), lin),
                    _param_grads((_jacobian_by_formula(lin, x) @ t).sum() + torch.tanh(lin(x)).sum(), lin)):
        assert torch.allclose(a, b, rtol=1e-12, atol=1e-14)
    with torch.no_grad():
        assert not func.linearize(lambda u: torch.tanh(lin(u)), x)[1](t).requires_grad


def test_forward_over_reverse_through_dual_tensors_is_refused_by_name():
    """``autograd.grad(f(dual), dual)`` (PyTorch's forward-over-reverse Hessian-vector
    product) failed with "appears to not have been used in the graph"; fgrad does not record
    reverse mode through dual tensors, so it now says so and names the torch.func
    composition that computes the same product."""
    import fgrad.torch.autograd.forward_ad as fwAD

    q = torch.tensor([0.1, 0.7], dtype=torch.float64)
    v = torch.tensor([1.0, -1.0], dtype=torch.float64)
    with fwAD.dual_level():
        qd = fwAD.make_dual(q.clone().requires_grad_(), v)
        with pytest.raises(NotImplementedError, match="forward-over-reverse.*torch.func.jvp"):
            torch.autograd.grad(qd.sin().sum(), qd, create_graph=True)
    _, hv = func.jvp(func.grad(lambda t: t.sin().sum()), (q,), (v,))
    assert torch.allclose(hv, -q.sin() * v)


# -- torch.autograd.functional: outputs or inputs without a derivative -----------------------
# (fgrad raised "element 0 of tensors does not require grad" where PyTorch gives zeros, and
# ignored strict=True; PyTorch 2.13's values and messages)

AF = torch.autograd.functional
_X = torch.tensor([1.0, 2.0], dtype=torch.float64)
_Y = torch.tensor([3.0], dtype=torch.float64)


def _const(a):
    return torch.ones(2, dtype=torch.float64)


def test_autograd_functional_gives_zeros_for_what_does_not_depend_on_the_inputs():
    assert AF.jacobian(_const, _X).tolist() == [[0.0, 0.0], [0.0, 0.0]]
    assert AF.vjp(_const, _X, _X)[1].tolist() == [0.0, 0.0]
    assert AF.jvp(_const, _X, _X)[1].tolist() == [0.0, 0.0]
    _, (h_a, h_b) = AF.hvp(lambda a, b: (a ** 3).sum(), (_X, _Y), (_X, _Y))
    assert h_a.tolist() == [6.0, 24.0] and h_b.tolist() == [0.0]
    assert AF.hvp(lambda a: a.sum() * 2, _X, _X)[1].tolist() == [0.0, 0.0]
    (haa, hab), (hba, hbb) = AF.hessian(lambda a, b: (a ** 3).sum(), (_X, _Y))
    assert haa.tolist() == [[6.0, 0.0], [0.0, 12.0]] and hab.tolist() == [[0.0], [0.0]]
    assert hba.tolist() == [[0.0, 0.0]] and hbb.tolist() == [[0.0]]
    _, (v_a, v_b) = AF.vhp(lambda a, b: (a ** 3).sum() * b.sum(), (_X, _Y), (_X, _Y))
    assert v_a.tolist() == [27.0, 108.0] and v_b.tolist() == [27.0]


@pytest.mark.parametrize("call, message", [
    (lambda: AF.jacobian(_const, _X, strict=True), "Output 0 of the user-provided function does not require"),
    (lambda: AF.jacobian(lambda a, b: a * 2, (_X, _Y), strict=True),
     "Output 0 of the user-provided function is independent of input 1"),
    (lambda: AF.hvp(lambda a: a.sum() * 2, _X, _X, strict=True),
     "found that the jacobian of the user-provided function with respect to input 0 is independent"),
    (lambda: AF.hessian(lambda a: a.sum(), _X, strict=True),
     "found that the jacobian of the user-provided function with respect to input 0 is independent"),
    (lambda: AF.vjp(lambda a, b: a * 2, (_X, _Y), torch.ones(2, dtype=torch.float64), strict=True),
     "The output of the user-provided function is independent of input 1"),
    (lambda: AF.jvp(lambda a, b: a * 2, (_X, _Y), (_X, _Y), strict=True),
     "The output of the user-provided function is independent of input 1"),
])
def test_autograd_functional_strict_mode_refuses_independence(call, message):
    with pytest.raises(RuntimeError, match=message):
        call()
