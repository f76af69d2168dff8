"""The JAX names that libraries over JAX (optax) use, added for the jax alias
(docs/jax-ecosystem.md): each against NumPy or JAX's numbers (stored from JAX 0.10.2 with
JAX_ENABLE_X64=1, and live when jax is installed)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import fgrad
import fgrad.lax as lax
import fgrad.numpy as fnp
import fgrad.random as random
from fgrad.sharding import AxisType, Mesh, NamedSharding, PartitionSpec


def _jax():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    return jax


# ---- vectorize --------------------------------------------------------------------------

def test_vectorize_signature_matches_numpy_and_stored_jax():
    a, b = np.arange(6.0).reshape(3, 2), np.array([1.0, -1.0])
    got = fnp.vectorize(fnp.dot, signature="(n),(n)->()")(a, b)
    np.testing.assert_allclose(got, np.vectorize(np.dot, signature="(n),(n)->()")(a, b))
    np.testing.assert_allclose(got, [-1.0, -1.0, -1.0])  # JAX's jnp.vectorize, stored


def test_vectorize_broadcasts_batch_axes_and_excludes():
    add = fnp.vectorize(lambda x, y: x + y)
    assert add(fnp.ones(3), fnp.ones((2, 1))).shape == (2, 3)
    f = fnp.vectorize(lambda a, b: a * 2 + b, excluded={1})
    np.testing.assert_allclose(f(fnp.arange(3.0), 10.0), [10.0, 12.0, 14.0])  # JAX, stored
    outer = fnp.vectorize(lambda x: fnp.stack([x, x * x]), signature="()->(k)")
    np.testing.assert_allclose(outer(fnp.arange(3.0)), [[0, 0], [1, 1], [2, 4]])
    # differentiable: a vmap inside
    g = fgrad.grad(lambda x: fnp.sum(fnp.vectorize(fnp.sin)(x)))(fnp.arange(3.0))
    np.testing.assert_allclose(g, np.cos(np.arange(3.0)))


def test_vectorize_bad_input():
    with pytest.raises(ValueError, match="signature"):
        fnp.vectorize(fnp.dot, signature="(n),(n)")
    with pytest.raises(ValueError, match="core dimension 'n'"):
        fnp.vectorize(fnp.dot, signature="(n),(n)->()")(fnp.ones(2), fnp.ones(3))


def test_vectorize_live_jax():
    jax = _jax()
    a = np.random.default_rng(0).normal(size=(4, 3, 2))
    want = jax.numpy.vectorize(jax.numpy.dot, signature="(n),(n)->()")(a, a[0])
    np.testing.assert_allclose(fnp.vectorize(fnp.dot, signature="(n),(n)->()")(a, a[0]), want)


# ---- reductions with where= -------------------------------------------------------------

@pytest.mark.parametrize("axis", [None, 0, 1])
def test_reductions_where_match_numpy(axis):
    a = np.arange(1.0, 7.0).reshape(2, 3)
    w = np.array([True, False, True])

    def ref(name, **kw):  # NumPy warns where nothing is selected (NaN there, as fgrad)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return getattr(np, name)(a, axis=axis, where=w, **kw)

    for name in ("sum", "prod", "mean"):
        np.testing.assert_allclose(getattr(fnp, name)(a, axis=axis, where=w), ref(name), err_msg=name)
    np.testing.assert_allclose(fnp.max(a, axis=axis, where=w, initial=-5.0),
                               np.max(a, axis=axis, where=w, initial=-5.0))
    np.testing.assert_allclose(fnp.var(a, axis=axis, where=w, ddof=1), ref("var", ddof=1))
    np.testing.assert_allclose(fnp.sum(a, axis=axis, where=w, keepdims=True),
                               np.sum(a, axis=axis, where=w, keepdims=True))


def test_sum_where_gradient_is_the_mask():
    g = fgrad.grad(lambda x: fnp.sum(x * x, where=fnp.asarray([True, False])))(fnp.asarray([3.0, 4.0]))
    np.testing.assert_allclose(g, [6.0, 0.0])


def test_reductions_where_bad_input():
    with pytest.raises(ValueError, match="initial"):
        fnp.max(fnp.ones(3), where=fnp.asarray([True, False, True]))
    with pytest.raises(ValueError, match="broadcast"):
        fnp.sum(fnp.ones(3), where=fnp.ones((2, 3), bool))


# ---- precision= and preferred_element_type= ----------------------------------------------

def test_precision_is_accepted_and_validated():
    a, b = fnp.arange(4.0).reshape(2, 2), fnp.ones((2, 2))
    for p in (None, lax.Precision.HIGHEST, "highest", ("high", None), lax.Precision.DEFAULT):
        for f in (fnp.dot, fnp.matmul, fnp.vdot, fnp.inner, lax.dot):
            np.testing.assert_allclose(f(a, b, precision=p), getattr(np, f.__name__)(a, b))
        np.testing.assert_allclose(fnp.tensordot(a, b, 1, precision=p), np.tensordot(a, b, 1))
        np.testing.assert_allclose(fnp.einsum("ij,jk", a, b, precision=p), a @ b)
    with pytest.raises(ValueError, match="precision"):
        fnp.dot(a, b, precision="ultra")
    with pytest.raises(ValueError, match="precision"):
        fnp.matmul(a, b, precision=("high", "high", "high"))
    assert lax.Precision("float32") is lax.Precision.HIGHEST


def test_preferred_element_type():
    out = fnp.matmul(fnp.ones((2, 2), "int32"), fnp.ones((2, 2), "int32"), preferred_element_type="float32")
    assert out.dtype == np.float32


# ---- jit's keywords, default_backend -----------------------------------------------------

def test_jit_inline_and_keep_unused():
    inner = fgrad.jit(lambda x: x * 2, inline=True)
    outer = fgrad.jit(lambda x: inner(x) + 1, keep_unused=True, donate_argnames=("x",))
    np.testing.assert_allclose(outer(fnp.arange(3.0)), [1.0, 3.0, 5.0])
    with pytest.raises(TypeError, match="inline"):
        fgrad.jit(lambda x: x, inline="yes")


def test_default_backend():
    assert fgrad.default_backend() in ("cpu", "gpu")


# ---- loops: Python-scalar carries take the body's dtype (JAX's weak-type rule) -----------

def test_loop_python_scalar_carry_takes_the_body_dtype():
    # JAX: (Array(1.5, float32), Array(3, int64)), Array(1.5, float32), Array(3., float64)
    c, i = lax.while_loop(lambda c: c[1] < 3, lambda c: (c[0] + np.float32(0.5), c[1] + 1), (0, 0))
    assert (c.dtype, float(c), i.dtype, int(i)) == (np.float32, 1.5, np.int64, 3)
    out = lax.fori_loop(0, 3, lambda i, c: c + np.float32(0.5), 0)
    assert (out.dtype, float(out)) == (np.float32, 1.5)
    out = lax.scan(lambda c, x: (c + x, None), 0, fnp.arange(3.0))[0]
    assert (out.dtype, float(out)) == (np.float64, 3.0)
    # a strongly typed Array carry keeps the strict check
    with pytest.raises(TypeError, match="same shapes and dtypes"):
        lax.while_loop(lambda c: c < 3, lambda c: c + 0.5, fnp.asarray(0, fnp.int64))
    # a weakly typed one (fnp.asarray(0)) is promoted, as in JAX: Array(3., dtype=float64)
    out = lax.while_loop(lambda c: c < 3, lambda c: c + 0.5, fnp.asarray(0))
    assert (out.dtype, float(out), out.weak_type) == (np.float64, 3.0, False)


def test_fori_loop_unroll():
    assert int(lax.fori_loop(0, 4, lambda i, c: c + i, 0, unroll=2)) == 6
    with pytest.raises(TypeError, match="unroll"):
        lax.fori_loop(0, 4, lambda i, c: c + i, 0, unroll="2")


# ---- random.normal with a complex dtype --------------------------------------------------

def test_complex_normal_matches_stored_jax_bits():
    got = random.normal(random.PRNGKey(0), (3,), "complex128")
    want = [(1.329381886098021 - 0.9905746487658766j), (-0.34027037111235725 + 1.0126794395709957j),
            (0.2937726243708857 + 0.4418078801945642j)]  # jax.random.normal, x64
    np.testing.assert_allclose(got, want, rtol=1e-14)
    z = random.normal(random.key(1), (4000,), "complex64")
    assert z.dtype == np.complex64 and abs(float(fnp.mean(fnp.abs(z) ** 2)) - 1.0) < 0.1


# ---- small numpy names ------------------------------------------------------------------

def test_iscomplexobj_isrealobj_copy():
    assert fnp.iscomplexobj(fnp.asarray([1 + 0j])) and not fnp.iscomplexobj(fnp.ones(2))
    assert fnp.iscomplexobj(1j) and fnp.isrealobj(2.0)
    x = fnp.arange(3.0)
    y = fnp.copy(x)
    assert y is not x and np.array_equal(y, x)
    np.testing.assert_allclose(fnp.copy(fnp.array([1.0, 2.0])), [1.0, 2.0])
    with pytest.raises(TypeError, match="copy requires ndarray"):  # as in JAX
        fnp.copy([1.0, 2.0])


# ---- sharding: single-device meaning ----------------------------------------------------

def test_sharding_names_single_device():
    mesh = fgrad.make_mesh((1, 1), ("data", "model"), axis_types=(AxisType.Explicit,) * 2)
    assert mesh.are_all_axes_explicit and mesh.shape == {"data": 1, "model": 1}
    s = NamedSharding(mesh, fgrad.P("data", None))
    assert s.spec == PartitionSpec("data", None) and s.num_devices == 1
    assert s.shard_shape((4, 3)) == (4, 3)
    t = fgrad.typeof(fnp.ones((2, 3), "float32"))
    assert (t.shape, t.dtype, t.sharding.spec) == ((2, 3), np.float32, PartitionSpec())
    assert not t.sharding.mesh.are_all_axes_explicit
    with fgrad.set_mesh(mesh):
        assert fgrad.sharding.get_abstract_mesh().axis_names == ("data", "model")
    assert fgrad.sharding.get_abstract_mesh().empty
    assert isinstance(fnp.ones(2).sharding, fgrad.sharding.Sharding)


def test_sharding_refuses_several_devices():
    with pytest.raises(ValueError, match="1 device"):
        fgrad.make_mesh((2,), ("data",))
    with pytest.raises(ValueError, match="1 device"):
        Mesh(np.array([fgrad.devices()[0]] * 2), ("d",))
    with pytest.raises(ValueError, match="axis 'x'"):
        NamedSharding(fgrad.make_mesh((1,), ("d",)), PartitionSpec("x"))


# ---- round(), cond(operand=None) ----------------------------------------------------------

def test_builtin_round_of_an_array():
    # JAX: round(x) is an integer array (as Python's round of a float), round(x, n) keeps the dtype
    out = round(fnp.asarray(2.6))
    assert out.dtype.kind == "i" and int(out) == 3
    np.testing.assert_allclose(round(fnp.asarray([1.26, -2.44]), 1), [1.3, -2.4])
    assert int(fgrad.jit(lambda x: round(x))(fnp.asarray(1.7))) == 2


def test_cond_operand_none_is_passed_to_the_branches():
    # optax.apply_if_finite: lax.cond(pred, do_update, reject_update, operand=None)
    seen = []
    out = lax.cond(False, lambda _: 1.0, lambda arg: seen.append(arg) or 2.0, operand=None)
    assert float(out) == 2.0 and seen == [None]
    with pytest.raises(TypeError, match="operand"):
        lax.cond(True, lambda x: x, lambda x: x, 1.0, operand=2.0)


# ---- key dtypes, tree_unflatten of an iterator ---------------------------------------------

def test_prng_key_dtype():
    from fgrad import dtypes
    key_dtype = random.key(0).dtype
    assert dtypes.issubdtype(key_dtype, dtypes.prng_key) and dtypes.issubdtype(key_dtype, dtypes.extended)
    assert not dtypes.issubdtype(np.dtype("float32"), dtypes.prng_key)
    assert not dtypes.issubdtype(key_dtype, np.floating)
    assert dtypes.issubdtype(np.dtype("float32"), np.inexact)


def test_tree_unflatten_takes_any_iterable():
    # optax.tree_utils builds leaves with a generator; a single-leaf tree took only lists
    from fgrad.tree_util import tree_structure, tree_unflatten
    assert tree_unflatten(tree_structure(1.0), (x for x in [5])) == 5
    assert tree_unflatten(tree_structure((1, 2)), iter([3, 4])) == (3, 4)
