"""Soft dynamic time warping (Cuturi & Blondel, 2017) as JAX tutorials and libraries write it:
the soft-min recursion R[i, j] = d[i, j] + softmin_gamma(R[i-1, j], R[i, j-1], R[i-1, j-1])
by a lax.scan over rows whose body is a lax.scan over columns, checked against a Python double
loop; the expected alignment matrix as jax.grad wrt the pairwise costs; gamma -> 0 recovering
hard DTW; vmap over a batch of series; a soft-DTW barycentre by gradient descent under jit;
and the soft-DTW divergence."""

import jax
import jax.numpy as jnp
import numpy as np
from jax.scipy.special import logsumexp

jnp.set_printoptions(precision=5, suppress=True)


def softmin(a, b, c, gamma):
    vals = jnp.stack([a, b, c])
    return -gamma * logsumexp(-vals / gamma, axis=0)


def sdtw_from_costs(D, gamma):
    n, m = D.shape
    big = jnp.asarray(1e10, D.dtype)
    first = jnp.concatenate([jnp.zeros(1, D.dtype), jnp.full((m,), big)])

    def row(prev, d_row):
        def col(left, inputs):
            up, diag, d = inputs
            r = d + softmin(up, left, diag, gamma)
            return r, r

        _, cur = jax.lax.scan(col, big, (prev[1:], prev[:-1], d_row))
        cur = jnp.concatenate([jnp.full((1,), big), cur])
        return cur, None

    last, _ = jax.lax.scan(row, first, D)
    return last[-1]


def sq_costs(x, y):
    return jnp.sum((x[:, None, :] - y[None, :, :]) ** 2, axis=-1)


def sdtw(x, y, gamma=1.0):
    return sdtw_from_costs(sq_costs(x, y), gamma)


def sdtw_python(D, gamma):
    D = np.asarray(D, dtype=np.float64)
    n, m = D.shape
    R = np.full((n + 1, m + 1), np.inf)
    R[0, 0] = 0.0
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            v = -np.array([R[i - 1, j], R[i, j - 1], R[i - 1, j - 1]]) / gamma
            mx = v.max()
            R[i, j] = D[i - 1, j - 1] - gamma * (mx + np.log(np.exp(v - mx).sum()))
    return R[n, m]


t1 = jnp.linspace(0, 2 * jnp.pi, 12)
t2 = jnp.linspace(0, 2 * jnp.pi, 9)
x = jnp.stack([jnp.sin(t1), jnp.cos(t1)], axis=1)
y = jnp.stack([jnp.sin(t2 + 0.4), jnp.cos(t2 + 0.4)], axis=1)
D = sq_costs(x, y)
for gamma in [1.0, 0.1, 0.01]:
    v = sdtw(x, y, gamma)
    print(f"gamma={gamma}: sdtw={float(v):.6f} python={sdtw_python(D, gamma):.6f}")

# the expected alignment: d sdtw / d D
E = jax.grad(sdtw_from_costs)(D, 0.1)
print("alignment rows sum", E.sum(axis=1))
print("alignment total", float(E.sum()))
print("alignment corner", E[0, 0], E[-1, -1])

# gradient wrt the first series and forward-mode check
gx = jax.grad(sdtw)(x, y, 0.5)
print("grad x[:3]", gx[:3])
direction = jnp.ones_like(x) / x.size
_, tangent = jax.jvp(lambda xx: sdtw(xx, y, 0.5), (x,), (direction,))
print("jvp == grad.dir:", bool(jnp.allclose(tangent, jnp.vdot(gx, direction), rtol=1e-4)))

# batch of series against one template
key = jax.random.PRNGKey(0)
batch = x[None] + 0.1 * jax.random.normal(key, (4,) + x.shape)
vals = jax.vmap(sdtw, in_axes=(0, None, None))(batch, y, 0.5)
print("batched", vals)
loop = jnp.stack([sdtw(b, y, 0.5) for b in batch])
print("vmap == loop:", bool(jnp.allclose(vals, loop, rtol=1e-5)))


# soft-DTW divergence is zero at equality and positive otherwise
def divergence(a, b, gamma):
    return sdtw(a, b, gamma) - 0.5 * (sdtw(a, a, gamma) + sdtw(b, b, gamma))


print("divergence(x,x)", round(float(divergence(x, x, 1.0)), 5),
      "divergence(x,y)", float(divergence(x, y, 1.0)))

# a barycentre of three shifted series by gradient descent
series = jnp.stack([jnp.stack([jnp.sin(t1 + s), jnp.cos(t1 + s)], axis=1) for s in (0.0, 0.3, 0.6)])


@jax.jit
def step(z):
    loss, g = jax.value_and_grad(lambda zz: jnp.mean(jax.vmap(lambda s: sdtw(zz, s, 0.5))(series)))(z)
    return z - 0.05 * g, loss


z = series.mean(axis=0) + 0.05
for i in range(30):
    z, loss = step(z)
    if i % 10 == 0:
        print(f"barycentre step {i}: loss={float(loss):.6f}")
print("barycentre first point", z[0])
