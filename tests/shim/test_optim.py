"""fgrad.torch.optim: update formulas, param groups, state_dict, zero_grad, lr schedulers.

Trajectories are compared with PyTorch's optimizers when PyTorch is importable (same
parameters and gradients in -> same parameters out, 1e-5 in float32 over many steps); the
formulas are also checked against closed forms.
"""

from __future__ import annotations

import copy
import math
import warnings

import numpy as np
import pytest

import fgrad.torch as ft
from fgrad.torch import nn, optim
from fgrad.torch.optim import lr_scheduler

try:
    import torch as _torch

    _torch.set_num_threads(1)
except Exception:  # noqa: BLE001
    _torch = None

needs_torch = pytest.mark.skipif(_torch is None, reason="torch is not installed")


def _np(t):
    return t.detach().numpy()


def _grad_fn(lib, params, k):
    """A deterministic non-quadratic loss so gradients change along the trajectory."""
    loss = 0
    for i, p in enumerate(params):
        loss = loss + ((p - 0.3 * (i + 1)) ** 2).sum() + 0.1 * lib.sin(p * (k + 1)).sum()
    return loss


def _trajectory(lib, cls_name, kwargs, steps=12, groups=False):
    rng = np.random.default_rng(0)
    init = [rng.standard_normal((3, 4)).astype(np.float32), rng.standard_normal(5).astype(np.float32)]
    params = [lib.tensor(a, requires_grad=True) for a in init]
    if groups:
        spec = [{"params": [params[0]]}, {"params": [params[1]], "lr": kwargs.get("lr", 0.01) * 0.5}]
    else:
        spec = params
    opt = getattr(lib.optim, cls_name)(spec, **kwargs)
    for k in range(steps):
        opt.zero_grad()
        _grad_fn(lib, params, k).backward()
        opt.step()
    return params, opt


OPT_CASES = [
    ("SGD", dict(lr=0.1)),
    ("SGD", dict(lr=0.1, momentum=0.9)),
    ("SGD", dict(lr=0.1, momentum=0.9, dampening=0.3, weight_decay=0.01)),
    ("SGD", dict(lr=0.05, momentum=0.8, nesterov=True, weight_decay=0.1)),
    ("SGD", dict(lr=0.05, momentum=0.5, maximize=True)),
    ("Adam", dict(lr=0.01)),
    ("Adam", dict(lr=0.02, betas=(0.8, 0.9), eps=1e-6, weight_decay=0.1)),
    ("Adam", dict(lr=0.02, amsgrad=True)),
    ("Adam", dict(lr=0.02, maximize=True)),
    ("AdamW", dict(lr=0.01)),
    ("AdamW", dict(lr=0.03, weight_decay=0.5, amsgrad=True)),
    ("RMSprop", dict(lr=0.01)),
    ("RMSprop", dict(lr=0.01, momentum=0.9, centered=True, weight_decay=0.01)),
    ("RMSprop", dict(lr=0.01, alpha=0.9, eps=1e-4, centered=True)),
    ("Adagrad", dict(lr=0.1)),
    ("Adagrad", dict(lr=0.1, lr_decay=0.01, weight_decay=0.05, initial_accumulator_value=0.1)),
]


@needs_torch
@pytest.mark.parametrize("name,kw", OPT_CASES)
@pytest.mark.parametrize("groups", [False, True])
def test_trajectory_matches_torch(name, kw, groups) -> None:
    fp, fopt = _trajectory(ft, name, kw, groups=groups)
    tp, topt = _trajectory(_torch, name, kw, groups=groups)
    for a, b in zip(fp, tp):
        np.testing.assert_allclose(_np(a), b.detach().numpy(), rtol=1e-5, atol=1e-6)
    fsd, tsd = fopt.state_dict(), topt.state_dict()
    assert fsd["param_groups"] == tsd["param_groups"]
    assert sorted(fsd["state"]) == sorted(tsd["state"])
    for k in tsd["state"]:
        assert list(fsd["state"][k]) == list(tsd["state"][k])
        for name_, v in tsd["state"][k].items():
            np.testing.assert_allclose(_np(fsd["state"][k][name_]), v.numpy(), rtol=1e-5, atol=1e-6)
            assert str(fsd["state"][k][name_].dtype) == str(v.dtype)
    assert repr(fopt) == repr(topt)


