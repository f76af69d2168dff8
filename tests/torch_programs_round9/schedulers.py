"""LR schedulers printed per step (StepLR, MultiStepLR, ExponentialLR, CosineAnnealingLR,
CosineAnnealingWarmRestarts, OneCycleLR, CyclicLR, LambdaLR, LinearLR, SequentialLR,
ReduceLROnPlateau, ChainedScheduler), gradient clipping and gradient accumulation."""

import torch
import torch.nn as nn
from torch.optim import lr_scheduler

torch.manual_seed(0)


def make(lr=0.1, opt="sgd"):
    p = [nn.Parameter(torch.ones(2))]
    if opt == "adam":
        return torch.optim.Adam(p, lr=lr)
    return torch.optim.SGD(p, lr=lr, momentum=0.9)


def trace(name, opt, sched, steps=8, metric=None):
    lrs = []
    for i in range(steps):
        opt.step()
        if metric is not None:
            sched.step(metric[i])
        else:
            sched.step()
        lrs.append(opt.param_groups[0]["lr"])
    print(f"{name:>26}:", " ".join(f"{v:.6f}" for v in lrs))


o = make()
trace("StepLR", o, lr_scheduler.StepLR(o, step_size=3, gamma=0.5))
o = make()
trace("MultiStepLR", o, lr_scheduler.MultiStepLR(o, milestones=[2, 5], gamma=0.1))
o = make()
trace("ExponentialLR", o, lr_scheduler.ExponentialLR(o, gamma=0.9))
o = make()
trace("CosineAnnealingLR", o, lr_scheduler.CosineAnnealingLR(o, T_max=5, eta_min=0.01))
o = make()
trace(
    "CosineAnnealingWarmRestarts",
    o,
    lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.001),
    steps=10,
)
o = make()
trace("OneCycleLR", o, lr_scheduler.OneCycleLR(o, max_lr=1.0, total_steps=10), steps=9)
o = make()
trace(
    "OneCycleLR linear",
    o,
    lr_scheduler.OneCycleLR(
        o, max_lr=0.5, epochs=2, steps_per_epoch=4, anneal_strategy="linear", three_phase=True
    ),
    steps=7,
)
o = make()
trace(
    "CyclicLR",
    o,
    lr_scheduler.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2, mode="triangular2"),
    steps=10,
)
o = make()
trace("LambdaLR", o, lr_scheduler.LambdaLR(o, lr_lambda=lambda epoch: 0.95**epoch / (1 + epoch)))
o = make()
trace("LinearLR", o, lr_scheduler.LinearLR(o, start_factor=0.25, total_iters=4))
o = make()
warm = lr_scheduler.LinearLR(o, start_factor=0.1, total_iters=3)
cos = lr_scheduler.CosineAnnealingLR(o, T_max=5)
trace("SequentialLR", o, lr_scheduler.SequentialLR(o, schedulers=[warm, cos], milestones=[3]), steps=9)
o = make()
trace(
    "ChainedScheduler",
    o,
    lr_scheduler.ChainedScheduler(
        [lr_scheduler.ConstantLR(o, factor=0.5, total_iters=2), lr_scheduler.ExponentialLR(o, gamma=0.9)]
    ),
)
o = make(opt="adam")
losses = [1.0, 0.9, 0.91, 0.92, 0.93, 0.8, 0.81, 0.82, 0.83, 0.84]
trace(
    "ReduceLROnPlateau",
    o,
    lr_scheduler.ReduceLROnPlateau(o, mode="min", factor=0.5, patience=2),
    steps=10,
    metric=losses,
)
s = lr_scheduler.StepLR(make(), step_size=2)
print(s.state_dict()["last_epoch"], s.get_last_lr())

# clipping and accumulation
model = nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
sched = lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=6)
X, Y = torch.randn(24, 5), torch.randn(24, 1)
accum = 3
for step in range(6):
    opt.zero_grad()
    total = 0.0
    for k in range(accum):
        xb = X[(step * 4 + k) % 24 : (step * 4 + k) % 24 + 4]
        yb = Y[(step * 4 + k) % 24 : (step * 4 + k) % 24 + 4]
        loss = nn.functional.mse_loss(model(xb), yb) / accum
        loss.backward()
        total += loss.item()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5)
    torch.nn.utils.clip_grad_value_(model.parameters(), clip_value=0.1)
    opt.step()
    sched.step()
    print(f"step {step} loss {total:.5f} norm {norm.item():.5f} lr {sched.get_last_lr()[0]:.6f}")
print(torch.nn.utils.parameters_to_vector(model.parameters())[:6])
print(
    torch.nn.utils.get_total_norm([p.grad for p in model.parameters()], norm_type=1.0)
    if hasattr(torch.nn.utils, "get_total_norm")
    else "n/a"
)
