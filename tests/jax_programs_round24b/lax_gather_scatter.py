"""``jax.lax`` indexing primitives as the lax reference documents them: ``lax.gather`` with
``GatherDimensionNumbers`` (row lookups, patches, batched lookups with ``operand_batching_dims``)
and the ``GatherScatterMode`` modes, ``lax.scatter_add``/``scatter_mul``/``scatter_min``/
``scatter_max``/``scatter_apply`` with ``ScatterDimensionNumbers``, ``index_take``,
``dynamic_update_slice_in_dim``/``dynamic_update_index_in_dim``, ``slice_in_dim``,
multi-operand ``lax.sort`` with ``num_keys``, ``top_k``, and their gradients."""

import jax
import jax.numpy as jnp
from jax import lax

x = jnp.arange(20.0).reshape(5, 4)

# rows 3, 0, 3 of x: each index picks a (1, 4) slice, the row axis collapsed
rows = lax.gather(x, jnp.array([[3], [0], [3]]),
                  lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,),
                                             start_index_map=(0,)),
                  slice_sizes=(1, 4))
print("rows:", rows.shape, rows[:, 0])

# 2x2 patches at (row, col) starts, kept as (2, 2) windows
starts = jnp.array([[0, 0], [3, 2], [1, 1]])
dnums = lax.GatherDimensionNumbers(offset_dims=(1, 2), collapsed_slice_dims=(), start_index_map=(0, 1))
patches = lax.gather(x, starts, dnums, slice_sizes=(2, 2))
print("patches:", patches.shape, patches.sum(axis=(1, 2)))

# out-of-bounds starts: clip (the default for gather) against fill
far = jnp.array([[4, 3], [-1, 0]])
print("clip:", lax.gather(x, far, dnums, (2, 2), mode=lax.GatherScatterMode.CLIP).sum(axis=(1, 2)))
print("fill:", lax.gather(x, far, dnums, (2, 2), mode="fill", fill_value=-1.0).sum(axis=(1, 2)))
print("promise_in_bounds:", lax.gather(x, starts, dnums, (2, 2), mode="promise_in_bounds").sum())

# batched gather: for batch b take element idx[b] of x[b]
idx = jnp.array([[1], [3], [0], [2], [1]])
bdn = lax.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(1,), start_index_map=(1,),
                                 operand_batching_dims=(0,), start_indices_batching_dims=(0,))
print("batched:", lax.gather(x, idx, bdn, slice_sizes=(1, 1)))
print("same as take_along_axis:", jnp.take_along_axis(x, idx, axis=1)[:, 0])
print("grad of gather:", jax.grad(lambda v: lax.gather(v, starts, dnums, (2, 2)).sum())(x))

# scatters: segment-style updates into a length-6 vector
target = jnp.ones(6)
where = jnp.array([[0], [2], [2], [5], [0]])
vals = jnp.array([2.0, 3.0, -4.0, 5.0, 0.5])
sdn = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                  scatter_dims_to_operand_dims=(0,))
print("scatter_add:", lax.scatter_add(target, where, vals, sdn))
print("scatter_mul:", lax.scatter_mul(target, where, vals, sdn))
print("scatter_min:", lax.scatter_min(target, where, vals, sdn))
print("scatter_max:", lax.scatter_max(target, where, vals, sdn))
print("scatter:", lax.scatter(target, jnp.array([[1], [4]]), jnp.array([7.0, 8.0]), sdn,
                              unique_indices=True))
print("scatter_apply:", lax.scatter_apply(target * 3.0, jnp.array([[0], [2], [5]]), jnp.exp, sdn,
                                          update_shape=(3,)))
oob = jnp.array([[1], [9]])
print("dropped out of bounds:", lax.scatter_add(target, oob, jnp.array([1.0, 1.0]), sdn,
                                                  mode=lax.GatherScatterMode.FILL_OR_DROP))
print("clipped out of bounds:", lax.scatter_add(target, oob, jnp.array([1.0, 1.0]), sdn, mode="clip"))

# (JAX differentiates scatter_mul only with unique_indices=True)
uniq = jnp.array([[4], [0], [2]])
g_t, g_v = jax.grad(lambda t, v: (lax.scatter_mul(t, uniq, v, sdn, unique_indices=True) ** 2).sum(),
                    argnums=(0, 1))(jnp.arange(1.0, 7.0), vals[:3])
print("scatter_mul grads:", g_t, g_v)
g_t, g_v = jax.grad(lambda t, v: lax.scatter_max(t, where, v, sdn).sum(), argnums=(0, 1))(target, vals)
print("scatter_max grads:", g_t, g_v)

# window updates: rows written into a matrix
upd = lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,),
                                  scatter_dims_to_operand_dims=(0,))
print("row scatter_add:\n", lax.scatter_add(jnp.zeros((3, 4)), jnp.array([[2], [0], [2]]),
                                            jnp.arange(12.0).reshape(3, 4), upd))

# index_take, dynamic updates, slices
print("index_take:", lax.index_take(x, (jnp.array([4, 0]), jnp.array([1, 3])), axes=(0, 1)))
print("slice_in_dim:", lax.slice_in_dim(x, 1, 5, stride=2, axis=0)[:, :2])
print("dynamic_update_slice_in_dim:", lax.dynamic_update_slice_in_dim(x, -jnp.ones((5, 2)), 3, axis=1)[0])
print("dynamic_update_index_in_dim:", lax.dynamic_update_index_in_dim(x, -jnp.ones(4), 2, axis=0)[:, 0])
print("dynamic_index_in_dim:", lax.dynamic_index_in_dim(x, jnp.int32(7), axis=0, keepdims=False))
jit_update = jax.jit(lambda m, i: lax.dynamic_update_slice_in_dim(m, jnp.zeros((2, 4)), i, axis=0))
print("jit, clamped start:", jit_update(x, 4)[:, 0])

# multi-operand sort: keys (group, score) carry a payload along
group = jnp.array([2, 0, 1, 0, 2, 1])
score = jnp.array([0.3, 0.9, 0.1, 0.2, 0.8, 0.5])
payload = jnp.arange(6)
print("sort by group:", lax.sort((group, score, payload), num_keys=1))
print("sort by group, score:", lax.sort((group, score, payload), num_keys=2)[2])
print("descending via negation:", lax.sort((-score, payload), num_keys=1)[1])
print("sort_key_val:", lax.sort_key_val(score, payload))
vals_k, idx_k = lax.top_k(jnp.array([[3.0, 1.0, 4.0, 1.5], [2.0, 7.0, 1.0, 8.0]]), 2)
print("top_k:", vals_k, idx_k)
print("grad of top_k sum:", jax.grad(lambda v: lax.top_k(v, 2)[0].sum())(score))