def test_sgd_closed_forms() -> None:
    w = ft.tensor([1.0, -2.0], requires_grad=True)
    opt = optim.SGD([w], lr=0.1, momentum=0.9)
    for _ in range(2):
        opt.zero_grad()
        (w ** 2).sum().backward()
        opt.step()
    # step 1: b = g = 2w0; w1 = w0 - 0.1*2w0 = 0.8 w0
    # step 2: g = 2 w1 = 1.6 w0; b = 0.9*2w0 + 1.6w0 = 3.4 w0; w2 = 0.8 w0 - 0.34 w0 = 0.46 w0
    assert np.allclose(_np(w), [0.46, -0.92])
    assert np.allclose(_np(opt.state[w]["momentum_buffer"]), [3.4, -6.8])
    with pytest.raises(ValueError, match="Nesterov momentum requires a momentum and zero dampening"):
        optim.SGD([w], lr=0.1, nesterov=True)
    with pytest.raises(ValueError, match="Invalid learning rate: -1"):
        optim.SGD([w], lr=-1)


def test_adam_closed_form() -> None:
    g = np.array([0.5, -2.0, 1e-3], np.float32)
    w = ft.zeros(3, requires_grad=True)
    opt = optim.Adam([w], lr=0.1)
    w.grad = ft.tensor(g)
    opt.step()
    # first step: m_hat = g, v_hat = g^2 -> update lr * g / (|g| + eps)
    expected = -0.1 * g / (np.abs(g) + 1e-8)
    assert np.allclose(_np(w), expected, rtol=1e-5)
    assert opt.state[w]["step"].item() == 1.0 and opt.state[w]["step"].dtype == ft.float32
    wd = ft.ones(2, requires_grad=True)
    opt2 = optim.AdamW([wd], lr=0.1, weight_decay=0.5)
    wd.grad = ft.zeros(2)
    opt2.step()
    assert np.allclose(_np(wd), 1 - 0.1 * 0.5)  # decoupled decay only


def test_rmsprop_and_adagrad_closed_forms() -> None:
    w = ft.zeros(2, requires_grad=True)
    opt = optim.RMSprop([w], lr=0.01, alpha=0.9)
    w.grad = ft.tensor([1.0, -3.0])
    opt.step()
    v = 0.1 * np.array([1.0, 9.0])
    assert np.allclose(_np(w), -0.01 * np.array([1.0, -3.0]) / (np.sqrt(v) + 1e-8), rtol=1e-5)
    a = ft.zeros(2, requires_grad=True)
    opt = optim.Adagrad([a], lr=0.5, lr_decay=0.1)
    assert set(opt.state[a]) == {"step", "sum"}  # Adagrad's state exists from construction
    for _ in range(2):
        a.grad = ft.tensor([2.0, -1.0])
        opt.step()
    s1 = np.array([4.0, 1.0])
    s2 = 2 * s1
    a1 = -0.5 * np.array([2.0, -1.0]) / (np.sqrt(s1) + 1e-10)
    a2 = a1 - 0.5 / (1 + 0.1) * np.array([2.0, -1.0]) / (np.sqrt(s2) + 1e-10)
    assert np.allclose(_np(a), a2, rtol=1e-5)


def test_param_groups_zero_grad_and_errors() -> None:
    net = nn.Sequential(nn.Linear(3, 2), nn.Linear(2, 1))
    opt = optim.SGD([{"params": net[0].parameters()}, {"params": net[1].parameters(), "lr": 0.5}], lr=0.1,
                    momentum=0.9)
    assert [g["lr"] for g in opt.param_groups] == [0.1, 0.5]
    assert opt.param_groups[1]["momentum"] == 0.9
    net(ft.ones(4, 3)).sum().backward()
    opt.zero_grad(set_to_none=False)
    assert all(p.grad is not None and float(p.grad.abs().sum()) == 0 for p in net.parameters())
    opt.zero_grad()
    assert all(p.grad is None for p in net.parameters())
    opt.step()  # no gradients: nothing happens, no state
    assert len(opt.state) == 0
    with pytest.raises(ValueError, match="optimizer got an empty parameter list"):
        optim.Adam([])
    with pytest.raises(TypeError, match="params argument given to the optimizer should be an iterable"):
        optim.Adam(ft.ones(2, requires_grad=True))
    with pytest.raises(ValueError, match="some parameters appear in more than one parameter group"):
        optim.SGD([{"params": net[0].parameters()}, {"params": net[0].parameters()}], lr=0.1)
    with pytest.raises(ValueError, match="can't optimize a non-leaf Tensor"):
        optim.SGD([ft.ones(2, requires_grad=True) * 2], lr=0.1)
    extra = ft.zeros(2, requires_grad=True)
    opt.add_param_group({"params": extra, "lr": 1.0})
    assert opt.param_groups[2]["params"] == [extra] and opt.param_groups[2]["momentum"] == 0.9


