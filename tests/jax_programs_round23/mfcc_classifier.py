"""Speech-style features and a tiny classifier as audio code writes them in JAX: synthetic
"words" (chirps, two-tone chords and noise bursts with random pitch, built with jax.random),
pre-emphasis by slicing, framing by a gathered index matrix, a Hann window, the power
spectrum by jnp.fft.rfft, a triangular mel filterbank from hz<->mel conversions, log mel
energies, MFCCs by jax.scipy.fft.dct(type=2, norm="ortho"), delta features by a padded
difference, cepstral mean and variance normalisation, jax.scipy.signal.stft against the
hand-framed spectrum, an energy-based voice-activity mask, then a softmax classifier on the
pooled features trained with jax.grad and evaluated on a held-out split."""

import jax
import jax.numpy as jnp
from jax import random
from jax.scipy.fft import dct
from jax.scipy.signal import stft

jnp.set_printoptions(precision=4, suppress=True)
SR, LENGTH, FRAME, HOP, NFFT, NMEL, NCEP = 8000, 4000, 200, 80, 256, 20, 12


def make_word(key, label):
    kf, kn, ka = random.split(key, 3)
    t = jnp.linspace(0.0, LENGTH / SR, LENGTH, endpoint=False)
    f0 = 300.0 + 400.0 * random.uniform(kf)
    chirp = jnp.sin(2 * jnp.pi * (f0 * t + 900.0 * t**2))
    chord = 0.6 * jnp.sin(2 * jnp.pi * f0 * t) + 0.4 * jnp.sin(2 * jnp.pi * 2.5 * f0 * t)
    noise = random.normal(kn, (LENGTH,)) * 0.7
    signal = jnp.select([label == 0, label == 1], [chirp, chord], noise)
    envelope = jnp.exp(-((t - 0.25) ** 2) / (2 * 0.08**2))  # a word in the middle of silence
    return envelope * signal * (0.5 + random.uniform(ka)) + 0.01 * random.normal(ka, (LENGTH,))


def hz_to_mel(f):
    return 2595.0 * jnp.log10(1.0 + f / 700.0)


def mel_to_hz(m):
    return 700.0 * (10.0 ** (m / 2595.0) - 1.0)


def mel_filterbank():
    mel_points = jnp.linspace(hz_to_mel(0.0), hz_to_mel(SR / 2), NMEL + 2)
    bins = jnp.fft.rfftfreq(NFFT, 1.0 / SR)
    lo, mid, hi = mel_to_hz(mel_points[:-2]), mel_to_hz(mel_points[1:-1]), mel_to_hz(mel_points[2:])
    up = (bins[None, :] - lo[:, None]) / (mid - lo)[:, None]
    down = (hi[:, None] - bins[None, :]) / (hi - mid)[:, None]
    return jnp.maximum(0.0, jnp.minimum(up, down))  # (NMEL, NFFT // 2 + 1)


FBANK = mel_filterbank()
N_FRAMES = 1 + (LENGTH - FRAME) // HOP
FRAME_INDEX = jnp.arange(FRAME)[None, :] + HOP * jnp.arange(N_FRAMES)[:, None]
WINDOW = jnp.hanning(FRAME)


def mfcc(x):
    x = jnp.concatenate([x[:1], x[1:] - 0.97 * x[:-1]])  # pre-emphasis
    frames = x[FRAME_INDEX] * WINDOW
    power = jnp.abs(jnp.fft.rfft(frames, n=NFFT)) ** 2 / NFFT
    log_mel = jnp.log(power @ FBANK.T + 1e-6)
    ceps = dct(log_mel, type=2, norm="ortho", axis=-1)[:, :NCEP]
    padded = jnp.pad(ceps, ((1, 1), (0, 0)), mode="edge")
    delta = (padded[2:] - padded[:-2]) / 2.0
    energy = jnp.log(jnp.sum(frames**2, axis=1) + 1e-8)
    return jnp.concatenate([ceps, delta], axis=1), energy


def pooled(x):
    feats, energy = mfcc(x)
    voiced = energy > jnp.max(energy) - 6.0  # frames within 6 nats of the loudest
    w = voiced / jnp.sum(voiced)
    mean = w @ feats
    std = jnp.sqrt(w @ (feats - mean) ** 2 + 1e-6)
    return jnp.concatenate([mean, std])


print("filterbank", FBANK.shape, "row sums", FBANK.sum(1)[:4], "frames", N_FRAMES)
one = make_word(random.PRNGKey(3), 0)
_, _, Z = stft(one, fs=SR, window="hann", nperseg=FRAME, noverlap=FRAME - HOP, boundary=None, padded=False)
mine = jnp.fft.rfft(one[FRAME_INDEX] * jnp.hanning(FRAME + 1)[:-1])
print(
    "stft",
    Z.shape,
    "matches hand framing:",
    bool(jnp.allclose(Z.T * jnp.hanning(FRAME + 1)[:-1].sum(), mine, atol=1e-3)),
)
feats, energy = mfcc(one)
print(
    "mfcc",
    feats.shape,
    "c0..c3 of frame 25",
    feats[25, :4],
    "energy range",
    float(energy.min()),
    float(energy.max()),
)

keys = random.split(random.PRNGKey(0), 150)
labels = jnp.arange(150) % 3
X = jax.vmap(pooled)(jax.vmap(make_word)(keys, labels))
mu, sd = X[:90].mean(0), X[:90].std(0) + 1e-6
X = (X - mu) / sd  # statistics from the training split only
Xtr, ytr, Xte, yte = X[:90], labels[:90], X[90:], labels[90:]
print("features", X.shape, "train means ~0:", bool(jnp.allclose(Xtr.mean(0), 0.0, atol=1e-4)))


def loss(params, X, y):
    logits = X @ params["W"] + params["b"]
    nll = -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=1))
    return nll + 1e-3 * jnp.sum(params["W"] ** 2)


params = {"W": jnp.zeros((X.shape[1], 3)), "b": jnp.zeros(3)}
step = jax.jit(lambda p: jax.tree_util.tree_map(lambda a, g: a - 0.2 * g, p, jax.grad(loss)(p, Xtr, ytr)))
for i in range(200):
    params = step(params)
    if i % 50 == 0 or i == 199:
        print(f"step {i}: train loss {float(loss(params, Xtr, ytr)):.4f}")
accuracy = lambda X, y: float(jnp.mean(jnp.argmax(X @ params["W"] + params["b"], 1) == y))
print("train accuracy", accuracy(Xtr, ytr), "test accuracy", accuracy(Xte, yte))
print(
    "confusion\n", jnp.zeros((3, 3), jnp.int32).at[yte, jnp.argmax(Xte @ params["W"] + params["b"], 1)].add(1)
)
