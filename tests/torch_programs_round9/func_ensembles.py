"""torch.func: functional_call, grad, vmap, jacrev/jacfwd/hessian, stack_module_state
ensembles, per-sample gradients (the torch.func tutorials, shrunk)."""

import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import (
    functional_call,
    grad,
    grad_and_value,
    hessian,
    jacfwd,
    jacrev,
    stack_module_state,
    vmap,
)

torch.manual_seed(0)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


model = MLP()
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
data = torch.randn(6, 4)
targets = torch.randint(0, 3, (6,))


def compute_loss(params, buffers, sample, target):
    batch = sample.unsqueeze(0)
    targets = target.unsqueeze(0)
    predictions = functional_call(model, (params, buffers), (batch,))
    return F.cross_entropy(predictions, targets)


ft_compute_grad = grad(compute_loss)
ft_compute_sample_grad = vmap(ft_compute_grad, in_dims=(None, None, 0, 0))
per_sample = ft_compute_sample_grad(params, buffers, data, targets)
for name, g in per_sample.items():
    print(name, tuple(g.shape), f"{g.norm().item():.5f}")

# per-sample gradients agree with a loop of backward()
manual = []
for i in range(6):
    model.zero_grad()
    F.cross_entropy(model(data[i : i + 1]), targets[i : i + 1]).backward()
    manual.append(model.fc1.weight.grad.clone())
print(
    "max diff vs loop",
    f"{(torch.stack(manual) - per_sample['fc1.weight']).abs().max().item():.2e}"
    if False
    else torch.allclose(torch.stack(manual), per_sample["fc1.weight"], atol=1e-6),
)

# ensembles
models = [MLP() for _ in range(4)]
ens_params, ens_buffers = stack_module_state(models)
print({k: tuple(v.shape) for k, v in ens_params.items()})
base_model = copy.deepcopy(models[0]).to("meta")


def fmodel(params, buffers, x):
    return functional_call(base_model, (params, buffers), (x,))


minibatch = torch.randn(5, 4)
preds = vmap(fmodel, in_dims=(0, 0, None))(ens_params, ens_buffers, minibatch)
print(preds.shape)
print(preds[:, 0])
print(torch.allclose(preds[2], models[2](minibatch), atol=1e-6))
minibatches = torch.randn(4, 5, 4)
print(vmap(fmodel)(ens_params, ens_buffers, minibatches).sum((1, 2)))

# Jacobians and Hessians


def f(x):
    return x.sin() * x.pow(2).sum()


x = torch.tensor([0.5, -1.0, 2.0])
print(jacrev(f)(x))
print(jacfwd(f)(x))
print(hessian(lambda x: (x**3).sum() * x[0])(x))
g, v = grad_and_value(lambda x: (x.exp() * x).sum())(x)
print(g, v)
J = vmap(jacrev(torch.tanh))(torch.randn(2, 3))
print(J.shape, J[1].diagonal())
print(jacrev(lambda p, x: functional_call(model, p, (x,)), argnums=0)(params, data[:1])["fc2.bias"])


# grad w.r.t. parameters with has_aux
def loss_aux(p, x, y):
    out = functional_call(model, p, (x,))
    return F.cross_entropy(out, y), out.argmax(-1)


(gr, aux) = grad(loss_aux, has_aux=True)(params, data, targets)
print(aux, f"{gr['fc1.bias'].sum().item():.6f}")
print(vmap(torch.dot)(torch.ones(3, 2), torch.arange(6.0).view(3, 2)))
print(vmap(lambda t: t.sum(0), in_dims=1, out_dims=0)(torch.arange(12.0).view(3, 4)))
print(vmap(torch.add, in_dims=(0, None))(torch.arange(3.0), 10.0))
