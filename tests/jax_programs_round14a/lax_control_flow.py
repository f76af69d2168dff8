"""The jax.lax control-flow reference and the "Control flow and logical operators with JIT"
page: cond with several operands and pytrees, switch with clamped indices, while_loop,
fori_loop (static and traced bounds), scan with a pytree carry, reverse=True, unroll, length
without xs, ys of None, lax.map with batch_size, associative_scan (cumsum, cummax, a linear
recurrence as a pair operator, reverse, axis), their derivatives, and the errors of bad carry
types and mismatched branches."""

import jax
import jax.numpy as jnp
from jax import lax


def f(pred, x, y):
    return lax.cond(pred, lambda x, y: x + y, lambda x, y: x - y, x, y)


print(f(True, 1.0, 2.0), f(False, 1.0, 2.0), jax.jit(f)(jnp.array(True), 3.0, 1.0))
print(lax.cond(jnp.array(0), lambda d: d["a"] * 2, lambda d: d["b"], {"a": jnp.ones(2), "b": jnp.zeros(2)}))
branches = [lambda x: x + 1.0, lambda x: x * 10.0, lambda x: -x]
print([float(lax.switch(i, branches, 2.0)) for i in range(-1, 5)])
print(jax.vmap(lambda i, x: lax.switch(i, branches, x))(jnp.array([0, 1, 2, 7]), jnp.arange(4.0)))
print(
    jax.grad(lambda x: lax.switch(1, branches, x))(3.0),
    jax.grad(lambda x: lax.cond(x > 0, jnp.sin, jnp.cos, x))(1.0),
)


def collatz_steps(n):
    def body(c):
        n, k = c
        return jnp.where(n % 2 == 0, n // 2, 3 * n + 1), k + 1

    return lax.while_loop(lambda c: c[0] != 1, body, (n, 0))[1]


print(collatz_steps(27), jax.vmap(collatz_steps)(jnp.array([1, 6, 7, 27])))
print(lax.fori_loop(0, 10, lambda i, acc: acc + i * i, 0))
print(jax.jit(lambda n: lax.fori_loop(0, n, lambda i, acc: acc * 2.0, 1.0))(5))
print(jax.grad(lambda x: lax.fori_loop(0, 3, lambda i, v: jnp.sin(v) * x, x))(0.7))
print(lax.fori_loop(0, 4, lambda i, c: (c[0] + 1, c[1] * 2), (0, 1.0), unroll=2))


def step(carry, x):
    total, count = carry
    total = total + x
    return (total, count + 1), total * 2


(carry, ys) = lax.scan(step, (0.0, 0), jnp.arange(5.0))
print(carry, ys)
print(lax.scan(step, (0.0, 0), jnp.arange(5.0), reverse=True))
print(lax.scan(step, (0.0, 0), jnp.arange(6.0), unroll=3)[1])
print(lax.scan(lambda c, _: (c * 2, c), 1, None, length=5))
print(lax.scan(lambda c, x: (c + x["a"] * x["b"], None), 0.0, {"a": jnp.ones(3), "b": jnp.arange(3.0)}))
print(lax.scan(lambda c, x: (c, (x, x**2)), 0, jnp.arange(3))[1])
xs = jnp.arange(12.0).reshape(4, 3)
print(lax.map(jnp.sum, xs), lax.map(lambda r: r * 2, xs, batch_size=3))


def cumulative_product_grad(x):
    return lax.scan(lambda c, v: (c * v, c * v), 1.0, x)[1].sum()


print(jax.grad(cumulative_product_grad)(jnp.array([1.0, 2.0, 3.0, 0.5])))
x = jnp.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0])
print(lax.associative_scan(jnp.add, x), jnp.cumsum(x))
print(lax.associative_scan(jnp.maximum, x), lax.associative_scan(jnp.add, x, reverse=True))
print(lax.associative_scan(jnp.add, jnp.arange(6.0).reshape(2, 3), axis=1))
print(lax.cummax(x), lax.cummin(x, reverse=True), lax.cumprod(x[:4]), lax.cumlogsumexp(x[:3]))

a = jnp.array([0.5, 0.9, 0.1, 0.7])
b = jnp.array([1.0, 2.0, -1.0, 0.5])


def combine(e1, e2):
    a1, b1 = e1
    a2, b2 = e2
    return a1 * a2, a2 * b1 + b2


print(lax.associative_scan(combine, (a, b))[1])
h, hs = 0.0, []
for ai, bi in zip(a, b):
    h = ai * h + bi
    hs.append(h)
print(jnp.stack(hs))
print(jax.grad(lambda b: lax.associative_scan(combine, (a, b))[1].sum())(b))
try:
    lax.cond(True, lambda: 1.0, lambda: jnp.ones(2))
except TypeError:
    print("TypeError branches")
try:
    lax.while_loop(lambda c: c < 3, lambda c: c + 1.0, 0)
except TypeError:
    print("TypeError carry")
try:
    lax.scan(lambda c, x: (c + x, x), 0, jnp.ones(3))
except TypeError:
    print("TypeError scan carry")
try:
    lax.switch(0, [], 1.0)
except ValueError:
    print("ValueError empty")
print(
    lax.select(jnp.array([True, False]), jnp.ones(2), jnp.zeros(2)),
    lax.select_n(jnp.array([0, 1, 2]), jnp.ones(3), 2 * jnp.ones(3), 3 * jnp.ones(3)),
)
print(
    jax.jit(lambda p: jnp.where(p, 1, 2))(True),
    lax.cond(False, lambda: "unused", lambda: "x") if False else "skip",
)
print(jnp.logical_and(jnp.array([True, False]), jnp.array([True, True])), jnp.any(jnp.array([0, 0, 1])))
