"""JAX's "Distributed arrays and automatic parallelization" and "Manual parallelism with
shard_map" pages on one CPU device: jax.make_mesh and Mesh over the device array,
NamedSharding with PartitionSpec, device_put with a sharding, the sharding of jit outputs,
with_sharding_constraint inside jit, jit with in_shardings/out_shardings, shard_map with
psum and all_gather, SingleDeviceSharding, and addressable_shards."""

from functools import partial

import numpy as np

import jax
import jax.numpy as jnp
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

print("devices", len(jax.devices()), jax.device_count(), jax.local_device_count())
print("default axis types", jax.make_mesh((1,), ("i",)).axis_types)
Auto = jax.sharding.AxisType.Auto
mesh = jax.make_mesh((1, 1), ("x", "y"), axis_types=(Auto, Auto))
print("axis types", mesh.axis_types)
print("mesh shape", dict(mesh.shape), mesh.axis_names, mesh.devices.shape, mesh.size)
mesh2 = Mesh(np.array(jax.devices()).reshape(1, 1), ("a", "b"))
print("mesh2", mesh2.axis_names, mesh2.shape["a"])

x = jnp.arange(32.0).reshape(8, 4)
sharding = NamedSharding(mesh, P("x", "y"))
print("spec", sharding.spec, sharding.spec == P("x", "y"), len(sharding.spec))
xs = jax.device_put(x, sharding)
print("sharded", type(xs.sharding).__name__, xs.sharding.spec, xs.shape, float(xs.sum()))
print("is_fully_replicated", xs.sharding.is_fully_replicated, xs.sharding.num_devices)
print("shard shape", xs.sharding.shard_shape(xs.shape))
for shard in xs.addressable_shards:
    print("shard", shard.index, shard.data.shape, float(shard.data.sum()))
print("devices of x", len(xs.devices()))

replicated = NamedSharding(mesh, P())
print("replicated", replicated.spec, replicated.is_fully_replicated)
print("P with None", P("x", None), P(None, "y"), P(("x", "y")))


@jax.jit
def f(a):
    b = jnp.sin(a) * 2.0
    b = jax.lax.with_sharding_constraint(b, NamedSharding(mesh, P("x", None)))
    return b.sum(axis=1)


out = f(xs)
print("jit out", out.shape, np.round(np.asarray(out), 5))
print("out sharding type", type(out.sharding).__name__ in ("NamedSharding", "SingleDeviceSharding"))

g = jax.jit(lambda a, b: a @ b.T, in_shardings=(sharding, replicated), out_shardings=replicated)
y = g(xs, x)
print("in/out shardings", y.shape, float(y.trace()), y.sharding.spec)


@partial(jax.shard_map, mesh=mesh, in_specs=(P("x", "y"), P("y")), out_specs=P("x"))
def matvec(a_block, v_block):
    partial_sum = a_block @ v_block
    return jax.lax.psum(partial_sum, "y")


v = jnp.array([0.5, -1.0, 0.25, 2.0])
mv = matvec(xs, v)
print("shard_map matvec", np.round(np.asarray(mv), 5), np.allclose(mv, x @ v))


@partial(jax.shard_map, mesh=mesh, in_specs=P("x"), out_specs=P())
def global_norm(block):
    return jnp.sqrt(jax.lax.psum(jnp.sum(block ** 2), "x"))


@partial(jax.shard_map, mesh=mesh, in_specs=P("x"), out_specs=P("x"))
def gathered(block):
    full = jax.lax.all_gather(block, "x", tiled=True)
    return full - jnp.mean(full, axis=0)


print("psum norm", np.round(np.asarray(global_norm(x)), 5))
print("all_gather centred", np.round(np.asarray(gathered(x))[:2], 5))
print("axis_index", jax.shard_map(lambda b: b + jax.lax.axis_index("x"), mesh=mesh, in_specs=P("x"),
                                  out_specs=P("x"))(jnp.zeros(3)))

single = jax.sharding.SingleDeviceSharding(jax.devices()[0])
z = jax.device_put(jnp.ones(3), single)
print("single", type(z.sharding).__name__, z.sharding.device_set == {jax.devices()[0]})
print("grad through sharded", np.round(np.asarray(jax.grad(lambda a: f(a).sum())(xs))[0], 5))
print("vmap of jitted", np.round(np.asarray(jax.vmap(f)(jnp.stack([xs, 2 * xs]))).sum(1), 5))
