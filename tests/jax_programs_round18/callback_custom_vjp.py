"""A host function (a NumPy/SciPy computation JAX cannot trace) made differentiable: a
Bessel-function layer computed by jax.pure_callback with ShapeDtypeStruct results, wrapped
in jax.custom_vjp whose backward pass calls back to the host for the derivative; vmap with
vmap_method="sequential" and "expand_dims", jit, grad checked against finite differences,
and a custom_jvp wrapper of the same callback used with jacfwd."""

import jax
import jax.numpy as jnp
import numpy as np
import scipy.special as sp

np.set_printoptions(precision=6)


def _host_i0(x):
    return np.asarray(sp.i0(x), dtype=x.dtype)


def _host_i1(x):
    return np.asarray(sp.i1(x), dtype=x.dtype)


def host(fn, x, method="sequential"):
    return jax.pure_callback(fn, jax.ShapeDtypeStruct(x.shape, x.dtype), x, vmap_method=method)


@jax.custom_vjp
def bessel_i0(x):
    return host(_host_i0, x)


def _fwd(x):
    return bessel_i0(x), x


def _bwd(x, g):
    return (g * host(_host_i1, x),)  # d/dx I0 = I1


bessel_i0.defvjp(_fwd, _bwd)

x = jnp.linspace(0.0, 2.0, 5)
print("I0:", bessel_i0(x))
print("jnp i0 agrees:", bool(jnp.allclose(bessel_i0(x), jax.scipy.special.i0(x), rtol=1e-5)))
print("jit:", jax.jit(bessel_i0)(x))
g = jax.grad(lambda v: jnp.sum(bessel_i0(v) ** 2))(x)
print("grad:", g)
eps = 1e-3
fd = (jnp.sum(bessel_i0(x + eps) ** 2) - jnp.sum(bessel_i0(x - eps) ** 2)) / (2 * eps)
print("grad sum vs fd close:", bool(jnp.allclose(jnp.sum(g), fd, rtol=1e-2)))
print("vmap of grad:", jax.vmap(jax.grad(lambda v: bessel_i0(v) * v))(x))

calls = []


def counting(x):
    calls.append(x.shape)
    return _host_i1(x)


batched = jnp.arange(6.0).reshape(2, 3) / 3
print("expand_dims:", jax.vmap(lambda v: host(counting, v, "expand_dims"))(batched))
print("sequential:", jax.vmap(lambda v: host(counting, v, "sequential"))(batched))
print("callback shapes:", calls)


@jax.custom_jvp
def bessel_i0_fwd(x):
    return host(_host_i0, x)


@bessel_i0_fwd.defjvp
def _jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return bessel_i0_fwd(x), host(_host_i1, x) * t


print("jacfwd diag:", jnp.diag(jax.jacfwd(bessel_i0_fwd)(x)))
print("jvp/vjp agree:", bool(jnp.allclose(jax.jacfwd(bessel_i0_fwd)(x), jax.jacrev(bessel_i0)(x))))


def layer(params, v):
    return jnp.sum(params["a"] * bessel_i0(params["w"] * v))


params = {"a": jnp.array([0.5, -1.0, 2.0]), "w": jnp.array([0.1, 0.7, 1.3])}
val, grads = jax.jit(jax.value_and_grad(layer))(params, jnp.array([1.0, 0.5, -0.5]))
print("layer:", f"{float(val):.6f}", jax.tree.map(lambda t: t.round(5), grads))
