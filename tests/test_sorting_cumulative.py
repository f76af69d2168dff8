"""Cumulative ops, sorting, order statistics, searching and unique: forward vs NumPy,
derivatives vs finite differences (orders 1 and 2, forward and reverse), vmap vs Python loops."""

from __future__ import annotations

import contextlib
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import fgrad
import fgrad.numpy as fnp
from fgrad.core.primitive import PRIMITIVES
from fgrad.ops import cumulative as C
from fgrad.ops import sorting as S
from fgrad.testing import check_grads

RNG = np.random.default_rng(1234)


def A(x, dtype=None):
    return fnp.asarray(np.asarray(x, dtype=dtype))


def rand(*shape, rng=RNG):
    return rng.normal(size=shape)


def distinct(*shape, rng=RNG):
    """Random values with well separated entries (no ties, so sort/cummax are smooth)."""
    n = int(np.prod(shape))
    return (rng.permutation(n) + rng.uniform(0.2, 0.8, size=n)).reshape(shape) / 3.0


def stack_loop(f, xs, axis=0):
    xs = np.moveaxis(np.asarray(xs), axis, 0)
    return np.stack([np.asarray(f(A(x))) for x in xs])


# --------------------------------------------------------------------------------------
# primitive registry


def test_my_primitives_have_rules():
    names = ["cumsum", "cumprod", "cummax", "cummin", "cumlogsumexp", "sort", "gather_along_axis",
             "scatter_add_along_axis", "searchsorted"]
    for n in names:
        p = PRIMITIVES[n]
        assert p.jvp is not None and p.batch is not None, n
        if p.linear:
            assert p.transpose is not None, n
    assert PRIMITIVES["cumsum"].linear and PRIMITIVES["gather_along_axis"].linear


# --------------------------------------------------------------------------------------
# cumulative: forward


def _np_cum(kind, x, axis, reverse):
    fn = {"cumsum": np.cumsum, "cumprod": np.cumprod, "cummax": np.maximum.accumulate,
          "cummin": np.minimum.accumulate, "cumlogsumexp": np.logaddexp.accumulate}[kind]
    if reverse:
        x = np.flip(x, axis)
    out = fn(x, axis=axis)
    return np.flip(out, axis) if reverse else out


@pytest.mark.parametrize("kind", ["cumsum", "cumprod", "cummax", "cummin", "cumlogsumexp"])
@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("reverse", [False, True])
def test_cumulative_forward(kind, axis, reverse):
    x = rand(3, 4, 5)
    got = getattr(C, kind)(A(x), axis, reverse)
    np.testing.assert_allclose(np.asarray(got), _np_cum(kind, x, axis % 3, reverse), rtol=1e-13, atol=1e-13)
    assert got.dtype == np.float64
    x32 = x.astype(np.float32)
    assert getattr(C, kind)(A(x32), axis, reverse).dtype == np.float32


@given(shape=st.lists(st.integers(1, 5), min_size=1, max_size=3), seed=st.integers(0, 2 ** 31),
       dtype=st.sampled_from(["float64", "float32", "int32", "int64", "uint8", "bool"]))
def test_numpy_cumsum_cumprod_match_numpy(shape, seed, dtype):
    rng = np.random.default_rng(seed)
    x = (rng.normal(size=shape) * 3).astype(dtype) if dtype != "bool" else rng.random(shape) < 0.5
    for axis in [None] + list(range(-len(shape), len(shape))):
        for name in ("cumsum", "cumprod"):
            want = getattr(np, name)(x, axis=axis)
            got = np.asarray(getattr(fnp, name)(A(x), axis=axis))
            assert got.dtype == want.dtype, (name, dtype, got.dtype, want.dtype)
            np.testing.assert_allclose(got, want, rtol=1e-5 if dtype == "float32" else 1e-12)


