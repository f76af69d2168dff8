"""torch.compile used as in the "Introduction to torch.compile" tutorial on the CPU (a decorator
on a function, on a module's forward, torch.compile(model), the same numbers as eager and as
training goes), torch._dynamo.reset, and the profiler recipe: torch.profiler.profile with
record_function labels and key_averages() (names and call counts only)."""
# ruff: noqa: B007, E501  (written as the published program is)

import torch
import torch.nn as nn
from torch.profiler import ProfilerActivity, profile, record_function

torch.manual_seed(0)


@torch.compile
def opt_foo(x, y):
    a = torch.sin(x)
    b = torch.cos(y)
    return a + b


def foo(x, y):
    return torch.sin(x) + torch.cos(y)


x, y = torch.randn(4, 4), torch.randn(4, 4)
print(torch.allclose(opt_foo(x, y), foo(x, y)), opt_foo(x, y)[0])


class MyModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(16, 16)

    def forward(self, x):
        return torch.nn.functional.relu(self.lin(x))


mod = MyModule()
opt_mod = torch.compile(mod)
t = torch.randn(8, 16)
print(type(opt_mod).__name__, torch.allclose(opt_mod(t), mod(t)), opt_mod(t).sum().item() == mod(t).sum().item())
print(list(dict(opt_mod.named_parameters()).keys()))

model = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 4))
compiled = torch.compile(model, mode="reduce-overhead")
optimizer = torch.optim.Adam(compiled.parameters(), lr=1e-2)
target = torch.randint(0, 4, (8,))
for step in range(5):
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(compiled(t), target)
    loss.backward()
    optimizer.step()
    print(step, f"{loss.item():.5f}")
print(torch.allclose(compiled(t), model(t)))
torch._dynamo.reset()


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 16)

    @torch.compile(fullgraph=False)
    def forward(self, x):
        return self.fc(x).tanh()


b = Block()
print(b(t)[0, :4])

with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
    with record_function("model_inference"):
        for _ in range(3):
            model(t)
    with record_function("loss_step"):
        l = model(t).square().mean()
        l.backward()
events = prof.key_averages()
names = {e.key: e.count for e in events}
print(names["model_inference"], names["loss_step"])
print("aten::linear" in names, names.get("aten::linear"))
print(f"{l.item():.6f}")
