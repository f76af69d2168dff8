"""JAX's "The Autodiff Cookbook" end to end: grad of a logistic-regression loss in its
arguments, differentiating with respect to nested dicts, value_and_grad, checking against
finite differences, hessian-vector products in the forms the page builds (forward-over-
reverse, reverse-over-forward, reverse-over-reverse, naive), Jacobian-matrix and
matrix-Jacobian products with vmap, jvp/vjp by hand, jacfwd vs jacrev shapes, and the
complex-numbers section (grad of real-valued functions of complex inputs, holomorphic
functions, the jvp/vjp conventions)."""

import jax
import jax.numpy as jnp
from jax import grad, jacfwd, jacrev, jit, jvp, random, vjp, vmap

key = random.key(0)


def sigmoid(x):
    return 0.5 * (jnp.tanh(x / 2) + 1)


def predict(W, b, inputs):
    return sigmoid(jnp.dot(inputs, W) + b)


inputs = jnp.array([[0.52, 1.12, 0.77], [0.88, -1.08, 0.15], [0.52, 0.06, -1.30], [0.74, -2.49, 1.39]])
targets = jnp.array([True, True, False, True])


def loss(W, b):
    preds = predict(W, b, inputs)
    label_probs = preds * targets + (1 - preds) * (1 - targets)
    return -jnp.sum(jnp.log(label_probs))


key, W_key, b_key = random.split(key, 3)
W = random.normal(W_key, (3,))
b = random.normal(b_key, ())
print(grad(loss, argnums=0)(W, b), grad(loss, argnums=1)(W, b))
W_grad, b_grad = grad(loss, (0, 1))(W, b)
print(W_grad, b_grad)


def loss2(params_dict):
    preds = predict(params_dict["W"], params_dict["b"], inputs)
    label_probs = preds * targets + (1 - preds) * (1 - targets)
    return -jnp.sum(jnp.log(label_probs))


print(grad(loss2)({"W": W, "b": b}))
loss_value, Wb_grad = jax.value_and_grad(loss, (0, 1))(W, b)
print("loss value", loss_value, loss_value == loss(W, b))
eps = 1e-4
b_grad_numerical = (loss(W, b + eps / 2.0) - loss(W, b - eps / 2.0)) / eps
print("b_grad_numerical close", jnp.allclose(b_grad_numerical, grad(loss, 1)(W, b), rtol=1e-2))
key, subkey = random.split(key)
vec = random.normal(subkey, W.shape)
unitvec = vec / jnp.sqrt(jnp.vdot(vec, vec))
W_grad_numerical = (loss(W + eps / 2.0 * unitvec, b) - loss(W - eps / 2.0 * unitvec, b)) / eps
print("W_dirderiv close", jnp.allclose(W_grad_numerical, jnp.vdot(grad(loss)(W, b), unitvec), rtol=2e-2))


def hessian(f):
    return jacfwd(jacrev(f))


print(hessian(lambda W: loss(W, b))(W))


def f(x):
    return jnp.sum(jnp.sin(x) * x**2) + jnp.prod(jnp.cos(x))


x = jnp.array([0.3, -1.2, 2.0])
v = jnp.array([1.0, 0.5, -0.25])


def hvp_naive(f, x, v):
    return jnp.dot(jax.hessian(f)(x), v)


def hvp(f, x, v):
    return grad(lambda x: jnp.vdot(grad(f)(x), v))(x)


def hvp_fwd_rev(f, primals, tangents):
    return jvp(grad(f), primals, tangents)[1]


def hvp_rev_fwd(f, primals, tangents):
    g = lambda primals: jvp(f, primals, tangents)[1]
    return grad(g)(primals)


print(hvp_naive(f, x, v), hvp(f, x, v))
print(hvp_fwd_rev(f, (x,), (v,)), hvp_rev_fwd(f, (x,), (v,)))
print(jit(lambda x, v: hvp_fwd_rev(f, (x,), (v,)))(x, v))
Vs = jnp.eye(3)[:2]
print(vmap(lambda v: hvp_fwd_rev(f, (x,), (v,)))(Vs))

f2 = lambda W: predict(W, b, inputs)
y, vjp_fun = vjp(f2, W)
key, subkey = random.split(key)
U = random.normal(subkey, (2, 4))
print(vmap(vjp_fun)(U)[0])
print(vmap(lambda v: jvp(f2, (W,), (v,))[1], in_axes=1, out_axes=1)(jnp.eye(3)[:, :2]))
J = jacfwd(f2)(W)
print(J.shape, jacrev(f2)(W).shape, jnp.allclose(J, jacrev(f2)(W)))
print(jacrev(lambda d: d["a"] * d["b"])({"a": jnp.arange(2.0), "b": jnp.ones(2)}))
_, f_vjp = vjp(lambda a, b: a * jnp.sin(b), 2.0, jnp.array([0.5, 1.0]))
print(f_vjp(jnp.array([1.0, 1.0])))
print(
    jax.linearize(jnp.sin, 1.0)[1](2.0), jax.linear_transpose(lambda x: 3.0 * x, jnp.ones(2))(jnp.arange(2.0))
)


def f_c(z):
    x, y = jnp.real(z), jnp.imag(z)
    return x**2 + y**2


z = 3.0 + 4j
print(grad(f_c)(z))


def g_c(z):
    return jnp.abs(z) ** 2


print(grad(g_c)(z), grad(jnp.abs)(z))
print(grad(lambda z: jnp.sin(z), holomorphic=True)(z), jnp.cos(z))
print(grad(lambda z: z**2 + 2 * z, holomorphic=True)(1.5 - 2j))
print(jvp(jnp.sin, (z,), (1.0 + 0j,)), vjp(jnp.sin, z)[1](1.0 + 0j))
print(jacfwd(lambda z: jnp.exp(z), holomorphic=True)(jnp.array([1j, 1 + 1j])))
print(jacrev(lambda z: z * z.conj(), holomorphic=False)(jnp.array(1.0 + 2j)) if False else "skip")
try:
    grad(lambda z: jnp.sin(z))(z)
except TypeError as e:
    print("TypeError", "holomorphic=True" in str(e))
try:
    grad(lambda x: x**2, holomorphic=True)(1.0)
except TypeError:
    print("TypeError holomorphic real input")
try:
    grad(lambda x: x)(jnp.ones(2))
except TypeError:
    print("TypeError scalar")
try:
    grad(lambda n: n * 2.0)(3)
except TypeError:
    print("TypeError int")
print(grad(lambda n, x: n * x, argnums=1)(3, 2.0), jax.grad(lambda x: x[0] * x[1])(jnp.array([2.0, 5.0])))
A = jnp.array([[5.0, 2.0 + 1j], [2.0 - 1j, 3.0]])
print(grad(lambda x: jnp.real(jnp.conj(x) @ A @ x))(jnp.array([1.0 + 0j, 1j])))
