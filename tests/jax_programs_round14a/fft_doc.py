"""jax.numpy.fft as its reference and NumPy-style tutorials use it: fft/ifft round trips,
rfft/irfft with odd and even n, the norm= modes, fftn/ifftn/rfft2 over chosen axes with s=,
fftfreq/rfftfreq/fftshift/ifftshift, hfft/ihfft, a spectral derivative, a convolution by FFT
against jnp.convolve, gradients through the FFT, and the dtypes in 32/64-bit mode."""

import jax
import jax.numpy as jnp

x = jnp.array([1.0, 2.0, 1.0, -1.0, 1.5, 0.0, 2.0, -0.5])
X = jnp.fft.fft(x)
print(X.dtype, jnp.round(X, 4))
print(jnp.allclose(jnp.fft.ifft(X).real, x, atol=1e-6), jnp.fft.ifft(X).dtype)
print(jnp.round(jnp.fft.rfft(x), 4), jnp.fft.rfft(x).shape, jnp.fft.rfft(x[:7]).shape)
print(jnp.round(jnp.fft.irfft(jnp.fft.rfft(x)), 5), jnp.fft.irfft(jnp.fft.rfft(x[:7]), n=7).shape)
for norm in ["backward", "ortho", "forward"]:
    print(norm, jnp.round(jnp.fft.fft(x[:4], norm=norm), 4))
print(jnp.round(jnp.fft.fft(x, n=5), 4), jnp.round(jnp.fft.fft(x[:3], n=6), 4))
m = jnp.arange(12.0).reshape(3, 4)
print(jnp.round(jnp.fft.fft2(m), 3))
print(
    jnp.round(jnp.fft.fftn(m, axes=(0,)), 3).shape, jnp.fft.rfft2(m).shape, jnp.fft.rfftn(m, s=(4, 6)).shape
)
print(jnp.round(jnp.fft.irfft2(jnp.fft.rfft2(m), s=m.shape), 4))
print(jnp.round(jnp.fft.ifftn(jnp.fft.fftn(m)).real, 4))
print(jnp.fft.fftfreq(8), jnp.fft.fftfreq(5, d=0.1), jnp.fft.rfftfreq(8, 0.5))
print(
    jnp.fft.fftshift(jnp.arange(7)),
    jnp.fft.ifftshift(jnp.fft.fftshift(jnp.arange(6))),
    jnp.fft.fftshift(m, axes=1),
)
print(
    jnp.round(jnp.fft.hfft(jnp.array([1.0, 2.0 - 1j, 0.5])), 4), jnp.round(jnp.fft.ihfft(x[:6]), 4).imag[1:3]
)

n = 32
L = 2 * jnp.pi
t = jnp.arange(n) * L / n
f = jnp.sin(3 * t) + 0.5 * jnp.cos(t)
k = jnp.fft.fftfreq(n, d=L / n) * 2 * jnp.pi
df = jnp.fft.ifft(1j * k * jnp.fft.fft(f)).real
print(jnp.max(jnp.abs(df - (3 * jnp.cos(3 * t) - 0.5 * jnp.sin(t)))) < 1e-4)
a = jnp.array([1.0, 2.0, 3.0])
b = jnp.array([0.0, 1.0, 0.5, -1.0])
size = a.size + b.size - 1
conv = jnp.fft.irfft(jnp.fft.rfft(a, size) * jnp.fft.rfft(b, size), size)
print(jnp.round(conv, 4), jnp.convolve(a, b))
print(jax.grad(lambda x: jnp.sum(jnp.abs(jnp.fft.fft(x)) ** 2))(x[:4]))
print(
    jax.grad(lambda x: jnp.fft.rfft(x).real.sum())(x[:5]),
    jax.grad(lambda x: jnp.fft.irfft(x).sum())(jnp.ones(3)),
)
print(jax.jit(lambda v: jnp.fft.fft(v).imag)(x[:4]), jax.vmap(jnp.fft.fft)(m).shape)
print(
    jnp.fft.fft(jnp.arange(4, dtype=jnp.int32)).dtype,
    jnp.fft.rfft(jnp.ones(4, jnp.float16)).dtype if False else "skip",
)
print(jax.jvp(jnp.fft.fft, (x[:4].astype(jnp.complex64),), (jnp.ones(4, jnp.complex64),))[1])
print(jnp.round(jnp.abs(jnp.fft.fft(jnp.exp(2j * jnp.pi * 2 * jnp.arange(8) / 8))), 3))
