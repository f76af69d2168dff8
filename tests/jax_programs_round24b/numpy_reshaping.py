"""NumPy-to-``jax.numpy`` array manipulation, the functions a porting guide lists and the
earlier programs skipped: ``array_split``/``hsplit``/``vsplit``/``dsplit``, ``dstack``,
``atleast_2d``/``atleast_3d``, ``delete``/``insert``, ``diagflat``, ``diag_indices_from``,
``triu_indices_from``, ``mask_indices``, ``fromfunction``, ``geomspace``, ``rot90``/``fliplr``/
``flipud``, ``rollaxis``/``permute_dims``, ``unstack``, ``apply_along_axis``/``apply_over_axes``,
``setxor1d``/``union1d``, ``trim_zeros``, ``unique_inverse``, ``nancumprod``, ``modf``,
``heaviside``, ``logaddexp2``, the index tricks ``r_``/``c_``/``s_``/``index_exp``, and the
predicates ``isposinf``/``isneginf``/``iscomplex``/``isreal``/``array_equiv``."""

import jax
import jax.numpy as jnp

a = jnp.arange(24.0).reshape(4, 6)
print("array_split:", [p.shape for p in jnp.array_split(a, 3, axis=1)],
      [p.shape for p in jnp.array_split(jnp.arange(10), 4)])
print("hsplit/vsplit:", [p.shape for p in jnp.hsplit(a, 2)], [p.shape for p in jnp.vsplit(a, [1, 3])])
cube = a.reshape(2, 3, 4)
print("dsplit:", [p.shape for p in jnp.dsplit(cube, 2)], "dstack:", jnp.dstack([a, a]).shape)
print("atleast:", jnp.atleast_2d(3.0).shape, jnp.atleast_3d(jnp.ones(5)).shape,
      [x.shape for x in jnp.atleast_3d(jnp.ones((2, 3)), 1.0)])
print("delete:", jnp.delete(jnp.arange(8), jnp.array([1, 5])), jnp.delete(a, 2, axis=0).shape)
print("insert:", jnp.insert(jnp.arange(5), 2, -1), jnp.insert(jnp.arange(5), jnp.array([0, 5]), 9))
print("insert column:\n", jnp.insert(a[:2, :3], 1, jnp.array([-1.0, -2.0]), axis=1))
print("diagflat:\n", jnp.diagflat(jnp.array([1, 2]), k=1))
rows, cols = jnp.diag_indices_from(jnp.zeros((3, 3)))
print("diag_indices_from:", rows, cols, "triu_indices_from:", jnp.triu_indices_from(a[:3, :3], k=1))
print("mask_indices:", jnp.mask_indices(3, jnp.tril))
print("fromfunction:\n", jnp.fromfunction(lambda i, j: i * 10 + j, (3, 4), dtype=jnp.int32))
print("geomspace:", jnp.geomspace(1.0, 1000.0, 4), jnp.geomspace(-1.0, -16.0, 5))
print("rot90:", jnp.rot90(a[:2, :3]).tolist(), jnp.rot90(a[:2, :3], k=-1).tolist())
print("fliplr/flipud:", jnp.fliplr(a[:2, :3])[0], jnp.flipud(a[:2, :3])[0])
z234 = jnp.zeros((2, 3, 4))
print("rollaxis:", jnp.rollaxis(z234, 2).shape, jnp.rollaxis(z234, 0, 2).shape)
print("permute_dims:", jnp.permute_dims(jnp.zeros((2, 3, 4)), (2, 0, 1)).shape)
print("unstack:", [u.tolist() for u in jnp.unstack(a[:2, :3], axis=1)])

# apply_along_axis / apply_over_axes
print("apply_along_axis:", jnp.apply_along_axis(lambda r: r.max() - r.min(), 1, a))
print("apply_along_axis (vector out):", jnp.apply_along_axis(lambda r: r[::2], 0, a[:, :2]).shape)
print("apply_over_axes:", jnp.apply_over_axes(jnp.sum, cube, [0, 2]))
print("jit(apply_along_axis):", jax.jit(lambda m: jnp.apply_along_axis(jnp.linalg.norm, 1, m))(a[:2]))

# set operations and cleanup
x = jnp.array([3, 1, 4, 1, 5, 9, 2, 6])
y = jnp.array([2, 7, 1, 8, 2, 8])
print("setxor1d:", jnp.setxor1d(x, y), "union1d:", jnp.union1d(x, y))
print("union1d size=:", jnp.union1d(x, y, size=12, fill_value=-1))
print("trim_zeros:", jnp.trim_zeros(jnp.array([0, 0, 1, 2, 0, 3, 0])),
      jnp.trim_zeros(jnp.array([0, 0, 1, 2, 0]), "f"))
u = jnp.unique_inverse(x)
print("unique_inverse:", u.values, u.inverse_indices, bool(jnp.all(u.values[u.inverse_indices] == x)))

# elementwise odds
v = jnp.array([-2.5, -1.0, 0.0, 0.5, 3.75, jnp.nan])
frac, whole = jnp.modf(v)
print("modf:", frac, whole)
print("heaviside:", jnp.heaviside(v, 0.5))
print("logaddexp2:", jnp.logaddexp2(jnp.array([1.0, 10.0, -50.0]), jnp.array([1.0, 3.0, -50.0])))
print("nancumprod:", jnp.nancumprod(jnp.array([2.0, jnp.nan, 3.0, 0.5])),
      jnp.nancumprod(jnp.array([[1.0, jnp.nan], [2.0, 4.0]]), axis=0))
print("grad of logaddexp2:", jax.grad(lambda p: jnp.logaddexp2(p, 2.0))(1.0))
print("grad of modf:", jax.grad(lambda p: jnp.modf(p)[0] * 3.0)(2.25))

# index tricks
print("r_:", jnp.r_[1:4, 0, jnp.array([7, 8])], jnp.r_[0:1:5j])
print("r_ with axis directive:", jnp.r_["0,2", jnp.array([1, 2]), jnp.array([3, 4])].shape)
print("c_:", jnp.c_[jnp.array([1, 2, 3]), jnp.array([4, 5, 6])].tolist())
print("s_:", a[jnp.s_[1:3, ::2]].tolist(), jnp.s_[::-1])
print("index_exp:", jnp.index_exp[2:4], a[jnp.index_exp[1]].shape)

# predicates
w = jnp.array([jnp.inf, -jnp.inf, 1.0, jnp.nan])
print("isposinf/isneginf:", jnp.isposinf(w), jnp.isneginf(w))
z = jnp.array([1 + 0j, 2 + 1e-9j, 3 - 0j])
print("iscomplex/isreal:", jnp.iscomplex(z), jnp.isreal(z), jnp.iscomplexobj(z), jnp.isrealobj(a))
print("array_equiv:", jnp.array_equiv(jnp.array([1, 2]), jnp.array([[1, 2], [1, 2]])),
      jnp.array_equiv(jnp.array([1, 2]), jnp.array([[1, 2], [2, 1]])))
print("isscalar:", jnp.isscalar(1.0), jnp.isscalar(jnp.float32(1.0)), jnp.isscalar(jnp.array(1.0)))
print("broadcast_shapes:", jnp.broadcast_shapes((3, 1), (1, 4), (4,)),
      [b.shape for b in jnp.broadcast_arrays(jnp.ones((3, 1)), jnp.ones(4))])
print("deg2rad/rad2deg:", jnp.deg2rad(180.0), jnp.rad2deg(jnp.pi / 3), jnp.radians(90.0))
