"""Recurrent networks with lax.scan (as in the "RNNs in JAX" tutorials and flax's
LSTMCell/GRUCell written by hand): an LSTM and a GRU cell with parameters from
jax.nn.initializers (orthogonal recurrent weights, glorot inputs, zero biases), unrolled
over a sequence by scan, a many-to-one regression (sum of a noisy sequence) trained with a
hand-written RMSProp over the parameter pytree and global-norm clipping, a bidirectional
pass by scan(reverse=True), masking of padded steps, and vmap over a batch of sequences."""

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.nn import initializers

H, D = 8, 3
key = random.key(42)
k1, k2, k3, k4, k5 = random.split(key, 5)


def lstm_params(k):
    ki, kh = random.split(k)
    return {"wi": initializers.glorot_uniform()(ki, (D, 4 * H)),
            "wh": initializers.orthogonal()(kh, (H, 4 * H)),
            "b": initializers.zeros(k, (4 * H,)).at[H:2 * H].set(1.0)}  # forget bias 1


def lstm_cell(p, carry, x):
    h, c = carry
    z = x @ p["wi"] + h @ p["wh"] + p["b"]
    i, f, g, o = jnp.split(z, 4, axis=-1)
    c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
    h = jax.nn.sigmoid(o) * jnp.tanh(c)
    return (h, c), h


def gru_params(k):
    ki, kh = random.split(k)
    return {"wi": initializers.lecun_normal()(ki, (D, 3 * H)),
            "wh": initializers.orthogonal(scale=0.5)(kh, (H, 3 * H)), "b": jnp.zeros(3 * H)}


def gru_cell(p, h, x):
    xr, xz, xn = jnp.split(x @ p["wi"] + p["b"], 3)
    hr, hz, hn = jnp.split(h @ p["wh"], 3)
    r, z = jax.nn.sigmoid(xr + hr), jax.nn.sigmoid(xz + hz)
    n = jnp.tanh(xn + r * hn)
    h = (1 - z) * n + z * h
    return h, h


lp, gp = lstm_params(k1), gru_params(k2)
wh = lp["wh"]
print("orthogonal rows", jnp.allclose(wh @ wh.T, jnp.eye(H), atol=1e-5), wh.shape)
print(jax.tree.map(jnp.shape, lp))

T = 12
xs = random.normal(k3, (T, D))
(h, c), hs = lax.scan(lambda carry, x: lstm_cell(lp, carry, x), (jnp.zeros(H), jnp.zeros(H)), xs)
print("lstm", hs.shape, jnp.round(h[:4], 4))
hg, hgs = lax.scan(lambda h, x: gru_cell(gp, h, x), jnp.zeros(H), xs)
_, hgs_rev = lax.scan(lambda h, x: gru_cell(gp, h, x), jnp.zeros(H), xs, reverse=True)
print("gru", jnp.round(hg[:4], 4), "bidirectional", jnp.concatenate([hgs, hgs_rev], -1).shape)
_, loop_rev = lax.scan(lambda h, x: gru_cell(gp, h, x), jnp.zeros(H), xs[::-1])
print("reverse matches flipped", jnp.allclose(hgs_rev, loop_rev[::-1], atol=1e-6))


def masked_final(p, xs, length):
    def step(carry, inp):
        t, x = inp
        new, _ = lstm_cell(p, carry, x)
        keep = t < length
        carry = jax.tree.map(lambda a, b: jnp.where(keep, a, b), new, carry)
        return carry, None

    (h, _), _ = lax.scan(step, (jnp.zeros(H), jnp.zeros(H)), (jnp.arange(T), xs))
    return h


print("mask = truncation", jnp.allclose(masked_final(lp, xs, 5),
                                         lax.scan(lambda c, x: lstm_cell(lp, c, x),
                                                  (jnp.zeros(H), jnp.zeros(H)), xs[:5])[0][0], atol=1e-6))

params = {"cell": lp, "w_out": jnp.zeros(H), "b_out": jnp.zeros(())}
B = 16
X = random.normal(k4, (B, T, D))
lengths = random.randint(k5, (B,), 4, T + 1)
Y = jnp.where(jnp.arange(T)[None, :] < lengths[:, None], X[..., 0], 0.0).sum(1) / 4.0


def predict(params, xs, length):
    return masked_final(params["cell"], xs, length) @ params["w_out"] + params["b_out"]


def loss(params):
    return jnp.mean((jax.vmap(predict, (None, 0, 0))(params, X, lengths) - Y) ** 2)


def clip(g, max_norm):
    norm = jnp.sqrt(sum(jnp.sum(x ** 2) for x in jax.tree.leaves(g)))
    return jax.tree.map(lambda x: x * jnp.minimum(1.0, max_norm / norm), g), norm


@jax.jit
def update(params, ms):
    value, g = jax.value_and_grad(loss)(params)
    g, norm = clip(g, 1.0)
    ms = jax.tree.map(lambda m, x: 0.9 * m + 0.1 * x ** 2, ms, g)
    params = jax.tree.map(lambda p, x, m: p - 0.03 * x / (jnp.sqrt(m) + 1e-6), params, g, ms)
    return params, ms, value, norm


ms = jax.tree.map(jnp.zeros_like, params)
for i in range(30):
    params, ms, value, norm = update(params, ms)
    if i % 6 == 0:
        print(i, round(float(value), 4), round(float(norm), 4))
print("final loss", round(float(loss(params)), 4))
