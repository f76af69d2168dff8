"""Advanced autodiff beyond round 8: jacfwd of jacrev and hessians of pytrees, has_aux in
grad/jacfwd/jacrev/vjp, argnums tuples, allow_int, complex differentiation (holomorphic
jacobians, grads of real functions of complex inputs, jvp with complex tangents),
checkpointing, reduce_precision-free numerics (stop_gradient in a critic update), and
custom linearization via jax.linearize on pytrees."""

import jax
import jax.numpy as jnp
from jax import grad, jacfwd, jacrev, jvp, vjp


def f(p):
    return jnp.sum(jnp.sin(p["w"]) * p["b"] ** 2) + p["w"][0] * p["b"][1]


p = {"w": jnp.array([0.3, -0.7]), "b": jnp.array([1.5, 2.0])}
print(grad(f)(p))
print(jax.hessian(f)(p))
print(jacfwd(jacrev(f))(p)["w"]["b"], jacrev(jacfwd(f))(p)["b"]["w"])


def g(x, y):
    return jnp.stack([x * y, jnp.sin(x) + y ** 2]), {"x": x, "y2": y ** 2}


print(jacfwd(g, argnums=(0, 1), has_aux=True)(jnp.array(1.5), 2.0))
print(jacrev(g, has_aux=True)(jnp.array(1.5), 2.0))
out, pullback, aux = vjp(g, 1.5, 2.0, has_aux=True)
print(out, [float(c) for c in pullback(jnp.array([1.0, -1.0]))], aux["y2"])
print(jax.value_and_grad(lambda x: (x ** 2, {"aux": x + 1}), has_aux=True)(3.0))
print(grad(lambda x, n: x * n, allow_int=True, argnums=(0, 1))(2.0, 3)[0])
print(jax.jvp(lambda a, b: a * b, (2.0, 3.0), (1.0, 0.5)))
print(jax.grad(lambda x: x[0] * x[1], argnums=0)((2.0, 5.0)))

# complex differentiation
z = 1.0 + 2.0j
print(grad(lambda z: z ** 2 + jnp.sin(z), holomorphic=True)(z))
print(jacfwd(lambda z: jnp.exp(z) * z, holomorphic=True)(jnp.array([0.5 + 0.5j, 1.0j])))
print(jacrev(lambda z: jnp.log(z), holomorphic=True)(jnp.array([1.0 + 1.0j, 2.0 + 0j])))
print(grad(lambda z: jnp.abs(z) ** 2)(z), grad(lambda z: jnp.real(z * jnp.conj(z)))(z))
print(grad(lambda x: jnp.abs(jnp.exp(1j * x) + 0.5))(0.7))
print(jvp(lambda z: z ** 3, (z,), (1.0 + 0j,)), vjp(lambda z: z ** 3, z)[1](1.0 + 0j))
print(grad(lambda w: jnp.sum(jnp.abs(jnp.fft.fft(w)) ** 2))(jnp.array([1.0, 2.0, 0.5, -1.0])))
print(grad(lambda t: jnp.real(jnp.sum(jnp.exp(1j * t * jnp.arange(3.0)))))(0.4))

# checkpoint gives the same derivatives
h = lambda x: jnp.sum(jnp.tanh(jnp.sin(x) * jnp.cos(x)) ** 2)  # noqa: E731
x = jnp.linspace(-1.0, 1.0, 5)
print(grad(h)(x), grad(jax.checkpoint(h))(x))
print(jax.hessian(jax.checkpoint(h))(x[:2]))
nothing = jax.checkpoint_policies.nothing_saveable
print(grad(lambda x: jax.checkpoint(lambda y: jnp.sin(y) ** 2, policy=nothing)(x))(0.5))

# linearize on pytrees and linear_transpose
y, f_jvp = jax.linearize(f, p)
print(y, f_jvp({"w": jnp.array([1.0, 0.0]), "b": jnp.array([0.0, 1.0])}))
lin = lambda v: {"a": 2.0 * v[0], "b": v[0] - v[1]}  # noqa: E731
print(jax.linear_transpose(lin, jnp.zeros(2))({"a": 1.0, "b": 3.0}))

# hvp = jvp of grad, against the full hessian
def rosen(x):
    return jnp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)


x0 = jnp.array([-1.2, 1.0, 0.8])
vec = jnp.array([1.0, -0.5, 0.25])
print(jvp(grad(rosen), (x0,), (vec,))[1], jax.hessian(rosen)(x0) @ vec)
print(jax.vmap(lambda v: jvp(grad(rosen), (x0,), (v,))[1])(jnp.eye(3)))

# stop_gradient in an actor-critic style loss
def critic_loss(theta, s, r, s_next, gamma=0.9):
    v = jnp.dot(theta, s)
    target = r + gamma * jax.lax.stop_gradient(jnp.dot(theta, s_next))
    return (target - v) ** 2


print(grad(critic_loss)(jnp.array([0.1, 0.2]), jnp.array([1.0, 0.0]), 1.0, jnp.array([0.0, 1.0])))
print(jax.grad(lambda x: jax.lax.stop_gradient(x) * x)(3.0))
print(jax.grad(lambda x: jnp.where(x > 0, x, 0.0) ** 2)(-1.0))