def test_named_parameters_and_closure() -> None:
    net = nn.Linear(2, 1)
    opt = optim.SGD(net.named_parameters(), lr=0.1)
    assert opt.param_groups[0]["param_names"] == ["weight", "bias"]
    x = ft.ones(3, 2)
    calls = []

    def closure():
        calls.append(1)
        opt.zero_grad()
        loss = net(x).pow(2).mean()
        loss.backward()
        return loss

    loss = opt.step(closure)
    assert calls == [1] and loss.requires_grad


def test_step_runs_without_grad_tracking() -> None:
    w = ft.ones(2, requires_grad=True)
    opt = optim.Adam([w], lr=0.1)
    (w * 3).sum().backward()
    v = w._version
    opt.step()
    assert w.grad_fn is None and w.is_leaf and w._version > v
    assert ft.is_grad_enabled()


def test_state_dict_roundtrip_continues_identically() -> None:
    for name, kw in [("SGD", dict(lr=0.1, momentum=0.9)), ("Adam", dict(lr=0.01, amsgrad=True)),
                     ("RMSprop", dict(lr=0.01, centered=True, momentum=0.5)), ("Adagrad", dict(lr=0.1))]:
        p_a, opt_a = _trajectory(ft, name, kw, steps=5)
        sd = opt_a.state_dict()
        assert sd["param_groups"][0]["params"] == [0, 1]
        p_b = [ft.tensor(_np(p).copy(), requires_grad=True) for p in p_a]
        opt_b = getattr(optim, name)(p_b, **{**kw, "lr": 123.0})
        opt_b.load_state_dict(copy.deepcopy(sd))  # as if saved and loaded
        assert opt_b.param_groups[0]["lr"] == kw["lr"]
        for k in range(5, 9):
            for params, opt in ((p_a, opt_a), (p_b, opt_b)):
                opt.zero_grad()
                _grad_fn(ft, params, k).backward()
                opt.step()
        for a, b in zip(p_a, p_b):
            assert np.array_equal(_np(a), _np(b)), name
    # as in PyTorch, loading a live state dict shares its state tensors
    opt_c = optim.Adagrad([ft.zeros(3, 4, requires_grad=True), ft.zeros(5, requires_grad=True)], lr=1.0)
    opt_c.load_state_dict(opt_a.state_dict())
    assert opt_c.state[opt_c.param_groups[0]["params"][0]]["sum"] is opt_a.state[p_a[0]]["sum"]
    with pytest.raises(ValueError, match="loaded state dict has a different number of parameter groups"):
        opt_b.load_state_dict({"state": {}, "param_groups": []})


@needs_torch
def test_state_dict_loads_across_libraries() -> None:
    """PyTorch's optimizer state dict (converted tensor by tensor) loads into fgrad's."""
    tp, topt = _trajectory(_torch, "Adam", dict(lr=0.01), steps=4)
    fp = [ft.tensor(p.detach().numpy().copy(), requires_grad=True) for p in tp]
    fopt = optim.Adam(fp, lr=0.01)
    tsd = topt.state_dict()
    fopt.load_state_dict({"state": {k: {n: ft.tensor(v.numpy()) for n, v in s.items()}
                                    for k, s in tsd["state"].items()},
                          "param_groups": tsd["param_groups"]})
    for k in range(4, 7):
        for lib, params, opt in ((ft, fp, fopt), (_torch, tp, topt)):
            opt.zero_grad()
            _grad_fn(lib, params, k).backward()
            opt.step()
    for a, b in zip(fp, tp):
        np.testing.assert_allclose(_np(a), b.detach().numpy(), rtol=1e-5, atol=1e-6)


