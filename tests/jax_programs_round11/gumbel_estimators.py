"""Discrete-variable gradient estimators (as in the Gumbel-softmax and REINFORCE tutorials):
Gumbel-max sampling with random.gumbel checked against random.categorical frequencies, the
Gumbel-softmax relaxation at several temperatures, the straight-through estimator with
stop_gradient and one_hot, REINFORCE with a baseline, the reparameterized Concrete
gradient against the exact gradient of an expectation over a categorical, and
jax.nn.log_softmax / jax.nn.softmax with where= masks."""

import numpy as np

import jax
import jax.numpy as jnp

logits = jnp.array([1.0, 0.2, -0.5, 2.0])
probs = jax.nn.softmax(logits)
print("probs", np.round(np.asarray(probs), 5))

key = jax.random.key(0)
g = jax.random.gumbel(key, (20000, 4))
gm = jnp.argmax(logits + g, axis=-1)
cat = jax.random.categorical(jax.random.key(1), logits, shape=(20000,))
print("gumbel-max freq", np.round(np.asarray(jnp.bincount(gm, length=4) / 20000), 3))
print("categorical freq", np.round(np.asarray(jnp.bincount(cat, length=4) / 20000), 3))


def gumbel_softmax(key, logits, tau):
    return jax.nn.softmax((logits + jax.random.gumbel(key, logits.shape)) / tau)


for tau in (5.0, 1.0, 0.1):
    y = gumbel_softmax(jax.random.key(2), logits, tau)
    print(f"tau={tau} sample", np.round(np.asarray(y), 4), "max", round(float(y.max()), 4))


def straight_through(key, logits, tau):
    y = gumbel_softmax(key, logits, tau)
    hard = jax.nn.one_hot(jnp.argmax(y), y.shape[-1], dtype=y.dtype)
    return hard - jax.lax.stop_gradient(y) + y


f_vals = jnp.array([3.0, -1.0, 0.5, 1.0])
st = straight_through(jax.random.key(3), logits, 0.5)
print("straight-through forward", st.tolist())
st_grad = jax.grad(lambda l: jnp.dot(straight_through(jax.random.key(3), l, 0.5), f_vals))(logits)
print("straight-through grad", np.round(np.asarray(st_grad), 5))

exact = jax.grad(lambda l: jnp.dot(jax.nn.softmax(l), f_vals))(logits)
print("exact grad", np.round(np.asarray(exact), 5))


def reinforce(l, key, n=4000):
    samples = jax.random.categorical(key, l, shape=(n,))
    logp = jax.nn.log_softmax(l)[samples]
    fv = f_vals[samples]
    baseline = jax.lax.stop_gradient(fv.mean())
    return jnp.mean(jax.lax.stop_gradient(fv - baseline) * logp)


rf = jax.grad(reinforce)(logits, jax.random.key(4))
print("reinforce grad", np.round(np.asarray(rf), 3), float(jnp.max(jnp.abs(rf - exact))) < 0.15)


def relaxed(l, key, tau=0.3, n=4000):
    keys = jax.random.split(key, n)
    ys = jax.vmap(lambda k: gumbel_softmax(k, l, tau))(keys)
    return jnp.mean(ys @ f_vals)


rg = jax.jit(jax.grad(relaxed))(logits, jax.random.key(5))
print("concrete grad", np.round(np.asarray(rg), 3))
mask = jnp.array([True, True, False, True])
print("masked softmax", np.round(np.asarray(jax.nn.softmax(logits, where=mask)), 5))
print("masked log_softmax", np.round(np.asarray(jax.nn.log_softmax(logits, where=mask)), 5))
print("logsumexp", round(float(jax.nn.logsumexp(logits)), 6),
      round(float(jax.scipy.special.logsumexp(logits, b=probs)), 6))
