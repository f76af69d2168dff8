"""`jax.pmap` on the one CPU device, as single-device tutorials run it: a leading axis of
size `jax.local_device_count()`, collectives by axis name (`psum`, `pmean`, `pmax`,
`all_gather`, `axis_index`, `ppermute`), `in_axes`/`out_axes`, `static_broadcasted_argnums`,
pmap of a data-parallel SGD step with gradient averaging, and nested vmap inside pmap."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax

n = jax.local_device_count()
print(n, jax.device_count(), jax.process_index())
x = jnp.arange(n * 4.0).reshape(n, 4)
print(jax.pmap(lambda v: v * 2)(x))
print(jax.pmap(lambda v: lax.psum(v, "i"), axis_name="i")(x))
print(jax.pmap(lambda v: (lax.pmean(v, "i"), lax.pmax(v, "i"), lax.axis_index("i")), axis_name="i")(x))
print(jax.pmap(lambda v: lax.all_gather(v, "i"), axis_name="i")(x).shape)
print(jax.pmap(lambda v: lax.ppermute(v, "i", [(j, (j + 1) % n) for j in range(n)]), axis_name="i")(x))
print(jax.pmap(lambda v, s: v * s, in_axes=(0, None))(x, 3.0))
print(jax.pmap(lambda v: (v, v.sum()), out_axes=(0, 0))(x))
print(jax.pmap(lambda v, k: v**k, static_broadcasted_argnums=1)(x, 2))


def loss(w, xb, yb):
    return jnp.mean((xb @ w - yb) ** 2)


@partial(jax.pmap, axis_name="batch")
def update(w, xb, yb):
    l, g = jax.value_and_grad(loss)(w, xb, yb)
    g = lax.pmean(g, "batch")
    return w - 0.1 * g, lax.pmean(l, "batch")


key = jax.random.key(0)
xs = jax.random.normal(key, (n, 16, 3))
w_true = jnp.array([1.0, -2.0, 0.5])
ys = xs @ w_true
w = jnp.zeros((n, 3))
for i in range(30):
    w, l = update(w, xs, ys)
    if i % 10 == 0:
        print(i, l)
print(w, l)
print(jax.pmap(jax.vmap(lambda r: jnp.dot(r, r)))(xs[:, :3]))
print(jax.pmap(lambda v: jnp.sort(v))(jnp.array([[3.0, 1.0, 2.0]] * n)))
y = jax.pmap(jnp.sin)(x)
print(type(y).__name__ in ("ArrayImpl", "Array"), y.shape, y.sum())
