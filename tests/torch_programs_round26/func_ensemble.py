"""Model ensembling and per-sample gradients with torch.func, as the torch.func tutorials
write them: five MLPs' parameters stacked by stack_module_state and run at once by
vmap(functional_call) (the same minibatch and a minibatch per model), checked against a loop;
per-sample gradients by vmap(grad) with buffers, their norms clipped as DP-SGD does; the
input-Jacobian by jacrev and jacfwd, a Hessian of the loss in the first layer's bias by
torch.func.hessian, and a Gauss-Newton vector product by jvp of vjp; then the ensemble trained
by one Adam on the stacked parameters."""
# ruff: noqa: E501

import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, hessian, jacfwd, jacrev, jvp, stack_module_state, vjp, vmap

torch.set_default_dtype(torch.float64)
torch.manual_seed(0)


class MLP(nn.Module):
    def __init__(self, d_in=6, h=16, classes=3):
        super().__init__()
        self.fc1 = nn.Linear(d_in, h)
        self.fc2 = nn.Linear(h, classes)
        self.register_buffer("scale", torch.tensor(0.5))

    def forward(self, x):
        return self.fc2(torch.tanh(self.fc1(x) * self.scale * 2))


models = [MLP() for _ in range(5)]
params, buffers = stack_module_state(models)
print("stacked:", {k: tuple(v.shape) for k, v in params.items()})
print("buffers:", {k: tuple(v.shape) for k, v in buffers.items()})
base = copy.deepcopy(models[0]).to("meta")


def fmodel(p, b, x):
    return functional_call(base, (p, b), (x,))


x = torch.randn(32, 6)
y = torch.randint(0, 3, (32,))
same = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, x)
loop = torch.stack([m(x) for m in models])
print("same minibatch:", tuple(same.shape), "matches loop:", torch.allclose(same, loop, atol=1e-12))
xs = torch.randn(5, 8, 6)
per = vmap(fmodel)(params, buffers, xs)
print("own minibatch matches loop:", torch.allclose(per, torch.stack([m(xi) for m, xi in zip(models, xs)]), atol=1e-12))
print("ensemble logits[0, :2]:", per[0, :2])

# per-sample gradients of model 0
m0 = models[0]
p0 = {k: v.detach() for k, v in m0.named_parameters()}
b0 = {k: v for k, v in m0.named_buffers()}


def sample_loss(p, b, xi, yi):
    out = functional_call(m0, (p, b), (xi.unsqueeze(0),))
    return F.cross_entropy(out, yi.unsqueeze(0))


ps_grads = vmap(grad(sample_loss), in_dims=(None, None, 0, 0))(p0, b0, x, y)
batch_loss = F.cross_entropy(m0(x), y, reduction="sum")
full = torch.autograd.grad(batch_loss, list(m0.parameters()))
print("per-sample grads sum to the batch gradient:", all(torch.allclose(ps_grads[k].sum(0), g, atol=1e-12) for k, g in zip(p0, full)))
norms = torch.sqrt(sum(g.flatten(1).pow(2).sum(1) for g in ps_grads.values()))
print("per-sample gradient norms:", norms[:6])
clip = (1.0 / norms).clamp(max=1.0)
noisy = {k: (g * clip.view(-1, *[1] * (g.dim() - 1))).sum(0) / 32 for k, g in ps_grads.items()}
print(f"clipped mean gradient norm {torch.sqrt(sum(v.pow(2).sum() for v in noisy.values())).item():.10f}")

# Jacobians with respect to the input
xi = x[0]
jr = jacrev(lambda t: m0(t))(xi)
jf = jacfwd(lambda t: m0(t))(xi)
print("jacobian", tuple(jr.shape), "rev == fwd:", torch.allclose(jr, jf, atol=1e-12))
print("jacobian row 0:", jr[0])
batched_j = vmap(jacrev(lambda t: m0(t)))(x[:4])
print("batched jacobian", tuple(batched_j.shape), f"norm {batched_j.norm().item():.10f}")


def loss_in_bias(bias):
    p = dict(p0, **{"fc1.bias": bias})
    return F.cross_entropy(functional_call(m0, (p, b0), (x,)), y)


H = hessian(loss_in_bias)(p0["fc1.bias"])
print("hessian", tuple(H.shape), "symmetric:", torch.allclose(H, H.T, atol=1e-12),
      f"trace {H.trace().item():.10f}", f"min eigenvalue {torch.linalg.eigvalsh(H)[0].item():.10f}")

# Gauss-Newton vector product: J^T H_out J v via jvp of the network and vjp
v = {k: torch.randn_like(t) for k, t in p0.items()}
net = lambda p: functional_call(m0, (p, b0), (x,))  # noqa: E731
z, jv = jvp(net, (p0,), (v,))
probs = z.softmax(-1)
hv_out = probs * jv - probs * (probs * jv).sum(-1, keepdim=True)
_, pull = vjp(net, p0)
(gnv,) = pull(hv_out / 32)
print(f"v^T G v = {sum((gnv[k] * v[k]).sum() for k in v).item():.10f} (non-negative)")

# train the ensemble together
params = {k: t.detach().clone().requires_grad_() for k, t in params.items()}
opt = torch.optim.Adam(params.values(), lr=0.01)
xt = torch.randn(200, 6)
yt = (xt[:, 0] + xt[:, 1] * xt[:, 2] > 0).long() + (xt[:, 3] > 1).long()
for step in range(1, 151):
    logits = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, xt)
    loss = F.cross_entropy(logits.reshape(-1, 3), yt.repeat(5), reduction="sum") / 200
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 0:
        with torch.no_grad():
            acc = (logits.argmax(-1) == yt).double().mean(1)
            ens = (logits.softmax(-1).mean(0).argmax(-1) == yt).double().mean()
        print(f"step {step} loss {loss.item():.8f} member accuracies {[round(a, 3) for a in acc.tolist()]} ensemble {ens.item():.3f}")
