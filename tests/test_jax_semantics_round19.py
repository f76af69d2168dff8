"""JAX semantics where fgrad differed (round 19): `custom_vjp` rules traced only when the
call is differentiated, `jnp.linspace`'s bits, ... Each test runs the same program on
fgrad and -- when installed -- on JAX (x64 mode, fgrad's default), and compares both with
the answer stored here (taken from JAX 0.10.2, x64, by running the same snippet).
See docs/jax-semantics.md."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import export, lax as flax


def _faces():
    """(name, module, numpy, lax) for fgrad and, when installed, JAX in x64 mode."""
    faces = [("fgrad", fgrad, fnp, flax)]
    try:
        import jax
        import jax.numpy as jnp
        from jax import lax
    except ImportError:  # CI without JAX: the stored answers still check fgrad
        return faces
    jax.config.update("jax_enable_x64", True)
    return faces + [("jax", jax, jnp, lax)]


FACES = _faces()
face = pytest.mark.parametrize("name,jax,jnp,lax", FACES, ids=[f[0] for f in FACES])


# --- custom_vjp: fwd and bwd run only when the call is differentiated ------------------------

def _counted_vjp_sin(jax, jnp):
    """``sin`` whose custom VJP is ``3 cos(x) g``, and the list its rules append to."""
    calls = []

    @jax.custom_vjp
    def f(x):
        return jnp.sin(x)

    def fwd(x):
        calls.append("fwd")
        return jnp.sin(x), jnp.cos(x)

    def bwd(r, g):
        calls.append("bwd")
        return (3.0 * g * r,)

    f.defvjp(fwd, bwd)
    return f, calls


def _twice(g):
    return g(1.0), g(2.0)


# (program, the calls of fwd/bwd JAX makes): JAX 0.10.2, x64
VJP_CALLS = {
    "jit": (lambda J, jnp, lax, f: J.jit(f)(1.0), []),
    "jit twice": (lambda J, jnp, lax, f: _twice(J.jit(f)), []),
    "make_jaxpr": (lambda J, jnp, lax, f: J.make_jaxpr(f)(1.0), []),
    "eval_shape": (lambda J, jnp, lax, f: J.eval_shape(f, 1.0), []),
    "vmap": (lambda J, jnp, lax, f: J.vmap(f)(jnp.ones(3)), []),
    "jit(vmap)": (lambda J, jnp, lax, f: J.jit(J.vmap(f))(jnp.ones(3)), []),
    "jit(jit)": (lambda J, jnp, lax, f: J.jit(lambda x: J.jit(f)(x) * 2)(1.0), []),
    "scan": (lambda J, jnp, lax, f: lax.scan(lambda c, x: (c + f(x), None), 0.0, jnp.ones(3)), []),
    "cond": (lambda J, jnp, lax, f: lax.cond(True, f, lambda x: x, 1.0), []),
    "checkpoint": (lambda J, jnp, lax, f: J.checkpoint(f)(1.0), []),
    "grad": (lambda J, jnp, lax, f: J.grad(f)(1.0), ["fwd", "bwd"]),
    "grad(jit)": (lambda J, jnp, lax, f: J.grad(J.jit(f))(1.0), ["fwd", "bwd"]),
    "grad(jit) twice": (lambda J, jnp, lax, f: _twice(J.grad(J.jit(f))), ["fwd", "bwd"]),
    "jit(grad) twice": (lambda J, jnp, lax, f: _twice(J.jit(J.grad(f))), ["fwd", "bwd"]),
    "grad(jit(jit))": (lambda J, jnp, lax, f: J.grad(J.jit(lambda x: J.jit(f)(x) * 2))(1.0),
                       ["fwd", "bwd"]),
    "vmap(grad(jit))": (lambda J, jnp, lax, f: J.vmap(J.grad(J.jit(f)))(jnp.ones(3)), ["fwd", "bwd"]),
    "jit(vmap(grad))": (lambda J, jnp, lax, f: J.jit(J.vmap(J.grad(f)))(jnp.ones(3)), ["fwd", "bwd"]),
    "grad(vmap)": (lambda J, jnp, lax, f: J.grad(lambda x: J.vmap(f)(x).sum())(jnp.ones(3)),
                   ["fwd", "bwd"]),
    "grad(scan)": (lambda J, jnp, lax, f: J.grad(
        lambda xs: lax.scan(lambda c, x: (c + f(x), None), 0.0, xs)[0])(jnp.ones(3)), ["fwd", "bwd"]),
    "grad(checkpoint)": (lambda J, jnp, lax, f: J.grad(J.checkpoint(f))(1.0), ["fwd", "bwd"]),
    "vjp": (lambda J, jnp, lax, f: J.vjp(f, 1.0), ["fwd"]),
    "vjp(jit) called": (lambda J, jnp, lax, f: J.vjp(J.jit(f), 1.0)[1](1.0), ["fwd", "bwd"]),
}


@face
@pytest.mark.parametrize("case", list(VJP_CALLS))
def test_custom_vjp_rules_run_only_when_differentiated(name, jax, jnp, lax, case):
    """fgrad traced a custom_vjp's fwd and bwd whenever jit/make_jaxpr/eval_shape/scan/cond
    staged the call, so their side effects (prints, counters) happened without any
    differentiation (twice under scan, whose body is traced twice); JAX runs them only when
    the call is differentiated, once per trace."""
    program, expected = VJP_CALLS[case]
    f, calls = _counted_vjp_sin(jax, jnp)
    program(jax, jnp, lax, f)
    assert calls == expected


@face
def test_custom_vjp_staged_rules_give_the_rule_gradient(name, jax, jnp, lax):
    """The deferred rules are the ones every later derivative uses (3 cos x, not cos x)."""
    f, _ = _counted_vjp_sin(jax, jnp)
    xs = jnp.array([0.0, 0.5, 1.0])
    want = 3 * np.cos([0.0, 0.5, 1.0])
    np.testing.assert_allclose(jax.vmap(jax.grad(jax.jit(f)))(xs), want, rtol=1e-14)
    np.testing.assert_allclose(jax.jit(jax.vmap(jax.grad(jax.jit(f))))(xs), want, rtol=1e-14)
    np.testing.assert_allclose(
        jax.grad(lambda x: lax.scan(lambda c, _: (f(c), None), x, None, length=2)[0])(0.5),
        3 * np.cos(np.sin(0.5)) * 3 * np.cos(0.5), rtol=1e-14)
    np.testing.assert_allclose(jax.grad(jax.jit(lambda x: lax.cond(x > 0, f, jnp.cos, x)))(0.5),
                               3 * np.cos(0.5), rtol=1e-14)


@face
def test_custom_vjp_bwd_error_only_when_differentiated(name, jax, jnp, lax):
    """A bwd that raises: fgrad raised under jit/make_jaxpr even for a plain call (JAX: only
    when the call is differentiated)."""
    @jax.custom_vjp
    def f(x):
        return 2 * x

    def bwd(r, g):
        raise ValueError("bwd called")

    f.defvjp(lambda x: (2 * x, None), bwd)
    assert float(jax.jit(f)(1.0)) == 2.0
    jax.make_jaxpr(f)(1.0)
    assert jax.jit(jax.vmap(f))(jnp.ones(2)).tolist() == [2.0, 2.0]
    with pytest.raises(ValueError, match="bwd called"):
        jax.grad(jax.jit(f))(1.0)


@face
def test_custom_vjp_fwd_error_only_when_differentiated(name, jax, jnp, lax):
    @jax.custom_vjp
    def f(x):
        return 2 * x

    def fwd(x):
        raise ValueError("fwd called")

    f.defvjp(fwd, lambda r, g: (g,))
    assert float(jax.jit(f)(1.0)) == 2.0
    with pytest.raises(ValueError, match="fwd called"):
        jax.grad(jax.jit(f))(1.0)


@face
def test_custom_vjp_symbolic_zeros_perturbed_under_jit(name, jax, jnp, lax):
    """With the rules deferred, the forward rule of a staged call sees which arguments carry
    a tangent (before: every argument counted as perturbed in a staged program)."""
    seen = []

    @jax.custom_vjp
    def f(x, y):
        return x * y

    def fwd(x, y):
        seen.append((x.perturbed, y.perturbed))
        return f(x.value, y.value), (x.value, y.value)

    f.defvjp(fwd, lambda r, g: (g * r[1], g * r[0]), symbolic_zeros=True)
    assert float(jax.grad(jax.jit(f))(1.0, 2.0)) == 2.0
    assert float(jax.jit(jax.grad(f))(1.0, 3.0)) == 3.0
    assert seen == [(True, False), (True, False)]


def test_custom_vjp_python_residuals_keep_the_rule_under_jit():
    """A fwd whose residuals hold a Python object: fgrad dropped the rule when the call was
    staged (grad(jit(g)) gave the function's derivative 2, silently, where eager grad gave
    the rule's 5). The deferred rule keeps the object in Python. (JAX refuses such
    residuals with a TypeError in every mode; fgrad accepts them in every mode.)"""
    @fgrad.custom_vjp
    def g(x):
        return x * 2

    g.defvjp(lambda x: (x * 2, ("scale", 5.0)), lambda r, c: (c * r[1],))
    assert float(fgrad.grad(g)(1.0)) == 5.0
    assert float(fgrad.grad(fgrad.jit(g))(1.0)) == 5.0
    assert float(fgrad.jit(fgrad.grad(g))(1.0)) == 5.0
    assert fgrad.vmap(fgrad.grad(fgrad.jit(g)))(fnp.ones(2)).tolist() == [5.0, 5.0]


def test_custom_vjp_residual_object_holding_a_tracer_is_refused():
    """A Python-object residual that holds traced values cannot be kept in the deferred
    rule (its tracer would outlive its trace): a TypeError that says what to return."""
    class Box:
        def __init__(self, v):
            self.v = v

    @fgrad.custom_vjp
    def g(x):
        return x * 2

    g.defvjp(lambda x: (x * 2, Box(x)), lambda r, c: (c * r.v,))
    assert float(fgrad.grad(g)(3.0)) == 3.0  # eager: the object holds a value
    with pytest.raises(TypeError, match="residual of type Box"):
        fgrad.grad(fgrad.jit(g))(3.0)


def test_custom_vjp_rules_closing_over_a_traced_value_are_still_staged():
    """Rules that close over a value of the enclosing trace (here jit's argument ``w``) are
    traced where the call is staged, as before: the value is an operand of the call, and
    the gradient in ``x`` is the rule's, as in eager mode (100 w per step)."""
    calls = []

    def outer(w, x):
        @fgrad.custom_vjp
        def f(c):
            return c * w

        def fwd(c):
            calls.append("fwd")
            return c * w, None

        f.defvjp(fwd, lambda r, g: (g * w * 100.0,))
        return flax.scan(lambda c, _: (f(c), None), x, None, length=2)[0]

    assert float(fgrad.grad(outer, argnums=1)(3.0, 1.0)) == 90000.0
    assert float(fgrad.grad(fgrad.jit(outer), argnums=1)(3.0, 1.0)) == 90000.0
    calls.clear()
    assert float(fgrad.jit(outer)(3.0, 1.0)) == 9.0
    assert calls  # staged with the traced value: the rule was traced


def test_custom_vjp_nondiff_argnums_deferred():
    """A static (nondiff) argument reaches the deferred rules."""
    calls = []

    @functools.partial(fgrad.custom_vjp, nondiff_argnums=(0,))
    def f(k, x):
        return x * k

    def fwd(k, x):
        calls.append("fwd")
        return x * k, None

    f.defvjp(fwd, lambda k, r, g: (g * k * 10,))
    assert float(fgrad.jit(f, static_argnums=0)(2.0, 1.0)) == 2.0
    assert calls == []
    assert float(fgrad.grad(fgrad.jit(f, static_argnums=0), argnums=1)(2.0, 1.0)) == 20.0


def test_export_keeps_deferred_custom_vjp_rules():
    """Serializing a staged call whose rules were deferred traces them then, so the
    read-back program differentiates with the user's rule (3 cos x), not sin's own."""
    f, calls = _counted_vjp_sin(fgrad, fnp)
    exp = export.export(fgrad.jit(lambda x: f(x)))(fnp.zeros(3))
    assert calls == []
    back = export.deserialize(exp.serialize())
    assert calls == ["fwd", "bwd"]  # traced when written
    xs = fnp.array([-1.0, 0.0, 2.0])
    g = fgrad.grad(lambda x: back.call(x).sum())(xs)
    np.testing.assert_allclose(g, 3 * np.cos([-1.0, 0.0, 2.0]), rtol=1e-15)


def test_staged_custom_vjp_jaxpr_names_the_rules():
    f, _ = _counted_vjp_sin(fgrad, fnp)
    text = str(fgrad.make_jaxpr(f)(1.0))
    assert "fwd=fwd" in text and "bwd=bwd" in text
