"""Module and tensor hooks (forward pre/post, full backward, tensor.register_hook, state-dict
friendly feature extraction) and parametrizations (weight_norm, spectral_norm, orthogonal,
a custom symmetric one via torch.nn.utils.parametrize)."""

import torch
import torch.nn as nn
import torch.nn.utils.parametrize as parametrize
from torch.nn.utils import parametrizations

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 5), nn.Tanh(), nn.Linear(5, 2))
log = []


def pre_hook(module, args):
    log.append(("pre", type(module).__name__, tuple(args[0].shape)))
    return (args[0] * 2,)


def fwd_hook(module, args, output):
    log.append(("fwd", type(module).__name__, round(output.sum().item(), 4)))
    return output + 1


def bwd_hook(module, grad_input, grad_output):
    log.append(("bwd", type(module).__name__, round(grad_output[0].abs().sum().item(), 4)))


h1 = net[0].register_forward_pre_hook(pre_hook)
h2 = net[2].register_forward_hook(fwd_hook)
h3 = net[1].register_full_backward_hook(bwd_hook)
x = torch.randn(3, 4, requires_grad=True)
y = net(x)
grads = []
y.register_hook(lambda g: grads.append(g.clone()))
x.register_hook(lambda g: g * 0.5)
y.pow(2).mean().backward()
print(y)
for entry in log:
    print(entry)
print(grads[0])
print(x.grad)
h1.remove(), h2.remove(), h3.remove()
print(torch.allclose(net(x), y), len(net[0]._forward_pre_hooks))

features = {}
net[1].register_forward_hook(lambda m, i, o: features.__setitem__("tanh", o.detach()))
net(torch.ones(1, 4))
print(features["tanh"])

# parametrizations


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


layer = nn.Linear(3, 3)
parametrize.register_parametrization(layer, "weight", Symmetric())
print(layer.weight)
print(parametrize.is_parametrized(layer), list(layer.parametrizations.keys()))
print(sorted(layer.state_dict().keys()))
opt = torch.optim.SGD(layer.parameters(), lr=0.1)
for _ in range(3):
    opt.zero_grad()
    layer(torch.ones(2, 3)).pow(2).sum().backward()
    opt.step()
print(layer.weight, torch.equal(layer.weight, layer.weight.T))
parametrize.remove_parametrizations(layer, "weight", leave_parametrized=True)
print(type(layer.weight).__name__, parametrize.is_parametrized(layer))

wn = parametrizations.weight_norm(nn.Linear(4, 3))
print(wn.parametrizations.weight.original0.shape, wn.parametrizations.weight.original1.shape)
print(wn.parametrizations.weight.original0.flatten())
out = wn(torch.ones(2, 4)).sum()
out.backward()
print(wn.parametrizations.weight.original0.grad.flatten(), wn.parametrizations.weight.original1.grad[0])

sn = parametrizations.spectral_norm(nn.Linear(5, 4))
for _ in range(5):
    sn(torch.randn(2, 5))
print(
    torch.linalg.matrix_norm(sn.weight, 2).item() < 1.0 + 1e-3,
    f"{torch.linalg.svdvals(sn.weight.detach())[0].item():.4f}",
)
sn.eval()
print(sn.weight[0])

orth = parametrizations.orthogonal(nn.Linear(4, 4))
Q = orth.weight
print(torch.allclose(Q @ Q.T, torch.eye(4), atol=1e-5), f"{torch.linalg.det(Q).abs().item():.4f}")
