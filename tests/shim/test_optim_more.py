"""The rest of torch.optim: Adadelta, Adamax, NAdam, RAdam, ASGD, Rprop, LBFGS, and every
learning-rate scheduler.

Optimizers: N steps on the same problem give PyTorch's parameters and state (live, 1e-5 in
float32), and stored fingerprints of PyTorch's final parameters check the same without it.
Schedulers: the learning-rate (and momentum) sequence equals PyTorch's exactly (live), and
stored fingerprints of PyTorch's sequences. Regenerate the stored numbers with
``python tests/shim/test_optim_more.py``.
"""

from __future__ import annotations

import copy
import doctest
import importlib
import warnings

import numpy as np
import pytest

import fgrad.torch as ft
from fgrad.torch import optim

try:
    import torch as _torch

    _torch.set_num_threads(1)
except Exception:  # noqa: BLE001
    _torch = None

needs_torch = pytest.mark.skipif(_torch is None, reason="torch is not installed")


def _loss(lib, params, k):
    """A non-quadratic loss whose gradients change along the trajectory."""
    loss = 0
    for i, p in enumerate(params):
        loss = loss + ((p - 0.3 * (i + 1)) ** 2).sum() + 0.1 * lib.sin(p * (k + 1)).sum()
    return loss


def _trajectory(lib, name, kwargs, steps=15):
    rng = np.random.default_rng(0)
    init = [rng.standard_normal((3, 4)), rng.standard_normal(5)]  # float64: agreement to ~1e-12
    params = [lib.tensor(a, requires_grad=True) for a in init]
    spec = [{"params": [params[0]]}, {"params": [params[1]], "lr": kwargs.get("lr", 0.01) * 0.5}]
    opt = getattr(lib.optim, name)(spec, **kwargs)
    for k in range(steps):
        opt.zero_grad()
        _loss(lib, params, k).backward()
        opt.step()
    return [p.detach().numpy().astype(np.float64) for p in params], opt


OPT_CASES = {
    "Adadelta": ("Adadelta", dict()),
    "Adadelta_wd_max": ("Adadelta", dict(lr=0.5, rho=0.8, eps=1e-5, weight_decay=0.1, maximize=True)),
    "Adamax": ("Adamax", dict(lr=0.05)),
    "Adamax_wd": ("Adamax", dict(lr=0.05, betas=(0.8, 0.99), weight_decay=0.1, foreach=False)),
    "NAdam": ("NAdam", dict(lr=0.05)),
    "NAdam_wd": ("NAdam", dict(lr=0.05, weight_decay=0.1, momentum_decay=0.01)),
    "NAdam_decoupled": ("NAdam", dict(lr=0.05, weight_decay=0.1, decoupled_weight_decay=True)),
    "RAdam": ("RAdam", dict(lr=0.05)),
    "RAdam_decoupled": (
        "RAdam",
        dict(lr=0.05, betas=(0.8, 0.9), weight_decay=0.1, decoupled_weight_decay=True),
    ),
    "RAdam_max": ("RAdam", dict(lr=0.05, betas=(0.8, 0.9), maximize=True)),
    "ASGD": ("ASGD", dict(lr=0.05)),
    "ASGD_averaging": ("ASGD", dict(lr=0.05, t0=3, lambd=0.01, alpha=0.5, weight_decay=0.1)),
    "Rprop": ("Rprop", dict(lr=0.05)),
    "Rprop_bounds_max": ("Rprop", dict(lr=0.05, etas=(0.3, 1.5), step_sizes=(1e-3, 0.2), maximize=True)),
}


def _fingerprint(arrays):
    return [[round(float(a.sum()), 12), round(float((a * a).sum()), 12)] for a in arrays]


@needs_torch
@pytest.mark.parametrize("case", sorted(OPT_CASES))
def test_optimizer_matches_torch_live(case):
    name, kw = OPT_CASES[case]
    ours, fopt = _trajectory(ft, name, kw)
    theirs, topt = _trajectory(_torch, name, kw)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)
    fsd, tsd = fopt.state_dict(), topt.state_dict()
    assert fsd["param_groups"] == tsd["param_groups"]
    for k in tsd["state"]:
        assert list(fsd["state"][k]) == list(tsd["state"][k])
        for key, v in tsd["state"][k].items():
            np.testing.assert_allclose(fsd["state"][k][key].numpy(), v.numpy(), rtol=1e-10, atol=1e-12)
            assert str(fsd["state"][k][key].dtype) == str(v.dtype)


