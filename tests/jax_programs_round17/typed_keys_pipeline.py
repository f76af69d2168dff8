"""New-style typed PRNG keys through every transformation, as in code migrated to
jax.random.key: random.key / key_data / wrap_key_data / key_impl, split with a shape
(split(key, (n, m))), fold_in with traced data, keys as vmap arguments, as scan carries and
scan inputs, as jit arguments and outputs, stored in pytrees, jnp.stack/concatenate/
indexing/reshape of key arrays, random.clone, and a dropout-style training loop driven by
per-step keys; the same numbers from raw uint32 PRNGKey keys where JAX guarantees them."""

import jax
import jax.numpy as jnp
from jax import lax, random

key = random.key(42)
print("key:", key.shape, key.dtype, jax.dtypes.issubdtype(key.dtype, jax.dtypes.prng_key))
print("impl:", random.key_impl(key))
print("key_data:", random.key_data(key))
raw = random.PRNGKey(42)
print("same bits as raw:", bool(jnp.all(random.key_data(key) == raw)))
print("normal typed vs raw:", random.normal(key, (3,)), random.normal(raw, (3,)))

grid = random.split(key, (2, 3))
print("split grid:", grid.shape, random.key_data(grid).shape)
print("grid uniforms:", jax.vmap(jax.vmap(lambda k: random.uniform(k)))(grid))
flat = grid.reshape(-1)
print("reshape/index:", flat.shape, bool(jnp.all(random.key_data(flat[4]) == random.key_data(grid[1, 1]))))
stacked = jnp.stack([key, random.fold_in(key, 1)])
both = jnp.concatenate([stacked, flat[:2]])
print("stack/concat:", stacked.shape, both.shape)
print("fold_in data:", random.key_data(random.fold_in(key, 7)))
wrapped = random.wrap_key_data(random.key_data(flat))
print("wrap round trip:", bool(jnp.all(random.key_data(wrapped) == random.key_data(flat))))
print("clone:", random.key_data(random.clone(key)))


@jax.jit
def jitted(k, x):
    k1, k2 = random.split(k)
    return k2, x + random.normal(k1, x.shape)


k, x = jitted(key, jnp.zeros(2))
print("jit returns a key:", k.dtype == key.dtype, x)


def folded(k, i):
    return random.bernoulli(random.fold_in(k, i), 0.3, (4,))


print("vmap fold_in over traced ints:", jax.vmap(folded, in_axes=(None, 0))(key, jnp.arange(3)))


def walk(carry, k_t):
    pos, k = carry
    k, sub = random.split(k)
    step = random.choice(sub, jnp.array([-1, 1])) + random.randint(k_t, (), 0, 2)
    return (pos + step, k), pos


(pos, kf), path = lax.scan(walk, (0, key), random.split(random.key(1), 10))
print("walk:", path, pos, random.key_data(kf))

state = {"rng": key, "w": jnp.ones(3)}
leaves, tree = jax.tree_util.tree_flatten(state)
print("pytree leaves dtypes:", [str(l.dtype) for l in leaves])


def dropout_loss(w, k, x, y):
    keep = random.bernoulli(k, 0.8, x.shape)
    h = jnp.where(keep, x / 0.8, 0.0)
    return jnp.mean((h @ w - y) ** 2)


xs = random.normal(random.key(3), (32, 3))
ys = xs @ jnp.array([1.0, -2.0, 0.5])


@jax.jit
def train(state):
    def body(i, st):
        k = random.fold_in(st["rng"], i)
        g = jax.grad(dropout_loss)(st["w"], k, xs, ys)
        return {"rng": st["rng"], "w": st["w"] - 0.05 * g}
    return lax.fori_loop(0, 100, body, state)


out = train(state)
print("trained w:", out["w"])
keys_b = random.split(random.key(9), 4)
per = jax.vmap(dropout_loss, in_axes=(None, 0, None, None))(out["w"], keys_b, xs, ys)
print("per-key losses:", per)
print("permutation:", random.permutation(random.key(5), 8), random.permutation(random.PRNGKey(5), 8))
