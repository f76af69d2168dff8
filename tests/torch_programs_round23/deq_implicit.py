"""A deep equilibrium model (Bai et al. 2019, the implicit-layers tutorial of Kolter, Duvenaud
and Johnson): the layer's output is the fixed point z* = tanh(W z + U x + b), found without
autograd by Anderson acceleration (torch.linalg.solve on the bordered Gram system, bmm, in
torch.no_grad), then re-engaged once with autograd; the backward pass solves the implicit
adjoint equation g = J^T g + grad by fixed-point iteration, registered as a tensor hook whose
vector-Jacobian products come from torch.autograd.grad(retain_graph=True).  The implicit
gradients are checked against unrolled backpropagation and finite differences; then the model
is trained as a classifier on spirals with Adam, the weight rescaled to spectral norm <= 0.9
after each step (torch.linalg.matrix_norm(ord=2)), in float64."""
# ruff: noqa: E501, B007

import math

import torch
import torch.nn.functional as F
from torch import nn

torch.set_default_dtype(torch.float64)
torch.manual_seed(0)


def anderson(f, x0, m=5, lam=1e-4, max_iter=60, tol=1e-10, beta=1.0):
    bsz, d = x0.shape
    X = torch.zeros(bsz, m, d)
    Fx = torch.zeros(bsz, m, d)
    X[:, 0], Fx[:, 0] = x0, f(x0)
    X[:, 1], Fx[:, 1] = Fx[:, 0], f(Fx[:, 0])
    H = torch.zeros(bsz, m + 1, m + 1)
    H[:, 0, 1:] = H[:, 1:, 0] = 1
    y = torch.zeros(bsz, m + 1, 1)
    y[:, 0] = 1
    res = []
    for k in range(2, max_iter):
        n = min(k, m)
        G = Fx[:, :n] - X[:, :n]
        H[:, 1:n + 1, 1:n + 1] = torch.bmm(G, G.transpose(1, 2)) + lam * torch.eye(n)[None]
        alpha = torch.linalg.solve(H[:, :n + 1, :n + 1], y[:, :n + 1])[:, 1:n + 1, 0]
        X[:, k % m] = beta * (alpha[:, None] @ Fx[:, :n])[:, 0] + (1 - beta) * (alpha[:, None] @ X[:, :n])[:, 0]
        Fx[:, k % m] = f(X[:, k % m])
        res.append((Fx[:, k % m] - X[:, k % m]).norm().item() / (1e-5 + Fx[:, k % m].norm().item()))
        if res[-1] < tol:
            break
    return X[:, k % m], res


class TanhFixedPoint(nn.Module):
    def __init__(self, d_in, d):
        super().__init__()
        self.linear = nn.Linear(d, d, bias=False)
        self.inj = nn.Linear(d_in, d)
        with torch.no_grad():
            self.linear.weight.mul_(0.5)

    def f(self, z, x):
        return torch.tanh(self.linear(z) + self.inj(x))


class DEQ(nn.Module):
    def __init__(self, layer, **kw):
        super().__init__()
        self.layer, self.kw = layer, kw
        self.fwd_res, self.bwd_iters = [], []

    def forward(self, x):
        with torch.no_grad():
            z, self.fwd_res = anderson(lambda z: self.layer.f(z, x), torch.zeros(x.size(0), self.layer.linear.in_features), **self.kw)
        z = self.layer.f(z, x)
        z0 = z.clone().detach().requires_grad_()
        f0 = self.layer.f(z0, x)

        def backward_hook(grad):
            g = grad
            for it in range(200):
                g_new = torch.autograd.grad(f0, z0, g, retain_graph=True)[0] + grad
                if (g_new - g).norm() < 1e-10:
                    break
                g = g_new
            self.bwd_iters.append(it)
            return g_new

        if z.requires_grad:
            z.register_hook(backward_hook)
        return z


def unrolled(layer, x, steps=200):
    z = torch.zeros(x.size(0), layer.linear.in_features)
    for _ in range(steps):
        z = layer.f(z, x)
    return z


layer = TanhFixedPoint(2, 12)
deq = DEQ(layer)
x = torch.randn(6, 2)
z = deq(x)
print("anderson iterations", len(deq.fwd_res), "residual < 1e-10", deq.fwd_res[-1] < 1e-10)
print("fixed point error below 1e-9", (layer.f(z, x) - z).abs().max().item() < 1e-9)
target = torch.randn(6, 12)
loss = ((z - target) ** 2).sum()
loss.backward()
g_implicit = [p.grad.clone() for p in layer.parameters()]
print("backward iterations", deq.bwd_iters[-1] > 5)
layer.zero_grad()
((unrolled(layer, x) - target) ** 2).sum().backward()
g_unrolled = [p.grad.clone() for p in layer.parameters()]
print("implicit vs unrolled", all(torch.allclose(a, b, atol=1e-8) for a, b in zip(g_implicit, g_unrolled)))
with torch.no_grad():
    eps = 1e-6
    w = layer.inj.bias
    w[3] += eps
    lp = ((deq(x) - target) ** 2).sum()
    w[3] -= 2 * eps
    lm = ((deq(x) - target) ** 2).sum()
    w[3] += eps
print(f"finite difference {((lp - lm) / (2 * eps)).item():.6f} implicit {g_implicit[2][3].item():.6f}")

gen = torch.Generator().manual_seed(1)
n = 200
t = torch.rand(n, generator=gen) * 3 * math.pi
labels = torch.randint(0, 2, (n,), generator=gen)
r = t / (3 * math.pi)
pts = 3 * torch.stack([r * torch.cos(t + math.pi * labels), r * torch.sin(t + math.pi * labels)], 1) + 0.02 * torch.randn(n, 2, generator=gen)
model = nn.ModuleDict({"deq": DEQ(TanhFixedPoint(2, 24), m=4), "head": nn.Linear(24, 2)})
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(80):
    logits = model["head"](model["deq"](pts))
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():  # keep the layer a contraction: both iterations converge
        W = model["deq"].layer.linear.weight
        W.mul_(0.9 / torch.linalg.matrix_norm(W, ord=2).clamp(min=0.9))
    if step % 20 == 0 or step == 79:
        spec = torch.linalg.matrix_norm(model["deq"].layer.linear.weight, ord=2).item()
        print(f"step {step:2d} loss {loss.item():.4f} acc {(logits.argmax(1) == labels).double().mean().item():.3f} fwd iters {len(model['deq'].fwd_res)} bwd iters {model['deq'].bwd_iters[-1]} |W|_2 {spec:.3f}")
