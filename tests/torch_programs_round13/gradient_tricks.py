"""Gradient tricks from popular training code: clip_grad_norm_ with norm types 2/1/inf and
its returned total norm, clip_grad_value_, get_total_norm/clip_grads_with_norm_, a WGAN-GP
gradient penalty with create_graph, a gradient-reversal layer as an autograd.Function, the
straight-through estimator, F.gumbel_softmax (soft and hard) under a seed, a BYOL-style EMA
target with stop-gradient, gradient accumulation equivalence, and a per-parameter gradient
noise schedule."""
# ruff: noqa: E501

import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3))
x = torch.randn(16, 4)
y = torch.randint(0, 3, (16,))
for norm_type in [2.0, 1.0, float("inf")]:
    net.zero_grad()
    F.cross_entropy(net(x), y).backward()
    total = torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm=0.1, norm_type=norm_type)
    print(norm_type, total, net[0].weight.grad[0], torch.nn.utils.get_total_norm([p.grad for p in net.parameters()], norm_type))
net.zero_grad()
F.cross_entropy(net(x), y).backward()
torch.nn.utils.clip_grad_value_(net.parameters(), clip_value=0.02)
print(net[2].weight.grad, net[2].bias.grad)
net.zero_grad()
F.cross_entropy(net(x), y).backward()
grads = [p.grad for p in net.parameters()]
tn = torch.nn.utils.get_total_norm(grads)
torch.nn.utils.clip_grads_with_norm_(net.parameters(), 0.05, tn)
print(tn, torch.nn.utils.get_total_norm(grads))
net[0].weight.grad[0, 0] = float("nan")
try:
    torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0, error_if_nonfinite=True)
except RuntimeError as err:
    print("RuntimeError:", str(err)[:70])
print(torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0))

torch.manual_seed(1)
critic = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
real = torch.randn(8, 2) + 2
fake = torch.randn(8, 2)
alpha = torch.rand(8, 1)
inter = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
out = critic(inter)
g, = torch.autograd.grad(out, inter, grad_outputs=torch.ones_like(out), create_graph=True, retain_graph=True)
gp = ((g.norm(2, dim=1) - 1) ** 2).mean()
loss = critic(fake).mean() - critic(real).mean() + 10 * gp
loss.backward()
print(gp, loss, critic[0].weight.grad[:2], critic[2].bias.grad)


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lambd):
        ctx.lambd = lambd
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.neg() * ctx.lambd, None


feat = torch.randn(4, 3, requires_grad=True)
dom = nn.Linear(3, 2)
F.cross_entropy(dom(GradReverse.apply(feat, 0.5)), torch.tensor([0, 1, 1, 0])).backward()
print(feat.grad, dom.weight.grad)

w = torch.tensor([0.2, 1.7, -0.6, 2.5], requires_grad=True)
q = w + (torch.round(w) - w).detach()
(q * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
print(q, w.grad)
s = torch.randn(5, requires_grad=True)
sign_ste = s + (torch.sign(s) - s).detach()
(sign_ste.pow(2) * torch.arange(5.0)).sum().backward()
print(sign_ste, s.grad)

torch.manual_seed(2)
logits = torch.randn(3, 5, requires_grad=True)
soft = F.gumbel_softmax(logits, tau=0.5)
hard = F.gumbel_softmax(logits, tau=1.0, hard=True)
print(soft, hard)
(hard * torch.arange(5.0)).sum().backward()
print(logits.grad)

torch.manual_seed(3)
online = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 2))
target = copy.deepcopy(online)
for p in target.parameters():
    p.requires_grad_(False)
opt = torch.optim.SGD(online.parameters(), lr=0.1)
for step in range(3):
    v1, v2 = torch.randn(6, 4), torch.randn(6, 4)
    po = F.normalize(online(v1), dim=1)
    with torch.no_grad():
        pt = F.normalize(target(v2), dim=1)
    l = (2 - 2 * (po * pt).sum(1)).mean()
    opt.zero_grad()
    l.backward()
    opt.step()
    with torch.no_grad():
        for po_, pt_ in zip(online.parameters(), target.parameters()):
            pt_.mul_(0.9).add_(po_, alpha=0.1)
    print(step, l.item() if False else round(l.item(), 5), target[0].weight[0])

torch.manual_seed(4)
m1 = nn.Linear(3, 1)
m2 = copy.deepcopy(m1)
data = torch.randn(8, 3)
tgt = torch.randn(8, 1)
F.mse_loss(m1(data), tgt).backward()
for chunk, tchunk in zip(data.chunk(4), tgt.chunk(4)):
    (F.mse_loss(m2(chunk), tchunk) / 4).backward()
print(m1.weight.grad, m2.weight.grad, torch.allclose(m1.weight.grad, m2.weight.grad, atol=1e-6))
torch.manual_seed(5)
for t in range(1, 4):
    for p in m1.parameters():
        p.grad.add_(torch.randn_like(p) * (0.01 / (1 + t) ** 0.55))
print(m1.weight.grad, m1.bias.grad)
