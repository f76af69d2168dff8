"""Signal processing with torch.fft as DSP tutorials write it: fft/ifft/rfft/irfft with n and
norm ("backward", "ortho", "forward"), fft2/rfft2/fftn over chosen dims, fftshift/ifftshift,
fftfreq/rfftfreq, hfft/ihfft, a low-pass filter in the frequency domain, convolution by FFT
checked against conv1d, the power spectrum of a noisy sine, window functions
(hann/hamming/blackman/kaiser/bartlett), and gradients through rfft/irfft."""
# ruff: noqa: E501

import torch
import torch.nn.functional as F

t = torch.arange(16.0)
x = torch.sin(2 * torch.pi * 3 * t / 16) + 0.5 * torch.cos(2 * torch.pi * 5 * t / 16)
X = torch.fft.fft(x)
print(X.abs().round(decimals=4), X.dtype)
for norm in ["backward", "ortho", "forward"]:
    print(norm, torch.view_as_real(torch.fft.rfft(x, norm=norm)[:6]).round(decimals=4) + 0, torch.fft.irfft(torch.fft.rfft(x, norm=norm), n=16, norm=norm)[:3])
print(torch.fft.rfft(x, n=10), torch.fft.irfft(torch.fft.rfft(x), n=20)[:5], torch.fft.ifft(X).real[:4])
print(torch.fft.fftfreq(8), torch.fft.fftfreq(5, d=0.1), torch.fft.rfftfreq(8, 0.5), torch.fft.fftshift(torch.arange(6)), torch.fft.ifftshift(torch.arange(7)))
img = torch.arange(24.0).reshape(4, 6) ** 0.5
print(torch.fft.fft2(img)[:2, :3], torch.fft.rfft2(img).shape, torch.fft.irfft2(torch.fft.rfft2(img), s=(4, 6))[0].round(decimals=4) + 0)
print(torch.fft.fftn(img.reshape(2, 2, 6), dim=(0, 2))[1, 0, :2], torch.fft.ifftn(torch.fft.fftn(img)).real[1, :3], torch.fft.fftshift(torch.fft.fft2(img), dim=(-2, -1)).abs()[0, :3])
print(torch.fft.hfft(torch.tensor([1.0, 2.0 - 1j, 0.5j])), torch.fft.ihfft(torch.tensor([1.0, 2.0, 3.0, 4.0])))
cx = torch.tensor([1 + 1j, 2 - 1j, 0.5j, -1.0], dtype=torch.complex64)
print(torch.fft.fft(cx, norm="ortho"), torch.fft.ifft(cx, n=6))

torch.manual_seed(0)
sig = torch.sin(2 * torch.pi * 4 * torch.arange(64.0) / 64) + 0.3 * torch.randn(64)
S = torch.fft.rfft(sig)
freqs = torch.fft.rfftfreq(64, d=1 / 64)
S_f = torch.where(freqs <= 6, S, torch.zeros_like(S))
clean = torch.fft.irfft(S_f, n=64)
print(clean[:6], (S.abs() ** 2 / 64)[:8], freqs[(S.abs() ** 2).argmax()])
a = torch.randn(20)
k = torch.randn(5)
n = 20 + 5 - 1
via_fft = torch.fft.irfft(torch.fft.rfft(a, n=n) * torch.fft.rfft(k, n=n), n=n)
via_conv = F.conv1d(a.view(1, 1, -1), k.flip(0).view(1, 1, -1), padding=4).view(-1)
print((via_fft - via_conv).abs().max() < 1e-4, via_fft[:4])
for w in [torch.hann_window(8), torch.hann_window(8, periodic=False), torch.hamming_window(7), torch.blackman_window(6), torch.kaiser_window(6, True, 8.0), torch.bartlett_window(5)]:
    print(w)
print(torch.signal.windows.gaussian(5, std=1.0), torch.signal.windows.cosine(4), torch.signal.windows.exponential(5, tau=2.0))

z = torch.randn(16, requires_grad=True)
spec = torch.fft.rfft(z)
loss = (spec.abs() ** 2)[1:4].sum() / 10 + torch.fft.irfft(spec * torch.linspace(1, 0, 9), n=16).pow(2).sum()
loss.backward()
print(z.grad)
w2 = torch.randn(4, 6, requires_grad=True)
torch.fft.fft2(w2).abs().sum().backward()
print(w2.grad[0])
c2 = torch.randn(5, dtype=torch.complex64, requires_grad=True)
torch.fft.ifft(c2, norm="ortho").real.pow(2).sum().backward()
print(torch.view_as_real(c2.grad).round(decimals=4) + 0)
