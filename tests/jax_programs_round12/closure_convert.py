"""The custom-derivatives tutorial's implicit-function examples with `jax.closure_convert`:
a fixed-point solver whose custom VJP differentiates closed-over parameters, Newton's method
for a square root with `custom_jvp`, `jax.custom_gradient`-free gradient clipping with
`nondiff_argnums`, and `lax.custom_root` compared with it."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.custom_vjp, nondiff_argnums=(0,))
def fixed_point(f, a, x_init):
    def cond(carry):
        x_prev, x = carry
        return jnp.max(jnp.abs(x_prev - x)) > 1e-6

    def body(carry):
        _, x = carry
        return x, f(a, x)

    _, x_star = lax.while_loop(cond, body, (x_init, f(a, x_init)))
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


print(newton_sqrt(2.0), jax.grad(newton_sqrt)(2.0), 0.5 / jnp.sqrt(2.0))
print(jax.grad(jax.grad(jnp.sqrt))(2.0))


def fixed_point_closed(f, x_init):
    """A fixed point of a closure: closure_convert hoists the closed-over arrays."""
    converted, consts = jax.closure_convert(f, x_init)
    return fixed_point(lambda c, x: converted(x, *c), tuple(consts), x_init)


def damped_cos(w):
    def g(x):
        return 0.5 * jnp.cos(w * x) + 0.1 * w

    return fixed_point_closed(g, jnp.zeros_like(w))


w = jnp.array([0.5, 1.0, 2.0])
print(damped_cos(w), jax.jacrev(damped_cos)(w))
fn, consts = jax.closure_convert(lambda x: x * w + jnp.sin(x), 1.0)
print(len(consts), fn(2.0, *consts))


@partial(jax.custom_vjp, nondiff_argnums=(1,))
def clip_gradient(x, hi):
    return x


def clip_fwd(x, hi):
    return x, None


def clip_bwd(hi, _, g):
    return (jnp.clip(g, -hi, hi),)


clip_gradient.defvjp(clip_fwd, clip_bwd)
print(jax.grad(lambda x: jnp.sum(clip_gradient(x, 0.5) ** 3))(jnp.array([-2.0, 0.3, 0.6, 1.0])))
print(jax.vmap(jax.grad(lambda x: clip_gradient(jnp.sin(x) * 4, 1.0)))(jnp.linspace(0.0, 3.0, 4)))


def root_sqrt(a):
    return lax.custom_root(
        lambda x: x * x - a,
        a,
        lambda g, y: fixed_point(lambda b, x: x - g(x) / (2 * x), None, y),
        lambda g, y: y / g(1.0),
    )


print(root_sqrt(5.0), jax.grad(root_sqrt)(5.0), jax.jit(jax.grad(root_sqrt))(9.0))