@pytest.mark.parametrize("case", sorted(OPT_CASES))
def test_optimizer_matches_stored_torch_numbers(case):
    name, kw = OPT_CASES[case]
    got = _fingerprint(_trajectory(ft, name, kw)[0])
    np.testing.assert_allclose(got, STORED["opt"][case], rtol=1e-9, atol=1e-9)


def test_state_dict_round_trip_continues_the_same_trajectory():
    for name, kw in OPT_CASES.values():
        a_params, a_opt = _trajectory(ft, name, kw, steps=4)
        b = [ft.tensor(p, requires_grad=True) for p in a_params]
        b_opt = getattr(optim, name)([{"params": [b[0]]}, {"params": [b[1]]}], **kw)
        b_opt.load_state_dict(copy.deepcopy(a_opt.state_dict()))  # as if saved and loaded
        a = [p for g in a_opt.param_groups for p in g["params"]]
        for opt, params in ((a_opt, a), (b_opt, b)):
            opt.zero_grad()
            _loss(ft, params, 7).backward()
            opt.step()
        for x, y in zip(a, b):
            # (NAdam's float32 mu_product becomes float64 on loading, as in PyTorch: not bit-equal)
            np.testing.assert_allclose(
                x.detach().numpy(), y.detach().numpy(), rtol=1e-8, atol=1e-10, err_msg=name
            )


def test_closed_forms_of_first_steps():
    g = np.array([0.5, -2.0], np.float32)

    def first_step(cls, **kw):
        w = ft.zeros(2, requires_grad=True)
        opt = cls([w], **kw)
        w.grad = ft.tensor(g)
        opt.step()
        return w.detach().numpy()

    # Adamax: m = 0.1 g, u = |g| + eps, step lr / 0.1 -> -lr * sign(g)
    np.testing.assert_allclose(first_step(optim.Adamax, lr=0.1), -0.1 * np.sign(g), rtol=1e-6)
    # Adadelta: v = 0.1 g^2, delta = sqrt(eps) / sqrt(v + eps) * g
    v = 0.1 * g * g
    np.testing.assert_allclose(first_step(optim.Adadelta), -np.sqrt(1e-6) / np.sqrt(v + 1e-6) * g, rtol=1e-5)
    # RAdam: rho_1 = 1 <= 5 -> plain momentum step -lr * m_hat = -lr * g
    np.testing.assert_allclose(first_step(optim.RAdam, lr=0.1), -0.1 * g, rtol=1e-6)
    # Rprop: first step -lr * sign(g)
    np.testing.assert_allclose(first_step(optim.Rprop, lr=0.1), -0.1 * np.sign(g), rtol=1e-6)
    # ASGD: p = -eta g
    np.testing.assert_allclose(first_step(optim.ASGD, lr=0.1), -0.1 * g, rtol=1e-6)


def test_bad_hyper_parameters_raise_pytorch_errors():
    w = [ft.zeros(2, requires_grad=True)]
    with pytest.raises(ValueError, match="Invalid rho value: 1.5"):
        optim.Adadelta(w, rho=1.5)
    with pytest.raises(ValueError, match="Invalid beta parameter at index 1: 1.0"):
        optim.NAdam(w, betas=(0.9, 1.0))
    with pytest.raises(ValueError, match="Invalid eta values: 1.5, 1.2"):
        optim.Rprop(w, etas=(1.5, 1.2))
    with pytest.raises(ValueError, match="Invalid learning rate: -1"):
        optim.RAdam(w, lr=-1)
    with pytest.raises(ValueError, match="LBFGS doesn't support per-parameter options"):
        optim.LBFGS([{"params": w}, {"params": [ft.zeros(1, requires_grad=True)]}])
    with pytest.raises(RuntimeError, match="only 'strong_wolfe' is supported"):
        opt = optim.LBFGS(w, line_search_fn="armijo")
        opt.step(lambda: (w[0] ** 2).sum())


# -- LBFGS ---------------------------------------------------------------------------------


