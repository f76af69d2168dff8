"""jax.numpy routines of scientific scripts (as in the "JAX as accelerated NumPy" pages):
window functions (hanning, hamming, blackman, bartlett, kaiser), gradient with spacing and
edge_order, trapezoid with x and dx, diff with prepend/append, ediff1d, cumulative_sum with
include_initial, unwrap, corrcoef and cov (rowvar, ddof, aweights), average with weights
and returned, quantile/percentile methods, nanmean/nanstd, histogram2d and histogramdd,
cross and outer, interp with period, and a few of them differentiated."""

import jax
import jax.numpy as jnp

print(jnp.round(jnp.hanning(6), 4), jnp.round(jnp.hamming(5), 4))
print(jnp.round(jnp.blackman(5), 4), jnp.bartlett(5), jnp.round(jnp.kaiser(5, 3.0), 4))
t = jnp.linspace(0.0, 2.0, 9)
y = t ** 3 - t
print(jnp.gradient(y, t), jnp.gradient(y, 0.25))
Z = jnp.outer(jnp.arange(3.0), jnp.arange(4.0) ** 2)
gx, gy = jnp.gradient(Z)
print(gx, gy[0])
print(jnp.trapezoid(y, t), jnp.trapezoid(y, dx=0.25), jnp.trapezoid(Z, axis=0))
print(jnp.diff(y, n=2), jnp.diff(jnp.arange(4), prepend=-1, append=jnp.array([9, 9])))
print(jnp.ediff1d(jnp.array([1, 4, 9]), to_begin=0, to_end=jnp.array([100])))
print(jnp.cumulative_sum(jnp.arange(1, 5), include_initial=True), jnp.cumulative_prod(jnp.arange(1.0, 5.0)))
phase = jnp.array([0.0, 3.0, 6.5, 2.0 * jnp.pi + 0.5, 1.0])
print(jnp.round(jnp.unwrap(phase), 4), jnp.round(jnp.unwrap(jnp.array([0, 170, 350, 10.0]), period=360), 2))

X = jnp.array([[1.0, 2.0, 3.0, 4.0], [2.0, 1.0, 4.0, 3.0], [0.5, 0.7, 0.2, 0.9]])
print(jnp.round(jnp.corrcoef(X), 4))
print(jnp.round(jnp.cov(X), 4)[0], jnp.round(jnp.cov(X.T, rowvar=False, ddof=0)[1], 4))
print(jnp.round(jnp.cov(X, aweights=jnp.array([1.0, 2.0, 1.0, 0.5])), 4)[2])
w = jnp.array([3.0, 1.0, 0.0, 1.0])
print(jnp.average(X, axis=1, weights=w), jnp.average(X[0], weights=w, returned=True))
data = jnp.array([7.0, 1.0, 3.0, 9.0, 4.0, 2.0])
for method in ["linear", "lower", "higher", "midpoint", "nearest"]:
    print(method, jnp.quantile(data, jnp.array([0.1, 0.5, 0.9]), method=method))
print(jnp.percentile(X, 25.0, axis=1), jnp.median(X, axis=0), jnp.quantile(X, 0.5, keepdims=True).shape)
nanx = jnp.array([1.0, jnp.nan, 3.0, 4.0])
print(jnp.nanmean(nanx), jnp.round(jnp.nanstd(nanx), 4), jnp.nanmedian(nanx), jnp.nanpercentile(nanx, 50))
xs = jnp.array([0.1, 0.4, 0.45, 0.9, 0.95])
ys = jnp.array([0.2, 0.3, 0.8, 0.1, 0.85])
H, xe, ye = jnp.histogram2d(xs, ys, bins=2, range=[[0, 1], [0, 1]])
print(H, xe, ye)
Hd, edges = jnp.histogramdd(jnp.stack([xs, ys], 1), bins=(2, 3), range=[(0, 1), (0, 1)])
print(Hd, [e.shape for e in edges])
print(jnp.histogram(xs, bins=jnp.array([0.0, 0.5, 1.0]), density=True))
a, b = jnp.array([1.0, 0.0, 0.0]), jnp.array([0.0, 1.0, 0.0])
print(jnp.cross(a, b), jnp.cross(jnp.array([1.0, 2.0]), jnp.array([3.0, 4.0])), jnp.outer(a, b)[0])
print(jnp.interp(jnp.array([-170.0, 190.0]), jnp.array([-180.0, 0.0, 180.0]), jnp.array([0.0, 1.0, 0.0]),
                 period=360))
print(jax.grad(lambda s: jnp.trapezoid(jnp.sin(s * t), t))(1.0))
print(jax.grad(lambda v: jnp.quantile(v, 0.3))(data), jax.grad(lambda v: jnp.average(v, weights=w))(X[0]))
print(jax.jacfwd(lambda v: jnp.gradient(v ** 2))(jnp.arange(4.0)))
