"""fgrad.torch.optim: update formulas, param groups, state_dict, zero_grad, lr schedulers.

Trajectories are compared with PyTorch's optimizers when PyTorch is importable (same
parameters and gradients in -> same parameters out, 1e-5 in float32 over many steps); the
formulas are also checked against closed forms.
"""

from __future__ import annotations

import copy
import itertools
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


SAVED_CASES = [("SGD", dict(lr=0.1, momentum=0.9, nesterov=True)), ("Adam", dict(lr=0.01, amsgrad=True)),
               ("AdamW", dict(lr=0.01, weight_decay=0.1)),
               ("RMSprop", dict(lr=0.01, centered=True, momentum=0.5)),
               ("Adagrad", dict(lr=0.1, lr_decay=0.01))]


@needs_torch
@pytest.mark.parametrize("name,kw", SAVED_CASES)
def test_torch_saved_state_dict_loads_and_continues(name, kw, tmp_path) -> None:
    """A state dict written by ``torch.save`` loads with ``fgrad.torch.load`` into fgrad's
    optimizer, which then takes the same steps as PyTorch's."""
    tp, topt = _trajectory(_torch, name, kw, steps=4)
    _torch.save(topt.state_dict(), tmp_path / "opt.pt")
    fp = [ft.tensor(p.detach().numpy().copy(), requires_grad=True) for p in tp]
    fopt = getattr(optim, name)(fp, **kw)
    fopt.load_state_dict(ft.load(tmp_path / "opt.pt"))
    for k in range(4, 8):
        for lib, params, opt in ((ft, fp, fopt), (_torch, tp, topt)):
            opt.zero_grad()
            _grad_fn(lib, params, k).backward()
            opt.step()
    for a, b in zip(fp, tp):
        np.testing.assert_allclose(_np(a), b.detach().numpy(), rtol=1e-5, atol=1e-6)
    ft.save(fopt.state_dict(), tmp_path / "back.pt")  # and PyTorch reads fgrad's file back
    tsd = _torch.load(tmp_path / "back.pt")
    for k, state in topt.state_dict()["state"].items():
        for key, value in state.items():
            np.testing.assert_allclose(tsd["state"][k][key].numpy(), value.numpy(), rtol=1e-5, atol=1e-6)


def test_a_new_optimizer_writes_only_its_update_rule() -> None:
    """The shared loop of `Optimizer.step` (maximize, weight decay, parameters without a
    gradient, lazily created state, step counting) serves a subclass that writes only
    ``_init_state`` and ``_update_parameter``."""

    class SignSGD(optim.Optimizer):
        def __init__(self, params, lr=0.1, weight_decay=0.0, maximize=False):
            super().__init__(params, dict(lr=lr, weight_decay=weight_decay, maximize=maximize))

        def _init_state(self, p, group):
            return {"step": ft.tensor(0.0)}

        def _update_parameter(self, p, grad, state, group):
            p.add_(grad.sign(), alpha=-group["lr"] * float(state["step"]))

    w = ft.tensor([1.0, -2.0], requires_grad=True)
    unused = ft.zeros(2, requires_grad=True)
    opt = SignSGD([w, unused], lr=0.1, weight_decay=0.5, maximize=True)
    for _ in range(2):
        opt.zero_grad()
        (w * ft.tensor([1.0, 3.0])).sum().backward()  # maximize: -g = (-1, -3); + 0.5 w keeps the sign
        opt.step()
    np.testing.assert_allclose(_np(w), [1.0 + 0.1 + 0.2, -2.0 + 0.1 + 0.2], rtol=1e-6)
    assert float(opt.state[w]["step"]) == 2.0 and unused not in opt.state
    with pytest.raises(NotImplementedError):
        optim.Optimizer([w], dict(lr=0.1, weight_decay=0, maximize=False)).step()


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


class _Decay:
    """A callable object: its ``__dict__`` is what a lambda scheduler's state dict keeps."""

    def __init__(self, rate: float) -> None:
        self.rate = rate

    def __call__(self, epoch: int) -> float:
        return self.rate


