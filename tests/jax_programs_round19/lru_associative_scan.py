"""A Linear Recurrent Unit (Orvieto et al. 2023) in the style of its published JAX code: a
complex diagonal recurrence x_k = lambda * x_{k-1} + B u_k with lambda = exp(-exp(nu) +
i exp(theta)), initialised on a ring by jax.random, computed by lax.associative_scan with a
binary operator on (lambda, Bu) pairs, checked against lax.scan, batched with vmap, a real
readout Re(C x) + D u, and trained by value_and_grad through the complex parameters."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import random

jnp.set_printoptions(precision=5, suppress=True)


def nu_init(key, shape, r_min=0.4, r_max=0.9):
    u = random.uniform(key, shape)
    return jnp.log(-0.5 * jnp.log(u * (r_max**2 - r_min**2) + r_min**2))


def theta_init(key, shape, max_phase=6.28):
    return jnp.log(max_phase * random.uniform(key, shape))


def init_lru(key, d_hidden, d_model):
    k = random.split(key, 7)
    nu_log = nu_init(k[0], (d_hidden,))
    theta_log = theta_init(k[1], (d_hidden,))
    diag_lambda = jnp.exp(-jnp.exp(nu_log) + 1j * jnp.exp(theta_log))
    gamma_log = jnp.log(jnp.sqrt(1 - jnp.abs(diag_lambda) ** 2))
    B_re = random.normal(k[2], (d_hidden, d_model)) / jnp.sqrt(2 * d_model)
    B_im = random.normal(k[3], (d_hidden, d_model)) / jnp.sqrt(2 * d_model)
    C_re = random.normal(k[4], (d_model, d_hidden)) / jnp.sqrt(d_hidden)
    C_im = random.normal(k[5], (d_model, d_hidden)) / jnp.sqrt(d_hidden)
    D = random.normal(k[6], (d_model,))
    return dict(nu_log=nu_log, theta_log=theta_log, gamma_log=gamma_log,
                B_re=B_re, B_im=B_im, C_re=C_re, C_im=C_im, D=D)


def binary_operator(q_i, q_j):
    a_i, bu_i = q_i
    a_j, bu_j = q_j
    return a_j * a_i, a_j * bu_i + bu_j


def lru_forward(p, inputs, *, parallel=True):
    diag_lambda = jnp.exp(-jnp.exp(p["nu_log"]) + 1j * jnp.exp(p["theta_log"]))
    B_norm = (p["B_re"] + 1j * p["B_im"]) * jnp.expand_dims(jnp.exp(p["gamma_log"]), axis=-1)
    C = p["C_re"] + 1j * p["C_im"]
    Lambda_elements = jnp.repeat(diag_lambda[None, ...], inputs.shape[0], axis=0)
    Bu_elements = jax.vmap(lambda u: B_norm @ u)(inputs)
    if parallel:
        _, hidden_states = jax.lax.associative_scan(binary_operator, (Lambda_elements, Bu_elements))
    else:
        def step(x, ab):
            a, bu = ab
            x = a * x + bu
            return x, x
        _, hidden_states = jax.lax.scan(step, jnp.zeros_like(Bu_elements[0]), (Lambda_elements, Bu_elements))
    y = jax.vmap(lambda h, x: (C @ h).real + p["D"] * x)(hidden_states, inputs)
    return y


key = random.PRNGKey(42)
pkey, xkey, tkey = random.split(key, 3)
params = init_lru(pkey, d_hidden=8, d_model=3)
print({k: (v.shape, v.dtype.name) for k, v in params.items()})
lam = jnp.exp(-jnp.exp(params["nu_log"]) + 1j * jnp.exp(params["theta_log"]))
print("lambda dtype", lam.dtype, "|lambda|", jnp.abs(lam))

u = random.normal(xkey, (4, 16, 3))  # batch, time, features
y_par = jax.vmap(partial(lru_forward, params))(u)
y_seq = jax.vmap(partial(lru_forward, params, parallel=False))(u)
print("y shape", y_par.shape, y_par.dtype)
print("scan vs associative_scan close:", bool(jnp.allclose(y_par, y_seq, atol=1e-5)))
print("y[0, -3:]\n", y_par[0, -3:])

# a target: a delayed, smoothed copy of the input
target = 0.5 * jnp.roll(u, 2, axis=1) + 0.25 * jnp.roll(u, 3, axis=1)


def loss_fn(p, u, t):
    y = jax.vmap(partial(lru_forward, p))(u)
    return jnp.mean((y - t) ** 2)


loss, grads = jax.value_and_grad(loss_fn)(params, u, target)
print(f"initial loss {loss:.6f}")
print("grad nu_log   ", grads["nu_log"])
print("grad theta_log", grads["theta_log"])
print("grad dtypes", sorted({g.dtype.name for g in jax.tree.leaves(grads)}))
# gradient wrt the complex parameterisation vs the sequential scan
seq_loss = lambda p: jnp.mean((jax.vmap(partial(lru_forward, p, parallel=False))(u) - target) ** 2)
g_seq = jax.grad(seq_loss)(params)
print("grads agree:", all(bool(jnp.allclose(a, b, rtol=1e-4, atol=1e-6))
                          for a, b in zip(jax.tree.leaves(grads), jax.tree.leaves(g_seq))))


@jax.jit
def sgd_step(p, u, t, lr=0.05):
    l, g = jax.value_and_grad(loss_fn)(p, u, t)
    return jax.tree.map(lambda a, b: a - lr * b, p, g), l


for i in range(30):
    params, l = sgd_step(params, u, target)
    if i % 10 == 9:
        print(f"step {i + 1:3d} loss {l:.6f}")

# a complex-valued function: its grad is the conjugate-convention cotangent
f = lambda z: jnp.abs(jnp.sum(lam * z)) ** 2
z0 = jnp.ones(8, dtype=lam.dtype)
print("complex grad", jax.grad(f)(z0)[:3])
