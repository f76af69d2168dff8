"""NumPy-style indexing in JAX (the "Indexing" and "Sharp bits: dynamic shapes" docs):
basic and advanced indexing mixed with slices, None and Ellipsis, boolean masks (eager only)
and their static-shape replacements (jnp.where with size, nonzero/argwhere with size and
fill_value, compress), take_along_axis and put_along_axis, jnp.ix_, jnp.indices,
tril/triu_indices, diag_indices, unravel_index/ravel_multi_index, jnp.select and
jnp.choose, jnp.extract, jnp.place-free masking, unique with size and return_inverse,
dynamic_slice/dynamic_update_slice with clamping, and gathers under jit, vmap and grad."""

import jax
import jax.numpy as jnp
from jax import lax

A = jnp.arange(24).reshape(2, 3, 4)
print(A[1, :, ::2], A[..., -1], A[:, None, 1].shape, A[None, ..., None].shape)
print(A[jnp.array([1, 0]), :, jnp.array([3, 0])], A[:, jnp.array([0, 2])][..., 1])
print(A[:, [0, 2], 1:3].shape, A[jnp.array([[0], [1]]), jnp.array([[0, 2]]), 0])
m = A[0] > 5
print(A[0][m], jnp.where(m, size=10, fill_value=-1), jnp.nonzero(m, size=4))
print(jnp.argwhere(m, size=3, fill_value=9), jnp.flatnonzero(m), jnp.count_nonzero(m, axis=1))
print(jnp.compress(jnp.array([True, False, True]), A[0], axis=0), jnp.extract(A[0] % 5 == 0, A[0]))
scores = jnp.array([[0.2, 0.9, 0.5], [0.7, 0.1, 0.3]])
top = jnp.argsort(-scores, axis=1)[:, :2]
print(top, jnp.take_along_axis(scores, top, axis=1))
print(jnp.put_along_axis(scores, top[:, :1], -1.0, axis=1, inplace=False))
rows, cols = jnp.ix_(jnp.array([0, 1]), jnp.array([2, 0]))
print(rows.shape, cols.shape, A[0][rows, cols])
print(jnp.indices((2, 3)), jnp.indices((2, 2), sparse=True)[1])
print(jnp.tril_indices(3), jnp.triu_indices(3, k=1, m=4), jnp.diag_indices(2))
M = jnp.arange(16.0).reshape(4, 4)
print(M[jnp.tril_indices(4, -1)], M[jnp.diag_indices(4)], jnp.tril_indices_from(M, 1)[0].shape)
print(jnp.unravel_index(jnp.array([5, 17]), (3, 6)),
      jnp.ravel_multi_index((jnp.array([0, 2]), jnp.array([5, 1])), (3, 6)))
print(jnp.ravel_multi_index((jnp.array([4]), jnp.array([-1])), (3, 6), mode="clip"),
      jnp.ravel_multi_index((jnp.array([4]), jnp.array([7])), (3, 6), mode="wrap"))
x = jnp.linspace(-2.0, 2.0, 9)
print(jnp.select([x < -1, x > 1], [x ** 2, -x], default=0.0))
print(jnp.choose(jnp.array([0, 2, 1, 0]), jnp.array([[1, 2, 3, 4], [10, 20, 30, 40], [-1, -2, -3, -4]])))
print(jnp.choose(jnp.array([3, -1]), [jnp.zeros(2), jnp.ones(2)], mode="clip"),
      jnp.choose(jnp.array([3, -1]), [jnp.zeros(2), jnp.ones(2)], mode="wrap"))
u, inv = jnp.unique(jnp.array([3, 1, 3, 2, 1]), return_inverse=True)
print(u, inv, jnp.unique(jnp.array([3, 1, 3, 2, 1]), size=5, fill_value=0))
uv = jnp.unique_values(jnp.array([2, 2, 5]))
uc = jnp.unique_counts(jnp.array([2, 2, 5]))
print(uv, uc.values, uc.counts, jnp.unique_all(jnp.array([2, 2, 5])).indices)
print(lax.dynamic_slice(M, (3, 1), (2, 2)), lax.dynamic_slice_in_dim(jnp.arange(5), 4, 3))
print(lax.dynamic_update_slice(jnp.zeros((3, 3)), jnp.ones((2, 2)), (2, 2)))
print(lax.dynamic_index_in_dim(M, 2, axis=1, keepdims=False), lax.index_in_dim(M, -1, keepdims=True).shape)


@jax.jit
def window(v, i):
    return lax.dynamic_slice(v, (i,), (3,)), v[i], jnp.where(v > v[i], size=2)


print(window(jnp.arange(10.0) ** 2, 8))
print(jax.vmap(lambda r, i: r[i])(M, jnp.array([0, 1, 3, 3])),
      jax.vmap(lambda i: M[i, ::-1])(jnp.array([2, 0])))
print(jax.grad(lambda v: (v[jnp.array([0, 2, 2])] ** 2).sum() + v[1:3].sum())(jnp.arange(4.0)))
print(jax.grad(lambda s: jnp.take_along_axis(s, top, 1).sum())(scores))
