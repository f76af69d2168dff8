"""JAX transform semantics where fgrad differed (round 18), checked against JAX's own test
suite's behaviours (custom_derivatives, lax control flow, api): each test runs the same
program on fgrad and -- when installed -- on JAX (x64 mode, fgrad's default), and compares
both with the answer stored here (taken from JAX 0.10.2, x64, by running the same snippet).
See docs/jax-semantics.md."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import fgrad
from _peers import jax_faces
import fgrad.numpy as fnp
from fgrad import export, lax as flax


FACES = jax_faces()
face = pytest.mark.parametrize("name,jax,jnp,lax", FACES, ids=[f[0] for f in FACES])


# --- custom_jvp: the rule is traced only when differentiated ---------------------------------

def _counted_sin(jax, jnp, slope):
    """``sin`` with the custom derivative ``slope * t``, and the list its rule appends to
    each time it is called."""
    calls = []

    @jax.custom_jvp
    def f(x):
        return jnp.sin(x)

    @f.defjvp
    def f_jvp(primals, tangents):
        calls.append(1)
        return f(primals[0]), slope * tangents[0]

    return f, calls


@face
def test_custom_jvp_rule_not_called_when_staged_without_differentiation(name, jax, jnp, lax):
    """fgrad traced a custom_jvp rule whenever jit/make_jaxpr/vmap/scan staged the call, so
    the rule's side effects (and errors) happened without any differentiation; JAX calls
    the rule only when the call is differentiated."""
    f, calls = _counted_sin(jax, jnp, 3.0)
    jax.jit(f)(1.0)
    jax.make_jaxpr(f)(1.0)
    jax.vmap(f)(jnp.ones(3))
    jax.jit(lambda x: lax.scan(lambda c, _: (f(c), None), x, None, length=2)[0])(0.5)
    assert calls == []
    assert float(jax.grad(jax.jit(f))(1.0)) == 3.0  # differentiated: the rule is used
    assert calls


@face
def test_custom_jvp_rule_error_only_when_differentiated(name, jax, jnp, lax):
    """A rule that raises: fgrad raised under jit even for a plain call (JAX: only when
    differentiated)."""
    @jax.custom_jvp
    def f(x):
        return jnp.sin(x)

    @f.defjvp
    def f_jvp(primals, tangents):
        raise ValueError("rule called")

    np.testing.assert_allclose(jax.jit(f)(1.0), np.sin(1.0), rtol=1e-15)
    np.testing.assert_allclose(jax.jit(lambda x: lax.fori_loop(0, 2, lambda i, c: f(c), x))(1.0),
                               np.sin(np.sin(1.0)), rtol=1e-15)
    with pytest.raises(ValueError, match="rule called"):
        jax.grad(jax.jit(f))(1.0)


@face
def test_deferred_rule_kept_through_transforms(name, jax, jnp, lax):
    """The deferred rule is used by every later derivative of the staged call: grad of jit,
    jit of grad, vmap of grad of jit, second derivatives (JAX's numbers, stored)."""
    @jax.custom_jvp
    def f(x):
        return jnp.sin(x)

    f.defjvp(lambda p, t: (f(p[0]), 2.0 * jnp.cos(p[0]) * t[0]))
    xs = jnp.array([0.0, 0.5, 1.0])
    np.testing.assert_allclose(jax.vmap(jax.grad(jax.jit(f)))(xs), 2 * np.cos([0.0, 0.5, 1.0]), rtol=1e-14)
    np.testing.assert_allclose(jax.jit(jax.grad(f))(0.5), 2 * np.cos(0.5), rtol=1e-14)
    # the rule calls f: the second derivative differentiates the rule (d/dx 2cos(x) sin'(x)...)
    np.testing.assert_allclose(jax.grad(jax.grad(jax.jit(f)))(0.5), -2 * np.sin(0.5), rtol=1e-14)


def test_export_keeps_a_deferred_rule():
    """Serializing a staged call whose rule was deferred traces the rule then, so the
    read-back program differentiates with the user's rule, not the function's own
    derivative (fgrad.nn.relu's rule gives 0 at 0; the function's derivative 0.5)."""
    f, calls = _counted_sin(fgrad, fnp, 100.0)

    exp = export.export(fgrad.jit(lambda x: f(x) + fgrad.nn.relu(x)))(fnp.zeros(3))
    assert calls == []
    back = export.deserialize(exp.serialize())
    assert calls  # traced when written
    g = fgrad.grad(lambda x: back.call(x).sum())(fnp.array([-1.0, 0.0, 2.0]))
    assert g.tolist() == [100.0, 100.0, 101.0]


def test_rule_closing_over_a_traced_value_is_still_staged():
    """A rule that closes over a value of the enclosing trace is traced where it is staged,
    as before (the closed-over tracer is an operand of the call); JAX fails on this program
    with an UnexpectedTracerError, fgrad computes it."""
    def outer(w):
        @fgrad.custom_jvp
        def f(x):
            return x * w

        f.defjvp(lambda p, t: (f(p[0]), t[0] * w * 100.0))
        return flax.scan(lambda c, _: (f(c), None), w, None, length=2)[0]

    # outer(w) = w**3; the rule replaces df/dc = w by 100 w (and dw flows through w itself):
    # d/dw [w*(w*w)] with the carry chain: 100w*(100w*1 + w) + w*w = 90909 at w = 3
    assert float(fgrad.grad(outer)(3.0)) == 90909.0
    assert float(fgrad.grad(fgrad.jit(outer))(3.0)) == 90909.0


# --- custom rule checks and flags ------------------------------------------------------------

@face
def test_custom_jvp_rule_must_return_a_pair(name, jax, jnp, lax):
    """fgrad failed inside the rule's unpacking ('iteration over a 0-d array')."""
    @jax.custom_jvp
    def f(x):
        return x

    @f.defjvp
    def f_jvp(p, t):
        return p[0]

    with pytest.raises(TypeError, match=r"Custom JVP rule f_jvp for function f must produce a pair"):
        jax.jvp(f, (1.0,), (1.0,))


@face
def test_custom_vjp_fwd_must_return_a_pair(name, jax, jnp, lax):
    @jax.custom_vjp
    def f(x):
        return x

    def f_fwd(x):
        return x

    f.defvjp(f_fwd, lambda r, g: (g,))
    with pytest.raises(TypeError, match=r"Custom VJP fwd rule f_fwd for function f must produce a pair"):
        jax.grad(f)(1.0)


@face
def test_symbolic_zeros_fwd_sees_which_arguments_are_perturbed(name, jax, jnp, lax):
    """fgrad reported every argument as perturbed; JAX: only those carrying a tangent."""
    seen = []

    @jax.custom_vjp
    def f(x, y):
        return x * y

    def fwd(x, y):
        seen.append((x.perturbed, y.perturbed))
        return f(x.value, y.value), (x.value, y.value)

    f.defvjp(fwd, lambda r, g: (g * r[1], g * r[0]), symbolic_zeros=True)
    assert float(jax.grad(f)(1.0, 2.0)) == 2.0
    assert float(jax.grad(f, 1)(1.0, 2.0)) == 1.0
    assert [tuple(bool(b) for b in s) for s in seen] == [(True, False), (False, True)]


@face
def test_defvjp_accepts_optimize_remat(name, jax, jnp, lax):
    """fgrad's defvjp had no ``optimize_remat`` keyword (TypeError)."""
    @jax.custom_vjp
    def f(x):
        return jnp.sin(x)

    f.defvjp(lambda x: (f(x), jnp.cos(x)), lambda r, g: (r * g,), optimize_remat=True)
    np.testing.assert_allclose(jax.grad(f)(1.0), np.cos(1.0), rtol=1e-15)
    np.testing.assert_allclose(jax.jit(jax.grad(f))(1.0), np.cos(1.0), rtol=1e-15)
    g = jax.custom_vjp(lambda x: x)
    with pytest.raises(NotImplementedError, match="symbolic zeros"):
        g.defvjp(lambda x: (x, None), lambda r, c: (c,), symbolic_zeros=True, optimize_remat=True)


# --- control flow ----------------------------------------------------------------------------

@face
def test_fori_loop_bound_types(name, jax, jnp, lax):
    """fgrad accepted bounds of different integer dtypes (JAX: TypeError unless one bound is
    weakly typed) and ignored ``unroll`` with traced bounds (JAX: ValueError)."""
    body = lambda i, c: c + i  # noqa: E731
    with pytest.raises(TypeError, match="lower and upper arguments to fori_loop must have equal types, "
                                        "got int16 and int32"):
        lax.fori_loop(jnp.int16(0), jnp.int32(3), body, 0)
    assert int(lax.fori_loop(jnp.int16(1), 4, body, 0)) == 6  # a Python int adopts int16
    assert int(jax.jit(lambda n: lax.fori_loop(0, n, body, 0))(jnp.int32(4))) == 6
    with pytest.raises(ValueError, match="Can only use `unroll` in `fori_loop` if the loop bounds"):
        jax.jit(lambda n: lax.fori_loop(0, n, body, 0, unroll=2))(5)
    assert int(lax.fori_loop(0, 5, body, 0, unroll=2)) == 10


@face
def test_control_flow_functions_must_be_callable(name, jax, jnp, lax):
    """fgrad failed later with Python's "'float' object is not callable"."""
    cases = [
        (lambda: lax.cond(True, 1.0, lambda: 2.0),
         "lax.cond: true_fun and false_fun arguments should be callable."),
        (lambda: lax.while_loop(1, lambda c: c, 0),
         "lax.while_loop: body_fun and cond_fun arguments should be callable."),
        (lambda: lax.fori_loop(0, 2, 1, 0), "lax.fori_loop: body_fun argument should be callable."),
        (lambda: lax.scan(1, 0, None, length=2), "lax.scan: f argument should be a callable."),
        (lambda: lax.associative_scan(1, jnp.ones(2)),
         "lax.associative_scan: fn argument should be callable."),
    ]
    for run, msg in cases:
        with pytest.raises(TypeError) as info:
            run()
        assert str(info.value) == msg


@face
def test_scan_accepts_split_transpose(name, jax, jnp, lax):
    c, ys = lax.scan(lambda c, x: (c + x, c), 0.0, jnp.arange(3.0), _split_transpose=False)
    assert float(c) == 3.0 and np.asarray(ys).tolist() == [0.0, 0.0, 1.0]


# --- jit / grad / vjp / jvp / linearize API --------------------------------------------------

@face
def test_unhashable_static_argument_is_a_value_error(name, jax, jnp, lax):
    """fgrad raised TypeError (now a ValueError, as JAX, that is also a TypeError)."""
    g = jax.jit(lambda x, k: x, static_argnums=1)
    with pytest.raises(ValueError, match="Non-hashable static arguments are not supported"):
        g(1.0, [1, 2])


@face
def test_has_aux_output_must_be_a_pair(name, jax, jnp, lax):
    with pytest.raises(TypeError, match="expected function with aux output to return a two-element tuple"):
        jax.grad(lambda x: x ** 2, has_aux=True)(3.0)


@face
def test_reduce_axes_raises_not_implemented(name, jax, jnp, lax):
    """fgrad: TypeError (unexpected keyword); JAX: NotImplementedError (the argument was removed)."""
    with pytest.raises(NotImplementedError, match="reduce_axes argument to grad is deprecated"):
        jax.grad(lambda x: x, reduce_axes=("i",))(1.0)
    with pytest.raises(NotImplementedError, match="reduce_axes"):
        jax.value_and_grad(lambda x: x, reduce_axes=("i",))(1.0)
    assert float(jax.grad(lambda x: x * 2, reduce_axes=())(1.0)) == 2.0


@face
def test_vjp_cotangents(name, jax, jnp, lax):
    """A cotangent of the wrong structure is a ValueError (fgrad: TypeError); a float0
    cotangent for an integer output is accepted (fgrad could not read the float0 array)."""
    y, f_vjp = jax.vjp(lambda x: (x, x), 1.0)
    with pytest.raises(ValueError):
        f_vjp(1.0)
    y, f_vjp = jax.vjp(lambda x: (x * 2, jnp.int32(3)), 1.0)
    float0 = np.zeros((), dtype=jax.dtypes.float0)
    (g,) = f_vjp((1.0, float0))
    assert float(g) == 2.0


@face
def test_jvp_primals_and_tangents_same_container(name, jax, jnp, lax):
    """fgrad accepted a tuple of primals with a list of tangents (JAX: TypeError)."""
    with pytest.raises(TypeError, match="must have the same tree structure"):
        jax.jvp(lambda x: x, (1.0,), [1.0])
    assert float(jax.jvp(lambda x: x * 2, [1.0], [1.0])[1]) == 2.0


@face
def test_linearize_has_aux(name, jax, jnp, lax):
    """fgrad's linearize had no ``has_aux`` (TypeError)."""
    y, f_jvp, aux = jax.linearize(lambda x: (jnp.sin(x), {"x3": x * 3}), 1.0, has_aux=True)
    np.testing.assert_allclose([y, f_jvp(1.0), f_jvp(2.0), aux["x3"]],
                               [np.sin(1.0), np.cos(1.0), 2 * np.cos(1.0), 3.0], rtol=1e-15)


def test_may_capture_tracer_follows_closures_partials_and_objects():
    """The walk that decides whether a staged rule is deferred finds tracers in closures,
    defaults, partial arguments, bound objects and containers."""
    from fgrad.transforms.custom_call import may_capture_tracer

    class Holder:
        def __init__(self, v):
            self.params = {"w": [v]}

        def rule(self, p, t):
            return p, t

    seen = []

    def probe(w):
        seen.append([
            may_capture_tracer(lambda p, t: (p, w)),
            may_capture_tracer(functools.partial(lambda w, p, t: p, w)),
            may_capture_tracer(Holder(w).rule),
            may_capture_tracer(lambda p, t, d=(w,): p),
            may_capture_tracer(lambda p, t: p),
        ])
        return w

    fgrad.jit(probe)(1.0)
    probe(1.0)
    assert seen == [[True, True, True, True, False], [False] * 5]
