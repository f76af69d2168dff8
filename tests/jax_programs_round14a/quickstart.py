"""JAX's "Quickstart" page end to end: selu under jit, the gradient of a logistic-regression
loss (grad, argnums, has_aux, value_and_grad), jacfwd/jacrev/hessian of a vector function,
vmap of a matrix-vector product against the Python loop and the manual batching, and
the printed reprs of what it computes."""

import jax
import jax.numpy as jnp
from jax import grad, jit, vmap, random

key = random.key(1701)
x = jnp.arange(5.0)


def selu(x, alpha=1.67, lmbda=1.05):
    return lmbda * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)


print(selu(x))
selu_jit = jit(selu)
print(selu_jit(x), selu_jit(-x))
print(jnp.allclose(selu(-x), selu_jit(-x)))
big = random.normal(key, (1000,))
print(big.shape, big.dtype, float(jnp.round(selu_jit(big).mean(), 4)))


def sum_logistic(x):
    return jnp.sum(1.0 / (1.0 + jnp.exp(-x)))


x_small = jnp.arange(3.0)
derivative_fn = grad(sum_logistic)
print(derivative_fn(x_small))


def first_finite_differences(f, x, eps=1e-3):
    return jnp.array([(f(x + eps * v) - f(x - eps * v)) / (2 * eps) for v in jnp.eye(len(x))])


print(jnp.round(first_finite_differences(sum_logistic, x_small), 3))
print(grad(jit(grad(jit(grad(sum_logistic)))))(1.0))


def hessian(fun):
    return jit(jax.jacfwd(jax.jacrev(fun)))


print(hessian(sum_logistic)(x_small))
print(jax.hessian(sum_logistic)(x_small).shape)


def loss(w, b, xs, ys):
    p = jax.nn.sigmoid(xs @ w + b)
    return -jnp.mean(ys * jnp.log(p) + (1 - ys) * jnp.log1p(-p))


k1, k2 = random.split(key)
xs = random.normal(k1, (8, 3))
ys = (xs[:, 0] > 0).astype(jnp.float32)
w, b = jnp.array([0.5, -0.2, 0.1]), 0.3
print(grad(loss)(w, b, xs, ys))
print(grad(loss, argnums=(0, 1))(w, b, xs, ys))
val, (gw, gb) = jax.value_and_grad(loss, argnums=(0, 1))(w, b, xs, ys)
print(val, gw, gb)


def loss_aux(w, b, xs, ys):
    value = loss(w, b, xs, ys)
    return value, {"acc": jnp.mean((xs @ w + b > 0) == (ys > 0.5))}


g, aux = grad(loss_aux, has_aux=True)(w, b, xs, ys)
print(g, aux)
for _step in range(20):
    gw, gb = grad(loss, argnums=(0, 1))(w, b, xs, ys)
    w, b = w - 0.5 * gw, b - 0.5 * gb
print(w, b, loss(w, b, xs, ys))

mat = random.normal(key, (150, 100))
batched_x = random.normal(k2, (10, 100))


def apply_matrix(x):
    return jnp.dot(mat, x)


def naively_batched_apply_matrix(v_batched):
    return jnp.stack([apply_matrix(v) for v in v_batched])


@jit
def batched_apply_matrix(batched_x):
    return jnp.dot(batched_x, mat.T)


@jit
def vmap_batched_apply_matrix(batched_x):
    return vmap(apply_matrix)(batched_x)


a = naively_batched_apply_matrix(batched_x)
b2 = batched_apply_matrix(batched_x)
c = vmap_batched_apply_matrix(batched_x)
print(a.shape, jnp.allclose(a, b2, atol=1e-4, rtol=1e-4), jnp.allclose(a, c, atol=1e-4, rtol=1e-4))
print(jnp.round(c[0, :4], 3))
print(vmap(apply_matrix, in_axes=1, out_axes=1)(batched_x.T).shape)
f = jax.jacfwd(lambda v: jnp.tanh(v) * v[::-1])
print(f(jnp.array([0.1, 0.2, 0.3])))
print(jax.jacrev(lambda v: {"s": jnp.sum(v**2), "p": jnp.prod(v)})(jnp.array([1.0, 2.0, 3.0])))
