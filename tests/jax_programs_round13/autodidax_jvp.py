"""An Autodidax-style forward-mode interpreter over jaxprs (as in JAX's "Autodidax: JAX core
from scratch" and "Writing custom Jaxpr interpreters"): a table of JVP rules keyed by
primitive name, an interpreter that walks `jax.make_jaxpr(f)(x).jaxpr` equation by
equation (invars, constvars, Literal operands via jax.extend.core.Literal, params), nested
pjit/custom_jvp_call equations recursed into, and its results checked against jax.jvp; plus
a FLOP-counting interpreter and an evaluation interpreter that logs each primitive."""

import jax
import jax.numpy as jnp
from jax.extend import core as jcore


def jvp_rules():
    def mul(x, y, dx, dy, **_):
        return x * y, dx * y + x * dy

    return {
        "sin": lambda x, dx, **_: (jnp.sin(x), jnp.cos(x) * dx),
        "cos": lambda x, dx, **_: (jnp.cos(x), -jnp.sin(x) * dx),
        "exp": lambda x, dx, **_: (jnp.exp(x), jnp.exp(x) * dx),
        "log": lambda x, dx, **_: (jnp.log(x), dx / x),
        "tanh": lambda x, dx, **_: (jnp.tanh(x), (1 - jnp.tanh(x) ** 2) * dx),
        "neg": lambda x, dx, **_: (-x, -dx),
        "add": lambda x, y, dx, dy, **_: (x + y, dx + dy),
        "sub": lambda x, y, dx, dy, **_: (x - y, dx - dy),
        "mul": mul,
        "div": lambda x, y, dx, dy, **_: (x / y, dx / y - x * dy / y ** 2),
        "integer_pow": lambda x, dx, *, y, **_: (x ** y, y * x ** (y - 1) * dx),
        "reduce_sum": lambda x, dx, *, axes, **_: (jnp.sum(x, axes), jnp.sum(dx, axes)),
        "dot_general": lambda x, y, dx, dy, **p: (
            jax.lax.dot_general(x, y, p["dimension_numbers"]),
            jax.lax.dot_general(dx, y, p["dimension_numbers"])
            + jax.lax.dot_general(x, dy, p["dimension_numbers"])),
        "broadcast_in_dim": lambda x, dx, **p: (
            jax.lax.broadcast_in_dim(x, p["shape"], p["broadcast_dimensions"]),
            jax.lax.broadcast_in_dim(dx, p["shape"], p["broadcast_dimensions"])),
    }


RULES = jvp_rules()


def read(env, v):
    return v.val if isinstance(v, jcore.Literal) else env[v]


def jvp_jaxpr(jaxpr, consts, primals, tangents):
    env, tenv = {}, {}
    for v, c in zip(jaxpr.constvars, consts):
        env[v], tenv[v] = c, jnp.zeros_like(c)
    for v, p, t in zip(jaxpr.invars, primals, tangents):
        env[v], tenv[v] = p, t
    for eqn in jaxpr.eqns:
        xs = [read(env, v) for v in eqn.invars]
        ts = [jnp.zeros_like(jnp.asarray(v.val)) if isinstance(v, jcore.Literal) else tenv[v]
              for v in eqn.invars]
        name = eqn.primitive.name
        if name in ("pjit", "jit", "custom_jvp_call"):
            inner = eqn.params["jaxpr"] if "jaxpr" in eqn.params else eqn.params["call_jaxpr"]
            outs, touts = jvp_jaxpr(inner.jaxpr, inner.consts, xs, ts)
        else:
            params = dict(eqn.params)
            out, tout = RULES[name](*xs, *ts, **params)
            outs, touts = [out], [tout]
        for v, o, t in zip(eqn.outvars, outs, touts):
            env[v], tenv[v] = o, t
    return [read(env, v) for v in jaxpr.outvars], [
        jnp.zeros(()) if isinstance(v, jcore.Literal) else tenv[v] for v in jaxpr.outvars]


def my_jvp(f, primals, tangents):
    closed = jax.make_jaxpr(f)(*primals)
    outs, touts = jvp_jaxpr(closed.jaxpr, closed.consts, primals, tangents)
    return outs[0], touts[0]


def f(x):
    y = jnp.sin(x) * 2.0 + jnp.exp(-x) / (1.0 + x ** 2)
    return jnp.tanh(y).sum()


x = jnp.array([0.1, 0.5, 1.5])
t = jnp.array([1.0, -1.0, 0.5])
closed = jax.make_jaxpr(f)(x)
print("primitives", [e.primitive.name for e in closed.jaxpr.eqns])
print("literals", sorted({str(v.val) for e in closed.jaxpr.eqns for v in e.invars
                          if isinstance(v, jcore.Literal)}))
ours = my_jvp(f, (x,), (t,))
theirs = jax.jvp(f, (x,), (t,))
print("ours", jnp.round(ours[0], 5), jnp.round(ours[1], 5))
print("jax.jvp agrees", jnp.allclose(ours[0], theirs[0]), jnp.allclose(ours[1], theirs[1], atol=1e-6))

W = jnp.arange(6.0).reshape(3, 2) / 10


def layer(x):
    return jnp.sum(jnp.tanh(x @ W) ** 2)


print("matmul jvp", jnp.allclose(my_jvp(layer, (x,), (t,))[1], jax.jvp(layer, (x,), (t,))[1], atol=1e-6))


def nested(x):
    return jax.jit(lambda z: jnp.cos(z) * z)(x).sum()


print("nested", [e.primitive.name for e in jax.make_jaxpr(nested)(x).jaxpr.eqns])
print("nested jvp", jnp.allclose(my_jvp(nested, (x,), (t,))[1], jax.jvp(nested, (x,), (t,))[1]))
print("jit of interpreter", jnp.round(jax.jit(lambda x, t: my_jvp(f, (x,), (t,)))(x, t)[1], 5))

FLOPS = {"add": 1, "sub": 1, "mul": 1, "div": 1, "neg": 1, "sin": 10, "cos": 10, "exp": 10,
         "tanh": 10, "integer_pow": 2}


def count_flops(jaxpr):
    total = 0
    for eqn in jaxpr.eqns:
        size = max([1] + [int(jnp.size(jnp.zeros(v.aval.shape))) for v in eqn.outvars])
        if eqn.primitive.name == "dot_general":
            (lc, _), _ = eqn.params["dimension_numbers"]
            k = 1
            for a in lc:
                k *= eqn.invars[0].aval.shape[a]
            total += 2 * size * k
        elif eqn.primitive.name == "reduce_sum":
            total += int(jnp.size(jnp.zeros(eqn.invars[0].aval.shape)))
        else:
            total += FLOPS.get(eqn.primitive.name, 0) * size
    return total


print("flops f", count_flops(closed.jaxpr), "flops layer", count_flops(jax.make_jaxpr(layer)(x).jaxpr))
print("avals", [str(v.aval) for v in closed.jaxpr.invars], [str(v.aval) for v in closed.jaxpr.outvars])
