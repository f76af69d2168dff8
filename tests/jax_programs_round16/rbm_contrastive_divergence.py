"""A binary restricted Boltzmann machine trained by persistent contrastive divergence
(Hinton; Tieleman), as JAX tutorials write it: Gibbs sampling with jax.random.bernoulli
inside lax.fori_loop, the free energy with jax.nn.softplus, the CD gradient as
jax.grad of the free-energy difference with lax.stop_gradient on the negative samples,
persistent chains carried between steps, pseudo-log-likelihood by flipping one bit per
example (jnp.take_along_axis / .at[].set), exact log-partition for a small model by
enumerating all hidden states with jax.vmap, and reconstruction error."""

import itertools

import jax
import jax.numpy as jnp
from jax import lax, random

N_VIS, N_HID, N_CHAINS, K = 12, 6, 64, 5


def make_data(key, n):
    # two prototype patterns with bit-flip noise
    protos = jnp.array([[1] * 6 + [0] * 6, [0, 1] * 6], dtype=jnp.float32)
    kc, kf = random.split(key)
    which = random.bernoulli(kc, 0.5, (n,)).astype(jnp.int32)
    flips = random.bernoulli(kf, 0.05, (n, N_VIS))
    return jnp.abs(protos[which] - flips.astype(jnp.float32))


def free_energy(params, v):
    w, b, c = params
    return -v @ b - jnp.sum(jax.nn.softplus(v @ w + c), axis=-1)


def sample_h(params, v, key):
    w, _, c = params
    p = jax.nn.sigmoid(v @ w + c)
    return random.bernoulli(key, p).astype(v.dtype), p


def sample_v(params, h, key):
    w, b, _ = params
    p = jax.nn.sigmoid(h @ w.T + b)
    return random.bernoulli(key, p).astype(h.dtype), p


def gibbs(params, v, key, k):
    def body(i, carry):
        v, key = carry
        key, kh, kv = random.split(key, 3)
        h, _ = sample_h(params, v, kh)
        v, _ = sample_v(params, h, kv)
        return v, key
    v, _ = lax.fori_loop(0, k, body, (v, key))
    return v


def cd_loss(params, v_data, v_model):
    v_model = lax.stop_gradient(v_model)
    return free_energy(params, v_data).mean() - free_energy(params, v_model).mean()


@jax.jit
def train_step(params, chains, batch, key, lr=0.05):
    chains = gibbs(params, chains, key, K)
    loss, g = jax.value_and_grad(cd_loss)(params, batch, chains)
    params = jax.tree.map(lambda p, g: p - lr * g, params, g)
    return params, chains, loss


def pseudo_log_likelihood(params, v, key):
    idx = random.randint(key, (v.shape[0],), 0, N_VIS)
    bit = jnp.take_along_axis(v, idx[:, None], axis=1)[:, 0]
    flipped = v.at[jnp.arange(v.shape[0]), idx].set(1 - bit)
    return N_VIS * jnp.mean(jnp.log(jax.nn.sigmoid(free_energy(params, flipped) - free_energy(params, v))))


def exact_log_z(params):
    w, b, c = params
    hs = jnp.array(list(itertools.product([0.0, 1.0], repeat=N_HID)), dtype=w.dtype)
    # sum over v analytically given h: log Z = logsumexp_h [h.c + sum_i softplus(b_i + (W h)_i)]
    terms = jax.vmap(lambda h: h @ c + jnp.sum(jax.nn.softplus(b + w @ h)))(hs)
    return jax.nn.logsumexp(terms)


key = random.PRNGKey(0)
kd, kw, kc, key = random.split(key, 4)
data = make_data(kd, 256)
print("data mean", data.mean(0))
params = (0.01 * random.normal(kw, (N_VIS, N_HID)), jnp.zeros(N_VIS), jnp.zeros(N_HID))
chains = random.bernoulli(kc, 0.5, (N_CHAINS, N_VIS)).astype(jnp.float32)
print("initial free energy", free_energy(params, data[:3]))
print("initial log Z", exact_log_z(params), "== (V+H) log 2:", (N_VIS + N_HID) * jnp.log(2.0))

for epoch in range(8):
    for i in range(0, 256, 64):
        key, sub = random.split(key)
        params, chains, loss = train_step(params, chains, data[i:i + 64], sub)
    key, sub = random.split(key)
    ll = -free_energy(params, data).mean() - exact_log_z(params)
    print(f"epoch {epoch} cd {loss:.4f} pseudo-ll {pseudo_log_likelihood(params, data, sub):.4f} "
          f"exact avg log-lik {ll:.4f}")

_, ph = sample_h(params, data[:4], random.PRNGKey(1))
_, pv = sample_v(params, (ph > 0.5).astype(ph.dtype), random.PRNGKey(2))
print("reconstruction error", jnp.mean((pv - data[:4]) ** 2))
print("chain means", chains.mean(0))
