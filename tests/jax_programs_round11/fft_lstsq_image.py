"""Image processing with jax.numpy.fft and least squares (as in the "JAX for scientific
computing" notebooks): a Gaussian low-pass filter applied in Fourier space with fft2/ifft2
and fftfreq, circular convolution checked against jax.scipy.signal.convolve2d with wrap
padding done by jnp.pad, Wiener deconvolution, a Sobel edge magnitude, polynomial surface
fitting by jnp.linalg.lstsq with a Vandermonde design (jnp.vander), QR and SVD solutions
of the same problem, and gradients of a denoising objective."""

import numpy as np

import jax
import jax.numpy as jnp
from jax.scipy.signal import convolve2d

N = 32
yy, xx = jnp.meshgrid(jnp.arange(N), jnp.arange(N), indexing="ij")
image = ((xx - 12) ** 2 + (yy - 18) ** 2 < 64).astype(jnp.float64) + 0.5 * (xx > 24)
noise = 0.2 * jax.random.normal(jax.random.key(0), (N, N))
noisy = image + noise

fx = jnp.fft.fftfreq(N)
FX, FY = jnp.meshgrid(fx, fx, indexing="ij")
sigma_f = 0.08
lowpass = jnp.exp(-(FX ** 2 + FY ** 2) / (2 * sigma_f ** 2))
smoothed = jnp.real(jnp.fft.ifft2(jnp.fft.fft2(noisy) * lowpass))
print("mse noisy", round(float(jnp.mean((noisy - image) ** 2)), 6))
print("mse smoothed", round(float(jnp.mean((smoothed - image) ** 2)), 6))

kernel = jnp.array([[1.0, 2.0, 1.0], [2.0, 4.0, 2.0], [1.0, 2.0, 1.0]]) / 16.0
padded = jnp.pad(noisy, 1, mode="wrap")
direct = convolve2d(padded, kernel, mode="valid")
kfull = jnp.zeros((N, N)).at[:3, :3].set(kernel)
kfull = jnp.roll(kfull, (-1, -1), axis=(0, 1))
viafft = jnp.real(jnp.fft.ifft2(jnp.fft.fft2(noisy) * jnp.fft.fft2(kfull)))
print("fft conv == direct", bool(jnp.allclose(direct, viafft, atol=1e-10)), direct.shape)

blurred = jnp.real(jnp.fft.ifft2(jnp.fft.fft2(image) * jnp.fft.fft2(kfull)))
Kf = jnp.fft.fft2(kfull)
wiener = jnp.conj(Kf) / (jnp.abs(Kf) ** 2 + 1e-3)
restored = jnp.real(jnp.fft.ifft2(jnp.fft.fft2(blurred) * wiener))
print("wiener error", round(float(jnp.max(jnp.abs(restored - image))), 5))

sobel = jnp.array([[1.0, 0.0, -1.0], [2.0, 0.0, -2.0], [1.0, 0.0, -1.0]])
gx = convolve2d(image, sobel, mode="same")
gy = convolve2d(image, sobel.T, mode="same")
edges = jnp.hypot(gx, gy)
print("edge pixels", int((edges > 1.0).sum()), round(float(edges.max()), 5))
print("rfft2 shape", jnp.fft.rfft2(image).shape, round(float(jnp.abs(jnp.fft.rfft2(image)[0, 0])), 4))
print("fftshift corner", float(jnp.fft.fftshift(lowpass)[N // 2, N // 2]))

# fit a quadratic surface to the noisy disc by least squares
u = (xx.ravel() / N - 0.5)
v = (yy.ravel() / N - 0.5)
Vu, Vv = jnp.vander(u, 3, increasing=True), jnp.vander(v, 3, increasing=True)
design = jnp.concatenate([Vu, Vv[:, 1:], (u * v)[:, None]], axis=1)
target = noisy.ravel()
coef, res, rank, sv = jnp.linalg.lstsq(design, target)
print("lstsq coef", np.round(np.asarray(coef), 5), "rank", int(rank))
print("residual", np.round(np.asarray(res), 4), "sv", np.round(np.asarray(sv[:2]), 4))
Qm, Rm = jnp.linalg.qr(design)
coef_qr = jax.scipy.linalg.solve_triangular(Rm, Qm.T @ target)
U, S, Vt = jnp.linalg.svd(design, full_matrices=False)
coef_svd = Vt.T @ ((U.T @ target) / S)
print("qr/svd agree", bool(jnp.allclose(coef, coef_qr)), bool(jnp.allclose(coef, coef_svd)))
print("cond", round(float(jnp.linalg.cond(design)), 4))


def denoise_objective(z, lam):
    tv = jnp.sum(jnp.sqrt((jnp.diff(z, axis=0)[:, :-1]) ** 2 + (jnp.diff(z, axis=1)[:-1]) ** 2 + 1e-3))
    return 0.5 * jnp.sum((z - noisy) ** 2) + lam * tv


z = noisy
step = jax.jit(jax.grad(denoise_objective))
for _ in range(50):
    z = z - 0.1 * step(z, 0.3)
print("tv denoised mse", round(float(jnp.mean((z - image) ** 2)), 6))
print("objective", round(float(denoise_objective(z, 0.3)), 4))
