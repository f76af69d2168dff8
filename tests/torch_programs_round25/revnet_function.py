"""Reversible residual networks (Gomez et al. 2017) with a memory-saving backward: a custom
torch.autograd.Function whose forward runs under torch.no_grad and saves only the block's
outputs, and whose backward reconstructs the inputs (y2 - G(y1), y1 - F(x2)), re-runs F and G
under torch.enable_grad and calls torch.autograd.grad for the inputs' and the parameters'
gradients (ctx.needs_input_grad, parameters passed as extra inputs).  Checked against the same
network differentiated by ordinary autograd and by torch.autograd.gradcheck; then a small
classifier of 2-D spirals trained with it, SGD with Nesterov momentum and a MultiStepLR."""
# ruff: noqa: E501

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)
torch.manual_seed(0)


class Residual(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc1 = nn.Linear(d, 2 * d)
        self.fc2 = nn.Linear(2 * d, d)

    def forward(self, x):
        return self.fc2(torch.tanh(self.fc1(x)))


class ReversibleFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, f, g, *params):
        ctx.f, ctx.g, ctx.n_f = f, g, len(list(f.parameters()))
        x1, x2 = x.chunk(2, dim=-1)
        with torch.no_grad():
            y1 = x1 + f(x2)
            y2 = x2 + g(y1)
        y = torch.cat([y1, y2], -1)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensors
        f, g = ctx.f, ctx.g
        y1, y2 = y.chunk(2, dim=-1)
        dy1, dy2 = dy.chunk(2, dim=-1)
        with torch.enable_grad():
            y1 = y1.detach().requires_grad_()
            gy1 = g(y1)
            g_params = list(g.parameters())
            g_grads = torch.autograd.grad(gy1, [y1] + g_params, dy2)
        x2 = (y2 - gy1).detach()
        dz1 = dy1 + g_grads[0]
        with torch.enable_grad():
            x2 = x2.requires_grad_()
            fx2 = f(x2)
            f_params = list(f.parameters())
            f_grads = torch.autograd.grad(fx2, [x2] + f_params, dz1)
        dx2 = dy2 + f_grads[0]
        dx = torch.cat([dz1, dx2], -1)
        return (dx if ctx.needs_input_grad[0] else None, None, None, *f_grads[1:], *g_grads[1:])


class RevBlock(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.f = Residual(d)
        self.g = Residual(d)

    def forward(self, x, reversible=True):
        if reversible:
            return ReversibleFunction.apply(x, self.f, self.g, *self.f.parameters(), *self.g.parameters())
        x1, x2 = x.chunk(2, dim=-1)
        y1 = x1 + self.f(x2)
        return torch.cat([y1, x2 + self.g(y1)], -1)

    def inverse(self, y):
        y1, y2 = y.chunk(2, dim=-1)
        x2 = y2 - self.g(y1)
        return torch.cat([y1 - self.f(x2), x2], -1)


class RevNet(nn.Module):
    def __init__(self, d=4, depth=4, classes=3):
        super().__init__()
        self.inp = nn.Linear(2, 2 * d)
        self.blocks = nn.ModuleList([RevBlock(d) for _ in range(depth)])
        self.out = nn.Linear(2 * d, classes)

    def forward(self, x, reversible=True):
        h = self.inp(x)
        for b in self.blocks:
            h = b(h, reversible)
        return self.out(h)


model = RevNet()
x = torch.randn(16, 2)
y = torch.randint(0, 3, (16,))
loss_rev = F.cross_entropy(model(x), y)
grads_rev = torch.autograd.grad(loss_rev, list(model.parameters()))
loss_std = F.cross_entropy(model(x, reversible=False), y)
grads_std = torch.autograd.grad(loss_std, list(model.parameters()))
print(f"loss reversible {loss_rev.item():.12f} ordinary {loss_std.item():.12f}")
print("parameter gradients agree:", all(torch.allclose(a, b, atol=1e-12) for a, b in zip(grads_rev, grads_std)))
print("largest gradient", f"{max(g.abs().max().item() for g in grads_rev):.10f}")

h = torch.randn(5, 8)
blk = model.blocks[0]
with torch.no_grad():
    print("inverse reconstructs:", torch.allclose(blk.inverse(blk(h, False)), h, atol=1e-12))
hg = h.clone().requires_grad_()
print("gradcheck of the reversible block:", torch.autograd.gradcheck(lambda t: blk(t), (hg,)))
out = blk(hg)
print("output grad_fn:", type(out.grad_fn).__name__, "| requires grad:", out.requires_grad)
with torch.no_grad():
    print("under no_grad the output has no grad_fn:", blk(hg).grad_fn is None)


def spirals(n, noise=0.15):
    k = torch.arange(n) % 3
    t = torch.rand(n) * 3 + 0.3
    ang = t * 1.6 + k * 2 * math.pi / 3
    pts = torch.stack([t * torch.cos(ang), t * torch.sin(ang)], 1) / 3
    return pts + noise * torch.randn(n, 2) / 3, k


xtr, ytr = spirals(600)
xte, yte = spirals(300)
model = RevNet(d=8, depth=4)
opt = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9, nesterov=True, weight_decay=1e-4)
sched = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[20, 30], gamma=0.2)
for epoch in range(1, 41):
    perm = torch.randperm(600)
    for i in range(0, 600, 50):
        idx = perm[i:i + 50]
        loss = F.cross_entropy(model(xtr[idx]), ytr[idx])
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
    sched.step()
    if epoch % 10 == 0:
        with torch.no_grad():
            acc = (model(xte).argmax(1) == yte).double().mean().item()
        print(f"epoch {epoch} loss {loss.item():.5f} test accuracy {acc:.4f} lr {sched.get_last_lr()[0]:.4f}")
