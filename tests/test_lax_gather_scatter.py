"""`lax.gather` / `lax.scatter*` with dimension numbers (`fgrad/_lax_gather_scatter.py`).

Three witnesses: a loop over output (updates) elements written from XLA's operation
semantics (`_ref_gather`, `_ref_scatter`: independent of fgrad's lowering onto NumPy
indexing), JAX's own numbers (live under hypothesis when jax is installed, and stored for
the examples of JAX's documentation), and finite differences for the derivatives.  vmap is
checked against a Python loop and jit against eager evaluation.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import fgrad
import fgrad.numpy as fnp
from fgrad import lax
from fgrad.testing import check_grads

GDN = lax.GatherDimensionNumbers
SDN = lax.ScatterDimensionNumbers


def A(x):
    return np.asarray(x)


# ---------------------------------------------------------------------------------------
# reference: XLA's semantics, one element at a time


def _operand_index(xshape, sizes, start_vec, batch_idx, index_map, window_dims, window_off, obd, ibd,
                   mode):
    """The operand index one output element reads, or None for a window that does not fit
    (``mode == 'fill'``)."""
    start = [0] * len(xshape)
    for k, d in enumerate(index_map):
        s = int(start_vec[k])
        hi = xshape[d] - sizes[d]
        if mode == "fill":
            if not 0 <= s <= hi:
                return None
        else:
            s = min(max(s, 0), hi)
        start[d] = s
    for od, idd in zip(obd, ibd):
        start[od] = batch_idx[idd]
    for d, o in zip(window_dims, window_off):
        start[d] += o
    return tuple(start)


def _ref_gather(x, idx, dn, sizes, mode="clip", fill=np.nan):
    x, idx = np.asarray(x), np.asarray(idx)
    offset_dims = tuple(dn.offset_dims)
    rank_out = len(offset_dims) + idx.ndim - 1
    dropped = set(dn.collapsed_slice_dims) | set(dn.operand_batching_dims)
    window_dims = [d for d in range(x.ndim) if d not in dropped]
    wsizes = iter(sizes[d] for d in window_dims)
    bsizes = iter(idx.shape[:-1])
    out_shape = tuple(next(wsizes) if r in offset_dims else next(bsizes) for r in range(rank_out))
    out = np.empty(out_shape, x.dtype)
    for o in itertools.product(*map(range, out_shape)):
        b = tuple(o[r] for r in range(rank_out) if r not in offset_dims)
        w = tuple(o[r] for r in offset_dims)
        k = _operand_index(x.shape, sizes, idx[b], b, dn.start_index_map, window_dims, w,
                           dn.operand_batching_dims, dn.start_indices_batching_dims, mode)
        out[o] = fill if k is None else x[k]
    return out


_COMBINE = {"set": lambda a, u: u, "add": lambda a, u: a + u, "mul": lambda a, u: a * u,
            "min": min, "max": max}


def _ref_scatter(x, idx, upd, dn, kind="add", mode="drop"):
    x, idx, upd = np.array(x), np.asarray(idx), np.asarray(upd)
    uwd = tuple(dn.update_window_dims)
    dropped = set(dn.inserted_window_dims) | set(dn.operand_batching_dims)
    window_dims = [d for d in range(x.ndim) if d not in dropped]
    sizes = [1] * x.ndim
    for w, d in zip(uwd, window_dims):
        sizes[d] = upd.shape[w]
    for o in itertools.product(*map(range, upd.shape)):  # row-major: the last update wins a 'set'
        b = tuple(o[r] for r in range(upd.ndim) if r not in uwd)
        w = tuple(o[r] for r in uwd)
        k = _operand_index(x.shape, sizes, idx[b], b, dn.scatter_dims_to_operand_dims, window_dims, w,
                           dn.operand_batching_dims, dn.scatter_indices_batching_dims,
                           "fill" if mode == "drop" else "clip")
        if k is not None:
            x[k] = _COMBINE[kind](x[k], upd[o])
    return x


# ---------------------------------------------------------------------------------------
# random valid dimension numbers


@st.composite
def gather_configs(draw, max_rank=3):
    """(operand shape, indices, GatherDimensionNumbers, slice sizes, out shape) with indices
    partly out of bounds."""
    rank = draw(st.integers(0, max_rank))
    xshape = tuple(draw(st.lists(st.integers(1, 4), min_size=rank, max_size=rank)))
    dims = list(range(rank))
    obd = sorted(draw(st.lists(st.sampled_from(dims), unique=True, max_size=1))) if dims else []
    rest = [d for d in dims if d not in obd]
    index_map = draw(st.permutations(rest).flatmap(lambda p: st.integers(0, len(p)).map(lambda k: p[:k])))
    collapsed = sorted(draw(st.lists(st.sampled_from(rest), unique=True)) if rest else [])
    sizes = [1 if d in obd or d in collapsed else draw(st.integers(0, xshape[d])) for d in dims]
    n_free = draw(st.integers(0, 2))
    free = tuple(draw(st.lists(st.integers(1, 3), min_size=n_free, max_size=n_free)))
    # the indices' batch dims: the free ones and one per operand batching dim, interleaved
    n_b = n_free + len(obd)
    ibd = draw(st.permutations(range(n_b)).map(lambda p: list(p[:len(obd)])))
    bshape, it = [], iter(free)
    for j in range(n_b):
        bshape.append(xshape[obd[ibd.index(j)]] if j in ibd else next(it))
    hi = max(xshape) + 2 if xshape else 2
    idx = np.array(draw(st.lists(st.integers(-2, hi), min_size=int(np.prod(bshape)) * len(index_map),
                                 max_size=int(np.prod(bshape)) * len(index_map))),
                   dtype=np.int32).reshape(tuple(bshape) + (len(index_map),))
    n_window = rank - len(collapsed) - len(obd)
    out_rank = n_window + n_b
    offset_dims = sorted(draw(st.permutations(range(out_rank)).map(lambda p: list(p[:n_window]))))
    dn = GDN(tuple(offset_dims), tuple(collapsed), tuple(index_map), tuple(obd), tuple(ibd))
    return xshape, idx, dn, tuple(sizes)


def _to_scatter(dn):
    return SDN(dn.offset_dims, dn.collapsed_slice_dims, dn.start_index_map, dn.operand_batching_dims,
               dn.start_indices_batching_dims)


# more examples than the suite's default profile (the reference loops are cheap); the
# "thorough" profile (HYPOTHESIS_PROFILE=thorough) raises them all
_N = settings.default.max_examples
_FAST = settings(max_examples=max(40, _N), deadline=None, suppress_health_check=[HealthCheck.too_slow])
_JAX = settings(max_examples=max(20, _N), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_FAST
@given(gather_configs(), st.sampled_from(["clip", "fill", "promise_in_bounds"]))
def test_gather_matches_xla_semantics(cfg, mode):
    xshape, idx, dn, sizes = cfg
    x = np.arange(1.0, 1.0 + np.prod(xshape)).reshape(xshape)
    got = lax.gather(x, idx, dn, sizes, mode=mode)
    want = _ref_gather(x, idx, dn, sizes, "fill" if mode == "fill" else "clip")
    np.testing.assert_array_equal(A(got), want)


@_FAST
@given(gather_configs(), st.sampled_from(["add", "mul", "min", "max", "set"]),
       st.sampled_from(["clip", "drop"]))
def test_scatter_matches_xla_semantics(cfg, kind, mode):
    xshape, idx, dn, sizes = cfg
    out_shape = _ref_gather(np.zeros(xshape), idx, dn, sizes).shape
    x = np.arange(1.0, 1.0 + np.prod(xshape)).reshape(xshape)
    upd = np.arange(2.0, 2.0 + np.prod(out_shape)).reshape(out_shape) * np.where(
        np.arange(np.prod(out_shape)).reshape(out_shape) % 2, -1.0, 1.0)
    f = {"add": lax.scatter_add, "mul": lax.scatter_mul, "min": lax.scatter_min, "max": lax.scatter_max,
         "set": lax.scatter}[kind]
    got = f(x, idx, upd, _to_scatter(dn), mode=mode)
    np.testing.assert_array_equal(A(got), _ref_scatter(x, idx, upd, _to_scatter(dn), kind, mode))


# ---------------------------------------------------------------------------------------
# JAX live (the reference loops above against JAX itself, and fgrad against JAX)


@pytest.fixture(scope="module")
def jax_x64():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    return jax


def _jax_dn(jax, dn):
    cls = jax.lax.GatherDimensionNumbers if isinstance(dn, GDN) else jax.lax.ScatterDimensionNumbers
    return cls(*dn)


@_JAX
@given(cfg=gather_configs(), mode=st.sampled_from(["clip", "fill"]))
def test_gather_matches_jax(jax_x64, cfg, mode):
    xshape, idx, dn, sizes = cfg
    x = np.arange(1.0, 1.0 + np.prod(xshape)).reshape(xshape)
    want = jax_x64.lax.gather(x, idx, _jax_dn(jax_x64, dn), sizes, mode=mode)
    np.testing.assert_array_equal(A(lax.gather(x, idx, dn, sizes, mode=mode)), np.asarray(want))
    np.testing.assert_array_equal(_ref_gather(x, idx, dn, sizes, mode), np.asarray(want))


@_JAX
@given(cfg=gather_configs(), kind=st.sampled_from(["add", "mul", "min", "max"]),
       mode=st.sampled_from(["clip", "drop"]))
def test_scatter_matches_jax(jax_x64, cfg, kind, mode):
    xshape, idx, dn, sizes = cfg
    assume(xshape)  # XLA's CPU scatter fails at run time on a rank-0 operand
    # and, with empty index vectors, combines only the last of the updates of an inserted
    # (size-1) window: scatter_add([1.], zeros((2, 2, 0)), u, ((), (0,), ())) gives 1 + u[-1, -1]
    assume(idx.shape[-1] > 0 or not dn.collapsed_slice_dims)
    out_shape = _ref_gather(np.zeros(xshape), idx, dn, sizes).shape
    x = np.arange(1.0, 1.0 + np.prod(xshape)).reshape(xshape)
    upd = np.linspace(-2.0, 3.0, int(np.prod(out_shape))).reshape(out_shape)
    sdn = _to_scatter(dn)
    name = "scatter_" + kind
    want = getattr(jax_x64.lax, name)(x, idx, upd, _jax_dn(jax_x64, sdn), mode=mode)
    np.testing.assert_allclose(A(getattr(lax, name)(x, idx, upd, sdn, mode=mode)), np.asarray(want),
                               rtol=1e-12)


# ---------------------------------------------------------------------------------------
# JAX's documented examples, with JAX's numbers stored


_TAKE = GDN(offset_dims=(), collapsed_slice_dims=(0,), start_index_map=(0,))
_ROWS = GDN(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
_ONE = SDN(update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))


def _examples():
    x = np.arange(12.0).reshape(3, 4)
    i2 = np.array([[2, 1], [0, 3], [5, -1]])
    # (name, fgrad call, stored JAX result, JAX call)
    return [
        ("doc_take", lambda L: L.gather(np.array([10, 11, 12]), np.array([0, 1, 1, 2, 2, 2])[:, None],
                                        slice_sizes=(1,), dimension_numbers=L.GatherDimensionNumbers(
                                            (), (0,), (0,)), mode=L.GatherScatterMode.PROMISE_IN_BOUNDS),
         np.array([10, 11, 11, 12, 12, 12])),
        ("rows", lambda L: L.gather(x, np.array([[2], [0]]), L.GatherDimensionNumbers((1,), (0,), (0,)),
                                    (1, 4)),
         np.array([[8.0, 9, 10, 11], [0, 1, 2, 3]])),
        ("window_2x2_clip", lambda L: L.gather(x, i2, L.GatherDimensionNumbers((1, 2), (), (0, 1)), (2, 2),
                                               mode="clip"),
         np.array([[[5.0, 6], [9, 10]], [[2, 3], [6, 7]], [[4, 5], [8, 9]]])),
        ("window_2x2_fill", lambda L: L.gather(x, i2, L.GatherDimensionNumbers((1, 2), (), (0, 1)), (2, 2),
                                               mode="fill", fill_value=-1.0),
         np.array([[[-1.0, -1], [-1, -1]], [[-1, -1], [-1, -1]], [[-1, -1], [-1, -1]]])),
        ("take_along_axis_batched", lambda L: L.gather(
            x, np.array([[[3], [0]], [[1], [1]], [[2], [0]]]),
            L.GatherDimensionNumbers((), (1,), (1,), operand_batching_dims=(0,),
                                     start_indices_batching_dims=(0,)),
            (1, 1)),
         np.array([[3.0, 0], [5, 5], [10, 8]])),
        ("scatter_doc_set", lambda L: L.scatter(np.ones(5), np.array([[1], [2], [4]]),
                                                np.array([2.0, 3.0, 4.0]),
                                                L.ScatterDimensionNumbers((), (0,), (0,))),
         np.array([1.0, 2, 3, 1, 4])),
        ("scatter_add_duplicates", lambda L: L.scatter_add(np.zeros(4), np.array([[1], [3], [1], [1]]),
                                                           np.array([1.0, 2.0, 3.0, 4.0]),
                                                           L.ScatterDimensionNumbers((), (0,), (0,))),
         np.array([0.0, 8, 0, 2])),
        ("scatter_add_rows_drop", lambda L: L.scatter_add(
            np.zeros((3, 2)), np.array([[2], [7], [0], [2]]), np.arange(8.0).reshape(4, 2),
            L.ScatterDimensionNumbers((1,), (0,), (0,))),
         np.array([[4.0, 5], [0, 0], [6, 8]])),
        ("scatter_add_rows_clip", lambda L: L.scatter_add(
            np.zeros((3, 2)), np.array([[2], [7], [0], [-3]]), np.arange(8.0).reshape(4, 2),
            L.ScatterDimensionNumbers((1,), (0,), (0,)), mode="clip"),
         np.array([[10.0, 12], [0, 0], [2, 4]])),
        ("scatter_apply_twice", lambda L: L.scatter_apply(np.ones(3), np.array([[0], [2], [2]]),
                                                          lambda v: v * 3,
                                                          L.ScatterDimensionNumbers((), (0,), (0,)),
                                                          update_shape=(3,)),
         np.array([3.0, 1, 9])),
        ("gather_default_fill_int", lambda L: L.gather(np.array([1, 2], np.int32), np.array([[3], [1]]),
                                                       L.GatherDimensionNumbers((), (0,), (0,)), (1,),
                                                       mode="fill"),
         np.array([np.iinfo(np.int32).min, 2], np.int32)),
    ]


@pytest.mark.parametrize("case", _examples(), ids=lambda c: c[0])
def test_documented_examples_match_stored_jax_numbers(case):
    _, call, stored = case
    got = call(lax)
    assert A(got).dtype == stored.dtype or A(got).dtype.kind == stored.dtype.kind
    np.testing.assert_array_equal(A(got), stored)


@pytest.mark.parametrize("case", _examples(), ids=lambda c: c[0])
def test_documented_examples_stored_numbers_are_jax_s(jax_x64, case):
    _, call, stored = case
    np.testing.assert_array_equal(np.asarray(call(jax_x64.lax)), stored)


# ---------------------------------------------------------------------------------------
# derivatives (finite differences, orders 1 and 2, forward and reverse)


def _window_case():
    x = np.random.default_rng(0).normal(size=(3, 4))
    return x, np.array([[2, 1], [0, 3], [1, 1], [-1, 0]]), GDN((1, 2), (), (0, 1)), (2, 2)


@pytest.mark.parametrize("mode", ["clip", "fill"])
def test_gather_derivatives(mode):
    x, idx, dn, sizes = _window_case()
    check_grads(lambda v: lax.gather(v, idx, dn, sizes, mode=mode, fill_value=0.5), (x,), order=2)


@pytest.mark.parametrize("kind", ["scatter", "scatter_add", "scatter_sub", "scatter_mul", "scatter_min",
                                  "scatter_max"])
@pytest.mark.parametrize("mode", ["clip", "drop"])
def test_scatter_derivatives_in_operand_and_updates(kind, mode):
    rng = np.random.default_rng(1)
    x = rng.normal(size=(3, 4))
    idx = np.array([[2, 1], [0, 3], [2, 1], [5, 0]])  # a duplicate window and one that does not fit
    upd = rng.normal(size=(4, 2, 2))
    sdn = SDN((1, 2), (), (0, 1))
    f = getattr(lax, kind)
    check_grads(lambda v, u: f(v, idx, u, sdn, mode=mode), (x, upd), order=2, atol=1e-5, rtol=1e-5)


def test_gather_transpose_is_scatter_add_and_scatter_add_transpose_is_gather(jax_x64):
    x, idx, dn, sizes = _window_case()
    ct = np.random.default_rng(2).normal(size=(4, 2, 2))
    _, pull = fgrad.vjp(lambda v: lax.gather(v, idx, dn, sizes, mode="clip"), x)
    _, jpull = jax_x64.vjp(lambda v: jax_x64.lax.gather(v, idx, _jax_dn(jax_x64, dn), sizes, mode="clip"), x)
    np.testing.assert_allclose(A(pull(ct)[0]), np.asarray(jpull(ct)[0]), rtol=1e-12)
    sdn = _to_scatter(dn)
    _, pull = fgrad.vjp(lambda u: lax.scatter_add(np.zeros((3, 4)), idx, u, sdn, mode="clip"), ct)
    _, jpull = jax_x64.vjp(lambda u: jax_x64.lax.scatter_add(np.zeros((3, 4)), idx, u, _jax_dn(jax_x64, sdn),
                                                             mode="clip"), ct)
    np.testing.assert_allclose(A(pull(x)[0]), np.asarray(jpull(x)[0]), rtol=1e-12)


def test_scatter_set_gradient_masks_overwritten_operand_and_matches_jax(jax_x64):
    x = np.arange(5.0)
    idx = np.array([[1], [3]])
    u = np.array([10.0, 20.0])
    g = fgrad.grad(lambda v, w: fnp.sum(lax.scatter(v, idx, w, _ONE) ** 2), argnums=(0, 1))(x, u)
    jg = jax_x64.grad(lambda v, w: (jax_x64.lax.scatter(v, idx, w, _jax_dn(jax_x64, _ONE)) ** 2).sum(),
                      argnums=(0, 1))(x, u)
    np.testing.assert_array_equal(A(g[0]), [0.0, 0.0, 4.0, 0.0, 8.0])  # replaced elements get none
    for a, b in zip(g, jg):
        np.testing.assert_allclose(A(a), np.asarray(b))


def test_scatter_set_duplicates_last_update_wins_and_gets_the_gradient():
    idx = np.array([[1], [1], [1]])
    u = np.array([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(A(lax.scatter(np.zeros(3), idx, u, _ONE)), [0.0, 3.0, 0.0])
    g = fgrad.grad(lambda w: fnp.sum(lax.scatter(np.zeros(3), idx, w, _ONE) * 2.0))(u)
    np.testing.assert_array_equal(A(g), [0.0, 0.0, 2.0])


def test_scatter_min_max_derivatives_match_jax_without_ties(jax_x64):
    x = np.array([0.5, -1.0, 2.0])
    idx = np.array([[1], [1], [0], [2]])
    u = np.array([-3.0, 4.0, 1.5, 1.0])
    for kind in ("scatter_min", "scatter_max"):
        def f(L, v, w, kind=kind):
            dn = L.ScatterDimensionNumbers((), (0,), (0,))
            return (getattr(L, kind)(v, idx, w, dn) * np.array([1.0, 2.0, 3.0])).sum()
        g = fgrad.grad(lambda v, w: f(lax, v, w), argnums=(0, 1))(x, u)
        jg = jax_x64.grad(lambda v, w: f(jax_x64.lax, v, w), argnums=(0, 1))(x, u)
        for a, b in zip(g, jg):
            np.testing.assert_allclose(A(a), np.asarray(b), err_msg=kind)


# ---------------------------------------------------------------------------------------
# vmap vs a loop, jit vs eager


def test_vmap_matches_a_python_loop():
    rng = np.random.default_rng(3)
    xs = rng.normal(size=(5, 3, 4))
    idxs = rng.integers(-1, 4, size=(5, 4, 2))
    dn, sizes = GDN((1, 2), (), (0, 1)), (2, 2)
    for in_axes in ((0, 0), (0, None), (None, 0)):
        def pick(b, in_axes=in_axes):
            return (xs[b] if in_axes[0] is not None else xs[0],
                    idxs[b] if in_axes[1] is not None else idxs[0])
        args = (xs if in_axes[0] == 0 else xs[0], idxs if in_axes[1] == 0 else idxs[0])
        for mode in ("clip", "fill"):
            got = fgrad.vmap(lambda v, i, m=mode: lax.gather(v, i, dn, sizes, mode=m), in_axes=in_axes)(*args)
            want = np.stack([A(lax.gather(*pick(b), dn, sizes, mode=mode)) for b in range(5)])
            np.testing.assert_array_equal(A(got), want)
        upd = rng.normal(size=(5, 4, 2, 2))
        sdn = _to_scatter(dn)
        got = fgrad.vmap(lambda v, i, u: lax.scatter_add(v, i, u, sdn), in_axes=in_axes + (0,))(*args, upd)
        want = np.stack([A(lax.scatter_add(*pick(b), upd[b], sdn)) for b in range(5)])
        np.testing.assert_allclose(A(got), want, rtol=1e-14)


def test_vmap_of_grad_and_grad_of_vmap_of_scatter_mul():
    rng = np.random.default_rng(4)
    xs, us = rng.normal(size=(3, 4)), rng.normal(size=(3, 5))
    idx = np.array([[0], [2], [0], [3], [2]])

    def f(v, u):
        return fnp.sum(lax.scatter_mul(v, idx, u, _ONE) ** 2)

    got = fgrad.vmap(fgrad.grad(f, argnums=(0, 1)))(xs, us)
    want = [fgrad.grad(f, argnums=(0, 1))(xs[b], us[b]) for b in range(3)]
    for k in range(2):
        np.testing.assert_allclose(A(got[k]), np.stack([A(w[k]) for w in want]), rtol=1e-12)


@pytest.mark.parametrize("kind", ["gather", "scatter", "scatter_add", "scatter_max"])
def test_jit_matches_eager(kind):
    rng = np.random.default_rng(5)
    x = rng.normal(size=(3, 4))
    idx = np.array([[2, 1], [0, 3], [2, 1], [5, 0]])
    dn = GDN((1, 2), (), (0, 1))
    if kind == "gather":
        def f(v, i):
            return lax.gather(v, i, dn, (2, 2), mode="fill", fill_value=0.0)
        args = (x, idx)
    else:
        u = rng.normal(size=(4, 2, 2))

        def f(v, i, w):
            return getattr(lax, kind)(v, i, w, _to_scatter(dn))
        args = (x, idx, u)
    np.testing.assert_array_equal(A(fgrad.jit(f)(*args)), A(f(*args)))
    g = fgrad.grad(lambda v, *r: fnp.sum(f(v, *r) ** 2))
    np.testing.assert_allclose(A(fgrad.jit(g)(*args)), A(g(*args)), rtol=1e-13)


# ---------------------------------------------------------------------------------------
# errors, dtypes, small cases


def test_scalar_operand_and_empty_index_vectors():
    got = lax.gather(np.float64(3.0), np.zeros((2, 0), np.int32), GDN((), (), ()), ())
    np.testing.assert_array_equal(A(got), [3.0, 3.0])
    got = lax.scatter_add(np.float64(1.0), np.zeros((3, 0), np.int32), np.array([1.0, 2.0, 3.0]),
                          SDN((), (), ()))
    assert A(got).shape == () and float(got) == 7.0


def test_bad_dimension_numbers_raise_jax_type_errors():
    x = np.zeros((3, 4))
    with pytest.raises(TypeError, match="collapse slice dims with bound 1"):
        lax.gather(x, np.zeros((2, 1), np.int32), GDN((1,), (0,), (0,)), (2, 4))
    with pytest.raises(TypeError, match="start_index_map"):
        lax.gather(x, np.zeros((2, 2), np.int32), _ROWS, (1, 4))
    with pytest.raises(TypeError, match="Updates tensor must be of rank 2"):
        lax.scatter_add(x, np.zeros((2, 1), np.int32), np.zeros(2), SDN((1,), (0,), (0,)))
    with pytest.raises(TypeError, match="same dtypes"):
        lax.scatter_add(x, np.zeros((2, 1), np.int32), np.zeros((2, 4), np.float32), SDN((1,), (0,), (0,)))
    with pytest.raises(ValueError, match="integer type"):
        lax.gather(x, np.zeros((2, 1)), _ROWS, (1, 4))


def test_integer_operands_keep_dtype():
    x = np.arange(6, dtype=np.int32)
    got = lax.scatter_add(x, np.array([[1], [1]], np.int32), np.array([5, 7], np.int32), _ONE)
    assert A(got).dtype == np.int32
    np.testing.assert_array_equal(A(got), [0, 13, 2, 3, 4, 5])
    assert A(lax.gather(x, np.array([[4]], np.uint8), _TAKE, (1,))).dtype == np.int32


@pytest.mark.parametrize("kind", ["min", "max"])
def test_min_max_ties_split_evenly_among_operand_and_all_tied_updates(kind):
    """JAX's rule: a slot's tangent is the mean over the operand element and every update
    equal to the result (the old rule gave the operand 1/2 and the tied updates 1/4 each)."""
    x, idx, u = np.array([1.0, 0.0]), np.array([0, 0, 1]), np.array([1.0, 1.0, 0.0])
    third = 1.0 / 3.0
    # JAX 0.10.2's numbers (jnp.asarray(x).at[idx].min(u) and lax.scatter_min alike)
    want_x, want_u = [third, 0.5], [third, third, 0.5]
    g = fgrad.grad(lambda a, b: fnp.sum(getattr(fnp.asarray(a).at[idx], kind)(b)), argnums=(0, 1))(x, u)
    np.testing.assert_allclose(A(g[0]), want_x)
    np.testing.assert_allclose(A(g[1]), want_u)
    f = getattr(lax, "scatter_" + kind)
    g = fgrad.grad(lambda a, b: fnp.sum(f(a, idx[:, None], b, _ONE)), argnums=(0, 1))(x, u)
    np.testing.assert_allclose(A(g[0]), want_x)
    np.testing.assert_allclose(A(g[1]), want_u)
    tangents = (np.array([3.0, 1.0]), np.array([6.0, 9.0, 2.0]))
    t = fgrad.jvp(lambda a, b: f(a, idx[:, None], b, _ONE), (x, u), tangents)[1]
    np.testing.assert_allclose(A(t), [6.0, 1.5])


def test_min_max_tie_numbers_are_jax_s(jax_x64):
    jnp = jax_x64.numpy
    x, idx, u = np.array([1.0, 0.0]), np.array([0, 0, 1]), np.array([1.0, 1.0, 0.0])
    g = jax_x64.grad(lambda a, b: jnp.asarray(a).at[idx].min(b).sum(), argnums=(0, 1))(x, u)
    np.testing.assert_allclose(np.asarray(g[0]), [1 / 3, 0.5])
    np.testing.assert_allclose(np.asarray(g[1]), [1 / 3, 1 / 3, 0.5])


def test_default_modes_and_negative_indices_are_jax_s():
    """lax (unlike NumPy indexing) never wraps negative indices: gather's default clamps them,
    the scatters' default drops them (JAX 0.10.2's numbers)."""
    x = np.array([10.0, 11.0, 12.0])
    got = lax.gather(x, np.array([[-1], [5], [1]]), _TAKE, (1,))
    np.testing.assert_array_equal(A(got), [10.0, 12.0, 11.0])
    got = lax.scatter_add(np.zeros(3), np.array([[-1], [5], [1]]), np.array([1.0, 2.0, 4.0]), _ONE)
    np.testing.assert_array_equal(A(got), [0.0, 4.0, 0.0])


def test_scatter_apply_under_jit_vmap_and_grad():
    idx = np.array([[0], [2], [2]])

    def f(v):
        return lax.scatter_apply(v, idx, fnp.sin, _ONE, update_shape=(3,))

    x = np.array([0.3, -0.2, 0.7])
    want = np.array([np.sin(0.3), -0.2, np.sin(np.sin(0.7))])
    np.testing.assert_allclose(A(f(x)), want, rtol=1e-14)
    np.testing.assert_allclose(A(fgrad.jit(f)(x)), want, rtol=1e-14)
    np.testing.assert_allclose(A(fgrad.vmap(f)(np.stack([x, 2 * x]))[1]), A(f(2 * x)), rtol=1e-14)
    check_grads(f, (x,), order=2)
    g = fgrad.jit(lambda i, v: lax.scatter_apply(v, i, fnp.sin, _ONE, update_shape=(3,)))(idx, x)
    np.testing.assert_allclose(A(g), want, rtol=1e-14)  # traced indices: one round per update


@settings(max_examples=max(15, _N), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cfg=gather_configs(max_rank=2), mode=st.sampled_from(["clip", "fill"]),
       axes=st.sampled_from([(0, 0, 0), (0, None, 0), (None, 0, None), (1, 0, None)]))
def test_random_configs_vmap_matches_loop_and_jit_matches_eager(cfg, mode, axes):
    xshape, idx, dn, sizes = cfg
    rng = np.random.default_rng(0)
    xax, iax, uax = axes
    if xax is not None and xax > len(xshape):
        xax = 0
    out_shape = _ref_gather(np.zeros(xshape), idx, dn, sizes).shape
    xs = rng.normal(size=(2,) + xshape)
    idxs = np.stack([idx, idx - 1])
    us = rng.normal(size=(2,) + out_shape)
    sdn = _to_scatter(dn)
    drop = "drop" if mode == "fill" else "clip"

    def gather(v, i):
        return lax.gather(v, i, dn, sizes, mode=mode, fill_value=-3.0)

    def scatter(v, i, u):
        return lax.scatter_add(v, i, u, sdn, mode=drop)

    xb = xs if xax is None else np.moveaxis(xs, 0, xax)
    args_g = (xb if xax is not None else xs[0], idxs if iax is not None else idxs[0])
    got = fgrad.vmap(gather, in_axes=(xax, iax))(*args_g)
    want = np.stack([A(gather(xs[b] if xax is not None else xs[0], idxs[b] if iax is not None else idxs[0]))
                     for b in range(2)])
    np.testing.assert_array_equal(A(got), want)
    args_s = args_g + (us if uax is not None else us[0],)
    got = fgrad.vmap(scatter, in_axes=(xax, iax, uax))(*args_s)
    want = np.stack([A(scatter(xs[b] if xax is not None else xs[0], idxs[b] if iax is not None else idxs[0],
                               us[b] if uax is not None else us[0])) for b in range(2)])
    np.testing.assert_allclose(A(got), want, rtol=1e-13, atol=1e-13)
    np.testing.assert_array_equal(A(fgrad.jit(gather)(xs[0], idx)), A(gather(xs[0], idx)))
    np.testing.assert_allclose(A(fgrad.jit(scatter)(xs[0], idx, us[0])), A(scatter(xs[0], idx, us[0])),
                               rtol=1e-14)


@settings(max_examples=max(12, _N), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cfg=gather_configs(max_rank=2),
       kind=st.sampled_from(["gather", "scatter", "scatter_add", "scatter_mul"]),
       mode=st.sampled_from(["clip", "fill"]))
def test_random_configs_derivatives(cfg, kind, mode):
    xshape, idx, dn, sizes = cfg
    rng = np.random.default_rng(7)
    x = rng.uniform(0.5, 1.5, size=xshape)
    if kind == "gather":
        check_grads(lambda v: lax.gather(v, idx, dn, sizes, mode=mode, fill_value=0.0), (x,), order=1)
        return
    u = rng.uniform(0.5, 1.5, size=_ref_gather(np.zeros(xshape), idx, dn, sizes).shape)
    f = getattr(lax, kind)
    check_grads(lambda v, w: f(v, idx, w, _to_scatter(dn), mode="drop" if mode == "fill" else "clip"),
                (x, u), order=1, atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("dn,idx,sizes", [
    # axis 1 indexed between two axes read whole (the index arrays stay in place)
    (GDN((0, 2), (1,), (1,)), np.array([[3], [0]]), (3, 1, 5)),
    # axes 0 and 2 indexed around an axis read whole (NumPy puts the index dimensions first)
    (GDN((1,), (0, 2), (0, 2)), np.array([[2, 4], [0, 1], [1, 0]]), (1, 4, 1)),
    (GDN((0,), (0, 2), (2, 0)), np.array([[2, 0], [4, 1]]), (1, 4, 1)),
])
def test_axes_read_whole_keep_jax_s_layout(dn, idx, sizes):
    """Axes a window covers whole are sliced, not indexed; the result is transposed back to
    the output layout (and the updates into the indexed layout for scatters)."""
    x = np.arange(60.0).reshape(3, 4, 5)
    want = _ref_gather(x, idx, dn, sizes)
    np.testing.assert_array_equal(A(lax.gather(x, idx, dn, sizes)), want)
    u = np.arange(1.0, 1.0 + want.size).reshape(want.shape)
    for kind, f in (("add", lax.scatter_add), ("set", lax.scatter)):
        sdn = _to_scatter(dn)
        np.testing.assert_array_equal(A(f(x, idx, u, sdn)), _ref_scatter(x, idx, u, sdn, kind))
    check_grads(lambda v, w: lax.scatter_add(v, idx, w, _to_scatter(dn)), (x, u), order=1)