def test_numpy_cumsum_dtype_arg_and_method():
    x = np.arange(1, 7).reshape(2, 3)
    np.testing.assert_array_equal(fnp.cumsum(A(x), 1, dtype=np.float32), np.cumsum(x, 1, dtype=np.float32))
    assert fnp.cumsum(A(x), 1, dtype=np.float32).dtype == np.float32
    np.testing.assert_array_equal(A(x).cumsum(0), np.cumsum(x, 0))
    np.testing.assert_array_equal(A(x).cumprod(), np.cumprod(x))
    with pytest.raises(ValueError):
        fnp.cumsum(A(x), axis=2)


def test_cumulative_sum_prod_include_initial():
    x = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    np.testing.assert_array_equal(fnp.cumulative_sum(A(x), axis=1, include_initial=True),
                                  np.cumulative_sum(x, axis=1, include_initial=True))
    np.testing.assert_array_equal(fnp.cumulative_prod(A(x), axis=0, include_initial=True),
                                  np.cumulative_prod(x, axis=0, include_initial=True))
    np.testing.assert_array_equal(fnp.cumulative_sum(A(x[0])), np.cumulative_sum(x[0]))


def test_nancumsum_nancumprod():
    x = np.array([1.0, np.nan, 2.0, 3.0])
    np.testing.assert_array_equal(fnp.nancumsum(A(x)), np.nancumsum(x))
    np.testing.assert_array_equal(fnp.nancumprod(A(x)), np.nancumprod(x))


# --------------------------------------------------------------------------------------
# cumulative: derivatives


@pytest.mark.parametrize("kind", ["cumsum", "cumprod", "cumlogsumexp"])
@pytest.mark.parametrize("reverse", [False, True])
def test_cumulative_grads(kind, reverse):
    x = rand(3, 5) * 0.7
    f = lambda v: getattr(C, kind)(v, 1, reverse)
    check_grads(f, (A(x),), order=2, modes=("fwd", "rev"))


@pytest.mark.parametrize("kind", ["cummax", "cummin"])
@pytest.mark.parametrize("reverse", [False, True])
def test_cummax_cummin_grads(kind, reverse):
    x = distinct(4, 6)
    f = lambda v: getattr(C, kind)(v, 1, reverse)
    check_grads(f, (A(x),), order=2, modes=("fwd", "rev"), eps=1e-5)


def test_cumprod_grad_with_zeros_is_exact():
    # d/dx_j of sum_i prod_{k<=i} x_k = sum_{i>=j} prod_{k<=i, k!=j} x_k, computed by hand
    for x in ([2.0, 0.0, 3.0, 0.5], [0.0, 0.0, 2.0, 3.0], [1.5, -2.0, 0.0, 4.0], [0.0, 1.0, 1.0, 1.0]):
        x = np.array(x)
        n = len(x)
        want = np.array([sum(np.prod([x[k] for k in range(i + 1) if k != j]) for i in range(j, n))
                         for j in range(n)])
        g = fgrad.grad(lambda v: fnp.sum(fnp.cumprod(v)))(A(x))
        np.testing.assert_allclose(np.asarray(g), want, rtol=1e-14, atol=1e-14)
        # cumprod is a polynomial, so finite differences are exact enough at zeros too
        check_grads(lambda v: C.cumprod(v, 0), (A(x),), order=2)


def test_cumprod_hessian_with_a_zero_is_symmetric_and_exact():
    x = np.array([2.0, 0.0, 3.0])
    # f = x0 + x0 x1 + x0 x1 x2 ; Hessian entries by hand
    h = np.asarray(fgrad.hessian(lambda v: fnp.sum(fnp.cumprod(v)))(A(x)))
    want = np.array([[0, 1 + x[2], x[1]], [1 + x[2], 0, x[0]], [x[1], x[0], 0]])
    np.testing.assert_allclose(h, want, atol=1e-14)


