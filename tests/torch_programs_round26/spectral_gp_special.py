"""Spectral methods, linear algebra and special functions in one workload: a signal denoised
by an FFT low-pass filter (rfft/irfft, rfftfreq, fftshift), circular convolution by FFT
against a direct sum, a 2-D spectrum by fft2/ifft2, a short-time Fourier transform and its
inverse; Gaussian-process regression with a Matern-3/2 kernel (cholesky, cholesky_solve,
solve_triangular, slogdet) whose marginal likelihood is maximised by Adam through the
Cholesky factor, checked against eigh and lstsq; a von Mises log-likelihood with
torch.special.i0e / i1e, a Student-t by gammaln, digamma and polygamma, and erfcx-based
Mills ratios."""
# ruff: noqa: E501

import math

import torch

torch.set_default_dtype(torch.float64)
torch.manual_seed(0)

# FFT denoising
n = 256
t = torch.arange(n) / n
clean = torch.sin(2 * math.pi * 5 * t) + 0.5 * torch.cos(2 * math.pi * 12 * t)
noisy = clean + 0.4 * torch.randn(n)
spec = torch.fft.rfft(noisy)
freqs = torch.fft.rfftfreq(n, d=1 / n)
print("rfft bins", spec.shape[0], "| strongest frequencies:", freqs[spec.abs().topk(2).indices].tolist())
filtered = torch.fft.irfft(spec * (freqs <= 20), n=n)
print(f"noise rms {(noisy - clean).pow(2).mean().sqrt().item():.8f} filtered rms {(filtered - clean).pow(2).mean().sqrt().item():.8f}")
print("Parseval:", torch.allclose(noisy.pow(2).sum(), torch.fft.fft(noisy).abs().pow(2).sum() / n))
print("fftshift of fftfreq(6):", torch.fft.fftshift(torch.fft.fftfreq(6)).tolist())
a, b = torch.randn(16), torch.randn(16)
circ = torch.fft.irfft(torch.fft.rfft(a) * torch.fft.rfft(b), n=16)
direct = torch.stack([sum(a[j] * b[(k - j) % 16] for j in range(16)) for k in range(16)])
print("circular convolution by FFT equals the direct sum:", torch.allclose(circ, direct, atol=1e-12))
img = torch.randn(8, 8)
F2 = torch.fft.fft2(img)
print("fft2 round trip:", torch.allclose(torch.fft.ifft2(F2).real, img, atol=1e-12), f"| DC term {F2[0, 0].real.item():.10f} = sum {img.sum().item():.10f}")
win = torch.hann_window(32, periodic=True)
S = torch.stft(noisy, n_fft=32, hop_length=8, window=win, return_complex=True)
print("stft", tuple(S.shape), f"| energy {S.abs().pow(2).sum().item():.8f}")
rec = torch.istft(S, n_fft=32, hop_length=8, window=win, length=n)
print("istft reconstructs:", torch.allclose(rec, noisy, atol=1e-10))

# Gaussian process with a Matern-3/2 kernel
X = torch.rand(40, 1) * 6
f = lambda x: torch.sin(x) + 0.3 * x  # noqa: E731
Y = f(X).squeeze(1) + 0.1 * torch.randn(40)


def matern32(A, B, ls, var):
    r = torch.cdist(A, B) / ls
    return var * (1 + math.sqrt(3) * r) * torch.exp(-math.sqrt(3) * r)


raw = torch.zeros(3, requires_grad=True)  # log lengthscale, log variance, log noise
opt = torch.optim.Adam([raw], lr=0.05)
for step in range(1, 151):
    ls, var, noise = raw.exp()
    K = matern32(X, X, ls, var) + (noise + 1e-6) * torch.eye(40)
    L = torch.linalg.cholesky(K)
    alpha = torch.cholesky_solve(Y.unsqueeze(1), L)
    nlml = 0.5 * Y @ alpha.squeeze(1) + L.diagonal().log().sum() + 20 * math.log(2 * math.pi)
    opt.zero_grad()
    nlml.backward()
    opt.step()
    if step % 50 == 0:
        print(f"GP step {step} nlml {nlml.item():.8f} lengthscale {ls.item():.6f} variance {var.item():.6f} noise {noise.item():.6f}")
