"""Learning-rate schedules printed as the "visualising LR schedulers" notebooks print them:
every scheduler's lr per step (StepLR, MultiStepLR, ExponentialLR, CosineAnnealingLR with
eta_min past T_max, CosineAnnealingWarmRestarts with T_mult, CyclicLR triangular/
triangular2/exp_range with momentum cycling, OneCycleLR cos/linear with three_phase,
PolynomialLR, LinearLR, ConstantLR, LambdaLR and MultiplicativeLR with two groups,
SequentialLR, ChainedScheduler, ReduceLROnPlateau), get_last_lr, the warm-up plus cosine
recipe with LambdaLR, and the momentum/betas OneCycleLR writes into Adam."""
# ruff: noqa: E501

import math

import torch
from torch.optim import lr_scheduler as S


def curve(make, steps=12, opt_cls=torch.optim.SGD, metric=None, **okw):
    p = torch.nn.Parameter(torch.zeros(1))
    q = torch.nn.Parameter(torch.zeros(1))
    opt = opt_cls([{"params": [p]}, {"params": [q], "lr": 0.05}], lr=0.1, **okw)
    sch = make(opt)
    lrs = []
    for i in range(steps):
        opt.step()
        lrs.append(round(opt.param_groups[0]["lr"], 6))
        if metric is None:
            sch.step()
        else:
            sch.step(metric[i])
    return lrs, [round(g["lr"], 6) for g in opt.param_groups], opt


for name, make in [
    ("StepLR", lambda o: S.StepLR(o, 3, gamma=0.5)),
    ("MultiStepLR", lambda o: S.MultiStepLR(o, [2, 5, 5, 9], gamma=0.3)),
    ("ExponentialLR", lambda o: S.ExponentialLR(o, 0.8)),
    ("CosineAnnealingLR", lambda o: S.CosineAnnealingLR(o, T_max=5, eta_min=0.01)),
    ("WarmRestarts", lambda o: S.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.001)),
    ("Cyclic-tri", lambda o: S.CyclicLR(o, 0.01, 0.1, step_size_up=3)),
    ("Cyclic-tri2", lambda o: S.CyclicLR(o, 0.01, 0.1, step_size_up=2, step_size_down=1, mode="triangular2")),
    ("Cyclic-exp", lambda o: S.CyclicLR(o, [0.01, 0.02], [0.1, 0.2], step_size_up=2, mode="exp_range", gamma=0.9)),
    ("OneCycle-cos", lambda o: S.OneCycleLR(o, max_lr=[0.5, 0.2], total_steps=12)),
    ("OneCycle-lin3", lambda o: S.OneCycleLR(o, max_lr=0.5, total_steps=12, anneal_strategy="linear", three_phase=True, pct_start=0.25, div_factor=10, final_div_factor=100)),
    ("PolynomialLR", lambda o: S.PolynomialLR(o, total_iters=6, power=2.0)),
    ("LinearLR", lambda o: S.LinearLR(o, start_factor=0.25, end_factor=1.0, total_iters=4)),
    ("ConstantLR", lambda o: S.ConstantLR(o, factor=0.5, total_iters=3)),
    ("LambdaLR", lambda o: S.LambdaLR(o, [lambda e: 0.9 ** e, lambda e: 1 / (1 + e)])),
    ("MultiplicativeLR", lambda o: S.MultiplicativeLR(o, lambda e: 0.95)),
    ("SequentialLR", lambda o: S.SequentialLR(o, [S.LinearLR(o, 0.1, total_iters=3), S.ExponentialLR(o, 0.7)], milestones=[3])),
    ("Chained", lambda o: S.ChainedScheduler([S.ConstantLR(o, 0.1, total_iters=2), S.ExponentialLR(o, 0.9)])),
]:
    lrs, last, _ = curve(make)
    print(name, lrs, last)

metric = [1.0, 0.9, 0.95, 0.94, 0.96, 0.97, 0.5, 0.6, 0.6, 0.6, 0.6, 0.6]
print("Plateau", curve(lambda o: S.ReduceLROnPlateau(o, patience=1, factor=0.5, threshold=0.01), metric=metric)[:2])
print("Plateau-rel", curve(lambda o: S.ReduceLROnPlateau(o, mode="min", patience=0, factor=0.1, threshold=0.1, threshold_mode="rel", cooldown=2, min_lr=[0.002, 0.004]), metric=metric)[:2])

lrs, _, opt = curve(lambda o: S.OneCycleLR(o, max_lr=0.3, total_steps=12), opt_cls=torch.optim.Adam)
print(lrs, [round(g["betas"][0], 5) for g in opt.param_groups])
lrs, _, opt = curve(lambda o: S.CyclicLR(o, 0.01, 0.1, step_size_up=2, base_momentum=0.8, max_momentum=0.95), momentum=0.9)
print(lrs, [round(g["momentum"], 5) for g in opt.param_groups])

warmup, total = 3, 12


def warmup_cosine(step):
    if step < warmup:
        return (step + 1) / warmup
    progress = (step - warmup) / (total - warmup)
    return 0.5 * (1 + math.cos(math.pi * progress))


print(curve(lambda o: S.LambdaLR(o, warmup_cosine))[0])
p = torch.nn.Parameter(torch.zeros(1))
opt = torch.optim.SGD([p], lr=1.0)
sch = S.CosineAnnealingWarmRestarts(opt, T_0=4)
seen = []
for epoch in range(2):
    for i in range(5):
        sch.step(epoch + i / 5)
        seen.append(round(sch.get_last_lr()[0], 5))
print(seen, sch.T_cur, sch.last_epoch)
