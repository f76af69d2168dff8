"""jax.debug.print and jax.debug.callback inside transformed code, as used for tracing
training loops: prints inside jit, fori_loop, scan, while_loop, cond branches, vmap (one
print per batch element), grad (printing primal values), ordered=True, format specs, pytree
arguments, and host callbacks that accumulate into a Python list; each jitted call's prints
are flushed before the next line of Python output (jax.effects_barrier)."""

import jax
import jax.numpy as jnp
from jax import lax

log = []


def record(tag, x):
    log.append((tag, round(float(x), 6)))


@jax.jit
def loop(x):
    def body(i, c):
        jax.debug.print("step {i}: c={c:.4f}", i=i, c=c, ordered=True)
        return c * 0.5 + i
    return lax.fori_loop(0, 4, body, x)


print("loop result:", loop(3.0))
jax.effects_barrier()


def scan_body(carry, x):
    jax.debug.callback(record, "scan", carry)
    return carry + x, carry * x


total, prods = jax.jit(lambda xs: lax.scan(scan_body, 0.0, xs))(jnp.arange(1.0, 5.0))
jax.effects_barrier()
print("scan:", total, prods)
print("callback log:", log)


@jax.jit
def collatz(n):
    def cond(s):
        return s[0] != 1

    def body(s):
        n, k = s
        jax.debug.print("n={n}", n=n, ordered=True)
        return jnp.where(n % 2 == 0, n // 2, 3 * n + 1), k + 1
    return lax.while_loop(cond, body, (n, 0))[1]


print("collatz steps:", collatz(6))
jax.effects_barrier()


def branchy(x):
    return lax.cond(x > 0,
                    lambda v: (jax.debug.print("positive {}", v), v * 2)[1],
                    lambda v: (jax.debug.print("non-positive {}", v), -v)[1], x)


print("cond:", jax.jit(branchy)(2.0))
jax.effects_barrier()
print("cond:", jax.jit(branchy)(-1.5))
jax.effects_barrier()


def f(x):
    y = jnp.sin(x) * x
    jax.debug.print("primal y={y:.5f}", y=y)
    return y


print("grad:", jax.grad(f)(1.0))
jax.effects_barrier()
print("vmap:", jax.vmap(lambda v: (jax.debug.print("elem {v}", v=v), v ** 2)[1])(jnp.arange(3.0)))
jax.effects_barrier()
jax.debug.print("tree {t}", t={"a": jnp.arange(2), "b": (1.5, jnp.ones(2))})
jax.debug.print("fmt {x:>8.3f}|{y:d}", x=jnp.pi, y=jnp.int32(7))
jax.effects_barrier()

acc = []
jax.jit(lambda xs: jax.debug.callback(lambda v: acc.append(v.sum()), xs))(jnp.arange(5.0))
jax.effects_barrier()
print("callback saw:", acc)
