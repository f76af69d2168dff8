"""Per-op tests driven by the op table (the package fgrad/testing/op_table/).

For every row: forward vs NumPy (hypothesis over shapes, values, static arguments; float32,
float64 and integer/bool dtypes; broadcasting for binary ops), derivatives vs finite
differences (orders 1 and 2, forward and reverse mode, random directions), vmap vs a Python
loop over mixed in_axes / out_axes (also of the op's jvp and vjp), and dtype preservation.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fgrad
import fgrad.numpy as fnp
from fgrad.testing import check_grads
from fgrad.testing import op_table as T
from fgrad.testing.device_numerics import rounds_like_numpy
from fgrad.tree_util import tree_flatten, tree_structure, tree_unflatten

F32, F64 = T.F32, T.F64

# the costlier checks run fewer examples than the active profile's default (>= 2)
FEWER = settings(max_examples=max(2, settings.default.max_examples * 3 // 5))


def _params(pred, per_dtype=None, slow_dtypes=()):
    """pytest params over rows (and dtypes): ``per_dtype(row) -> dtypes``; a row's
    ``slow_dtypes`` are marked slow where the row has another dtype to run by default."""
    out = []
    for r in T.ROWS:
        if not pred(r):
            continue
        marks = [pytest.mark.skip(reason=r.missing)] if r.missing else []
        if per_dtype is None:
            out.append(pytest.param(r.name, id=r.name, marks=marks))
        else:
            dts = [np.dtype(d) for d in per_dtype(r)]
            for dt in dts:
                slow = [pytest.mark.slow] if dt in slow_dtypes and len(dts) > 1 else []
                out.append(pytest.param(r.name, dt.name, id=f"{r.name}-{dt.name}", marks=marks + slow))
    return out


ROWS = T.rows_by_name()


def _leaves(x) -> list:
    return tree_flatten(x)[0]


def assert_tree_close(actual, expected, atol, rtol, what="", check_dtype=True):
    la, ta = tree_flatten(actual)
    le, te = tree_flatten(expected)
    assert len(la) == len(le), f"{what}: {len(la)} outputs, expected {len(le)} ({ta} vs {te})"
    for i, (a, e) in enumerate(zip(la, le, strict=True)):
        assert isinstance(a, fgrad.Array), f"{what}: output {i} is a {type(a).__name__}, not an fgrad.Array"
        an, en = np.asarray(a), np.asarray(e)
        assert an.shape == en.shape, f"{what}: output {i} has shape {an.shape}, expected {en.shape}"
        if check_dtype:
            assert an.dtype == en.dtype, f"{what}: output {i} has dtype {an.dtype}, expected {en.dtype}"
        if en.dtype.kind in "fc":
            np.testing.assert_allclose(an, en, atol=atol, rtol=rtol, equal_nan=True, err_msg=what)
        else:
            np.testing.assert_array_equal(an, en, err_msg=what)


def _draw_case(data, row, dtype):
    shapes = data.draw(row.shape_strategy(), label="shapes")
    kwargs = data.draw(row.kwargs_strategy(shapes), label="kwargs")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    return shapes, kwargs, np.random.default_rng(seed), seed


def _fn(row, kwargs):
    return lambda *a: row.fn(*a, **kwargs)


# --------------------------------------------------------------------------------------
# forward vs NumPy


@pytest.mark.parametrize("row,dtype", _params(lambda r: True, lambda r: r.dtypes + r.other_dtypes))
@given(data=st.data())
def test_forward(row, dtype, data):
    row, dtype = ROWS[row], np.dtype(dtype)
    shapes, kwargs, vals = _draw_forward_case(data, row, dtype)
    try:
        with np.errstate(all="ignore"):
            expected = row.call_ref_like_device([np.array(v) for v in vals], kwargs)
    except Exception:  # NumPy rejects the input: fgrad must reject it too
        with pytest.raises(Exception):  # noqa: B017
            row.call([fnp.asarray(v) for v in vals], kwargs)
        return
    actual = row.call([fnp.asarray(v) for v in vals], kwargs)
    atol, rtol = row.forward_tol(_tolerance_dtype(dtype, expected))
    what = f"{row.name} {dtype.name} shapes={shapes} kwargs={kwargs}"
    assert_tree_close(actual, expected, atol, rtol, what)


def _draw_forward_case(data, row, dtype):
    """``(shapes, kwargs, values)`` of one forward example: values from the arguments'
    strategies (special values included), valid for the row (`_valid_or_redrawn`)."""
    shapes = data.draw(row.shape_strategy(), label="shapes")
    kwargs = data.draw(row.kwargs_strategy(shapes), label="kwargs")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    if row.make_args is not None or any(a.kind == "distinct" for a in row.args):
        return shapes, kwargs, row.sample_args(np.random.default_rng(seed), shapes, kwargs, dtype)
    vals = [
        data.draw(a.strategy(s, dtype, row.specials), label=f"arg{i}")
        for i, (a, s) in enumerate(zip(row.args, shapes, strict=True))
    ]
    return shapes, kwargs, _valid_or_redrawn(row, vals, shapes, kwargs, dtype, seed)


@pytest.mark.parametrize("row", _params(lambda r: r.valid is not None))
@FEWER
@given(data=st.data())
def test_forward_and_vmap_draws_are_valid(row, data):
    """The forward and vmap tests draw only inputs the row calls valid: they drew any input,
    so a histogram value within rounding of a bin edge (fgrad's and NumPy's edges differ in
    the last bit) flaked the forward comparison."""
    row = ROWS[row]
    dtype = _example_dtype(row)
    shapes, kwargs, vals = _draw_forward_case(data, row, dtype)
    assert _is_valid(row, vals, kwargs)
    if row.vmap:
        _, kwargs, _, _, _, examples, _, _ = _draw_vmap_case(data, row, dtype)
        assert all(_is_valid(row, ex, kwargs) for ex in examples)


def _is_valid(row, vals, kwargs) -> bool:
    with np.errstate(all="ignore"):  # (the checks divide by drawn zeros)
        return bool(row.valid([np.asarray(v) for v in vals], kwargs))


def _valid_or_redrawn(row, vals, shapes, kwargs, dtype, seed):
    """``vals`` when the row calls them valid, else a valid draw of the same shapes (from
    ``seed``): a row's ``valid`` marks the inputs where its comparisons are well posed (no
    value within rounding of a histogram edge, a ``mod`` discontinuity, a degenerate
    eigenvalue), so the drawn example still tests something instead of being discarded."""
    if row.valid is None or _is_valid(row, vals, kwargs):
        return vals
    return row.sample_args(np.random.default_rng(seed), shapes, kwargs, dtype)


def _tolerance_dtype(dtype: np.dtype, expected) -> np.dtype:
    """The dtype whose tolerance applies: the input's, except for integer inputs with float
    results on a backend whose kernels do not round like NumPy's (``exp`` of int32 on a GPU is
    an ulp off NumPy's float32 ``exp``); on the host integer inputs stay exact."""
    if dtype.kind in "fc" or rounds_like_numpy():
        return dtype
    kinds = [np.asarray(e).dtype for e in tree_flatten(expected)[0]]
    return next((k for k in kinds if k.kind in "fc"), dtype)


