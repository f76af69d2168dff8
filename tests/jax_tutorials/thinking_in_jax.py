"""JAX's "Quickstart: How to think in JAX" notebook, cell by cell (rewritten, same operations;
plots and ``%timeit`` left out, a cell's displayed value printed with ``repr``, the errors it
shows caught and printed by type): array types and immutability, ``.at[].set``, devices and
sharding, jit of a normalisation, the boolean-mask error under jit, tracers printed inside
jit, a printed jaxpr, Python control flow on tracers and static_argnums, grad/jit
compositions, jacobian and a Hessian, vmap against manual batching, and keys."""

from functools import partial

import numpy as np
import jax
import jax.numpy as jnp
from jax import grad, jacfwd, jacobian, jacrev, jit, make_jaxpr, random, vmap

x_jnp = jnp.linspace(0, 10, 1000)
y_jnp = 2 * jnp.sin(x_jnp) * jnp.cos(x_jnp)
print(y_jnp[::250])

x_np = np.linspace(0, 10, 1000)
x_jnp = jnp.linspace(0, 10, 1000)
print(type(x_np).__name__, isinstance(x_jnp, jax.Array))

x = np.arange(10)
x[0] = 10
print(x)

x = jnp.arange(10)
try:
    x[0] = 10
except TypeError as e:  # the message names the library's arrays, then the fix
    print("TypeError:", "immutable" in str(e), "x = x.at[idx].set(" in str(e))

y = x.at[0].set(10)
print(x)
print(y)

x = jnp.arange(5)
print(isinstance(x, jax.Array))
print(len(x.devices()), type(x.sharding).__name__)


def norm(X):
    X = X - X.mean(0)
    return X / X.std(0)


norm_compiled = jit(norm)
np.random.seed(1701)
X = jnp.array(np.random.rand(10000, 10))
print(np.allclose(norm(X), norm_compiled(X), atol=1E-6))
print(norm_compiled(X)[:2])


def get_negatives(x):
    return x[x < 0]


x = jnp.array(np.random.randn(10))
print(repr(get_negatives(x)))
try:
    jit(get_negatives)(x)
except jax.errors.NonConcreteBooleanIndexError as e:
    print(type(e).__name__, isinstance(e, IndexError))


@jit
def f(x, y):
    print("Running f():")
    print(f"  x = {x}")
    print(f"  y = {y}")
    result = jnp.dot(x + 1, y + 1)
    print(f"  result = {result}")
    return result


x = np.random.randn(3, 4)
y = np.random.randn(4)
print(repr(f(x, y)))
x2 = np.random.randn(3, 4)
y2 = np.random.randn(4)
print(repr(f(x2, y2)))


def f(x, y):  # noqa: F811
    return jnp.dot(x + 1, y + 1)


print(make_jaxpr(f)(x, y))


@jit
def f(x, neg):  # noqa: F811
    return -x if neg else x


try:
    f(1, True)
except jax.errors.TracerBoolConversionError as e:
    print(type(e).__name__, isinstance(e, jax.errors.ConcretizationTypeError), isinstance(e, TypeError))


@partial(jit, static_argnums=(1,))
def f(x, neg):  # noqa: F811
    return -x if neg else x


print(repr(f(1, True)))
print(repr(f(1, False)))


def sum_logistic(x):
    return jnp.sum(1.0 / (1.0 + jnp.exp(-x)))


x_small = jnp.arange(3.)
derivative_fn = grad(sum_logistic)
print(derivative_fn(x_small))


def first_finite_differences(f, x, eps=1E-3):
    return jnp.array([(f(x + eps * v) - f(x - eps * v)) / (2 * eps) for v in jnp.eye(len(x))])


print(jnp.round(first_finite_differences(sum_logistic, x_small), 3))
print(grad(jit(grad(jit(grad(sum_logistic)))))(1.0))
print(jacobian(jnp.exp)(x_small))


def hessian(fun):
    return jit(jacfwd(jacrev(fun)))


print(hessian(sum_logistic)(x_small))

key = random.key(1701)
key1, key2 = random.split(key)
mat = random.normal(key1, (150, 100))
batched_x = random.normal(key2, (10, 100))


def apply_matrix(x):
    return jnp.dot(mat, x)


def naively_batched_apply_matrix(v_batched):
    return jnp.stack([apply_matrix(v) for v in v_batched])


@jit
def batched_apply_matrix(batched_x):
    return jnp.dot(batched_x, mat.T)


np.testing.assert_allclose(naively_batched_apply_matrix(batched_x),
                           batched_apply_matrix(batched_x), atol=1E-4, rtol=1E-4)


@jit
def vmap_batched_apply_matrix(batched_x):
    return vmap(apply_matrix)(batched_x)


np.testing.assert_allclose(naively_batched_apply_matrix(batched_x),
                           vmap_batched_apply_matrix(batched_x), atol=1E-4, rtol=1E-4)
print(vmap_batched_apply_matrix(batched_x)[:2, :4])

key = random.key(43)
print(key)
print(random.normal(key))
print(random.normal(key))
for i in range(3):
    new_key, subkey = random.split(key)
    del key
    val = random.normal(subkey)
    del subkey
    print(f"draw {i}: {val}")
    key = new_key
