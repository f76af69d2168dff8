"""Training-loop tricks from popular repositories (timm, nanoGPT): gradient accumulation over
micro-batches with the loss divided by the steps, clip_grad_norm_ returning the total norm
(inf and 1-norm variants), an exponential moving average of the weights with torch._foreach_
ops and a model copy, a warmup + cosine learning rate by hand, and the learning-rate finder
(exponentially increasing lr, smoothed loss, stop on divergence)."""
# ruff: noqa: B007, E501  (written as the published program is)

import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
X = torch.randn(128, 10)
w_true = torch.randn(10, 1)
Y = X @ w_true + 0.1 * torch.randn(128, 1)
model = nn.Sequential(nn.Linear(10, 32), nn.Tanh(), nn.Linear(32, 1))
ema = copy.deepcopy(model)
for p in ema.parameters():
    p.requires_grad_(False)
opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.01)
accum, micro, decay = 4, 8, 0.9


def get_lr(it, warmup=3, max_iters=12, max_lr=1e-2, min_lr=1e-3):
    if it < warmup:
        return max_lr * (it + 1) / warmup
    ratio = (it - warmup) / (max_iters - warmup)
    return min_lr + 0.5 * (1.0 + math.cos(math.pi * ratio)) * (max_lr - min_lr)


for it in range(12):
    lr = get_lr(it)
    for g in opt.param_groups:
        g["lr"] = lr
    total = 0.0
    for k in range(accum):
        i = (it * accum + k) % (128 // micro)
        xb, yb = X[i * micro:(i + 1) * micro], Y[i * micro:(i + 1) * micro]
        loss = F.mse_loss(model(xb), yb) / accum
        loss.backward()
        total += loss.item()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    opt.step()
    opt.zero_grad(set_to_none=True)
    with torch.no_grad():
        ema_params = list(ema.parameters())
        torch._foreach_mul_(ema_params, decay)
        torch._foreach_add_(ema_params, list(model.parameters()), alpha=1 - decay)
    if it % 3 == 0:
        print(it, f"lr {lr:.5f} loss {total:.4f} norm {norm.item():.4f}")
with torch.no_grad():
    print(f"model {F.mse_loss(model(X), Y).item():.4f} ema {F.mse_loss(ema(X), Y).item():.4f}")
loss = F.mse_loss(model(X), Y)
loss.backward()
g_inf = torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5, norm_type=float("inf"))
g_1 = torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5, norm_type=1.0)
print(f"{g_inf.item():.5f} {g_1.item():.5f}", torch.nn.utils.get_total_norm([p.grad for p in model.parameters()]).item() <= 0.5 + 1e-6)
opt.zero_grad()


def lr_finder(model, start_lr=1e-5, end_lr=10.0, num_iter=30, beta=0.9):
    model = copy.deepcopy(model)
    opt = torch.optim.SGD(model.parameters(), lr=start_lr)
    mult = (end_lr / start_lr) ** (1 / num_iter)
    lr, avg, best, lrs, losses = start_lr, 0.0, float("inf"), [], []
    for i in range(num_iter):
        idx = torch.randint(0, 128, (16,))
        loss = F.mse_loss(model(X[idx]), Y[idx])
        avg = beta * avg + (1 - beta) * loss.item()
        smoothed = avg / (1 - beta ** (i + 1))
        if i > 0 and smoothed > 4 * best:
            break
        best = min(best, smoothed)
        lrs.append(lr)
        losses.append(smoothed)
        opt.zero_grad()
        loss.backward()
        opt.step()
        lr *= mult
        opt.param_groups[0]["lr"] = lr
    return lrs, losses


torch.manual_seed(1)
lrs, losses = lr_finder(nn.Sequential(nn.Linear(10, 32), nn.Tanh(), nn.Linear(32, 1)))
print(len(lrs), [f"{v:.3g}" for v in lrs[::6]])
print([f"{v:.4f}" for v in losses[::6]])
best = min(range(len(losses)), key=losses.__getitem__)
print(f"suggested lr {lrs[best] / 10:.3g}")