SPECIAL_VALUES = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -2.5, np.inf, -np.inf, np.nan, 1e-30, 7.0])
# max/min of +0.0 and -0.0: IEEE 754-2008 and C's fmax allow either zero, and NumPy itself
# answers differently in its SIMD and scalar loops (maximum(0., -0.) is -0. for arrays of 16,
# +0. for one element); cupy and JAX order -0. below +0.  The sign is not checked there.
_EITHER_ZERO_ON_TIES = {"maximum", "minimum", "fmax", "fmin"}


@pytest.mark.parametrize("row,dtype", _params(lambda r: r.specials and r.nargs <= 2, lambda r: r.dtypes))
def test_forward_special_values(row, dtype):
    """Signed zeros, infinities and NaNs (every pair, for binary ops) agree with NumPy."""
    row, dtype = ROWS[row], np.dtype(dtype)
    if row.nargs == 1:
        vals = [SPECIAL_VALUES.astype(dtype)]
    else:
        a, b = np.meshgrid(SPECIAL_VALUES, SPECIAL_VALUES)
        vals = [a.astype(dtype), b.astype(dtype)]
    with np.errstate(all="ignore"):
        expected = row.call_ref_like_device([v.copy() for v in vals], {})
        actual = row.call([fnp.asarray(v) for v in vals], {})
    atol, rtol = row.forward_tol(dtype)
    assert_tree_close(actual, expected, atol, rtol, f"{row.name} {dtype.name} on special values")
    # signed zeros must match too
    for a, e in zip(_leaves(actual), _leaves(expected), strict=True):
        e = np.asarray(e)
        if e.dtype.kind == "f":
            zero = e == 0
            if row.name in _EITHER_ZERO_ON_TIES:
                zero &= ~((vals[0] == 0) & (vals[1] == 0) & (np.signbit(vals[0]) != np.signbit(vals[1])))
            np.testing.assert_array_equal(
                np.signbit(np.asarray(a)[zero]),
                np.signbit(e[zero]),
                err_msg=f"{row.name}: sign of zero results differs",
            )


