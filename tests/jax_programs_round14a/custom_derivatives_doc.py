"""JAX's "Custom derivative rules for JAX-transformable Python functions" page end to end:
log1pexp's NaN gradient and its custom_jvp fix, the defjvps form, safe_log-style helpers,
custom_jvp with nondiff_argnums, a custom_vjp with residuals (f(x, y) = sin(x) * y), a
clip_gradient, the fixed_point solver with an implicit-function custom_vjp, a custom_jvp
whose rule calls another custom_jvp, and the errors of bad rules."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import custom_jvp, custom_vjp, grad, jit, jvp, vmap


def log1pexp(x):
    return jnp.log(1.0 + jnp.exp(x))


print(log1pexp(3.0), jit(log1pexp)(3.0), jit(grad(log1pexp))(3.0))
print(vmap(jit(grad(log1pexp)))(jnp.arange(3.0)))
print(grad(log1pexp)(100.0))


@custom_jvp
def log1pexp2(x):
    return jnp.log(1.0 + jnp.exp(x))


@log1pexp2.defjvp
def log1pexp2_jvp(primals, tangents):
    (x,), (x_dot,) = primals, tangents
    ans = log1pexp2(x)
    ans_dot = (1 - 1 / (1 + jnp.exp(x))) * x_dot
    return ans, ans_dot


print(grad(log1pexp2)(100.0), jit(grad(jit(log1pexp2)))(3.0), vmap(jit(grad(log1pexp2)))(jnp.arange(3.0)))


@custom_jvp
def log1pexp3(x):
    return jnp.log(1.0 + jnp.exp(x))


log1pexp3.defjvps(lambda t, ans, x: (1 - 1 / (1 + jnp.exp(x))) * t)
print(grad(log1pexp3)(100.0), grad(grad(log1pexp3))(0.5))


@custom_jvp
def f(x, y):
    return jnp.sin(x) * y


f.defjvps(
    lambda x_dot, primal_out, x, y: jnp.cos(x) * x_dot * y, lambda y_dot, primal_out, x, y: jnp.sin(x) * y_dot
)
print(f(2.0, 3.0), jvp(f, (2.0, 3.0), (1.0, 0.0)), grad(f)(2.0, 3.0), grad(f, 1)(2.0, 3.0))


@custom_jvp
def g(x):
    return x


@g.defjvp
def g_jvp(primals, tangents):
    return g(primals[0]), 2.0 * tangents[0]


print(grad(g)(1.0), grad(grad(lambda x: g(x) ** 2))(1.0))


@partial(custom_jvp, nondiff_argnums=(0,))
def app(f, x):
    return f(x)


@app.defjvp
def app_jvp(f, primals, tangents):
    (x,) = primals
    (x_dot,) = tangents
    return f(x), 2.0 * x_dot


print(app(lambda x: x**3, 3.0), grad(app, 1)(lambda x: x**3, 3.0))


@partial(custom_jvp, nondiff_argnums=(0, 1))
def app2(f, n, x):
    return f(x) * n


@app2.defjvp
def app2_jvp(f, n, primals, tangents):
    (x,), (t,) = primals, tangents
    return app2(f, n, x), n * 10.0 * t


print(app2(jnp.sin, 2, 1.0), grad(lambda x: app2(jnp.sin, 2, x))(1.0))


@custom_vjp
def fv(x, y):
    return jnp.sin(x) * y


def fv_fwd(x, y):
    return fv(x, y), (jnp.cos(x), jnp.sin(x), y)


def fv_bwd(res, g):
    cos_x, sin_x, y = res
    return (cos_x * g * y, sin_x * g)


fv.defvjp(fv_fwd, fv_bwd)
print(grad(fv)(2.0, 3.0), grad(fv, (0, 1))(2.0, 3.0))
print(vmap(grad(fv))(jnp.arange(3.0), jnp.ones(3)), jit(grad(fv))(1.0, 2.0))
try:
    jvp(fv, (1.0, 2.0), (1.0, 0.0))
except TypeError as e:
    print("TypeError", "can't apply forward-mode" in str(e))


@custom_vjp
def clip_gradient(lo, hi, x):
    return x


def clip_gradient_fwd(lo, hi, x):
    return x, (lo, hi)


def clip_gradient_bwd(res, g):
    lo, hi = res
    return (None, None, jnp.clip(g, lo, hi))


clip_gradient.defvjp(clip_gradient_fwd, clip_gradient_bwd)
t = jnp.linspace(0, 10, 7)
print(vmap(grad(jnp.sin))(t))
print(vmap(grad(lambda x: clip_gradient(-0.75, 0.75, jnp.sin(x))))(t))


@partial(custom_vjp, nondiff_argnums=(0,))
def fixed_point(f, a, x_guess):
    def cond_fun(carry):
        x_prev, x = carry
        return jnp.abs(x_prev - x) > 1e-6

    def body_fun(carry):
        _, x = carry
        return x, f(a, x)

    _, x_star = jax.lax.while_loop(cond_fun, body_fun, (x_guess, f(a, x_guess)))
    return x_star


def fixed_point_fwd(f, a, x_init):
    x_star = fixed_point(f, a, x_init)
    return x_star, (a, x_star)


def fixed_point_rev(f, res, x_star_bar):
    a, x_star = res
    _, vjp_a = jax.vjp(lambda a: f(a, x_star), a)
    (a_bar,) = vjp_a(fixed_point(partial(rev_iter, f), (a, x_star, x_star_bar), x_star_bar))
    return a_bar, jnp.zeros_like(x_star)


def rev_iter(f, packed, u):
    a, x_star, x_star_bar = packed
    _, vjp_x = jax.vjp(lambda x: f(a, x), x_star)
    return x_star_bar + vjp_x(u)[0]


fixed_point.defvjp(fixed_point_fwd, fixed_point_rev)


def newton_sqrt(a):
    update = lambda a, x: 0.5 * (x + a / x)
    return fixed_point(update, a, a)


print(newton_sqrt(2.0), grad(newton_sqrt)(2.0), grad(grad(newton_sqrt))(2.0))
print(jit(vmap(grad(newton_sqrt)))(jnp.array([1.0, 4.0, 9.0])))


@custom_jvp
def softplus_safe(x):
    return jnp.logaddexp(x, 0.0)


softplus_safe.defjvps(lambda t, ans, x: jax.nn.sigmoid(x) * t)
print(grad(softplus_safe)(-50.0), jax.hessian(softplus_safe)(0.3))


@custom_jvp
def pair(x):
    return x, 2 * x


@pair.defjvp
def pair_jvp(p, t):
    return pair(p[0]), (t[0], 3 * t[0])


print(jax.jacfwd(lambda x: jnp.stack(pair(x)))(1.0), jax.jacrev(lambda x: jnp.stack(pair(x)))(1.0))