def test_cummax_tangent_shared_over_ties():
    # cummax([1, 1, 0]) = [1, 1, 1]: the tie at position 1 shares the tangent evenly
    x = A([1.0, 1.0, 0.0])
    _, t = fgrad.jvp(lambda v: C.cummax(v, 0), (x,), (A([1.0, 3.0, 5.0]),))
    np.testing.assert_allclose(np.asarray(t), [1.0, 2.0, 2.0])


def test_cumlogsumexp_with_neg_inf():
    x = np.array([-np.inf, 0.0, -np.inf, 1.0])
    got = C.cumlogsumexp(A(x), 0)
    np.testing.assert_allclose(np.asarray(got), np.logaddexp.accumulate(x))
    g = fgrad.grad(lambda v: C.cumlogsumexp(v, 0)[3])(A(x))
    w = np.exp(x - np.logaddexp.reduce(x))
    np.testing.assert_allclose(np.asarray(g), w, atol=1e-15)
    assert np.all(np.isfinite(np.asarray(g)))


def test_cumsum_transpose_is_reverse_cumsum():
    x = rand(6)
    u = rand(6)
    _, f_vjp = fgrad.vjp(lambda v: fnp.cumsum(v), A(x))
    np.testing.assert_allclose(np.asarray(f_vjp(A(u))[0]), np.cumsum(u[::-1])[::-1], rtol=1e-14)


def test_associative_scan_matches_sequential_loop():
    # composition of affine maps v -> a v + b is associative but not commutative
    n = 11
    a, b = rand(n), rand(n)

    def comb(p, q):
        (a1, b1), (a2, b2) = p, q
        return (a1 * a2, b1 * a2 + b2)

    ga, gb = C.associative_scan(comb, (A(a), A(b)))
    ra, rb = [a[0]], [b[0]]
    for i in range(1, n):
        ra.append(ra[-1] * a[i])
        rb.append(rb[-1] * a[i] + b[i])
    np.testing.assert_allclose(np.asarray(ga), ra, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(gb), rb, rtol=1e-12)
    ga, gb = C.associative_scan(comb, (A(a), A(b)), reverse=True)
    ra, rb = [a[-1]], [b[-1]]
    for i in range(n - 2, -1, -1):
        ra.append(ra[-1] * a[i])
        rb.append(rb[-1] * a[i] + b[i])
    np.testing.assert_allclose(np.asarray(gb), rb[::-1], rtol=1e-12)
    for m in range(1, 9):  # every length, along a non-leading axis
        x = rand(2, m)
        np.testing.assert_allclose(np.asarray(C.associative_scan(fnp.add, A(x), axis=1)), np.cumsum(x, 1),
                                   rtol=1e-13)


@pytest.mark.parametrize("kind", ["cumsum", "cumprod", "cummax", "cumlogsumexp"])
@pytest.mark.parametrize("in_axis", [0, 1, 2])
def test_cumulative_vmap_matches_loop(kind, in_axis):
    x = rand(3, 4, 5)
    f = lambda v: getattr(C, kind)(v, 1, False)
    got = fgrad.vmap(f, in_axes=in_axis)(A(x))
    np.testing.assert_allclose(np.asarray(got), stack_loop(f, x, in_axis), rtol=1e-13)
    # derivatives under vmap: per-example vjp
    g = lambda v: fgrad.grad(lambda w: fnp.sum(fnp.sin(getattr(C, kind)(w, 0, True))))(v)
    got = fgrad.vmap(g, in_axes=in_axis)(A(x))
    np.testing.assert_allclose(np.asarray(got), stack_loop(g, x, in_axis), rtol=1e-12)


# --------------------------------------------------------------------------------------
# sort / argsort


def test_sort_forward_with_nans_and_ties():
    x = np.array([[3.0, np.nan, 1.0, 1.0, -np.inf, 2.0], [0.0, -0.0, 5.0, np.inf, np.nan, -1.0]])
    for axis in (0, 1, -1, None):
        np.testing.assert_array_equal(fnp.sort(A(x), axis=axis), np.sort(x, axis=axis))
        np.testing.assert_array_equal(fnp.argsort(A(x), axis=axis), np.argsort(x, axis=axis, kind="stable"))