# --------------------------------------------------------------------------------------
# derivatives vs finite differences


def _diff_fn(row, args, kwargs, dn):
    def f(*d):
        full = list(args)
        for i, v in zip(dn, d, strict=True):
            full[i] = v
        return row.fn(*full, **kwargs)

    return f


@pytest.mark.parametrize(
    "row,dtype",
    # float32 gradients at float32 tolerances run in the slow suite where the row has float64 too
    # (the float64 finite differences, to second order, are the default run's check)
    _params(lambda r: r.grad in ("yes", "zero"), lambda r: [d for d in r.dtypes if np.dtype(d).kind == "f"],
            slow_dtypes=(np.dtype(np.float32),)),
)
@FEWER
@given(data=st.data())
def test_grads(row, dtype, data):
    row, dtype = ROWS[row], np.dtype(dtype)
    shapes, kwargs, rng, seed = _draw_case(data, row, dtype)
    vals = row.sample_args(rng, shapes, kwargs, dtype)
    args = [fnp.asarray(v) for v in vals]
    dn = row.diff_argnums(dtype)
    f = _diff_fn(row, args, kwargs, dn)
    if dtype == F64:
        order = row.order
        atol, rtol = row.grad_tol or (None, None)
    else:
        order = 1
        atol = rtol = 2e-3 * row.f32_grad_scale
    check_grads(
        f,
        [args[i] for i in dn],
        order=order,
        modes=row.modes,
        eps=row.eps,
        atol=atol,
        rtol=rtol,
        seed=seed,
        err_msg=f"{row.name} {dtype.name} shapes={shapes} kwargs={kwargs}",
    )


def _example_dtype(row):
    floats = [d for d in row.dtypes if np.dtype(d).kind == "f"]
    return np.dtype(F64 if F64 in floats else (floats or list(row.other_dtypes))[0])


@pytest.mark.parametrize("row", _params(lambda r: r.grad == "no"))
def test_nondifferentiable_outputs_have_zero_derivatives(row):
    """Ops with non-float outputs: jvp and vjp run and give zero tangents/cotangents."""
    row = ROWS[row]
    dtype = _example_dtype(row)
    args = T.example_args(row, dtype)
    dn = [i for i, a in enumerate(args) if a.dtype.kind == "f"]
    if not dn:
        pytest.skip("no float inputs in this row")
    f = _diff_fn(row, args, row.example_kwargs, dn)
    primals = [args[i] for i in dn]
    tangents = [fnp.ones_like(p) for p in primals]
    out, t_out = fgrad.jvp(f, tuple(primals), tuple(tangents))
    assert tree_structure(out) == tree_structure(t_out)
    for o, t in zip(_leaves(out), _leaves(t_out), strict=True):
        assert t.shape == o.shape
        assert not np.any(np.asarray(t)), f"{row.name}: non-zero tangent for a non-float output"
    out, f_vjp = fgrad.vjp(f, *primals)
    leaves, tree = tree_flatten(out)
    cts = f_vjp(tree_unflatten(tree, [fnp.zeros_like(o) for o in leaves]))
    for p, c in zip(primals, cts, strict=True):
        assert c.shape == p.shape and c.dtype == p.dtype
        assert not np.any(np.asarray(c))


# --------------------------------------------------------------------------------------
# vmap vs a Python loop


def _axis_choices(rank):
    """Valid in_axes for an argument of logical rank ``rank`` (batched rank rank+1)."""
    return sorted({None, 0, min(1, rank), -1}, key=lambda a: (a is None, a))