@pytest.mark.parametrize("cls", ["LambdaLR", "MultiplicativeLR"])
def test_lambda_schedulers_check_and_save_their_lambdas(cls) -> None:
    """Both lambda schedulers want one lambda per group (or one for all), a callable, and save
    callable objects' attributes rather than the functions (as PyTorch does)."""
    groups = [{"params": [ft.zeros(1, requires_grad=True)]}, {"params": [ft.zeros(1, requires_grad=True)]}]
    opt = optim.SGD(groups, lr=1.0)
    make = getattr(lr_scheduler, cls)
    with pytest.raises(ValueError, match="Expected 2 lr_lambdas, but got 1"):
        make(opt, [_Decay(0.5)])
    with pytest.raises(TypeError, match="lr_lambda should be a function, but got float"):
        make(opt, 0.5)
    sched = make(opt, [_Decay(0.5), lambda epoch: 0.9])
    sd = sched.state_dict()
    assert sd["lr_lambdas"] == [{"rate": 0.5}, None] and "optimizer" not in sd
    fresh = make(optim.SGD(copy.deepcopy(groups), lr=1.0), [_Decay(0.1), lambda epoch: 0.9])
    fresh.load_state_dict(sd)
    assert fresh.lr_lambdas[0].rate == 0.5 and sd["lr_lambdas"] == [{"rate": 0.5}, None]


# ---------------------------------------------------------------------------------------
# every option combination of every optimizer, against numbers recorded from torch 2.13


def _grid_cases() -> dict:
    def product(**options):
        names = list(options)
        return [dict(zip(names, values)) for values in itertools.product(*options.values())]

    cases = []
    for kw in product(momentum=[0, 0.9], dampening=[0, 0.3], nesterov=[False, True], weight_decay=[0, 0.1],
                      maximize=[False, True]):
        if not kw["nesterov"] or (kw["momentum"] > 0 and kw["dampening"] == 0):
            cases.append(("SGD", dict(lr=0.05, **kw)))
    for name in ("Adam", "AdamW"):
        for kw in product(weight_decay=[0, 0.1], amsgrad=[False, True], maximize=[False, True]):
            cases.append((name, dict(lr=0.02, betas=(0.8, 0.95), **kw)))
    for kw in product(weight_decay=[0.1], amsgrad=[False, True], decoupled_weight_decay=[True]):
        cases.append(("Adam", dict(lr=0.02, **kw)))
    for kw in product(momentum=[0, 0.5], centered=[False, True], weight_decay=[0, 0.1],
                      maximize=[False, True]):
        cases.append(("RMSprop", dict(lr=0.01, alpha=0.9, **kw)))
    for kw in product(lr_decay=[0, 0.05], weight_decay=[0, 0.1], initial_accumulator_value=[0, 0.2],
                      maximize=[False, True]):
        cases.append(("Adagrad", dict(lr=0.1, **kw)))
    return {name + "(" + ", ".join(f"{k}={v}" for k, v in kw.items()) + ")": (name, {**kw, "foreach": None})
            for name, kw in cases}


GRID = _grid_cases()


def run_grid_case(lib, name, kwargs, steps=6):
    """Final values of three parameters in two groups after ``steps`` steps; the third gets a
    gradient only on even steps and a fourth never, so the steps skip parameters without one."""
    rng = np.random.default_rng(7)
    a, b, c, never = (lib.tensor(rng.standard_normal(shape).astype(np.float32), requires_grad=True)
                      for shape in ((2, 2), (3,), (2,), (2,)))
    opt = getattr(lib.optim, name)([{"params": [a, b]}, {"params": [c, never], "lr": kwargs["lr"] * 0.5}],
                                   **kwargs)
    for k in range(steps):
        opt.zero_grad()
        loss = _grad_fn(lib, [a, b], k)
        if k % 2 == 0:
            loss = loss + (c.exp() * (k + 1)).sum()
        loss.backward()
        opt.step()
    assert never not in opt.state or name == "Adagrad"
    return np.concatenate([_np(p).ravel() for p in (a, b, c, never)])


