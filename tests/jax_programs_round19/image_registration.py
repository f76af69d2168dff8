"""Image registration in the style of a spatial-transformer tutorial: a synthetic image, an
affine sampling grid, bilinear warping with jax.scipy.ndimage.map_coordinates (order=1, modes
'constant' and 'nearest'), the gradient of an L2 registration loss wrt the six affine
parameters, gradient descent under jit to recover a known transform, plus jax.image.resize
(linear, cubic, lanczos3, nearest) and jax.image.scale_and_translate, differentiated."""

import jax
import jax.numpy as jnp
from jax.scipy import ndimage

jnp.set_printoptions(precision=4, suppress=True)

H = W = 24
yy, xx = jnp.meshgrid(jnp.arange(H, dtype=jnp.float32), jnp.arange(W, dtype=jnp.float32), indexing="ij")


def blob(cy, cx, s):
    return jnp.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * s**2))


image = blob(9.0, 10.0, 3.0) + 0.6 * blob(15.0, 14.0, 2.0) + 0.3 * (xx / W)
print("image", image.shape, image.dtype, f"sum={image.sum():.4f}")


def affine_grid(theta):
    """theta = [[a, b, ty], [c, d, tx]] acting on centred pixel coordinates."""
    cy, cx = (H - 1) / 2, (W - 1) / 2
    coords = jnp.stack([yy.ravel() - cy, xx.ravel() - cx, jnp.ones(H * W)])
    src = theta @ coords
    return src[0] + cy, src[1] + cx


def warp(img, theta, mode="constant"):
    ys, xs = affine_grid(theta)
    out = ndimage.map_coordinates(img, [ys, xs], order=1, mode=mode, cval=0.0)
    return out.reshape(H, W)


identity = jnp.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
print("identity warp exact:", bool(jnp.allclose(warp(image, identity), image)))
angle = 0.2
true_theta = jnp.array([[jnp.cos(angle), -jnp.sin(angle), 1.5],
                        [jnp.sin(angle), jnp.cos(angle), -2.0]])
target = warp(image, true_theta, mode="nearest")
print(f"target sum {target.sum():.4f}, constant-mode sum {warp(image, true_theta).sum():.4f}")
print("corner of target\n", target[:3, :4])

# map_coordinates at scattered points, orders 0 and 1, and its gradient wrt coordinates
pts = jnp.array([[3.25, 7.5, 20.9, -1.0], [4.75, 10.1, 2.2, 5.0]])
for order in (0, 1):
    print(f"order={order}", ndimage.map_coordinates(image, pts, order=order, mode="constant"))
g_pts = jax.grad(lambda p: ndimage.map_coordinates(image, p, order=1).sum())(pts)
print("d/dcoords\n", g_pts)


def loss(theta):
    return jnp.mean((warp(image, theta, mode="nearest") - target) ** 2)


print(f"loss at identity {loss(identity):.6f}")
print("grad at identity\n", jax.grad(loss)(identity))


@jax.jit
def step(theta, lr):
    l, g = jax.value_and_grad(loss)(theta)
    scale = jnp.array([[1.0, 1.0, 100.0], [1.0, 1.0, 100.0]])  # translations move pixels
    return theta - lr * scale * g, l


theta = identity
for i in range(60):
    theta, l = step(theta, 0.5)
    if i % 20 == 19:
        print(f"iter {i + 1} loss {l:.6f}")
print("recovered theta\n", theta)

# jax.image.resize and scale_and_translate
small = image[::3, ::3]
for method in ("nearest", "linear", "cubic", "lanczos3"):
    up = jax.image.resize(small, (16, 16), method=method)
    print(f"{method:8s} {up.shape} mean={up.mean():.5f} max={up.max():.5f}")
down = jax.image.resize(image, (6, 6), method="linear", antialias=True)
print("antialiased downsample\n", down)
g = jax.grad(lambda im: jax.image.resize(im, (11, 13), method="cubic")[5, 6])(small)
print("resize grad nonzero", int((jnp.abs(g) > 1e-7).sum()), f"sum={g.sum():.5f}")
st = jax.image.scale_and_translate(small, (12, 12), (0, 1), jnp.array([1.5, 1.5]), jnp.array([0.5, -1.0]),
                                   method="linear")
print("scale_and_translate row 4", st[4])
