# ruff: noqa: E501 - program text as written for JAX
"""A neural spline flow (Durkan et al., 2019): monotone rational-quadratic spline coupling
layers, written as in distrax-free JAX research code -- bin widths and heights by softmax,
knot derivatives by softplus, the bin of each input found with jnp.searchsorted (vmapped)
and its parameters gathered with jnp.take_along_axis, identity tails outside [-B, B], the
analytic inverse by the quadratic formula, log-determinants checked against
jnp.linalg.slogdet of jax.jacfwd, and maximum-likelihood training on a two-moons-like
density by gradient descent with momentum."""

import jax
import jax.numpy as jnp
from jax import random

N_BINS, BOUND, MIN_W, MIN_D = 8, 3.0, 1e-3, 1e-3


def spline_params(raw):
    w, h, d = raw[:N_BINS], raw[N_BINS:2 * N_BINS], raw[2 * N_BINS:]
    w = MIN_W + (1 - MIN_W * N_BINS) * jax.nn.softmax(w)
    h = MIN_W + (1 - MIN_W * N_BINS) * jax.nn.softmax(h)
    cw = jnp.concatenate([jnp.zeros(1), jnp.cumsum(w)])
    ch = jnp.concatenate([jnp.zeros(1), jnp.cumsum(h)])
    cw = 2 * BOUND * cw - BOUND
    ch = 2 * BOUND * ch - BOUND
    cw = cw.at[-1].set(BOUND)
    ch = ch.at[-1].set(BOUND)
    d = jnp.concatenate([jnp.ones(1), MIN_D + jax.nn.softplus(d), jnp.ones(1)])
    return cw, ch, d


def rq_forward(x, raw):
    cw, ch, d = spline_params(raw)
    inside = (x >= -BOUND) & (x <= BOUND)
    xc = jnp.clip(x, -BOUND, BOUND)
    k = jnp.clip(jnp.searchsorted(cw, xc, side="right") - 1, 0, N_BINS - 1)
    take = lambda a, i: jnp.take_along_axis(a, jnp.atleast_1d(i), axis=0)[0]  # noqa: E731
    x0, x1, y0, y1 = take(cw, k), take(cw, k + 1), take(ch, k), take(ch, k + 1)
    d0, d1 = take(d, k), take(d, k + 1)
    wk, s = x1 - x0, (y1 - y0) / (x1 - x0)
    xi = (xc - x0) / wk
    denom = s + (d1 + d0 - 2 * s) * xi * (1 - xi)
    y = y0 + (y1 - y0) * (s * xi ** 2 + d0 * xi * (1 - xi)) / denom
    dydx = s ** 2 * (d1 * xi ** 2 + 2 * s * xi * (1 - xi) + d0 * (1 - xi) ** 2) / denom ** 2
    return jnp.where(inside, y, x), jnp.where(inside, jnp.log(dydx), 0.0)


def rq_inverse(y, raw):
    cw, ch, d = spline_params(raw)
    inside = (y >= -BOUND) & (y <= BOUND)
    yc = jnp.clip(y, -BOUND, BOUND)
    k = jnp.clip(jnp.searchsorted(ch, yc, side="right") - 1, 0, N_BINS - 1)
    x0, x1, y0, y1, d0, d1 = cw[k], cw[k + 1], ch[k], ch[k + 1], d[k], d[k + 1]
    s = (y1 - y0) / (x1 - x0)
    dy = yc - y0
    a = (y1 - y0) * (s - d0) + dy * (d1 + d0 - 2 * s)
    b = (y1 - y0) * d0 - dy * (d1 + d0 - 2 * s)
    c = -s * dy
    xi = 2 * c / (-b - jnp.sqrt(b ** 2 - 4 * a * c))
    return jnp.where(inside, x0 + xi * (x1 - x0), y)


def init(key, n_layers=4, hidden=32):
    layers = []
    for k in random.split(key, n_layers):
        k1, k2 = random.split(k)
        layers.append({"w1": random.normal(k1, (1, hidden)) * 0.5, "b1": jnp.zeros(hidden),
                       "w2": random.normal(k2, (hidden, 3 * N_BINS - 1)) * 0.01,
                       "b2": jnp.zeros(3 * N_BINS - 1)})
    return layers


