"""The "Model ensembling" tutorial: several MLPs' parameters stacked by
torch.func.stack_module_state, a 'meta' base model from copy.deepcopy(...).to("meta"), one
vmap over functional_call with in_dims=(0, 0, None) (same minibatch) and (0, 0, 0) (a
minibatch per model), compared with the models run in a loop; then an ensemble trained with
vmap(grad) and a hand-written SGD step on the stacked parameters."""
# ruff: noqa: E501  (written as the published program is)

import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, stack_module_state, vmap

torch.manual_seed(0)


class SimpleMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 32)
        self.fc2 = nn.Linear(32, 16)
        self.fc3 = nn.Linear(16, 10)

    def forward(self, x):
        x = x.flatten(1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.fc2(x)
        x = F.relu(x)
        x = self.fc3(x)
        return x


device = "cpu"
num_models = 4
data = torch.randn(20, 64, 1, 28, 28, device=device)
targets = torch.randint(10, (6400,), device=device)
models = [SimpleMLP().to(device) for _ in range(num_models)]
minibatches = data[:num_models]
predictions_diff_minibatch_loop = [model(minibatch) for model, minibatch in zip(models, minibatches)]
minibatch = data[0]
predictions2 = [model(minibatch) for model in models]

params, buffers = stack_module_state(models)
print({k: (tuple(v.shape), v.requires_grad) for k, v in params.items()}, buffers)
base_model = copy.deepcopy(models[0])
base_model = base_model.to("meta")
print(base_model.fc1.weight.shape)


def fmodel(params, buffers, x):
    return functional_call(base_model, (params, buffers), (x,))


print([p.size(0) for p in params.values()])
minibatches = data[:num_models]
predictions1_vmap = vmap(fmodel)(params, buffers, minibatches)
print(predictions1_vmap.shape, predictions1_vmap.grad_fn is not None)
print(torch.allclose(predictions1_vmap, torch.stack(predictions_diff_minibatch_loop), atol=1e-3, rtol=1e-5))
predictions2_vmap = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatch)
print(torch.allclose(predictions2_vmap, torch.stack(predictions2), atol=1e-3, rtol=1e-5))
print(predictions2_vmap[:, 0, :4])

# train the ensemble: one vmap(grad) per step
params = {k: v.detach().clone() for k, v in params.items()}


def compute_loss(params, buffers, x, y):
    return F.cross_entropy(fmodel(params, buffers, x), y)


xs = data[:num_models, :16]
ys = targets[:num_models * 16].view(num_models, 16)
for step in range(5):
    losses = vmap(compute_loss)(params, buffers, xs, ys)
    grads = vmap(grad(compute_loss))(params, buffers, xs, ys)
    params = {k: p - 0.1 * grads[k] for k, p in params.items()}
    print(step, [round(v, 4) for v in losses.tolist()])
print({k: round(g.norm().item(), 4) for k, g in grads.items()})
# unstack into the models and check one against the vmapped output
for i, model in enumerate(models):
    model.load_state_dict({k: v[i] for k, v in params.items()})
print(torch.allclose(models[2](xs[2]), vmap(fmodel)(params, buffers, xs)[2], atol=1e-5))
