"""Hypernetworks (Ha et al. 2016) and FiLM (Perez et al. 2018) on a family of 1-D regression
tasks y = a*sin(x + b): a task encoder (mean-pooled (x, y) context embedded by a GLU MLP), a
hypernetwork emitting every weight of a target MLP whose shapes come from a template module's
named_parameters, the target evaluated by torch.func.functional_call with the generated
parameters and vmapped over tasks, the same task code used as FiLM scales and shifts of a
shared network with GroupNorm, both trained with AdamW and gradient clipping
(clip_grad_norm_ returning the total norm), generated-weight statistics, and gradients of
the hypernetwork checked against a Python loop over tasks."""
# ruff: noqa: E501

import math

import torch
import torch.nn.functional as F
from torch import nn
from torch.func import functional_call, vmap

torch.manual_seed(0)


def sample_tasks(n, k, gen):
    a = torch.rand(n, 1, generator=gen) * 1.5 + 0.5
    b = torch.rand(n, 1, generator=gen) * math.pi
    x = torch.rand(n, k, generator=gen) * 2 * math.pi - math.pi
    return x, a * torch.sin(x + b), a, b


class TaskEncoder(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 2 * d), nn.GLU(dim=-1), nn.Linear(d, 2 * d), nn.GLU())

    def forward(self, x, y):
        return self.net(torch.stack([x, y], -1)).mean(1)


template = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1))
shapes = {n: p.shape for n, p in template.named_parameters()}
sizes = {n: p.numel() for n, p in template.named_parameters()}
print("target parameters", {n: tuple(s) for n, s in shapes.items()}, "total", sum(sizes.values()))


class HyperNet(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.enc = TaskEncoder(d)
        self.head = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, sum(sizes.values())))
        with torch.no_grad():
            self.head[-1].weight.mul_(0.1)

    def generate(self, x, y):
        flat = self.head(self.enc(x, y))
        chunks = flat.split(list(sizes.values()), dim=-1)
        return {n: c.reshape(-1, *shapes[n]) for n, c in zip(shapes, chunks)}

    def forward(self, x_ctx, y_ctx, x_q):
        params = self.generate(x_ctx, y_ctx)
        run = lambda p, xq: functional_call(template, p, (xq.unsqueeze(-1),)).squeeze(-1)
        return vmap(run)(params, x_q)


class FiLMNet(nn.Module):
    def __init__(self, d=16, h=32):
        super().__init__()
        self.enc = TaskEncoder(d)
        self.film = nn.Linear(d, 4 * h)
        self.l1, self.l2, self.out = nn.Linear(1, h), nn.Linear(h, h), nn.Linear(h, 1)
        self.norm = nn.GroupNorm(4, h)

    def forward(self, x_ctx, y_ctx, x_q):
        g1, b1, g2, b2 = self.film(self.enc(x_ctx, y_ctx)).unsqueeze(1).chunk(4, -1)
        h = torch.tanh((1 + g1) * self.l1(x_q.unsqueeze(-1)) + b1)
        B, Nq, C = h.shape
        h = self.norm(self.l2(h).reshape(B * Nq, C)).reshape(B, Nq, C)
        h = torch.tanh((1 + g2) * h + b2)
        return self.out(h).squeeze(-1)


gen = torch.Generator().manual_seed(0)
for name, model in [("hypernet", HyperNet()), ("film", FiLMNet())]:
    torch.manual_seed(1)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    for it in range(150):
        x, y, _, _ = sample_tasks(16, 20, gen)
        pred = model(x[:, :10], y[:, :10], x[:, 10:])
        loss = F.mse_loss(pred, y[:, 10:])
        opt.zero_grad()
        loss.backward()
        total = nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        if it % 50 == 0 or it == 149:
            print(f"{name} it {it:3d} loss {loss.item():.5f} grad norm {total.item():.4f}")
    x, y, a, b = sample_tasks(8, 40, torch.Generator().manual_seed(9))
    with torch.no_grad():
        test = F.mse_loss(model(x[:, :10], y[:, :10], x[:, 10:]), y[:, 10:]).item()
        zero_shot = F.mse_loss(torch.zeros_like(y[:, 10:]), y[:, 10:]).item()
    print(f"{name} test mse {test:.5f} (predicting 0: {zero_shot:.5f}) params {sum(p.numel() for p in model.parameters())}")

hyper = HyperNet()
x, y, _, _ = sample_tasks(4, 20, torch.Generator().manual_seed(3))
with torch.no_grad():
    gen_params = hyper.generate(x[:, :10], y[:, :10])
print("generated", {n: tuple(p.shape) for n, p in gen_params.items()})
print("generated weight std", [round(gen_params[n].std().item(), 5) for n in shapes])

# vmapped functional_call against a loop over tasks: values and hypernetwork gradients
out = hyper(x[:, :10], y[:, :10], x[:, 10:])
g_vmap = torch.autograd.grad(out.pow(2).sum(), list(hyper.parameters()))
params = hyper.generate(x[:, :10], y[:, :10])
loop = torch.stack([functional_call(template, {n: p[i] for n, p in params.items()}, (x[i, 10:].unsqueeze(-1),)).squeeze(-1) for i in range(4)])
g_loop = torch.autograd.grad(loop.pow(2).sum(), list(hyper.parameters()))
print("vmap == loop", torch.allclose(out, loop, atol=1e-6), "grads equal", all(torch.allclose(a, b, atol=1e-6) for a, b in zip(g_vmap, g_loop)))
print("template untouched", all(p.grad is None for p in template.parameters()))
print("glu", F.glu(torch.tensor([[1.0, 2.0, 0.0, -1.0]])).tolist())
