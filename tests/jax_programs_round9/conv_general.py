"""JAX's "Generalized convolutions" page: lax.conv, conv_with_general_padding,
conv_general_dilated with NCHW/NHWC/HWIO dimension numbers, strides, padding modes, dilations
(atrous and transposed), feature groups, 1D and 3D convolutions, conv_transpose, jnp.convolve
and gradients of a convolution."""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

kernel = jnp.zeros((3, 3, 3, 3), dtype=jnp.float32)
kernel += jnp.array([[1, 1, 0], [1, 0, -1], [0, -1, -1]])[:, :, jnp.newaxis, jnp.newaxis]
img = jnp.zeros((1, 200, 198, 3), dtype=jnp.float32)
for k in range(3):
    x = 30 + 60 * k
    y = 20 + 60 * k
    img = img.at[0, x:x + 10, y:y + 10, k].set(1.0)
print(kernel.shape, img.shape, float(img.sum()))

out = lax.conv(jnp.transpose(img, [0, 3, 1, 2]), jnp.transpose(kernel, [3, 2, 0, 1]), (1, 1), "SAME")
print(out.shape, out.dtype, float(out.sum()), float(jnp.abs(out).sum()), float(out.max()), float(out.min()))

out = lax.conv_with_general_padding(jnp.transpose(img, [0, 3, 1, 2]), jnp.transpose(kernel, [2, 3, 1, 0]),
                                    (1, 1), ((2, 2), (2, 2)), (1, 1), (1, 1))
print(out.shape, float(jnp.abs(out).sum()))

dn = lax.conv_dimension_numbers(img.shape, kernel.shape, ("NHWC", "HWIO", "NHWC"))
print(dn)
out = lax.conv_general_dilated(img, kernel, (1, 1), "SAME", (1, 1), (1, 1), dn)
print(out.shape, float(jnp.abs(out).sum()), out[0, 28:33, 18:23, 0])
out = lax.conv_general_dilated(img, kernel, (1, 1), "VALID", (1, 1), (1, 1), dn)
print("VALID", out.shape, float(jnp.abs(out).sum()))
out = lax.conv_general_dilated(img, kernel, (2, 2), "SAME", (1, 1), (1, 1), dn)
print("strided", out.shape, float(jnp.abs(out).sum()))
out = lax.conv_general_dilated(img, kernel, (1, 1), "VALID", (1, 1), (12, 12), dn)
print("atrous", out.shape, float(jnp.abs(out).sum()))
out = lax.conv_general_dilated(img, kernel, (1, 1), ((0, 0), (0, 0)), (2, 2), (1, 1), dn)
print("lhs dilated", out.shape, float(jnp.abs(out).sum()))
out = lax.conv_general_dilated(img, kernel, (1, 1), ((1, 1), (1, 1)), (2, 2), (1, 1), dn)
print("transposed", out.shape, float(jnp.abs(out).sum()))

# 1D and 3D
x1 = jnp.arange(2 * 10 * 3, dtype=jnp.float32).reshape(2, 10, 3) / 10
k1 = jnp.array(np.linspace(-1, 1, 4 * 3 * 2), dtype=jnp.float32).reshape(4, 3, 2)
dn1 = lax.conv_dimension_numbers(x1.shape, k1.shape, ("NWC", "WIO", "NWC"))
out1 = lax.conv_general_dilated(x1, k1, (1,), "SAME", (1,), (1,), dn1)
print(out1.shape, out1[0, :, 0], out1[1, :3, 1])
x3 = jnp.ones((1, 6, 5, 4, 1), jnp.float32)
k3 = jnp.ones((3, 3, 3, 1, 2), jnp.float32)
dn3 = lax.conv_dimension_numbers(x3.shape, k3.shape, ("NHWDC", "HWDIO", "NHWDC"))
out3 = lax.conv_general_dilated(x3, k3, (1, 1, 1), "SAME", (1, 1, 1), (1, 1, 1), dn3)
print(out3.shape, out3[0, :, 2, 1, 0], float(out3.sum()))

# feature groups (depthwise)
xg = jnp.arange(1 * 4 * 5 * 5, dtype=jnp.float32).reshape(1, 4, 5, 5) / 50
kg = jnp.ones((4, 1, 3, 3), jnp.float32) * jnp.arange(1, 5, dtype=jnp.float32)[:, None, None, None]
outg = lax.conv_general_dilated(xg, kg, (1, 1), "SAME", feature_group_count=4)
print(outg.shape, outg[0, :, 2, 2], outg[0, 3, 0])

# conv_transpose
xt = jnp.arange(1 * 3 * 3 * 2, dtype=jnp.float32).reshape(1, 3, 3, 2)
kt = jnp.array(np.linspace(-1, 1, 3 * 3 * 2 * 1), dtype=jnp.float32).reshape(3, 3, 2, 1)
for padding in ("SAME", "VALID"):
    yt = lax.conv_transpose(xt, kt, (2, 2), padding, dimension_numbers=("NHWC", "HWIO", "NHWC"))
    print(padding, yt.shape, yt[0, :, :, 0])

# jnp.convolve / correlate and gradients through conv
print(jnp.convolve(jnp.array([1.0, 2.0, 3.0]), jnp.array([0.0, 1.0, 0.5])))
print(jnp.convolve(jnp.array([1.0, 2.0, 3.0, 4.0]), jnp.array([1.0, -1.0]), mode="same"))
print(jnp.correlate(jnp.array([1.0, 2.0, 3.0]), jnp.array([0.0, 1.0, 0.5]), mode="full"))


def loss(k, x):
    y = lax.conv_general_dilated(x, k, (1, 1), "SAME", dimension_numbers=("NCHW", "OIHW", "NCHW"))
    return jnp.sum(jnp.tanh(y) ** 2)


xs = jnp.sin(jnp.arange(2 * 2 * 6 * 6, dtype=jnp.float32)).reshape(2, 2, 6, 6)
ks = jnp.cos(jnp.arange(3 * 2 * 3 * 3, dtype=jnp.float32)).reshape(3, 2, 3, 3) / 4
gk, gx = jax.grad(loss, argnums=(0, 1))(ks, xs)
print(gk.shape, gk[0, 0], gx.shape, float(gx.sum()))
print(jax.jit(jax.grad(loss))(ks, xs)[1, 1, 1])
print(jax.vmap(lambda x: loss(ks, x[None]))(xs))
