"""Deployment-style inference code: torch.jit.script on a function with control flow and on a
module (with @torch.jit.export and @torch.jit.ignore methods), torch.jit.trace of a module with
example inputs, torch.jit.freeze of an eval-mode scripted module, is_scripting in a forward,
inference_mode versus no_grad (is_inference, requires_grad), model.eval() effects on
BatchNorm/Dropout, a float64 copy of the model, and batched predictions with softmax top-k."""
# ruff: noqa: B007, E501  (written as the published program is)

import torch
import torch.nn as nn
import torch.nn.functional as F


@torch.jit.script
def clipped_relu_sum(x: torch.Tensor, limit: float) -> torch.Tensor:
    total = torch.zeros(1)
    for i in range(x.size(0)):
        if bool(x[i].sum() > 0):
            total = total + x[i].clamp(max=limit).sum()
    return total


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.bn = nn.BatchNorm1d(8)
        self.drop = nn.Dropout(0.5)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        if torch.jit.is_scripting():
            x = x * 1.0
        return self.fc2(self.drop(F.relu(self.bn(self.fc1(x)))))

    @torch.jit.export
    def probs(self, x):
        return F.softmax(self.forward(x), dim=-1)

    @torch.jit.ignore
    def describe(self):
        return f"Net with {sum(p.numel() for p in self.parameters())} parameters"


torch.manual_seed(0)
x = torch.randn(5, 4)
print(clipped_relu_sum(x, 0.5), clipped_relu_sum(-x.abs(), 0.5))
model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
y = torch.tensor([0, 1, 2, 1, 0])
for step in range(5):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(round(loss.item(), 5), model.describe())
model.eval()
scripted = torch.jit.script(model)
seq = nn.Sequential(model.fc1, model.bn, nn.ReLU(), model.fc2).eval()
traced = torch.jit.trace(seq, torch.randn(2, 4))
with torch.no_grad():
    ref = model(x)
    print(ref)
    print(torch.allclose(scripted(x), ref), torch.allclose(traced(x), ref), torch.allclose(scripted.probs(x), F.softmax(ref, -1)))
frozen = torch.jit.freeze(torch.jit.script(model.eval()))
print(torch.allclose(frozen(x), ref))
with torch.inference_mode():
    out = model(x)
print(out.is_inference(), out.requires_grad, torch.is_inference_mode_enabled())
with torch.no_grad():
    out2 = model(x)
print(out2.is_inference(), out2.requires_grad, torch.equal(out, out2))
model.train()
torch.manual_seed(1)
print(model(x)[:2], model.bn.num_batches_tracked)
model.eval()
m64 = Net().double()
m64.load_state_dict({k: v.double() if v.is_floating_point() else v for k, v in model.state_dict().items()})
m64.eval()
print(m64(x.double())[:2], m64.fc1.weight.dtype)
with torch.no_grad():
    p = F.softmax(model(torch.randn(6, 4)), dim=1)
    top = p.topk(2, dim=1)
print(top.values, top.indices, p.argmax(1), p.max(1).values)
