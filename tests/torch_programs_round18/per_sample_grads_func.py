"""Per-sample gradients and curvature with torch.func, as in the functorch tutorials: a model's
parameters as a dict, functional_call, grad over one sample vmapped over the batch (checked
against a Python loop of backward calls), per-sample gradient norms clipped DP-SGD style,
jacrev/jacfwd of the model's output, hessian of a loss in the parameters of a small layer, and
torch.autograd.functional.jacobian/hessian/vhp/hvp."""
# ruff: noqa: E501

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, hessian, jacfwd, jacrev, vmap

torch.manual_seed(11)
model = nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 3))
params = {k: v.detach() for k, v in model.named_parameters()}
x = torch.randn(5, 4)
y = torch.tensor([0, 2, 1, 1, 0])


def loss_one(p, xi, yi):
    out = functional_call(model, p, (xi[None],))
    return F.cross_entropy(out, yi[None])


per = vmap(grad(loss_one), in_dims=(None, 0, 0))(params, x, y)
print({k: tuple(v.shape) for k, v in per.items()})
loop = []
for i in range(5):
    model.zero_grad()
    F.cross_entropy(model(x[i:i + 1]), y[i:i + 1]).backward()
    loop.append(model[2].weight.grad.clone())
print("max |vmap - loop|", (per["2.weight"] - torch.stack(loop)).abs().max().item() < 1e-6)
print("per-sample bias grads", [round(v, 4) for v in per["2.bias"][:, 0].tolist()])

# DP-SGD: clip each sample's gradient to norm 1, average, add seeded noise
norms = torch.sqrt(sum((g.reshape(5, -1) ** 2).sum(1) for g in per.values()))
print("norms", [round(v, 4) for v in norms.tolist()])
factor = (1.0 / norms).clamp(max=1.0)
gen = torch.Generator().manual_seed(0)
dp = {k: (g * factor.view(-1, *[1] * (g.dim() - 1))).mean(0) + 0.01 * torch.randn(g.shape[1:], generator=gen) for k, g in per.items()}
print("dp bias", [round(v, 4) for v in dp["2.bias"].tolist()])

# Jacobians of the output in the input, both modes
f = lambda xi: functional_call(model, params, (xi,))  # noqa: E731
jr = jacrev(f)(x[0])
jf = jacfwd(f)(x[0])
print("jac", tuple(jr.shape), round(jr.sum().item(), 4), (jr - jf).abs().max().item() < 1e-6)
print("batched jac", tuple(vmap(jacrev(f))(x).shape))

# Hessian of a loss in the last layer's bias
def loss_b(b):
    p = dict(params)
    p["2.bias"] = b
    return F.cross_entropy(functional_call(model, p, (x,)), y)


H = hessian(loss_b)(params["2.bias"])
print("hessian", [[round(v, 4) for v in r] for r in H.tolist()])
print("hessian rows sum ~ 0", [round(v, 5) for v in H.sum(1).tolist()])

# torch.autograd.functional
def g(a, b):
    return (a.sin() * b).sum() + (a * b ** 2).prod()


a, b = torch.tensor([0.3, -0.7, 1.1]), torch.tensor([1.2, 0.4, -0.5])
Ja = torch.autograd.functional.jacobian(lambda a, b: a.exp() * b, (a, b))
print("jacobian", [[round(v, 4) for v in r] for r in Ja[0].tolist()], [round(v, 4) for v in Ja[1].diagonal().tolist()])
Hg = torch.autograd.functional.hessian(g, (a, b))
print("hessian blocks", [[round(v, 4) for v in r] for r in Hg[0][1].tolist()])
v = torch.tensor([1.0, 0.5, -1.0])
val, vhp = torch.autograd.functional.vhp(lambda a: g(a, b), a, v)
val2, hvp = torch.autograd.functional.hvp(lambda a: g(a, b), a, v)
print("vhp", round(val.item(), 5), [round(t, 4) for t in vhp.tolist()], "hvp", [round(t, 4) for t in hvp.tolist()])
