"""Rigid-body rotations with `jax.scipy.spatial.transform`: `Rotation` from Euler angles,
quaternions, rotation vectors and matrices, composition and inverse, applying to points,
magnitudes, `Slerp` interpolation, and a pose fit by gradient descent on a rotation vector."""

import jax
import jax.numpy as jnp
from jax.scipy.spatial.transform import Rotation, Slerp

r = Rotation.from_euler("xyz", jnp.array([30.0, 45.0, 60.0]), degrees=True)
print(r.as_quat())
print(r.as_matrix())
print(r.as_rotvec(), r.magnitude())
print(r.as_euler("zyx", degrees=True), r.as_euler("xyz"))
print(r.as_mrp())
q = Rotation.from_quat(jnp.array([0.1, -0.3, 0.5, 0.8]))
print(q.as_quat(), q.as_rotvec())
v = jnp.array([[1.0, 0.0, 0.0], [0.0, 2.0, -1.0], [0.5, 0.5, 0.5]])
print(r.apply(v))
print(r.apply(v, inverse=True))
print((r * q).as_quat(), (r * r.inv()).as_matrix().round(5))
print(Rotation.from_rotvec(jnp.array([0.0, 0.0, jnp.pi / 2])).apply(jnp.array([1.0, 0.0, 0.0])))
print(Rotation.from_matrix(r.as_matrix()).as_quat())
print(Rotation.identity().as_quat(), Rotation.from_mrp(jnp.array([0.1, 0.2, 0.3])).as_quat())

# a stack of rotations
many = Rotation.from_euler("z", jnp.array([[0.0], [30.0], [90.0], [180.0]]), degrees=True)
print(many.as_quat().shape, many.magnitude())
print(many.apply(jnp.array([1.0, 0.0, 0.0])))
print(many.mean().as_quat())

# Slerp between key frames
times = jnp.array([0.0, 1.0, 2.0])
keys = Rotation.from_euler(
    "xyz", jnp.array([[0.0, 0.0, 0.0], [90.0, 0.0, 0.0], [90.0, 90.0, 0.0]]), degrees=True
)
slerp = Slerp.init(times, keys)
print(slerp(jnp.array([0.0, 0.25, 0.5, 1.0, 1.5, 2.0])).as_quat())

# recover a rotation from point correspondences by gradient descent on a rotation vector
true = Rotation.from_rotvec(jnp.array([0.3, -0.2, 0.5]))
pts = jnp.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 1.0, 1.0]])
target = true.apply(pts)


def loss(rv):
    return jnp.sum((Rotation.from_rotvec(rv).apply(pts) - target) ** 2)


rv = jnp.full(3, 0.1)
step = jax.jit(lambda w: w - 0.1 * jax.grad(loss)(w))
for it in range(12):
    rv = step(rv)
    if it % 4 == 0:
        print(it, loss(rv))
print(rv, loss(rv))
print(jax.jacfwd(lambda w: Rotation.from_rotvec(w).as_quat())(jnp.array([0.3, -0.2, 0.5])))