def _lbfgs(lib, steps=3, **kw):
    rng = np.random.default_rng(0)
    a = lib.tensor(rng.standard_normal(4), requires_grad=True)
    b = lib.tensor(rng.standard_normal((2, 3)), requires_grad=True)
    opt = lib.optim.LBFGS([a, b], **kw)

    def closure():
        opt.zero_grad()
        x = lib.cat([a, b.reshape(-1)])
        loss = (100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2).sum()  # Rosenbrock
        loss.backward()
        return loss

    losses = [float(opt.step(closure).detach()) for _ in range(steps)]
    state = opt.state[a]
    x = np.concatenate([a.detach().numpy(), b.detach().numpy().ravel()])
    return x, losses, state["func_evals"], state["n_iter"]


LBFGS_CASES = {
    "plain": dict(),
    "strong_wolfe": dict(line_search_fn="strong_wolfe"),
    "short_history": dict(history_size=3, line_search_fn="strong_wolfe", max_iter=7),
    "lr_half": dict(lr=0.5, history_size=2),
}


@needs_torch
@pytest.mark.parametrize("case", sorted(LBFGS_CASES))
def test_lbfgs_matches_torch_live_float64(case):
    x1, l1, e1, n1 = _lbfgs(ft, **LBFGS_CASES[case])
    x2, l2, e2, n2 = _lbfgs(_torch, **LBFGS_CASES[case])
    assert (e1, n1) == (e2, n2)  # the same iterations and function evaluations
    np.testing.assert_allclose(x1, x2, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(l1, l2, rtol=1e-6)


@pytest.mark.parametrize("case", sorted(LBFGS_CASES))
def test_lbfgs_matches_stored_torch_numbers(case):
    x, losses, evals, n_iter = _lbfgs(ft, **LBFGS_CASES[case])
    want = STORED["lbfgs"][case]
    assert [evals, n_iter] == want["counts"]
    np.testing.assert_allclose(x, want["x"], rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(losses, want["losses"], rtol=1e-6)


def test_lbfgs_solves_a_quadratic_and_keeps_pytorch_state_names():
    target = ft.tensor([1.0, 2.0, -3.0], dtype=ft.float64)
    w = ft.zeros(3, dtype=ft.float64, requires_grad=True)
    opt = optim.LBFGS([w], line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        loss = ((w - target) ** 2 * ft.tensor([1.0, 10.0, 100.0], dtype=ft.float64)).sum()
        loss.backward()
        return loss

    opt.step(closure)
    np.testing.assert_allclose(w.detach().numpy(), target.numpy(), atol=1e-6)
    assert set(opt.state[w]) == {
        "func_evals",
        "n_iter",
        "d",
        "t",
        "old_dirs",
        "old_stps",
        "ro",
        "H_diag",
        "prev_flat_grad",
        "prev_loss",
        "al",  # PyTorch's two-loop buffer, kept in the state
    }


# -- schedulers ----------------------------------------------------------------------------


def _lr_sequence(lib, make, opt_name="SGD", steps=30, metric=None):
    """[initial lrs] then, after each step, the lrs and each group's momentum (or beta1)."""
    p, q = lib.zeros(2, requires_grad=True), lib.zeros(1, requires_grad=True)
    extra = dict(momentum=0.9) if opt_name == "SGD" else {}
    opt = getattr(lib.optim, opt_name)([{"params": [p]}, {"params": [q], "lr": 0.05}], lr=0.1, **extra)
    sched = make(lib.optim.lr_scheduler, opt)
    seq = [list(sched.get_last_lr()) + [0.0, 0.0]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for k in range(steps):
            opt.step()
            sched.step(metric(k)) if metric else sched.step()
            momenta = [g["momentum"] if "momentum" in g else g["betas"][0] for g in opt.param_groups]
            seq.append([float(v) for v in sched.get_last_lr()] + momenta)
    return np.array(seq, dtype=np.float64), sched


SCHEDULERS = {
    "StepLR": (lambda L, o: L.StepLR(o, step_size=4, gamma=0.5), None),
    "MultiStepLR": (lambda L, o: L.MultiStepLR(o, milestones=[3, 7, 7, 20], gamma=0.3), None),
    "ExponentialLR": (lambda L, o: L.ExponentialLR(o, gamma=0.9), None),
    "CosineAnnealingLR": (lambda L, o: L.CosineAnnealingLR(o, T_max=8, eta_min=0.001), None),
    "LambdaLR": (lambda L, o: L.LambdaLR(o, lambda e: 1.0 / (1 + e)), None),
    "MultiplicativeLR": (lambda L, o: L.MultiplicativeLR(o, [lambda e: 0.95, lambda e: 0.9]), None),
    "ConstantLR": (lambda L, o: L.ConstantLR(o, factor=0.5, total_iters=4), None),
    "LinearLR": (lambda L, o: L.LinearLR(o, start_factor=0.2, end_factor=0.9, total_iters=7), None),
    "PolynomialLR": (lambda L, o: L.PolynomialLR(o, total_iters=10, power=2.0), None),
    "CosineAnnealingWarmRestarts": (
        lambda L, o: L.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.001),
        None,
    ),
    "OneCycleLR": (lambda L, o: L.OneCycleLR(o, max_lr=[1.0, 0.5], total_steps=30), None),
    "OneCycleLR_three_phase": (
        lambda L, o: L.OneCycleLR(
            o, max_lr=1.0, epochs=3, steps_per_epoch=11, three_phase=True, anneal_strategy="linear"
        ),
        None,
    ),
    "CyclicLR": (
        lambda L, o: L.CyclicLR(o, 0.01, 0.1, step_size_up=4, step_size_down=3, mode="triangular2"),
        None,
    ),
    "CyclicLR_exp_range": (
        lambda L, o: L.CyclicLR(o, 0.01, [0.1, 0.2], step_size_up=5, mode="exp_range", gamma=0.9),
        None,
    ),
    "SequentialLR": (
        lambda L, o: L.SequentialLR(
            o,
            [L.LinearLR(o, 0.1, total_iters=5), L.ExponentialLR(o, 0.9), L.StepLR(o, 3, 0.5)],
            milestones=[5, 12],
        ),
        None,
    ),
    "ChainedScheduler": (
        lambda L, o: L.ChainedScheduler([L.ConstantLR(o, 0.1, total_iters=4), L.ExponentialLR(o, 0.9)]),
        None,
    ),
    "ReduceLROnPlateau": (
        lambda L, o: L.ReduceLROnPlateau(o, factor=0.5, patience=2, cooldown=1, min_lr=0.004),
        lambda k: 1.0 if k < 3 else 0.9 + 0.001 * (k % 2),
    ),
}
ADAM_SCHEDULERS = ["OneCycleLR", "CyclicLR"]


def _sched_cases():
    cases = {name: (make, metric, "SGD") for name, (make, metric) in SCHEDULERS.items()}
    cases.update({f"{name}_adam": (*SCHEDULERS[name], "Adam") for name in ADAM_SCHEDULERS})
    return cases


SCHED_CASES = _sched_cases()


def _seq_fingerprint(seq):
    w = np.cos(np.arange(seq.shape[0]) * 0.37)
    return [
        [round(float(c.sum()), 12), round(float((c * c).sum()), 12), round(float((c * w).sum()), 12)]
        for c in seq.T
    ]


@needs_torch
@pytest.mark.parametrize("case", sorted(SCHED_CASES))
def test_scheduler_sequence_equals_torch_live(case):
    make, metric, opt_name = SCHED_CASES[case]
    ours, fs = _lr_sequence(ft, make, opt_name, metric=metric)
    theirs, ts = _lr_sequence(_torch, make, opt_name, metric=metric)
    np.testing.assert_allclose(ours, theirs, rtol=1e-13, atol=0)
    assert sorted(fs.state_dict()) == sorted(ts.state_dict())


@pytest.mark.parametrize("case", sorted(SCHED_CASES))
def test_scheduler_sequence_matches_stored_torch_numbers(case):
    make, metric, opt_name = SCHED_CASES[case]
    got = _seq_fingerprint(_lr_sequence(ft, make, opt_name, metric=metric)[0])
    np.testing.assert_allclose(got, STORED["sched"][case], rtol=1e-11, atol=1e-12)


@pytest.mark.parametrize(
    "case",
    [
        "CosineAnnealingWarmRestarts",
        "OneCycleLR",
        "CyclicLR",
        "SequentialLR",
        "ChainedScheduler",
        "LinearLR",
        "PolynomialLR",
        "ReduceLROnPlateau",
    ],
)
def test_scheduler_state_dict_resumes(case):
    make, metric, opt_name = SCHED_CASES[case]
    full, _ = _lr_sequence(ft, make, opt_name, steps=20, metric=metric)
    # run 9 steps, save, build a fresh optimizer + scheduler, load, and run the rest
    first, sched = _lr_sequence(ft, make, opt_name, steps=9, metric=metric)
    saved_sched = sched.state_dict()
    saved_groups = [{k: v for k, v in g.items() if k != "params"} for g in sched.optimizer.param_groups]
    p, q = ft.zeros(2, requires_grad=True), ft.zeros(1, requires_grad=True)
    extra = dict(momentum=0.9) if opt_name == "SGD" else {}
    opt = getattr(optim, opt_name)([{"params": [p]}, {"params": [q], "lr": 0.05}], lr=0.1, **extra)
    resumed = make(optim.lr_scheduler, opt)
    for g, saved in zip(opt.param_groups, saved_groups):
        g.update(saved)
    resumed.load_state_dict(saved_sched)
    rest = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for k in range(9, 20):
            opt.step()
            resumed.step(metric(k)) if metric else resumed.step()
            rest.append([float(v) for v in resumed.get_last_lr()])
    np.testing.assert_allclose(np.array(rest), full[10:, :2], rtol=1e-13)


def test_scheduler_bad_arguments_raise_pytorch_errors():
    opt = optim.SGD([ft.zeros(1, requires_grad=True)], lr=0.1)
    L = optim.lr_scheduler
    with pytest.raises(ValueError, match="Expected positive integer T_0, but got 0"):
        L.CosineAnnealingWarmRestarts(opt, T_0=0)
    with pytest.raises(ValueError, match="You must define either total_steps OR"):
        L.OneCycleLR(opt, max_lr=1.0)
    with pytest.raises(ValueError, match="optimizer must support momentum or beta1"):
        L.CyclicLR(optim.Adagrad([ft.zeros(1, requires_grad=True)]), 0.01, 0.1)
    with pytest.raises(ValueError, match="Sequential Schedulers expects number of schedulers"):
        L.SequentialLR(opt, [L.ExponentialLR(opt, 0.9)], milestones=[3])
    with pytest.raises(ValueError, match="Starting multiplicative factor expected"):
        L.LinearLR(opt, start_factor=0)
    sched = L.OneCycleLR(opt, max_lr=1.0, total_steps=2)
    with pytest.raises(ValueError, match="Tried to step 3 times"):
        for _ in range(3):
            opt.step()
            sched.step()


def test_docstring_examples_run():
    mods = ["adadelta", "adamax", "nadam", "radam", "asgd", "rprop", "lbfgs", "lr_scheduler"]
    for name in mods:
        res = doctest.testmod(
            importlib.import_module("fgrad.torch.optim." + name), optionflags=doctest.ELLIPSIS
        )
        assert res.failed == 0 and res.attempted > 0, name


def _regenerate() -> None:
    """Rewrite STORED (the last statement of this file) from PyTorch's numbers."""
    import pprint
    import re
    from pathlib import Path

    assert _torch is not None
    stored = {
        "opt": {c: _fingerprint(_trajectory(_torch, *OPT_CASES[c])[0]) for c in sorted(OPT_CASES)},
        "lbfgs": {},
        "sched": {
            c: _seq_fingerprint(
                _lr_sequence(_torch, SCHED_CASES[c][0], SCHED_CASES[c][2], metric=SCHED_CASES[c][1])[0]
            )
            for c in sorted(SCHED_CASES)
        },
    }
    for c in sorted(LBFGS_CASES):
        x, losses, evals, n_iter = _lbfgs(_torch, **LBFGS_CASES[c])
        stored["lbfgs"][c] = {"x": [float(v) for v in x], "losses": losses, "counts": [evals, n_iter]}
    path = Path(__file__)
    text = re.sub(
        r"^STORED: dict = .*\Z",
        "STORED: dict = " + pprint.pformat(stored, width=110) + "\n",
        path.read_text(),
        flags=re.S | re.M,
    )
    path.write_text(text)


if __name__ == "__main__":
    _regenerate()

# PyTorch 2.13's numbers (generated by _regenerate)
STORED: dict = {
    "lbfgs": {
        "lr_half": {
            "counts": [60, 60],
            "losses": [850.1171249477966, 7.482628936042972, 4.0719411059938775],
            "x": [
                0.994955685569696,
                0.9940600895849748,
                0.9845726450141972,
                0.9699295315269515,
                0.9424807910465579,
                0.8824999017657249,
                0.7761811854461701,
                0.5938245496089397,
                0.3407000780292762,
                0.10040138978315603,
            ],
        },
        "plain": {
            "counts": [60, 60],
            "losses": [850.1171249477966, 6.99328481601316, 2.7901333869017835],
            "x": [
                0.9956698798572617,
                0.9921550895139252,
                0.9840394626124742,
                0.9700526312296459,
                0.9405060566319243,
                0.8829043380281173,
                0.7763466909065134,
                0.5944446990905633,
                0.34368899273186027,
                0.11212781618187934,
            ],
        },
        "short_history": {
            "counts": [25, 18],
            "losses": [850.1171249477966, 13.70324017994864, 8.238323163395787],
            "x": [
                0.7900196530323508,
                0.6003367093989193,
                0.34468146643106234,
                0.09100602325725538,
                0.007364641190625036,
                0.013178679382092473,
                0.012669924705317805,
                0.011275195395862213,
                0.011470446757477465,
                0.0078036033616555225,
            ],
        },
        "strong_wolfe": {
            "counts": [72, 59],
            "losses": [850.1171249477966, 6.542239766723025, 1.4550812503734643],
            "x": [
                1.0000113595944615,
                1.0000224932150428,
                1.000010051469192,
                1.0000039211880023,
                0.9999936692210498,
                1.0000165633808462,
                1.0000206884333154,
                1.0000283080691479,
                1.0000450474794795,
                1.0000703662866932,
            ],
        },
    },
    "opt": {
        "ASGD": [[1.264154243212, 0.52835257661], [-1.389212285066, 0.921947860767]],
        "ASGD_averaging": [[1.115075903855, 0.504145944931], [-1.34666962562, 0.878716055005]],
        "Adadelta": [[0.356330238435, 5.384217429415], [-5.064917989843, 7.835746033766]],
        "Adadelta_wd_max": [[0.027002507798, 6.677769345272], [-5.230968947571, 8.165409070057]],
        "Adamax": [[2.011321003983, 1.634366453091], [-3.484072473467, 4.973103308063]],
        "Adamax_wd": [[1.718356610435, 1.543046159783], [-3.483603677085, 4.949470254851]],
        "NAdam": [[0.584746795948, 1.26689133731], [-3.665774843153, 5.24514757536]],
        "NAdam_decoupled": [[0.619620586036, 1.137776023654], [-3.513542037833, 4.833831183114]],
        "NAdam_wd": [[0.525404963384, 1.279545766722], [-3.666223185918, 5.245280833655]],
        "RAdam": [[1.660906983218, 1.952654052748], [-3.116530011024, 3.476534458715]],
        "RAdam_decoupled": [[1.841665950259, 1.083355220548], [-2.503875454272, 2.634711132492]],
        "RAdam_max": [[-2.295708284568, 20.027453743081], [-7.817025164167, 16.603914068765]],
        "Rprop": [[0.737682301203, 0.433717268318], [0.94368119213, 0.868664491639]],
        "Rprop_bounds_max": [[-10.160150374637, 119.999683959603], [-16.663915973385, 58.242186899544]],
    },
    "sched": {
        "ChainedScheduler": [
            [0.652337957552, 0.022879313661, -0.136961415691],
            [0.326168978776, 0.005719828415, -0.068480707845],
            [27.0, 24.3, -2.794613747593],
            [27.0, 24.3, -2.794613747593],
        ],
        "ConstantLR": [
            [2.9, 0.28, -0.366285509675],
            [1.45, 0.07, -0.183142754838],
            [27.0, 24.3, -2.794613747593],
            [27.0, 24.3, -2.794613747593],
        ],
        "CosineAnnealingLR": [
            [1.519767963141, 0.111551395082, 0.582687471298],
            [0.767864951453, 0.028095017101, 0.287337674488],
            [27.0, 24.3, -2.794613747593],
            [27.0, 24.3, -2.794613747593],
        ],
        "CosineAnnealingWarmRestarts": [
            [2.097089440037, 0.174196652694, -0.418155927492],
            [1.053609924867, 0.043730170531, -0.208029260267],
            [27.0, 24.3, -2.794613747593],
            [27.0, 24.3, -2.794613747593],
        ],
        "CyclicLR": [
            [0.90484375, 0.041154223633, -0.025029740396],
            [0.90484375, 0.041154223633, -0.025029740396],
            [26.3390625, 23.142605523003, -2.790193218111],
            [26.3390625, 23.142605523003, -2.790193218111],
        ],
        "CyclicLR_adam": [
            [0.90484375, 0.041154223633, -0.025029740396],
            [0.90484375, 0.041154223633, -0.025029740396],
            [26.3390625, 23.142605523003, -2.790193218111],
            [26.3390625, 23.142605523003, -2.790193218111],
        ],
        "CyclicLR_exp_range": [
            [0.709426367204, 0.022609203014, -0.023382041146],
            [1.153233441876, 0.071309902377, -0.025971793683],
            [26.556192925328, 23.515370321973, -2.792023995056],
            [26.556192925328, 23.515370321973, -2.792023995056],
        ],
        "ExponentialLR": [
            [0.961847957552, 0.052554969561, 0.111565699348],
            [0.480923978776, 0.01313874239, 0.055782849674],
            [27.0, 24.3, -2.794613747593],
            [27.0, 24.3, -2.794613747593],
        ],
        "LambdaLR": [
            [0.402724519544, 0.016131907003, 0.134983012145],
            [0.201362259772, 0.004032976751, 0.067491506073],
            [27.0, 24.3, -2.794613747593],
            [27.0, 24.3, -2.794613747593],
        ],
        "LinearLR": [
            [2.51, 0.2147, -0.361273725189],
            [1.255, 0.053675, -0.180636862594],
            [27.0, 24.3, -2.794613747593],
            [27.0, 24.3, -2.794613747593],
        ],
        "MultiStepLR": [
            [0.46401, 0.0337019871, 0.253818771921],
            [0.232005, 0.008425496775, 0.126909385961],
            [27.0, 24.3, -2.794613747593],
            [27.0, 24.3, -2.794613747593],
        ],
        "MultiplicativeLR": [
            [1.592186348508, 0.098299692966, 0.031531183742],
            [0.480923978776, 0.01313874239, 0.055782849674],
            [27.0, 24.3, -2.794613747593],
            [27.0, 24.3, -2.794613747593],
        ],
        "OneCycleLR": [
            [14.685632564549, 10.960652232188, -1.859251258618],
            [7.342816282275, 2.740163058047, -0.929625629309],
            [27.049441541311, 24.427689240367, -2.75325046394],
            [27.049441541311, 24.427689240367, -2.75325046394],
        ],
        "OneCycleLR_adam": [
            [14.685632564549, 10.960652232188, -1.859251258618],
            [7.342816282275, 2.740163058047, -0.929625629309],
            [27.049441541311, 24.427689240367, -2.75325046394],
            [27.049441541311, 24.427689240367, -2.75325046394],
        ],
        "OneCycleLR_three_phase": [
            [9.555901799019, 6.204504376114, -3.092322042049],
            [9.555901799019, 6.204504376114, -3.092322042049],
            [27.610112359551, 25.443721121071, -2.625379484347],
            [27.610112359551, 25.443721121071, -2.625379484347],
        ],
        "PolynomialLR": [
            [0.385, 0.025333, 0.218688751184],
            [0.1925, 0.00633325, 0.109344375592],
            [27.0, 24.3, -2.794613747593],
            [27.0, 24.3, -2.794613747593],
        ],
        "ReduceLROnPlateau": [
            [1.203, 0.09339325, 0.027332332136],
            [0.619, 0.02345725, 0.004508005933],
            [27.0, 24.3, -2.794613747593],
            [27.0, 24.3, -2.794613747593],
        ],
        "SequentialLR": [
            [1.3438906, 0.094403837647, -0.081578347198],
            [0.6719453, 0.023600959412, -0.040789173599],
            [27.0, 24.3, -2.794613747593],
            [27.0, 24.3, -2.794613747593],
        ],
        "StepLR": [
            [0.79609375, 0.05333190918, 0.171959023587],
            [0.398046875, 0.013332977295, 0.085979511794],
            [27.0, 24.3, -2.794613747593],
            [27.0, 24.3, -2.794613747593],
        ],
    },
}