def _draw_vmap_case(data, row, dtype):
    shapes, kwargs, rng, seed = _draw_case(data, row, dtype)
    n = data.draw(st.integers(1, 3), label="batch size")
    axes = [
        data.draw(st.sampled_from(_axis_choices(len(s))), label=f"in_axis{i}") for i, s in enumerate(shapes)
    ]
    if all(a is None for a in axes):
        axes[0] = 0
    for _ in range(50):  # valid examples (the unbatched arguments are the first example's)
        per_ex = [row.sample_args(rng, shapes, kwargs, dtype) for _ in range(n)]
        examples = [[ex[i] if ax is not None else per_ex[0][i] for i, ax in enumerate(axes)] for ex in per_ex]
        if row.valid is None or all(_is_valid(row, ex, kwargs) for ex in examples):
            break
    batched = [
        np.stack([ex[i] for ex in per_ex], axis=ax) if ax is not None else per_ex[0][i]
        for i, ax in enumerate(axes)
    ]
    out_axis = data.draw(st.sampled_from([0, -1]), label="out_axes")
    return shapes, kwargs, n, axes, batched, examples, out_axis, rng


def _stack_outputs(outs, axis):
    first, tree = tree_flatten(outs[0])
    cols = [[np.asarray(x) for x in _leaves(o)] for o in outs]
    return tree_unflatten(tree, [np.stack([c[i] for c in cols], axis=axis) for i in range(len(first))])


def _vmap_dtype(row):
    return _example_dtype(row)


@pytest.mark.parametrize("row", _params(lambda r: r.vmap))
@FEWER
@given(data=st.data())
def test_vmap(row, data):
    row = ROWS[row]
    dtype = _vmap_dtype(row)
    shapes, kwargs, n, axes, batched, examples, out_axis, _ = _draw_vmap_case(data, row, dtype)
    f = _fn(row, kwargs)
    expected = _stack_outputs([f(*[fnp.asarray(v) for v in ex]) for ex in examples], out_axis)
    actual = fgrad.vmap(f, in_axes=tuple(axes), out_axes=out_axis)(*[fnp.asarray(b) for b in batched])
    atol, rtol = row.forward_tol(dtype)
    assert_tree_close(
        actual,
        expected,
        atol * 10,
        rtol * 10,
        f"vmap {row.name} in_axes={axes} out_axes={out_axis} shapes={shapes} kwargs={kwargs}",
    )


def _random_like(rng, x):
    x = np.asarray(x)
    return rng.standard_normal(x.shape).astype(x.dtype) if x.dtype.kind == "f" else np.zeros_like(x)


@pytest.mark.parametrize("row", _params(lambda r: r.vmap and r.grad in ("yes", "zero") and r.dtypes))
@FEWER
@given(data=st.data())
def test_vmap_of_jvp_and_vjp(row, data):
    """Batched derivatives (batching rules of the jvp rules and of the transposes)."""
    row = ROWS[row]
    dtype = _example_dtype(row)
    shapes, kwargs, n, axes, batched, examples, out_axis, rng = _draw_vmap_case(data, row, dtype)
    dn = row.diff_argnums(dtype)
    if not dn:
        pytest.skip("no differentiable arguments")
    f = _fn(row, kwargs)
    if "fwd" in row.modes:
        _check_vmap_of_jvp(row, kwargs, dn, shapes, axes, batched, examples, out_axis, rng, dtype)
    if "rev" in row.modes:
        _check_vmap_of_vjp(row, kwargs, dn, shapes, axes, batched, examples, f, rng, dtype)


def _check_vmap_of_jvp(row, kwargs, dn, shapes, axes, batched, examples, out_axis, rng, dtype):
    def jvp_fn(*a):
        prim, tans = list(a[: len(examples[0])]), list(a[len(examples[0]) :])
        return fgrad.jvp(_diff_fn(row, prim, kwargs, dn), tuple(prim[i] for i in dn), tuple(tans))[1]

    # tangents: mapped like their primal, or along 0 where the primal is unmapped
    tan_ex = [[_random_like(rng, ex[i]) for i in dn] for ex in examples]
    t_axes = [axes[i] if axes[i] is not None else 0 for i in dn]
    t_batched = [np.stack([t[k] for t in tan_ex], axis=ax) for k, ax in enumerate(t_axes)]
    expected = _stack_outputs(
        [jvp_fn(*[fnp.asarray(v) for v in ex + te]) for ex, te in zip(examples, tan_ex, strict=True)],
        out_axis,
    )
    actual = fgrad.vmap(jvp_fn, in_axes=tuple(axes) + tuple(t_axes), out_axes=out_axis)(
        *[fnp.asarray(b) for b in batched + t_batched]
    )
    atol, rtol = row.forward_tol(dtype)
    what = f"vmap(jvp) {row.name} in_axes={axes} shapes={shapes} kwargs={kwargs}"
    assert_tree_close(actual, expected, atol * 100, rtol * 100, what)


