"""Saving and restoring a pruned, hooked model as deployment scripts do: a forward hook that
collects activations, a full backward hook that records gradient norms, copy.deepcopy of a
pruned model (PyTorch's error after a forward in grad mode, then a copy with its pre-hooks), the state_dict with weight_orig/weight_mask through
torch.save/torch.load(weights_only=True) into a fresh model pruned with an identity mask,
prune.remove before export, parameters_to_vector, and sparsity reports."""
# ruff: noqa: B007, E501  (written as the published program is)


import copy
import io

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils.prune as prune

torch.manual_seed(21)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(10, 16)
        self.bn = nn.BatchNorm1d(16)
        self.fc2 = nn.Linear(16, 8)
        self.out = nn.Linear(8, 3)

    def forward(self, x):
        x = F.relu(self.bn(self.fc1(x)))
        x = F.relu(self.fc2(x))
        return self.out(x)


model = MLP()
acts, grad_norms = {}, []


def save_act(name):
    def hook(module, inp, out):
        acts[name] = out.detach()
    return hook


h1 = model.fc2.register_forward_hook(save_act("fc2"))
h2 = model.out.register_full_backward_hook(lambda m, gin, gout: grad_norms.append(round(gout[0].norm().item(), 5)))
for name, module in model.named_modules():
    if isinstance(module, nn.Linear):
        prune.l1_unstructured(module, name="weight", amount=0.4)
x = torch.randn(32, 10)
y = torch.randint(0, 3, (32,))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for step in range(5):
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.5f} fc2 act mean {acts['fc2'].mean().item():.5f}")
print("grad norms", grad_norms)
print("zeros kept", int((model.fc1.weight == 0).sum()), "of", model.fc1.weight.numel())
try:
    copy.deepcopy(model)  # module.weight is a non-leaf after a forward in grad mode
except RuntimeError as e:
    print("deepcopy:", str(e)[:60])
with torch.no_grad():  # recompute the pruned weights outside the graph, then deepcopy works
    for m in (model.fc1, model.fc2, model.out):
        m.weight = m.weight_orig * m.weight_mask
clone = copy.deepcopy(model)
print("clone pruned", prune.is_pruned(clone), len(clone.fc1._forward_pre_hooks))
model.eval()
clone.eval()
with torch.no_grad():
    print("clone equal", torch.equal(model(x), clone(x)))

buf = io.BytesIO()
torch.save(model.state_dict(), buf)
buf.seek(0)
state = torch.load(buf, weights_only=True)
print("keys", [k for k in state.keys() if k.startswith("fc1")])
fresh = MLP()
for module in (fresh.fc1, fresh.fc2, fresh.out):
    prune.identity(module, "weight")
missing = fresh.load_state_dict(state)
print(missing)
fresh.eval()
with torch.no_grad():
    print("restored equal", torch.allclose(fresh(x), model(x)))
for module in (fresh.fc1, fresh.fc2, fresh.out):
    prune.remove(module, "weight")
print("export keys", list(fresh.state_dict().keys()))
vec = nn.utils.parameters_to_vector(fresh.parameters())
print("params", vec.numel(), "zeros", int((vec == 0).sum()), f"sparsity {100.0 * float((vec == 0).sum()) / vec.numel():.2f}%")
h1.remove()
h2.remove()
acts.clear()
fresh(x[:4])
print("hooks removed", acts == {}, len(model.fc2._forward_hooks))
buf2 = io.BytesIO()
torch.save({"model": fresh.state_dict(), "epoch": 5, "acc": 0.75}, buf2)
buf2.seek(0)
ck = torch.load(buf2, weights_only=True)
print("checkpoint", ck["epoch"], ck["acc"], ck["model"]["bn.running_mean"][:3], ck["model"]["bn.num_batches_tracked"])
