"""Sorting, ranking and selection (as in top-k routing, ranking-loss and sparsemax code):
jnp.sort/argsort along axes with stable and descending, lexsort on several keys, lax.sort
with several operands and num_keys, lax.top_k and its gradient, jnp.partition and
argpartition, searchsorted sides and sorter, rankdata from jax.scipy.stats (every method),
the Euclidean projection onto the simplex (sort-based, differentiated), sparsemax, a soft
top-k mask, and sorting under vmap and jit."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.scipy.stats import rankdata

x = jnp.array([[3.0, 1.0, 2.0, 1.0], [0.5, -1.0, 0.5, 4.0]])
print(jnp.sort(x), jnp.sort(x, axis=0), jnp.sort(x, axis=None))
print(jnp.argsort(x, axis=1), jnp.argsort(x, axis=1, descending=True), jnp.argsort(x[0], stable=True))
names = jnp.array([2, 1, 2, 1, 0])
ages = jnp.array([30, 25, 20, 35, 40])
order = jnp.lexsort((ages, names))
print(order, names[order], ages[order])
k, a, b = lax.sort((jnp.array([2, 1, 2, 0]), jnp.array([9.0, 8.0, 7.0, 6.0]), jnp.arange(4)), num_keys=2)
print(k, a, b, lax.sort(jnp.array([3, 1, 2]), is_stable=True))
print(lax.sort_key_val(jnp.array([3.0, 1.0, 2.0]), jnp.array([30, 10, 20])))
vals, idx = lax.top_k(x, 2)
print(vals, idx)
print(jax.grad(lambda z: lax.top_k(z, 2)[0].sum() * 2)(x[1]))
print(jnp.partition(jnp.array([5, 1, 4, 2, 3]), 2)[2],
      jnp.sort(jnp.argpartition(jnp.array([5, 1, 4, 2, 3]), 2)[:2]))
s = jnp.array([1.0, 2.0, 2.0, 3.0])
print(jnp.searchsorted(s, jnp.array([2.0, 2.5, 0.0, 9.0])), jnp.searchsorted(s, 2.0, side="right"))
print(jnp.searchsorted(jnp.array([3.0, 1.0, 2.0]), 2.5, sorter=jnp.array([1, 2, 0])))
for method in ["average", "min", "max", "dense", "ordinal"]:
    print(method, rankdata(jnp.array([10, 20, 20, 5, 10]), method=method))
print(rankdata(x, axis=1))


def project_simplex(v, z=1.0):
    u = jnp.sort(v)[::-1]
    css = jnp.cumsum(u) - z
    ind = jnp.arange(1, v.shape[0] + 1)
    cond = u - css / ind > 0
    rho = jnp.max(jnp.where(cond, ind, 0))
    theta = css[rho - 1] / rho
    return jnp.maximum(v - theta, 0.0)


v = jnp.array([0.5, 1.2, -0.3, 0.9])
p = project_simplex(v)
print(p, p.sum(), jax.jit(project_simplex)(v * 3))
print(jax.jacobian(project_simplex)(v))


def sparsemax(logits):
    return project_simplex(logits)


print(jax.vmap(sparsemax)(jnp.array([[1.0, 2.0, 3.0], [0.0, 0.0, 0.1], [5.0, -5.0, 0.0]])))


def soft_topk_mask(z, k, temp=0.1):
    kth = lax.top_k(z, k)[0][..., -1:]
    nxt = lax.top_k(z, k + 1)[0][..., -1:]
    return jax.nn.sigmoid((z - (kth + nxt) / 2) / temp)


m = soft_topk_mask(x, 2)
print(jnp.round(m, 4), jnp.round(jax.grad(lambda z: soft_topk_mask(z, 2)[0, 0])(x)[0], 4))
print(jax.vmap(jnp.argsort)(x), jax.jit(lambda z: jnp.sort(z, descending=True))(x[1]))
print(jax.grad(lambda z: (jnp.sort(z) * jnp.arange(4.0)).sum())(x[0]))
print(jnp.sort(jnp.array([jnp.nan, 1.0, -jnp.inf, 0.0, -0.0])),
      jnp.argsort(jnp.array([jnp.nan, 1.0, jnp.nan, 0.0])))
print(jnp.sort(jnp.array([True, False, True])), jnp.sort(jnp.array([2 + 1j, 1 + 5j, 2 - 1j])))
