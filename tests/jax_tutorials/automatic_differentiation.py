"""JAX's "Automatic differentiation" tutorial, cell by cell (rewritten, same operations):
grad of tanh and its higher derivatives, a cubic's derivatives at 1, logistic-regression
gradients with argnums, a dict of parameters, value_and_grad, finite-difference checks and
check_grads."""

import jax
import jax.numpy as jnp
from jax import grad

# 1. grad, and grad of grad
dtanh = grad(jnp.tanh)
print(dtanh(2.0))
print(grad(grad(jnp.tanh))(2.0))
print(grad(grad(grad(jnp.tanh)))(2.0))

cubic = lambda x: x**3 + 2 * x**2 - 3 * x + 1  # noqa: E731
d1 = jax.grad(cubic)
d2 = jax.grad(d1)
d3 = jax.grad(d2)
d4 = jax.grad(d3)
print(d1(1.))
print(d2(1.))
print(d3(1.))
print(d4(1.))

# 2. linear logistic regression
key = jax.random.key(0)


def sigmoid(x):
    return 0.5 * (jnp.tanh(x / 2) + 1)


def predict(W, b, inputs):
    return sigmoid(jnp.dot(inputs, W) + b)


inputs = jnp.array([[0.52, 1.12, 0.77],
                    [0.88, -1.08, 0.15],
                    [0.52, 0.06, -1.30],
                    [0.74, -2.49, 1.39]])
targets = jnp.array([True, True, False, True])


def loss(W, b):
    preds = predict(W, b, inputs)
    label_probs = preds * targets + (1 - preds) * (1 - targets)
    return -jnp.sum(jnp.log(label_probs))


key, W_key, b_key = jax.random.split(key, 3)
W = jax.random.normal(W_key, (3,))
b = jax.random.normal(b_key, ())

W_grad = grad(loss, argnums=0)(W, b)
print(f'{W_grad=}')
W_grad = grad(loss)(W, b)
print(f'{W_grad=}')
b_grad = grad(loss, 1)(W, b)
print(f'{b_grad=}')
W_grad, b_grad = grad(loss, (0, 1))(W, b)
print(f'{W_grad=}')
print(f'{b_grad=}')


# 3. nested containers
def loss2(params_dict):
    preds = predict(params_dict['W'], params_dict['b'], inputs)
    label_probs = preds * targets + (1 - preds) * (1 - targets)
    return -jnp.sum(jnp.log(label_probs))


print(grad(loss2)({'W': W, 'b': b}))

# 4. value_and_grad
loss_value, Wb_grad = jax.value_and_grad(loss, (0, 1))(W, b)
print('loss value', loss_value)
print('loss value', loss(W, b))

# 5. numerical differences
eps = 1e-4
b_grad_numerical = (loss(W, b + eps / 2.) - loss(W, b - eps / 2.)) / eps
print('b_grad_numerical', round(float(b_grad_numerical), 2))
print('b_grad_autodiff', grad(loss, 1)(W, b))

key, subkey = jax.random.split(key)
vec = jax.random.normal(subkey, W.shape)
unitvec = vec / jnp.sqrt(jnp.vdot(vec, vec))
W_grad_numerical = (loss(W + eps / 2. * unitvec, b) - loss(W - eps / 2. * unitvec, b)) / eps
print('W_dirderiv_numerical', round(float(W_grad_numerical), 2))
print('W_dirderiv_autodiff', jnp.vdot(grad(loss)(W, b), unitvec))

from jax.test_util import check_grads  # noqa: E402

print(check_grads(loss, (W, b), order=2))