def _check_vmap_of_vjp(row, kwargs, dn, shapes, axes, batched, examples, f, rng, dtype):
    atol, rtol = row.forward_tol(dtype)

    def vjp_fn(*a):
        prim, ct = list(a[:-1]), a[-1]
        g = _diff_fn(row, prim, kwargs, dn)
        return fgrad.vjp(g, *[prim[i] for i in dn])[1](ct)

    outs = [f(*[fnp.asarray(v) for v in ex]) for ex in examples]
    cts = [tree_unflatten(tree_structure(o), [_random_like(rng, x) for x in _leaves(o)]) for o in outs]
    expected = _stack_outputs(
        [vjp_fn(*[fnp.asarray(v) for v in ex], ct) for ex, ct in zip(examples, cts, strict=True)], 0
    )
    ct_batched = tree_unflatten(
        tree_structure(outs[0]),
        [fnp.asarray(np.stack(c, axis=0)) for c in zip(*[_leaves(c) for c in cts], strict=True)],
    )
    actual = fgrad.vmap(vjp_fn, in_axes=tuple(axes) + (0,))(*[fnp.asarray(b) for b in batched], ct_batched)
    assert_tree_close(
        actual,
        expected,
        atol * 100,
        rtol * 100,
        f"vmap(vjp) {row.name} in_axes={axes} shapes={shapes} kwargs={kwargs}",
    )


# --------------------------------------------------------------------------------------
# dtype preservation (float32 in -> float32 out, also for derivatives and under vmap)


@pytest.mark.parametrize("row", _params(lambda r: F32 in r.dtypes))
def test_float32_preserved(row):
    row = ROWS[row]
    args = T.example_args(row, F32)
    kw = row.example_kwargs
    f = _fn(row, kw)
    out = f(*args)
    with np.errstate(all="ignore"):
        ref = row.call_ref([np.asarray(a) for a in args], kw)
    for o, r in zip(_leaves(out), _leaves(ref), strict=True):
        assert o.dtype == np.asarray(r).dtype, f"{row.name}: {o.dtype} vs NumPy {np.asarray(r).dtype}"
    if row.vmap:
        batched = [fnp.asarray(np.stack([np.asarray(a)] * 2)) for a in args]
        for o, b in zip(_leaves(out), _leaves(fgrad.vmap(f)(*batched)), strict=True):
            assert b.dtype == o.dtype, f"vmap {row.name}: {b.dtype} vs {o.dtype}"
    if row.grad not in ("yes", "zero"):
        return
    dn = row.diff_argnums(F32)
    g = _diff_fn(row, args, kw, dn)
    primals = [args[i] for i in dn]
    if "fwd" in row.modes:
        _, t_out = fgrad.jvp(g, tuple(primals), tuple(fnp.ones_like(p) for p in primals))
        for o, t in zip(_leaves(out), _leaves(t_out), strict=True):
            if o.dtype.kind == "f":
                assert t.dtype == o.dtype, f"jvp {row.name}: tangent {t.dtype} for output {o.dtype}"
    if "rev" not in row.modes:
        return
    leaves, tree = tree_flatten(out)
    cts = fgrad.vjp(g, *primals)[1](tree_unflatten(tree, [fnp.ones_like(o) for o in leaves]))
    for p, c in zip(primals, cts, strict=True):
        assert c.dtype == p.dtype, f"vjp {row.name}: cotangent {c.dtype} for input {p.dtype}"


# --------------------------------------------------------------------------------------
# table hygiene and coverage


def test_row_names_unique():
    T.rows_by_name()


@pytest.mark.parametrize("namespace", ["numpy", "numpy.linalg", "numpy.fft", "nn", "lax", "random",
                                       "scipy.special", "scipy.linalg", "scipy.signal", "scipy.optimize"])
