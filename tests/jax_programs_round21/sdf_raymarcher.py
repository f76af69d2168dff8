"""A differentiable sphere-tracing renderer, as the "ray marching in JAX" blog posts write
it: a scene of signed distance functions (sphere, box, plane) combined by a smooth minimum,
rays from a pinhole camera marched by lax.fori_loop (and, for the hit test, lax.while_loop
with an early exit), surface normals as jax.grad of the SDF, Lambertian shading with a soft
shadow march, the image by a doubly vmapped per-pixel function under jit; then the inverse
problem: recovering the sphere's radius and the light direction from a rendered target image
by gradient descent through the whole marcher, the gradient checked by jax.jvp.  The box's
distance uses the JAX FAQ's double-where norm: jnp.linalg.norm's gradient at zero is NaN."""

import jax
import jax.numpy as jnp
from jax import lax

jnp.set_printoptions(precision=4, suppress=True)
N = 16  # image is N x N


def sd_sphere(p, center, radius):
    return jnp.linalg.norm(p - center) - radius


def safe_norm(x):
    """The norm with a zero (not NaN) gradient at the origin: the double-where trick of the
    JAX FAQ (a point inside the box has max(q, 0) == 0, where the norm's gradient is 0/0)."""
    s = jnp.sum(x**2)
    ok = s > 0
    return jnp.where(ok, jnp.sqrt(jnp.where(ok, s, 1.0)), 0.0)


def sd_box(p, center, half):
    q = jnp.abs(p - center) - half
    return safe_norm(jnp.maximum(q, 0.0)) + jnp.minimum(jnp.max(q), 0.0)


def smooth_min(a, b, k=0.2):
    h = jnp.clip(0.5 + 0.5 * (b - a) / k, 0.0, 1.0)
    return b * (1 - h) + a * h - k * h * (1 - h)


def scene(p, params):
    sphere = sd_sphere(p, jnp.array([0.0, 0.0, 0.0]), params["radius"])
    box = sd_box(p, jnp.array([0.9, -0.3, 0.2]), jnp.array([0.3, 0.3, 0.3]))
    floor = p[1] + 0.6
    return jnp.minimum(smooth_min(sphere, box), floor)


def march(origin, direction, params, steps=48):
    def body(_, t):
        return t + scene(origin + t * direction, params)

    return lax.fori_loop(0, steps, body, jnp.zeros((), origin.dtype))


def hit_steps(origin, direction, params, eps=1e-3, t_max=10.0):
    def cond(state):
        t, i = state
        d = scene(origin + t * direction, params)
        return (d > eps) & (t < t_max) & (i < 100)

    def body(state):
        t, i = state
        return t + scene(origin + t * direction, params), i + 1

    return lax.while_loop(cond, body, (jnp.zeros((), origin.dtype), 0))


def normal(p, params):
    g = jax.grad(scene)(p, params)
    return g / jnp.linalg.norm(g)


def soft_shadow(p, light, params, k=8.0):
    def body(i, carry):
        t, res = carry
        h = scene(p + t * light, params)
        return t + jnp.clip(h, 0.02, 0.2), jnp.minimum(res, k * h / t)

    start = (jnp.asarray(0.05, p.dtype), jnp.asarray(1.0, p.dtype))
    return jnp.clip(lax.fori_loop(0, 24, body, start)[1], 0.0, 1.0)


def pixel(u, v, params):
    origin = jnp.array([0.0, 0.3, -3.0])
    direction = jnp.array([u, v, 1.5])
    direction = direction / jnp.linalg.norm(direction)
    t = march(origin, direction, params)
    p = origin + t * direction
    light = params["light"] / jnp.linalg.norm(params["light"])
    diffuse = jnp.maximum(jnp.dot(normal(p, params), light), 0.0)
    hit = scene(p, params) < 1e-2
    # shadows enter the image but not its derivative (stop_gradient), as in many
    # differentiable renderers: visibility is piecewise constant anyway
    shadow = soft_shadow(lax.stop_gradient(p + 0.01 * normal(p, params)), lax.stop_gradient(light),
                         lax.stop_gradient(params))
    shade = 0.1 + 0.9 * diffuse * shadow
    return jnp.where(hit & (t < 10.0), shade, 0.0)


coords = jnp.linspace(-1.0, 1.0, N)


@jax.jit
def render(params):
    return jax.vmap(lambda v: jax.vmap(lambda u: pixel(u, v, params))(coords))(-coords)


true = {"radius": jnp.asarray(0.5), "light": jnp.array([-0.5, 0.8, -0.6])}
image = render(true)
print("image mean", f"{float(image.mean()):.5f}", "lit pixels", int(jnp.sum(image > 0.1)))
print("centre row", image[N // 2])
print("ascii:")
for row in image[::2]:
    print("".join(" .:-=+*#%@"[int(c)] for c in jnp.clip(row * 9.99, 0, 9)))

d = jnp.array([0.0, 0.0, 1.0])
t, iters = hit_steps(jnp.array([0.0, 0.0, -3.0]), d, true)
print("hit at t", f"{float(t):.5f}", "after", int(iters), "steps; fori march",
      f"{float(march(jnp.array([0.0, 0.0, -3.0]), d, true)):.5f}")
print("normal at the sphere's top", normal(jnp.array([0.0, 0.5, 0.0]), true))
print("normal on the floor", normal(jnp.array([-1.5, -0.6, 0.0]), true))
inside = jnp.array([0.9, -0.3, 0.15])
print("box gradient inside",
      jax.grad(lambda p: sd_box(p, jnp.array([0.9, -0.3, 0.2]), jnp.full(3, 0.3)))(inside),
      "with jnp.linalg.norm", jax.grad(lambda p: jnp.linalg.norm(jnp.maximum(jnp.abs(p) - 1.0, 0.0)))(inside))


def loss(params, target):
    return jnp.mean((render(params) - target) ** 2)


guess = {"radius": jnp.asarray(0.4), "light": jnp.array([-0.2, 0.9, -0.3])}
value, grads = jax.value_and_grad(loss)(guess, image)
print("loss", f"{float(value):.6f}", "d/dradius", f"{float(grads['radius']):.5f}", "d/dlight", grads["light"])
tangent = {"radius": jnp.asarray(1.0), "light": jnp.array([0.0, 0.0, 0.0])}
_, dloss = jax.jvp(lambda p: loss(p, image), (guess,), (tangent,))
print("jvp agrees with grad:", bool(jnp.allclose(dloss, grads["radius"], rtol=1e-3)))

params = guess
grad_fn = jax.jit(jax.value_and_grad(loss))
for i in range(40):
    value, g = grad_fn(params, image)
    params = jax.tree.map(lambda p, gi: p - 0.5 * gi, params, g)
    if i % 10 == 0 and i < 30:
        print(f"step {i}: loss {float(value):.6f} radius {float(params['radius']):.4f}")
print("final loss below 1e-3:", bool(value < 1e-3))
print("recovered radius", f"{float(params['radius']):.3f}", "light dir",
      params["light"] / jnp.linalg.norm(params["light"]))
