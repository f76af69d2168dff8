"""Mixed precision on the CPU as in the "Automatic Mixed Precision" recipe: torch.autocast
("cpu", dtype=torch.bfloat16) around the forward (matmul and linear in bfloat16, softmax and
losses in float32), the output dtypes, a training loop with float32 master weights, nested
autocast(enabled=False), bfloat16 tensors and their rounding, and GradScaler's no-op on the CPU."""
# ruff: noqa: B007, E501  (written as the published program is)

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
a = torch.randn(4, 8)
b = torch.randn(8, 3)
with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    c = a @ b
    d = torch.mm(a, b)
    e = F.softmax(c, dim=-1)
    s = c.float().sum()
    lin = nn.Linear(8, 3)(a)
    print(torch.is_autocast_enabled("cpu"), torch.get_autocast_dtype("cpu"))
    with torch.autocast(device_type="cpu", enabled=False):
        f32 = a @ b
print(c.dtype, d.dtype, e.dtype, s.dtype, lin.dtype, f32.dtype)
print(c)
print((c.float() - a @ b).abs().max() < 0.1)

x = torch.tensor([1.0, 1.001, 1.01, 3.14159, 1000.5, 1e-3, 65504.0, 3e38])
xb = x.to(torch.bfloat16)
print(xb)
print(xb.float())
print(torch.finfo(torch.bfloat16))
print((xb + xb).dtype, (xb * 2.5).dtype, (xb + torch.ones(1)).dtype, xb.sum(), xb[:4].mean())

model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
scaler = torch.amp.GradScaler("cpu", enabled=False)
data = torch.randn(64, 8)
target = (data[:, 0] > 0).long() + (data[:, 1] > 0.5).long()
for epoch in range(6):
    opt.zero_grad()
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        out = model(data)
        loss = F.cross_entropy(out, target)
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    print(epoch, out.dtype, loss.dtype, f"{loss.item():.2f}", model[0].weight.grad.dtype)
print(model[0].weight.dtype, scaler.is_enabled(), scaler.get_scale())

# a bfloat16 model outright
m16 = nn.Linear(8, 3).to(torch.bfloat16)
y16 = m16(data[:2].bfloat16())
print(m16.weight.dtype, y16.dtype, y16.shape)
print(torch.tensor([0.1, 0.2, 0.3], dtype=torch.bfloat16).sum(), torch.tensor(256.0, dtype=torch.bfloat16) + 1)


# a custom Function kept in float32 under autocast (the AMP examples' custom_fwd/custom_bwd)
class MyMM(torch.autograd.Function):
    @staticmethod
    @torch.amp.custom_fwd(device_type="cpu", cast_inputs=torch.float32)
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a.mm(b)

    @staticmethod
    @torch.amp.custom_bwd(device_type="cpu")
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return grad.mm(b.t()), a.t().mm(grad)


class Plain(torch.autograd.Function):
    @staticmethod
    @torch.amp.custom_fwd(device_type="cpu")
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a.mm(b)

    @staticmethod
    @torch.amp.custom_bwd(device_type="cpu")
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        print("backward autocast", torch.is_autocast_enabled("cpu"), grad.dtype)
        return grad.mm(b.t()), a.t().mm(grad)


a = torch.randn(3, 4, requires_grad=True)
b = torch.randn(4, 2, requires_grad=True)
with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    out = MyMM.apply(a.bfloat16(), b)
    out2 = Plain.apply(a, b)
    print(torch.get_autocast_cpu_dtype(), torch.is_autocast_cpu_enabled())
print(out.dtype, out2.dtype, out)
out.sum().backward()
print(a.grad.dtype, a.grad[0], b.grad[:, 0])
out2.float().sum().backward()
print(a.grad[0])
print(MyMM.apply(a, b).dtype, torch.get_autocast_cpu_dtype())