with torch.no_grad():
    ls, var, noise = raw.exp()
    K = matern32(X, X, ls, var) + (noise + 1e-6) * torch.eye(40)
    L = torch.linalg.cholesky(K)
    sign, logdet = torch.linalg.slogdet(K)
    evals, evecs = torch.linalg.eigh(K)
    print("logdet by cholesky == slogdet == eigh:", torch.allclose(2 * L.diagonal().log().sum(), logdet), torch.allclose(evals.log().sum(), logdet), "sign", sign.item())
    Xs = torch.linspace(0, 6, 7).unsqueeze(1)
    Ks = matern32(Xs, X, ls, var)
    v = torch.linalg.solve_triangular(L, Ks.T, upper=False)
    mean = Ks @ torch.cholesky_solve(Y.unsqueeze(1), L).squeeze(1)
    sd = (var - v.pow(2).sum(0)).clamp_min(0).sqrt()
    print("predictive mean:", mean)
    print("predictive sd:", sd)
    print(f"max error vs truth {(mean - f(Xs).squeeze(1)).abs().max().item():.6f}")
    w_ls = torch.linalg.lstsq(K, Y.unsqueeze(1)).solution
    print("lstsq equals cholesky_solve:", torch.allclose(w_ls, torch.cholesky_solve(Y.unsqueeze(1), L), atol=1e-8), f"| cond {torch.linalg.cond(K).item():.6e}")

# special functions in likelihoods
theta = torch.tensor([0.1, 1.0, 2.5, -2.0])
mu_vm = torch.tensor(0.8, requires_grad=True)
kappa = torch.tensor(2.0, requires_grad=True)
ll = (kappa * torch.cos(theta - mu_vm) - math.log(2 * math.pi) - torch.log(torch.special.i0e(kappa)) - kappa).sum()
gm, gk = torch.autograd.grad(ll, [mu_vm, kappa])
A = torch.special.i1e(kappa) / torch.special.i0e(kappa)
print(f"von Mises log-lik {ll.item():.10f} d/dmu {gm.item():.10f} d/dkappa {gk.item():.10f} = {(torch.cos(theta - mu_vm).sum() - 4 * A).item():.10f}")
nu = torch.tensor(4.0, requires_grad=True)
xt = torch.tensor([-1.0, 0.3, 2.2])
lt = (torch.special.gammaln((nu + 1) / 2) - torch.special.gammaln(nu / 2) - 0.5 * torch.log(nu * math.pi) - (nu + 1) / 2 * torch.log1p(xt ** 2 / nu)).sum()
(gnu,) = torch.autograd.grad(lt, nu, create_graph=True)
(g2,) = torch.autograd.grad(gnu, nu)
dig = 3 * 0.5 * (torch.special.digamma((nu + 1) / 2) - torch.special.digamma(nu / 2))
print(f"student-t log-lik {lt.item():.10f} d/dnu {gnu.item():.10f} d2/dnu2 {g2.item():.10f} digamma part {dig.item():.10f} trigamma(2) {torch.special.polygamma(1, torch.tensor(2.0)).item():.10f}")
z = torch.tensor([-2.0, 0.0, 1.5, 6.0])
mills = math.sqrt(math.pi / 2) * torch.special.erfcx(z / math.sqrt(2))
print("Mills ratio by erfcx:", mills, "| by ndtr:", torch.allclose(mills, torch.special.ndtr(-z) / torch.exp(-z ** 2 / 2) * math.sqrt(2 * math.pi)))
print("log_ndtr, ndtri, xlogy, sinc:", torch.special.log_ndtr(z), torch.special.ndtri(torch.tensor([0.025, 0.5])), torch.special.xlogy(torch.tensor([0.0, 2.0]), torch.tensor([0.0, 3.0])), torch.special.sinc(torch.tensor([0.0, 0.5])))
