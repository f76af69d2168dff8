"""Interpolating tabulated data: ``jnp.interp`` (edges, ``left``/``right``, ``period``, its
gradient in the query point and in the table), ``jax.scipy.interpolate.RegularGridInterpolator``
on a 2-D and a 3-D grid (linear and nearest, fill values, extrapolation), its gradient in the
points and in the values, a ``vmap`` over query batches, a minimum found by gradient descent on
the interpolant, and fitting grid values to scattered data by least squares through the
interpolator."""

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.scipy.interpolate import RegularGridInterpolator

# 1-D tables
xp = jnp.linspace(0.0, 2.0, 9)
fp = jnp.sin(jnp.pi * xp) + xp ** 2
q = jnp.array([-0.5, 0.0, 0.3, 1.0, 1.37, 2.0, 2.5])
print("interp:", jnp.round(jnp.interp(q, xp, fp), 4))
print("interp left/right:", jnp.round(jnp.interp(q, xp, fp, left=-1.0, right=9.0), 4))
angles = jnp.array([-190.0, -5.0, 0.0, 170.0, 355.0, 725.0])
print("periodic:", jnp.round(jnp.interp(angles, jnp.array([0.0, 90.0, 180.0, 270.0]),
                                         jnp.array([1.0, 0.0, -1.0, 0.0]), period=360.0), 4))
slope = jax.vmap(jax.grad(jnp.interp), in_axes=(0, None, None))(q, xp, fp)
print("d interp / d x:", jnp.round(slope, 4))
weights = jax.grad(lambda table: jnp.interp(1.37, xp, table))(fp)
print("d interp(1.37) / d table:", jnp.round(weights, 4), "sum", jnp.round(weights.sum(), 4))
print("dtype / weak:", jnp.interp(0.3, xp, fp).dtype, jnp.interp(q, xp, fp).shape)

# a 2-D table of f(x, y) = exp(-x^2 - 2 y^2) * cos(x y) on an uneven grid
gx = jnp.array([-2.0, -1.2, -0.5, 0.0, 0.4, 1.0, 1.7, 2.5])
gy = jnp.linspace(-1.5, 1.5, 7)
X, Y = jnp.meshgrid(gx, gy, indexing="ij")


def field(x, y):
    return jnp.exp(-(x - 0.3) ** 2 - 2 * (y + 0.2) ** 2) * jnp.cos(x * y)


values = field(X, Y)
linear = RegularGridInterpolator((gx, gy), values)
nearest = RegularGridInterpolator((gx, gy), values, method="nearest")
extrap = RegularGridInterpolator((gx, gy), values, fill_value=None)
zero_fill = RegularGridInterpolator((gx, gy), values, fill_value=0.0)
pts = jnp.array([[0.1, 0.2], [-1.9, 1.4], [2.2, -0.7], [3.0, 0.0], [0.4, -1.5]])
print("linear :", jnp.round(linear(pts), 4))
print("nearest:", jnp.round(nearest(pts), 4))
print("extrapolated:", jnp.round(extrap(pts), 4))
print("zero fill:", jnp.round(zero_fill(pts), 4))
print("at the nodes:", bool(jnp.allclose(linear(jnp.stack([X.ravel(), Y.ravel()], -1)), values.ravel())))

# gradient of the interpolant in the query point (piecewise constant per cell)
grad_pt = jax.vmap(jax.grad(lambda p: linear(p[None])[0]))(pts[:3])
print("grad in the point:", jnp.round(grad_pt, 4))
# gradient in the values: the bilinear weights
w = jax.grad(lambda v: RegularGridInterpolator((gx, gy), v)(pts[:1])[0])(values)
nz = jnp.nonzero(w, size=4)
print("weights:", jnp.round(w[nz], 4), "at", nz[0], nz[1], "sum", jnp.round(w.sum(), 4))

# batches under vmap and jit
batch = random.uniform(random.PRNGKey(3), (4, 6, 2), minval=-1.5, maxval=1.5)
out = jax.jit(jax.vmap(linear))(batch)
print("batched:", out.shape, jnp.round(out.mean(axis=1), 4))
err = jnp.abs(out - field(batch[..., 0], batch[..., 1])).max()
print("max interpolation error:", jnp.round(err, 2))


# minimum of the negated interpolant by gradient descent from a few starts
@jax.jit
def climb(p0):
    def body(_, p):
        g = jax.grad(lambda z: -linear(z[None])[0])(p)
        return jnp.clip(p - 0.05 * g, jnp.array([-2.0, -1.5]), jnp.array([2.5, 1.5]))

    return lax.fori_loop(0, 150, body, p0)


starts = jnp.array([[1.5, 1.0], [-1.0, -1.0], [0.0, 0.0]])
peaks = jax.vmap(climb)(starts)
print("climbed to:", jnp.round(peaks, 3), "values", jnp.round(linear(peaks), 4))

# a 3-D grid
g1 = jnp.linspace(0.0, 1.0, 5)
g2 = jnp.linspace(0.0, 2.0, 6)
g3 = jnp.array([0.0, 0.5, 2.0, 3.0])
A, B, C = jnp.meshgrid(g1, g2, g3, indexing="ij")
cube = 1.0 + A + 2.0 * B - 0.5 * C + A * B
interp3 = RegularGridInterpolator((g1, g2, g3), cube)
p3 = jnp.array([[0.25, 0.5, 1.0], [0.9, 1.9, 2.9], [0.5, 1.0, 0.25]])
print("3-D (exact for multilinear):", jnp.round(interp3(p3), 4),
      jnp.round(1.0 + p3[:, 0] + 2 * p3[:, 1] - 0.5 * p3[:, 2] + p3[:, 0] * p3[:, 1], 4))

# fitting the grid values to scattered samples (linear least squares through the interpolator)
k1, k2 = random.split(random.PRNGKey(11))
samples = jnp.stack([random.uniform(k1, (120,), minval=-2.0, maxval=2.5),
                     random.uniform(k2, (120,), minval=-1.5, maxval=1.5)], -1)
targets = field(samples[:, 0], samples[:, 1])


def misfit(v):
    pred = RegularGridInterpolator((gx, gy), v)(samples)
    return jnp.mean((pred - targets) ** 2) + 1e-3 * jnp.mean(v ** 2)


design = jax.jacfwd(lambda v: RegularGridInterpolator((gx, gy), v)(samples))(values)
print("design matrix:", design.shape, "rows sum to 1:", bool(jnp.allclose(design.sum((1, 2)), 1.0)))
fitted = values * 0.0
for _ in range(3):
    g = jax.grad(misfit)(fitted)
    h = jax.hessian(misfit)(fitted).reshape(values.size, values.size)
    fitted = fitted - jnp.linalg.solve(h, g.ravel()).reshape(values.shape)
print("misfit before / after:", jnp.round(misfit(values * 0.0), 4), jnp.round(misfit(fitted), 5))
print("fitted vs true at the nodes:", jnp.round(jnp.abs(fitted - values).max(), 2))