def conditioner(layer, x_cond):
    return jnp.tanh(x_cond @ layer["w1"] + layer["b1"]) @ layer["w2"] + layer["b2"]


def flow_forward(layers, x):
    """x (2,) -> z (2,), log|det dz/dx|; alternate which coordinate is transformed."""
    logdet = 0.0
    for i, layer in enumerate(layers):
        a, b = (0, 1) if i % 2 == 0 else (1, 0)
        raw = conditioner(layer, x[a:a + 1])
        yb, ld = rq_forward(x[b], raw)
        x = x.at[b].set(yb)
        logdet = logdet + ld
    return x, logdet


def flow_inverse(layers, z):
    for i in reversed(range(len(layers))):
        a, b = (0, 1) if i % 2 == 0 else (1, 0)
        raw = conditioner(layers[i], z[a:a + 1])
        z = z.at[b].set(rq_inverse(z[b], raw))
    return z


def log_prob(layers, x):
    z, logdet = flow_forward(layers, x)
    return jax.scipy.stats.norm.logpdf(z).sum() + logdet


def make_moons(key, n):
    k1, k2, k3 = random.split(key, 3)
    t = random.uniform(k1, (n,), minval=0.0, maxval=jnp.pi)
    upper = random.bernoulli(k2, 0.5, (n,))
    x = jnp.where(upper, jnp.cos(t), 1 - jnp.cos(t))
    y = jnp.where(upper, jnp.sin(t), 0.5 - jnp.sin(t))
    return jnp.stack([x, y], 1) + 0.1 * random.normal(k3, (n, 2))


raw = random.normal(random.PRNGKey(5), (3 * N_BINS - 1,))
xs = jnp.array([-4.0, -2.5, -0.3, 0.0, 1.7, 2.99, 3.5])
ys, lds = jax.vmap(rq_forward, in_axes=(0, None))(xs, raw)
print("spline y", ys)
print("log dy/dx", lds)
print("autodiff log dy/dx matches", bool(jnp.allclose(
    jnp.log(jax.vmap(jax.grad(lambda x: rq_forward(x, raw)[0]))(xs)), lds, atol=1e-5)))
print("inverse roundtrip err < 1e-4", jnp.max(jnp.abs(jax.vmap(rq_inverse, in_axes=(0, None))(ys, raw) - xs)) < 1e-4)

layers = init(random.PRNGKey(0))
data = make_moons(random.PRNGKey(1), 256)
x0 = data[0]
z0, ld0 = flow_forward(layers, x0)
sign, ld_jac = jnp.linalg.slogdet(jax.jacfwd(lambda x: flow_forward(layers, x)[0])(x0))
print("logdet vs slogdet(jacfwd)", ld0, ld_jac, sign)

nll = lambda p, x: -jnp.mean(jax.vmap(log_prob, in_axes=(None, 0))(p, x))  # noqa: E731


@jax.jit
def sgd_momentum(p, vel, x, lr=0.005, beta=0.5):
    loss, g = jax.value_and_grad(nll)(p, x)
    vel = jax.tree.map(lambda v, g: beta * v + g, vel, g)
    return jax.tree.map(lambda p, v: p - lr * v, p, vel), vel, loss


vel = jax.tree.map(jnp.zeros_like, layers)
for t in range(1, 61):
    layers, vel, loss = sgd_momentum(layers, vel, data)
    if t % 15 == 0:
        print(f"step {t} nll {loss:.4f}")
z, _ = jax.vmap(flow_forward, in_axes=(None, 0))(layers, data[:5])
back = jax.vmap(flow_inverse, in_axes=(None, 0))(layers, z)
print("flow inverse roundtrip err < 1e-4", jnp.max(jnp.abs(back - data[:5])) < 1e-4)
samples = jax.vmap(flow_inverse, in_axes=(None, 0))(layers, random.normal(random.PRNGKey(9), (512, 2)))
print("sample mean", samples.mean(0), "data mean", data.mean(0))
