"""Indexing (`x[idx]`, `x.at[idx]`), the gather/scatter primitives and the NumPy indexing API:
forward vs NumPy, derivatives vs central finite differences (orders 1 and 2, forward and
reverse), vmap vs a Python loop (operand batched, index batched, both, various in_axes)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fgrad
import fgrad.numpy as fnp
from _set_checks import check_per_example_set_jacobian
from fgrad.core.primitive import PRIMITIVES
from fgrad.tree_util import tree_flatten, tree_unflatten

RNG = np.random.default_rng(0)


# ---------------------------------------------------------------------------------------
# local helpers: finite differences and vmap-vs-loop


def _flat(out):
    return [np.asarray(o, dtype=np.float64) for o in tree_flatten(out)[0]]


def _fd(f, args, vs, eps=1e-6):
    """Central difference of ``f`` at ``args`` in direction ``vs`` (float leaves only)."""
    def shift(s):
        return [fnp.asarray(np.asarray(a) + s * v) if v is not None else a
                for a, v in zip(args, vs, strict=True)]
    hi, lo = _flat(f(*shift(eps))), _flat(f(*shift(-eps)))
    return [(h - lo_) / (2 * eps) for h, lo_ in zip(hi, lo, strict=False)]


def _is_float(a):
    return np.asarray(a).dtype.kind == "f"


def check_grads(f, args, order=2, atol=1e-6, rtol=1e-6, seed=0):
    """jvp vs finite differences, vjp vs jvp (dot-product identity) and vs finite
    differences, recursively up to ``order`` (so order 2 covers fwd-over-fwd,
    rev-over-fwd, fwd-over-rev and rev-over-rev)."""
    rng = np.random.default_rng(seed)
    args = [fnp.asarray(a) for a in args]
    fl = [i for i, a in enumerate(args) if _is_float(a)]
    vs = [rng.standard_normal(np.shape(a)) if i in fl else None for i, a in enumerate(args)]

    def jvp_fn(*xs):
        tangents = [fnp.asarray(v) if v is not None else fnp.zeros_like(x)
                    for x, v in zip(xs, vs, strict=True)]
        return fgrad.jvp(f, tuple(xs), tuple(tangents))[1]

    out = f(*args)
    flat_out, tree = tree_flatten(out)
    us = [rng.standard_normal(np.shape(o)) for o in flat_out]

    def vjp_fn(*xs):
        _, pull = fgrad.vjp(f, *xs)
        cts = pull(tree_unflatten(tree, [fnp.asarray(u) for u in us]))
        return [cts[i] for i in fl]

    t = _flat(jvp_fn(*args))
    fd = _fd(f, args, vs)
    for a, b in zip(t, fd, strict=False):
        np.testing.assert_allclose(a, b, atol=atol * 10, rtol=rtol * 10, err_msg="jvp vs finite differences")
    ct = _flat(vjp_fn(*args))
    lhs = sum(float(np.sum(c * vs[i])) for c, i in zip(ct, fl, strict=False))
    rhs = sum(float(np.sum(u * tt)) for u, tt in zip(us, t, strict=False))
    rhs_fd = sum(float(np.sum(u * d)) for u, d in zip(us, fd, strict=False))
    np.testing.assert_allclose(lhs, rhs, atol=atol, rtol=rtol, err_msg="<vjp(u), v> vs <u, jvp(v)>")
    np.testing.assert_allclose(lhs, rhs_fd, atol=atol * 10, rtol=rtol * 10,
                               err_msg="vjp vs finite differences")
    if order > 1:
        check_grads(jvp_fn, args, order - 1, atol, rtol, seed + 1)
        check_grads(vjp_fn, args, order - 1, atol, rtol, seed + 2)


def check_vmap(f, args, in_axes, out_axes=0):
    """``vmap(f, in_axes)(*args)`` against a Python loop over the mapped axis."""
    out = fgrad.vmap(f, in_axes=in_axes, out_axes=out_axes)(*args)
    axes = in_axes if isinstance(in_axes, (tuple, list)) else (in_axes,) * len(args)
    n = next(np.shape(a)[ax] for a, ax in zip(args, axes, strict=False) if ax is not None)
    rows = []
    for b in range(n):
        ab = [a if ax is None else fnp.asarray(np.take(np.asarray(a), b, axis=ax))
              for a, ax in zip(args, axes, strict=True)]
        rows.append(tree_flatten(f(*ab))[0])
    got = tree_flatten(out)[0]
    for k, g in enumerate(got):
        want = np.stack([np.asarray(r[k]) for r in rows], axis=out_axes)
        np.testing.assert_allclose(np.asarray(g), want, rtol=1e-12, atol=1e-12)
        assert np.asarray(g).dtype == want.dtype


def A(*shape, dtype=np.float64):
    return RNG.standard_normal(shape).astype(dtype)


# ---------------------------------------------------------------------------------------
# forward: explicit index forms

X = np.arange(2 * 3 * 4 * 5, dtype=np.float64).reshape(2, 3, 4, 5)

INDEX_CASES = [
    0, -1, (1, 2), (1, -2, 3, -5), (), Ellipsis, (Ellipsis, 0), (0, Ellipsis, 1),
    slice(None), slice(1, None), slice(None, None, -1), (slice(None), slice(2, 0, -1)),
    (slice(-3, None, 2), slice(None, None, 2)), (None,), (None, 0, None, Ellipsis, None),
    (slice(None), None, 1), np.array([1, 0, 1]), np.array([-1, 0]), (np.array([[0, 1], [1, 0]]),),
    (slice(None), [0, 2, 2]), ([0, 1], [2, 0]), ([0, 1], slice(None), [2, 0]),
    (0, slice(None), [1, 2]), ([1], slice(None), 0), (slice(None), [0, 1], [1, 2]),
    (slice(None), [0, 1], None, [1, 2]), (slice(None), [[0], [1]], [1, 2, 3]),
    (Ellipsis, [0, 3], slice(None, None, -1)), (1, [0, 2], [3, 0], slice(1, 4)),
    (slice(None), 1, slice(None), [0, 1, 4]), (None, [0, 1], None, [1, 2]),
    (np.array(1), [0, 2]), (slice(None), np.array([], dtype=np.int64)),
    (X[:, 0, 0, 0] > 50,), (slice(None), X[0, :, :, 0] > 30), (Ellipsis, X[0, 0] > 8),
    (X[..., 0] > 100, [1, 2, 3]), (X[:, 0, 0, 0] > 10, slice(None), 2),
    True, (0, True), (slice(None), np.array([1, 0]), Ellipsis),
    ((0, 1),), (1, (2, 0, 2)), (slice(None), 0, Ellipsis, [1, 2]), ([0], 1, ..., [2]),
]


@pytest.mark.parametrize("idx", INDEX_CASES, ids=[f"case{i}" for i in range(len(INDEX_CASES))])
def test_getitem_matches_numpy(idx):
    x = fnp.asarray(X)
    got = x[idx]
    want = X[idx]
    assert got.shape == want.shape
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(np.asarray(got), want)


def test_top_level_list_index_is_a_type_error_as_in_jax():
    """``x[[1, 0, 1]]`` is NumPy's fancy indexing but a TypeError in JAX (which wants
    ``x[array(seq)]``); lists inside a tuple index are arrays in both."""
    x = fnp.asarray(X)
    with pytest.raises(TypeError, match="non-tuple sequence"):
        x[[1, 0, 1]]
    with pytest.raises(TypeError, match="integer or boolean type"):
        x[1.5]
    np.testing.assert_array_equal(np.asarray(x[np.array([1, 0, 1])]), X[[1, 0, 1]])
    np.testing.assert_array_equal(np.asarray(x[(slice(None), [0, 2])]), X[:, [0, 2]])


def test_getitem_clamps_out_of_bounds_like_jax():
    x = fnp.arange(5.0)
    assert float(x[7]) == 4.0
    assert float(x[-9]) == 0.0  # -9 + 5 = -4 -> clamped to 0
    np.testing.assert_array_equal(np.asarray(x[np.array([0, 5, -1, -6, 100])]), [0, 4, 4, 0, 4])
    m = fnp.asarray(np.arange(12.0).reshape(3, 4))
    np.testing.assert_array_equal(np.asarray(m[np.array([3, -4]), np.array([9, -1])]),
                                  np.arange(12.0).reshape(3, 4)[[2, 0], [3, 3]])


def test_getitem_errors():
    x = fnp.arange(6.0).reshape(2, 3)
    with pytest.raises(IndexError, match="too many indices"):
        x[0, 0, 0]
    with pytest.raises(IndexError, match="single ellipsis"):
        x[..., ...]
    with pytest.raises(IndexError):
        x[1.5]
    with pytest.raises(IndexError, match="boolean index did not match"):
        x[np.array([True, False, True])]
    with pytest.raises(TypeError, match="immutable"):
        x[0] = 1.0
    with pytest.raises(TypeError, match=r"\.at\[idx\]\.set"):
        x[0, 1] = 1.0


def test_getitem_dtype_and_scalar_result():
    for dt in (np.float32, np.int32, np.bool_, np.complex64):
        x = fnp.asarray(np.ones((3, 2), dt))
        y = x[1, 0]
        assert y.dtype == dt and y.shape == ()
        assert isinstance(np.asarray(y), np.ndarray)


def test_iteration_and_len():
    x = fnp.asarray(A(3, 2))
    rows = list(x)
    assert len(rows) == 3 and len(x) == 3
    np.testing.assert_array_equal(np.stack([np.asarray(r) for r in rows]), np.asarray(x))


# ---------------------------------------------------------------------------------------
# forward: hypothesis-generated indices


@st.composite
def index_and_shape(draw):
    nd = draw(st.integers(1, 4))
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=nd, max_size=nd)))
    arr_shape = tuple(draw(st.lists(st.integers(1, 3), min_size=0, max_size=2)))
    entries = []
    ax = 0
    used_ellipsis = False
    while ax < nd:
        kind = draw(st.sampled_from(["int", "slice", "none", "arr", "arr", "stop", "ellipsis"]))
        n = shape[ax]
        if kind == "stop":
            break
        if kind == "ellipsis":
            if used_ellipsis:
                continue
            used_ellipsis = True
            remaining = draw(st.integers(0, nd - ax))
            entries.append(Ellipsis)
            ax += remaining
            # an Ellipsis covers whatever the explicit entries after it leave, so after it we
            # only ever add entries for exactly the axes we skipped past
            continue
        if kind == "none":
            entries.append(None)
            continue
        if kind == "int":
            entries.append(draw(st.integers(-n, n - 1)))
        elif kind == "slice":
            start = draw(st.one_of(st.none(), st.integers(-n - 1, n + 1)))
            stop = draw(st.one_of(st.none(), st.integers(-n - 1, n + 1)))
            step = draw(st.one_of(st.none(), st.sampled_from([1, 2, -1, -2, 3])))
            entries.append(slice(start, stop, step))
        else:
            sub = arr_shape[draw(st.integers(0, len(arr_shape))):]
            vals = draw(st.lists(st.integers(-n, n - 1), min_size=int(np.prod(sub, dtype=int)),
                                 max_size=int(np.prod(sub, dtype=int))))
            entries.append(np.asarray(vals, dtype=np.int64).reshape(sub))
        ax += 1
    if used_ellipsis:
        # drop entries so that at most nd axes are consumed
        consumed = sum(1 for e in entries if e is not None and e is not Ellipsis)
        while consumed > nd:
            for i in range(len(entries) - 1, -1, -1):
                if entries[i] is not None and entries[i] is not Ellipsis:
                    del entries[i]
                    break
            consumed -= 1
    return shape, tuple(entries)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index_and_shape())
def test_getitem_hypothesis_forward_and_grad(case):
    shape, idx = case
    xn = RNG.standard_normal(shape)
    want = xn[idx]
    x = fnp.asarray(xn)
    got = x[idx]
    assert got.shape == want.shape
    np.testing.assert_array_equal(np.asarray(got), want)
    # reverse mode: the gradient of <w, x[idx]> is the scatter-add of w (np.add.at)
    w = RNG.standard_normal(want.shape)
    g = fgrad.grad(lambda x: fnp.sum(x[idx] * w))(x)
    ref = np.zeros(shape)
    np.add.at(ref, idx, w)
    np.testing.assert_allclose(np.asarray(g), ref, rtol=1e-12, atol=1e-12)
    # forward mode: gathers the tangent
    v = RNG.standard_normal(shape)
    _, t = fgrad.jvp(lambda x: x[idx], (x,), (fnp.asarray(v),))
    np.testing.assert_array_equal(np.asarray(t), v[idx])


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index_and_shape(), st.integers(0, 4), st.integers(2, 3))
def test_getitem_hypothesis_vmap(case, bdim_seed, size):
    shape, idx = case
    # batch x along a random axis
    bd = bdim_seed % (len(shape) + 1)
    xb = np.moveaxis(RNG.standard_normal((size,) + shape), 0, bd)
    check_vmap(lambda x: x[idx], [fnp.asarray(xb)], in_axes=bd)
    # batch every index array (and x, and neither) along axis 0
    arr_pos = [i for i, e in enumerate(idx) if isinstance(e, np.ndarray)]
    if not arr_pos:
        return
    batched = [np.stack([RNG.integers(-shape_of(idx, shape, i), shape_of(idx, shape, i), e.shape)
                         for _ in range(size)]) for i, e in ((i, idx[i]) for i in arr_pos)]

    def f(x, *arrs):
        full = list(idx)
        for p, a in zip(arr_pos, arrs, strict=False):
            full[p] = a
        return x[tuple(full)]

    xs = fnp.asarray(RNG.standard_normal(shape))
    check_vmap(f, [xs] + [fnp.asarray(b) for b in batched], in_axes=(None,) + (0,) * len(batched))
    xb0 = fnp.asarray(RNG.standard_normal((size,) + shape))
    check_vmap(f, [xb0] + [fnp.asarray(b) for b in batched], in_axes=(0,) + (0,) * len(batched))
    # only the first index array batched (the others broadcast across the batch)
    rest = [fnp.asarray(idx[p]) for p in arr_pos[1:]]
    check_vmap(f, [xb0, fnp.asarray(batched[0])] + rest, in_axes=(0, 0) + (None,) * len(rest))


def shape_of(idx, shape, pos):
    """Size of the operand axis that index entry ``pos`` consumes."""
    ax = 0
    for i, e in enumerate(idx):
        if e is Ellipsis:
            explicit = sum(1 for f in idx if f is not None and f is not Ellipsis)
            ax += len(shape) - explicit
            continue
        if i == pos:
            return shape[ax]
        if e is not None:
            ax += 1
    raise AssertionError


# ---------------------------------------------------------------------------------------
# gradients of indexing (order 1 and 2)

GRAD_INDEX_CASES = [
    (1,), (slice(1, None, 2),), (slice(None, None, -1), 0), ([0, 0, 2],), (slice(None), [1, 1, 0]),
    ([0, 2], slice(None), [1, 1]), (None, [2, 0], Ellipsis), (np.array([[0, 1], [1, 1]]), -1),
]


@pytest.mark.parametrize("idx", GRAD_INDEX_CASES, ids=[f"g{i}" for i in range(len(GRAD_INDEX_CASES))])
def test_getitem_grads(idx):
    x = A(3, 4, 2)
    check_grads(lambda x: fnp.sin(x[idx]) * x[idx], [x], order=2)


def test_jacrev_uses_slicing():
    j = fgrad.jacrev(lambda x: x ** 2)(fnp.arange(3.0))
    np.testing.assert_allclose(np.asarray(j), np.diag([0.0, 2.0, 4.0]))
    jf = fgrad.jacfwd(lambda x: x[::-1] * x[0])(fnp.arange(1.0, 4.0))
    x = np.arange(1.0, 4.0)
    ref = np.fliplr(np.eye(3)) * x[0]
    ref[:, 0] += x[::-1]
    np.testing.assert_allclose(np.asarray(jf), ref)


def test_hessian_through_indexing():
    def f(x):
        return fnp.sum(x[np.array([0, 1, 1])] ** 3) + x[2] * x[0]
    x = np.array([1.0, 2.0, 3.0])
    h = fgrad.hessian(f)(fnp.asarray(x))
    ref = np.array([[6 * x[0], 0, 1], [0, 2 * 6 * x[1], 0], [1, 0, 0]])
    np.testing.assert_allclose(np.asarray(h), ref)


def test_grad_of_clamped_index_goes_to_edge():
    g = fgrad.grad(lambda x: fnp.sum(x[np.array([7, -1, 0])]))(fnp.arange(3.0))
    np.testing.assert_allclose(np.asarray(g), [1.0, 0.0, 2.0])


def test_boolean_mask_grad_and_jvp():
    xn = A(4, 3)
    mask = xn > 0
    check_grads(lambda x: x[mask] ** 2, [xn], order=2)
    g = fgrad.grad(lambda x: fnp.sum(x[x > 0]))(fnp.asarray(xn))  # mask from a JVP tracer
    np.testing.assert_array_equal(np.asarray(g), mask.astype(float))


def test_traced_boolean_mask_errors_clearly():
    xs = fnp.asarray(A(3, 4))
    with pytest.raises(fgrad.ConcretizationError, match="boolean mask.*fgrad.numpy.where"):
        fgrad.vmap(lambda x: x[x > 0])(xs)
    with pytest.raises(fgrad.ConcretizationError, match="boolean mask"):
        fgrad.vmap(lambda x: x.at[x > 0].set(0.0))(xs)
    with pytest.raises(fgrad.ConcretizationError, match="nonzero"):
        fgrad.vmap(fnp.nonzero)(xs)
    with pytest.raises(fgrad.ConcretizationError, match="slice"):
        fgrad.vmap(lambda x, i: x[i:])(xs, fnp.arange(3))


# ---------------------------------------------------------------------------------------
# vmap of indexing: explicit layouts


LAYOUT_CASES = [
    ("adv-front", lambda x, i: x[i]),
    ("adv-middle", lambda x, i: x[:, i]),
    ("adv-separated", lambda x, i: x[i, :, i]),
    ("int-and-array-separated", lambda x, i: x[0, :, i]),
    ("array-none-array", lambda x, i: x[i, None, i]),
    ("adjacent-pair-middle", lambda x, i: x[:, i, i]),
    ("ellipsis-last", lambda x, i: x[..., i]),
    ("newaxis-before", lambda x, i: x[None, :, i]),
    ("reversed-slice", lambda x, i: x[::-1, i, 1:]),
    ("zero-width-ellipsis-separates", lambda x, i: x[i, 0, ..., i]),
    ("int-after-slice", lambda x, i: x[:, 2, i]),
]


@pytest.mark.parametrize("name,f", LAYOUT_CASES, ids=[c[0] for c in LAYOUT_CASES])
@pytest.mark.parametrize("xax,iax", [(0, None), (None, 0), (0, 0), (2, 1), (1, None), (None, 1), (3, 0)])
def test_vmap_getitem_layouts(name, f, xax, iax):
    B = 3
    x = A(4, 4, 4)
    i = RNG.integers(-4, 4, (2, 3))
    if xax is not None:
        x = np.stack([A(4, 4, 4) for _ in range(B)], axis=xax)
    if iax is not None:
        i = np.stack([RNG.integers(-4, 4, (2, 3)) for _ in range(B)], axis=iax)
    check_vmap(f, [fnp.asarray(x), fnp.asarray(i)], in_axes=(xax, iax))


def test_vmap_scalar_traced_index():
    x = A(5, 3)
    i = np.array([4, 0, -1, 2])
    check_vmap(lambda x, i: x[i], [fnp.asarray(x), fnp.asarray(i)], in_axes=(None, 0))
    check_vmap(lambda x, i: x[:, i], [fnp.asarray(A(4, 5, 3)), fnp.asarray(i % 3)], in_axes=(0, 0))
    check_vmap(lambda x, i: x[i, 1], [fnp.asarray(A(5, 3, 4)), fnp.asarray(i)], in_axes=(2, 0))


def test_vmap_out_axes_and_nested():
    x = A(3, 4, 5)
    i = RNG.integers(0, 5, (3, 2))
    check_vmap(lambda x, i: x[:, i], [fnp.asarray(x), fnp.asarray(i)], in_axes=(0, 0), out_axes=1)
    # nested vmap: per-row, per-element gather
    xx = A(2, 3, 6)
    ii = RNG.integers(0, 6, (2, 3))
    out = fgrad.vmap(fgrad.vmap(lambda r, j: r[j]))(fnp.asarray(xx), fnp.asarray(ii))
    ref = np.take_along_axis(xx, ii[..., None], axis=-1)[..., 0]
    np.testing.assert_array_equal(np.asarray(out), ref)


def test_vmap_of_grad_and_grad_of_vmap():
    xs = A(4, 5)
    idx = np.array([0, 0, 3])

    def f(x):
        return fnp.sum(fnp.tanh(x[idx]) ** 2)

    per = fgrad.vmap(fgrad.grad(f))(fnp.asarray(xs))
    for b in range(4):
        np.testing.assert_allclose(np.asarray(per[b]), np.asarray(fgrad.grad(f)(fnp.asarray(xs[b]))))
    g = fgrad.grad(lambda x: fnp.sum(fgrad.vmap(f)(x)))(fnp.asarray(xs))
    np.testing.assert_allclose(np.asarray(g), np.asarray(per))
    # per-example gradient w.r.t. x with a per-example index
    ib = RNG.integers(0, 5, (4, 2))
    per2 = fgrad.vmap(fgrad.grad(lambda x, i: fnp.sum(x[i] ** 2)), in_axes=(0, 0))(
        fnp.asarray(xs), fnp.asarray(ib))
    for b in range(4):
        ref = np.zeros(5)
        np.add.at(ref, ib[b], 2 * xs[b][ib[b]])
        np.testing.assert_allclose(np.asarray(per2[b]), ref)


# ---------------------------------------------------------------------------------------
# .at[] updates


def test_at_set_matches_numpy():
    xn = A(4, 5)
    cases = [(1, 2), (slice(None), 0), ([0, 2], slice(1, 3)), (Ellipsis, [4, 0]), (xn > 0,),
             ([1, 3], [0, 4]), (slice(None, None, -2), None, 1)]
    for idx in cases:
        v = A(*np.shape(xn[idx]))
        got = fnp.asarray(xn).at[idx].set(v)
        ref = xn.copy()
        ref[idx] = v
        np.testing.assert_array_equal(np.asarray(got), ref)
        # broadcasting a scalar / a lower-rank value
        ref2 = xn.copy()
        ref2[idx] = 7.0
        np.testing.assert_array_equal(np.asarray(fnp.asarray(xn).at[idx].set(7.0)), ref2)
    assert np.asarray(fnp.asarray(xn)).tolist() == xn.tolist()  # the original is untouched


@pytest.mark.parametrize("mode,ufunc", [("add", np.add), ("multiply", np.multiply), ("min", np.minimum),
                                        ("max", np.maximum)])
def test_at_ufunc_modes_with_duplicates(mode, ufunc):
    xn = A(6, 3)
    idx = (np.array([0, 2, 0, 5, 2, 0]), slice(None))
    v = A(6, 3)
    got = getattr(fnp.asarray(xn).at[idx], mode)(v)
    ref = xn.copy()
    ufunc.at(ref, idx, v)
    np.testing.assert_allclose(np.asarray(got), ref, rtol=1e-14)


def test_at_subtract_divide_power_get():
    xn = A(5) + 3
    idx = np.array([1, 3])
    v = np.array([2.0, 4.0])
    ref = xn.copy()
    ref[idx] -= v
    np.testing.assert_allclose(np.asarray(fnp.asarray(xn).at[idx].subtract(v)), ref)
    ref = xn.copy()
    ref[idx] /= v
    np.testing.assert_allclose(np.asarray(fnp.asarray(xn).at[idx].divide(v)), ref)
    ref = xn.copy()
    ref[idx] **= v
    np.testing.assert_allclose(np.asarray(fnp.asarray(xn).at[idx].power(v)), ref)
    np.testing.assert_array_equal(np.asarray(fnp.asarray(xn).at[idx].get()), xn[idx])


def test_at_out_of_bounds_updates_are_dropped():
    x = fnp.zeros(4)
    got = x.at[np.array([1, 4, -1, -5, 9])].set(np.array([1.0, 2.0, 3.0, 4.0, 5.0]))
    np.testing.assert_array_equal(np.asarray(got), [0.0, 1.0, 0.0, 3.0])
    got = x.at[7].add(1.0)
    np.testing.assert_array_equal(np.asarray(got), np.zeros(4))
    m = fnp.zeros((2, 3))
    got = m.at[np.array([0, 5]), np.array([1, 1])].add(np.array([1.0, 1.0]))
    np.testing.assert_array_equal(np.asarray(got), [[0, 1, 0], [0, 0, 0]])


def test_at_casts_values_to_operand_dtype_and_checks_shape():
    x = fnp.zeros(3, dtype=np.int32)
    y = x.at[0].set(2.7)
    assert y.dtype == np.int32 and int(y[0]) == 2
    x32 = fnp.zeros(3, dtype=np.float32)
    assert x32.at[1].add(np.float64(1.0)).dtype == np.float32
    with pytest.raises(ValueError, match="broadcast"):
        fnp.zeros((3, 2)).at[0].set(np.ones(3))
    z = fnp.zeros((3, 2)).at[0].set(np.ones((1, 1, 2)))  # leading length-1 axes are dropped
    np.testing.assert_array_equal(np.asarray(z), [[1, 1], [0, 0], [0, 0]])


@pytest.mark.parametrize("mode", ["set", "add", "multiply", "min", "max"])
def test_at_grads(mode):
    idx = (np.array([0, 2, 0, 3]), slice(1, None))
    xn = A(4, 3)
    vn = A(4, 2)

    def f(x, v):
        return getattr(x.at[idx], mode)(v) * fnp.cos(x)

    check_grads(f, [xn, vn], order=2)


@pytest.mark.parametrize("mode", ["set", "add", "multiply", "min", "max"])
def test_at_grads_unique_and_scalar(mode):
    xn = A(5)
    check_grads(lambda x, v: getattr(x.at[np.array([3, 1])], mode)(v), [xn, A(2)], order=2)
    check_grads(lambda x, v: getattr(x.at[2], mode)(v), [xn, np.array(0.3)], order=2)


def test_at_set_grad_duplicates_last_wins():
    # only the update that lands reaches the output, so it alone gets the cotangent
    idx = np.array([1, 1, 2, 1])
    g = fgrad.grad(lambda v: fnp.sum(fnp.zeros(4).at[idx].set(v) * np.arange(1.0, 5.0)))(fnp.ones(4))
    ids = np.full(4, -1)
    ids[idx] = np.arange(4)
    won = ids[idx] == np.arange(4)
    ref = np.where(won, np.arange(1.0, 5.0)[idx], 0.0)
    np.testing.assert_array_equal(np.asarray(g), ref)
    assert ref.tolist() == [0.0, 0.0, 3.0, 2.0]


def test_at_mul_grad_with_zero_updates():
    # d/dv of prod with zero factors is exact (no 0/0)
    idx = np.array([0, 0, 0, 1])
    v = np.array([0.0, 2.0, 3.0, 0.0])

    def f(v):
        return fnp.sum(fnp.ones(2).at[idx].multiply(v))

    g = np.asarray(fgrad.grad(f)(fnp.asarray(v)))
    np.testing.assert_allclose(g, [6.0, 0.0, 0.0, 1.0])
    check_grads(f, [v], order=2)
    v2 = np.array([0.0, 0.0, 3.0, 5.0])
    np.testing.assert_allclose(np.asarray(fgrad.grad(f)(fnp.asarray(v2))), [0.0, 0.0, 0.0, 1.0])


def test_at_min_max_grad_ties_split_evenly():
    x = fnp.asarray([1.0, 5.0])
    v = fnp.asarray([1.0, 3.0, 3.0])
    idx = np.array([0, 1, 1])
    gx, gv = fgrad.grad(lambda x, v: fnp.sum(x.at[idx].min(v)), argnums=(0, 1))(x, v)
    np.testing.assert_allclose(np.asarray(gx), [0.5, 0.0])
    np.testing.assert_allclose(np.asarray(gv), [0.5, 0.5, 0.5])


@pytest.mark.parametrize("mode", ["set", "add", "multiply", "min", "max"])
@pytest.mark.parametrize("axes", [(0, 0, 0), (None, 0, None), (0, None, 0), (1, 1, None), (None, None, 1),
                                  (2, 0, 1)])
def test_vmap_at_modes(mode, axes):
    B = 3
    xax, vax, iax = axes

    def f(x, v, i):
        return getattr(x.at[:, i], mode)(v)

    x = A(4, 5)
    v = A(4, 2)
    i = RNG.integers(-5, 5, (2,))
    if xax is not None:
        x = np.stack([A(4, 5) for _ in range(B)], axis=xax)
    if vax is not None:
        v = np.stack([A(4, 2) for _ in range(B)], axis=vax)
    if iax is not None:
        i = np.stack([RNG.integers(-5, 5, (2,)) for _ in range(B)], axis=0)
        i = np.moveaxis(i, 0, min(iax, 1))
        iax = min(iax, 1)
    check_vmap(f, [fnp.asarray(x), fnp.asarray(v), fnp.asarray(i)], in_axes=(xax, vax, iax))


def test_vmap_at_separated_indices():
    B = 2

    def f(x, v, i):
        return x.at[i, :, 0].add(v)

    x = A(B, 3, 4, 2)
    i = RNG.integers(0, 3, (B, 5))
    v = A(B, 5, 4)
    check_vmap(f, [fnp.asarray(x), fnp.asarray(v), fnp.asarray(i)], in_axes=(0, 0, 0))
    check_vmap(f, [fnp.asarray(x[0]), fnp.asarray(v), fnp.asarray(i[0])], in_axes=(None, 0, None))
    check_vmap(f, [fnp.asarray(x), fnp.asarray(v[0]), fnp.asarray(i[0])], in_axes=(0, None, None))


def test_vmap_of_grad_of_scatter():
    idx = np.array([0, 2, 2])
    xs, vs = A(3, 4), A(3, 3)

    def f(x, v):
        return fnp.sum(fnp.sin(x.at[idx].multiply(v)))

    per = fgrad.vmap(fgrad.grad(f, argnums=(0, 1)))(fnp.asarray(xs), fnp.asarray(vs))
    for b in range(3):
        gx, gv = fgrad.grad(f, argnums=(0, 1))(fnp.asarray(xs[b]), fnp.asarray(vs[b]))
        np.testing.assert_allclose(np.asarray(per[0][b]), np.asarray(gx), rtol=1e-12)
        np.testing.assert_allclose(np.asarray(per[1][b]), np.asarray(gv), rtol=1e-12)


# ---------------------------------------------------------------------------------------
# take / take_along_axis / put_along_axis


def test_take_modes():
    xn = A(3, 4)
    idx = np.array([[0, 3], [-1, 5]])
    for axis in (None, 0, 1, -1):
        n = xn.size if axis is None else xn.shape[axis]
        got = fnp.take(fnp.asarray(xn), idx, axis=axis, mode="clip")
        ref = np.take(xn, np.clip(np.where(idx < 0, idx + n, idx), 0, n - 1), axis=axis)
        np.testing.assert_array_equal(np.asarray(got), ref)
        np.testing.assert_array_equal(np.asarray(fnp.take(fnp.asarray(xn), idx, axis=axis, mode="wrap")),
                                      np.take(xn, idx, axis=axis, mode="wrap"))
    got = np.asarray(fnp.take(fnp.asarray(xn), idx, axis=1))  # default: fill with NaN
    ref = np.take(xn, np.where(idx < 0, idx + 4, idx).clip(0, 3), axis=1)
    bad = np.broadcast_to((idx >= 4)[None], ref.shape)
    np.testing.assert_array_equal(np.isnan(got), bad)
    np.testing.assert_array_equal(got[~bad], ref[~bad])
    gi = np.asarray(fnp.take(fnp.arange(3), np.array([5, 1])))
    assert gi.tolist() == [np.iinfo(np.int64).min, 1]
    assert np.asarray(fnp.take(fnp.arange(3.0), np.array([5]), fill_value=-2.0)).tolist() == [-2.0]
    with pytest.raises(IndexError):
        fnp.take(fnp.arange(3.0), np.array([3]), mode="raise")
    assert fnp.asarray(xn).take(np.array([1, 2]), axis=1).shape == (3, 2)


def test_take_grads_and_vmap():
    xn = A(4, 3)
    idx = np.array([3, 0, 0, 9, -1])
    for mode in ("fill", "clip", "wrap"):
        check_grads(lambda x: fnp.take(x, idx, axis=0, mode=mode, fill_value=0.5) ** 2, [xn], order=2)
    g = fgrad.grad(lambda x: fnp.sum(fnp.take(x, idx, axis=0, fill_value=0.0)))(fnp.asarray(xn))
    np.testing.assert_array_equal(np.asarray(g)[:, 0], [2.0, 0.0, 0.0, 2.0])  # index 9 dropped
    ib = RNG.integers(-4, 6, (3, 5))
    check_vmap(lambda x, i: fnp.take(x, i, axis=1, mode="fill", fill_value=0.0),
               [fnp.asarray(A(3, 6, 2)), fnp.asarray(ib)], in_axes=(0, 0))
    check_vmap(lambda x, i: fnp.take(x, i, axis=0, mode="clip"),
               [fnp.asarray(xn), fnp.asarray(ib)], in_axes=(None, 0))


def test_take_along_axis():
    xn = A(3, 4, 5)
    for axis in (0, 1, 2, -1):
        shp = list(xn.shape)
        shp[axis] = 6
        idx = RNG.integers(0, xn.shape[axis], shp)
        got = fnp.take_along_axis(fnp.asarray(xn), idx, axis)
        np.testing.assert_array_equal(np.asarray(got), np.take_along_axis(xn, idx, axis))
    # broadcasting of the other axes
    idx = RNG.integers(0, 4, (1, 2, 5))
    np.testing.assert_array_equal(np.asarray(fnp.take_along_axis(fnp.asarray(xn), idx, 1)),
                                  np.take_along_axis(xn, idx, 1))
    idx = RNG.integers(0, 60, (7,))
    np.testing.assert_array_equal(np.asarray(fnp.take_along_axis(fnp.asarray(xn), idx, None)),
                                  np.take_along_axis(xn, idx, None))
    order = np.argsort(xn, axis=-1)
    check_grads(lambda x: fnp.take_along_axis(x, order, -1) ** 2, [xn], order=2)
    ib = np.stack([RNG.integers(0, 5, (3, 4, 2)) for _ in range(2)])
    check_vmap(lambda x, i: fnp.take_along_axis(x, i, -1), [fnp.asarray(xn), fnp.asarray(ib)],
               in_axes=(None, 0))
    check_vmap(lambda x, i: fnp.take_along_axis(x, i, 0),
               [fnp.asarray(A(2, 3, 4, 5)), fnp.asarray(ib[..., :1])], in_axes=(0, 0))


def test_put_along_axis():
    xn = A(3, 4)
    idx = np.array([[1], [0], [3]])
    v = np.array([[10.0], [20.0], [30.0]])
    ref = xn.copy()
    np.put_along_axis(ref, idx, v, axis=1)
    got = fnp.put_along_axis(fnp.asarray(xn), idx, v, axis=1, inplace=False)
    np.testing.assert_array_equal(np.asarray(got), ref)
    with pytest.raises(ValueError, match="inplace"):
        fnp.put_along_axis(fnp.asarray(xn), idx, v, axis=1)
    check_grads(lambda x, v: fnp.put_along_axis(x, idx, v, axis=1, inplace=False), [xn, v], order=1)


# ---------------------------------------------------------------------------------------
# nonzero & co


def test_nonzero_argwhere_flatnonzero_where():
    xn = (A(3, 4) > 0.3) * A(3, 4)
    for got, ref in zip(fnp.nonzero(fnp.asarray(xn)), np.nonzero(xn), strict=False):
        np.testing.assert_array_equal(np.asarray(got), ref)
    for got, ref in zip(fnp.where(fnp.asarray(xn)), np.where(xn), strict=False):
        np.testing.assert_array_equal(np.asarray(got), ref)
    np.testing.assert_array_equal(np.asarray(fnp.argwhere(fnp.asarray(xn))), np.argwhere(xn))
    np.testing.assert_array_equal(np.asarray(fnp.flatnonzero(fnp.asarray(xn))), np.flatnonzero(xn))
    np.testing.assert_array_equal(np.asarray(fnp.asarray(xn)[fnp.nonzero(fnp.asarray(xn))]),
                                  xn[np.nonzero(xn)])
    with pytest.raises(ValueError, match="0d"):
        fnp.nonzero(fnp.asarray(1.0))


def test_nonzero_size_padding_and_under_vmap():
    xn = np.array([[0, 1, 0], [2, 0, 3]])
    r, c = fnp.nonzero(fnp.asarray(xn), size=5, fill_value=-1)
    assert np.asarray(r).tolist() == [0, 1, 1, -1, -1] and np.asarray(c).tolist() == [1, 0, 2, -1, -1]
    r, c = fnp.nonzero(fnp.asarray(xn), size=2)
    assert np.asarray(r).tolist() == [0, 1] and np.asarray(c).tolist() == [1, 0]
    if not hasattr(fnp, "cumsum"):
        pytest.skip("cumsum not available yet")
    batch = np.array([[0, 3, 0, 4], [5, 0, 0, 0], [0, 0, 0, 0]])
    out = fgrad.vmap(lambda v: fnp.nonzero(v, size=3, fill_value=9)[0])(fnp.asarray(batch))
    for b in range(3):
        nz = np.nonzero(batch[b])[0][:3]
        ref = np.concatenate([nz, np.full(3 - nz.size, 9)])
        np.testing.assert_array_equal(np.asarray(out[b]), ref)
    out2 = fgrad.vmap(lambda v: fnp.nonzero(v, size=4)[1])(fnp.asarray(np.stack([xn, xn[::-1]])))
    np.testing.assert_array_equal(np.asarray(out2[1]), list(np.nonzero(xn[::-1])[1]) + [0])


def test_extract_compress():
    xn = A(3, 4)
    cond = xn > 0
    np.testing.assert_array_equal(np.asarray(fnp.extract(cond, fnp.asarray(xn))), np.extract(cond, xn))
    c = np.array([True, False, True])
    for axis in (0, None):
        np.testing.assert_array_equal(np.asarray(fnp.compress(c, fnp.asarray(xn), axis=axis)),
                                      np.compress(c, xn, axis=axis))
    check_grads(lambda x: fnp.extract(cond, x) ** 2, [xn], order=1)


# ---------------------------------------------------------------------------------------
# primitive registry


def test_primitives_have_rules():
    for name in ("gather", "scatter"):
        p = PRIMITIVES[name]
        assert p.jvp is not None and p.batch is not None and p.transpose is not None and p.linear


def test_scatter_nonlinear_mode_has_no_transpose():
    from fgrad.ops.indexing import scatter_p
    from fgrad.transforms.transpose import UndefinedPrimal

    av = fnp.zeros(3)
    with pytest.raises(ValueError, match="not linear"):
        scatter_p.transpose(av, UndefinedPrimal(av.aval), av[:1], indexer=(("s", 0, 1, None),), mode="mul",
                            oob="drop")


# ---------------------------------------------------------------------------------------
# staging (jit)


def test_indexing_under_jit():
    jit = getattr(fgrad, "jit", None)
    if jit is None:
        pytest.skip("fgrad.jit not available")
    xn = A(3, 4)
    i = np.array([2, 0, 2])

    def f(x, i):
        y = x[i, 1:].at[0].add(x[0, ::-1][:3])
        return y.at[:, i[:2]].max(x[:3, :2] * 3.0), fnp.take(x, i, axis=1, mode="clip")

    got = jit(f)(fnp.asarray(xn), fnp.asarray(i))
    want = f(fnp.asarray(xn), fnp.asarray(i))
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w))
    g1 = jit(fgrad.grad(lambda x: fnp.sum(f(x, i)[0] ** 2)))(fnp.asarray(xn))
    g2 = fgrad.grad(lambda x: fnp.sum(f(x, i)[0] ** 2))(fnp.asarray(xn))
    np.testing.assert_allclose(np.asarray(g1), np.asarray(g2), rtol=1e-13)
    with pytest.raises(fgrad.ConcretizationError, match="boolean mask"):
        jit(lambda x: x[x > 0])(fnp.asarray(xn))


def test_jacrev_matches_jacfwd_through_set_with_duplicates():
    idx = np.array([1, 1, 2, 1, 0])

    def f(x, v):
        return fnp.sin(x.at[idx].set(v * x[0])) * x

    x, v = fnp.asarray(A(4)), fnp.asarray(A(5))
    for argnums in (0, 1):
        np.testing.assert_allclose(np.asarray(fgrad.jacrev(f, argnums)(x, v)),
                                   np.asarray(fgrad.jacfwd(f, argnums)(x, v)), atol=1e-14)
    check_per_example_set_jacobian()


_BOUND = st.one_of(st.none(), st.integers(-6, 6))
_BASIC_ITEM = st.one_of(
    st.integers(-3, 2),
    st.none(),
    st.builds(slice, _BOUND, _BOUND, st.one_of(st.none(), st.integers(-3, 3))),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_BASIC_ITEM, max_size=4), st.lists(st.integers(1, 4), min_size=1, max_size=3))
def test_basic_index_fast_path_parses_as_the_general_path(items, shape):
    # parse_index's fast path (Python ints, int/None slices, None) gives the general path's
    # indexer, or defers to it (which raises for a zero step or too many indices)
    from fgrad.ops import indexing as I

    idx = tuple(items)
    saved = I._parse_basic
    I._parse_basic = lambda nd, idx: None
    try:
        want = I.parse_index(tuple(shape), idx)
    except Exception as e:  # noqa: BLE001
        want = type(e)
    finally:
        I._parse_basic = saved
    try:
        got = I.parse_index(tuple(shape), idx)
    except Exception as e:  # noqa: BLE001
        got = type(e)
    assert got == want
    fast = I._parse_basic(len(shape), idx)
    assert fast is None or (fast, []) == want


# JAX 0.10.2 (x64 off): x[jax.ds(...)] of x = arange(10) / arange(20).reshape(4, 5), eager and
# under jit with a traced start -- windows clamped into the axis, strided indices clamped each
_DS_CASES = [  # (expression, traced start under jit or None, JAX's values)
    ("x[m.ds(4, 2)]", None, [4, 5]),
    ("x[m.ds(-1, 2)]", None, [8, 9]),
    ("x[m.ds(8, 3)]", None, [7, 8, 9]),
    ("x[m.ds(5, 3, 3)]", None, [5, 8, 9]),
    ("x[m.ds(-2, 3, 2)]", None, [0, 0, 2]),
    ("x[m.ds(3)]", None, [0, 1, 2]),
    ("x[m.ds(i, 2)]", 4, [4, 5]),
    ("x[m.ds(i, 2)]", -1, [8, 9]),
    ("x[m.ds(i, 3)]", 8, [7, 8, 9]),
    ("x[m.ds(i, 3, 3)]", 5, [5, 8, 9]),
    ("x2[..., m.ds(1, 2)]", None, [[1, 2], [6, 7], [11, 12], [16, 17]]),
    ("x2[None, m.ds(i, 2), m.numpy.array([0, 1])]", 2, [[[10, 11], [15, 16]]]),
    ("x2[m.ds(i, 2), 1]", 3, [11, 16]),
]


@pytest.mark.parametrize("expr, start, expected", _DS_CASES)
def test_ds_dynamic_slices_index_as_jaxs(expr, start, expected):
    """``jax.ds`` was missing (jax.ds's docstring example); fgrad.ds Slices index as JAX's,
    eagerly and with a traced start under jit."""
    def run(m):
        x, x2 = m.numpy.arange(10), m.numpy.arange(20).reshape(4, 5)
        f = lambda i: eval(expr, {"m": m, "x": x, "x2": x2, "i": i})  # noqa: E731, S307
        out = f(None) if start is None else m.jit(f)(start)
        return np.asarray(out).tolist(), str(out.dtype)

    with fgrad.enable_x64(False):
        assert run(fgrad) == (expected, "int32")
    jax = pytest.importorskip("jax")
    with jax.enable_x64(False):
        assert run(jax) == (expected, "int32")


def test_ds_gradient_pytree_and_errors():
    """The gradient of a dynamic window is a scatter into it; a Slice with a traced start is
    a pytree with that start as its leaf; a window longer than the axis is JAX's TypeError."""
    g = fgrad.grad(lambda v, i: v[fgrad.ds(i, 2)].sum())(fnp.arange(5.0), 1)
    assert np.asarray(g).tolist() == [0.0, 1.0, 1.0, 0.0, 0.0]
    assert fgrad.tree_util.tree_leaves(fgrad.ds(1, 2)) == []
    assert len(fgrad.tree_util.tree_leaves(fgrad.ds(fnp.asarray(1), 2))) == 1
    assert fgrad.ds(None) == slice(None) and fgrad.ds(3) == fgrad.ds(0, 3)
    with pytest.raises(TypeError, match="slice_sizes must be less than or equal"):
        fnp.arange(10)[fgrad.ds(0, 11)]
    with pytest.raises(ValueError, match="Non-static stride"):
        fgrad.ds(0, 2, fnp.asarray(2))


# JAX 0.10.2 (x64 off), x = arange(5.), x2 = arange(6.).reshape(2, 3): wrap_negative_indices=False
# makes a negative index out of bounds (below 0): dropped, clamped to 0, or filled
_NO_WRAP_CASES = [
    ("x.at[-1].set(99, wrap_negative_indices=False, mode='drop')", [0.0, 1.0, 2.0, 3.0, 4.0]),
    ("x.at[-1].set(99, wrap_negative_indices=False, mode='clip')", [99.0, 1.0, 2.0, 3.0, 4.0]),
    ("x.at[-1].set(99, wrap_negative_indices=False)", [0.0, 1.0, 2.0, 3.0, 4.0]),
    ("x.at[-1].get(wrap_negative_indices=False, mode='fill', fill_value=-7)", -7.0),
    ("x.at[-1].get(wrap_negative_indices=False)", 0.0),
    ("x.at[jnp.array([-1, 2])].add(10, wrap_negative_indices=False, mode='drop')",
     [0.0, 1.0, 12.0, 3.0, 4.0]),
    ("x2.at[..., -1].set(5, wrap_negative_indices=False, mode='drop')", [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]),
    ("x2.at[-1, 1].set(5, wrap_negative_indices=False, mode='clip')", [[0.0, 5.0, 2.0], [3.0, 4.0, 5.0]]),
    ("jax.jit(lambda i: x.at[i].set(99, wrap_negative_indices=False, mode='drop'))(-2)",
     [0.0, 1.0, 2.0, 3.0, 4.0]),
    ("x.at[-1].set(99, wrap_negative_indices=True)", [0.0, 1.0, 2.0, 3.0, 99.0]),
]


@pytest.mark.parametrize("expr, expected", _NO_WRAP_CASES)
def test_at_wrap_negative_indices_false_as_jaxs(expr, expected):
    """``x.at[-1].set(99, wrap_negative_indices=False, mode='drop')`` (jax.Array.at's docstring
    example) raised TypeError: the argument was missing."""
    def run(m):
        names = {"jax": m, "jnp": m.numpy, "x": m.numpy.arange(5.0),
                 "x2": m.numpy.arange(6.0).reshape(2, 3)}
        return np.asarray(eval(expr, names)).tolist()  # noqa: S307

    with fgrad.enable_x64(False):
        assert run(fgrad) == expected
    jax = pytest.importorskip("jax")
    with jax.enable_x64(False):
        assert run(jax) == expected


# ---------------------------------------------------------------------------------------------
# session 15: differences found by running JAX's jax.numpy docstring examples on fgrad
# (tools/jax_docstring_examples.py); snippets and JAX's output in tests/stored/jax_docstring_fixes.json
from jax_snippets import snippet_tests  # noqa: E402

test_jax_docstring_fixes_indexing, test_jax_docstring_fixes_indexing_live = snippet_tests("indexing")