# ---------------------------------------------------------------------------------------
# lr schedulers


def _lrs(lib, make, steps=25, lr=0.1, metric=None):
    p = lib.zeros(1, requires_grad=True)
    q = lib.zeros(1, requires_grad=True)
    opt = lib.optim.SGD([{"params": [p]}, {"params": [q], "lr": lr * 2}], lr=lr)
    sched = make(lib.optim.lr_scheduler, opt)
    out = []
    for k in range(steps):
        opt.step()
        if metric is None:
            sched.step()
        else:
            sched.step(metric(k))
        out.append([g["lr"] for g in opt.param_groups])
    return out, sched


SCHEDULERS = [
    lambda m, o: m.StepLR(o, step_size=4, gamma=0.5),
    lambda m, o: m.MultiStepLR(o, milestones=[3, 7, 7, 12], gamma=0.3),
    lambda m, o: m.ExponentialLR(o, gamma=0.9),
    lambda m, o: m.CosineAnnealingLR(o, T_max=7),
    lambda m, o: m.CosineAnnealingLR(o, T_max=5, eta_min=0.01),
    lambda m, o: m.LambdaLR(o, lr_lambda=lambda e: 1 / (e + 1)),
    lambda m, o: m.MultiplicativeLR(o, lr_lambda=lambda e: 0.95),
]


@needs_torch
@pytest.mark.parametrize("make", SCHEDULERS)
def test_schedulers_match_torch(make) -> None:
    f, fs = _lrs(ft, make)
    t, ts = _lrs(_torch, make)
    np.testing.assert_allclose(np.array(f), np.array(t), rtol=1e-12, atol=1e-15)
    assert fs.get_last_lr() == pytest.approx(ts.get_last_lr(), rel=1e-12)
    fsd, tsd = fs.state_dict(), ts.state_dict()
    skip = {"lr_lambdas", "milestones"}
    assert {k: v for k, v in fsd.items() if k not in skip} == pytest.approx(
        {k: v for k, v in tsd.items() if k not in skip})


@needs_torch
def test_reduce_on_plateau_matches_torch() -> None:
    def metric(k):
        return [5, 4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3, 2.9999, 3, 3, 3][k % 16]

    def make(m, o):
        return m.ReduceLROnPlateau(o, patience=2, factor=0.5, cooldown=1)

    f, _ = _lrs(ft, make, metric=metric)
    t, _ = _lrs(_torch, make, metric=metric)
    np.testing.assert_allclose(np.array(f), np.array(t))


def test_scheduler_closed_forms_and_warnings() -> None:
    out, sched = _lrs(ft, lambda m, o: m.CosineAnnealingLR(o, T_max=10), steps=10)
    closed = [0.1 * (1 + math.cos(math.pi * (k + 1) / 10)) / 2 for k in range(10)]
    assert np.allclose([o[0] for o in out], closed, atol=1e-12)
    out, _ = _lrs(ft, lambda m, o: m.StepLR(o, 3, 0.1), steps=7)
    assert np.allclose([o[0] for o in out], [0.1, 0.1, 0.01, 0.01, 0.01, 0.001, 0.001])
    p = ft.zeros(1, requires_grad=True)
    opt = optim.SGD([p], lr=1.0)
    s = lr_scheduler.StepLR(opt, 2)
    assert opt.param_groups[0]["initial_lr"] == 1.0 and s.last_epoch == 0
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        s.step()  # before optimizer.step()
    assert any("before `optimizer.step()`" in str(r.message) for r in rec)
    with pytest.raises(KeyError, match="param 'initial_lr' is not specified"):
        lr_scheduler.StepLR(optim.SGD([ft.zeros(1, requires_grad=True)], lr=1.0), 2, last_epoch=3)
    sd = s.state_dict()
    s2 = lr_scheduler.StepLR(optim.SGD([p], lr=1.0), 2)
    s2.load_state_dict(sd)
    assert s2.last_epoch == s.last_epoch and s2.get_last_lr() == s.get_last_lr()
