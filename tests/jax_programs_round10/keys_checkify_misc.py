"""Newer JAX features in one program (the "Key arrays", "checkify", "custom_batching" and
control-flow docs): typed key arrays split into shapes, key_data/wrap_key_data, vmapped
sampling over a key grid, checkify with user checks and automatic NaN/index/div checks,
ensure_compile_time_eval, custom_vmap, lax.cond with several operands, lax.switch with
an index clamp, scan with unroll, and lax.select_n."""

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.experimental import checkify

# typed keys
key = random.key(42)
print(key.shape, key.dtype, jax.dtypes.issubdtype(key.dtype, jax.dtypes.prng_key))
grid = random.split(key, (2, 3))
print(grid.shape, random.key_data(grid).shape, random.key_data(grid).dtype)
samples = jax.vmap(jax.vmap(lambda k: random.normal(k, (2,))))(grid)
print(samples.shape, samples[1, 2])
print(random.key_data(random.wrap_key_data(random.key_data(grid)))[0, 0])
folded = jax.vmap(random.fold_in, in_axes=(None, 0))(key, jnp.arange(3))
print(random.uniform(folded[2]), random.randint(key, (4,), 0, 10))
print(random.categorical(key, jnp.log(jnp.array([0.1, 0.2, 0.7])), shape=(6,)))
print(random.permutation(key, 6), random.choice(key, 5, (3,), replace=False))
print(random.bits(key, (2,)).dtype, random.key_impl(key))
k1, k2 = random.split(random.PRNGKey(0))
print(random.normal(k1, (2,)), random.truncated_normal(k2, -1.0, 1.0, (3,)))

# checkify: explicit checks and automatic error classes
def safe_log(x):
    checkify.check(jnp.all(x > 0), "log of non-positive value {}", jnp.min(x))
    return jnp.log(x)


checked = checkify.checkify(safe_log)
err, out = checked(jnp.array([1.0, 2.0]))
print(err.get(), out)
err, out = checked(jnp.array([1.0, -2.0]))
print(err.get())
jitted = jax.jit(checkify.checkify(safe_log))
err, _ = jitted(jnp.array([-3.0, 2.0]))
print(err.get())

def index_and_div(x, i):
    return x[i] / x[0]


err, out = checkify.checkify(index_and_div, errors=checkify.index_checks)(jnp.arange(3.0), 5)
print(err.get() is not None, "out-of-bounds" in (err.get() or ""))
err, out = checkify.checkify(lambda x: jnp.sin(x) / x, errors=checkify.nan_checks)(jnp.array(jnp.inf))
print(err.get() is not None)
err, out = checkify.checkify(lambda a, b: a // b, errors=checkify.div_checks)(jnp.array(3), jnp.array(0))
print(err.get() is not None)
try:
    err.throw()
except checkify.JaxRuntimeError:
    print("raised")


# ensure_compile_time_eval: constants computed while tracing
@jax.jit
def scaled(x):
    with jax.ensure_compile_time_eval():
        table = jnp.cumsum(jnp.arange(1, 6))
        n = int(table[-1])
    return x * n + table[2]


print(scaled(jnp.float32(2.0)))


# custom_vmap: a rule for the batched case
@jax.custom_batching.custom_vmap
def my_norm(x):
    return jnp.sqrt(jnp.sum(x * x))


@my_norm.def_vmap
def my_norm_vmap(axis_size, in_batched, xs):
    assert in_batched == [True]
    return jnp.sqrt(jnp.sum(xs * xs, axis=1)) + 0.0, True


print(my_norm(jnp.array([3.0, 4.0])), jax.vmap(my_norm)(jnp.array([[3.0, 4.0], [6.0, 8.0]])))

# cond with several operands, switch, select_n
def piecewise(x, y):
    return lax.cond(x > y, lambda a, b: (a - b, a * b), lambda a, b: (b - a, a + b), x, y)


print(piecewise(3.0, 1.0), jax.vmap(piecewise)(jnp.array([1.0, 3.0]), jnp.array([2.0, 1.0])))
print(jax.grad(lambda x: piecewise(x, 1.0)[1])(3.0))
branches = [lambda x: x + 1, lambda x: x * 2, lambda x: -x]
print([lax.switch(i, branches, 5.0) for i in (-1, 0, 1, 2, 7)])
print(jax.vmap(lambda i, x: lax.switch(i, branches, x))(jnp.array([0, 1, 2]), jnp.array([1.0, 2.0, 3.0])))
print(lax.select_n(jnp.array([0, 1, 2, 1]), jnp.zeros(4), jnp.ones(4), jnp.full(4, 2.0)))


# scan with unroll, and a cumulative product checked against cumprod
def step(c, x):
    c = c * x
    return c, c


xs = jnp.linspace(0.5, 1.5, 7)
for unroll in (1, 3, True):
    print(unroll, lax.scan(step, 1.0, xs, unroll=unroll)[1][-1])
print(jnp.cumprod(xs)[-1])
print(jax.jit(lambda xs: lax.scan(step, 1.0, xs, unroll=2))(xs)[0])
