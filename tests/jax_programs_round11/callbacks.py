"""JAX's "External callbacks" page: jax.pure_callback calling NumPy/SciPy inside jit with
vmap_method="sequential" and "expand_dims", a custom_jvp around a pure callback so that it
differentiates, jax.experimental.io_callback with ordered=True collecting values in order,
jax.debug.callback and jax.debug.print inside jit, vmap and scan, and ShapeDtypeStruct
result shapes of several outputs."""

from functools import partial

import numpy as np
import scipy.special

import jax
import jax.numpy as jnp
from jax.experimental import io_callback


def host_j1(x):
    return scipy.special.j1(x).astype(x.dtype)


def j1(x):
    return jax.pure_callback(host_j1, jax.ShapeDtypeStruct(x.shape, x.dtype), x, vmap_method="sequential")


x = jnp.linspace(0.0, 5.0, 6)
print("j1", np.round(np.asarray(jax.jit(j1)(x)), 6))
print("j1 vmap", np.round(np.asarray(jax.vmap(j1)(x.reshape(2, 3))), 6).tolist())


def host_stats(a):
    return np.mean(a, axis=-1).astype(a.dtype), np.max(a, axis=-1).astype(a.dtype)


def stats(a):
    out = (jax.ShapeDtypeStruct(a.shape[:-1], a.dtype), jax.ShapeDtypeStruct(a.shape[:-1], a.dtype))
    return jax.pure_callback(host_stats, out, a, vmap_method="expand_dims")


m = jnp.arange(12.0).reshape(3, 4) ** 0.5
mean, mx = jax.jit(stats)(m)
print("stats", np.round(np.asarray(mean), 5), np.round(np.asarray(mx), 5))
bm, bx = jax.vmap(stats)(jnp.stack([m, 2 * m]))
print("stats vmap", bm.shape, np.round(np.asarray(bx), 5).tolist())


@jax.custom_jvp
def j0(x):
    return jax.pure_callback(lambda v: scipy.special.j0(v).astype(v.dtype),
                             jax.ShapeDtypeStruct(x.shape, x.dtype), x, vmap_method="sequential")


@j0.defjvp
def j0_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return j0(x), -j1(x) * t


print("j0 grad", np.round(np.asarray(jax.vmap(jax.grad(j0))(x)), 6))
print("j0 jit grad", round(float(jax.jit(jax.grad(lambda v: j0(v) ** 2))(1.5)), 6))

log = []


def record(i, v):
    log.append((int(i), round(float(v), 5)))


@jax.jit
def loop(v):
    def body(i, c):
        c = c * 0.5 + 1.0
        io_callback(record, None, i, c, ordered=True)
        return c
    return jax.lax.fori_loop(0, 4, body, v)


print("io_callback result", float(loop(jnp.float32(10.0))))
print("io log", log)

seen = []
counter = io_callback(lambda: np.int32(len(seen)), jax.ShapeDtypeStruct((), jnp.int32))
print("io_callback value", int(counter))


@jax.jit
def traced(v):
    jax.debug.callback(lambda a: seen.append(np.round(np.asarray(a), 4).tolist()), v * 2)
    jax.debug.print("sum={s:.3f} first={f}", s=v.sum(), f=v[0])
    return v + 1


traced(jnp.arange(3.0))
print("debug.callback saw", seen)
jax.vmap(lambda r: jax.debug.print("row sum {}", r.sum()))(jnp.arange(6.0).reshape(2, 3))


def step(c, xi):
    jax.debug.print("step x={} c={}", xi, c)
    return c + xi, c * xi


print("scan", jax.lax.scan(step, 1.0, jnp.array([1.0, 2.0, 3.0]))[1])
cb = partial(jax.pure_callback, vmap_method="broadcast_all")
print("broadcast_all", np.asarray(jax.vmap(lambda a: cb(np.sin, jax.ShapeDtypeStruct((), a.dtype), a))(
    jnp.array([0.0, 1.0]))).round(5))
