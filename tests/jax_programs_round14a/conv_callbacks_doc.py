"""Two reference pages: "Generalized convolutions in JAX" (conv_general_dilated with NCHW
and NHWC dimension numbers, SAME/VALID/explicit padding, window strides, lhs dilation as a
transposed convolution, rhs dilation, feature groups, conv_transpose, jnp.convolve modes)
and "External callbacks" (pure_callback with vmap_method choices and its gradient through a
custom_jvp, io_callback ordered effects, jax.debug.callback)."""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import io_callback

kernel = jnp.zeros((3, 3, 3, 3), dtype=jnp.float32)
kernel += jnp.array([[1, 1, 0], [1, 0, -1], [0, -1, -1]])[:, :, jnp.newaxis, jnp.newaxis]
img = jnp.zeros((1, 20, 20, 3), dtype=jnp.float32)
for k in range(3):
    x = 5 + k * 4
    img = img.at[0, x : x + 6, x : x + 6, k].set(1.0)
out = lax.conv(jnp.transpose(img, [0, 3, 1, 2]), jnp.transpose(kernel, [3, 2, 0, 1]), (1, 1), "SAME")
print(out.shape, out[0, 0, 4:9, 4:9])
dn = lax.conv_dimension_numbers(img.shape, kernel.shape, ("NHWC", "HWIO", "NHWC"))
print(dn)
out = lax.conv_general_dilated(img, kernel, (1, 1), "SAME", (1, 1), (1, 1), dn)
print(out.shape, out[0, 4:8, 4:8, 0])
out = lax.conv_general_dilated(img, kernel, (1, 1), "VALID", (1, 1), (1, 1), dn)
print(out.shape, float(out.sum()))
out = lax.conv_general_dilated(img, kernel, (2, 2), "SAME", (1, 1), (1, 1), dn)
print(out.shape, float(out[0, :, :, 1].sum()))
out = lax.conv_general_dilated(img, kernel, (1, 1), "VALID", (1, 1), (2, 2), dn)
print(out.shape, float(jnp.abs(out).sum()))
out = lax.conv_general_dilated(img, kernel, (1, 1), ((0, 0), (0, 0)), (2, 2), (1, 1), dn)
print(out.shape, float(out.sum()))
out = lax.conv_general_dilated(img, kernel, (1, 1), ((1, 1), (1, 1)), (2, 2), (1, 1), dn)
print(out.shape)
print(lax.conv_transpose(img, kernel, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")).shape)
print(lax.conv_transpose(img, kernel, (2, 2), "VALID", dimension_numbers=("NHWC", "HWIO", "NHWC")).shape)
g = lax.conv_general_dilated(
    jnp.ones((1, 4, 5, 5)), jnp.ones((6, 2, 3, 3)), (1, 1), "SAME", feature_group_count=2
)
print(g.shape, g[0, :, 2, 2], g[0, 0, 0, 0])
x1 = jnp.array([1.0, 2.0, 3.0, 4.0])
w1 = jnp.array([0.5, -1.0, 2.0])
for mode in ("full", "same", "valid"):
    print(mode, jnp.convolve(x1, w1, mode=mode), jnp.correlate(x1, w1, mode=mode))
print(lax.conv_general_dilated(x1[None, None], w1[None, None], (1,), "VALID"))
print(jax.grad(lambda k: lax.conv(jnp.ones((1, 1, 5, 5)), k, (1, 1), "VALID").sum())(jnp.ones((1, 1, 2, 2))))


def f_host(x):
    return np.sin(x)


def f(x):
    result_shape = jax.ShapeDtypeStruct(jnp.shape(x), x.dtype)
    return jax.pure_callback(f_host, result_shape, x, vmap_method="sequential")


x = jnp.arange(5.0)
print(f(x), jax.jit(f)(x), jax.vmap(f)(jnp.stack([x, 2 * x]))[1])
print(
    jax.vmap(
        lambda v: jax.pure_callback(
            f_host, jax.ShapeDtypeStruct(v.shape, v.dtype), v, vmap_method="expand_dims"
        )
    )(jnp.ones((2, 3)))
)
print(
    jax.vmap(
        lambda v: jax.pure_callback(
            f_host, jax.ShapeDtypeStruct(v.shape, v.dtype), v, vmap_method="broadcast_all"
        )
    )(jnp.ones((2, 3)))
)
try:
    jax.grad(f)(1.0)
except ValueError as e:
    print("ValueError", "Pure callbacks do not support JVP" in str(e))


@jax.custom_jvp
def np_sin(x):
    return jax.pure_callback(np.sin, jax.ShapeDtypeStruct(jnp.shape(x), x.dtype), x, vmap_method="sequential")


@np_sin.defjvp
def _(primals, tangents):
    (x,) = primals
    (t,) = tangents
    return np_sin(x), jax.pure_callback(
        np.cos, jax.ShapeDtypeStruct(jnp.shape(x), x.dtype), x, vmap_method="sequential"
    ) * t


print(np_sin(x), jax.vmap(jax.grad(np_sin))(x))
log = []


def host_log(v):
    log.append(int(v))
    return np.int32(len(log))


@jax.jit
def numbered(x):
    a = io_callback(host_log, jax.ShapeDtypeStruct((), jnp.int32), x, ordered=True)
    b = io_callback(host_log, jax.ShapeDtypeStruct((), jnp.int32), x + 1, ordered=True)
    return a + b


print(numbered(jnp.int32(10)), numbered(jnp.int32(20)), log)
seen = []
jax.jit(lambda v: jax.debug.callback(lambda a: seen.append(np.asarray(a).tolist()), v))(jnp.arange(3))
print(seen)