def test_table_covers_public_functions(namespace):
    """Every public function has a row (or is listed in NOT_OPS with a reason)."""
    import importlib

    try:
        importlib.import_module(f"fgrad.{namespace}")
    except ImportError:
        pytest.skip(f"fgrad.{namespace} does not exist yet")
    missing = T.uncovered(namespace)
    assert not missing, f"fgrad.{namespace} functions without an op-table row: {missing}"


CREATION = [
    ("zeros", lambda m: m.zeros((2, 3))),
    ("zeros32", lambda m: m.zeros(3, dtype=np.float32)),
    ("ones", lambda m: m.ones((2,))),
    ("ones_int", lambda m: m.ones((2, 2), dtype=np.int32)),
    ("full", lambda m: m.full((2, 2), 1.5)),
    ("full_int", lambda m: m.full((3,), 7)),
    ("full32", lambda m: m.full((3,), 7, dtype=np.float32)),
    ("empty_shape", lambda m: m.empty((2, 0)).shape),
    ("zeros_like", lambda m: m.zeros_like(m.ones((2, 3), dtype=np.float32))),
    ("ones_like", lambda m: m.ones_like(m.arange(3))),
    ("full_like", lambda m: m.full_like(m.arange(3), 2)),
    ("empty_like", lambda m: m.empty_like(m.ones((2,), dtype=np.float32)).dtype),
    ("arange", lambda m: m.arange(5)),
    ("arange_f", lambda m: m.arange(0.5, 3.0, 0.5)),
    ("arange_step", lambda m: m.arange(1, 10, 3)),
    ("arange32", lambda m: m.arange(4, dtype=np.float32)),
    ("linspace", lambda m: m.linspace(0, 1, 5)),
    ("linspace_ne", lambda m: m.linspace(0, 1, 4, endpoint=False)),
    ("linspace32", lambda m: m.linspace(0, 1, 3, dtype=np.float32)),
    ("logspace", lambda m: m.logspace(0, 2, 3)),
    ("eye", lambda m: m.eye(3)),
    ("eye_rect", lambda m: m.eye(2, 4, k=1)),
    ("identity", lambda m: m.identity(2)),
    ("tri", lambda m: m.tri(3, 4, -1, dtype=m.float64)),  # JAX's default is float32 (NumPy's float64)
    ("array_list", lambda m: m.array([[1, 2], [3, 4]])),
    ("array_float", lambda m: m.asarray([1.0, 2.5])),
    ("asarray_dtype", lambda m: m.asarray([1, 2], dtype=np.float32)),
    ("asarray_scalar", lambda m: m.asarray(3.0)),
    ("asarray_bool", lambda m: m.asarray([True, False])),
    ("diag_indices", lambda m: m.diag_indices(3)),
    ("diag_indices_from", lambda m: m.diag_indices_from(m.ones((2, 2)))),
    ("tril_indices", lambda m: m.tril_indices(3, -1)),
    ("triu_indices", lambda m: m.triu_indices(3, 1, 4)),
    ("tril_indices_from", lambda m: m.tril_indices_from(m.ones((3, 3)))),
    ("triu_indices_from", lambda m: m.triu_indices_from(m.ones((3, 4)), 1)),
    ("indices", lambda m: m.indices((2, 3))),
    ("ix_", lambda m: m.ix_(m.asarray([0, 2]), m.asarray([1]))),
    ("ravel_multi_index", lambda m: m.ravel_multi_index((m.asarray([1, 2]), m.asarray([0, 3])), (3, 4))),
    ("unravel_index", lambda m: m.unravel_index(m.asarray([5, 7]), (3, 4))),
]


@pytest.mark.parametrize("make", [pytest.param(f, id=n) for n, f in CREATION])
def test_creation(make):
    expected = make(np)
    actual = make(fnp)
    if isinstance(expected, np.dtype) or (
        isinstance(expected, tuple) and all(isinstance(e, int) for e in expected)
    ):
        assert actual == expected
        return
    if isinstance(expected, (tuple, list)):
        assert isinstance(actual, (tuple, list)) and len(actual) == len(expected)
        pairs = list(zip(actual, expected, strict=True))
    else:
        pairs = [(actual, expected)]
    for a, e in pairs:
        assert isinstance(a, fgrad.Array)
        assert a.dtype == e.dtype and a.shape == e.shape, (a.dtype, e.dtype, a.shape, e.shape)
        np.testing.assert_array_equal(np.asarray(a), e)
