"""Robust statistics over data with missing values: `nanmedian`, `nanquantile` and
`nanpercentile` with every `method`, `nanmean/nanstd/nanvar/nanmin/nanargmax`, `jnp.select`,
`jnp.piecewise`, `jnp.unique` with counts and inverse (and `size=` under jit), masked
`where=` reductions, and a median-of-means estimator."""

import jax
import jax.numpy as jnp

x = jnp.array([[1.0, jnp.nan, 3.0, 7.0], [2.0, 5.0, jnp.nan, jnp.nan], [4.0, 0.5, 6.0, 8.0]])
print(jnp.nanmedian(x), jnp.nanmedian(x, axis=1), jnp.nanmedian(x, axis=0, keepdims=True))
for method in [
    "linear",
    "lower",
    "higher",
    "midpoint",
    "nearest",
    "inverted_cdf",
    "averaged_inverted_cdf",
    "closest_observation",
    "interpolated_inverted_cdf",
    "hazen",
    "weibull",
    "median_unbiased",
    "normal_unbiased",
]:
    try:
        print(method, jnp.nanquantile(x, jnp.array([0.1, 0.5, 0.9]), axis=1, method=method))
    except ValueError:
        print(method, "ValueError")
print(jnp.nanpercentile(x, 25.0), jnp.quantile(jnp.arange(10.0), 0.33, method="nearest"))
print(
    jnp.nanmean(x, axis=1),
    jnp.nanstd(x, axis=1),
    jnp.nanvar(x, ddof=1),
    jnp.nansum(x),
    jnp.nanprod(x, axis=0),
)
print(
    jnp.nanmin(x, axis=1), jnp.nanmax(x), jnp.nanargmax(x, axis=1), jnp.nanargmin(x), jnp.nancumsum(x, axis=1)
)
print(
    jnp.mean(x, where=~jnp.isnan(x)),
    jnp.sum(x, axis=1, where=~jnp.isnan(x)),
    jnp.max(x, axis=1, where=~jnp.isnan(x), initial=-1.0),
)

t = jnp.linspace(-2.0, 2.0, 9)
print(jnp.select([t < -1, t < 1], [t**2, 2 * t], default=-5.0))
print(jnp.piecewise(t, [t < 0, t >= 1], [lambda v: -v, lambda v: v**3, 0.5]))
print(jax.grad(lambda s: jnp.sum(jnp.piecewise(s, [s < 0], [jnp.sin, jnp.cos])))(t))

labels = jnp.array([3, 1, 2, 3, 3, 1, 7])
vals, idx, inv, counts = jnp.unique(labels, return_index=True, return_inverse=True, return_counts=True)
print(vals, idx, inv, counts)
print(jax.jit(lambda a: jnp.unique(a, size=6, fill_value=-1))(labels))
print(jax.jit(lambda a: jnp.unique(a, size=3, return_counts=True))(labels))
print(
    jnp.unique(jnp.array([[1, 2], [1, 2], [0, 5]]), axis=0),
    jnp.unique(jnp.array([1.0, jnp.nan, jnp.nan, 1.0])),
)
print(jnp.unique_values(labels), jnp.unique_counts(labels))


def median_of_means(key, data, groups):
    perm = jax.random.permutation(key, data.shape[0])
    means = data[perm].reshape(groups, -1).mean(axis=1)
    return jnp.median(means)


data = jnp.concatenate([jnp.linspace(0.0, 2.0, 40), jnp.array([100.0, -80.0, 250.0, 90.0])])
print(jnp.mean(data), jnp.median(data), median_of_means(jax.random.key(3), data, 11))
print(jax.vmap(lambda k: median_of_means(k, data, 4))(jax.random.split(jax.random.key(1), 3)))
