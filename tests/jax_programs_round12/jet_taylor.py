"""The `jax.experimental.jet` Taylor-mode page: Taylor coefficients of compositions against
repeated derivatives, the jet of sin/exp/log/tanh/logistic/pow, jets of jitted functions and
higher-order derivatives of a scalar function by one jet call."""

import math

import jax
import jax.numpy as jnp
from jax.experimental.jet import jet


def f(x):
    return jnp.sin(jnp.exp(0.3 * x)) * jnp.log1p(x * x)


x0 = 0.7
d1 = jax.grad(f)
d2 = jax.grad(d1)
d3 = jax.grad(d2)
d4 = jax.grad(d3)
primal_out, series_out = jet(f, (x0,), ((1.0, 0.0, 0.0, 0.0),))
print(primal_out, jnp.stack(series_out))
print(f(x0), [d1(x0), d2(x0), d3(x0), d4(x0)])

for name, g in [
    ("sin", jnp.sin),
    ("cos", jnp.cos),
    ("exp", jnp.exp),
    ("log", jnp.log),
    ("tanh", jnp.tanh),
    ("logistic", jax.nn.sigmoid),
    ("sqrt", jnp.sqrt),
    ("expm1", jnp.expm1),
    ("log1p", jnp.log1p),
    ("sq", lambda v: v * v),
    ("recip", lambda v: 1.0 / v),
    ("erf", jax.scipy.special.erf),
]:
    p, s = jet(g, (0.8,), ((1.0, 0.5, -0.25),))
    print(name, p, jnp.stack(s))

# vector inputs and several series terms
xs = jnp.linspace(0.1, 1.0, 4)
p, s = jet(lambda v: jnp.sum(jnp.tanh(v) * v), (xs,), ((jnp.ones(4), jnp.zeros(4), jnp.zeros(4)),))
print(p, jnp.stack(s))
p, s = jet(lambda v: jnp.exp(v) @ jnp.arange(4.0), (xs,), ((xs, xs**2),))
print(p, jnp.stack(s))

# the n-th Taylor coefficient of exp is 1/n!, of log(1+x) is (-1)^(n+1)/n at 0 (times n!)
p, s = jet(jnp.exp, (0.0,), ([1.0] + [0.0] * 5,))
print(p, jnp.stack(s), [1.0] * 6)
p, s = jet(jnp.log1p, (0.0,), ([1.0] + [0.0] * 4,))
print(p, jnp.stack(s), [(-1) ** (n + 1) * math.factorial(n - 1) for n in range(1, 6)])

# jet of a jitted function and of lax primitives
jf = jax.jit(lambda v: jnp.maximum(v, 0.2) * jnp.sin(v) + v**3)
p, s = jet(jf, (0.5,), ((1.0, 0.0, 0.0),))
print(p, jnp.stack(s))
p, s = jet(lambda a, b: a * b + jnp.exp(a - b), (0.3, 0.4), ((1.0, 0.0), (0.0, 1.0)))
print(p, jnp.stack(s))


# a vector of derivatives of a function at many points: vmap over jet
def taylor_derivs(g, x, order):
    _, s = jet(g, (x,), ([1.0] + [0.0] * (order - 1),))
    return jnp.stack(s)


print(jax.vmap(lambda t: taylor_derivs(jnp.sin, t, 4))(jnp.array([0.0, 0.5, 1.0])))
