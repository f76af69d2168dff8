"""Second round of fixes found by running optax's own tests on fgrad through the jax alias
(docs/jax-ecosystem.md): each checked against NumPy or JAX's numbers (stored from JAX 0.10.2
with JAX_ENABLE_X64=1, and compared live when jax is installed)."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.lax as lax
import fgrad.numpy as fnp
from fgrad.core.ir import has_effects


def _jax():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    return jax


# ---- reshape / ravel / flatten with order='F' (optax.microbatching) ---------------------

@pytest.mark.parametrize("shape", [(4, -1), (6, 4), (2, 2, 6), (24,)])
def test_reshape_order_f_matches_numpy(shape):
    a = np.arange(24.0).reshape(2, 3, 4)
    expected = a.reshape(shape, order="F")
    np.testing.assert_array_equal(fnp.reshape(fnp.asarray(a), shape, order="F"), expected)
    np.testing.assert_array_equal(fnp.asarray(a).reshape(shape, order="F"), expected)
    np.testing.assert_array_equal(fgrad.jit(lambda v: v.reshape(shape, order="F"))(a), expected)


def test_ravel_and_flatten_honour_order_f():
    # ravel/flatten ignored order= and silently returned the row-major order
    a = np.arange(6).reshape(2, 3)
    np.testing.assert_array_equal(fnp.ravel(fnp.asarray(a), order="F"), [0, 3, 1, 4, 2, 5])
    np.testing.assert_array_equal(fnp.asarray(a).ravel("F"), a.ravel("F"))
    np.testing.assert_array_equal(fnp.asarray(a).flatten("F"), a.flatten("F"))


def test_reshape_order_f_under_vmap_and_grad():
    a = np.arange(24.0).reshape(2, 3, 4)
    got = fgrad.vmap(lambda v: v.reshape((4, 3), order="F"))(a)
    np.testing.assert_array_equal(got, np.stack([b.reshape((4, 3), order="F") for b in a]))
    weights = np.arange(24.0).reshape(4, 6)
    # d/da sum(reshape_F(a) * w) = w read back in column-major order
    g = fgrad.grad(lambda v: fnp.sum(v.reshape((4, 6), order="F") * weights))(a)
    np.testing.assert_array_equal(g, weights.reshape(a.shape, order="F"))


def test_reshape_unknown_order_raises_and_out_sharding_is_accepted():
    with pytest.raises(NotImplementedError, match="order must be 'C' or 'F'"):
        fnp.reshape(fnp.arange(4), (2, 2), order="A")
    assert fnp.arange(4).reshape((2, 2), out_sharding=None).shape == (2, 2)


# ---- lax.broadcast_shapes, dtypes.canonicalize_dtype -------------------------------------

def test_lax_broadcast_shapes_matches_jax():
    shapes = ((2, 1, 4), (3, 1), (1,))
    assert lax.broadcast_shapes(*shapes) == (2, 3, 4)  # JAX, stored
    with pytest.raises(ValueError, match="Incompatible shapes for broadcasting"):
        lax.broadcast_shapes((2,), (3,))
    if (jax := _jax()) is not None:
        assert lax.broadcast_shapes(*shapes) == jax.lax.broadcast_shapes(*shapes)


@pytest.mark.parametrize("name", ["bfloat16", "float16"])
def test_canonicalize_dtype_accepts_16_bit_floats(name):
    assert fgrad.dtypes.canonicalize_dtype(getattr(fnp, name)) == np.dtype(getattr(fnp, name))
    with pytest.raises(TypeError, match="canonicalize_dtype"):
        fgrad.dtypes.canonicalize_dtype("U3")


# ---- linear_transpose (optax's backtracking line search) ---------------------------------

_A = np.arange(6.0).reshape(2, 3)


def _linear_pair(x, y):
    return {"a": x @ _A, "b": 3.0 * y.sum()}


def test_linear_transpose_matches_jax():
    ct = {"a": np.array([1.0, -2.0, 0.5]), "b": 2.0}
    got = fgrad.linear_transpose(_linear_pair, fnp.zeros(2), fnp.zeros(3))(ct)
    np.testing.assert_allclose(got[0], [-1.0, -2.5])  # JAX, stored
    np.testing.assert_allclose(got[1], [6.0, 6.0, 6.0])
    jax = _jax()
    want = jax.linear_transpose(_linear_pair, np.zeros(2), np.zeros(3))(ct)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w)


def test_linear_transpose_is_the_adjoint():
    rng = np.random.default_rng(0)
    u, ct = rng.normal(size=2), rng.normal(size=3)
    (v,) = fgrad.linear_transpose(lambda x: x @ _A, fgrad.ShapeDtypeStruct((2,), np.float64))(ct)
    np.testing.assert_allclose(np.dot(u @ _A, ct), np.dot(u, v))


def test_linear_transpose_unused_input_gets_zeros_and_nonlinear_raises():
    got = fgrad.linear_transpose(lambda x, y: x, fnp.zeros(3), fnp.zeros(2, "float32"))(fnp.ones(3))
    np.testing.assert_array_equal(got[1], np.zeros(2, np.float32))
    assert got[1].dtype == np.float32
    with pytest.raises(NotImplementedError, match="sin"):
        fgrad.linear_transpose(fnp.sin, fnp.zeros(3))(fnp.ones(3))
    with pytest.raises(TypeError, match="cotangent"):
        fgrad.linear_transpose(lambda x: 2 * x, fnp.zeros(3))(fnp.ones(2))


def test_linear_transpose_of_linearize_inside_jit_and_cond_is_the_gradient():
    def loss(q):
        return fnp.sum(fnp.sin(q) ** 2)

    def grad_by_transpose(p):
        _, f_jvp = fgrad.linearize(loss, p)
        return fgrad.linear_transpose(f_jvp, p)(1.0)[0]

    p = fnp.asarray([0.5, 1.0, -2.0])
    got = fgrad.jit(lambda p: lax.cond(p.sum() < 0, grad_by_transpose, lambda p: p, p))(p)
    np.testing.assert_allclose(got, np.sin(2 * np.asarray(p)), rtol=1e-14)  # d sin^2 = sin 2q


# ---- jit keeps a cond whose branch prints (optax's verbose line search) -----------------

def _print_if_positive(x):
    lax.cond(x > 0, lambda: fgrad.debug.print("positive {}", x), lambda: None)
    return x


def test_jit_runs_a_debug_print_inside_cond_whose_results_are_unused(capsys):
    # the cond has no outputs, so dead-code elimination dropped it with its print
    jitted = fgrad.jit(_print_if_positive)
    jitted(fnp.asarray(2.0))
    jitted(fnp.asarray(-1.0))
    fgrad.jit(lambda x: (_print_if_positive(x), _print_if_positive(x))[0])(fnp.asarray(5.0))
    assert capsys.readouterr().out == "positive 2.0\npositive 5.0\npositive 5.0\n"


def test_has_effects_sees_effects_in_nested_programs():
    eqns = fgrad.make_jaxpr(_print_if_positive)(1.0).eqns
    assert [e.prim.name for e in eqns if has_effects(e)] == ["cond"]
    nested = fgrad.make_jaxpr(lambda x: lax.fori_loop(0, 2, lambda i, c: _print_if_positive(c), x))(1.0)
    assert any(has_effects(e) for e in nested.eqns)
    assert not any(has_effects(e) for e in fgrad.make_jaxpr(lambda x: lax.cond(x > 0, fnp.sin, fnp.cos, x))(
        1.0).eqns)


# ---- softmax / log_softmax with a fully masked row (optax softmax_cross_entropy) ---------

_LOGITS = np.array([[10.0, 1.0, -2.0], [1.0, 4.0, 0.2], [3.0, 1.0, 2.0]])
_WEIGHTS = np.array([[0.3, 1.0, 0.7], [1.0, 0.5, 0.25], [0.5, 0.2, 0.3]])
_MASK = np.array([[True, False, True], [False, False, False], [True, True, False]])
# JAX 0.10.2 (x64): grad of sum(where(mask, f(x, where=mask), 0) * weights)
_STORED_GRADS = {
    "log_softmax": [[-0.6999938558253977, 0.0, 0.6999938558253977], [0.0, 0.0, 0.0],
                    [-0.11655795458451756, 0.11655795458451773, 0.0]],
    "softmax": [[-2.4576547405508187e-06, 0.0, 2.45765474053327e-06], [0.0, 0.0, 0.0],
                [0.031498075621052, -0.031498075621051946, 0.0]],
}


def _masked_loss(nn, name):
    fn = getattr(nn, name)
    return lambda x: (fn(x, -1, _MASK) * _WEIGHTS).sum(where=_MASK)


@pytest.mark.parametrize("name", ["log_softmax", "softmax"])
def test_masked_softmax_gradient_is_zero_on_a_fully_masked_row(name):
    got = fgrad.grad(_masked_loss(fgrad.nn, name))(_LOGITS)
    np.testing.assert_allclose(got, _STORED_GRADS[name], rtol=1e-12, atol=1e-15)
    jax = _jax()
    np.testing.assert_allclose(got, jax.grad(_masked_loss(jax.nn, name))(_LOGITS), rtol=1e-12, atol=1e-15)


def test_masked_log_softmax_values_match_jax():
    got = fgrad.nn.log_softmax(_LOGITS, -1, _MASK)
    assert np.all(np.isneginf(np.asarray(got)[~_MASK]))
    jax = _jax()
    np.testing.assert_allclose(got, jax.nn.log_softmax(_LOGITS, -1, _MASK), rtol=1e-14)
