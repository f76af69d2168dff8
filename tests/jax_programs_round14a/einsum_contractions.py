"""Einsum and tensor contractions as the jax.numpy reference and the "tensor contraction"
recipes use them: einsum with explicit and implicit outputs, ellipsis broadcasting, traces and
diagonals, repeated operands, optimize= settings, einsum_path, preferred_element_type,
integer and mixed-dtype operands, tensordot with int and pair axes, matmul broadcasting,
vdot/vecdot/inner/outer/kron, lax.dot_general with batch dimensions, and gradients through
an einsum."""

import jax
import jax.numpy as jnp
from jax import lax

a = jnp.arange(6.0).reshape(2, 3)
b = jnp.arange(12.0).reshape(3, 4)
c = jnp.arange(4.0)
print(jnp.einsum("ij,jk->ik", a, b), jnp.einsum("ij,jk", a, b).shape)
print(jnp.einsum("ij,jk,k->i", a, b, c), jnp.einsum("ij->ji", a).shape, jnp.einsum("ij->", a))
sq = jnp.arange(9.0).reshape(3, 3)
print(
    jnp.einsum("ii", sq),
    jnp.einsum("ii->i", sq),
    jnp.einsum("i,i", c, c),
    jnp.einsum("i,j->ij", c[:2], c[:3]),
)
x = jnp.arange(24.0).reshape(2, 3, 4)
print(jnp.einsum("...ij,...jk->...ik", x, jnp.ones((2, 4, 2))).shape, jnp.einsum("bij->bji", x).shape)
print(jnp.einsum("bij,bjk->bik", x, jnp.transpose(x, (0, 2, 1)))[1])
print(jnp.einsum(a, [0, 1], b, [1, 2], [0, 2]))
print(jnp.einsum("ij,jk->ik", a, b, optimize="greedy"), jnp.einsum("ij,jk->ik", a, b, optimize=False))
path, desc = jnp.einsum_path("ij,jk,kl->il", a, b, jnp.ones((4, 5)), optimize="greedy")
print(path)
i8 = jnp.arange(4, dtype=jnp.int8).reshape(2, 2)
print(
    jnp.einsum("ij,jk->ik", i8, i8).dtype, jnp.einsum("ij,jk->ik", i8, i8, preferred_element_type=jnp.int32)
)
print(
    jnp.einsum("i,i->", jnp.arange(3), jnp.arange(3.0)),
    jnp.einsum("i,i->", jnp.arange(3), jnp.arange(3)).dtype,
)
print(
    jnp.einsum(
        "ij,j->i", a.astype(jnp.bfloat16), jnp.ones(3, jnp.bfloat16), preferred_element_type=jnp.float32
    )
)
print(jnp.tensordot(a, b, axes=1), jnp.tensordot(x, x, axes=([1, 2], [1, 2])))
print(
    jnp.tensordot(a, a, axes=0).shape, jnp.tensordot(a, a, axes=2), jnp.tensordot(a, b, axes=[[1], [0]]).shape
)
print(jnp.matmul(x, jnp.ones((4, 2))).shape, (jnp.ones((5, 1, 2, 3)) @ jnp.ones((4, 3, 2))).shape, (c @ c))
print(
    jnp.vdot(a, a),
    jnp.inner(c, c),
    jnp.inner(a, a),
    jnp.outer(c[:2], c[:3]).shape,
    jnp.kron(jnp.eye(2), a).shape,
)
print(
    jnp.vecdot(a, a), jnp.vecdot(jnp.array([1j, 2.0]), jnp.array([1j, 1.0])), jnp.linalg.vecdot(a, a, axis=0)
)
print(jnp.matvec(a, jnp.ones(3)), jnp.vecmat(jnp.ones(2), a))
print(lax.dot_general(x, jnp.ones((2, 4, 5)), (((2,), (1,)), ((0,), (0,)))).shape)
print(lax.dot_general(a, b, (((1,), (0,)), ((), ())), preferred_element_type=jnp.float32))
print(lax.dot(a, b).shape, lax.batch_matmul(x, jnp.ones((2, 4, 1)))[:, :, 0])
W = jnp.arange(6.0).reshape(3, 2) / 10
print(jax.grad(lambda W: jnp.einsum("ij,jk,k->", a, W, jnp.ones(2)) ** 2)(W))
print(jax.jacrev(lambda v: jnp.einsum("ij,j->i", sq, v))(jnp.ones(3)))
print(jax.jit(lambda p, q: jnp.einsum("bi,bi->b", p, q))(a, a + 1))
print(jax.vmap(lambda m: jnp.einsum("ii->", m))(jnp.stack([sq, 2 * sq])))
try:
    jnp.einsum("ij,jk->ik", a, a)
except (ValueError, TypeError) as e:
    print(type(e).__name__)
try:
    jnp.tensordot(a, b, axes=([0], [0]))
except TypeError as e:
    print("TypeError", "contracting dimensions" in str(e) or "shape mismatch" in str(e))
try:
    jnp.matmul(a, a)
except TypeError:
    print("TypeError")
for u, v in [(jnp.ones(2), jnp.ones(3)), (a, a)]:
    try:
        jnp.dot(u, v)
    except TypeError:
        print("TypeError dot")
