"""JAX's "Custom derivative rules" tutorial: custom_jvp (numerical stability, defjvps with
several arguments, nondiff_argnums, a jvp that calls the function), custom_vjp with residuals,
and differentiating fixed points by the implicit function theorem."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import grad, jit, jvp, vmap


@jax.custom_jvp
def f(x, y):
    return jnp.sin(x) * y


f.defjvps(lambda x_dot, primal_out, x, y: jnp.cos(x) * x_dot * y,
          lambda y_dot, primal_out, x, y: jnp.sin(x) * y_dot)
print(f(2.0, 3.0))
print(jvp(f, (2.0, 3.0), (1.0, 0.0)))
print(grad(f)(2.0, 3.0), grad(f, 1)(2.0, 3.0), grad(f, (0, 1))(2.0, 3.0))


@jax.custom_jvp
def relu_like(x):
    return jnp.where(x > 0, x, 0.0)


@relu_like.defjvp
def relu_like_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return relu_like(x), jnp.where(x > 0, t, 0.5 * t)


print(vmap(grad(relu_like))(jnp.array([-1.0, 0.0, 2.0])))


# nondiff_argnums: a function-valued argument
@partial(jax.custom_jvp, nondiff_argnums=(0,))
def app(g, x):
    return g(x)


def app_jvp(g, primals, tangents):
    (x,), (x_dot,) = primals, tangents
    return app(g, x), 2.0 * x_dot


app.defjvp(app_jvp)
print(app(lambda v: v ** 3, 3.0), grad(app, 1)(lambda v: v ** 3, 3.0))


@partial(jax.custom_vjp, nondiff_argnums=(0,))
def app2(g, x):
    return g(x)


def app2_fwd(g, x):
    return app2(g, x), x


def app2_bwd(g, x, ct):
    return (5.0 * ct * x,)


app2.defvjp(app2_fwd, app2_bwd)
print(app2(jnp.sin, 0.5), grad(app2, 1)(jnp.sin, 0.5))


# custom_vjp with residuals
@jax.custom_vjp
def h(x, y):
    return jnp.sin(x) * y


def h_fwd(x, y):
    return h(x, y), (jnp.cos(x), jnp.sin(x), y)


def h_bwd(res, g):
    cos_x, sin_x, y = res
    return (cos_x * g * y, sin_x * g)


h.defvjp(h_fwd, h_bwd)
print(grad(h)(2.0, 3.0), grad(h, 1)(2.0, 3.0))
print(jit(grad(lambda a: h(a, a ** 2)))(0.7))
print(vmap(grad(h), in_axes=(0, None))(jnp.linspace(0.0, 1.0, 4), 2.0))
print(jax.value_and_grad(lambda p: h(p["a"], p["b"]))({"a": 1.0, "b": jnp.array(2.0)}))


# implicit function theorem: fixed points
@partial(jax.custom_vjp, nondiff_argnums=(0,))
def fixed_point(g, a, x_guess):
    def cond_fun(carry):
        x_prev, x = carry
        return jnp.abs(x_prev - x) > 1e-6

    def body_fun(carry):
        _, x = carry
        return x, g(a, x)

    _, x_star = jax.lax.while_loop(cond_fun, body_fun, (x_guess, g(a, x_guess)))
    return x_star


def fixed_point_fwd(g, a, x_init):
    x_star = fixed_point(g, a, x_init)
    return x_star, (a, x_star)


def rev_iter(g, packed, u):
    a, x_star, x_star_bar = packed
    _, vjp_x = jax.vjp(lambda x: g(a, x), x_star)
    return x_star_bar + vjp_x(u)[0]


def fixed_point_rev(g, res, x_star_bar):
    a, x_star = res
    _, vjp_a = jax.vjp(lambda a: g(a, x_star), a)
    a_bar, = vjp_a(fixed_point(partial(rev_iter, g), (a, x_star, x_star_bar), x_star_bar))
    return a_bar, jnp.zeros_like(x_star)


fixed_point.defvjp(fixed_point_fwd, fixed_point_rev)


def newton_sqrt(a):
    update = lambda a, x: 0.5 * (x + a / x)  # noqa: E731
    return fixed_point(update, a, a)


print(newton_sqrt(2.0), jnp.sqrt(2.0))
print(grad(newton_sqrt)(2.0), grad(jnp.sqrt)(2.0))
print(grad(grad(newton_sqrt))(2.0), grad(grad(jnp.sqrt))(2.0))
print(vmap(newton_sqrt)(jnp.array([1.0, 4.0, 9.0])))
print(jit(vmap(grad(newton_sqrt)))(jnp.array([1.0, 4.0, 9.0])))


# a custom_jvp whose rule is used for higher derivatives, and one used through jit
@jax.custom_jvp
def log1pexp(x):
    return jnp.log1p(jnp.exp(x))


@log1pexp.defjvp
def log1pexp_jvp(primals, tangents):
    x, = primals
    x_dot, = tangents
    return log1pexp(x), x_dot * jax.nn.sigmoid(x)


print(log1pexp(jnp.array([-50.0, 0.0, 50.0])))
print(vmap(grad(log1pexp))(jnp.array([-50.0, 0.0, 50.0, 200.0])))
print(grad(grad(log1pexp))(1.5), jax.hessian(log1pexp)(0.25))
print(jit(jax.jacfwd(log1pexp))(jnp.array([0.5, 1.0])))
