"""custom_jvp / custom_vjp rules survive staging (jit, make_jaxpr, loop and branch bodies,
checkpoint): the staged program holds one `custom_jvp_call` / `custom_vjp_call` equation
that keeps the rule.  Each rule here differs on purpose from the true derivative, so a test
sees which one ran; every staged result is compared with the eager (un-staged) one."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import lax

SCALE = 100.0  # the rules' (wrong on purpose) derivative factor


def make_f():
    @fgrad.custom_jvp
    def f(x):
        return fnp.sin(x)

    @f.defjvp
    def f_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return f(x), SCALE * x * t  # true derivative: cos(x) t

    return f


def make_g():
    @fgrad.custom_vjp
    def g(x):
        return fnp.sin(x)

    g.defvjp(lambda x: (g(x), x), lambda x, ct: (SCALE * x * ct,))
    return g


f = make_f()
g = make_g()
X = 0.7


def close(a, b):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("transform", ["grad", "jacfwd", "jacrev", "hessian"])
def test_custom_jvp_derivatives_of_jit(transform):
    t = getattr(fgrad, transform)
    close(t(fgrad.jit(f))(X), t(f)(X))
    assert abs(float(fgrad.grad(fgrad.jit(f))(X)) - SCALE * X) < 1e-12


def test_custom_jvp_jvp_of_jit():
    p, t = fgrad.jvp(fgrad.jit(f), (X,), (2.0,))
    close(p, np.sin(X))
    close(t, SCALE * X * 2.0)


@pytest.mark.parametrize("transform", ["grad", "jacrev"])
def test_custom_vjp_reverse_of_jit(transform):
    t = getattr(fgrad, transform)
    close(t(fgrad.jit(g))(X), t(g)(X))
    close(fgrad.grad(fgrad.jit(g))(X), SCALE * X)


def test_custom_vjp_vjp_of_jit():
    out, pull = fgrad.vjp(fgrad.jit(g), X)
    close(out, np.sin(X))
    close(pull(3.0)[0], SCALE * X * 3.0)


def test_custom_vjp_forward_mode_still_raises_under_jit():
    with pytest.raises(TypeError, match="forward-mode autodiff"):
        fgrad.jvp(g, (X,), (1.0,))
    with pytest.raises(TypeError, match="forward-mode autodiff"):
        fgrad.jvp(fgrad.jit(g), (X,), (1.0,))


@pytest.mark.parametrize("fn", [f, g], ids=["custom_jvp", "custom_vjp"])
def test_rules_in_control_flow_bodies(fn):
    def scanned(x):
        return lax.scan(lambda c, _: (fn(c), None), x, None, length=2)[0]

    def branched(x):
        return lax.cond(x > 0, fn, fnp.cos, x)

    def looped(x):
        return lax.fori_loop(0, 2, lambda i, c: fn(c), x)

    for h in (scanned, branched, looped):
        eager_like = fgrad.grad(lambda x: fn(fn(x)) if h is not branched else fn(x))(X)
        close(fgrad.grad(h)(X), eager_like)
        close(fgrad.grad(fgrad.jit(h))(X), eager_like)


@pytest.mark.parametrize("fn", [f, g], ids=["custom_jvp", "custom_vjp"])
def test_checkpoint_and_nested_jit(fn):
    expected = fgrad.grad(fn)(X)
    close(fgrad.grad(fgrad.checkpoint(fn))(X), expected)
    close(fgrad.grad(fgrad.jit(fgrad.jit(fn)))(X), expected)
    close(fgrad.grad(fgrad.jit(lambda x: fgrad.jit(fn)(x) * 2.0))(X), 2 * expected)


@pytest.mark.parametrize("fn", [f, g], ids=["custom_jvp", "custom_vjp"])
def test_vmap_and_jit(fn):
    xs = fnp.asarray([0.1, 0.5, 0.9])
    expected = fgrad.vmap(fgrad.grad(fn))(xs)
    close(expected, SCALE * np.asarray(xs))
    close(fgrad.vmap(fgrad.grad(fgrad.jit(fn)))(xs), expected)
    close(fgrad.grad(lambda v: fgrad.vmap(fgrad.jit(fn))(v).sum())(xs), expected)
    close(fgrad.grad(lambda v: fgrad.jit(fgrad.vmap(fn))(v).sum())(xs), expected)
    close(fgrad.jit(fgrad.vmap(fgrad.grad(fgrad.jit(fn))))(xs), expected)


def _closing_over(a):
    @fgrad.custom_jvp
    def h(x):
        return fnp.sin(a * x)

    @h.defjvp
    def h_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return h(x), SCALE * a * x * t

    return h


def test_rule_closing_over_a_traced_value():
    # only the closed-over value depends on a: eager mode differentiates the function itself
    # (the arguments carry no tangent), and so must the staged program
    def through_closure(a, wrap):
        return wrap(_closing_over(a))(1.5)

    eager = fgrad.grad(through_closure)(0.3, lambda h: h)
    close(eager, 1.5 * np.cos(0.3 * 1.5))
    close(fgrad.grad(through_closure)(0.3, fgrad.jit), eager)
    close(fgrad.grad(fgrad.jit(lambda a: through_closure(a, fgrad.jit)))(0.3), eager)
    close(fgrad.jacfwd(through_closure)(0.3, fgrad.jit), eager)


def test_rule_closing_over_a_jit_tracer():
    def outer(a):
        return fgrad.grad(_closing_over(a))(2.0)

    close(fgrad.jit(outer)(0.3), outer(0.3))
    close(outer(0.3), SCALE * 0.3 * 2.0)
    close(fgrad.grad(fgrad.jit(outer))(0.3), fgrad.grad(outer)(0.3))


def test_nondiff_argnums_under_jit():
    @fgrad.custom_jvp
    def power(n, x):
        return x ** n

    @power.defjvp
    def power_jvp(n, primals, tangents):
        (x,), (t,) = primals, tangents
        return power(n, x), SCALE * n * t

    from functools import partial
    power = fgrad.custom_jvp(power.fun, nondiff_argnums=(0,))
    power.defjvp(power_jvp)
    close(fgrad.grad(fgrad.jit(partial(power, 3)))(X), SCALE * 3)

    @partial(fgrad.custom_vjp, nondiff_argnums=(0,))
    def scale_by(n, x):
        return n * x

    scale_by.defvjp(lambda n, x: (n * x, None), lambda n, _, ct: (SCALE * n * ct,))
    close(fgrad.grad(fgrad.jit(scale_by, static_argnums=0), argnums=1)(2, X), SCALE * 2)


def test_make_jaxpr_shows_one_custom_call_equation():
    jx = fgrad.make_jaxpr(f)(X).jaxpr
    assert [e.prim.name for e in jx.eqns] == ["custom_jvp_call"]
    jx = fgrad.make_jaxpr(g)(X).jaxpr
    assert [e.prim.name for e in jx.eqns] == ["custom_vjp_call"]
    close(fgrad.jit(f)(X), np.sin(X))
    close(fgrad.jit(g)(X), np.sin(X))


def test_pytree_arguments_and_two_outputs():
    @fgrad.custom_vjp
    def pair(d):
        return d["a"] * d["b"], d["a"] + d["b"]

    pair.defvjp(lambda d: (pair(d), d),
                lambda d, ct: ({"a": SCALE * ct[0], "b": SCALE * ct[1]},))

    def loss(d):
        u, v = pair(d)
        return u + 2 * v

    d = {"a": fnp.asarray(1.0), "b": fnp.asarray(2.0)}
    eager = fgrad.grad(loss)(d)
    staged = fgrad.grad(fgrad.jit(loss))(d)
    close(staged["a"], eager["a"])
    close(staged["b"], eager["b"])
    close(eager["a"], SCALE)


def test_live_jax_agrees():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    jnp = jax.numpy

    @jax.custom_jvp
    def jf(x):
        return jnp.sin(x)

    @jf.defjvp
    def jf_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return jf(x), SCALE * x * t

    close(fgrad.grad(fgrad.jit(f))(X), jax.grad(jax.jit(jf))(X))
    close(fgrad.hessian(fgrad.jit(f))(X), jax.hessian(jax.jit(jf))(X))


def test_forward_mode_of_staged_custom_vjp_records_custom_vjp_lin():
    # the JVP of a staged custom_vjp is its fwd plus a `custom_vjp_lin` equation (transposed
    # by the user's bwd); running it forward raises, as for the eager function
    jx = fgrad.make_jaxpr(lambda x, t: fgrad.jvp(fgrad.jit(g), (x,), (t,)))(X, 1.0).jaxpr
    assert "custom_vjp_lin" in _names_inside(jx)
    with pytest.raises(TypeError, match="forward-mode autodiff"):
        fgrad.jvp(fgrad.jit(g), (X,), (1.0,))


def _names_inside(jaxpr) -> set:
    """The primitive names of ``jaxpr`` and of the programs in its equations' parameters."""
    names = set()
    for e in jaxpr.eqns:
        names.add(e.prim.name)
        for v in e.params.values():
            inner = getattr(v, "jaxpr", None)
            if inner is not None and hasattr(inner, "eqns"):
                names |= _names_inside(inner)
    return names


def test_rule_that_applies_a_custom_function_to_the_tangent():
    @fgrad.custom_jvp
    def double(x):  # linear, with a rule of its own
        return 2.0 * x

    double.defjvp(lambda p, t: (double(p[0]), double(t[0])))

    @fgrad.custom_jvp
    def h(x):
        return fnp.sin(x)

    h.defjvp(lambda p, t: (h(p[0]), double(SCALE * t[0])))
    close(fgrad.grad(h)(X), 2 * SCALE)
    close(fgrad.grad(fgrad.jit(h))(X), 2 * SCALE)
    close(fgrad.jit(fgrad.grad(fgrad.jit(h)))(X), 2 * SCALE)
