"""JAX's "Introduction to sharded computation" tutorial, cell by cell on one CPU device
(rewritten, same operations; the tutorial's 2x4 and 8-device meshes become 1x1 and 1-device
meshes, the only ones one device allows): shardings of a single-device array, NamedSharding
and device_put, visualize_array_sharding, jit following the data's sharding, a reduction,
with_sharding_constraint, shard_map with device-local shapes, per-shard sums and psum, and
the three ways of sharding a neural-network layer."""

import contextlib
import io
from functools import partial

import numpy as np
import jax
import jax.numpy as jnp
from jax.experimental import mesh_utils

print(len(jax.devices()), jax.devices()[0].platform)


def visualize(a):
    """jax.debug.visualize_array_sharding draws with the ``rich`` package (JAX raises a
    ValueError without it); the drawing is not compared."""
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            jax.debug.visualize_array_sharding(a)
        except ValueError:
            pass


arr = jnp.arange(32.0).reshape(4, 8)
print(len(arr.devices()), type(arr.sharding).__name__, arr.sharding.is_fully_replicated)
visualize(arr)

P = jax.sharding.PartitionSpec
devices = mesh_utils.create_device_mesh((1, 1))
mesh = jax.sharding.Mesh(devices, ('x', 'y'))
sharding = jax.sharding.NamedSharding(mesh, P('x', 'y'))
print(sharding.spec, sharding.mesh.shape, sharding.mesh.axis_names)

arr_sharded = jax.device_put(arr, sharding)
print(arr_sharded)
visualize(arr_sharded)
print(arr_sharded.sharding == sharding, arr_sharded.sharding.spec)


@jax.jit
def f_elementwise(x):
    return 2 * jnp.sin(x) + 1


result = f_elementwise(arr_sharded)
# JAX: the result keeps the NamedSharding ("shardings match: True"); compared here: the devices
print("shardings match:", result.sharding.device_set == arr_sharded.sharding.device_set)
print(result[0])


@jax.jit
def f_contract(x):
    return x.sum(axis=0)


result = f_contract(arr_sharded)
visualize(result)
print(result)


try:  # the tutorial passes an int; JAX 0.10's create_device_mesh takes a shape
    mesh_utils.create_device_mesh(1)
except TypeError as e:
    print("TypeError:", "not iterable" in str(e))


@jax.jit
def f_contract_2(x):
    out = x.sum(axis=0)
    devices = mesh_utils.create_device_mesh((1,))
    mesh = jax.sharding.Mesh(devices, 'x')
    sharding = jax.sharding.NamedSharding(mesh, P('x'))
    return jax.lax.with_sharding_constraint(out, sharding)


result = f_contract_2(arr_sharded)
visualize(result)
print(result)
print(len(result.sharding.device_set))

shard_map = jax.shard_map
mesh = jax.sharding.Mesh(jax.devices(), 'x')
f_elementwise_sharded = shard_map(f_elementwise, mesh=mesh, in_specs=P('x'), out_specs=P('x'))
arr = jnp.arange(32)
print(repr(f_elementwise_sharded(arr)))

x = jnp.arange(32)
print(f"global shape: {x.shape=}")


def f(x):
    print(f"device local shape: {x.shape=}")
    return x * 2


y = shard_map(f, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)
print(repr(y))


def f(x):  # noqa: F811
    return jnp.sum(x, keepdims=True)


print(repr(shard_map(f, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)))


def f(x):  # noqa: F811
    sum_in_shard = x.sum()
    return jax.lax.psum(sum_in_shard, 'x')


print(repr(shard_map(f, mesh=mesh, in_specs=P('x'), out_specs=P())(x)))


@jax.jit
def layer(x, weights, bias):
    return jax.nn.sigmoid(x @ weights + bias)


rng = np.random.default_rng(0)
x = rng.normal(size=(32,))
weights = rng.normal(size=(32, 4))
bias = rng.normal(size=(4,))
print(repr(layer(x, weights, bias)))

sharding = jax.sharding.NamedSharding(mesh, P('x'))
x_sharded = jax.device_put(x, sharding)
weights_sharded = jax.device_put(weights, sharding)
print(repr(layer(x_sharded, weights_sharded, bias)))


@jax.jit
def layer_auto(x, weights, bias):
    x = jax.lax.with_sharding_constraint(x, sharding)
    weights = jax.lax.with_sharding_constraint(weights, sharding)
    return layer(x, weights, bias)


print(repr(layer_auto(x, weights, bias)))


@jax.jit
@partial(shard_map, mesh=mesh, in_specs=(P('x'), P('x', None), P(None)), out_specs=P(None))
def layer_sharded(x, weights, bias):
    return jax.nn.sigmoid(jax.lax.psum(x @ weights, 'x') + bias)


print(repr(layer_sharded(x, weights, bias)))