@given(n=st.integers(1, 12), seed=st.integers(0, 2 ** 31),
       dtype=st.sampled_from(["int64", "float32", "int8"]))
def test_argsort_stable_ascending_and_descending(n, seed, dtype):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 4, size=n).astype(dtype)  # many ties
    got = np.asarray(fnp.argsort(A(x)))
    np.testing.assert_array_equal(got, sorted(range(n), key=lambda i: x[i]))
    got = np.asarray(fnp.argsort(A(x), descending=True))
    np.testing.assert_array_equal(got, sorted(range(n), key=lambda i: -float(x[i])))
    np.testing.assert_array_equal(fnp.sort(A(x), descending=True), np.sort(x)[::-1])


def test_lax_sort_multiple_operands_and_lexsort():
    k1 = np.array([1, 0, 1, 0, 1, 0])
    k2 = np.array([3, 3, 1, 2, 1, 0])
    vals = np.arange(6.0) * 10
    a, b, c = S.sort((A(k1), A(k2), A(vals)), num_keys=2)
    order = np.lexsort((k2, k1))  # primary k1, then k2
    np.testing.assert_array_equal(a, k1[order])
    np.testing.assert_array_equal(b, k2[order])
    np.testing.assert_array_equal(c, vals[order])
    np.testing.assert_array_equal(fnp.lexsort((A(k2), A(k1))), order)
    np.testing.assert_array_equal(fnp.lexsort(A(np.stack([k2, k1]))), order)
    keys = RNG.integers(0, 3, size=(3, 4, 5))
    np.testing.assert_array_equal(fnp.lexsort(A(keys), axis=1), np.lexsort(keys, axis=1))


def test_sort_key_val_and_top_k():
    x = np.array([[0.3, 2.0, -1.0, 2.0, 0.7], [5.0, 4.0, 3.0, 2.0, 1.0]])
    k, v = S.sort_key_val(A(x), A(np.arange(10).reshape(2, 5)))
    np.testing.assert_array_equal(k, np.sort(x, 1))
    np.testing.assert_array_equal(v, np.argsort(x, 1, kind="stable") + np.array([[0], [5]]))
    vals, idx = S.top_k(A(x), 3)
    want_idx = np.array([sorted(range(5), key=lambda i: -row[i])[:3] for row in x])
    np.testing.assert_array_equal(idx, want_idx)
    np.testing.assert_array_equal(vals, np.take_along_axis(x, want_idx, 1))


@pytest.mark.parametrize("axis", [0, 1])
def test_sort_grads(axis):
    x = distinct(4, 5)
    check_grads(lambda v: fnp.sort(v, axis=axis), (A(x),), order=2, eps=1e-5)
    check_grads(lambda v: fnp.sort(v, axis=axis, descending=True), (A(x),), order=2, eps=1e-5)
    check_grads(lambda v: S.top_k(v, 3)[0], (A(x),), order=2, eps=1e-5)


def test_sort_grad_is_the_permutation():
    x = np.array([3.0, 1.0, 2.0])
    w = np.array([1.0, 10.0, 100.0])
    g = fgrad.grad(lambda v: fnp.sum(fnp.sort(v) * w))(A(x))
    np.testing.assert_array_equal(np.asarray(g), [100.0, 1.0, 10.0])
    # carried operands get the permutation, keys are not differentiated through the order
    g2 = fgrad.grad(lambda v: fnp.sum(S.sort_key_val(A(x), v)[1] * w))(A(np.zeros(3)))
    np.testing.assert_array_equal(np.asarray(g2), [100.0, 1.0, 10.0])


