"""Digital filtering with ``jax.scipy.signal``: Gaussian smoothing by ``convolve`` against
``fftconvolve``, a time delay by ``correlate``, a 2-D blur by ``convolve2d`` with symmetric and
wrapped boundaries, Welch's spectrum, an ``stft``/``istft`` round trip, and an FIR filter learned
by gradient descent through ``convolve`` against the least-squares solution."""

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.scipy import signal

key = random.PRNGKey(7)
k_noise, k_img, k_sys = random.split(key, 3)

fs = 200.0
t = jnp.arange(512) / fs
clean = jnp.sin(2 * jnp.pi * 12.5 * t) + 0.5 * jnp.sin(2 * jnp.pi * 31.25 * t)
noisy = clean + 0.4 * random.normal(k_noise, t.shape)

taps = jnp.arange(-6, 7)
gauss = jnp.exp(-0.5 * (taps / 1.2) ** 2)
gauss = gauss / gauss.sum()
smooth_direct = signal.convolve(noisy, gauss, mode="same")
smooth_fft = signal.fftconvolve(noisy, gauss, mode="same")
print("smoothed shapes:", smooth_direct.shape, smooth_fft.shape, smooth_direct.dtype)
print("direct == fft:", bool(jnp.allclose(smooth_direct, smooth_fft, atol=1e-5)))
print("valid / full lengths:", signal.convolve(noisy, gauss, mode="valid").shape,
      signal.fftconvolve(noisy, gauss, mode="full").shape)
rms = lambda x: jnp.sqrt(jnp.mean(x ** 2))  # noqa: E731
print("rms error noisy / smoothed:", jnp.round(rms(noisy - clean), 3),
      jnp.round(rms(smooth_direct - clean), 3))

# time delay by cross-correlation
delay = 17
delayed = jnp.roll(noisy, delay) + 0.1 * random.normal(k_sys, t.shape)
xc = signal.correlate(delayed, noisy, mode="full")
lags = jnp.arange(-t.shape[0] + 1, t.shape[0])
print("estimated delay:", lags[jnp.argmax(xc)], "peak", jnp.round(xc.max(), 1))

# Welch's power spectrum: the two tones
f, pxx = signal.welch(noisy, fs=fs, nperseg=128)
top = jnp.argsort(pxx)[-2:]
print("welch bins:", f.shape, "peaks at", jnp.sort(f[top]), "Hz")
print("noise floor:", jnp.round(jnp.median(pxx), 4))

# stft / istft round trip
ff, tt, Z = signal.stft(noisy, fs=fs, nperseg=64)
print("stft:", Z.shape, Z.dtype)
_, back = signal.istft(Z, fs=fs, nperseg=64)
print("istft reconstruction error:", bool(jnp.allclose(back[: t.shape[0]], noisy, atol=1e-4)))
band = jnp.abs(Z).mean(axis=1)
print("strongest stft bin:", ff[jnp.argmax(band)], "Hz")

# 2-D blur with boundaries
image = jnp.zeros((16, 16)).at[4:12, 6:10].set(1.0) + 0.05 * random.normal(k_img, (16, 16))
box = jnp.ones((3, 3)) / 9.0
blurred = signal.convolve2d(image, box, mode="same")
print(f"fill blur: sum {blurred.sum():.3f} corner {blurred[0, 0]:.4f}")
for pad_mode in ["symmetric", "wrap", "edge"]:  # jax.scipy's convolve2d only fills with 0
    padded = jnp.pad(image, 1, mode=pad_mode)
    blurred = signal.convolve2d(padded, box, mode="valid")
    print(f"{pad_mode:9s} blur: {blurred.shape} sum {blurred.sum():.3f} corner {blurred[0, 0]:.4f}")
edges = signal.correlate2d(image, jnp.array([[1.0, 0.0, -1.0]]), mode="valid")
print("edge map:", edges.shape, "strongest", jnp.round(jnp.abs(edges).max(), 3))

# learning an FIR filter: y = h_true * x + noise
h_true = jnp.array([0.5, 0.3, -0.2, 0.1, 0.05])
x = random.normal(k_sys, (300,))
y = signal.convolve(x, h_true, mode="valid") + 0.01 * random.normal(k_noise, (296,))


def loss(h):
    return jnp.mean((signal.convolve(x, h, mode="valid") - y) ** 2)


@jax.jit
def train(h0):
    def body(_, carry):
        h, m = carry
        g = jax.grad(loss)(h)
        m = 0.9 * m + g
        return h - 0.05 * m, m

    return lax.fori_loop(0, 200, body, (h0, jnp.zeros_like(h0)))[0]


h_fit = train(jnp.zeros(5))
print("learned taps:", jnp.round(h_fit, 3))
# least squares on the Toeplitz matrix of flipped windows
windows = jnp.stack([x[i:i + 5][::-1] for i in range(296)])
h_ls = jnp.linalg.lstsq(windows, y)[0]
print("least-squares taps:", jnp.round(h_ls, 3))
print("loss learned / least squares:", jnp.round(loss(h_fit) * 1e4, 3), jnp.round(loss(h_ls) * 1e4, 3),
      "(x1e-4)")
g_full = jax.grad(lambda h: jnp.sum(signal.fftconvolve(x, h, mode="full") ** 2))(h_true)
print("grad through fftconvolve:", jnp.round(g_full, 2))

# a bank of signals filtered at once: convolve along the last axis only
bank = jnp.stack([noisy, delayed, clean])
kernels = jnp.stack([gauss, gauss[::-1], jnp.zeros_like(gauss).at[6].set(1.0)])
filtered = signal.fftconvolve(bank, kernels, mode="same", axes=-1)
print("filter bank:", filtered.shape, "identity row kept:", bool(jnp.allclose(filtered[2], clean, atol=1e-4)))
print("row 0 as one convolution:", bool(jnp.allclose(filtered[0], smooth_fft, atol=1e-5)))
