"""JAX's "Writing custom Jaxpr interpreters": make_jaxpr, walking a jaxpr's equations,
evaluating it with primitive.bind, an inverse interpreter keyed on lax primitives, and
composing the interpreter with jit, grad and vmap."""

from functools import wraps

import jax
import jax.numpy as jnp
from jax import lax


def f(x):
    return jnp.exp(jnp.tanh(x))


closed_jaxpr = jax.make_jaxpr(f)(jnp.ones(5))
jaxpr = closed_jaxpr.jaxpr
print(len(jaxpr.invars), len(jaxpr.outvars), len(jaxpr.constvars), len(closed_jaxpr.literals))
print([eqn.primitive.name for eqn in jaxpr.eqns])
print(closed_jaxpr.in_avals, closed_jaxpr.out_avals)
print([eqn.primitive is lax.tanh_p for eqn in jaxpr.eqns], [eqn.primitive is lax.exp_p for eqn in jaxpr.eqns])


def eval_jaxpr(jaxpr, consts, *args):
    env = {}

    def read(var):
        if type(var).__name__ == "Literal":  # jax.extend.core.Literal
            return var.val
        return env[var]

    def write(var, val):
        env[var] = val

    for v, a in zip(jaxpr.invars, args):
        write(v, a)
    for v, c in zip(jaxpr.constvars, consts):
        write(v, c)
    for eqn in jaxpr.eqns:
        invals = [read(v) for v in eqn.invars]
        outvals = eqn.primitive.bind(*invals, **eqn.params)
        if not eqn.primitive.multiple_results:
            outvals = [outvals]
        for v, val in zip(eqn.outvars, outvals):
            write(v, val)
    return [read(v) for v in jaxpr.outvars]


x = jnp.array([0.1, 0.5, -1.0, 2.0, 0.0])
print(eval_jaxpr(closed_jaxpr.jaxpr, closed_jaxpr.literals, x))
print(f(x))


def g(x, y):
    return jnp.sin(x) * y + 2.0 * x - y / 3.0


cj = jax.make_jaxpr(g)(1.0, 2.0)
print([eqn.primitive.name for eqn in cj.jaxpr.eqns])
print(eval_jaxpr(cj.jaxpr, cj.literals, 0.7, -1.5)[0], g(0.7, -1.5))
print(jax.jit(lambda a, b: eval_jaxpr(cj.jaxpr, cj.literals, a, b)[0])(0.7, -1.5))
print(jax.grad(lambda a: eval_jaxpr(cj.jaxpr, cj.literals, a, 2.0)[0])(0.3), jax.grad(g)(0.3, 2.0))

# the inverse interpreter
inverse_registry = {lax.exp_p: jnp.log, lax.tanh_p: jnp.arctanh, lax.sin_p: jnp.arcsin}


def inverse(fun):
    @wraps(fun)
    def wrapped(*args, **kwargs):
        closed = jax.make_jaxpr(fun)(*args, **kwargs)
        return inverse_jaxpr(closed.jaxpr, closed.literals, *args)[0]
    return wrapped


def inverse_jaxpr(jaxpr, consts, *args):
    env = {}

    def read(var):
        if type(var).__name__ == "Literal":
            return var.val
        return env[var]

    for v, a in zip(jaxpr.outvars, args):
        env[v] = a
    for v, c in zip(jaxpr.constvars, consts):
        env[v] = c
    for eqn in jaxpr.eqns[::-1]:
        invals = [read(v) for v in eqn.outvars]
        if eqn.primitive not in inverse_registry:
            raise NotImplementedError(f"{eqn.primitive} does not have registered inverse.")
        outval = inverse_registry[eqn.primitive](*invals)
        env[eqn.invars[0]] = outval
    return [read(v) for v in jaxpr.invars]


f_inv = inverse(f)
y = f(x)
print(f_inv(y))
print(jax.jit(inverse(f))(y))
print(jax.vmap(inverse(f))(jnp.stack([y, y * 1.1])))
print(jax.grad(lambda v: inverse(f)(v).sum())(y))
print(inverse(lambda v: jnp.sin(jnp.exp(v)))(jnp.array([0.5, 0.9])))
try:
    inverse(lambda v: v * 2.0)(jnp.ones(2))
except NotImplementedError:
    print("NotImplementedError: mul has no inverse")


# counting primitives, and reading parameters a program can rely on
def count_prims(fun, *args):
    counts = {}
    for eqn in jax.make_jaxpr(fun)(*args).jaxpr.eqns:
        counts[eqn.primitive.name] = counts.get(eqn.primitive.name, 0) + 1
    return dict(sorted(counts.items()))


print(count_prims(lambda a: jnp.exp(a) + jnp.exp(2.0 * a) * jnp.sin(a), jnp.ones(3)))
print(jax.make_jaxpr(lambda a, b: a * b + a)(1.0, 2.0).out_avals)
print(lax.add_p.name, lax.mul_p.name, lax.exp_p.name, lax.add_p.multiple_results)
print(lax.add_p.bind(jnp.float32(1.5), jnp.float32(2.0)), lax.mul_p.bind(jnp.arange(3), jnp.arange(3)))
print(lax.exp_p.bind(jnp.zeros(2)), lax.max_p.bind(jnp.array([1.0, 5.0]), jnp.array([3.0, 2.0])))
