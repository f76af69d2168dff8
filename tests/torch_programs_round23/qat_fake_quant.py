"""Quantization-aware training (Jacob et al. 2018, the torch.ao.quantization QAT recipe written
out by hand, as in many repos): moving-average min/max observers (aminmax) giving affine uint8
activation qparams and symmetric per-channel int8 weight qparams, torch.fake_quantize_per_tensor_affine
on activations and torch.fake_quantize_per_channel_affine on weights with their
straight-through gradients, observers frozen after a few epochs, then an integer-only
inference (int8 weights and uint8 activations, int32 accumulation with torch.int32 matmul by
hand, requantization) checked against the fake-quantized model; and an LSQ quantizer (Esser et
al. 2020) with a learnable step size as a custom autograd.Function with gradient scaling.
In float64 (the fake-quantized values themselves are float32's, as PyTorch computes them): in
float32 a rounding difference moves a value across a quantization step within two epochs."""
# ruff: noqa: E501

import math

import torch
import torch.nn.functional as F
from torch import nn

torch.set_default_dtype(torch.float64)
torch.manual_seed(0)


class MinMaxObserver(nn.Module):
    def __init__(self, momentum=0.1):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("min_val", torch.tensor(float("inf")))
        self.register_buffer("max_val", torch.tensor(float("-inf")))
        self.enabled = True

    def forward(self, x):
        if self.enabled:
            mn, mx = torch.aminmax(x.detach())
            if torch.isinf(self.min_val):
                self.min_val.copy_(mn)
                self.max_val.copy_(mx)
            else:
                self.min_val.lerp_(mn, self.momentum)
                self.max_val.lerp_(mx, self.momentum)
        return x

    def qparams(self, qmin=0, qmax=255):
        mn, mx = self.min_val.clamp(max=0.0), self.max_val.clamp(min=0.0)
        scale = ((mx - mn) / (qmax - qmin)).clamp(min=1e-8)
        zero_point = (qmin - torch.round(mn / scale)).clamp(qmin, qmax).to(torch.int32)
        return scale, zero_point


class QATLinear(nn.Linear):
    def __init__(self, i, o, quantize_input=True):
        super().__init__(i, o)
        self.act_obs = MinMaxObserver()
        self.quant = False
        self.quantize_input = quantize_input

    def weight_qparams(self):
        amax = self.weight.detach().abs().amax(dim=1).clamp(min=1e-8)
        return (amax / 127.0).float(), torch.zeros(self.out_features, dtype=torch.int32)

    def forward(self, x):
        x = self.act_obs(x)
        if not self.quant:
            return F.linear(x, self.weight, self.bias)
        s, z = self.act_obs.qparams()
        xq = torch.fake_quantize_per_tensor_affine(x, s, z, 0, 255) if self.quantize_input else x
        ws, wz = self.weight_qparams()
        wq = torch.fake_quantize_per_channel_affine(self.weight, ws, wz, 0, -127, 127)
        return F.linear(xq, wq, self.bias)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2, self.fc3 = QATLinear(16, 48), QATLinear(48, 48), QATLinear(48, 4)

    def forward(self, x):
        return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))

    def layers(self):
        return [self.fc1, self.fc2, self.fc3]


gen = torch.Generator().manual_seed(0)
centers = torch.randn(4, 16, generator=gen) * 1.5
y = torch.randint(0, 4, (800,), generator=gen)
X = centers[y] + torch.randn(800, 16, generator=gen) * 3.2
Xtr, ytr, Xte, yte = X[:600], y[:600], X[600:], y[600:]


def accuracy(model, X, y):
    with torch.no_grad():
        return (model(X).argmax(1) == y).float().mean().item()


model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
for _ in range(15):
    for i in range(0, 600, 50):
        loss = F.cross_entropy(model(Xtr[i:i + 50]), ytr[i:i + 50])
        opt.zero_grad()
        loss.backward()
        opt.step()
print(f"float acc {accuracy(model, Xte, yte):.3f} loss {loss.item():.4f}")
print("observed ranges", [(round(lay.act_obs.min_val.item(), 3), round(lay.act_obs.max_val.item(), 3)) for lay in model.layers()])

