"""JAX's "Pseudorandom numbers" page and the jax.random reference: NumPy's global-state
generator vs explicit keys, jax.random.key (typed) vs PRNGKey (raw uint32), key_data and
wrap_key_data, split into several shapes, fold_in, clone, the same key giving the same
numbers, sequential equivalence of split draws, typed keys under vmap/jit, key dtypes and
reprs, and the basic samplers' shapes, dtypes and numbers."""

import jax
import jax.numpy as jnp
import numpy as np
from jax import random

np.random.seed(0)
print(np.random.random(3).round(4))
key = random.key(42)
print(key.dtype, key.shape, jnp.issubdtype(key.dtype, jax.dtypes.prng_key))
raw = random.PRNGKey(42)
print(raw, raw.dtype, raw.shape)
print(random.key_data(key), jnp.array_equal(random.key_data(key), raw))
print(random.wrap_key_data(raw).dtype, random.normal(random.wrap_key_data(raw)), random.normal(raw))
print(random.normal(key), random.normal(key))
new_key, subkey = random.split(key)
print(random.normal(subkey), random.normal(new_key))
k3 = random.split(key, 3)
print(k3.shape, random.key_data(k3))
k23 = random.split(key, (2, 3))
print(k23.shape, random.key_data(k23)[1, 2])
print(random.key_data(random.fold_in(key, 7)), random.key_data(random.fold_in(key, jnp.uint32(7))))
print(random.key_data(random.clone(key)))
print(random.uniform(key, (3,)), random.randint(key, (4,), 0, 10), random.bernoulli(key, 0.3, (5,)))
print(random.normal(key, (2, 2), dtype=jnp.float16).dtype, random.uniform(key, (), jnp.bfloat16, 1.0, 2.0))
print(jax.vmap(lambda k: random.normal(k))(k3))
print(jax.jit(lambda k: random.uniform(k, (2,)))(key))
print(jax.vmap(random.normal)(random.split(raw, 2)))


def sample_many(key, n):
    out = []
    for _ in range(n):
        key, sub = random.split(key)
        out.append(random.uniform(sub))
    return jnp.stack(out)


print(sample_many(key, 4))
print(random.permutation(key, 6), random.permutation(key, jnp.arange(10, 16)))
print(
    random.choice(key, 5, (3,), replace=False),
    random.choice(key, jnp.array([1.0, 2.0, 4.0]), (4,), p=jnp.array([0.2, 0.3, 0.5])),
)
print(random.truncated_normal(key, -1.0, 1.0, (3,)), random.exponential(key, (2,)))
print(random.categorical(key, jnp.log(jnp.array([0.1, 0.6, 0.3])), shape=(6,)))
print(random.gamma(key, 2.0, (2,)), random.beta(key, 2.0, 3.0, (2,)))
print(random.bits(key, (2,)), random.bits(key, (2,), jnp.uint8))
print(random.multivariate_normal(key, jnp.zeros(2), jnp.array([[1.0, 0.5], [0.5, 2.0]]), (3,)))
print(random.laplace(key, (2,)), random.logistic(key, (2,)), random.cauchy(key, (2,)))
print(random.poisson(key, 3.0, (4,)), random.dirichlet(key, jnp.ones(3)))
Q = random.orthogonal(key, 3)
print(Q, jnp.allclose(Q @ Q.T, jnp.eye(3), atol=1e-5))
print(random.rademacher(key, (4,)), random.maxwell(key, (2,)), random.t(key, 3.0, (2,)))
print(random.ball(key, 2, shape=(2,)), random.generalized_normal(key, 1.5, (2,)))
print(random.loggamma(key, 0.5, (2,)), random.weibull_min(key, 1.0, 2.0, (2,)))
print(random.split(key).dtype, str(random.split(key)[0].dtype))
keys = random.split(key, 4)
print(jnp.stack([random.normal(k) for k in keys]), jax.vmap(random.normal)(keys))
print(random.key_impl(key))
try:
    random.normal(jnp.array([1, 2, 3], dtype=jnp.uint32))
except (TypeError, ValueError) as e:
    print(type(e).__name__)
