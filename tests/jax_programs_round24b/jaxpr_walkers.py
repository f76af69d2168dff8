"""JAX's "Understanding jaxprs" and "Writing custom Jaxpr interpreters", the sub-jaxpr part:
the printed jaxprs of ``jit``, ``scan``, ``cond``, ``while_loop``, ``custom_jvp`` and
closed-over constants, a walker that recurses into the sub-jaxprs found in ``eqn.params`` to count
primitives and estimate flops from ``var.aval`` shapes, ``make_jaxpr(static_argnums=,
return_shape=True)``, and ``jax.extend.core.jaxpr_as_fun`` round trips."""

import jax
import jax.extend
import jax.numpy as jnp
from jax import lax


def show(title, fun, *args, **kwargs):
    print(f"--- {title}")
    print(jax.make_jaxpr(fun, **kwargs)(*args))


def mlp(w, b, x):
    return jnp.tanh(x @ w + b[None, :]).sum()


show("mlp", mlp, jnp.ones((3, 2)), jnp.zeros(2), jnp.ones((4, 3)))
show("jit inside", lambda x: jax.jit(lambda y: y * 2.0 + 1.0)(x) - 1.0, jnp.ones(3))


def cumulative(xs):
    def body(carry, x):
        carry = carry + x
        return carry, carry * carry
    return lax.scan(body, 0.0, xs)


show("scan", cumulative, jnp.arange(5.0))
show("cond", lambda p, x: lax.cond(p, jnp.sin, jnp.cos, x), True, 1.0)
show("while", lambda n, x: lax.while_loop(lambda c: c[0] < n, lambda c: (c[0] + 1, c[1] * 2.0), (n - n, x)),
     5, 1.0)
show("fori", lambda x: lax.fori_loop(0, 3, lambda i, v: v * 0.5 + 1.0, x), 1.0)
show("static argnums", lambda x, n: x ** n, 2.0, 3, static_argnums=(1,))


@jax.custom_jvp
def soft_relu(x):
    return jnp.log1p(jnp.exp(x))


soft_relu.defjvp(lambda p, t: (soft_relu(p[0]), t[0] * jax.nn.sigmoid(p[0])))
show("custom_jvp", soft_relu, 1.0)
c = jnp.array([1.0, 2.0, 3.0])
show("closed-over constant", lambda x: x * c, jnp.ones(3))

closed, shape = jax.make_jaxpr(mlp, return_shape=True)(jnp.ones((3, 2)), jnp.zeros(2), jnp.ones((4, 3)))
print("return_shape:", shape)
print("consts of the closed-over program:", jax.make_jaxpr(lambda x: x * c)(jnp.ones(3)).consts)


def sub_jaxprs(eqn):
    """The jaxprs an equation's parameters carry (jit, scan, while, cond, custom rules...)."""
    found = []
    for value in eqn.params.values():
        for item in value if isinstance(value, tuple) else (value,):
            if hasattr(item, "eqns"):
                found.append(item)
            elif hasattr(item, "jaxpr") and hasattr(item.jaxpr, "eqns"):
                found.append(item.jaxpr)
    return found


def count(jaxpr, depth=0, counts=None):
    counts = {} if counts is None else counts
    for eqn in jaxpr.eqns:
        key = ("  " * depth) + eqn.primitive.name
        counts[key] = counts.get(key, 0) + 1
        for sub in sub_jaxprs(eqn):
            count(sub, depth + 1, counts)
    return counts


def flops(jaxpr):
    total = 0
    for eqn in jaxpr.eqns:
        out = eqn.outvars[0].aval
        if eqn.primitive.name == "dot_general":
            (contract, _), _ = eqn.params["dimension_numbers"]
            k = 1
            for d in contract:
                k *= eqn.invars[0].aval.shape[d]
            total += 2 * k * out.size
        elif eqn.primitive.name in ("add", "sub", "mul", "div", "tanh", "exp", "sin", "cos", "max"):
            total += out.size
        elif eqn.primitive.name == "scan":
            total += eqn.params["length"] * flops(eqn.params["jaxpr"].jaxpr)
        for sub in sub_jaxprs(eqn):
            if eqn.primitive.name not in ("scan",):
                total += flops(sub)
    return total


def train_step(w, x):
    h = jnp.tanh(x @ w)
    shift = lambda v: jnp.concatenate([v[-1:], v[:-1]])  # noqa: E731
    smoothed = lax.fori_loop(0, 4, lambda i, v: 0.5 * v + 0.5 * shift(v), h)
    return lax.cond(smoothed.sum() > 0, lambda s: s @ w.T, lambda s: -(s @ w.T), smoothed)


jx = jax.make_jaxpr(jax.jit(train_step))(jnp.ones((8, 4)), jnp.ones((16, 8)))
for name, n in count(jx.jaxpr).items():
    print(f"{name}: {n}")
print("flops of mlp:", flops(jax.make_jaxpr(mlp)(jnp.ones((3, 2)), jnp.zeros(2), jnp.ones((4, 3))).jaxpr))
print("flops of scan:", flops(jax.make_jaxpr(cumulative)(jnp.arange(5.0)).jaxpr))
print("flops of train step:", flops(jx.jaxpr))

# in and out avals, var counts, and evaluating a closed jaxpr as a function
cj = jax.make_jaxpr(cumulative)(jnp.arange(5.0))
print("in_avals:", cj.in_avals, "out_avals:", cj.out_avals)
print("invars/outvars:", len(cj.jaxpr.invars), len(cj.jaxpr.outvars), "eqns:", len(cj.jaxpr.eqns))
scan_eqn = cj.jaxpr.eqns[0]
names = ("jaxpr", "length", "num_carry", "num_consts", "reverse")
print("scan params:", [k in scan_eqn.params for k in names],
      scan_eqn.params["length"], scan_eqn.params["num_carry"], scan_eqn.params["reverse"])
print("body in avals:", scan_eqn.params["jaxpr"].in_avals)
as_fun = jax.extend.core.jaxpr_as_fun(cj)
print("jaxpr_as_fun:", as_fun(jnp.arange(5.0)))
print("jit(jaxpr_as_fun):", jax.jit(as_fun)(jnp.arange(1.0, 6.0)))
print("grad through it:", jax.grad(lambda v: as_fun(v)[1].sum())(jnp.arange(5.0)))
