"""jax.random idioms: key splitting, fold_in, typed keys, vmap over keys, and the samplers
tutorials use (normal, uniform, randint, choice, permutation, bernoulli, categorical)."""

import jax
import jax.numpy as jnp

key = jax.random.PRNGKey(42)
print(key)
print(jax.random.normal(key))
print(jax.random.normal(key))  # same key, same number

key, subkey = jax.random.split(key)
print(key, subkey)
print(jax.random.normal(subkey, (3,)))
key, *subkeys = jax.random.split(key, 4)
print(len(subkeys), [float(jax.random.uniform(k)) for k in subkeys])

# split is not "a sequence from one key"
print(jax.random.normal(jax.random.PRNGKey(0), (3,)))
print(jnp.stack([jax.random.normal(k) for k in jax.random.split(jax.random.PRNGKey(0), 3)]))

keys = jax.random.split(jax.random.PRNGKey(1), 5)
print(keys.shape, keys.dtype)
print(jax.vmap(lambda k: jax.random.uniform(k, (2,)))(keys))

print(jax.random.fold_in(jax.random.PRNGKey(0), 7))
print(jax.random.bits(jax.random.PRNGKey(3), (4,)))

# new-style typed keys
k = jax.random.key(0)
print(k.shape, jax.random.key_data(k))
k1, k2 = jax.random.split(k)
print(jax.random.key_data(k1), jax.random.key_data(k2))
print(jax.random.uniform(k2, (3,), minval=-1.0, maxval=1.0))

key = jax.random.PRNGKey(2024)
k = jax.random.split(key, 8)
print(jax.random.randint(k[0], (6,), 0, 10))
print(jax.random.permutation(k[1], 10))
print(jax.random.permutation(k[1], jnp.arange(12).reshape(4, 3), axis=0))
print(jax.random.choice(k[2], 5, (3,), replace=False))
print(jax.random.choice(k[3], jnp.array([10, 20, 30]), (5,), p=jnp.array([0.1, 0.2, 0.7])))
print(jax.random.bernoulli(k[4], 0.3, (8,)))
print(jax.random.categorical(k[5], jnp.log(jnp.array([0.2, 0.3, 0.5])), shape=(8,)))
print(jax.random.truncated_normal(k[6], -1.0, 1.0, (4,)))
x = jax.random.normal(k[7], (1000,))
print(f"mean {float(x.mean()):.5f} std {float(x.std()):.5f}")
print(jax.random.gumbel(k[0], (3,)))
print(jax.random.exponential(k[1], (3,)))
print(jax.random.laplace(k[2], (3,)))
print(jax.random.logistic(k[3], (3,)))
print(jax.random.multivariate_normal(k[4], jnp.zeros(2), jnp.array([[1.0, 0.5], [0.5, 2.0]]),
                                     (3,)))
print(jax.random.orthogonal(k[5], 3))
print(jax.random.rademacher(k[6], (6,)))
print(jax.random.ball(k[7], 2, shape=(2,)))


# dropout with a key threaded through a jitted function
@jax.jit
def dropout(key, x, rate=0.5):
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(keep, x / (1.0 - rate), 0.0)


print(dropout(jax.random.PRNGKey(5), jnp.arange(1.0, 9.0)))
