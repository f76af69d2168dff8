"""Custom batching rules with jax.custom_batching, in the style of JAX's custom_vmap
documentation and tests: a function whose batched form is chosen by hand (a matrix-vector
product that becomes a matrix-matrix product), a rule that records which arguments were
batched, out_batched flags that leave an output unbatched, nested vmap, custom_vmap under jit
and grad (with a custom_jvp outside it), and jax.custom_batching.sequential_vmap for a
function that does not vectorize (a data-dependent while_loop), against a Python loop."""

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.custom_batching import custom_vmap, sequential_vmap

jnp.set_printoptions(precision=5, suppress=True)

key = random.PRNGKey(3)
k1, k2, k3 = random.split(key, 3)
M = random.normal(k1, (4, 3))
xs = random.normal(k2, (5, 3))
seen = []


@custom_vmap
def matvec(m, x):
    return m @ x


@matvec.def_vmap
def matvec_vmap_rule(axis_size, in_batched, m, x):
    m_batched, x_batched = in_batched
    seen.append((axis_size, m_batched, x_batched))
    if m_batched and x_batched:
        return jnp.einsum("bij,bj->bi", m, x), True
    if x_batched:
        return x @ m.T, True  # one matrix-matrix product
    return m @ x, True


print("== custom_vmap ==")
print("unbatched:", matvec(M, xs[0]))
out = jax.vmap(matvec, in_axes=(None, 0))(M, xs)
print("vmap over x:", out.shape, bool(jnp.allclose(out, xs @ M.T)))
Ms = random.normal(k3, (5, 4, 3))
out = jax.vmap(matvec)(Ms, xs)
print("vmap over both:", bool(jnp.allclose(out, jnp.einsum("bij,bj->bi", Ms, xs))))
out = jax.vmap(matvec, in_axes=(None, 1), out_axes=1)(M, xs.T)
print("in_axes=1, out_axes=1:", out.shape, bool(jnp.allclose(out, M @ xs.T)))
print("rule saw:", seen)

print("== an unbatched output ==")


@custom_vmap
def mean_and_count(x):
    return jnp.mean(x), jnp.asarray(x.shape[0])


@mean_and_count.def_vmap
def mean_and_count_rule(axis_size, in_batched, x):
    # the count is the same for every batch element: leave it unbatched
    return (jnp.mean(x, axis=1), jnp.asarray(x.shape[1])), (True, False)


means, counts = jax.vmap(mean_and_count)(xs)
print("means:", means, "counts:", counts)

print("== nested vmap ==")
seen.clear()
out = jax.vmap(jax.vmap(matvec, in_axes=(None, 0)), in_axes=(None, 0))(M, xs.reshape(5, 1, 3))
print("nested:", out.shape, bool(jnp.allclose(out[:, 0], xs @ M.T)), "rule calls:", len(seen))

print("== jit and grad ==")
f = jax.jit(jax.vmap(matvec, in_axes=(None, 0)))
print("jit(vmap):", bool(jnp.allclose(f(M, xs), xs @ M.T)))


@jax.custom_jvp
@custom_vmap
def softplus(x):
    return jnp.logaddexp(x, 0.0)


@softplus.def_vmap
def softplus_rule(axis_size, in_batched, x):
    return jnp.logaddexp(x, 0.0), True


@softplus.defjvp
def softplus_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return softplus(x), t * jax.nn.sigmoid(x)


g = jax.vmap(jax.grad(softplus))(jnp.linspace(-2.0, 2.0, 5))
print("vmap(grad(softplus)):", g)
print("against sigmoid:", bool(jnp.allclose(g, jax.nn.sigmoid(jnp.linspace(-2.0, 2.0, 5)))))
print("jit(vmap(softplus)):", jax.jit(jax.vmap(softplus))(jnp.array([-1.0, 0.0, 3.0])))

print("== sequential_vmap ==")
calls = []


@sequential_vmap
def collatz_steps(n):
    calls.append(1)

    def cond(s):
        return s[0] != 1

    def body(s):
        k, steps = s
        return jnp.where(k % 2 == 0, k // 2, 3 * k + 1), steps + 1

    return lax.while_loop(cond, body, (n, 0))[1]


ns = jnp.array([6, 7, 27, 97])
print("sequential_vmap:", jax.vmap(collatz_steps)(ns))
print("python loop:   ", jnp.array([collatz_steps(n) for n in ns]))


@sequential_vmap
def scaled_norm(x, scale):
    return scale * jnp.sqrt(jnp.sum(x ** 2))


print("one batched argument:", jax.vmap(scaled_norm, in_axes=(0, None))(xs, 2.0))
print("both batched:", jax.vmap(scaled_norm)(xs, jnp.arange(5.0)))
print("jit:", jax.jit(jax.vmap(scaled_norm, in_axes=(0, None)))(xs, 0.5))
