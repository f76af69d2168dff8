"""L-BFGS written by hand over pytrees, the way optimisation libraries do it: parameters are
a dict of arrays, the history of (s, y) pairs is a ring buffer of stacked pytrees updated with
.at[i].set under jax.tree.map, the two-loop recursion runs in lax.fori_loop (forward and
backward with jnp.where masking for the unfilled slots), a backtracking Armijo line search in
lax.while_loop, and the whole optimiser step is jit-compiled with donate_argnums. The model is
a logistic regression with an L2 penalty; the result is checked against
jax.scipy.optimize.minimize(method="BFGS") on the flattened parameters."""

from functools import partial
from typing import NamedTuple

import jax
import numpy as np
import jax.numpy as jnp
from jax import lax, random
from jax.flatten_util import ravel_pytree
from jax.scipy.optimize import minimize

np.set_printoptions(precision=5)
M = 5
key = random.PRNGKey(0)
kx, kw, kn = random.split(key, 3)
X = random.normal(kx, (80, 4))
w_true = jnp.array([1.5, -2.0, 0.5, 0.0])
y = (X @ w_true + 0.3 + 0.5 * random.normal(kn, (80,)) > 0).astype(X.dtype)


def loss(params):
    logits = X @ params["w"] + params["b"]
    nll = jnp.mean(jnp.logaddexp(0.0, logits) - y * logits)
    return nll + 0.01 * jnp.sum(params["w"] ** 2)


tree_dot = lambda a, b: sum(jnp.vdot(x, z) for x, z in zip(jax.tree.leaves(a), jax.tree.leaves(b)))
tree_axpy = lambda a, x, y: jax.tree.map(lambda u, v: a * u + v, x, y)


class State(NamedTuple):
    params: dict
    grad: dict
    s: dict
    y: dict
    rho: jax.Array
    k: jax.Array


def init(params):
    g = jax.grad(loss)(params)
    hist = lambda: jax.tree.map(lambda p: jnp.zeros((M,) + p.shape, p.dtype), params)
    return State(params, g, hist(), hist(), jnp.zeros(M), jnp.array(0))


def direction(state):
    valid = jnp.arange(M) < jnp.minimum(state.k, M)
    q = state.grad
    alphas = jnp.zeros(M)

    def back(i, carry):
        q, alphas = carry
        j = (state.k - 1 - i) % M
        s_j = jax.tree.map(lambda h: h[j], state.s)
        y_j = jax.tree.map(lambda h: h[j], state.y)
        a = jnp.where(valid[j], state.rho[j] * tree_dot(s_j, q), 0.0)
        return tree_axpy(-a, y_j, q), alphas.at[j].set(a)

    q, alphas = lax.fori_loop(0, M, back, (q, alphas))
    last = (state.k - 1) % M
    sy = tree_dot(jax.tree.map(lambda h: h[last], state.s), jax.tree.map(lambda h: h[last], state.y))
    yy = tree_dot(jax.tree.map(lambda h: h[last], state.y), jax.tree.map(lambda h: h[last], state.y))
    gamma = jnp.where(state.k > 0, sy / jnp.where(yy > 0, yy, 1.0), 1.0)
    r = jax.tree.map(lambda v: gamma * v, q)

    def fwd(i, r):
        j = (state.k - jnp.minimum(state.k, M) + i) % M
        s_j = jax.tree.map(lambda h: h[j], state.s)
        y_j = jax.tree.map(lambda h: h[j], state.y)
        b = state.rho[j] * tree_dot(y_j, r)
        return jax.tree.map(lambda rv, sv: rv + jnp.where(valid[j], alphas[j] - b, 0.0) * sv, r, s_j)

    r = lax.fori_loop(0, M, fwd, r)
    return jax.tree.map(jnp.negative, r)


def line_search(params, f0, g, d):
    slope = tree_dot(g, d)

    def cond(c):
        t, f = c
        return (f > f0 + 1e-4 * t * slope) & (t > 1e-8)

    def body(c):
        t, _ = c
        t = 0.5 * t
        return t, loss(tree_axpy(t, d, params))

    return lax.while_loop(cond, body, (1.0, loss(tree_axpy(1.0, d, params))))


@partial(jax.jit, donate_argnums=0)
def step(state):
    d = direction(state)
    f0 = loss(state.params)
    t, f1 = line_search(state.params, f0, state.grad, d)
    new = tree_axpy(t, d, state.params)
    g = jax.grad(loss)(new)
    s = jax.tree.map(jnp.subtract, new, state.params)
    yv = jax.tree.map(jnp.subtract, g, state.grad)
    i = state.k % M
    S = jax.tree.map(lambda h, v: h.at[i].set(v), state.s, s)
    Y = jax.tree.map(lambda h, v: h.at[i].set(v), state.y, yv)
    rho = state.rho.at[i].set(1.0 / tree_dot(yv, s))
    return State(new, g, S, Y, rho, state.k + 1), (f1, t)


params = {"w": jnp.zeros(4), "b": jnp.zeros(())}
state = init(jax.tree.map(jnp.copy, params))  # step donates the state's buffers
print("initial loss:", f"{float(loss(params)):.6f}")
for it in range(12):
    state, (f, t) = step(state)
    gnorm = float(jnp.sqrt(tree_dot(state.grad, state.grad)))
    if gnorm > 1e-5:  # below, float32 rounding decides the line search
        print(f"iter {it:2d}: loss {float(f):.6f} step {float(t):.4f} |g| {gnorm:.2e}")
print(f"converged: loss {float(loss(state.params)):.6f}")
print("w:", state.params["w"], "b:", state.params["b"])
print("history filled:", int(jnp.minimum(state.k, M)), "rho > 0:", bool(jnp.all(state.rho > 0)))

flat, unravel = ravel_pytree(params)
res = minimize(lambda v: loss(unravel(v)), flat, method="BFGS")
# (in float32 BFGS stops on its line search with |g| ~ 1e-4: its last digits are rounding noise)
print("BFGS loss", f"{float(res.fun):.6f}", "iterations > 5:", bool(res.nit > 5))
print("L-BFGS and BFGS agree:", bool(jnp.allclose(ravel_pytree(state.params)[0], res.x, atol=1e-3)))
