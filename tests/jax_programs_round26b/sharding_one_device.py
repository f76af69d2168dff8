"""Sharded data parallelism as JAX's sharding tutorials write it, run on one device: a Mesh and
jax.make_mesh, NamedSharding/PartitionSpec/SingleDeviceSharding, device_put onto them, a
training step with in/out shardings and lax.with_sharding_constraint, the shards an array
reports, and shard_map (jax.shard_map and jax.experimental.shard_map) with psum, pmean,
all_gather and axis_index over size-1 mesh axes -- their results the whole-array ones."""

import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental.shard_map import shard_map as experimental_shard_map
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P, SingleDeviceSharding

devices = np.array(jax.devices()[:1]).reshape(1, 1)
mesh = Mesh(devices, ("data", "model"))
print("mesh:", mesh.shape, mesh.axis_names, mesh.size, mesh.devices.shape)
print("repr:", repr(mesh))
print("str:", mesh)

data_sharding = NamedSharding(mesh, P("data", None))
weight_sharding = NamedSharding(mesh, P(None, "model"))
replicated = NamedSharding(mesh, P())
print(data_sharding)
print("spec:", data_sharding.spec, "replicated:", data_sharding.is_fully_replicated,
      "devices:", data_sharding.num_devices)
print("shard shape:", data_sharding.shard_shape((8, 4)))
print("indices:", list(data_sharding.devices_indices_map((8, 4)).values()))

x = jnp.linspace(-1, 1, 32).reshape(8, 4)
y = jnp.sin(jnp.arange(8.0)).reshape(8, 1)
w = jnp.full((4, 1), 0.25)
xs = jax.device_put(x, data_sharding)
ws = jax.device_put(w, weight_sharding)
print("placed:", xs.sharding == data_sharding, xs.sharding.spec, type(xs.sharding).__name__)
shards = xs.addressable_shards
print("shards:", len(shards), shards[0].data.shape, shards[0].index, shards[0].device == jax.devices()[0])
print("typeof:", jax.typeof(xs))


@functools.partial(jax.jit, in_shardings=(weight_sharding, data_sharding, data_sharding),
                   out_shardings=(weight_sharding, replicated))
def train_step(w, x, y):
    def loss(w):
        pred = x @ w
        pred = jax.lax.with_sharding_constraint(pred, NamedSharding(mesh, P("data", None)))
        return jnp.mean((pred - y) ** 2)
    value, grad = jax.value_and_grad(loss)(w)
    return w - 0.5 * grad, value


for step in range(4):
    ws, value = train_step(ws, xs, y)
    print("step", step, "loss", value)
print("w:", ws.ravel(), ws.sharding.spec, value.sharding.spec)

single = SingleDeviceSharding(jax.devices()[0])
z = jax.device_put(x, single)
print("single:", z.sharding == single, single.device_set == {jax.devices()[0]}, single.is_fully_replicated)
print("jit out_shardings:", jax.jit(lambda a: a * 2, out_shardings=replicated)(x).sharding.spec)

# shard_map: per-block code with collectives over the mesh axes
@functools.partial(experimental_shard_map, mesh=mesh, in_specs=(P("data", "model"),), out_specs=P("data"))
def row_sums(block):
    return jax.lax.psum(block.sum(axis=1), "model")


print("row sums:", row_sums(x))
batch_mesh = jax.make_mesh((1,), ("batch",), axis_types=(jax.sharding.AxisType.Auto,))
print("make_mesh:", batch_mesh.shape, batch_mesh.axis_names, batch_mesh.axis_types)


def normalize(block):
    total = jax.lax.psum(jnp.sum(block ** 2), "batch")
    mean = jax.lax.pmean(jnp.mean(block), "batch")
    return (block - mean) / jnp.sqrt(total) + jax.lax.axis_index("batch")


norm = jax.shard_map(normalize, mesh=batch_mesh, in_specs=P("batch"), out_specs=P("batch"))
v = jnp.arange(1.0, 7.0)
print("normalize:", norm(v))
print("jit:", jax.jit(norm)(v))
print("grad:", jax.grad(lambda u: norm(u)[2])(v))
gather = jax.shard_map(lambda b: jax.lax.all_gather(b, "batch", tiled=True), mesh=batch_mesh,
                       in_specs=P("batch"), out_specs=P("batch"))
print("all_gather:", gather(v))
stacked = jax.shard_map(lambda b: jax.lax.all_gather(b, "batch"), mesh=batch_mesh,
                        in_specs=P("batch"), out_specs=P("batch"))(v)
print("all_gather (stacked):", stacked.shape)
with jax.sharding.use_abstract_mesh(batch_mesh.abstract_mesh):
    print("abstract mesh:", jax.sharding.get_abstract_mesh().axis_names)
print("specs:", P("a", ("b", "c"), None), P(), P("data")[0])
