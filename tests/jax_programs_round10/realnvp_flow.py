"""A RealNVP normalizing flow (the "Normalizing flows in JAX" tutorials): affine coupling
layers whose scale/shift nets are stax MLPs, masks, the log-determinant, maximum-likelihood
training on two moons with example_libraries.optimizers, and sampling by the inverse."""

import jax
import jax.numpy as jnp
import numpy as onp
from jax import random
from jax.example_libraries import optimizers, stax
from jax.scipy.stats import multivariate_normal, norm


def make_moons(key, n):
    k1, k2 = random.split(key)
    t = random.uniform(k1, (n,), maxval=jnp.pi)
    upper = jnp.stack([jnp.cos(t), jnp.sin(t)], 1)
    lower = jnp.stack([1 - jnp.cos(t), 0.5 - jnp.sin(t)], 1)
    x = jnp.where((jnp.arange(n) % 2 == 0)[:, None], upper, lower)
    return x + 0.05 * random.normal(k2, (n, 2))


def coupling_net():
    return stax.serial(stax.Dense(32), stax.Tanh, stax.Dense(32), stax.Tanh,
                       stax.FanOut(2), stax.parallel(stax.Dense(1), stax.Dense(1)))


def init_flow(key, n_layers):
    params, masks = [], []
    init_fn, apply_fn = coupling_net()
    for i, k in enumerate(random.split(key, n_layers)):
        _, p = init_fn(k, (-1, 1))
        params.append(p)
        masks.append(i % 2)
    return params, masks, apply_fn


params, masks, net_apply = init_flow(random.PRNGKey(0), 4)


def forward(params, x):
    """data -> latent, with log|det J|"""
    log_det = jnp.zeros(x.shape[0])
    for p, m in zip(params, masks):
        cond, other = (x[:, :1], x[:, 1:]) if m == 0 else (x[:, 1:], x[:, :1])
        log_s, t = net_apply(p, cond)
        log_s = jnp.tanh(log_s)
        other = other * jnp.exp(log_s) + t
        x = jnp.concatenate([cond, other], 1) if m == 0 else jnp.concatenate([other, cond], 1)
        log_det = log_det + log_s[:, 0]
    return x, log_det


def inverse(params, z):
    for p, m in reversed(list(zip(params, masks))):
        cond, other = (z[:, :1], z[:, 1:]) if m == 0 else (z[:, 1:], z[:, :1])
        log_s, t = net_apply(p, cond)
        other = (other - t) * jnp.exp(-jnp.tanh(log_s))
        z = jnp.concatenate([cond, other], 1) if m == 0 else jnp.concatenate([other, cond], 1)
    return z


def log_prob(params, x):
    z, log_det = forward(params, x)
    return norm.logpdf(z).sum(-1) + log_det


data = make_moons(random.PRNGKey(1), 256)
print("data", data.shape, data.dtype, data.mean(0))
z, ld = forward(params, data[:3])
print("roundtrip", jnp.allclose(inverse(params, z), data[:3], atol=1e-5))
# the log-determinant against the Jacobian's, computed by jacfwd per point
J = jax.vmap(jax.jacfwd(lambda x: forward(params, x[None])[0][0]))(data[:3])
print("logdet", ld, jnp.linalg.slogdet(J)[1])
print("mvn", multivariate_normal.logpdf(z, jnp.zeros(2), jnp.eye(2)), norm.logpdf(z).sum(-1))

opt_init, opt_update, get_params = optimizers.adam(3e-3)
opt_state = opt_init(params)


@jax.jit
def step(i, state, batch):
    loss, g = jax.value_and_grad(lambda p: -log_prob(p, batch).mean())(get_params(state))
    return opt_update(i, g, state), loss


for i in range(12):
    batch = data[(i % 4) * 64:(i % 4 + 1) * 64]
    opt_state, loss = step(i, opt_state, batch)
    if i % 3 == 0:
        print(i, loss)

params = get_params(opt_state)
samples = inverse(params, random.normal(random.PRNGKey(5), (4, 2)))
print("samples", samples)
print("mean log-lik", log_prob(params, data).mean())
print("leaves", len(jax.tree_util.tree_leaves(params)), onp.asarray(params[0][0][0]).shape)
