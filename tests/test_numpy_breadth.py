"""NumPy's numerical breadth in `fgrad.numpy` where JAX's semantics differ from NumPy's or
the op table cannot express the check: fixed-size set operations under jit, gradients
against JAX (stored numbers, and live when JAX is installed), windows, error types, the
general eigendecomposition's derivative, index tricks and printing.

The generic forward/gradient/vmap checks of these functions are op-table rows
(fgrad/testing/op_table/numpy_more.py)."""

from __future__ import annotations

import io

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad.numpy._calculus import gradient_with_edge_order
from fgrad.ops import eig as eig_ops
from fgrad.testing import check_grads


def _jax():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    return jax, jax.numpy


A = np.asarray

# ---------------------------------------------------------------------------------------
# set operations: JAX's fixed-size results under jit

_SET_A = np.array([5, 4, 2, 2, 0, 0, 0, 1])
_SET_B = np.array([5, 7, 4, 4, 7, 5, 5, 4])
# jax.numpy.<name>(a, b, size=7) (jax 0.10.2, x64)
_JAX_SIZE7 = {
    "union1d": [0, 1, 2, 4, 5, 7, 0],
    "intersect1d": [4, 5, 4, 4, 4, 4, 4],
    "setdiff1d": [0, 1, 2, 0, 0, 0, 0],
    "setxor1d": [0, 1, 2, 7, 0, 0, 0],
}


@pytest.mark.parametrize("name", sorted(_JAX_SIZE7))
def test_set_operations_with_size_match_jax_under_jit(name):
    f = fgrad.jit(lambda a, b: getattr(fnp, name)(a, b, size=7))
    np.testing.assert_array_equal(A(f(_SET_A, _SET_B)), _JAX_SIZE7[name])
    np.testing.assert_array_equal(A(getattr(fnp, name)(_SET_A, _SET_B)), getattr(np, name)(_SET_A, _SET_B))


def test_intersect1d_indices_padding_and_empty_result_match_jax():
    vals, i1, i2 = fgrad.jit(lambda a, b: fnp.intersect1d(a, b, size=4, return_indices=True))(_SET_A, _SET_B)
    assert [A(vals).tolist(), A(i1).tolist(), A(i2).tolist()] == [[4, 5, 4, 4], [1, 0, 8, 8], [2, 0, 8, 8]]
    # nothing in common: JAX pads with 0, not with an input value
    assert A(fnp.intersect1d(np.array([4]), np.array([7, 2]), size=3)).tolist() == [0, 0, 0]


def test_set_operations_live_jax():
    jax, jnp = _jax()
    rng = np.random.default_rng(0)
    for _ in range(10):
        a, b = rng.integers(0, 8, 7), rng.integers(0, 8, 6)
        for name in _JAX_SIZE7:
            np.testing.assert_array_equal(
                A(getattr(fnp, name)(a, b, size=9)), A(getattr(jnp, name)(a, b, size=9))
            )


def test_set_operations_need_size_under_jit():
    with pytest.raises(fgrad.errors.ConcretizationTypeError, match="size="):
        fgrad.jit(fnp.union1d)(_SET_A, _SET_B)


# ---------------------------------------------------------------------------------------
# gradients against JAX (stored numbers from jax 0.10.2 with x64)

_XP, _FP, _X = np.array([0.0, 1.0, 3.0]), np.array([1.0, -1.0, 2.0]), np.array([-1.0, 0.5, 2.0, 4.0])


def test_interp_gradients_match_jax():
    g = fgrad.grad(lambda x, xp, fp: fnp.sum(fnp.interp(x, xp, fp) ** 2), argnums=(0, 1, 2))(
        fnp.asarray(_X), fnp.asarray(_XP), fnp.asarray(_FP)
    )
    expected = [[0.0, 0.0, 1.5, 0.0], [0.0, -0.75, -0.75], [2.0, 0.5, 4.5]]
    for got, exp in zip(g, expected, strict=True):
        np.testing.assert_allclose(A(got), exp, rtol=1e-14, atol=1e-15)
    ext = fnp.interp(_X, _XP, _FP, left="extrapolate", right="extrapolate")
    np.testing.assert_allclose(A(ext), [3.0, 0.0, 0.5, 3.5], rtol=1e-15)


