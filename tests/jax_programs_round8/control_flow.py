"""Structured control flow from "Control flow and logical operators with JIT": cond, switch,
select, fori_loop, while_loop and scan, jitted, differentiated and vmapped."""

import jax
import jax.numpy as jnp
from jax import lax


def f(x):
    return lax.cond(x > 0, lambda v: v * 2.0, lambda v: -v, x)


print(jax.jit(f)(3.0), jax.jit(f)(-3.0))
print(jax.grad(f)(3.0), jax.grad(f)(-3.0))
print(jax.vmap(f)(jnp.array([-2.0, 0.0, 2.0])))

branches = [lambda x: x + 1, lambda x: x * 10, lambda x: x ** 2]
print([int(lax.switch(i, branches, 3)) for i in range(-1, 5)])
print(jax.vmap(lambda i, x: lax.switch(i, branches, x))(jnp.array([0, 1, 2]), jnp.array([4, 5, 6])))
print(lax.select(jnp.array([True, False, True]), jnp.ones(3), jnp.zeros(3)))


def sum_of_squares(n):
    return lax.fori_loop(0, n, lambda i, acc: acc + i * i, 0)


print(jax.jit(sum_of_squares)(10))
print(lax.fori_loop(0, 5, lambda i, x: x * 1.5, 1.0))
print(jax.grad(lambda x: lax.fori_loop(0, 3, lambda i, v: jnp.sin(v), x))(0.7))


def collatz_steps(n):
    def cond(state):
        return state[0] != 1

    def body(state):
        n, steps = state
        n = jnp.where(n % 2 == 0, n // 2, 3 * n + 1)
        return n, steps + 1

    return lax.while_loop(cond, body, (n, 0))[1]


print(jax.jit(collatz_steps)(27))
print(jax.vmap(collatz_steps)(jnp.array([1, 6, 7, 27])))


def cumulative(carry, x):
    carry = carry + x
    return carry, carry * 2


total, doubled = lax.scan(cumulative, 0.0, jnp.arange(1.0, 6.0))
print(total, doubled)
print(lax.scan(lambda c, _: (c * 2, c), 1, None, length=5))
print(lax.scan(cumulative, 0.0, jnp.arange(1.0, 6.0), reverse=True))


# an exponential moving average and its derivative through scan
def ema(alpha, xs):
    def step(m, x):
        m = alpha * m + (1 - alpha) * x
        return m, m

    return lax.scan(step, xs[0], xs[1:])[1]


xs = jnp.sin(jnp.linspace(0.0, 3.0, 8))
print(ema(0.8, xs))
print(jax.grad(lambda a: ema(a, xs).sum())(0.8))
print(jax.jacfwd(lambda a: ema(a, xs)[-1])(0.8))

# a scan with a pytree carry and stacked outputs
def rnn_step(carry, x):
    h, count = carry["h"], carry["count"]
    h = jnp.tanh(0.5 * h + x)
    return {"h": h, "count": count + 1}, (h, h.sum())


final, (hs, sums) = lax.scan(rnn_step, {"h": jnp.zeros(2), "count": 0},
                             jnp.arange(6.0).reshape(3, 2) / 4)
print(final, hs, sums)

print(lax.map(lambda x: x ** 2 + 1, jnp.arange(4)))
print(lax.associative_scan(jnp.add, jnp.arange(1, 7)))
print(lax.cummax(jnp.array([1, 3, 2, 5, 4])), lax.cumsum(jnp.arange(5.0), reverse=True))


# jit with a static argument that controls Python control flow
def power(x, n):
    y = 1.0
    for _ in range(n):
        y = y * x
    return y


power_jit = jax.jit(power, static_argnums=1)
print(power_jit(2.0, 5), jax.grad(power_jit)(2.0, 5))
print(jax.jit(lambda x: jnp.where(x > 1.0, x, x ** 2))(jnp.array([0.5, 2.0])))

try:
    jax.jit(lambda x: x if x > 0 else -x)(1.0)
except jax.errors.TracerBoolConversionError:
    print("TracerBoolConversionError")
try:
    jax.jit(lambda x: jnp.zeros(x))(3)
except TypeError as err:
    print("TypeError", type(err).__name__)
