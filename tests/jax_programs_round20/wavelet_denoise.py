"""Wavelet denoising in JAX, as a signal-processing tutorial writes it: a multi-level Haar and
Daubechies-4 discrete wavelet transform by strided slicing and jnp.pad (mode="wrap",
"symmetric", "reflect"), its exact inverse, soft and hard thresholding with the universal
threshold sigma sqrt(2 log n) where sigma is the median absolute deviation of the finest
coefficients (jnp.median), SURE-optimal thresholds by jax.grad of Stein's unbiased risk estimate
(through jnp.sign and jnp.maximum), Parseval's identity, vmap over a batch of signals, and a
comparison with a jnp.convolve moving-average filter."""

import jax
import jax.numpy as jnp

jnp.set_printoptions(precision=5, suppress=True)

n = 256
t = jnp.linspace(0.0, 1.0, n, endpoint=False)
clean = jnp.where(t < 0.3, 1.0, jnp.where(t < 0.6, -0.5, 0.8)) + 0.5 * jnp.sin(4 * jnp.pi * t)
noise = 0.2 * jax.random.normal(jax.random.PRNGKey(0), (n,))
noisy = clean + noise


def haar_step(x):
    even, odd = x[..., ::2], x[..., 1::2]
    return (even + odd) / jnp.sqrt(2.0), (even - odd) / jnp.sqrt(2.0)


def haar_inverse_step(a, d):
    even, odd = (a + d) / jnp.sqrt(2.0), (a - d) / jnp.sqrt(2.0)
    return jnp.stack([even, odd], axis=-1).reshape(a.shape[:-1] + (2 * a.shape[-1],))


s3 = jnp.sqrt(3.0)
db4_lo = jnp.array([1 + s3, 3 + s3, 3 - s3, 1 - s3]) / (4 * jnp.sqrt(2.0))
db4_hi = db4_lo[::-1] * jnp.array([1.0, -1.0, 1.0, -1.0])


def db4_step(x):
    xp = jnp.pad(x, (0, 2), mode="wrap")
    windows = jnp.stack([xp[k:k + x.shape[0]:2] for k in range(4)], axis=1)
    return windows @ db4_lo, windows @ db4_hi


def db4_inverse_step(a, d):
    m = a.shape[0]
    out = jnp.zeros(2 * m + 2)
    idx = 2 * jnp.arange(m)
    for k in range(4):
        out = out.at[idx + k].add(a * db4_lo[k] + d * db4_hi[k])
    return out[:2 * m].at[:2].add(out[2 * m:])


def dwt(x, levels, step=haar_step):
    details = []
    for _ in range(levels):
        x, d = step(x)
        details.append(d)
    return x, details


def idwt(a, details, inverse=haar_inverse_step):
    for d in reversed(details):
        a = inverse(a, d)
    return a


for name, fwd, inv in (("haar", haar_step, haar_inverse_step), ("db4", db4_step, db4_inverse_step)):
    a, ds = dwt(noisy, 4, fwd)
    rec = idwt(a, ds, inv)
    energy = jnp.sum(a**2) + sum(jnp.sum(d**2) for d in ds)
    print(f"{name}: perfect reconstruction {bool(jnp.allclose(rec, noisy, atol=1e-5))}, "
          f"Parseval {bool(jnp.allclose(energy, jnp.sum(noisy**2), rtol=1e-5))}, "
          f"approximation {a.shape}, details {[d.shape[0] for d in ds]}")

a, ds = dwt(noisy, 4)
sigma = jnp.median(jnp.abs(ds[0])) / 0.6745
print("noise sigma estimate", round(float(sigma), 4), "(true 0.2)")
lam = sigma * jnp.sqrt(2 * jnp.log(n))
soft = lambda d, lam: jnp.sign(d) * jnp.maximum(jnp.abs(d) - lam, 0.0)
hard = lambda d, lam: jnp.where(jnp.abs(d) > lam, d, 0.0)
for name, rule in (("soft", soft), ("hard", hard)):
    den = idwt(a, [rule(d, lam) for d in ds])
    mse = jnp.mean((den - clean) ** 2)
    print(f"{name} threshold {float(lam):.4f}: mse {float(mse):.5f} (noisy {float(jnp.mean(noise**2)):.5f})")


# SURE for soft thresholding at one level: n sigma^2 - 2 sigma^2 #{|d| <= lam} + sum min(d^2, lam^2)
def sure(lam, d, sigma):
    return (d.shape[0] * sigma**2 - 2 * sigma**2 * jnp.sum(jnp.abs(d) <= lam)
            + jnp.sum(jnp.minimum(d**2, lam**2)))


def smooth_risk(lam, d, sigma):  # the differentiable part of SURE plus a sigmoid count
    count = jnp.sum(jax.nn.sigmoid((lam - jnp.abs(d)) / 0.05))
    return jnp.sum(jnp.minimum(d**2, lam**2)) - 2 * sigma**2 * count


grid = jnp.linspace(0.0, 1.0, 41)
for level, d in enumerate(ds[:2]):
    risks = jax.vmap(sure, in_axes=(0, None, None))(grid, d, sigma)
    best = grid[jnp.argmin(risks)]
    print(f"level {level}: SURE-best threshold {float(best):.3f}, risk {float(risks.min()):.4f}")
    print("   d risk/d lambda at 0.3:", round(float(jax.grad(smooth_risk)(0.3, d, sigma)), 4))

# batched denoising of several noisy copies
keys = jax.random.split(jax.random.PRNGKey(1), 4)
batch = clean[None] + 0.2 * jax.vmap(lambda k: jax.random.normal(k, (n,)))(keys)


def denoise(x):
    a, ds = dwt(x, 4)
    sig = jnp.median(jnp.abs(ds[0])) / 0.6745
    return idwt(a, [soft(d, sig * jnp.sqrt(2 * jnp.log(n))) for d in ds])


out = jax.vmap(denoise)(batch)
print("batched mse", jnp.mean((out - clean) ** 2, axis=1))
print("loop == vmap:", bool(jnp.allclose(out[2], denoise(batch[2]), atol=1e-6)))

# moving average for comparison, with edge handling by padding
for mode in ("reflect", "symmetric", "edge"):
    padded = jnp.pad(noisy, 4, mode=mode)
    ma = jnp.convolve(padded, jnp.ones(9) / 9, mode="valid")
    print(f"moving average ({mode}) mse {float(jnp.mean((ma - clean) ** 2)):.5f}")
# the gradient of the denoised signal's energy wrt the noisy input (through median and thresholds)
gx = jax.grad(lambda x: jnp.sum(denoise(x) ** 2))(noisy)
print("grad of energy[:6]", gx[:6])
