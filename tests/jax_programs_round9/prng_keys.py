"""JAX's "Pseudorandom numbers" page: new-style typed keys (random.key) against legacy
uint32 keys (PRNGKey), key_data/wrap_key_data, split and fold_in, keys in arrays, vmap over
keys, and samplers whose streams depend on the key only."""

import jax
import jax.numpy as jnp
from jax import random

key = random.key(1701)
legacy = random.PRNGKey(1701)
print(key)
print(legacy, legacy.dtype, legacy.shape)
print(key.dtype, key.shape, jnp.issubdtype(key.dtype, jax.dtypes.prng_key), jnp.issubdtype(legacy.dtype,
                                                                                      jax.dtypes.prng_key))
print(random.key_data(key), random.key_data(key).dtype)
print(random.key_data(key) == legacy)
wrapped = random.wrap_key_data(legacy)
print(wrapped.dtype, random.normal(wrapped), random.normal(legacy), random.normal(key))
print(random.key_impl(key))

# splitting
new_key, subkey = random.split(key)
print(random.key_data(new_key), random.key_data(subkey))
keys = random.split(key, 4)
print(keys.shape, keys.dtype, random.key_data(keys))
print(random.split(legacy, 3))
print(random.key_data(random.split(key, (2, 3))).shape)
print(random.key_data(random.fold_in(key, 7)), random.fold_in(legacy, 7))
print(random.key_data(random.clone(key)))

# sampling with arrays of keys
print(jax.vmap(lambda k: random.uniform(k, (2,)))(keys))
print(jax.vmap(random.normal)(random.split(legacy, 3)))
print(random.normal(random.fold_in(key, 0), (3,)), random.normal(random.fold_in(key, 1), (3,)))


def sample_many(k, n):
    ks = random.split(k, n)
    return jnp.stack([random.uniform(ki) for ki in ks])


print(sample_many(key, 4))
print(jax.jit(lambda k: random.normal(k, (2, 2)))(key))

# the same key gives the same numbers; a sequence of samples uses split
print(random.normal(key), random.normal(key))
k1, k2 = random.split(random.key(0))
print(random.randint(k1, (5,), 0, 10), random.randint(k2, (5,), 0, 10))
print(random.bits(random.key(3), (3,), jnp.uint32), random.bits(random.key(3), (2,), jnp.uint8))
print(random.choice(random.key(5), 10, (4,), replace=False))
print(random.choice(random.key(5), jnp.arange(5) * 2, (3,)))
print(random.permutation(random.key(2), jnp.arange(6)), random.permutation(random.key(2), 6))
print(random.permutation(random.key(2), jnp.arange(6).reshape(2, 3), axis=1, independent=True))
print(random.uniform(random.key(9), (3,), minval=-2.0, maxval=2.0))
print(random.normal(random.key(9), (2,), dtype=jnp.float16))
print(random.bernoulli(random.key(11), 0.3, (8,)))
print(random.categorical(random.key(12), jnp.log(jnp.array([0.1, 0.2, 0.7])), shape=(6,)))
print(random.truncated_normal(random.key(13), -1.0, 1.0, (3,)))
print(random.exponential(random.key(14), (3,)), random.gamma(random.key(15), 2.0, (3,)))
print(random.beta(random.key(16), 2.0, 3.0, (3,)), random.poisson(random.key(17), 3.0, (4,)))