@pytest.mark.parametrize("in_axis", [0, 1])
def test_sort_argsort_vmap(in_axis):
    x = RNG.integers(0, 5, size=(4, 6)).astype(float)
    for f in (lambda v: fnp.sort(v), lambda v: fnp.argsort(v), lambda v: fnp.argsort(v, descending=True),
              lambda v: S.top_k(v, 2)[1], lambda v: fgrad.grad(lambda w: fnp.sum(fnp.sort(w) ** 3))(v)):
        got = fgrad.vmap(f, in_axes=in_axis)(A(x))
        np.testing.assert_array_equal(np.asarray(got), stack_loop(f, x, in_axis))


def test_sort_under_jit():
    x = rand(3, 7)
    f = lambda v: (fnp.sort(v, 1), fnp.argsort(v, 0), fnp.cumsum(v, 1), C.cummax(v, 1))
    for a, b in zip(fgrad.jit(f)(A(x)), f(A(x)), strict=True):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    g = fgrad.jit(fgrad.grad(lambda v: fnp.sum(fnp.sort(v) * fnp.arange(7.0))))
    np.testing.assert_array_equal(np.asarray(g(A(x[0]))), np.argsort(np.argsort(x[0])).astype(float))


# --------------------------------------------------------------------------------------
# gather / scatter along an axis


def test_take_along_axis_forward_grad_vmap():
    x = rand(3, 5)
    idx = RNG.integers(0, 5, size=(3, 4))
    np.testing.assert_array_equal(S.take_along_axis(A(x), idx, 1), np.take_along_axis(x, idx, 1))
    np.testing.assert_array_equal(S.take_along_axis(A(x), idx[:1], 1), np.take_along_axis(x, idx[:1], 1))
    check_grads(lambda v: S.take_along_axis(v, idx, 1), (A(x),), order=2)
    # repeated indices: the transpose accumulates
    g = fgrad.grad(lambda v: fnp.sum(S.take_along_axis(v, np.array([[0, 0, 2]]), 1)))(A(x[:1]))
    np.testing.assert_array_equal(np.asarray(g), [[2.0, 0.0, 1.0, 0.0, 0.0]])
    # batched indices and/or data
    xs, ids = rand(4, 5), RNG.integers(0, 5, size=(4, 3))
    f = lambda v, i: S.take_along_axis(v, i, 0)
    for in_axes in [(0, 0), (None, 0), (0, None)]:
        xa = xs if in_axes[0] == 0 else xs[0]
        ia = ids if in_axes[1] == 0 else ids[0]
        got = fgrad.vmap(f, in_axes=in_axes)(A(xa), A(ia))
        want = [np.take_along_axis(xa[k] if in_axes[0] == 0 else xa, ia[k] if in_axes[1] == 0 else ia, 0)
                for k in range(4)]
        np.testing.assert_array_equal(np.asarray(got), np.stack(want))


def test_scatter_add_along_axis_is_the_transpose():
    upd = rand(2, 4)
    idx = np.array([[0, 2, 2, 1], [3, 3, 3, 0]])
    got = np.asarray(S.scatter_add_along_axis(A(upd), idx, 1, 5))
    want = np.zeros((2, 5))
    for r in range(2):
        np.add.at(want[r], idx[r], upd[r])
    np.testing.assert_allclose(got, want, rtol=1e-15)
    got_int = np.asarray(S.scatter_add_along_axis(A(np.ones((2, 4), np.int32)), idx, 1, 5))
    assert got_int.dtype == np.int32
    np.testing.assert_array_equal(got_int, np.array([[1, 1, 2, 0, 0], [1, 0, 0, 3, 0]]))
    check_grads(lambda u: S.scatter_add_along_axis(u, idx, 1, 5), (A(upd),), order=2)


# --------------------------------------------------------------------------------------
# quantile / median / percentile


