"""The "Complex numbers" tutorial: complex tensors from real pairs (view_as_complex,
view_as_real, torch.complex, torch.polar), abs/angle/conj/real/imag, complex matmul and
linalg, the conjugate Wirtinger gradients of a real loss of complex inputs (abs, angle,
abs**2, a complex linear layer), and fitting a complex filter with Adam."""
# ruff: noqa: B007, E501  (written as the published program is)

import torch

torch.manual_seed(0)
x = torch.randn(3, 2)
z = torch.view_as_complex(x)
print(z, z.dtype)
print(torch.view_as_real(z).shape, torch.view_as_real(z).stride())
print(z.real, z.imag)
print(z.abs(), z.angle())
print(torch.complex(torch.tensor([1.0, 2.0]), torch.tensor([-1.0, 0.5])))
print(torch.polar(torch.tensor([1.0, 2.0]), torch.tensor([0.0, 3.14159265 / 2])))
print(z.conj(), z.conj().resolve_conj())
w = torch.randn(2, 2, dtype=torch.cfloat)
print(w)
print(w @ w.mH)
print(torch.linalg.det(w), torch.linalg.inv(w))
print(torch.exp(z), torch.log(z), torch.sqrt(z))
print(torch.sigmoid(z))

# gradients of real losses of complex leaves: PyTorch gives the conjugate Wirtinger derivative
a = torch.tensor([1.0 + 2.0j, -0.5 + 0.3j, 2.0 - 1.0j], requires_grad=True)
a.abs().sum().backward()
print("grad abs", a.grad)
a.grad = None
a.angle().sum().backward()
print("grad angle", a.grad)
a.grad = None
(a * a.conj()).real.sum().backward()
print("grad |a|^2", a.grad)
a.grad = None
(a ** 2).imag.sum().backward()
print("grad imag(a^2)", a.grad)
a.grad = None
torch.view_as_real(a * (1 + 1j)).pow(2).sum().backward()
print("grad view_as_real", a.grad)

# a complex linear layer fitted to a complex filter
W_true = torch.randn(4, 4, dtype=torch.cfloat)
X = torch.randn(64, 4, dtype=torch.cfloat)
Y = X @ W_true.T
W = torch.zeros(4, 4, dtype=torch.cfloat, requires_grad=True)
opt = torch.optim.Adam([W], lr=0.05)
for step in range(60):
    opt.zero_grad()
    loss = (X @ W.T - Y).abs().pow(2).mean()
    loss.backward()
    opt.step()
    if step % 15 == 0:
        print(step, f"{loss.item():.5f}", W.grad.dtype)
print("error", f"{(W - W_true).abs().max().item():.4f}")

# complex-valued FFT filtering
sig = torch.randn(16)
spec = torch.fft.fft(sig)
spec[4:13] = 0
print(torch.fft.ifft(spec).real)
print(torch.isclose(torch.fft.ifft(torch.fft.fft(sig)).real, sig).all())
