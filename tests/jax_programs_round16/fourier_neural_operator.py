"""A 1-D Fourier neural operator (Li et al., 2021) learning the solution operator of the heat
equation, written as research code does with jax alone: spectral convolution layers with
complex weights (rfft, a complex einsum over the lowest modes, irfft with n=), a lifting and
projection MLP with GELU, the training data made by an exact spectral solve, the relative L2
loss, complex parameters updated by a hand-written Adam (JAX's convention: the gradient of a
real loss with respect to a complex parameter is the conjugate of d/dz), and a check of the
complex gradient against finite differences along the real and imaginary directions."""

import jax
import jax.numpy as jnp
from jax import random

N, MODES, WIDTH, NU, T = 64, 8, 16, 0.02, 0.5


def make_data(key, n_samples):
    k = jnp.fft.rfftfreq(N, d=1.0 / N)
    coeffs = random.normal(key, (n_samples, 4))
    x = jnp.linspace(0.0, 1.0, N, endpoint=False)
    u0 = sum(coeffs[:, i:i + 1] * jnp.sin(2 * jnp.pi * (i + 1) * x) / (i + 1) for i in range(4))
    u0_hat = jnp.fft.rfft(u0, axis=-1)
    uT = jnp.fft.irfft(u0_hat * jnp.exp(-NU * (2 * jnp.pi * k) ** 2 * T), n=N, axis=-1)
    return u0, uT


def init(key):
    ks = random.split(key, 8)
    scale = 1.0 / (WIDTH * WIDTH)
    params = {"lift": (random.normal(ks[0], (2, WIDTH)) * 0.5, jnp.zeros(WIDTH)), "layers": []}
    for i in range(2):
        kr, ki, kw = random.split(ks[1 + i], 3)
        w = scale * (random.uniform(kr, (WIDTH, WIDTH, MODES))
                     + 1j * random.uniform(ki, (WIDTH, WIDTH, MODES)))
        params["layers"].append({"spectral": w,
                                 "pointwise": random.normal(kw, (WIDTH, WIDTH)) / jnp.sqrt(WIDTH),
                                 "bias": jnp.zeros(WIDTH)})
    params["proj"] = (random.normal(ks[5], (WIDTH, 32)) / jnp.sqrt(WIDTH), jnp.zeros(32),
                      random.normal(ks[6], (32, 1)) / jnp.sqrt(32.0), jnp.zeros(1))
    return params


def spectral_conv(w, v):
    # v: (N, WIDTH) real; mix channels of the lowest MODES Fourier modes
    v_hat = jnp.fft.rfft(v, axis=0)                       # (N//2+1, WIDTH) complex
    out_low = jnp.einsum("mi,iom->mo", v_hat[:MODES], w)
    out_hat = jnp.zeros((N // 2 + 1, w.shape[1]), dtype=out_low.dtype).at[:MODES].set(out_low)
    return jnp.fft.irfft(out_hat, n=N, axis=0)


def fno(params, u0):
    x = jnp.linspace(0.0, 1.0, N, endpoint=False)
    v = jnp.stack([u0, x], axis=-1) @ params["lift"][0] + params["lift"][1]
    for i, layer in enumerate(params["layers"]):
        v = spectral_conv(layer["spectral"], v) + v @ layer["pointwise"] + layer["bias"]
        if i < len(params["layers"]) - 1:
            v = jax.nn.gelu(v)
    w1, b1, w2, b2 = params["proj"]
    return (jax.nn.gelu(v @ w1 + b1) @ w2 + b2)[:, 0]


def rel_l2(params, u0, uT):
    pred = jax.vmap(fno, in_axes=(None, 0))(params, u0)
    return jnp.mean(jnp.linalg.norm(pred - uT, axis=-1) / jnp.linalg.norm(uT, axis=-1))


@jax.jit
def adam_step(params, m, v, t, u0, uT, lr=1e-3, b1=0.9, b2=0.999):
    loss, g = jax.value_and_grad(rel_l2)(params, u0, uT)
    m = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, m, g)
    v = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * jnp.abs(g) ** 2, v, g)
    mhat = jax.tree.map(lambda m: m / (1 - b1 ** t), m)
    vhat = jax.tree.map(lambda v: v / (1 - b2 ** t), v)
    params = jax.tree.map(lambda p, m, v: p - lr * m / (jnp.sqrt(v) + 1e-8), params, mhat, vhat)
    return params, m, v, loss


u0, uT = make_data(random.PRNGKey(0), 32)
u0_test, uT_test = make_data(random.PRNGKey(1), 8)
print("data", u0.shape, uT.shape, uT.dtype, "energy decay", jnp.sum(uT ** 2) / jnp.sum(u0 ** 2))
params = init(random.PRNGKey(2))
print("dtypes", jax.tree.map(lambda a: str(a.dtype), params["layers"][0]))
print("initial test loss", rel_l2(params, u0_test, uT_test))

# the complex gradient against finite differences: d loss along Re and Im of one weight
g = jax.grad(rel_l2)(params, u0, uT)["layers"][0]["spectral"][1, 2, 3]
eps = 1e-2 if jnp.zeros(()).dtype == jnp.float32 else 1e-6


def bumped(delta):
    p = jax.tree.map(lambda a: a, params)
    p["layers"][0]["spectral"] = p["layers"][0]["spectral"].at[1, 2, 3].add(delta)
    return rel_l2(p, u0, uT)


fd_re = (bumped(eps) - bumped(-eps)) / (2 * eps)
fd_im = (bumped(1j * eps) - bumped(-1j * eps)) / (2 * eps)
print("complex grad", g.dtype, "matches conj convention:",
      bool(jnp.allclose(g, fd_re - 1j * fd_im, rtol=0.05, atol=1e-4)))

m = jax.tree.map(jnp.zeros_like, params)
v = jax.tree.map(lambda a: jnp.zeros(a.shape, jnp.real(a).dtype), params)
for t in range(1, 61):
    params, m, v, loss = adam_step(params, m, v, t, u0, uT)
    if t % 15 == 0:
        print(f"step {t} train {loss:.5f} test {rel_l2(params, u0_test, uT_test):.5f}")
print("moment dtypes", v["layers"][0]["spectral"].dtype, m["layers"][0]["spectral"].dtype)
pred = fno(params, u0_test[0])
print("prediction head", pred[1:5])
print("target head", uT_test[0, 1:5])
