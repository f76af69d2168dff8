"""Learning-rate schedules and resumable training: OneCycleLR (cosine and linear annealing,
momentum cycling of SGD and of Adam's beta1), CosineAnnealingWarmRestarts stepped with
fractional epochs, SequentialLR of LinearLR warmup then ExponentialLR, ChainedScheduler,
ReduceLROnPlateau on a validation loss (threshold modes, cooldown, min_lr), CyclicLR, and
PolynomialLR; then training interrupted and resumed from torch.save'd state_dicts (model,
optimizer, scheduler, RNG state) in an io.BytesIO, loaded with weights_only=True, producing
exactly the uninterrupted run's losses."""
# ruff: noqa: E501

import io

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim import lr_scheduler as S

torch.set_default_dtype(torch.float64)
torch.manual_seed(0)


def lrs(opt, sched, steps, metric=None, key="lr"):
    out = []
    for i in range(steps):
        opt.step()
        if metric is None:
            sched.step()
        else:
            sched.step(metric(i))
        out.append(opt.param_groups[0][key])
    return out


def fmt(xs):
    return " ".join(f"{x:.6g}" for x in xs)


p = [nn.Parameter(torch.zeros(2))]
opt = torch.optim.SGD(p, lr=0.1, momentum=0.9)
sch = S.OneCycleLR(opt, max_lr=1.0, total_steps=20, pct_start=0.3)
print("initial lr", f"{opt.param_groups[0]['lr']:.6g}", "momentum", opt.param_groups[0]["momentum"])
print("OneCycle cos lr:", fmt(lrs(opt, sch, 19)))
opt = torch.optim.Adam(p, lr=0.1)
sch = S.OneCycleLR(opt, max_lr=0.5, total_steps=12, anneal_strategy="linear", three_phase=True, div_factor=10, final_div_factor=100)
lr_seq = []
b1 = []
for _ in range(11):
    opt.step()
    sch.step()
    lr_seq.append(opt.param_groups[0]["lr"])
    b1.append(opt.param_groups[0]["betas"][0])
print("OneCycle linear three-phase lr:", fmt(lr_seq))
print("Adam beta1 cycled:", fmt(b1))

opt = torch.optim.SGD(p, lr=0.2)
sch = S.CosineAnnealingWarmRestarts(opt, T_0=4, T_mult=2, eta_min=0.01)
seq = []
for epoch in range(6):
    for it in range(4):
        sch.step(epoch + it / 4)
        seq.append(opt.param_groups[0]["lr"])
print("warm restarts (fractional epochs):", fmt(seq[::3]))

opt = torch.optim.SGD(p, lr=0.1)
sch = S.SequentialLR(opt, [S.LinearLR(opt, start_factor=0.1, total_iters=4), S.ExponentialLR(opt, gamma=0.8)], milestones=[4])
print("warmup then exponential:", fmt(lrs(opt, sch, 10)))
opt = torch.optim.SGD(p, lr=1.0)
sch = S.ChainedScheduler([S.StepLR(opt, step_size=3, gamma=0.5), S.ExponentialLR(opt, gamma=0.9)])
print("chained step x exponential:", fmt(lrs(opt, sch, 8)))
opt = torch.optim.SGD(p, lr=1.0)
sch = S.CyclicLR(opt, base_lr=0.1, max_lr=1.0, step_size_up=3, mode="triangular2", cycle_momentum=False)
print("cyclic triangular2:", fmt(lrs(opt, sch, 14)))
opt = torch.optim.SGD(p, lr=1.0)
sch = S.PolynomialLR(opt, total_iters=6, power=2.0)
print("polynomial:", fmt(lrs(opt, sch, 8)))

val = [1.0, 0.9, 0.89, 0.889, 0.8889, 0.88889, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7]
for mode in ["rel", "abs"]:
    opt = torch.optim.SGD(p, lr=1.0)
    sch = S.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1, threshold=0.01, threshold_mode=mode, cooldown=1, min_lr=0.1)
    print(f"plateau ({mode}):", fmt(lrs(opt, sch, len(val), metric=lambda i: val[i])), "| num_bad_epochs", sch.num_bad_epochs)

# interrupted and resumed training
X = torch.randn(128, 6)
Y = (X @ torch.randn(6, 3)).argmax(1)


def make():
    torch.manual_seed(1)
    net = nn.Sequential(nn.Linear(6, 16), nn.Dropout(0.1), nn.ReLU(), nn.Linear(16, 3))
    opt = torch.optim.AdamW(net.parameters(), lr=1e-2, weight_decay=0.05)
    sch = S.OneCycleLR(opt, max_lr=0.05, total_steps=40)
    return net, opt, sch


def run(net, opt, sch, steps):
    out = []
    for _ in range(steps):
        idx = torch.randint(0, 128, (32,))
        loss = F.cross_entropy(net(X[idx]), Y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        sch.step()
        out.append(loss.item())
    return out


net, opt, sch = make()
full = run(net, opt, sch, 40)
net, opt, sch = make()
first = run(net, opt, sch, 25)
buf = io.BytesIO()
torch.save({"model": net.state_dict(), "opt": opt.state_dict(), "sched": sch.state_dict(), "rng": torch.get_rng_state(), "step": 25}, buf)
print("checkpoint bytes > 0:", buf.getbuffer().nbytes > 0)
buf.seek(0)
ck = torch.load(buf, weights_only=True)
print("checkpoint keys:", sorted(ck), "| opt state keys:", sorted(ck["opt"]), "| sched last_epoch", ck["sched"]["last_epoch"])
net2, opt2, sch2 = make()
net2.load_state_dict(ck["model"])
opt2.load_state_dict(ck["opt"])
sch2.load_state_dict(ck["sched"])
torch.set_rng_state(ck["rng"])
rest = run(net2, opt2, sch2, 15)
print("resumed run equals uninterrupted:", first + rest == full)
print("losses:", fmt(full[::8]))
print(f"final lr {sch2.get_last_lr()[0]:.6e} step count {opt2.state_dict()['state'][0]['step'].item():.0f}")
