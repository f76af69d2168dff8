"""Learning-rate schedules saved and resumed mid-run as training frameworks do: state_dict and
load_state_dict of StepLR, PolynomialLR, ConstantLR, MultiplicativeLR (lambda not saved),
CosineAnnealingWarmRestarts stepped with fractional epochs, ReduceLROnPlateau (mode max,
threshold_mode abs, cooldown, min_lr per group) with its state_dict, SequentialLR and
ChainedScheduler state_dicts, get_last_lr per group and the optimizer's initial_lr."""
# ruff: noqa: B007, E501  (written as the published program is)

import torch
from torch import nn
from torch.optim import lr_scheduler as S


def opt2():
    m = nn.Linear(2, 2)
    return torch.optim.SGD([{"params": [m.weight]}, {"params": [m.bias], "lr": 0.5}], lr=1.0, momentum=0.9)


def run(make_sched, n, resume_at=None):
    o = opt2()
    s = make_sched(o)
    lrs = []
    for i in range(n):
        o.step()
        s.step()
        lrs.append([round(x, 6) for x in s.get_last_lr()])
        if resume_at == i:
            sd = s.state_dict()
            o2 = opt2()
            o2.load_state_dict(o.state_dict())
            s = make_sched(o2)
            s.load_state_dict(sd)
            o = o2
    return lrs, o.param_groups[0]["lr"], o.param_groups[1].get("initial_lr")


makers = {
    "StepLR": lambda o: S.StepLR(o, 3, 0.5),
    "PolynomialLR": lambda o: S.PolynomialLR(o, total_iters=6, power=2.0),
    "ConstantLR": lambda o: S.ConstantLR(o, factor=0.25, total_iters=3),
    "MultiplicativeLR": lambda o: S.MultiplicativeLR(o, lambda e: 0.9),
    "LinearLR": lambda o: S.LinearLR(o, start_factor=0.1, end_factor=1.0, total_iters=4),
    "CosineAnnealingLR": lambda o: S.CosineAnnealingLR(o, T_max=5, eta_min=0.01),
    "Sequential": lambda o: S.SequentialLR(o, [S.LinearLR(o, 0.2, 1.0, 2), S.ExponentialLR(o, 0.8)], milestones=[2]),
    "Chained": lambda o: S.ChainedScheduler([S.ConstantLR(o, 0.5, 2), S.ExponentialLR(o, 0.9)]),
}
for name, mk in makers.items():
    full = run(mk, 8)
    resumed = run(mk, 8, resume_at=3)
    print(name, full[0][-3:], full[1], full[2], full == resumed)
o = opt2()
print(sorted(S.StepLR(o, 3).state_dict()))
print(S.MultiplicativeLR(opt2(), lambda e: 0.9).state_dict()["lr_lambdas"])
print(S.SequentialLR(o, [S.ConstantLR(o, 0.5, 2), S.ExponentialLR(o, 0.8)], [2]).state_dict()["_milestones"])

o = opt2()
cw = S.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.05)
iters = 4
for epoch in range(3):
    for i in range(iters):
        cw.step(epoch + i / iters)
        print(round(cw.get_last_lr()[0], 5), end=" ")
print()
print(cw.T_cur, cw.T_i, cw.last_epoch)

o = opt2()
pl = S.ReduceLROnPlateau(o, mode="max", factor=0.5, patience=1, threshold=0.01, threshold_mode="abs", cooldown=1, min_lr=[0.1, 0.2])
metrics = [0.5, 0.6, 0.605, 0.604, 0.61, 0.6, 0.59, 0.7, 0.69, 0.68, 0.67, 0.66]
for i, m in enumerate(metrics):
    pl.step(m)
    print(i, pl.get_last_lr(), pl.num_bad_epochs, pl.cooldown_counter)
sd = pl.state_dict()
print(sorted(k for k in sd if k != "_last_lr"), sd["best"], sd["mode"], sd["min_lrs"])
pl2 = S.ReduceLROnPlateau(opt2(), mode="max")
pl2.load_state_dict(sd)
print(pl2.best, pl2.patience, pl2.mode_worse, pl2.eps)