@pytest.mark.parametrize("case", list(GRID))
def test_option_grid_matches_stored_torch(case) -> None:
    name, kw = GRID[case]
    np.testing.assert_allclose(run_grid_case(ft, name, kw), GRID_TORCH[case], rtol=2e-5, atol=2e-6)


@needs_torch
@pytest.mark.parametrize("case", list(GRID))
def test_option_grid_stored_numbers_are_torchs(case) -> None:
    name, kw = GRID[case]
    np.testing.assert_allclose(run_grid_case(_torch, name, kw), GRID_TORCH[case], rtol=1e-6, atol=1e-7)


# recorded with torch 2.13.0 (CPU): run_grid_case(torch, *GRID[key]) for every key
GRID_TORCH = {
    'SGD(lr=0.05, momentum=0, dampening=0, nesterov=False, weight_decay=0, maximize=False)':
        [0.0554288, 0.27321, -0.08095782, -0.286085, -0.03291006, -0.21107955, 0.26516268,
         0.64982224, -0.6245675, -0.6204749, 0.48984206],
    'SGD(lr=0.05, momentum=0, dampening=0, nesterov=False, weight_decay=0, maximize=True)':
        [-0.11338995, 0.3218618, -0.74261767, -1.8318024, -1.2571439, -2.210822, -0.25735694,
         2.4708893, -0.34908956, -0.6204749, 0.48984206],
    'SGD(lr=0.05, momentum=0, dampening=0, nesterov=False, weight_decay=0.1, maximize=False)':
        [0.054328628, 0.26460564, -0.077900425, -0.27580655, -0.028785598, -0.2013509, 0.2604021,
         0.64365476, -0.6209272, -0.6204749, 0.48984206],
    'SGD(lr=0.05, momentum=0, dampening=0, nesterov=False, weight_decay=0.1, maximize=True)':
        [-0.11141305, 0.31274807, -0.7268668, -1.7860794, -1.2300907, -2.1608984, -0.25529405,
         2.4528198, -0.34534118, -0.6204749, 0.48984206],
    'SGD(lr=0.05, momentum=0, dampening=0.3, nesterov=False, weight_decay=0, maximize=False)':
        [0.0554288, 0.27321, -0.08095782, -0.286085, -0.03291006, -0.21107955, 0.26516268,
         0.64982224, -0.6245675, -0.6204749, 0.48984206],
    'SGD(lr=0.05, momentum=0, dampening=0.3, nesterov=False, weight_decay=0, maximize=True)':
        [-0.11338995, 0.3218618, -0.74261767, -1.8318024, -1.2571439, -2.210822, -0.25735694,
         2.4708893, -0.34908956, -0.6204749, 0.48984206],
    'SGD(lr=0.05, momentum=0, dampening=0.3, nesterov=False, weight_decay=0.1, maximize=False)':
        [0.054328628, 0.26460564, -0.077900425, -0.27580655, -0.028785598, -0.2013509, 0.2604021,
         0.64365476, -0.6209272, -0.6204749, 0.48984206],
    'SGD(lr=0.05, momentum=0, dampening=0.3, nesterov=False, weight_decay=0.1, maximize=True)':
        [-0.11141305, 0.31274807, -0.7268668, -1.7860794, -1.2300907, -2.1608984, -0.25529405,
         2.4528198, -0.34534118, -0.6204749, 0.48984206],
    'SGD(lr=0.05, momentum=0.9, dampening=0, nesterov=False, weight_decay=0, maximize=False)':
        [0.21322665, 0.19483036, 0.27782246, 0.543043, 0.7856628, 0.9784783, 0.70272136, 0.27971423,
         -0.69035244, -0.6204749, 0.48984206],
    'SGD(lr=0.05, momentum=0.9, dampening=0, nesterov=False, weight_decay=0, maximize=True)':
        [-0.5011649, 0.40174422, -1.6286594, -3.8268805, -3.0194588, -4.937718, -1.1007375,
         2.9824836, -0.2799353, -0.6204749, 0.48984206],
    'SGD(lr=0.05, momentum=0.9, dampening=0, nesterov=False, weight_decay=0.1, maximize=False)':
        [0.20771965, 0.17103802, 0.2854506, 0.57188, 0.7937042, 1.0020156, 0.6869567, 0.26679623,
         -0.6835637, -0.6204749, 0.48984206],
    'SGD(lr=0.05, momentum=0.9, dampening=0, nesterov=False, weight_decay=0.1, maximize=True)':
        [-0.49212492, 0.37291548, -1.5730761, -3.7013068, -2.9161859, -4.730501, -1.0912769,
         2.9514482, -0.27290365, -0.6204749, 0.48984206],
    'SGD(lr=0.05, momentum=0.9, dampening=0, nesterov=True, weight_decay=0, maximize=False)':
        [0.21100634, 0.17882337, 0.27485964, 0.5086334, 0.846464, 0.97576034, 0.77170634,
         -0.08053555, -0.79343486, -0.6204749, 0.48984206],
    'SGD(lr=0.05, momentum=0.9, dampening=0, nesterov=True, weight_decay=0, maximize=True)':
        [-0.8706938, 0.41559175, -2.3671966, -5.402787, -4.305047, -6.95032, -1.7415963, 4.8564997,
         -0.14623709, -0.6204749, 0.48984206],
    'SGD(lr=0.05, momentum=0.9, dampening=0, nesterov=True, weight_decay=0.1, maximize=False)':
        [0.20132382, 0.151578, 0.2774147, 0.529248, 0.8415139, 0.9796404, 0.75089115, -0.09351943,
         -0.78377897, -0.6204749, 0.48984206],
    'SGD(lr=0.05, momentum=0.9, dampening=0, nesterov=True, weight_decay=0.1, maximize=True)':
        [-0.8482965, 0.3773838, -2.2749681, -5.127463, -4.168201, -6.721469, -1.7058706, 4.772587,
         -0.13594405, -0.6204749, 0.48984206],
    'SGD(lr=0.05, momentum=0.9, dampening=0.3, nesterov=False, weight_decay=0, maximize=False)':
        [0.18689135, 0.21999565, 0.19866775, 0.3316476, 0.5764856, 0.6742709, 0.5860505, 0.5027676,
         -0.6440101, -0.6204749, 0.48984206],
    'SGD(lr=0.05, momentum=0.9, dampening=0.3, nesterov=False, weight_decay=0, maximize=True)':
        [-0.35216102, 0.37767962, -1.2513685, -3.0338962, -2.3102858, -3.7881281, -0.7720541,
         2.517888, -0.3319925, -0.6204749, 0.48984206],
    'SGD(lr=0.05, momentum=0.9, dampening=0.3, nesterov=False, weight_decay=0.1, maximize=False)':
        [0.18343015, 0.20091209, 0.2065959, 0.35842818, 0.5883032, 0.7037756, 0.57488006, 0.4908584,
         -0.6382647, -0.6204749, 0.48984206],
    'SGD(lr=0.05, momentum=0.9, dampening=0.3, nesterov=False, weight_decay=0.1, maximize=True)':
        [-0.34722394, 0.35572833, -1.2171657, -2.923152, -2.2524235, -3.6823149, -0.7677538,
         2.494832, -0.32606906, -0.6204749, 0.48984206],
    'Adam(lr=0.02, betas=(0.8, 0.95), weight_decay=0, amsgrad=False, maximize=False)':
        [0.09501259, 0.18347117, -0.15717128, -0.7703017, -0.33447236, -0.8718505, 0.17528038,
         1.3113631, -0.5210586, -0.6204749, 0.48984206],
    'Adam(lr=0.02, betas=(0.8, 0.95), weight_decay=0, amsgrad=False, maximize=True)':
        [-0.11462317, 0.396438, -0.3953202, -1.0106816, -0.57596123, -1.1115037, -0.05789675,
         1.3690172, -0.46340442, -0.6204749, 0.48984206],
    'Adam(lr=0.02, betas=(0.8, 0.95), weight_decay=0, amsgrad=True, maximize=False)':
        [0.093920134, 0.18383195, -0.15717128, -0.7703017, -0.33447236, -0.8718505, 0.17528038,
         1.3113631, -0.5210586, -0.6204749, 0.48984206],
    'Adam(lr=0.02, betas=(0.8, 0.95), weight_decay=0, amsgrad=True, maximize=True)':
        [-0.11462317, 0.39604855, -0.3953202, -1.0106816, -0.57596123, -1.1115037, -0.05789675,
         1.3690172, -0.46340442, -0.6204749, 0.48984206],
    'Adam(lr=0.02, betas=(0.8, 0.95), weight_decay=0.1, amsgrad=False, maximize=False)':
        [0.094127126, 0.1825731, -0.15715668, -0.77032435, -0.334497, -0.8718559, 0.17508169,
         1.3113222, -0.52095985, -0.6204749, 0.48984206],
    'Adam(lr=0.02, betas=(0.8, 0.95), weight_decay=0.1, amsgrad=False, maximize=True)':
        [-0.114354536, 0.3894853, -0.39531097, -1.0106553, -0.57596815, -1.1114783, -0.057824463,
         1.3689749, -0.4633119, -0.6204749, 0.48984206],
    'Adam(lr=0.02, betas=(0.8, 0.95), weight_decay=0.1, amsgrad=True, maximize=False)':
        [0.09305282, 0.18284631, -0.15715668, -0.77032435, -0.334497, -0.8718559, 0.17508169,
         1.3113222, -0.52095985, -0.6204749, 0.48984206],
    'Adam(lr=0.02, betas=(0.8, 0.95), weight_decay=0.1, amsgrad=True, maximize=True)':
        [-0.114354536, 0.38926327, -0.39531097, -1.0106553, -0.57596815, -1.1114783, -0.057824463,
         1.3689749, -0.4633119, -0.6204749, 0.48984206],
    'AdamW(lr=0.02, betas=(0.8, 0.95), weight_decay=0, amsgrad=False, maximize=False)':
        [0.09501259, 0.18347117, -0.15717128, -0.7703017, -0.33447236, -0.8718505, 0.17528038,
         1.3113631, -0.5210586, -0.6204749, 0.48984206],
    'AdamW(lr=0.02, betas=(0.8, 0.95), weight_decay=0, amsgrad=False, maximize=True)':
        [-0.11462317, 0.396438, -0.3953202, -1.0106816, -0.57596123, -1.1115037, -0.05789675,
         1.3690172, -0.46340442, -0.6204749, 0.48984206],
    'AdamW(lr=0.02, betas=(0.8, 0.95), weight_decay=0, amsgrad=True, maximize=False)':
        [0.093920134, 0.18383195, -0.15717128, -0.7703017, -0.33447236, -0.8718505, 0.17528038,
         1.3113631, -0.5210586, -0.6204749, 0.48984206],
    'AdamW(lr=0.02, betas=(0.8, 0.95), weight_decay=0, amsgrad=True, maximize=True)':
        [-0.11462317, 0.39604855, -0.3953202, -1.0106816, -0.57596123, -1.1115037, -0.05789675,
         1.3690172, -0.46340442, -0.6204749, 0.48984206],
    'AdamW(lr=0.02, betas=(0.8, 0.95), weight_decay=0.1, amsgrad=False, maximize=False)':
        [0.09446956, 0.18026556, -0.15459038, -0.760259, -0.3296808, -0.8606008, 0.1739794,
         1.3073725, -0.5195529, -0.6204749, 0.48984206],
    'AdamW(lr=0.02, betas=(0.8, 0.95), weight_decay=0.1, amsgrad=False, maximize=True)':
        [-0.11402583, 0.39239895, -0.3914246, -0.999447, -0.5699188, -1.099046, -0.05802654,
         1.3649749, -0.4619599, -0.6204749, 0.48984206],
    'AdamW(lr=0.02, betas=(0.8, 0.95), weight_decay=0.1, amsgrad=True, maximize=False)':
        [0.09337947, 0.18060774, -0.15459038, -0.760259, -0.3296808, -0.8606008, 0.1739794,
         1.3073725, -0.5195529, -0.6204749, 0.48984206],
    'AdamW(lr=0.02, betas=(0.8, 0.95), weight_decay=0.1, amsgrad=True, maximize=True)':
        [-0.11402583, 0.39201003, -0.3914246, -0.999447, -0.5699188, -1.099046, -0.05802654,
         1.3649749, -0.4619599, -0.6204749, 0.48984206],
    'Adam(lr=0.02, weight_decay=0.1, amsgrad=False, decoupled_weight_decay=True)':
        [0.099636994, 0.17923336, -0.15370356, -0.7603831, -0.3297786, -0.8605246, 0.17524876,
         1.3078269, -0.5190979, -0.6204749, 0.48984206],
    'Adam(lr=0.02, weight_decay=0.1, amsgrad=True, decoupled_weight_decay=True)':
        [0.09963426, 0.17923336, -0.15370356, -0.7603831, -0.3297786, -0.8605246, 0.17524876,
         1.3078269, -0.5190979, -0.6204749, 0.48984206],
    'RMSprop(lr=0.01, alpha=0.9, momentum=0, centered=False, weight_decay=0, maximize=False)':
        [0.061326656, 0.19071922, -0.16483949, -0.76861054, -0.33265015, -0.87201625, 0.16493538,
         1.2958335, -0.53658813, -0.6204749, 0.48984206],
    'RMSprop(lr=0.01, alpha=0.9, momentum=0, centered=False, weight_decay=0, maximize=True)':
        [-0.10709814, 0.37993792, -0.40525937, -1.0118667, -0.58396304, -1.1119611, -0.053684164,
         1.384758, -0.44766375, -0.6204749, 0.48984206],
    'RMSprop(lr=0.01, alpha=0.9, momentum=0, centered=False, weight_decay=0.1, maximize=False)':
        [0.059970252, 0.19001152, -0.1648076, -0.7687395, -0.3327846, -0.8720491, 0.16436219,
         1.295891, -0.5367188, -0.6204749, 0.48984206],
    'RMSprop(lr=0.01, alpha=0.9, momentum=0, centered=False, weight_decay=0.1, maximize=True)':
        [-0.10621561, 0.3722961, -0.4053068, -1.0117565, -0.5840309, -1.1118493, -0.053396065,
         1.3848132, -0.44779173, -0.6204749, 0.48984206],
    'RMSprop(lr=0.01, alpha=0.9, momentum=0, centered=True, weight_decay=0, maximize=False)':
        [0.06532726, 0.17060317, -0.1490242, -0.7468835, -0.3114363, -0.85105634, 0.18179621,
         1.2919288, -0.54049295, -0.6204749, 0.48984206],
    'RMSprop(lr=0.01, alpha=0.9, momentum=0, centered=True, weight_decay=0, maximize=True)':
        [-0.12957531, 0.39044255, -0.43057257, -1.0328875, -0.6079063, -1.1331402, -0.07473134,
         1.3886513, -0.4437705, -0.6204749, 0.48984206],
    'RMSprop(lr=0.01, alpha=0.9, momentum=0, centered=True, weight_decay=0.1, maximize=False)':
        [0.063699916, 0.17069922, -0.14897445, -0.7470539, -0.31161165, -0.85110044, 0.18095246,
         1.291973, -0.5405915, -0.6204749, 0.48984206],
    'RMSprop(lr=0.01, alpha=0.9, momentum=0, centered=True, weight_decay=0.1, maximize=True)':
        [-0.12832731, 0.38198113, -0.43062988, -1.0326966, -0.60797876, -1.132972, -0.074295826,
         1.3886921, -0.44386768, -0.6204749, 0.48984206],
    'RMSprop(lr=0.01, alpha=0.9, momentum=0.5, centered=False, weight_decay=0, maximize=False)':
        [0.11078642, 0.09932232, -0.09476484, -0.6772248, -0.2487607, -0.7813334, 0.2447195,
         1.2764771, -0.55594456, -0.6204749, 0.48984206],
    'RMSprop(lr=0.01, alpha=0.9, momentum=0.5, centered=False, weight_decay=0, maximize=True)':
        [-0.21043344, 0.47370407, -0.5035753, -1.1049358, -0.67882967, -1.2041986, -0.14774536,
         1.4041926, -0.42822924, -0.6204749, 0.48984206],
    'RMSprop(lr=0.01, alpha=0.9, momentum=0.5, centered=False, weight_decay=0.1, maximize=False)':
        [0.107474856, 0.10219525, -0.094684534, -0.6775602, -0.24897234, -0.78151286, 0.24344718,
         1.2765511, -0.5561114, -0.6204749, 0.48984206],
    'RMSprop(lr=0.01, alpha=0.9, momentum=0.5, centered=False, weight_decay=0.1, maximize=True)':
        [-0.20902738, 0.46277264, -0.50357676, -1.1048058, -0.6788666, -1.204058, -0.14705576,
         1.4042631, -0.42839438, -0.6204749, 0.48984206],
    'RMSprop(lr=0.01, alpha=0.9, momentum=0.5, centered=True, weight_decay=0, maximize=False)':
        [0.117678344, 0.071782514, -0.07494444, -0.6429131, -0.21810202, -0.7477664, 0.27186358,
         1.2712737, -0.561148, -0.6204749, 0.48984206],
    'RMSprop(lr=0.01, alpha=0.9, momentum=0.5, centered=True, weight_decay=0, maximize=True)':
        [-0.25161755, 0.49662924, -0.54315454, -1.1392175, -0.7161097, -1.2385793, -0.1846018,
         1.4093808, -0.42304096, -0.6204749, 0.48984206],
    'RMSprop(lr=0.01, alpha=0.9, momentum=0.5, centered=True, weight_decay=0.1, maximize=False)':
        [0.11378019, 0.0754827, -0.074842796, -0.64335287, -0.2183822, -0.7480103, 0.27003217,
         1.2713314, -0.5612745, -0.6204749, 0.48984206],
    'RMSprop(lr=0.01, alpha=0.9, momentum=0.5, centered=True, weight_decay=0.1, maximize=True)':
        [-0.24992792, 0.48354974, -0.54314786, -1.1389893, -0.71612984, -1.2383709, -0.18365802,
         1.4094335, -0.42316744, -0.6204749, 0.48984206],
    'Adagrad(lr=0.1, lr_decay=0, weight_decay=0, initial_accumulator_value=0, maximize=False)':
        [0.11528176, 0.029674698, -0.030403577, -0.5267249, -0.12970549, -0.6301667, 0.37560698,
         1.2014227, -0.6309991, -0.6204749, 0.48984206],
    'Adagrad(lr=0.1, lr_decay=0, weight_decay=0, initial_accumulator_value=0, maximize=True)':
        [-0.44069955, 0.6720302, -0.6977322, -1.2675182, -0.84939164, -1.3671867, -0.34337342,
         1.4807487, -0.35167307, -0.6204749, 0.48984206],
    'Adagrad(lr=0.1, lr_decay=0, weight_decay=0, initial_accumulator_value=0.2, maximize=False)':
        [0.10368651, 0.18774737, -0.038732093, -0.5299266, -0.13328369, -0.63200694, 0.3558991,
         1.201804, -0.6197659, -0.6204749, 0.48984206],
    'Adagrad(lr=0.1, lr_decay=0, weight_decay=0, initial_accumulator_value=0.2, maximize=True)':
        [-0.37442964, 0.39659813, -0.6833057, -1.2642077, -0.8453192, -1.3653226, -0.322591,
         1.4803703, -0.36280826, -0.6204749, 0.48984206],
    'Adagrad(lr=0.1, lr_decay=0, weight_decay=0.1, initial_accumulator_value=0, maximize=False)':
        [0.10459008, 0.026081108, -0.030501908, -0.52772665, -0.13026553, -0.6308724, 0.37090743,
         1.2016326, -0.63145185, -0.6204749, 0.48984206],
    'Adagrad(lr=0.1, lr_decay=0, weight_decay=0.1, initial_accumulator_value=0, maximize=True)':
        [-0.43855378, 0.65080154, -0.6976741, -1.2670082, -0.84909904, -1.3668007, -0.3412936,
         1.4809307, -0.3521127, -0.6204749, 0.48984206],
    'Adagrad(lr=0.1, lr_decay=0, weight_decay=0.1, initial_accumulator_value=0.2, maximize=False)':
        [0.0970261, 0.16492572, -0.038389277, -0.530699, -0.13368765, -0.63260055, 0.35125366,
         1.2019904, -0.6188781, -0.6204749, 0.48984206],
    'Adagrad(lr=0.1, lr_decay=0, weight_decay=0.1, initial_accumulator_value=0.2, maximize=True)':
        [-0.37126338, 0.3562749, -0.68251663, -1.2634362, -0.8448487, -1.3648138, -0.3206296,
         1.4805264, -0.3621168, -0.6204749, 0.48984206],
    'Adagrad(lr=0.1, lr_decay=0.05, weight_decay=0, initial_accumulator_value=0, maximize=False)':
        [0.11943085, 0.052178122, -0.039883047, -0.5569953, -0.15199533, -0.6604974, 0.34853697,
         1.2074258, -0.6249958, -0.6204749, 0.48984206],
    'Adagrad(lr=0.1, lr_decay=0.05, weight_decay=0, initial_accumulator_value=0, maximize=True)':
        [-0.39289114, 0.62702227, -0.65766996, -1.2344273, -0.8149372, -1.3340031, -0.30208692,
         1.4745581, -0.35786358, -0.6204749, 0.48984206],
    'Adagrad(lr=0.1, lr_decay=0.05, weight_decay=0, initial_accumulator_value=0.2, maximize=False)':
        [0.10546274, 0.19839032, -0.048605375, -0.56008655, -0.1555325, -0.6622591, 0.3302294,
         1.2078049, -0.61385256, -0.6204749, 0.48984206],
    'Adagrad(lr=0.1, lr_decay=0.05, weight_decay=0, initial_accumulator_value=0.2, maximize=True)':
        [-0.3295241, 0.39374772, -0.64355713, -1.2312844, -0.81098247, -1.332231, -0.2825317,
         1.474182, -0.36891484, -0.6204749, 0.48984206],
    'Adagrad(lr=0.1, lr_decay=0.05, weight_decay=0.1, initial_accumulator_value=0, maximize=False)':
        [0.11019697, 0.047290593, -0.039958544, -0.5578306, -0.15247402, -0.6610721, 0.34459102,
         1.2076218, -0.62541986, -0.6204749, 0.48984206],
    'Adagrad(lr=0.1, lr_decay=0.05, weight_decay=0.1, initial_accumulator_value=0, maximize=True)':
        [-0.3909158, 0.6071844, -0.65764123, -1.2340106, -0.8147407, -1.3336766, -0.3003105,
         1.4747281, -0.35827342, -0.6204749, 0.48984206],
    'Adagrad(lr=0.1, lr_decay=0.05, weight_decay=0.1, initial_accumulator_value=0.2, maximize=False)':
        [0.09976696, 0.17755158, -0.048234764, -0.5607002, -0.15585795, -0.66272676, 0.32632902,
         1.2079772, -0.61294246, -0.6204749, 0.48984206],
    'Adagrad(lr=0.1, lr_decay=0.05, weight_decay=0.1, initial_accumulator_value=0.2, maximize=True)':
        [-0.32669878, 0.3587536, -0.6428098, -1.2306205, -0.8106116, -1.3317884, -0.28089097,
         1.4743264, -0.36819792, -0.6204749, 0.48984206],
}
