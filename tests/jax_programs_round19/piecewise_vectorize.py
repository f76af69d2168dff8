"""NumPy-flavoured scientific code run through JAX, as in ported SciPy-cookbook snippets:
jnp.piecewise (scalars and arrays of conditions, under jit and grad), jnp.vectorize with
signatures and excluded arguments, jnp.select, jnp.interp with left/right/period, jnp.histogram
with bins and ranges, jnp.quantile/percentile methods, jnp.digitize, jnp.trapezoid, and
jax.ensure_compile_time_eval building a constant table inside jit."""

import numpy as np

import jax
import jax.numpy as jnp

jnp.set_printoptions(precision=5, suppress=True)

x = jnp.linspace(-2.0, 3.0, 11)


def huber_like(x, delta=1.0):
    return jnp.piecewise(x, [jnp.abs(x) <= delta, x > delta],
                         [lambda v: 0.5 * v**2, lambda v: delta * (v - 0.5 * delta),
                          lambda v: delta * (-v - 0.5 * delta)])


print("piecewise   ", huber_like(x))
print("piecewise'  ", jax.vmap(jax.grad(huber_like))(x))
print("jit piecewise", jax.jit(huber_like)(x)[:4])
print("piecewise consts", jnp.piecewise(x, [x < 0, x >= 1.5], [-1.0, 1.0, 0.0]))
ramp = lambda t: jnp.piecewise(t, [t < 0, (t >= 0) & (t < 1)], [0.0, lambda s: s, 1.0])
print("ramp", ramp(jnp.array([-0.5, 0.25, 0.75, 2.0])), "d ramp", jax.grad(ramp)(0.5))


@jnp.vectorize
def collatz_steps_bound(n):
    return jnp.where(n % 2 == 0, n // 2, 3 * n + 1)


print("vectorize scalar", collatz_steps_bound(jnp.arange(1, 9)))


@jnp.vectorize
def softclip(v, lo, hi):
    return lo + (hi - lo) * jax.nn.sigmoid(v)


print("vectorize broadcast\n", softclip(jnp.arange(3.0)[:, None], jnp.array([0.0, -1.0]), 2.0))


@jnp.vectorize
def _dummy(v):
    return v


cosine = jnp.vectorize(lambda a, b: jnp.dot(a, b) / (jnp.linalg.norm(a) * jnp.linalg.norm(b)),
                       signature="(n),(n)->()")
A = jnp.arange(12.0).reshape(2, 2, 3) - 5.0
B = jnp.array([1.0, 0.5, -2.0])
print("cosine (n),(n)->()", cosine(A, B))
outer_sig = jnp.vectorize(jnp.outer, signature="(n),(m)->(n,m)")
print("outer shape", outer_sig(jnp.ones((4, 2)), jnp.ones((4, 3))).shape)
poly = jnp.vectorize(lambda coeffs, t: jnp.polyval(coeffs, t), excluded={0})
print("excluded", poly(jnp.array([1.0, 0.0, -2.0]), jnp.array([0.0, 1.0, 2.0])))

conds = [x < -1, x < 1, x < 2]
print("select", jnp.select(conds, [x**2, -x, jnp.sqrt(jnp.abs(x))], default=jnp.nan))

xp = jnp.array([0.0, 1.0, 2.5, 4.0])
fp = jnp.array([1.0, 3.0, 2.0, 0.0])
q = jnp.array([-1.0, 0.5, 2.0, 3.9, 5.0])
print("interp", jnp.interp(q, xp, fp), jnp.interp(q, xp, fp, left=-9.0, right=9.0))
print("interp period", jnp.interp(jnp.array([-0.5, 4.5, 7.25]), xp, fp, period=5.0))
print("d interp / dq", jax.vmap(jax.grad(lambda t: jnp.interp(t, xp, fp)))(q[1:4]))

data = jax.random.normal(jax.random.PRNGKey(11), (500,)) * 1.5 + 0.3
counts, edges = jnp.histogram(data, bins=8, range=(-4.0, 4.0))
print("histogram", counts, counts.dtype)
print("edges", edges)
dens, _ = jnp.histogram(data, bins=jnp.array([-5.0, -1.0, 0.0, 0.5, 5.0]), density=True)
print("density", dens)
w_counts, _ = jnp.histogram(data, bins=4, weights=jnp.abs(data))
print("weighted", w_counts)
for method in ("linear", "lower", "higher", "nearest", "midpoint"):
    print(f"quantile {method:8s}", jnp.quantile(data, jnp.array([0.1, 0.5, 0.9]), method=method))
print("percentile axis", jnp.percentile(data.reshape(5, 100), 75.0, axis=1, keepdims=True).T)
print("nanquantile", jnp.nanquantile(jnp.array([1.0, jnp.nan, 3.0, 2.0]), 0.5))
print("digitize", jnp.digitize(jnp.array([-3.0, 0.0, 0.2, 4.0]), jnp.array([-1.0, 0.0, 1.0]), right=True))
t = jnp.linspace(0, jnp.pi, 101)
print(f"trapezoid {jnp.trapezoid(jnp.sin(t), t):.6f}", f"dx {jnp.trapezoid(jnp.sin(t), dx=t[1] - t[0]):.6f}")


@jax.jit
def chebyshev_features(z):
    with jax.ensure_compile_time_eval():
        nodes = jnp.cos(jnp.pi * (jnp.arange(6) + 0.5) / 6)
        table = np.asarray(jnp.stack([nodes ** k for k in range(4)]))  # concrete under jit
    return jnp.asarray(table) @ jnp.ones(6) + z * table.shape[0]


print("compile-time table", chebyshev_features(1.0))
