"""The pruning tutorial (random_unstructured, l1_unstructured, ln_structured, global_unstructured,
custom masks, prune.remove, forward pre-hooks and weight_orig/weight_mask in the state_dict),
activation checkpointing with torch.utils.checkpoint (checkpoint and checkpoint_sequential give
the same gradients), and torch.autocast on the CPU with bfloat16."""
# ruff: noqa: B007, E501  (written as the published program is)


import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils.prune as prune
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

torch.manual_seed(0)


class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 3, 3)
        self.conv2 = nn.Conv2d(3, 4, 3)
        self.fc1 = nn.Linear(4 * 2 * 2, 12)
        self.fc2 = nn.Linear(12, 5)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = x.view(-1, int(x.nelement() / x.shape[0]))
        return self.fc2(F.relu(self.fc1(x)))


model = LeNet()
module = model.conv1
print(list(module.named_parameters())[0][0], list(module.named_buffers()))
prune.random_unstructured(module, name="weight", amount=0.3)
print([n for n, _ in module.named_parameters()], [n for n, _ in module.named_buffers()])
print("mask zeros", int((module.weight_mask == 0).sum()), "weight zeros", int((module.weight == 0).sum()))
print("hooks", len(module._forward_pre_hooks))
prune.l1_unstructured(module, name="bias", amount=1)
print("bias", module.bias)
prune.ln_structured(module, name="weight", amount=0.5, n=2, dim=0)
print("channels kept", (module.weight.abs().sum((1, 2, 3)) > 0).tolist())
for hook in module._forward_pre_hooks.values():
    if hook._tensor_name == "weight":
        break
print("container", [type(h).__name__ for h in hook], hook._tensor_name)
print("state keys", list(model.state_dict().keys())[:5])
prune.remove(module, "weight")
print("after remove", [n for n, _ in module.named_parameters()], [n for n, _ in module.named_buffers()])
new_model = LeNet()
for name, m in new_model.named_modules():
    if isinstance(m, torch.nn.Conv2d):
        prune.l1_unstructured(m, name="weight", amount=0.2)
    elif isinstance(m, torch.nn.Linear):
        prune.l1_unstructured(m, name="weight", amount=0.4)
print("masks", sorted(dict(new_model.named_buffers()).keys()))
model = LeNet()
parameters_to_prune = ((model.conv1, "weight"), (model.conv2, "weight"), (model.fc1, "weight"), (model.fc2, "weight"))
prune.global_unstructured(parameters_to_prune, pruning_method=prune.L1Unstructured, amount=0.2)
for m, n in parameters_to_prune:
    w = getattr(m, n)
    print(f"sparsity {100.0 * float(torch.sum(w == 0)) / float(w.nelement()):.2f}%")
total = sum(float(torch.sum(getattr(m, n) == 0)) for m, n in parameters_to_prune)
print(f"global sparsity {100.0 * total / sum(getattr(m, n).nelement() for m, n in parameters_to_prune):.2f}%")


class FooBarPruningMethod(prune.BasePruningMethod):
    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t, default_mask):
        mask = default_mask.clone()
        mask.view(-1)[::2] = 0
        return mask


def foobar_unstructured(module, name):
    FooBarPruningMethod.apply(module, name)
    return module


m = nn.Linear(3, 4)
foobar_unstructured(m, name="bias")
print("foobar mask", m.bias_mask)
x = torch.randn(6, 1, 14, 14)
out = model(x)
out.sum().backward()
print("pruned grad zeros", int((model.fc2.weight_orig.grad == 0).sum()), int((model.fc2.weight_mask == 0).sum()))
prune.identity(m, "weight")
print("is_pruned", prune.is_pruned(m), prune.is_pruned(nn.Linear(1, 1)))

torch.manual_seed(1)
seq = nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 4))
inp = torch.randn(5, 8, requires_grad=True)
plain = seq(inp).pow(2).sum()
g_plain = torch.autograd.grad(plain, [inp, *seq.parameters()])
ck = checkpoint_sequential(seq, 2, inp, use_reentrant=False).pow(2).sum()
g_ck = torch.autograd.grad(ck, [inp, *seq.parameters()])
print("checkpoint_sequential", round(ck.item(), 5), max((a - b).abs().max().item() for a, b in zip(g_plain, g_ck)) < 1e-6)


def block(h):
    return torch.tanh(seq[2](h))


h = seq[1](seq[0](inp))
out = seq[4](checkpoint(block, h, use_reentrant=False)).pow(2).sum()
out.backward()
print("checkpoint", round(out.item(), 5), round(inp.grad.norm().item(), 5))

with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    y = seq[0](inp)
    z = torch.mm(y, y.t())
    s = F.softmax(z, dim=1)
    e = torch.exp(y)
    print("autocast", y.dtype, z.dtype, s.dtype, e.dtype, torch.is_autocast_enabled("cpu"))
print("after", seq[0](inp).dtype, torch.is_autocast_enabled("cpu"))
print("bf16 linear", [round(v, 3) for v in y[0, :4].float().tolist()])
with torch.autocast("cpu", dtype=torch.bfloat16, enabled=False):
    print("disabled", seq[0](inp).dtype)


@torch.autocast(device_type="cpu", dtype=torch.bfloat16)
def fwd(a):
    return seq(a)


out = fwd(inp)
print("decorated", out.dtype, round(out.float().sum().item(), 2))
loss = out.float().pow(2).mean()
seq.zero_grad()
loss.backward()
print("grad dtype", seq[0].weight.grad.dtype)