@pytest.mark.parametrize("method", ["linear", "lower", "higher", "nearest", "midpoint"])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 2), -1])
def test_quantile_matches_numpy(method, axis):
    x = rand(4, 5, 3)
    # (a list q is JAX's TypeError)
    n = x.size if axis is None else int(np.prod([x.shape[a] for a in np.atleast_1d(axis)]))
    for q in (0.0, 0.37, 1.0, np.array([0.1, 0.5, 0.9]), np.array([[0.25], [0.75]])):
        if method == "nearest" and np.any(np.asarray(q) * (n - 1) % 1 == 0.5):
            continue  # a tie: JAX takes the lower value, NumPy the even index (test_quantile_nearest_ties)
        for keepdims in (False, True):
            want = np.quantile(x, q, axis=axis, method=method, keepdims=keepdims)
            got = np.asarray(fnp.quantile(A(x), q, axis=axis, method=method, keepdims=keepdims))
            assert got.shape == want.shape
            np.testing.assert_allclose(got, want, rtol=1e-14, atol=1e-15)


def test_quantile_percentile_median_dtypes_and_values():
    x32 = rand(7).astype(np.float32)
    for q in (0.3, np.float64(0.3), np.array([0.3])):  # JAX: a's dtype whatever q's (NumPy: float64)
        assert fnp.quantile(A(x32), q).dtype == np.float32
    xi = np.array([5, 1, 4, 2])
    assert fnp.quantile(A(xi), 0.5).dtype == np.float64
    qs = np.array([10, 50, 90])
    np.testing.assert_array_equal(fnp.percentile(A(xi), qs), np.percentile(xi, qs))
    for x in (rand(5, 4), rand(6), xi, rand(2, 3, 4).astype(np.float32)):
        for axis in (None, 0, -1):
            want = np.median(x, axis=axis)
            got = np.asarray(fnp.median(A(x), axis=axis))
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(fnp.median(A(rand(3, 4)), 1, keepdims=True).shape, (3, 1))
    with pytest.raises(ValueError):
        fnp.quantile(A(x32), 1.5)


def test_quantile_median_grads():
    x = distinct(5, 4)
    check_grads(lambda v: fnp.quantile(v, 0.37, axis=0), (A(x),), order=2, eps=1e-5)
    check_grads(lambda v: fnp.median(v, axis=1), (A(x),), order=2, eps=1e-5)
    check_grads(lambda v: fnp.percentile(v, np.array([20.0, 70.0])), (A(x),), order=2, eps=1e-5)
    # derivative in q (linear interpolation): slope between the bracketing order statistics
    xs = np.sort(x[:, 0])
    check_grads(lambda q: fnp.quantile(A(x[:, 0]), q), (A(0.37),), order=1, eps=1e-6)
    g = fgrad.grad(lambda q: fnp.quantile(A(x[:, 0]), q))(0.37)
    np.testing.assert_allclose(float(g), (xs[2] - xs[1]) * 4, rtol=1e-12)


def test_quantile_vmap_over_data_and_q():
    x = rand(3, 6)
    qs = np.array([0.1, 0.5, 0.8])
    got = fgrad.vmap(lambda v, q: fnp.quantile(v, q))(A(x), A(qs))
    np.testing.assert_allclose(np.asarray(got), [np.quantile(x[i], qs[i]) for i in range(3)], rtol=1e-14)
    got = fgrad.vmap(lambda v: fnp.median(v), in_axes=1)(A(x))
    np.testing.assert_allclose(np.asarray(got), np.median(x, axis=0), rtol=1e-14)


# --------------------------------------------------------------------------------------
# searchsorted / digitize / unique