for lay in model.layers():
    lay.quant = True
print(f"post-training fake-quant acc {accuracy(model, Xte, yte):.3f}")
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
for ep in range(6):
    if ep == 3:
        for lay in model.layers():
            lay.act_obs.enabled = False
    for i in range(0, 600, 50):
        loss = F.cross_entropy(model(Xtr[i:i + 50]), ytr[i:i + 50])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"qat epoch {ep} loss {loss.item():.4f} acc {accuracy(model, Xte, yte):.3f} fc1 scale {model.fc1.act_obs.qparams()[0].item():.5f} zp {model.fc1.act_obs.qparams()[1].item()}")

x = (torch.randn(6, 16) * 5).requires_grad_()
s, z = model.fc1.act_obs.qparams()
xq = torch.fake_quantize_per_tensor_affine(x, s, z, 0, 255)
xq.sum().backward()
print("ste mask", x.grad.sum().item(), "of", x.numel(), "clamped", ((x / s + z).round() < 0).sum().item() + ((x / s + z).round() > 255).sum().item())
print("grid", torch.allclose(((xq / s).round() * s), xq, atol=1e-6), "levels", torch.unique(torch.round(xq.detach() / s)).numel())


def integer_forward(model, X):
    layers = model.layers()
    s_in, z_in = layers[0].act_obs.qparams()
    a = torch.clamp(torch.round(X / s_in) + z_in, 0, 255).to(torch.int32)
    for k, lay in enumerate(layers):
        ws, _ = lay.weight_qparams()
        w_int = torch.clamp(torch.round(lay.weight.detach() / ws[:, None]), -127, 127).to(torch.int32)
        acc = (a - z_in).unsqueeze(1).mul(w_int.unsqueeze(0)).sum(-1, dtype=torch.int32)
        assert acc.dtype == torch.int32 and a.dtype == torch.int32
        real = acc.to(torch.float64) * (s_in * ws) + lay.bias.detach()
        if k == len(layers) - 1:
            return real
        real = F.relu(real)
        s_in, z_in = layers[k + 1].act_obs.qparams()
        a = torch.clamp(torch.round(real / s_in) + z_in, 0, 255).to(torch.int32)


with torch.no_grad():
    fq_logits = model(Xte)
    int_logits = integer_forward(model, Xte)
    print("max abs diff small", (fq_logits - int_logits).abs().max().item() < 1e-3)
    print(f"integer acc {(int_logits.argmax(1) == yte).float().mean().item():.3f} agree with fake-quant {(int_logits.argmax(1) == fq_logits.argmax(1)).float().mean().item():.3f}")


class LSQ(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, step, qmin, qmax, g):
        v = x / step
        ctx.save_for_backward(v, step)
        ctx.other = (qmin, qmax, g)
        return torch.clamp(torch.round(v), qmin, qmax) * step

    @staticmethod
    def backward(ctx, grad):
        v, step = ctx.saved_tensors
        qmin, qmax, g = ctx.other
        inside = (v >= qmin) & (v <= qmax)
        grad_x = grad * inside
        grad_step = torch.where(inside, torch.round(v) - v, torch.clamp(v, qmin, qmax)) * grad * g
        return grad_x, grad_step.sum().reshape(step.shape), None, None, None


w = torch.randn(64, generator=gen)
step = nn.Parameter(torch.tensor(2 * w.abs().mean().item() / math.sqrt(7)))
opt = torch.optim.Adam([step], lr=1e-2)
g = 1.0 / math.sqrt(w.numel() * 7)
for _ in range(50):
    loss = ((LSQ.apply(w, step, -8, 7, g) - w) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"lsq 4-bit step {step.item():.4f} mse {loss.item():.5f}")
fq = torch.fake_quantize_per_tensor_affine(w, step.item(), 0, -8, 7)
print("lsq matches fake_quantize", torch.allclose(LSQ.apply(w, step, -8, 7, g), fq, atol=1e-5))
