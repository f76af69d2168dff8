"""MAML on sinusoid regression (Finn et al. 2017, the learn2learn / higher / torch.func
tutorials): tasks of random amplitude and phase, an inner loop of SGD on the fast weights by
torch.autograd.grad(create_graph=True) and torch.func.functional_call, the second-order
meta-gradient through the inner loop, first-order MAML (detached inner gradients), a batch of
tasks by torch.func.vmap over a functional inner loop with torch.func.grad, meta-Adam with
gradient clipping, and adaptation curves on held-out tasks against a pretrained baseline."""
# ruff: noqa: E501

import math
from collections import OrderedDict

import torch
import torch.nn.functional as F
from torch import nn
from torch.func import functional_call, grad, vmap

torch.manual_seed(0)


class Sinusoid:
    def __init__(self, gen):
        self.gen = gen

    def sample_task(self):
        amp = torch.empty(1).uniform_(0.1, 5.0, generator=self.gen).item()
        phase = torch.empty(1).uniform_(0, math.pi, generator=self.gen).item()
        return amp, phase

    def sample_data(self, task, n):
        amp, phase = task
        x = torch.empty(n, 1).uniform_(-5.0, 5.0, generator=self.gen)
        return x, amp * torch.sin(x - phase)


model = nn.Sequential(OrderedDict([("l1", nn.Linear(1, 40)), ("a1", nn.ReLU()), ("l2", nn.Linear(40, 40)), ("a2", nn.ReLU()), ("out", nn.Linear(40, 1))]))
params0 = {k: v.detach().clone() for k, v in model.named_parameters()}


def inner_adapt(params, x, y, steps=1, lr=0.01, first_order=False, net=None):
    fast = dict(params)
    for _ in range(steps):
        loss = F.mse_loss(functional_call(net or model, fast, (x,)), y)
        grads = torch.autograd.grad(loss, list(fast.values()), create_graph=not first_order)
        fast = {k: w - lr * g for (k, w), g in zip(fast.items(), grads)}
    return fast


gen = torch.Generator().manual_seed(1)
data = Sinusoid(gen)
task = data.sample_task()
xs, ys = data.sample_data(task, 10)
print("task", [round(v, 4) for v in task], "support", xs.shape, round(ys.mean().item(), 4))
params = dict(model.named_parameters())
fast = inner_adapt(params, xs, ys, steps=1)
xq, yq = data.sample_data(task, 10)
q_loss = F.mse_loss(functional_call(model, fast, (xq,)), yq)
g2 = torch.autograd.grad(q_loss, list(params.values()))
fast_fo = inner_adapt(params, xs, ys, steps=1, first_order=True)
q_fo = F.mse_loss(functional_call(model, fast_fo, (xq,)), yq)
g1 = torch.autograd.grad(q_fo, list(params.values()))
print("query loss", round(q_loss.item(), 4), round(q_fo.item(), 4))
print("meta-grad norms 2nd/1st order", round(torch.cat([g.flatten() for g in g2]).norm().item(), 4), round(torch.cat([g.flatten() for g in g1]).norm().item(), 4))
print("second-order part", round(sum((a - b).abs().sum() for a, b in zip(g2, g1)).item(), 5))

meta_opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for it in range(60):
    meta_opt.zero_grad()
    meta_loss = 0.0
    for _ in range(4):
        t = data.sample_task()
        xs, ys = data.sample_data(t, 10)
        xq, yq = data.sample_data(t, 10)
        fast = inner_adapt(dict(model.named_parameters()), xs, ys, steps=1, lr=0.01)
        meta_loss = meta_loss + F.mse_loss(functional_call(model, fast, (xq,)), yq)
    meta_loss = meta_loss / 4
    meta_loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 10.0)
    meta_opt.step()
    if it % 15 == 0 or it == 59:
        print(f"it {it:2d} meta loss {meta_loss.item():.4f} grad norm {gn.item():.4f}")


def task_loss(p, x, y):
    return F.mse_loss(functional_call(model, p, (x,)), y)


def adapt_functional(p, x, y, lr=0.01):
    g = grad(task_loss)(p, x, y)
    return {k: p[k] - lr * g[k] for k in p}


def query_after_adapt(p, xs, ys, xq, yq):
    return task_loss(adapt_functional(p, xs, ys), xq, yq)


tasks = [data.sample_task() for _ in range(5)]
XS, YS = zip(*[data.sample_data(t, 10) for t in tasks])
XQ, YQ = zip(*[data.sample_data(t, 10) for t in tasks])
XS, YS, XQ, YQ = map(torch.stack, (XS, YS, XQ, YQ))
p = {k: v.detach() for k, v in model.named_parameters()}
batched = vmap(query_after_adapt, in_dims=(None, 0, 0, 0, 0))(p, XS, YS, XQ, YQ)
looped = torch.stack([query_after_adapt(p, XS[i], YS[i], XQ[i], YQ[i]) for i in range(5)])
print("vmap task losses", [round(v, 4) for v in batched.tolist()], "match loop", torch.allclose(batched, looped, atol=1e-5))
meta_g = grad(lambda p: vmap(query_after_adapt, in_dims=(None, 0, 0, 0, 0))(p, XS, YS, XQ, YQ).mean())(p)
print("functional meta-grad", sorted(meta_g), round(meta_g["out.bias"].item(), 5), round(meta_g["l1.weight"].norm().item(), 5))

baseline = nn.Sequential(nn.Linear(1, 40), nn.ReLU(), nn.Linear(40, 40), nn.ReLU(), nn.Linear(40, 1))
baseline.load_state_dict({k.replace("l1", "0").replace("l2", "2").replace("out", "4"): v for k, v in params0.items()})
bopt = torch.optim.Adam(baseline.parameters(), lr=1e-3)
for _ in range(60):
    t = data.sample_task()
    x, y = data.sample_data(t, 20)
    loss = F.mse_loss(baseline(x), y)
    bopt.zero_grad()
    loss.backward()
    bopt.step()
test_task = (2.0, 0.5)
xs, ys = data.sample_data(test_task, 10)
xt = torch.linspace(-5, 5, 50).unsqueeze(1)
yt = 2.0 * torch.sin(xt - 0.5)
for name, net in (("maml", model), ("baseline", baseline)):
    p = {k: v.detach().requires_grad_() for k, v in net.named_parameters()}
    curve = []
    for _ in range(4):
        curve.append(round(F.mse_loss(functional_call(net, p, (xt,)), yt).item(), 4))
        p = {k: v.detach().requires_grad_() for k, v in inner_adapt(p, xs, ys, steps=1, lr=0.01, first_order=True, net=net).items()}
    print(name, "adaptation curve", curve)
