"""The "Advanced automatic differentiation" material: Hessian-vector products three ways,
jvp of vjp, linearize, Jacobians by vmap, custom_jvp with defjvps, custom_vjp gradient
clipping, stop_gradient in TD(0), per-example gradients and the straight-through estimator."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import grad, jacfwd, jacrev, jit, jvp, vjp, vmap


def f(x):
    return jnp.sum(jnp.tanh(x) ** 2 + jnp.sin(x[0] * x))


x = jnp.array([0.3, -0.7, 1.2])
v = jnp.array([1.0, 0.5, -2.0])


def hvp_rev_rev(f, x, v):
    return grad(lambda x: jnp.vdot(grad(f)(x), v))(x)


def hvp_fwd_rev(f, x, v):
    return jvp(grad(f), (x,), (v,))[1]


def hvp_rev_fwd(f, x, v):
    g = lambda primals: jvp(f, primals, (v,))[1]  # noqa: E731
    return grad(g)((x,))[0]


print(hvp_rev_rev(f, x, v))
print(hvp_fwd_rev(f, x, v))
print(hvp_rev_fwd(f, x, v))
print(jnp.dot(jax.hessian(f)(x), v))

# jacobian-matrix and matrix-jacobian products with vmap
g = lambda x: jnp.stack([x[0] * x[1], jnp.exp(x[2]), x.sum()])  # noqa: E731
M = jnp.arange(9.0).reshape(3, 3) / 10
print(vmap(lambda m: jvp(g, (x,), (m,))[1], in_axes=1, out_axes=1)(M))
y, pullback = vjp(g, x)
print(vmap(pullback)(M)[0])
print(jacfwd(g)(x) @ M)
print(jacrev(jacrev(lambda x: jnp.sum(x ** 3)))(x))

# jvp of vjp: transpose the pullback back into a forward map
_, pullback = vjp(jnp.sin, x)
print(jvp(pullback, (v,), (jnp.ones(3),)))

# linearize: evaluate once, reuse the linear map
y, f_jvp = jax.linearize(jnp.sin, x)
print(y, f_jvp(v), f_jvp(2 * v))
print(jax.linear_transpose(f_jvp, x)(jnp.ones(3)))


# custom_jvp for numerical stability, with defjvps
@jax.custom_jvp
def log1pexp(x):
    return jnp.log(1.0 + jnp.exp(x))


log1pexp.defjvps(lambda t, ans, x: (1.0 - 1.0 / (1.0 + jnp.exp(x))) * t)
print(log1pexp(3.0), grad(log1pexp)(100.0), jit(grad(log1pexp))(3.0))
print(vmap(jit(grad(log1pexp)))(jnp.arange(3.0)))
print(grad(grad(log1pexp))(1.0))


@jax.custom_jvp
def safe_norm(x):
    return jnp.sqrt(jnp.sum(x ** 2))


@safe_norm.defjvp
def safe_norm_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    ans = safe_norm(x)
    return ans, jnp.where(ans == 0, 0.0, jnp.dot(x, t) / jnp.where(ans == 0, 1.0, ans))


print(grad(safe_norm)(jnp.zeros(3)), grad(safe_norm)(jnp.array([3.0, 4.0])))


# custom_vjp: gradient clipping
@jax.custom_vjp
def clip_gradient(lo, hi, x):
    return x


def clip_gradient_fwd(lo, hi, x):
    return x, (lo, hi)


def clip_gradient_bwd(res, g):
    lo, hi = res
    return (None, None, jnp.clip(g, lo, hi))


clip_gradient.defvjp(clip_gradient_fwd, clip_gradient_bwd)
clipped_sin = lambda x: clip_gradient(-0.75, 0.75, jnp.sin(x))  # noqa: E731
t = jnp.linspace(0.0, 10.0, 6)
print(vmap(grad(jnp.sin))(t))
print(vmap(grad(clipped_sin))(t))


@partial(jax.custom_vjp, nondiff_argnums=(0,))
def scaled_identity(scale, x):
    return x


scaled_identity.defvjp(lambda s, x: (x, None), lambda s, _, g: (s * g,))
print(grad(lambda x: jnp.sum(scaled_identity(3.0, x) ** 2))(jnp.array([1.0, 2.0])))


# stop_gradient: TD(0) with a linear value function
value_fn = lambda theta, state: jnp.dot(theta, state)  # noqa: E731
theta = jnp.array([0.1, -0.2, 0.3])
s_tm1 = jnp.array([1.0, 2.0, -1.0])
s_t = jnp.array([1.0, 1.0, 0.0])
r_t = jnp.array(1.0)


def td_loss(theta, s_tm1, r_t, s_t):
    v_tm1 = value_fn(theta, s_tm1)
    target = r_t + value_fn(theta, s_t)
    return -0.5 * ((jax.lax.stop_gradient(target) - v_tm1) ** 2)


print(grad(td_loss)(theta, s_tm1, r_t, s_t))


# straight-through estimator
def round_ste(x):
    zero = x - jax.lax.stop_gradient(x)
    return zero + jax.lax.stop_gradient(jnp.round(x))


print(round_ste(jnp.array([0.2, 1.7])), grad(lambda x: round_ste(x).sum())(jnp.array([0.2, 1.7])))


# per-example gradients
def predict(w, x):
    return jnp.tanh(jnp.dot(x, w))


def example_loss(w, x, y):
    return (predict(w, x) - y) ** 2


w = jnp.array([0.5, -0.3])
batch_x = jnp.array([[1.0, 2.0], [0.5, -1.0], [2.0, 0.1], [-1.0, -1.0]])
batch_y = jnp.array([0.1, -0.2, 0.5, 0.0])
per_example = jit(vmap(grad(example_loss), in_axes=(None, 0, 0)))(w, batch_x, batch_y)
print(per_example)
print(per_example.mean(0), grad(lambda w: vmap(example_loss, (None, 0, 0))(w, batch_x,
                                                                           batch_y).mean())(w))

# complex: holomorphic grad and grad of a real function of a complex input
print(grad(lambda z: z ** 2 + 3 * z, holomorphic=True)(1.0 + 2.0j))
print(grad(lambda z: jnp.abs(z) ** 2)(3.0 + 4.0j))
print(jax.jacrev(lambda z: jnp.sin(z), holomorphic=True)(jnp.array([0.5 + 0.5j])))
