"""jax.scipy.signal, jax.scipy.ndimage and jax.scipy.interpolate in use (as in the
"JAX for signal processing" notebooks): convolve and correlate in full/same/valid modes
with method="direct" and "fft", fftconvolve, 2-D correlate2d, a short-time Fourier
transform (stft/istft round trip), welch and csd spectra, detrend, ndimage.map_coordinates
for image rotation (order 0 and 1, modes), RegularGridInterpolator on a 2-D grid (linear
and nearest, fill_value), jnp.interp with left/right, and gradients through
map_coordinates and the interpolator."""

import numpy as np

import jax
import jax.numpy as jnp
from jax.scipy import ndimage, signal
from jax.scipy.interpolate import RegularGridInterpolator

t = jnp.linspace(0.0, 1.0, 64, endpoint=False)
x = jnp.sin(2 * jnp.pi * 5 * t) + 0.5 * jnp.sin(2 * jnp.pi * 12 * t)
h = jnp.array([0.25, 0.5, 0.25])
for mode in ("full", "same", "valid"):
    y = signal.convolve(x, h, mode=mode)
    print(mode, y.shape, np.round(np.asarray(y[:3]), 5))
print("fft method agrees", bool(jnp.allclose(signal.convolve(x, h, method="fft"), signal.convolve(x, h))))
print("fftconvolve", np.round(np.asarray(signal.fftconvolve(x, h, mode="same")[:3]), 5))
print("correlate", np.round(np.asarray(signal.correlate(x[:8], h, mode="valid")), 5))
img = jnp.arange(25.0).reshape(5, 5)
print("correlate2d", signal.correlate2d(img, jnp.ones((2, 2)), mode="valid")[0].tolist())
trend = jnp.arange(6.0) * 2 + jnp.array([0, 1, 0, 1, 0, 1.0])
print("detrend", np.round(np.asarray(signal.detrend(trend)), 4))

f, tt, Z = signal.stft(x, fs=64.0, nperseg=16)
print("stft", Z.shape, np.round(np.asarray(f[:4]), 3), np.round(np.asarray(jnp.abs(Z[5, 2])), 5))
_, xr = signal.istft(Z, fs=64.0, nperseg=16)
print("istft roundtrip", bool(jnp.allclose(xr[:64], x, atol=1e-6)))
fw, P = signal.welch(x, fs=64.0, nperseg=32)
print("welch peak", float(fw[jnp.argmax(P)]), np.round(np.asarray(P[:3]), 6))
fc, Pxy = signal.csd(x, jnp.roll(x, 3), fs=64.0, nperseg=32)
print("csd", Pxy.dtype, np.round(np.asarray(jnp.abs(Pxy[5])), 5))

# ndimage.map_coordinates: rotate a small image by 30 degrees about its centre
image = jnp.zeros((9, 9)).at[2:7, 4].set(1.0).at[4, 2:7].set(1.0) + jnp.arange(9.0)[:, None] * 0.05
c = 4.0
theta = jnp.pi / 6
ii, jj = jnp.meshgrid(jnp.arange(9.0), jnp.arange(9.0), indexing="ij")
src_i = jnp.cos(theta) * (ii - c) - jnp.sin(theta) * (jj - c) + c
src_j = jnp.sin(theta) * (ii - c) + jnp.cos(theta) * (jj - c) + c
for order in (0, 1):
    for mode in ("constant", "nearest", "wrap"):
        r = ndimage.map_coordinates(image, [src_i, src_j], order=order, mode=mode, cval=-1.0)
        print(f"rotate order={order} {mode:8s} sum {float(r.sum()):.5f}",
              f"r[0,:3] {np.round(np.asarray(r[0, :3]), 4)}")
g = jax.grad(lambda im: ndimage.map_coordinates(im, [src_i, src_j], order=1).sum())(image)
print("grad map_coordinates", np.round(np.asarray(g[4, :4]), 5))

xg = jnp.linspace(0.0, 2.0, 5)
yg = jnp.linspace(-1.0, 1.0, 4)
values = jnp.sin(xg)[:, None] * jnp.cos(yg)[None, :]
interp = RegularGridInterpolator((xg, yg), values)
pts = jnp.array([[0.3, 0.1], [1.7, -0.9], [1.0, 0.0]])
print("rgi linear", np.round(np.asarray(interp(pts)), 6))
near = RegularGridInterpolator((xg, yg), values, method="nearest")
print("rgi nearest", np.round(np.asarray(near(pts)), 6))
outside = RegularGridInterpolator((xg, yg), values, bounds_error=False, fill_value=jnp.nan)
out = outside(jnp.array([[2.5, 0.0], [0.5, 0.5]]))
print("rgi fill", np.asarray(out).round(6))
gv = jax.grad(lambda v: RegularGridInterpolator((xg, yg), v)(pts).sum())(values)
print("grad wrt values", np.round(np.asarray(gv), 4).tolist()[:2])
xp = jnp.array([0.0, 1.0, 3.0])
fp = jnp.array([1.0, 3.0, 2.0])
print("interp", jnp.interp(jnp.array([-1.0, 0.5, 2.0, 4.0]), xp, fp, left=-5.0, right=9.0).tolist())
print("interp period", np.round(np.asarray(jnp.interp(jnp.array([4.5, -0.5]), xp, fp, period=4.0)), 5))