def test_nan_order_statistics_gradients_match_jax():
    a = fnp.asarray([3.0, np.nan, 1.0, 2.0, 5.0])
    np.testing.assert_allclose(
        A(fgrad.grad(lambda v: fnp.nanpercentile(v, 30.0))(a)), [0, 0, 0.1, 0.9, 0], atol=1e-14
    )
    assert A(fgrad.grad(fnp.nanmedian)(fnp.asarray([1.0, np.nan, 3.0, 2.0]))).tolist() == [0, 0, 0, 1]
    # an all-NaN slice gives NaN and no gradient (NumPy warns and gives NaN)
    out = fnp.nanmedian(fnp.asarray([[np.nan, np.nan], [1.0, 2.0]]), axis=1)
    assert np.isnan(A(out)[0]) and A(out)[1] == 1.5


def test_corrcoef_polyval_kaiser_gradients_match_jax():
    m = fnp.asarray([[1.0, 2.0, 4.0, 3.0], [0.0, 1.0, 1.0, 3.0], [2.0, 0.0, 1.0, 1.0]])
    expected = [
        [0.11876160100327114, -0.3478505426185217, -0.11032734061197945, 0.33941628222723],
        [-0.1727963540353944, -0.07559840489048504, 0.3347929359435766, -0.08639817701769718],
        [-0.3162277660168379, -0.3162277660168379, 0.47434164902525683, 0.15811388300841894],
    ]
    np.testing.assert_allclose(
        A(fgrad.grad(lambda v: fnp.sum(fnp.corrcoef(v)[0, 1:]))(m)), expected, rtol=1e-12
    )
    p = fnp.asarray([1.0, -2.0, 3.0])
    np.testing.assert_allclose(A(fgrad.grad(fnp.polyval)(p, 1.5)), [2.25, 1.5, 1.0], rtol=1e-15)
    assert float(fgrad.grad(fnp.polyval, argnums=1)(p, 1.5)) == 1.0
    np.testing.assert_allclose(
        float(fgrad.grad(lambda b: fnp.sum(fnp.kaiser(5, b)))(2.5)), -0.6813209782138654, rtol=1e-12
    )


def test_gradients_live_jax():
    jax, jnp = _jax()
    rng = np.random.default_rng(1)
    m = rng.normal(size=(3, 6))
    w = rng.uniform(0.5, 2.0, 6)
    for f, jf in [
        (lambda v: fnp.sum(fnp.cov(v, aweights=w) ** 2), lambda v: jnp.sum(jnp.cov(v, aweights=w) ** 2)),
        (lambda v: fnp.sum(fnp.gradient(v, axis=1) ** 2), lambda v: jnp.sum(jnp.gradient(v, axis=1) ** 2)),
        (lambda v: fnp.sum(fnp.trapezoid(v, dx=0.2)), lambda v: jnp.sum(jnp.trapezoid(v, dx=0.2))),
        (lambda v: fnp.sum(fnp.unwrap(3 * v) ** 2), lambda v: jnp.sum(jnp.unwrap(3 * v) ** 2)),
        (lambda v: fnp.sum(fnp.polyfit(v[0], v[1], 2)), lambda v: jnp.sum(jnp.polyfit(v[0], v[1], 2))),
        (lambda v: fnp.nanquantile(v, 0.3), lambda v: jnp.nanquantile(v, 0.3)),
    ]:
        np.testing.assert_allclose(
            A(fgrad.grad(f)(fnp.asarray(m))), A(jax.grad(jf)(m)), rtol=1e-10, atol=1e-12
        )


# ---------------------------------------------------------------------------------------
# linalg.eig / eigvals


def test_eig_jvp_matches_jax_rule_and_finite_differences():
    rng = np.random.default_rng(3)
    a = rng.normal(size=(4, 4))
    check_grads(lambda x: fnp.real(fnp.linalg.eigvals(x)), [fnp.asarray(a)], order=2, modes=("fwd", "rev"))
    # eigenvectors in LAPACK's gauge (unit norm, largest component real): finite differences agree
    check_grads(
        lambda x: fnp.abs(eig_ops.eig(x, eigvec_derivs=True)[1]) ** 2,
        [fnp.asarray(a)],
        order=1,
        modes=("fwd", "rev"),
    )


def test_eig_eigenvector_derivatives_raise_like_jax():
    with pytest.raises(NotImplementedError, match="eigvec_derivs"):
        fgrad.grad(lambda x: fnp.sum(fnp.abs(fnp.linalg.eig(x).eigenvectors)))(fnp.eye(3))