def test_searchsorted_matches_numpy():
    a = np.array([1.0, 2.0, 2.0, 3.0, 5.0])
    v = np.array([[0.0, 2.0, 2.5], [5.0, 6.0, 1.0]])
    for side in ("left", "right"):
        np.testing.assert_array_equal(fnp.searchsorted(A(a), A(v), side=side),
                                      np.searchsorted(a, v, side=side))
    perm = np.array([3, 0, 4, 1, 2])
    unsorted = np.empty(5)
    unsorted[perm] = a
    np.testing.assert_array_equal(fnp.searchsorted(A(unsorted), A(v), sorter=np.argsort(unsorted)),
                                  np.searchsorted(unsorted, v, sorter=np.argsort(unsorted)))
    x = np.array([0.2, 6.4, 3.0, 1.6, 10.0])
    for bins in (np.array([0.0, 1.0, 2.5, 4.0, 10.0]), np.array([10.0, 4.0, 2.5, 1.0, 0.0])):
        for right in (False, True):
            np.testing.assert_array_equal(fnp.digitize(A(x), A(bins), right=right),
                                          np.digitize(x, bins, right))


@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_vmap(side):
    a = np.sort(RNG.integers(0, 6, size=(4, 7)).astype(float), axis=1)
    v = RNG.integers(-1, 7, size=(4, 3)).astype(float)
    f = lambda aa, vv: fnp.searchsorted(aa, vv, side=side)
    got = fgrad.vmap(f)(A(a), A(v))  # per-example sorted arrays
    np.testing.assert_array_equal(np.asarray(got), [np.searchsorted(a[k], v[k], side=side) for k in range(4)])
    got = fgrad.vmap(f, in_axes=(0, None))(A(a), A(v[0]))
    np.testing.assert_array_equal(np.asarray(got), [np.searchsorted(a[k], v[0], side=side) for k in range(4)])
    got = fgrad.vmap(f, in_axes=(None, 1))(A(a[0]), A(v))
    want = [np.searchsorted(a[0], v[:, k], side=side) for k in range(3)]
    np.testing.assert_array_equal(np.asarray(got), want)


def test_unique_matches_numpy_and_needs_concrete_input():
    x = np.array([3, 1, 2, 3, 1, 7, 2, 2])
    got = fnp.unique(A(x), return_index=True, return_inverse=True, return_counts=True)
    want = np.unique(x, return_index=True, return_inverse=True, return_counts=True)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(np.asarray(g), w)
    np.testing.assert_array_equal(fnp.unique(A(x), size=6, fill_value=-1), [1, 2, 3, 7, -1, -1])
    np.testing.assert_array_equal(fnp.unique(A(x), size=2), [1, 2])
    vals, counts = fnp.unique_counts(A(x))
    np.testing.assert_array_equal(counts, [2, 3, 2, 1])
    np.testing.assert_array_equal(fnp.unique(A(np.array([[1, 2], [1, 2], [0, 1]])), axis=0),
                                  np.unique(np.array([[1, 2], [1, 2], [0, 1]]), axis=0))
    with pytest.raises(fgrad.ConcretizationError, match="unique"):
        fgrad.vmap(fnp.unique)(A(x.reshape(2, 4)))


# --------------------------------------------------------------------------------------
# NaN-aware reductions


@pytest.mark.parametrize("name", ["nansum", "nanprod", "nanmax", "nanmin", "nanmean", "nanvar", "nanstd",
                                  "nanargmax", "nanargmin"])
def test_nan_reductions_match_numpy(name):
    x = rand(4, 5)
    x[RNG.random((4, 5)) < 0.3] = np.nan
    x[0, 0] = 1.0  # no all-NaN column
    x[:, 0] = np.where(np.isnan(x[:, 0]), 2.0, x[:, 0])
    for axis in ((None, 0, 1) if "arg" not in name else (None, 1)):
        if "arg" in name and axis == 1:
            x2 = x.copy()
            x2[:, 0] = 3.0 + np.arange(4)  # no all-NaN row
        else:
            x2 = x
        with warnings.catch_warnings():  # NumPy's reference warns "Degrees of freedom <= 0"
            warnings.simplefilter("ignore", RuntimeWarning)
            want = getattr(np, name)(x2, axis=axis)
        got = np.asarray(getattr(fnp, name)(A(x2), axis=axis))
        np.testing.assert_allclose(got, want, rtol=1e-13)


