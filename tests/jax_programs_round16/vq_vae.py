"""A vector-quantized autoencoder (VQ-VAE, van den Oord et al., 2017) as written in JAX
research code: an MLP encoder to a grid of latent vectors, nearest-codebook lookup by argmin
of squared distances, the straight-through estimator z + stop_gradient(q - z), codebook and
commitment losses, exponential-moving-average codebook updates with Laplace smoothing
(bincount-free: one_hot sums), dead-code counting, codebook perplexity, and a
jax.tree_util.register_dataclass state passed through jit."""

from dataclasses import dataclass, field

import jax
import jax.numpy as jnp
from jax import random

K, D, N_LATENT, DECAY, BETA = 16, 4, 8, 0.9, 0.25


@jax.tree_util.register_dataclass
@dataclass
class VQState:
    codebook: jax.Array
    ema_count: jax.Array
    ema_sum: jax.Array
    decay: float = field(metadata=dict(static=True), default=DECAY)


def init_mlp(key, sizes):
    keys = random.split(key, len(sizes) - 1)
    return [(random.normal(k, (m, n)) * jnp.sqrt(2.0 / m), jnp.zeros(n))
            for k, m, n in zip(keys, sizes[:-1], sizes[1:])]


def mlp(params, x):
    for w, b in params[:-1]:
        x = jax.nn.relu(x @ w + b)
    w, b = params[-1]
    return x @ w + b


def make_data(key, n):
    # signals built from a few discrete prototypes: a dataset a small codebook can compress
    kp, ki, kn = random.split(key, 3)
    protos = random.normal(kp, (6, 32))
    idx = random.randint(ki, (n, 2), 0, 6)
    return protos[idx[:, 0]] + 0.5 * protos[idx[:, 1]] + 0.05 * random.normal(kn, (n, 32))


def quantize(codebook, z):
    d = jnp.sum(z ** 2, -1, keepdims=True) - 2 * z @ codebook.T + jnp.sum(codebook ** 2, -1)
    idx = jnp.argmin(d, axis=-1)
    return codebook[idx], idx


def loss_fn(params, state, x):
    z = mlp(params["enc"], x).reshape(x.shape[0], N_LATENT, D)
    q, idx = quantize(state.codebook, z)
    commit = jnp.mean((z - jax.lax.stop_gradient(q)) ** 2)
    z_st = z + jax.lax.stop_gradient(q - z)
    recon = mlp(params["dec"], z_st.reshape(x.shape[0], -1))
    rec = jnp.mean((recon - x) ** 2)
    return rec + BETA * commit, (rec, commit, z, idx)


def ema_update(state, z, idx):
    onehot = jax.nn.one_hot(idx.reshape(-1), K, dtype=z.dtype)
    flat = z.reshape(-1, D)
    decay = state.decay
    count = decay * state.ema_count + (1 - decay) * onehot.sum(0)
    total = count.sum()
    count = (count + 1e-5) / (total + K * 1e-5) * total
    ema_sum = decay * state.ema_sum + (1 - decay) * onehot.T @ flat
    return VQState(ema_sum / count[:, None], count, ema_sum, decay)


@jax.jit
def train_step(params, state, x, lr=3e-3):
    (loss, (rec, commit, z, idx)), g = jax.value_and_grad(loss_fn, has_aux=True)(params, state, x)
    params = jax.tree.map(lambda p, g: p - lr * g, params, g)
    state = ema_update(state, jax.lax.stop_gradient(z), idx)
    probs = jnp.bincount(idx.reshape(-1), length=K) / idx.size
    perplexity = jnp.exp(-jnp.sum(probs * jnp.log(probs + 1e-10)))
    return params, state, loss, rec, commit, perplexity, jnp.sum(probs == 0)


key = random.PRNGKey(3)
ke, kd, kc, kx = random.split(key, 4)
params = {"enc": init_mlp(ke, [32, 64, N_LATENT * D]), "dec": init_mlp(kd, [N_LATENT * D, 64, 32])}
codebook = random.normal(kc, (K, D))
state = VQState(codebook, jnp.ones(K), codebook.copy())
x = make_data(kx, 128)
print("leaves", [a.shape for a in jax.tree.leaves(state)], "decay (static)", state.decay)
q, idx = quantize(state.codebook, jnp.eye(D)[:3])
print("nearest codes", idx, q.shape)

# the straight-through estimator: d/dz of f(z + sg(q - z)) equals f'(q)
z = jnp.linspace(-1.0, 1.0, 2 * D).reshape(2, D)
g_st = jax.grad(lambda z: jnp.sum(jnp.sin(z + jax.lax.stop_gradient(quantize(codebook, z)[0] - z))))(z)
print("straight-through grad == cos(q):", bool(jnp.allclose(g_st, jnp.cos(quantize(codebook, z)[0]))))

for i in range(200):
    params, state, loss, rec, commit, ppl, dead = train_step(params, state, x)
    if i % 40 == 0 or i == 199:
        print(f"step {i:3d} loss {loss:.4f} recon {rec:.4f} commit {commit:.4f} "
              f"perplexity {ppl:.3f} dead codes {dead}")
print("ema count sum", state.ema_count.sum())
_, (_, _, _, idx) = loss_fn(params, state, x[:2])
print("codes of two signals", idx)
