"""Evolution strategies (OpenAI-ES, Salimans et al.; as in evosax-like research code): antithetic
Gaussian perturbations of a flat parameter vector, fitness by vmap over the population of a
small policy on a 1-D control task rolled out with lax.scan, centered-rank fitness shaping
with argsort, the ES gradient estimate, a hand-written Adam, jax.flatten_util.ravel_pytree to
move between the pytree and the flat vector, and CMA-style covariance statistics."""

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.flatten_util import ravel_pytree

POP, SIGMA, STEPS = 32, 0.1, 30


def init_policy(key):
    k1, k2 = random.split(key)
    return {"l1": {"w": random.normal(k1, (2, 8)) * 0.5, "b": jnp.zeros(8)},
            "l2": {"w": random.normal(k2, (8, 1)) * 0.5, "b": jnp.zeros(1)}}


def policy(p, obs):
    h = jnp.tanh(obs @ p["l1"]["w"] + p["l1"]["b"])
    return jnp.tanh(h @ p["l2"]["w"] + p["l2"]["b"])[0]


def episode_return(p):
    def step(state, _):
        pos, vel = state
        a = policy(p, jnp.stack([pos, vel]))
        vel = 0.9 * vel + 0.1 * a
        pos = pos + 0.1 * vel
        return (pos, vel), -(pos - 1.0) ** 2 - 0.01 * a ** 2
    _, rewards = lax.scan(step, (jnp.array(0.0), jnp.array(0.0)), None, length=STEPS)
    return rewards.sum()


params = init_policy(random.PRNGKey(0))
flat, unravel = ravel_pytree(params)
print("num params", flat.shape, flat.dtype)
print("unravel roundtrip", jax.tree.map(lambda a, b: bool(jnp.all(a == b)), unravel(flat), params))
print("initial return", episode_return(params))


def centered_ranks(x):
    ranks = jnp.argsort(jnp.argsort(x)).astype(jnp.float32)
    return ranks / (x.size - 1) - 0.5


@jax.jit
def es_step(flat, m, v, t, key):
    eps = random.normal(key, (POP // 2, flat.size))
    eps = jnp.concatenate([eps, -eps])
    fitness = jax.vmap(lambda e: episode_return(unravel(flat + SIGMA * e)))(eps)
    shaped = centered_ranks(fitness)
    grad = -jnp.dot(shaped, eps) / (POP * SIGMA)
    m = 0.9 * m + 0.1 * grad
    v = 0.999 * v + 0.001 * grad ** 2
    flat = flat - 0.05 * (m / (1 - 0.9 ** t)) / (jnp.sqrt(v / (1 - 0.999 ** t)) + 1e-8)
    return flat, m, v, fitness.mean(), fitness.max()


m = v = jnp.zeros_like(flat)
key = random.PRNGKey(1)
for t in range(1, 31):
    key, sk = random.split(key)
    flat, m, v, mean_fit, max_fit = es_step(flat, m, v, t, sk)
    if t % 10 == 0:
        print(f"gen {t} mean {mean_fit:.4f} max {max_fit:.4f}")
print("final return", episode_return(unravel(flat)))
print("ranks", centered_ranks(jnp.array([3.0, -1.0, 2.0, 10.0, 0.0])))

true_grad = ravel_pytree(jax.grad(episode_return)(unravel(flat)))[0]
eps = random.normal(random.PRNGKey(2), (256, flat.size))
fit = jax.vmap(lambda e: episode_return(unravel(flat + 0.01 * e))
               - episode_return(unravel(flat - 0.01 * e)))(eps)
es_grad = jnp.dot(fit, eps) / (2 * 0.01 * 256)
cos = jnp.dot(true_grad, es_grad) / (jnp.linalg.norm(true_grad) * jnp.linalg.norm(es_grad))
print("cosine(ES grad, true grad) > 0.5:", bool(cos > 0.5))

samples = flat[:4] + 0.1 * random.multivariate_normal(random.PRNGKey(3), jnp.zeros(4), jnp.eye(4), (500,))
C = jnp.cov(samples, rowvar=False)
print("sample cov diag", jnp.diag(C))
w, _ = jnp.linalg.eigh(C)
print("eigvals", w)