def test_nan_reductions_all_nan_and_grads():
    x = np.array([[np.nan, np.nan], [1.0, np.nan]])
    assert np.isnan(np.asarray(fnp.nanmax(A(x), axis=1))[0])
    g = fgrad.grad(lambda v: fnp.nansum(v) * 2)(A(np.array([1.0, np.nan, 3.0])))
    np.testing.assert_array_equal(np.asarray(g), [2.0, 0.0, 2.0])
    g = fgrad.grad(lambda v: fnp.nanmax(v))(A(np.array([1.0, np.nan, 3.0])))
    np.testing.assert_array_equal(np.asarray(g), [0.0, 0.0, 1.0])
    g = fgrad.grad(lambda v: fnp.nanmean(v))(A(np.array([1.0, np.nan, 3.0])))
    np.testing.assert_array_equal(np.asarray(g), [0.5, 0.0, 0.5])


def test_float_cumsum_cumprod_round_as_jax():
    """JAX's cumsum/cumprod on the CPU are a ``reduce_window`` over the whole axis that XLA
    tiles by 16 (running sums within a tile, the tiles' totals scanned and added); fgrad
    summed sequentially, so a float32 cumsum differed in its last digits from the 34th
    element on and a bfloat16 running sum of 0.1 stalled at 32 (JAX: 101).  Numbers from
    JAX 0.10.2."""
    from ml_dtypes import bfloat16
    with fgrad.default_device("cpu"):  # (CuPy and its fake stand-in have no bfloat16)
        x = fnp.full(1000, 0.1, bfloat16)
        assert fnp.cumsum(x)[np.array([15, 31, 100, 999])].tolist() == [1.6171875, 3.234375, 10.1875, 101.0]
        assert fgrad.lax.cumsum(x, reverse=True)[np.array([0, 500, 984])].tolist() == [100.5, 50.5, 1.609375]
    y = (np.arange(40, dtype=np.float32) * np.float32(0.1)) ** 2
    got = fnp.cumsum(fnp.asarray(y))[np.array([16, 33, 39])]
    assert got.tolist() == [14.960000991821289, 125.29000854492188, 205.40000915527344]
    assert fgrad.jit(fnp.cumsum)(fnp.asarray(y))[39].tolist() == 205.40000915527344
    assert fnp.cumprod(fnp.full(40, 1.1, np.float32))[39].tolist() == 45.259281158447266
    assert fnp.cumsum(fnp.arange(5)).tolist() == [0, 1, 3, 6, 10]  # integers: unchanged
    assert fnp.cumsum(fnp.zeros((2, 0), np.float32), axis=1).shape == (2, 0)


@pytest.mark.parametrize("reverse", [False, True])
def test_float_cumsum_cumprod_bits_match_live_jax(reverse):
    jax = pytest.importorskip("jax")
    from ml_dtypes import bfloat16
    rng = np.random.default_rng(0)
    for dtype in [np.float32, bfloat16, np.float16, np.complex64]:
        for n in [5, 17, 33, 300, 1001]:
            x = rng.uniform(0.5, 1.5, size=(2, n))
            x = (x + 1j * x[::-1] if dtype == np.complex64 else x).astype(dtype)
            names = ["cumsum"] + ([] if dtype == np.complex64 else ["cumprod"])
            for name, axis in [(nm, ax) for nm in names for ax in (0, 1)]:
                xx = np.ascontiguousarray(x.T) if axis == 0 else x
                want = np.asarray(getattr(jax.lax, name)(xx, axis=axis, reverse=reverse))
                with fgrad.default_device("cpu") if dtype is bfloat16 else contextlib.nullcontext():
                    got = np.asarray(getattr(fgrad.lax, name)(fnp.asarray(xx), axis=axis, reverse=reverse))
                assert got.dtype == want.dtype and np.array_equal(got, want), (dtype, n, name, axis)
