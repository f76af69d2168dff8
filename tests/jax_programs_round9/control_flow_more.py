"""Structured control flow beyond round 8's: cond with several operands and pytrees, switch
under vmap and grad, fori_loop with pytree carries and unrolling, while_loop with a tuple
state, scan with reverse/unroll/length and pytree xs, lax.map with batch_size, and loops
differentiated with grad, jacfwd and jacrev."""

import jax
import jax.numpy as jnp
from jax import lax

# cond with several operands and pytree outputs
def branch_true(a, b, p):
    return {"s": a + b, "p": p["w"] * a}


def branch_false(a, b, p):
    return {"s": a - b, "p": p["w"] / b}


params = {"w": jnp.array([1.0, 2.0])}
print(lax.cond(True, branch_true, branch_false, 3.0, 2.0, params))
print(lax.cond(jnp.array(0), branch_true, branch_false, 3.0, 2.0, params))
print(jax.jit(lambda x: lax.cond(x > 1, branch_true, branch_false, x, 2.0, params))(0.5))
print(jax.grad(lambda x: lax.cond(x > 1, lambda v: jnp.sin(v) * v, lambda v: v ** 3, x))(2.0))
print(jax.vmap(lambda x: lax.cond(x > 0, jnp.sin, jnp.cos, x))(jnp.array([-1.0, 0.5, 2.0])))

# switch: index clamped, under vmap and grad
branches = [lambda x: x ** 2, lambda x: jnp.sin(x), lambda x: -x, lambda x: jnp.exp(-x)]
idx = jnp.array([0, 1, 2, 3, 7, -2])
print(jax.vmap(lambda i, x: lax.switch(i, branches, x))(idx, jnp.linspace(0.5, 3.0, 6)))
print(jax.grad(lambda x, i: lax.switch(i, branches, x))(1.5, 1))
print(jax.jit(lambda i: lax.switch(i, branches, 2.0))(3))

# fori_loop: pytree carry, static and traced bounds, unroll
def body(i, carry):
    x, acc = carry
    return x * 1.5, acc + x * i


print(lax.fori_loop(0, 5, body, (jnp.array(1.0), jnp.array(0.0))))
print(lax.fori_loop(0, 6, lambda i, v: v + i, 0, unroll=2))
print(jax.jit(lambda n: lax.fori_loop(0, n, lambda i, v: v * 2 + i, 1))(10))
print(jax.grad(lambda x: lax.fori_loop(0, 4, lambda i, v: jnp.sin(v) + x, x))(0.3))
print(jax.jacfwd(lambda x: lax.fori_loop(0, 3, lambda i, v: v * x, jnp.ones(2)))(jnp.array(2.0)))


# while_loop with a tuple state: Newton's method and gcd
def newton_sqrt(a):
    def cond(state):
        x, n = state
        return (jnp.abs(x * x - a) > 1e-5 * a) & (n < 50)

    def step(state):
        x, n = state
        return 0.5 * (x + a / x), n + 1

    return lax.while_loop(cond, step, (a, 0))


print(newton_sqrt(2.0), jax.vmap(newton_sqrt)(jnp.array([1.0, 9.0, 100.0])))


def gcd(a, b):
    return lax.while_loop(lambda s: s[1] != 0, lambda s: (s[1], s[0] % s[1]), (a, b))[0]


print(gcd(48, 18), jax.vmap(gcd)(jnp.array([12, 17, 100]), jnp.array([8, 5, 75])))


# scan: cumulative ops, reverse, unroll, length without xs, pytree xs
def cumsum_step(c, x):
    c = c + x
    return c, c


xs = jnp.arange(1.0, 6.0)
print(lax.scan(cumsum_step, 0.0, xs))
print(lax.scan(cumsum_step, 0.0, xs, reverse=True))
print(lax.scan(cumsum_step, 0.0, xs, unroll=3)[1])
print(lax.scan(lambda c, _: (c * 2, c), 1.0, None, length=4))
print(lax.scan(lambda c, x: (c + x["a"] * x["b"], x["a"] - c), 0.0,
               {"a": jnp.arange(3.0), "b": jnp.array([2.0, 3.0, 4.0])}))


def rnn_step(h, x, W=jnp.array([[0.5, -0.3], [0.2, 0.8]]), U=jnp.array([1.0, -1.0])):
    h = jnp.tanh(W @ h + U * x)
    return h, h.sum()


def rnn_loss(x_seq):
    h, outs = lax.scan(rnn_step, jnp.zeros(2), x_seq)
    return jnp.sum(outs ** 2) + h @ h


seq = jnp.array([0.5, -1.0, 2.0, 0.1])
print(rnn_loss(seq), jax.grad(rnn_loss)(seq))
print(jnp.round(jax.jacrev(lambda s: lax.scan(rnn_step, jnp.zeros(2), s)[1])(seq[:3]), 5))
print(jax.vmap(rnn_loss)(jnp.stack([seq, -seq])))

# lax.map, with batch_size
print(lax.map(lambda x: x ** 2 + 1, jnp.arange(5.0)))
print(lax.map(lambda x: jnp.outer(x, x).sum(), jnp.arange(12.0).reshape(6, 2), batch_size=4))
print(lax.map(lambda p: p["a"] * p["b"], {"a": jnp.arange(3.0), "b": jnp.ones(3) * 2}))

# associative_scan and cumulative reductions
print(lax.associative_scan(jnp.add, jnp.arange(1.0, 7.0)))
print(lax.associative_scan(jnp.maximum, jnp.array([1, 3, 2, 5, 4])))
print(lax.associative_scan(lambda a, b: a * b, jnp.arange(1.0, 6.0), reverse=True))
print(lax.cumsum(jnp.arange(4.0), reverse=True), lax.cummin(jnp.array([3.0, 1.0, 2.0, 0.5])))
