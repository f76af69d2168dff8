"""JAX's "Writing custom Jaxpr interpreters in JAX" notebook, cell by cell (rewritten, same
operations; ``jax._src.util.safe_map`` -- a private helper -- is replaced by a local one):
the structure of a closed jaxpr (invars, outvars, constvars, equations and their params),
an evaluator of jaxprs that binds primitives, and an ``inverse`` transformation by
interpreting a jaxpr backwards, composed with jit, vmap and grad."""

import re
from functools import wraps

import numpy as np  # noqa: F401
import jax
import jax.numpy as jnp
from jax import grad, jit, lax, random, vmap
from jax.extend import core


def safe_map(f, *xs):
    assert len({len(x) for x in xs}) == 1
    return list(map(f, *xs))


x = random.normal(random.key(0), (50, 50))


def f(w, b, x):
    return jnp.tanh(jnp.dot(x, w) + b)


fast_f = jit(f)
print(fast_f(jnp.eye(50), 0.5, x).sum())


def show(*items):
    """print, with variables' ids (memory addresses) masked and JAX's typed-int literals
    (``TypedInt(1, dtype=int32)``, internal) shown by value."""
    text = " ".join(map(str, items))
    text = re.sub(r"TypedInt\((\d+), dtype=\w+\)", r"\1", re.sub(r"id=\d+", "id=_", text))
    print(text)


def examine_jaxpr(closed_jaxpr):
    jaxpr = closed_jaxpr.jaxpr
    show("invars:", jaxpr.invars)
    show("outvars:", jaxpr.outvars)
    show("constvars:", jaxpr.constvars)
    for eqn in jaxpr.eqns:
        # JAX's params also hold its defaults (precision=None, out_sharding=None,
        # sharding=None, preferred_element_type): print the ones every implementation holds
        params = {k: v for k, v in eqn.params.items() if v is not None and k != "preferred_element_type"}
        show("equation:", eqn.invars, eqn.primitive, eqn.outvars, params)
    print()
    print("jaxpr:", jaxpr)


def foo(x):
    return x + 1


print("foo")
print("=====")
examine_jaxpr(jax.make_jaxpr(foo)(5))
print()


def bar(w, b, x):
    return jnp.dot(w, x) + b + jnp.ones(5), x


print("bar")
print("=====")
examine_jaxpr(jax.make_jaxpr(bar)(jnp.ones((5, 10)), jnp.ones(5), jnp.ones(10)))


def f(x):  # noqa: F811
    return jnp.exp(jnp.tanh(x))


closed_jaxpr = jax.make_jaxpr(f)(jnp.ones(5))
print(closed_jaxpr.jaxpr)
print(closed_jaxpr.literals)


def eval_jaxpr(jaxpr, consts, *args):
    env = {}

    def read(var):
        if type(var) is core.Literal:
            return var.val
        return env[var]

    def write(var, val):
        env[var] = val

    safe_map(write, jaxpr.invars, args)
    safe_map(write, jaxpr.constvars, consts)
    for eqn in jaxpr.eqns:
        invals = safe_map(read, eqn.invars)
        outvals = eqn.primitive.bind(*invals, **eqn.params)
        if not eqn.primitive.multiple_results:
            outvals = [outvals]
        safe_map(write, eqn.outvars, outvals)
    return safe_map(read, jaxpr.outvars)


closed_jaxpr = jax.make_jaxpr(f)(jnp.ones(5))
print(eval_jaxpr(closed_jaxpr.jaxpr, closed_jaxpr.literals, jnp.ones(5)))

inverse_registry = {}
inverse_registry[lax.exp_p] = jnp.log
inverse_registry[lax.tanh_p] = jnp.arctanh


def inverse(fun):
    @wraps(fun)
    def wrapped(*args, **kwargs):
        closed_jaxpr = jax.make_jaxpr(fun)(*args, **kwargs)
        out = inverse_jaxpr(closed_jaxpr.jaxpr, closed_jaxpr.literals, *args)
        return out[0]
    return wrapped


def inverse_jaxpr(jaxpr, consts, *args):
    env = {}

    def read(var):
        if type(var) is core.Literal:
            return var.val
        return env[var]

    def write(var, val):
        env[var] = val

    safe_map(write, jaxpr.outvars, args)
    safe_map(write, jaxpr.constvars, consts)
    for eqn in jaxpr.eqns[::-1]:
        invals = safe_map(read, eqn.outvars)
        if eqn.primitive not in inverse_registry:
            raise NotImplementedError(f"{eqn.primitive} does not have registered inverse.")
        outval = inverse_registry[eqn.primitive](*invals)
        safe_map(write, eqn.invars, [outval])
    return safe_map(read, jaxpr.invars)


def f(x):  # noqa: F811
    return jnp.exp(jnp.tanh(x))


f_inv = inverse(f)
assert jnp.allclose(f_inv(f(1.0)), 1.0)
print(f_inv(f(1.0)))
print(jax.make_jaxpr(inverse(f))(f(1.)))
print(jit(vmap(grad(inverse(f))))((jnp.arange(5) + 1.) / 5.))
try:
    inverse(lambda x: jnp.sin(x))(1.0)
except NotImplementedError as e:
    print("NotImplementedError:", e)
