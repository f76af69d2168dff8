"""Growing neural cellular automata (Mordvintsev et al., 2020) in JAX as the Distill notebook's
ports write it: a 16-channel grid, perception by depthwise lax.conv_general_dilated with
identity/Sobel kernels (feature_group_count), a per-cell MLP as 1x1 convolutions, a
stochastic update mask from jax.random.bernoulli, living masks by 3x3 max pooling with
lax.reduce_window, many steps in lax.fori_loop under jit, the loss gradient through the whole
rollout, pool-based training steps with jnp.argsort, and jax.tree_util over the parameters."""

import jax
import jax.numpy as jnp
from jax import lax

jnp.set_printoptions(precision=5, suppress=True)

C, H, W = 8, 12, 12
sobel_x = jnp.array([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]]) / 8.0
identity = jnp.zeros((3, 3)).at[1, 1].set(1.0)
kernels = jnp.stack([identity, sobel_x, sobel_x.T])  # (3, 3, 3)
# depthwise: OIHW with O = 3 * C, I = 1, feature_group_count = C
perception_kernel = jnp.tile(kernels[:, None], (C, 1, 1, 1))


def perceive(x):  # x: (N, C, H, W)
    return lax.conv_general_dilated(x, perception_kernel, (1, 1), "SAME", feature_group_count=C,
                                    dimension_numbers=("NCHW", "OIHW", "NCHW"))


def alive(x):
    pooled = lax.reduce_window(x[:, 3:4], -jnp.inf, lax.max, (1, 1, 3, 3), (1, 1, 1, 1), "SAME")
    return pooled > 0.1


def init_params(key, hidden=32):
    k1, k2 = jax.random.split(key)
    w1 = jax.random.normal(k1, (hidden, 3 * C, 1, 1)) * jnp.sqrt(2.0 / (3 * C))
    return {"w1": w1, "b1": jnp.zeros(hidden), "w2": 0.1 * jax.random.normal(k2, (C, hidden, 1, 1))}


def update(params, x, key):
    pre = alive(x)
    y = perceive(x)
    h = lax.conv(y, params["w1"], (1, 1), "VALID") + params["b1"][None, :, None, None]
    dx = lax.conv(jax.nn.relu(h), params["w2"], (1, 1), "VALID")
    mask = jax.random.bernoulli(key, 0.5, (x.shape[0], 1, H, W))
    x = x + dx * mask
    life = pre & alive(x)
    return x * life


def rollout(params, x, key, steps):
    def body(i, carry):
        x, key = carry
        key, sub = jax.random.split(key)
        return update(params, x, sub), key

    return lax.fori_loop(0, steps, body, (x, key))[0]


seed = jnp.zeros((1, C, H, W)).at[:, 3:, H // 2, W // 2].set(1.0)
target = jnp.zeros((H, W)).at[3:9, 3:9].set(1.0)
params = init_params(jax.random.PRNGKey(0))
print("param shapes", jax.tree_util.tree_map(jnp.shape, params))
print("param count", sum(p.size for p in jax.tree_util.tree_leaves(params)))

p = perceive(seed)
print("perception shape", p.shape, "sobel at centre row", p[0, 3 * 4 + 1, H // 2, W // 2 - 2:W // 2 + 3])
print("alive cells at seed", int(alive(seed).sum()))

x1 = update(params, seed, jax.random.PRNGKey(1))
print("after one update: alive", int(alive(x1).sum()), "alpha sum", float(x1[:, 3].sum()))


def loss(params, x, key, steps=8):
    out = rollout(params, x, key, steps)
    return jnp.mean((out[:, 3] - target) ** 2)


l, g = jax.value_and_grad(loss)(params, seed, jax.random.PRNGKey(2))
print("loss", float(l))
print("grad norms", jax.tree_util.tree_map(lambda t: jnp.round(jnp.linalg.norm(t), 5), g))


# normalised-gradient training steps on a pool of states
@jax.jit
def train_step(params, pool, key):
    k1, k2 = jax.random.split(key)
    idx = jax.random.choice(k1, pool.shape[0], (4,), replace=False)
    batch = pool[idx]
    losses = jax.vmap(lambda s: jnp.mean((s[3] - target) ** 2))(batch)
    batch = batch[jnp.argsort(-losses)].at[0].set(seed[0])
    l, g = jax.value_and_grad(lambda p: loss(p, batch, k2))(params)
    g = jax.tree_util.tree_map(lambda t: t / (jnp.linalg.norm(t) + 1e-8), g)
    params = jax.tree_util.tree_map(lambda p, t: p - 0.01 * t, params, g)
    out = rollout(params, batch, k2, 8)
    return params, pool.at[idx].set(out), l


pool = jnp.tile(seed, (16, 1, 1, 1))
key = jax.random.PRNGKey(3)
for i in range(6):
    key, sub = jax.random.split(key)
    params, pool, l = train_step(params, pool, sub)
    print(f"train {i}: loss {float(l):.6f}")
print("pool alpha mean", float(pool[:, 3].mean()))
