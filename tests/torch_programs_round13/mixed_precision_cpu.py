"""Mixed dtypes on the CPU as precision-study notebooks run them: float16/bfloat16 tensor
arithmetic and reductions (sum/mean/cumsum/softmax keep the dtype), matmul in half,
conversions between float16/bfloat16/float32/float64 and their rounding (round to nearest
even, overflow to inf, subnormals), finfo/iinfo, a float64 model and a bfloat16 copy of it,
autocast on the CPU with bfloat16 (matmul low, softmax/loss float32), loss scaling by hand,
and gradients in half precision."""
# ruff: noqa: E501

import torch
import torch.nn as nn

for dt in [torch.float16, torch.bfloat16, torch.float32, torch.float64]:
    fi = torch.finfo(dt)
    print(dt, fi.eps, fi.max, fi.tiny, fi.bits, fi.resolution)
print(torch.iinfo(torch.int8).min, torch.iinfo(torch.int16).max, torch.iinfo(torch.uint8).max, torch.iinfo(torch.int64).bits)
vals = torch.tensor([1.0, 1.0009765625, 1.00048828125, 1.000732421875, 65504.0, 65520.0, 1e-5, 6e-8, 3.0e-8, 70000.0])
print(vals.half(), vals.bfloat16(), vals.half().float(), vals.bfloat16().float())
print(torch.tensor([0.1, 0.2, 0.3]).half().double(), torch.tensor(1 / 3, dtype=torch.float64).float().item(), torch.tensor(2 ** 24 + 1, dtype=torch.float64).float().item())
torch.manual_seed(0)
h = torch.randn(64, dtype=torch.float16)
b = torch.randn(64).bfloat16()
print(h.sum(), h.mean(), h.std(), h.cumsum(0)[-3:], h.max(), h.norm(), h.prod().dtype, h.float().sum())
print(b.sum(), b.mean(), b.var(), b.cumsum(0)[-3:], torch.softmax(b[:6], 0), torch.log_softmax(h[:5], 0))
A = torch.randn(8, 8).half()
B = torch.randn(8, 8).half()
print((A @ B)[0, :4], (A.float() @ B.float())[0, :4], torch.mm(A.bfloat16(), B.bfloat16())[0, :4])
print((h[:4] + b[:4]).dtype, (h[:4] + 1.5).dtype, (h[:4] * torch.tensor(2.0)).dtype, (b[:2] + torch.tensor([1], dtype=torch.int64)).dtype, (h[:2] + b[:2]))
print(torch.tensor([1000.0], dtype=torch.float16) * 100, torch.tensor([1e-4], dtype=torch.float16) * torch.tensor([1e-4], dtype=torch.float16), torch.tensor([60000.0], dtype=torch.float16) + torch.tensor([10000.0], dtype=torch.float16))
print(torch.exp(torch.tensor([10.0, 12.0], dtype=torch.float16)), torch.sigmoid(h[:3]), torch.tanh(b[:3]), torch.sqrt(h[:3].abs()), h[:3].reciprocal(), (h[:3] / 3), b[:3] ** 2)

torch.manual_seed(1)
net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)).double()
x = torch.randn(5, 4, dtype=torch.float64)
print(net(x), net[0].weight.dtype)
bnet = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
bnet.load_state_dict({k: v.float() for k, v in net.state_dict().items()})
bnet = bnet.to(torch.bfloat16)
print(bnet(x.bfloat16()), bnet[2].bias.dtype)
with torch.autocast("cpu", dtype=torch.bfloat16):
    y = net.float()(x.float())
    sm = torch.softmax(y, 1)
    loss = nn.functional.cross_entropy(y, torch.tensor([0, 1, 0, 1, 1]))
print(y.dtype, sm.dtype, loss.dtype, y, loss)
hnet = nn.Linear(4, 2).half()
hx = torch.randn(3, 4).half()
out = hnet(hx)
scale = 1024.0
(out.float().pow(2).sum() * scale).backward()
print(out, hnet.weight.grad.dtype, hnet.weight.grad / scale, hnet.bias.grad / scale)
hp = torch.tensor([0.5, 1.5, 2.5], dtype=torch.float16, requires_grad=True)
(hp * hp.exp()).sum().backward()
print(hp.grad)
bp = torch.tensor([0.5, 1.5, 2.5], dtype=torch.bfloat16, requires_grad=True)
(bp.log() * bp).sum().backward()
print(bp.grad, torch.tensor([1, 2, 3], dtype=torch.int32).float().dtype, torch.tensor([1.7, -1.7]).to(torch.int32), torch.tensor([1.7, -2.5]).to(torch.float16).to(torch.int8))
