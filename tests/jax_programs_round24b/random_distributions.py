"""``jax.random`` samplers the earlier programs skipped -- ``chisquare``, ``lognormal``,
``pareto``, ``rayleigh``, ``wald``, ``double_sided_maxwell`` -- checked as the random-numbers
tutorial does: key handling (``split``, ``fold_in``, typed keys and ``key_data``), shapes and
dtypes, sample moments against the closed forms, log-likelihoods from ``jax.scipy.stats`` at
the samples, reparameterised gradients where the sampler has them, and ``vmap`` over keys."""

import jax
import jax.numpy as jnp
from jax import random
from jax.scipy import stats

key = random.key(2024)
print("key dtype:", key.dtype, "key_data:", random.key_data(key).shape, random.key_data(key).dtype)
k_chi, k_logn, k_par, k_ray, k_wald, k_dsm = random.split(key, 6)
n = 20000

chi = random.chisquare(k_chi, 4.0, (n,))
print("chisquare:", chi.dtype, chi.shape, "mean", jnp.round(chi.mean(), 2), "var", jnp.round(chi.var(), 1))
print("chisquare first:", chi[:3])
logn = random.lognormal(k_logn, sigma=0.5, shape=(n,))
print("lognormal mean", jnp.round(logn.mean(), 3), "exact", jnp.round(jnp.exp(0.125), 3),
      "log-mean", jnp.round(jnp.log(logn).mean(), 3))
par = random.pareto(k_par, 3.0, (n,))
print("pareto min", jnp.round(par.min(), 4), "mean", jnp.round(par.mean(), 2), "exact", 1.5)
ray = random.rayleigh(k_ray, 2.0, (n,))
print("rayleigh mean", jnp.round(ray.mean(), 2), "exact", jnp.round(2.0 * jnp.sqrt(jnp.pi / 2), 2))
wald = random.wald(k_wald, 1.5, (n,))
print("wald mean", jnp.round(wald.mean(), 2), "var", jnp.round(wald.var(), 1), "exact", 1.5, 1.5 ** 3)
dsm = random.double_sided_maxwell(k_dsm, 0.0, 1.0, (n,))
print("double_sided_maxwell mean", jnp.round(dsm.mean(), 2), "var", jnp.round(dsm.var(), 2), "exact var", 3.0)
print("first draws:", logn[:2], par[:2], ray[:2], wald[:2], dsm[:2])

# dtypes and shapes
print("float16 lognormal:", random.lognormal(k_logn, 0.5, (2,), dtype=jnp.float16).dtype)
print("broadcast pareto:", random.pareto(k_par, jnp.array([1.5, 2.0, 4.0]), (5, 3)).shape)
print("chisquare df array:", random.chisquare(k_chi, jnp.array([1.0, 10.0]), (2,)))

# log-likelihoods at the samples
print("chi2 loglik:", jnp.round(stats.chi2.logpdf(chi, 4.0).mean(), 3))
print("lognorm via norm:", jnp.round((stats.norm.logpdf(jnp.log(logn), 0.0, 0.5) - jnp.log(logn)).mean(), 3))
print("pareto loglik:", jnp.round(stats.pareto.logpdf(par, 3.0).mean(), 3))

# keys: fold_in streams, vmap over split keys, and reproducibility
streams = jnp.stack([random.rayleigh(random.fold_in(key, i), 1.0, (3,)) for i in range(3)])
print("fold_in streams:\n", streams)
keys = random.split(k_wald, 4)
print("vmap over keys:", jax.vmap(lambda k: random.wald(k, 2.0))(keys))
again = random.pareto(k_par, 3.0, (4,))
print("same key, same draw:", bool(jnp.array_equal(random.pareto(k_par, 3.0, (4,)), again)))
old_style = random.PRNGKey(2024)
print("raw key:", old_style, "wrap_key_data:", random.wrap_key_data(old_style).dtype)
print("same as typed:", bool(jnp.array_equal(random.lognormal(random.wrap_key_data(old_style), 0.5, (3,)),
                                             random.lognormal(key, 0.5, (3,)))))
print("jit sample:", jax.jit(lambda k: random.double_sided_maxwell(k, 1.0, 2.0, (3,)))(k_dsm))


# reparameterised gradients: d E[f(x)] / d theta by pathwise derivatives
def mean_sq(scale):
    return (random.rayleigh(k_ray, scale, (n,)) ** 2).mean()


print("d E[R^2]/d scale:", jnp.round(jax.grad(mean_sq)(2.0), 2), "exact", 4 * 2.0)
print("d E[logn]/d sigma:", jnp.round(jax.grad(lambda s: random.lognormal(k_logn, s, (n,)).mean())(0.5), 3),
      "exact", jnp.round(0.5 * jnp.exp(0.125), 3))
print("d E[dsm^2]/d scale:", jnp.round(jax.grad(
    lambda s: (random.double_sided_maxwell(k_dsm, 0.0, s, (n,)) ** 2).mean())(1.5), 2), "exact", 6 * 1.5)