def test_eig_live_jax():
    jax, jnp = _jax()
    rng = np.random.default_rng(4)
    a, da = rng.normal(size=(4, 4)), rng.normal(size=(4, 4))
    (w, v), (tw, tv) = fgrad.jvp(
        lambda x: eig_ops.eig(x, eigvec_derivs=True), (fnp.asarray(a),), (fnp.asarray(da),)
    )
    (jw, jv), (jtw, jtv) = jax.jvp(
        lambda x: jax.lax.linalg.eig(x, compute_left_eigenvectors=False, enable_eigvec_derivs=True),
        (a,),
        (da,),
    )
    o, jo = np.argsort(A(w)), np.argsort(A(jw))
    np.testing.assert_allclose(A(w)[o], A(jw)[jo], rtol=1e-10)
    np.testing.assert_allclose(A(tw)[o], A(jtw)[jo], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(A(v)[:, o], A(jv)[:, jo], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(A(tv)[:, o], A(jtv)[:, jo], rtol=1e-8, atol=1e-10)


def test_eig_results_are_complex_like_jax():
    w, v = fnp.linalg.eig(np.diag([2.0, 3.0]))
    assert w.dtype == np.complex128 and v.dtype == np.complex128
    assert fnp.linalg.eigvals(np.eye(2, dtype=np.float32)).dtype == np.complex64
    assert fnp.roots(fnp.array([1.0, -3.0, 2.0])).dtype == np.complex128
    np.testing.assert_allclose(
        np.sort(A(fnp.roots(fnp.array([0.0, 1.0, -3.0, 2.0, 0.0]))).real), [0.0, 1.0, 2.0], atol=1e-14
    )


# ---------------------------------------------------------------------------------------
# windows and other creation-like functions


@pytest.mark.parametrize("name", ["bartlett", "blackman", "hamming", "hanning"])
def test_windows_match_numpy(name):
    for m in range(7):
        np.testing.assert_allclose(A(getattr(fnp, name)(m)), getattr(np, name)(m), atol=1e-15, rtol=1e-14)


def test_creation_helpers():
    np.testing.assert_array_equal(
        A(fnp.fromfunction(lambda i, j: i * 10 + j, (2, 3), dtype=int)),
        np.fromfunction(lambda i, j: i * 10 + j, (2, 3), dtype=int),
    )
    np.testing.assert_allclose(A(fnp.geomspace(-1, -1000, 4)), np.geomspace(-1, -1000, 4), rtol=1e-14)
    with pytest.raises(ValueError, match="zero"):
        fnp.geomspace(0, 3)
    np.testing.assert_array_equal(A(fnp.r_[1:3, [5, 6], 7.0]), np.r_[1:3, [5, 6], 7.0])
    np.testing.assert_array_equal(A(fnp.r_["0,2", [1, 2], [3, 4]]), np.r_["0,2", [1, 2], [3, 4]])
    np.testing.assert_array_equal(A(fnp.c_[np.ones((2, 2)), [7, 8]]), np.c_[np.ones((2, 2)), [7, 8]])
    np.testing.assert_allclose(A(fnp.r_[-1:1:5j]), np.r_[-1:1:5j])
    np.testing.assert_array_equal(A(fnp.mgrid[0:3, 0:2]), np.mgrid[0:3, 0:2])
    assert [g.shape for g in fnp.ogrid[0:3, 0:2]] == [(3, 1), (1, 2)]
    np.testing.assert_array_equal(A(fnp.mask_indices(3, fnp.triu, 1)[1]), np.mask_indices(3, np.triu, 1)[1])
    assert fnp.einsum_path("ij,jk->ik", fnp.ones((2, 3)), fnp.ones((3, 4)))[0] == [(0, 1)]


def test_save_load_round_trip_and_printing():
    buf = io.BytesIO()
    fnp.savez(buf, fnp.arange(3), y=fnp.ones(2, np.float32))
    buf.seek(0)
    out = fnp.load(buf)
    assert A(out["arr_0"]).tolist() == [0, 1, 2] and out["y"].dtype == np.float32
    assert fnp.array_repr(fnp.asarray([1.0, 2.0])) == repr(fnp.asarray([1.0, 2.0]))
    assert fnp.array_repr(fnp.asarray([1.0, 2.0]), precision=2).startswith("Array([1., 2.]")
    assert fnp.array_str(fnp.asarray([1.0, 2.0])) == "[1. 2.]"


# ---------------------------------------------------------------------------------------
# JAX's conventions and errors


ISSCALAR_CASES = [1.0, 3, True, 1j, np.float32(2.0), np.str_("a"), "a", b"b", None, [1], (), slice(3),
                  np.ones(()), np.ones(2), np.asarray("a")]


def test_isscalar_matches_jax():
    """``isscalar`` is JAX's: ``numpy.isscalar`` (True for strings and bytes), or a 0-d array
    (fgrad said False for strings)."""
    want = [True, True, True, True, True, True, True, True, False, False, False, False, True, False, True]
    got = [fnp.isscalar(x) for x in ISSCALAR_CASES]
    got += [fnp.isscalar(fnp.asarray(1.0)), fnp.isscalar(fnp.ones(2))]
    assert got == want + [True, False]
    jnp = pytest.importorskip("jax.numpy")
    assert [jnp.isscalar(x) for x in ISSCALAR_CASES] == want


def test_jax_conventions():
    assert fnp.isscalar(fnp.asarray(1.0)) and not fnp.isscalar(fnp.ones(2)) and fnp.isscalar("a")
    assert isinstance(fnp.gradient(fnp.ones((3, 3))), list)  # JAX: a list (NumPy: a tuple)
    assert fnp.sort_complex(np.array([3.0, 1.0], np.float32)).dtype == np.complex64
    assert fnp.bincount(np.array([1, 1]), weights=np.array([1.0, 2.0], np.float32)).dtype == np.float32
    # vander by cumulative products, as NumPy: finite gradient at 0 (JAX's power gives NaN)
    np.testing.assert_array_equal(
        A(fgrad.grad(lambda x: fnp.sum(fnp.vander(x, 3)))(fnp.asarray([0.0, 1.0]))), [1.0, 3.0]
    )
    x = fnp.asarray([-1.0, 0.5, 2.0])
    out = fnp.piecewise(x, [x < 0, x > 1], [lambda v: v * 2, lambda v: v + 10, 7.0])
    assert A(out).tolist() == [-2.0, 7.0, 12.0]


def test_bad_inputs_raise_like_the_peers():
    # JAX counts negative values in bin 0 (NumPy raises; JAX is the peer): jnp.bincount([-1, 2])
    assert A(fnp.bincount(np.array([-1, 2]))).tolist() == [1, 0, 1]
    with pytest.raises(TypeError, match="integer"):
        fnp.bincount(np.array([1.0]))
    with pytest.raises(fgrad.errors.ConcretizationTypeError, match="length"):
        fgrad.jit(fnp.bincount)(np.array([1, 2]))
    assert A(fgrad.jit(lambda v: fnp.bincount(v, length=4))(np.array([1, 1, 3]))).tolist() == [0, 2, 0, 1]
    with pytest.raises(ValueError, match="inplace=False"):
        fnp.place(fnp.zeros(3), fnp.ones(3) > 0, fnp.ones(1))
    with pytest.raises(ValueError, match="inplace=False"):
        fnp.put(fnp.zeros(3), [0], [1.0])
    with pytest.raises(IndexError, match="out of bounds"):
        fnp.put(fnp.zeros(3), [5], [1.0], inplace=False)
    with pytest.raises(NotImplementedError, match="string"):
        fnp.histogram(fnp.ones(3), bins="auto")
    with pytest.raises(TypeError, match="complex"):
        fnp.fabs(fnp.asarray([1j]))
    with pytest.raises(TypeError, match="unsigned byte"):
        fnp.unpackbits(fnp.asarray([1]))
    with pytest.raises(NotImplementedError, match="fromiter"):
        fnp.fromiter(range(3), int)
    with pytest.raises(TypeError, match="tuple"):
        fnp.block((fnp.ones(2), fnp.ones(2)))
    with pytest.raises(NotImplementedError, match="edge_order"):  # JAX refuses any edge_order
        fnp.gradient(fnp.ones(5), edge_order=3)
    with pytest.raises(ValueError, match="edge_order"):
        gradient_with_edge_order(fnp.ones(5), edge_order=3)


@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_refuses_edge_order_as_jax(edge_order):
    """JAX's jnp.gradient raises NotImplementedError for any ``edge_order`` (fgrad computed
    NumPy's); NumPy's edges stay for torch.gradient, whose values are NumPy's."""
    with pytest.raises(NotImplementedError, match="'edge_order' argument to jnp.gradient"):
        fnp.gradient(fnp.asarray([1.0, 2.0, 4.0, 7.0]), edge_order=edge_order)
    f = np.array([1.0, 2.0, 4.0, 7.0, 11.0])
    expected = np.gradient(f, edge_order=edge_order)
    assert np.array_equal(A(gradient_with_edge_order(f, edge_order=edge_order)), expected)
    assert np.array_equal(A(fnp.gradient(f)), np.gradient(f))


def test_trim_zeros_needs_concrete_values():
    assert A(fnp.trim_zeros(np.array([0, 0, 1, 0, 2, 0]), "f")).tolist() == [1, 0, 2, 0]
    with pytest.raises(fgrad.errors.ConcretizationTypeError):
        fgrad.jit(fnp.trim_zeros)(np.array([0, 1, 0]))


def test_numerical_functions_of_the_elementwise_family_on_edge_values():
    x = np.array(
        [
            0.0,
            -0.0,
            np.inf,
            -np.inf,
            np.nan,
            5e-324,
            -2.2250738585072014e-308,
            1.0,
            0.5,
            2.0**1023,
            np.nextafter(1.0, 0),
            1.7976931348623157e308,
        ]
    )
    m, e = fnp.frexp(x)
    np.testing.assert_array_equal(A(m), np.frexp(x)[0])
    np.testing.assert_array_equal(A(e), np.frexp(x)[1])
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(A(fnp.spacing(x)), np.spacing(x))
        np.testing.assert_array_equal(
            A(fnp.ldexp(x, np.arange(12) * 200 - 1100)), np.ldexp(x, np.arange(12) * 200 - 1100)
        )
    for got, exp in zip(fnp.modf(x), np.modf(x), strict=True):
        np.testing.assert_array_equal(A(got), exp)
        np.testing.assert_array_equal(np.signbit(A(got)), np.signbit(exp))
    ints = np.array([0, 1, -1, 255, -128, 2**62, -(2**63), 12345678901])
    np.testing.assert_array_equal(A(fnp.bitwise_count(ints)), np.bitwise_count(ints))
    np.testing.assert_array_equal(
        A(fgrad.jit(fnp.gcd)(np.array([12, -20, 0]), np.array([18, 15, 0]))), [6, 5, 0]
    )


def test_polyval_with_multidimensional_coefficients_as_numpy():
    # the leading axis holds the coefficients; the rest broadcast against x (NumPy, JAX)
    p = np.arange(10.0).reshape(5, 2)
    x = np.array([0.3, 0.7])
    np.testing.assert_allclose(np.asarray(fnp.polyval(p, x)), np.polyval(p, x), rtol=1e-14)
    np.testing.assert_allclose(np.asarray(fnp.polyval(p, 0.5)), np.polyval(p, 0.5), rtol=1e-14)


def test_nanargmax_of_an_all_nan_slice_is_minus_one_as_jax():
    """JAX's ``nanargmax``/``nanargmin`` give -1 for a slice that is NaN throughout (NumPy
    raises); fgrad gave 0 -- a valid-looking index, silently wrong."""
    n = np.nan
    m = fnp.asarray([[n, n, n], [1.0, n, 3.0], [n, -np.inf, n]])
    assert fnp.nanargmax(m, axis=1).tolist() == [-1, 2, 0]
    assert fnp.nanargmin(m, axis=1).tolist() == [-1, 0, 1]
    assert fnp.nanargmax(m, axis=0).tolist() == [1, 0, 1] and int(fnp.nanargmax(m[0])) == -1
    assert fnp.nanargmax(m, axis=1, keepdims=True).shape == (3, 1) and int(fnp.nanargmax(m)) == 5
    assert fgrad.jit(lambda v: fnp.nanargmin(v, axis=1))(m).tolist() == [-1, 0, 1]
    assert fgrad.vmap(fnp.nanargmax)(m).tolist() == [-1, 2, 0]
    assert int(fnp.nanargmax(fnp.asarray([1, 2]))) == 1  # integers: argmax


def test_nanargmax_matches_live_jax():
    jnp = pytest.importorskip("jax.numpy")
    n = np.nan
    m = np.array([[n, n, n], [1.0, n, 3.0], [n, -np.inf, n]])
    for name in ("nanargmax", "nanargmin"):
        for axis in (None, 0, 1):
            assert getattr(fnp, name)(m, axis=axis).tolist() == getattr(jnp, name)(m, axis=axis).tolist()


# ---------------------------------------------------------------------------------------------
# session 15: differences found by running JAX's jax.numpy docstring examples on fgrad
# (tools/jax_docstring_examples.py); snippets and JAX's output in tests/stored/jax_docstring_fixes.json
from jax_snippets import snippet_tests  # noqa: E402

test_jax_docstring_fixes_breadth, test_jax_docstring_fixes_breadth_live = snippet_tests("breadth")

# session 16: ``roots(p, strip_zeros=False)`` with leading zeros gave all-NaN roots; JAX rolls the
# k leading zeros to the end and sets only the last k roots to NaN (the others are the roots)
test_jax_roots_leading_zeros, test_jax_roots_leading_zeros_live = snippet_tests("roots_leading_zeros")
