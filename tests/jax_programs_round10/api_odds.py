"""Smaller APIs that published JAX code leans on: jax.debug.print formatting, pure_callback
(with vmap_method), jax.nn.initializers, jax.image.resize/scale_and_translate,
lax.reduce_window pooling, jnp.vectorize with signatures, jnp.piecewise, jnp.einsum with
optimize, lax.dot_general with precision, named_call/named_scope, jax.nn activations and
one_hot, jnp.linalg.lstsq/pinv/matrix_rank, and jax.numpy set/sort utilities."""

import numpy as np

import jax
import jax.numpy as jnp
from jax import lax

# debug.print: eager, under jit and under vmap (ordered per example)
jax.debug.print("eager x={x} y={y:.3f}", x=jnp.arange(3), y=jnp.float32(2.0) / 3)


@jax.jit
def f(x):
    jax.debug.print("traced sum={s}", s=x.sum())
    return x * 2


f(jnp.ones(3))
jax.vmap(lambda v: jax.debug.print("item {}", v) or v)(jnp.array([1, 2]))


# pure_callback: host NumPy code inside jit and vmap
def host_sort(x):
    return np.sort(np.asarray(x))[::-1].copy()


@jax.jit
def desc(x):
    return jax.pure_callback(host_sort, jax.ShapeDtypeStruct(x.shape, x.dtype), x)


print(desc(jnp.array([3.0, 1.0, 2.0])))
print(jax.vmap(lambda r: jax.pure_callback(host_sort, jax.ShapeDtypeStruct(r.shape, r.dtype), r,
                                           vmap_method="sequential"))(jnp.array([[1, 3, 2], [9, 7, 8]])))

# initializers
key = jax.random.PRNGKey(0)
for name, init in [("glorot_normal", jax.nn.initializers.glorot_normal()),
                   ("he_uniform", jax.nn.initializers.he_uniform()),
                   ("lecun_normal", jax.nn.initializers.lecun_normal()),
                   ("orthogonal", jax.nn.initializers.orthogonal()),
                   ("variance_scaling",
                    jax.nn.initializers.variance_scaling(2.0, "fan_out", "truncated_normal")),
                   ("normal", jax.nn.initializers.normal(0.02)), ("zeros", jax.nn.initializers.zeros)]:
    w = init(key, (4, 3))
    print(name, w.dtype, w.shape, w[0])
q = jax.nn.initializers.orthogonal()(key, (4, 4))
print("orthogonal", jnp.allclose(q @ q.T, jnp.eye(4), atol=1e-5))

# images
img = jnp.arange(16.0).reshape(4, 4)
print(jax.image.resize(img, (2, 2), "linear"))
print(jax.image.resize(img, (6, 6), "nearest")[0])
print(jax.image.resize(img, (8, 8), "bilinear")[1, :4])
print(jax.image.resize(img[None, :, :, None], (1, 3, 3, 1), "cubic")[0, :, :, 0])
print(jax.image.scale_and_translate(img, (4, 4), (0, 1), jnp.array([1.0, 1.0]), jnp.array([0.5, 0.0]),
                                    "linear")[0])

# pooling with reduce_window
x = jnp.arange(32.0).reshape(1, 4, 4, 2)
print(lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")[0, :, :, 0])
print(lax.reduce_window(x, 0.0, lax.add, (1, 3, 3, 1), (1, 1, 1, 1), "SAME")[0, :, :, 1])
pool = lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")  # noqa: E731
print(jax.grad(lambda x: pool(x).sum())(x)[0, :2, :2, 0])

# vectorize, piecewise, einsum
mv = jnp.vectorize(lambda m, v: m @ v, signature="(n,n),(n)->(n)")
print(mv(jnp.ones((2, 3, 3)), jnp.arange(3.0)))
print(jnp.piecewise(jnp.linspace(-2, 2, 5), [jnp.linspace(-2, 2, 5) < 0, jnp.linspace(-2, 2, 5) > 1],
                    [lambda v: -v, lambda v: v ** 2, 0.5]))
a, b, c = jnp.ones((2, 3)), jnp.arange(12.0).reshape(3, 4), jnp.arange(4.0)
print(jnp.einsum("ij,jk,k->i", a, b, c, optimize="greedy"), jnp.einsum("ii", jnp.arange(9.0).reshape(3, 3)))
print(lax.dot_general(a, b, (((1,), (0,)), ((), ())), precision=lax.Precision.HIGHEST).shape)


# named_call / named_scope do not change values
@jax.named_call
def scaled(x):
    return 3 * x


with jax.named_scope("outer"):
    print(jax.jit(scaled)(2.0))

# activations and one_hot
z = jnp.array([-2.0, -0.5, 0.0, 0.5, 2.0])
for act in ("relu", "gelu", "silu", "elu", "leaky_relu", "softplus", "sigmoid", "celu", "selu", "glu",
            "hard_tanh", "log_sigmoid", "relu6", "hard_swish", "mish", "squareplus", "sparse_plus"):
    fn = getattr(jax.nn, act)
    print(act, fn(z if act != "glu" else jnp.concatenate([z, z[:1]])))
print(jax.nn.one_hot(jnp.array([0, 2, 5]), 4), jax.nn.standardize(z), jax.nn.logsumexp(z))
print(jax.nn.softmax(jnp.array([[1.0, 2.0], [3.0, 3.0]]), axis=-1,
                     where=jnp.array([[True, False], [True, True]])))

# least squares and friends
M = jnp.array([[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]])
sol, resid, rank, sv = jnp.linalg.lstsq(M, jnp.array([1.0, 2.0, 4.0]))
print(sol, resid, rank, sv)
print(jnp.linalg.pinv(M)[0], jnp.allclose(jnp.linalg.pinv(M) @ M, jnp.eye(2), atol=1e-5),
      jnp.linalg.matrix_rank(M),
      jnp.linalg.cond(M[:2]))
print(jnp.unique(jnp.array([3, 1, 3, 2, 1]), return_counts=True, return_inverse=True))
print(jnp.intersect1d(jnp.array([1, 2, 3]), jnp.array([2, 3, 4])),
      jnp.setdiff1d(jnp.array([1, 2, 3]), jnp.array([2])))
print(jnp.lexsort((jnp.array([1, 0, 1]), jnp.array([2, 2, 1]))),
      jnp.argsort(jnp.array([3.0, 1.0, 2.0]), descending=True))
print(jnp.searchsorted(jnp.array([1.0, 2.0, 3.0]), jnp.array([0.5, 2.0, 3.5]), side="right"))
print(jnp.unique(jnp.array([1.0, 2.0, 2.0, 5.0]), size=5, fill_value=-1.0))
