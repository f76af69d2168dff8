"""`fgrad.custom_gradient` and `fgrad.custom_batching.custom_vmap` / `sequential_vmap`
(JAX's ``jax.custom_gradient`` and ``jax.custom_batching``): the rule is honoured under
grad/jit/vmap (nested, under jit), derivatives follow JAX.  Expected numbers are analytic or
stored from JAX 0.10.2 (x64); the live comparisons run when jax is installed."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad.custom_batching import custom_vmap, sequential_vmap

X = np.array([0.3, -1.2, 2.5])


def _sin_with_cos_rule(np_mod):
    """sin(x) whose vmap rule computes cos: the rule visibly replaces the function."""
    @np_mod["custom_vmap"]
    def f(x):
        return np_mod["sin"](x)

    @f.def_vmap
    def rule(axis_size, in_batched, xs):
        assert not in_batched[0] or xs.shape[0] == axis_size
        return np_mod["cos"](xs), in_batched[0]

    return f


F = _sin_with_cos_rule({"custom_vmap": custom_vmap, "sin": fnp.sin, "cos": fnp.cos})


# -- custom_vmap ----------------------------------------------------------------------------

def test_custom_vmap_outside_vmap_runs_the_function():
    np.testing.assert_allclose(F(fnp.asarray(X)), np.sin(X), rtol=1e-15)
    np.testing.assert_allclose(fgrad.jit(F)(fnp.asarray(X)), np.sin(X), rtol=1e-15)


@pytest.mark.parametrize("transform", ["vmap", "jit(vmap)", "vmap(jit)", "jit(vmap(jit))"])
def test_vmap_uses_the_rule_eager_and_under_jit(transform):
    g = {"vmap": fgrad.vmap(F), "jit(vmap)": fgrad.jit(fgrad.vmap(F)),
         "vmap(jit)": fgrad.vmap(fgrad.jit(F)),
         "jit(vmap(jit))": fgrad.jit(fgrad.vmap(fgrad.jit(F)))}[transform]
    np.testing.assert_allclose(g(fnp.asarray(X)), np.cos(X), rtol=1e-15)


def test_staged_programs_keep_the_rule_as_one_custom_vmap_call_equation():
    jaxpr = fgrad.make_jaxpr(F)(fnp.asarray(X))
    assert [e.primitive.name for e in jaxpr.eqns] == ["custom_vmap_call"]
    # vmap of the staged call (jit's program is batched later): the rule runs
    np.testing.assert_allclose(fgrad.vmap(fgrad.jit(lambda v: F(v) * 2.0))(fnp.asarray(X)), 2 * np.cos(X))


def test_nested_vmap_runs_the_rule_at_the_inner_level():
    # the inner vmap calls the rule (cos); the outer one batches the rule's own code (JAX: same)
    xs = fnp.asarray(np.arange(6.0).reshape(2, 3) / 3)
    np.testing.assert_allclose(fgrad.vmap(fgrad.vmap(F))(xs), np.cos(np.asarray(xs)), rtol=1e-15)


def test_rule_sees_which_arguments_are_batched_and_unbatched_outputs_stay_unbatched():
    seen = []

    @custom_vmap
    def g(x, y):
        return x * y

    @g.def_vmap
    def rule(axis_size, in_batched, xs, ys):
        seen.append((axis_size, list(in_batched), xs.shape, np.shape(ys)))
        return xs ** 2 * ys, True

    out = fgrad.vmap(g, in_axes=(0, None))(fnp.asarray(X), fnp.asarray(3.0))
    np.testing.assert_allclose(out, [0.27, 4.32, 18.75], rtol=1e-14)  # JAX 0.10.2
    assert seen == [(3, [True, False], (3,), ())]

    @custom_vmap
    def h(x):
        return fnp.sum(x) * 0 + 7.0

    @h.def_vmap
    def h_rule(axis_size, in_batched, xs):
        return fnp.asarray(7.0), False

    out = fgrad.vmap(h)(fnp.asarray(X))  # unbatched output broadcast by vmap's out_axes
    np.testing.assert_allclose(out, [7.0, 7.0, 7.0])


def test_pytree_arguments_and_outputs():
    @custom_vmap
    def g(p):
        return {"s": p["a"] + p["b"]}

    @g.def_vmap
    def rule(axis_size, in_batched, p):
        assert in_batched == [{"a": True, "b": False}]
        return {"s": p["a"] - p["b"]}, {"s": True}

    out = fgrad.vmap(g, in_axes=({"a": 0, "b": None},))({"a": fnp.asarray(X), "b": fnp.asarray(1.0)})
    np.testing.assert_allclose(out["s"], X - 1.0)


# stored from JAX 0.10.2: the JVP of a custom_vmap function under vmap differentiates the rule
JAX_JVP_VMAP_TANGENT = [-0.29552020666133955, 0.9320390859672263, -0.5984721441039565]
JAX_JVP_OF_VMAP_HALF = [-0.14776010333066977, 0.46601954298361314, -0.2992360720519783]


def test_forward_mode_follows_jax():
    # outside vmap: the derivative of the function
    p, t = fgrad.jvp(F, (fnp.asarray(0.4),), (fnp.asarray(1.0),))
    np.testing.assert_allclose([p, t], [np.sin(0.4), np.cos(0.4)], rtol=1e-15)
    # under vmap: the derivative of the rule (-sin), as JAX
    p, t = fgrad.vmap(lambda x: fgrad.jvp(F, (x,), (1.0,)))(fnp.asarray(X))
    np.testing.assert_allclose(p, np.cos(X), rtol=1e-15)
    np.testing.assert_allclose(t, JAX_JVP_VMAP_TANGENT, rtol=1e-14)
    np.testing.assert_allclose(t, -np.sin(X), rtol=1e-14)
    p, t = fgrad.jvp(fgrad.vmap(F), (fnp.asarray(X),), (fnp.full(3, 0.5),))
    np.testing.assert_allclose(t, JAX_JVP_OF_VMAP_HALF, rtol=1e-14)
    # jacfwd: tangents batched, primals not
    np.testing.assert_allclose(fgrad.jacfwd(F)(fnp.asarray(X)), np.diag(-np.sin(X)), atol=1e-15)
    np.testing.assert_allclose(fgrad.jit(fgrad.vmap(fgrad.jacfwd(F)))(fnp.asarray(X)), -np.sin(X), rtol=1e-14)


def test_reverse_mode_is_refused_with_a_clear_error_and_custom_vjp_gives_one():
    with pytest.raises(ValueError, match="custom_vmap.*custom_vjp"):
        fgrad.grad(F)(0.5)

    @fgrad.custom_vjp
    @custom_vmap
    def f(x, y):
        return fnp.sin(x) * y

    @f.def_vmap  # reached through custom_vjp (JAX forwards the attribute too)
    def f_vmap_rule(axis_size, in_batched, xs, ys):
        return fnp.cos(xs) * ys, True

    f.defvjp(lambda x, y: (f(x, y), (fnp.cos(x), fnp.sin(x), y)),
             lambda res, g: (res[0] * g * res[2], res[1] * g))
    np.testing.assert_allclose(fgrad.vmap(f)(fnp.zeros(3), fnp.ones(3)), [1.0, 1.0, 1.0])
    assert float(fgrad.grad(f)(fnp.asarray(0.0), fnp.asarray(1.0))) == 1.0
    np.testing.assert_allclose(fgrad.jit(fgrad.vmap(fgrad.grad(f)))(fnp.asarray(X), fnp.ones(3)), np.cos(X))


def test_errors_match_jax():
    @custom_vmap
    def no_rule(x):
        return x

    with pytest.raises(AttributeError, match="No batching rule defined for custom_vmap function no_rule"):
        no_rule(1.0)

    @custom_vmap
    def two(x):
        return x, x

    @two.def_vmap
    def two_rule(axis_size, in_batched, xs):
        return (xs, xs), True

    with pytest.raises(ValueError, match="structure of output value and output batching"):
        fgrad.vmap(two)(fnp.asarray(X))

    @custom_vmap
    def bad_shape(x):
        return x

    @bad_shape.def_vmap
    def bad_rule(axis_size, in_batched, xs):
        return xs[:2], True

    with pytest.raises(ValueError, match=r"shape \(2,\) marked batched; expected \(3,\)"):
        fgrad.vmap(bad_shape)(fnp.asarray(X))


def test_sequential_vmap_calls_the_function_once_per_example():
    calls = []

    def host_only(x, y):
        calls.append(1)
        out = fgrad.ShapeDtypeStruct((), np.float64)
        return fgrad.pure_callback(lambda a, b: np.asarray(np.sum(a) * b), out, x, y)

    g = sequential_vmap(host_only)
    xs = fnp.asarray(np.arange(6.0).reshape(3, 2))
    out = fgrad.vmap(g, in_axes=(0, None))(xs, fnp.asarray(2.0))
    np.testing.assert_allclose(out, np.arange(6.0).reshape(3, 2).sum(1) * 2.0)
    out = fgrad.jit(fgrad.vmap(g))(xs, fnp.asarray([1.0, 2.0, 3.0]))
    np.testing.assert_allclose(out, np.arange(6.0).reshape(3, 2).sum(1) * [1.0, 2.0, 3.0])


def test_custom_vmap_live_against_jax():
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    from jax.custom_batching import custom_vmap as jax_custom_vmap

    jax.config.update("jax_enable_x64", True)
    jf = _sin_with_cos_rule({"custom_vmap": jax_custom_vmap, "sin": jnp.sin, "cos": jnp.cos})
    x = np.array([0.1, 0.9, -2.0])
    for ours, theirs in [
        (fgrad.vmap(F), jax.vmap(jf)),
        (fgrad.jit(fgrad.vmap(F)), jax.jit(jax.vmap(jf))),
        (fgrad.jacfwd(F), jax.jacfwd(jf)),
        (fgrad.vmap(fgrad.jacfwd(F)), jax.vmap(jax.jacfwd(jf))),
        (lambda v: fgrad.vmap(lambda x: fgrad.jvp(F, (x,), (2.0,))[1])(v),
         lambda v: jax.vmap(lambda x: jax.jvp(jf, (x,), (2.0,))[1])(v)),
    ]:
        np.testing.assert_allclose(ours(fnp.asarray(x)), theirs(jnp.asarray(x)), rtol=1e-14, atol=1e-15)


# -- custom_gradient --------------------------------------------------------------------------

def _cg(np_mod, custom_gradient):
    @custom_gradient
    def cg(x, y):
        z = np_mod.sin(x) * y
        return z, lambda g: (g * 2.0 * y, g * np_mod.exp(x))

    return cg


CG = _cg(fnp, fgrad.custom_gradient)
XS, YS = np.array([0.1, 0.7]), np.array([1.5, -0.5])
# stored from JAX 0.10.2
JAX_CG_GRADS = [[3.0, -1.0], [1.1051709180756477, 2.0137527074704766]]


def test_custom_gradient_value_and_rule():
    np.testing.assert_allclose(CG(fnp.asarray(XS), fnp.asarray(YS)), np.sin(XS) * YS, rtol=1e-15)
    gx, gy = fgrad.grad(lambda a, b: CG(a, b).sum(), argnums=(0, 1))(fnp.asarray(XS), fnp.asarray(YS))
    np.testing.assert_allclose(gx, JAX_CG_GRADS[0], rtol=1e-15)
    np.testing.assert_allclose(gy, JAX_CG_GRADS[1], rtol=1e-15)
    np.testing.assert_allclose(gy, np.exp(XS), rtol=1e-15)  # the rule, not d/dy sin(x) y


@pytest.mark.parametrize("transform", ["jit(grad)", "vmap(grad)", "jit(vmap(grad))", "grad(jit)", "jacrev"])
def test_custom_gradient_under_transforms(transform):
    g = fgrad.grad(CG)
    fn = {"jit(grad)": lambda: fgrad.vmap(fgrad.jit(g))(fnp.asarray(XS), fnp.asarray(YS)),
          "vmap(grad)": lambda: fgrad.vmap(g)(fnp.asarray(XS), fnp.asarray(YS)),
          "jit(vmap(grad))": lambda: fgrad.jit(fgrad.vmap(g))(fnp.asarray(XS), fnp.asarray(YS)),
          "grad(jit)": lambda: fgrad.vmap(fgrad.grad(fgrad.jit(CG)))(fnp.asarray(XS), fnp.asarray(YS)),
          "jacrev": lambda: fnp.diag(fgrad.jacrev(CG)(fnp.asarray(XS), fnp.asarray(YS)))}[transform]
    np.testing.assert_allclose(fn(), 2.0 * YS, rtol=1e-15)


def test_custom_gradient_is_differentiable_again_through_its_closure():
    @fgrad.custom_gradient
    def sq(x):
        return x ** 2, lambda ct: (3 * ct * x,)

    assert float(fgrad.grad(sq)(2.0)) == 6.0
    assert float(fgrad.grad(fgrad.grad(sq))(2.0)) == 3.0  # JAX 0.10.2: 3.0
    assert float(fgrad.jit(fgrad.grad(fgrad.grad(sq)))(2.0)) == 3.0


def test_custom_gradient_pytrees_and_a_bare_cotangent():
    @fgrad.custom_gradient
    def tree_f(p):
        return p["a"] * p["b"], lambda g: ({"a": g * 10.0, "b": g * 20.0},)

    g = fgrad.grad(tree_f)({"a": 1.0, "b": 2.0})
    assert float(g["a"]) == 10.0 and float(g["b"]) == 20.0  # JAX 0.10.2

    @fgrad.custom_gradient
    def one(x):
        return fnp.tanh(x), lambda g: g * 0.5  # a single argument: the bare cotangent

    assert float(fgrad.grad(one)(0.3)) == 0.5


def test_custom_gradient_rule_must_be_callable():
    @fgrad.custom_gradient
    def bad(x):
        return x, 3

    with pytest.raises(TypeError, match="custom_gradient function 'bad' must return a pair"):
        fgrad.grad(bad)(1.0)


def test_custom_gradient_live_against_jax():
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    jax.config.update("jax_enable_x64", True)
    jcg = _cg(jnp, jax.custom_gradient)
    for ours, theirs in [
        (fgrad.grad(lambda a, b: CG(a, b).sum(), argnums=(0, 1)),
         jax.grad(lambda a, b: jcg(a, b).sum(), argnums=(0, 1))),
        (fgrad.jit(fgrad.vmap(fgrad.grad(CG))), jax.jit(jax.vmap(jax.grad(jcg)))),
        (fgrad.jacrev(CG), jax.jacrev(jcg)),
    ]:
        a = ours(fnp.asarray(XS), fnp.asarray(YS))
        b = theirs(jnp.asarray(XS), jnp.asarray(YS))
        for u, v in zip(fgrad.tree_leaves(a), jax.tree_util.tree_leaves(b)):
            np.testing.assert_allclose(u, v, rtol=1e-15)


def test_custom_derivatives_and_custom_batching_are_attributes():
    assert fgrad.custom_derivatives.custom_gradient is fgrad.custom_gradient
    assert fgrad.custom_derivatives.custom_vjp is fgrad.custom_vjp
    assert fgrad.custom_batching.custom_vmap is custom_vmap


# -- symbolic zeros in custom rules (jax.custom_derivatives.SymbolicZero / CustomVJPPrimal) ------

def _symbolic_f(lib, custom_jvp, SymbolicZero, seen):
    @custom_jvp
    def f(x, y):
        return lib.sin(x) * y

    def f_jvp(primals, tangents):
        (x, y), (tx, ty) = primals, tangents
        seen.append((type(tx).__name__, type(ty).__name__))
        out = f(x, y)
        t = lib.zeros_like(out)
        if not isinstance(tx, SymbolicZero):
            t = t + lib.cos(x) * y * tx
        if not isinstance(ty, SymbolicZero):
            t = t + lib.sin(x) * ty
        return out, t

    f.defjvp(f_jvp, symbolic_zeros=True)
    return f


def test_custom_jvp_symbolic_zeros_reach_the_rule_as_symbolic_zero():
    from fgrad.custom_derivatives import SymbolicZero

    seen = []
    f = _symbolic_f(fnp, fgrad.custom_jvp, SymbolicZero, seen)
    x, y = fnp.asarray(0.7), fnp.asarray(2.0)
    assert float(fgrad.grad(f)(x, y)) == pytest.approx(np.cos(0.7) * 2.0, rel=1e-15)
    assert seen[-1][1] == "SymbolicZero"  # y carries no tangent
    assert float(fgrad.grad(f, argnums=1)(x, y)) == pytest.approx(np.sin(0.7), rel=1e-15)
    assert seen[-1][0] == "SymbolicZero"
    np.testing.assert_allclose(fgrad.jit(fgrad.vmap(fgrad.grad(f)))(fnp.asarray(X), fnp.ones(3) * 2.0),
                               np.cos(X) * 2.0, rtol=1e-15)
    _, t = fgrad.jvp(f, (x, y), (fnp.asarray(1.0), fnp.asarray(1.0)))  # both tangents: no zero
    assert float(t) == pytest.approx(np.cos(0.7) * 2.0 + np.sin(0.7), rel=1e-15)
    z = SymbolicZero.from_primal_value(fnp.arange(3))
    assert z.shape == (3,) and z.dtype == fgrad.float0 and z.ndim == 1


def test_custom_vjp_symbolic_zeros_forward_rule_gets_custom_vjp_primals():
    from fgrad.custom_derivatives import CustomVJPPrimal, custom_vjp_primal_tree_values

    @fgrad.custom_vjp
    def g(x, y):
        return x * y

    kinds = []

    def fwd(x, y):
        kinds.append((type(x).__name__, x.perturbed))
        xv, yv = custom_vjp_primal_tree_values((x, y))
        return g(xv, yv), (xv, yv)

    g.defvjp(fwd, lambda res, ct: (ct * res[1], ct * res[0]), symbolic_zeros=True)
    assert float(fgrad.grad(g)(2.0, 3.0)) == 3.0
    assert kinds == [("CustomVJPPrimal", True)]
    assert CustomVJPPrimal(1.0, False).value == 1.0
    with pytest.raises(TypeError, match="unexpected leaf type"):
        custom_vjp_primal_tree_values((1.0,))


def test_zero_from_primal():
    from fgrad.custom_derivatives import SymbolicZero, zero_from_primal

    z = zero_from_primal({"a": fnp.ones(2), "n": fnp.arange(3)})
    np.testing.assert_array_equal(z["a"], [0.0, 0.0])
    assert z["n"].dtype == fgrad.float0 and z["n"].shape == (3,)
    s = zero_from_primal(fnp.ones(2), symbolic_zeros=True)
    assert isinstance(s, SymbolicZero) and s.shape == (2,) and s.dtype == np.float64


def test_symbolic_zeros_live_against_jax():
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    from jax.custom_derivatives import SymbolicZero as JaxSymbolicZero

    from fgrad.custom_derivatives import SymbolicZero

    jax.config.update("jax_enable_x64", True)
    ours_seen, theirs_seen = [], []
    f = _symbolic_f(fnp, fgrad.custom_jvp, SymbolicZero, ours_seen)
    jf = _symbolic_f(jnp, jax.custom_jvp, JaxSymbolicZero, theirs_seen)
    for argnums in (0, 1, (0, 1)):
        a = fgrad.grad(f, argnums=argnums)(fnp.asarray(0.7), fnp.asarray(2.0))
        b = jax.grad(jf, argnums=argnums)(0.7, 2.0)
        for u, v in zip(fgrad.tree_leaves(a), jax.tree_util.tree_leaves(b)):
            np.testing.assert_allclose(u, v, rtol=1e-15)
    # which tangents were symbolic zeros: the same (the tracer types differ)
    def zero_pattern(seen):
        return [tuple(k == "SymbolicZero" for k in pair) for pair in seen]

    assert zero_pattern(ours_seen) == zero_pattern(theirs_seen)


# -- linear_call (jax.custom_derivatives.linear_call) ------------------------------------------
# JAX 0.10.2's linear_call has no batching rule and fails under jvp/jit with a zero tangent;
# fgrad's is checked against the definitions: the forward value is fun's, forward mode applies
# fun to the tangents, reverse mode applies the given transpose (3 A^T here: visibly not fun's).

A_LC = np.arange(6.0).reshape(2, 3) / 5
B_LC = np.array([1.0, -2.0])


def _lc(x, s, a=A_LC):
    from fgrad.custom_derivatives import linear_call

    def fun(res, lin):
        m, b = res
        return {"y": m @ lin[0] + b * lin[1]}

    def transpose(res, ct):
        m, b = res
        return (3.0 * m.T @ ct["y"], fnp.sum(b * ct["y"]))

    return linear_call(fun, transpose, (fnp.asarray(a), fnp.asarray(B_LC)), (x, s))["y"]


def test_linear_call_value_forward_and_reverse_mode():
    x, s = fnp.asarray([0.1, 0.2, 0.3]), fnp.asarray(1.5)
    want = A_LC @ np.asarray(x) + B_LC * 1.5
    np.testing.assert_allclose(_lc(x, s), want, rtol=1e-15)
    _, t = fgrad.jvp(lambda v: _lc(v, s), (x,), (fnp.ones(3),))
    np.testing.assert_allclose(t, A_LC @ np.ones(3), rtol=1e-15)  # fun on the tangents
    ct = np.array([1.0, 2.0])
    gx, gs = fgrad.grad(lambda v, w: fnp.sum(_lc(v, w) * ct), argnums=(0, 1))(x, s)
    np.testing.assert_allclose(gx, 3.0 * A_LC.T @ ct, rtol=1e-15)  # the given transpose
    np.testing.assert_allclose(gs, np.sum(B_LC * ct), rtol=1e-15)
    np.testing.assert_allclose(fgrad.jit(fgrad.grad(lambda v: fnp.sum(_lc(v, s) * ct)))(x), 3.0 * A_LC.T @ ct,
                               rtol=1e-15)


def test_linear_call_under_vmap_matches_a_loop():
    xs = fnp.asarray(np.arange(12.0).reshape(4, 3) / 7)
    ss = fnp.arange(4.0)
    batched = fgrad.vmap(_lc)(xs, ss)
    loop = np.stack([np.asarray(_lc(xs[i], ss[i])) for i in range(4)])
    np.testing.assert_allclose(batched, loop, rtol=1e-15)
    grads = fgrad.jit(fgrad.vmap(fgrad.grad(lambda v, w: fnp.sum(_lc(v, w) ** 2))))(xs, ss)
    for i in range(4):
        g = fgrad.grad(lambda v: fnp.sum(_lc(v, ss[i]) ** 2))(xs[i])
        np.testing.assert_allclose(grads[i], g, rtol=1e-14)
    # residuals batched (vmap over the matrix), the reverse pass through the batched transpose
    a2 = fnp.asarray(np.stack([A_LC, 2 * A_LC]))
    x = fnp.asarray([0.1, 0.2, 0.3])
    g = fgrad.grad(lambda v: fnp.sum(fgrad.vmap(lambda a: _lc(v, 1.5, a))(a2)))(x)
    np.testing.assert_allclose(g, 3.0 * (A_LC.T @ np.ones(2) + 2 * A_LC.T @ np.ones(2)), rtol=1e-14)


def test_linear_call_is_not_differentiable_in_its_residuals():
    with pytest.raises(NotImplementedError, match="residual arguments"):
        fgrad.grad(lambda a: fnp.sum(_lc(fnp.ones(3), 1.0, a)))(fnp.asarray(A_LC))
