"""The host scatter (`fgrad/ops/host_scatter.py`): ``ufunc.at`` for row scatters, faster and
with the same result bits as NumPy's ``ufunc.at``.

Witnesses: NumPy's ``ufunc.at`` itself, compared byte for byte (floats included: the fast
strategies sum each target's updates in NumPy's order), under hypothesis over layouts,
dtypes, duplicate-heavy indices and operands (zero, ``-0.0``, random); a spy showing which
strategy ran (so the comparisons are not of ``ufunc.at`` with itself); and the faces that
end in it (``.at[].add``, ``segment_sum``, the gather transpose, sparse products, the shim's
``index_add_`` and embedding gradient) against NumPy references and JAX/PyTorch live.
"""

from __future__ import annotations

import pathlib
import subprocess
import sys
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fgrad
import fgrad.numpy as fnp
from fgrad.ops import host_scatter, segment_sum
from fgrad.ops.host_scatter import host_ufunc_at, row_scatter_layout
from fgrad.testing.device_numerics import rounds_like_numpy

UFUNCS = {"add": np.add, "multiply": np.multiply, "minimum": np.minimum, "maximum": np.maximum}
DTYPES = ["float64", "float32", "float16", "complex128", "complex64", "int64", "int32", "int8",
          "uint8", "uint64", "bool"]


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def assert_face_result(got: np.ndarray, want: np.ndarray) -> None:
    """A face's scatter result (``.at[].add``, ``segment_sum``, sparse products) against NumPy's
    ``ufunc.at``: the same bits when the default device is the host (the host scatter); on a
    GPU (cupy: atomic adds in no fixed order, as XLA's) equal up to the summation order."""
    if rounds_like_numpy() or got.dtype.kind not in "fc":
        assert same_bits(got, want)
        return
    assert got.shape == want.shape and got.dtype == want.dtype
    tol = 1e-5 if got.dtype.itemsize <= 4 else 1e-12
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * float(np.abs(want).max()))


def _values(rng, shape, dtype, kind: str):
    dt = np.dtype(dtype)
    if kind == "zero":
        return np.zeros(shape, dt)
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dt.kind in "iu":
        info = np.iinfo(dt)  # the full range: sums overflow and wrap
        return rng.integers(info.min, info.max, shape, dtype=dt, endpoint=True)
    v = rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 4, shape)
    if kind == "signed-zeros":
        v[rng.random(shape) < 0.3] = -0.0
    if kind == "specials":
        v.flat[:: 7] = np.inf
        v.flat[3:: 11] = np.nan
    if dt.kind == "c":
        v = v + 1j * rng.standard_normal(shape)
    return v.astype(dt)


@st.composite
def row_scatters(draw):
    """``(out, idx, u)``: full slices, then index arrays (and integers), then full slices."""
    q = draw(st.integers(0, 1))
    k = draw(st.integers(1, 2))
    t = draw(st.integers(0, 2))
    lead = draw(st.lists(st.integers(1, 3), min_size=q, max_size=q))
    axes = draw(st.lists(st.integers(1, 6), min_size=k, max_size=k))
    rest = draw(st.lists(st.integers(1, 4), min_size=t, max_size=t))
    batch = tuple(draw(st.lists(st.integers(0, 9), min_size=1, max_size=2)))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    idx = []
    for j, n in enumerate(axes):
        if j and draw(st.booleans()):
            idx.append(int(rng.integers(0, n)))  # an integer among the arrays
            continue
        span = draw(st.sampled_from([1, 2, n]))  # duplicate-heavy: few distinct targets
        dt = draw(st.sampled_from([np.int64, np.int32, np.uint8]))
        idx.append(rng.integers(0, min(span, n), batch).astype(dt))
    full = [slice(None)] * draw(st.integers(0, t))
    index = (slice(None),) * q + tuple(idx) + tuple(full)
    shape = tuple(lead) + tuple(axes) + tuple(rest)
    return shape, index, rng


@pytest.fixture
def every_size():
    """The fast strategies for scatters of any size (their thresholds only skip fixed costs)."""
    with mock.patch.object(host_scatter, "_MIN_ELEMENTS", 0):
        yield


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=row_scatters(), dtype=st.sampled_from(DTYPES), ufunc=st.sampled_from(sorted(UFUNCS)),
       operand=st.sampled_from(["zero", "random", "signed-zeros", "specials"]))
def test_same_bits_as_ufunc_at(every_size, case, dtype, ufunc, operand):
    shape, index, rng = case
    uf = UFUNCS[ufunc]
    if dtype == "bool" and ufunc != "add":
        dtype = "int8"
    with np.errstate(all="ignore"):  # float16 overflows, inf * 0: the same in both
        out = _values(rng, shape, dtype, operand)
        u = _values(rng, np.zeros(shape)[index].shape, dtype,
                    "random" if operand == "zero" else operand)
        want = out.copy()
        uf.at(want, index, u)
        host_ufunc_at(uf, out, index, u)
    assert same_bits(out, want)


def _spy():
    return mock.patch.object(host_scatter, "_flat_ufunc_at", wraps=host_scatter._flat_ufunc_at)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "int64", "int8"])
@pytest.mark.parametrize("operand", ["zero", "random"])
def test_row_add_runs_as_a_sparse_product(dtype, operand):
    """A row scatter-add of floats, complex or integers is the CSC product (not a ufunc.at),
    onto a zero operand and onto any other one, with NumPy's bits."""
    rng = np.random.default_rng(0)
    out = _values(rng, (50, 64), dtype, operand)
    rows = rng.integers(0, 50, 800)
    u = _values(rng, (800, 64), dtype, "random")
    want = out.copy()
    np.add.at(want, rows, u)
    with _spy() as flat:
        host_ufunc_at(np.add, out, (rows,), u)
    assert flat.call_count == 0
    assert same_bits(out, want)


@pytest.mark.parametrize("ufunc", ["multiply", "maximum", "minimum"])
def test_other_combiners_run_flat(ufunc):
    rng = np.random.default_rng(1)
    out = _values(rng, (30, 40), "float32", "random")
    rows = rng.integers(0, 30, 200)
    u = _values(rng, (200, 40), "float32", "random")
    want = out.copy()
    UFUNCS[ufunc].at(want, rows, u)
    with _spy() as flat:
        host_ufunc_at(UFUNCS[ufunc], out, (rows,), u)
    assert flat.call_count == 1
    assert same_bits(out, want)


def test_negative_zero_operand_keeps_numpys_sign():
    """``-0.0 + -0.0`` is ``-0.0`` in NumPy's sequential sum: a ``-0.0`` operand row with only
    ``-0.0`` updates stays ``-0.0`` (the sparse product runs in place, from the operand)."""
    out = np.ones((40, 64))
    out[3] = -0.0
    rows = np.repeat(np.arange(40), 2)
    u = np.ones((80, 64))
    u[6:8] = -0.0
    want = out.copy()
    np.add.at(want, rows, u)
    with _spy() as flat:
        host_ufunc_at(np.add, out, (rows,), u)
    assert flat.call_count == 0  # the in-place product, no fallback
    assert same_bits(out, want) and np.signbit(out[3]).all()


@pytest.mark.parametrize("dtype", ["float32", "complex64", "uint8", "int16", "float16"])
def test_product_takes_views_and_broadcasts(every_size, dtype):
    """The in-place product reads strided index arrays, strided and broadcast updates and a
    batch of leading rows (``out[:, i] += u``) with NumPy's bits; float16 (no product)
    stays on the flat ``ufunc.at``."""
    rng = np.random.default_rng(5)
    out = _values(rng, (3, 60, 8), dtype, "random")
    ids = rng.integers(0, 60, 4000)[::2]  # a strided view
    with np.errstate(all="ignore"):
        u = _values(rng, (3, 4000, 16), dtype, "specials" if dtype[0] in "fc" else "random")
    u = u[:, ::2, ::2]  # strided updates of shape (3, 2000, 8)
    for upd in (u, u[:1, :1]):  # and broadcast ones
        want = out.copy()
        np.add.at(want, (slice(None), ids), upd)
        got = out.copy()
        with _spy() as flat:
            host_ufunc_at(np.add, got, (slice(None), ids), upd)
        assert flat.call_count == (dtype == "float16")
        assert same_bits(got, want)


@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_updates_overlapping_the_operand_as_numpy(every_size, dtype):
    """Updates that are a view of the operand itself (``np.add.at(x, i, x[::-1])``): the
    in-place product would read rows it has already added to, so NumPy's ``ufunc.at``
    runs, with its result."""
    rng = np.random.default_rng(8)
    base = _values(rng, (64, 16), dtype, "random")
    rows = rng.integers(0, 64, 64)
    for view in (lambda a: a, lambda a: a[::-1], lambda a: a[:, ::-1]):
        want, got = base.copy(), base.copy()
        np.add.at(want, rows, view(want))
        host_ufunc_at(np.add, got, (rows,), view(got))
        assert same_bits(got, want)


def test_out_of_bounds_and_negative_indices_as_numpy():
    out = np.zeros((40, 64))
    u = np.ones((3000, 64))
    neg = np.random.default_rng(2).integers(-40, 40, 3000)
    want = out.copy()
    np.add.at(want, neg, u)  # NumPy wraps negative indices once
    host_ufunc_at(np.add, out, (neg,), u)
    assert same_bits(out, want)
    with pytest.raises(IndexError):
        host_ufunc_at(np.add, out, (np.full(3000, 40),), u)


def test_layouts():
    a = np.array([0, 1])
    assert row_scatter_layout((3, 4), (a,))[:2] == (0, 1)
    assert row_scatter_layout((3, 4, 5), (slice(None), a, 2))[:2] == (1, 2)
    assert row_scatter_layout((3, 4, 5), (a, slice(None), a)) is None  # separated: dims go first
    assert row_scatter_layout((3, 4), (None, a)) is None
    assert row_scatter_layout((3, 4), (1, slice(None))) is None  # no array: basic indexing


# ---------------------------------------------------------------------------------------
# the faces that end in it


def _ref_add(shape, dtype, rows, u):
    out = np.zeros(shape, dtype)
    np.add.at(out, rows, u)
    return out


def test_at_add_drop_and_clip_match_numpy_reference():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((100, 32)).astype(np.float32)
    idx = rng.integers(-130, 130, 5000)
    u = rng.standard_normal((5000, 32)).astype(np.float32)
    got = np.asarray(fnp.asarray(x).at[idx].add(u))  # mode drop: out of range skipped
    keep = (idx >= -100) & (idx < 100)
    want = x.copy()
    np.add.at(want, idx[keep] % 100, u[keep])
    assert_face_result(got, want)
    got = np.asarray(fnp.asarray(x).at[idx].add(u, mode="clip"))
    want = x.copy()
    np.add.at(want, np.clip(np.where(idx < 0, idx + 100, idx), 0, 99), u)
    assert_face_result(got, want)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
def test_segment_sum_and_gather_transpose_bits(dtype):
    rng = np.random.default_rng(4)
    data = _values(rng, (3000, 16), dtype, "random")
    ids = rng.integers(0, 50, 3000)
    want = _ref_add((50, 16), dtype, ids, data)
    assert_face_result(np.asarray(segment_sum(fnp.asarray(data), fnp.asarray(ids), num_segments=50)), want)
    jitted = fgrad.jit(lambda d, i: segment_sum(d, i, num_segments=50))
    assert_face_result(np.asarray(jitted(data, ids)), want)
    if dtype != "int32":
        ct = fgrad.vjp(lambda x: x[ids], fnp.zeros((50, 16), dtype))[1](fnp.asarray(data))[0]
        assert_face_result(np.asarray(ct), want)


def test_segment_sum_matches_jax_live():
    jax = pytest.importorskip("jax")
    rng = np.random.default_rng(5)
    data = rng.standard_normal((2000, 8)).astype(np.float32)
    ids = rng.integers(0, 30, 2000).astype(np.int32)
    want = np.asarray(jax.ops.segment_sum(data, ids, num_segments=30))
    got = np.asarray(segment_sum(fnp.asarray(data), fnp.asarray(ids), num_segments=30))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)  # XLA's own summation order


def test_sparse_product_matches_dense():
    from fgrad.experimental import sparse

    rng = np.random.default_rng(6)
    m = np.where(rng.random((200, 300)) < 0.05, rng.standard_normal((200, 300)), 0.0)
    x = rng.standard_normal((300, 24))
    s = sparse.BCOO.fromdense(fnp.asarray(m))
    rows, cols = np.nonzero(m)
    want = _ref_add((200, 24), np.float64, rows, m[rows, cols][:, None] * x[cols])
    assert_face_result(np.asarray(s @ fnp.asarray(x)), want)
    np.testing.assert_allclose(np.asarray(fgrad.jit(lambda s, x: s @ x)(s, fnp.asarray(x))), m @ x,
                               rtol=1e-12, atol=1e-12)


def test_shim_index_add_and_embedding_backward_match_torch():
    import fgrad.torch as ft

    rng = np.random.default_rng(7)
    base = rng.standard_normal((64, 32)).astype(np.float32)
    src = rng.standard_normal((500, 32)).astype(np.float32)
    idx = rng.integers(0, 64, 500)
    want = base.copy()
    np.add.at(want, idx, src)
    got = ft.tensor(base).index_add_(0, ft.tensor(idx), ft.tensor(src)).numpy()
    assert same_bits(got, want)  # a nonzero operand: NumPy's order, operand first
    w = ft.tensor(base, requires_grad=True)
    g = rng.standard_normal((500, 32)).astype(np.float32)
    ft.nn.functional.embedding(ft.tensor(idx), w).backward(ft.tensor(g))
    assert same_bits(w.grad.numpy(), _ref_add((64, 32), np.float32, idx, g))  # the shim: CPU
    torch = pytest.importorskip("torch")
    tw = torch.tensor(base, requires_grad=True)
    torch.nn.functional.embedding(torch.tensor(idx), tw).backward(torch.tensor(g))
    np.testing.assert_allclose(w.grad.numpy(), tw.grad.numpy(), rtol=1e-5, atol=1e-5)
    tb = torch.tensor(base).index_add_(0, torch.tensor(idx), torch.tensor(src))
    np.testing.assert_allclose(got, tb.numpy(), rtol=1e-5, atol=1e-5)


def test_benchmark_cases_agree_with_numpy():
    """The scatter benchmark cases (`benchmarks/cases/scatter.py`) compute what their numpy
    column (``np.add.at``) does.  In a subprocess: importing `benchmarks` pins threads/CPUs."""
    code = """
import numpy as np
from benchmarks.cases import scatter as cases
for case in (cases.SparseDenseProduct, cases.SegmentSum, cases.EmbeddingGrad):
    c = case()
    c.setup()
    np.testing.assert_allclose(c.fgrad()(), c.numpy()(), rtol=1e-5, atol=1e-5)
print("ok")
"""
    root = pathlib.Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


# -- linear positions (NumPy's ravel_multi_index without its per-element checks) -------------

@settings(max_examples=40, deadline=None)
@given(data=st.data(), shape=st.lists(st.integers(1, 5), min_size=1, max_size=4))
def test_linear_positions_equal_ravel_multi_index(data, shape):
    from fgrad.ops.host_scatter import linear_positions
    k = len(shape)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    arrays = tuple(rng.integers(0, n, (3, 1) if i % 2 else (4,)).reshape((3, 1) if i % 2 else (1, 4))
                   for i, n in enumerate(shape))
    want = np.ravel_multi_index(np.broadcast_arrays(*arrays), tuple(shape))
    got = linear_positions(arrays, tuple(shape))
    np.testing.assert_array_equal(got, want)
    assert got.shape == want.shape
    bad = list(arrays)
    j = data.draw(st.integers(0, k - 1))
    bad[j] = bad[j].copy()
    bad[j].flat[0] = data.draw(st.sampled_from([-1, shape[j]]))
    assert linear_positions(tuple(bad), tuple(shape)) is None


@pytest.mark.parametrize("dim", [0, 1, 2])
def test_gather_along_each_dim_equals_fancy_indexing_and_torch(dim):
    """The one-take path of the gather (an index array on every axis)."""
    import fgrad.torch as ftorch
    rng = np.random.default_rng(dim)
    x = rng.standard_normal((5, 6, 7)).astype(np.float32)
    ishape = [4, 5, 6]
    ishape[dim] = 9
    j = rng.integers(0, x.shape[dim], ishape)
    grids = list(np.indices(ishape, sparse=True))
    grids[dim] = j
    want = x[tuple(grids)]
    got = ftorch.gather(ftorch.tensor(x), dim, ftorch.tensor(j)).numpy()
    np.testing.assert_array_equal(got, want)
    wide = ftorch.tensor(np.repeat(x, 2, axis=2))[..., ::2]  # a strided view: fancy indexing
    assert not wide._buf.flags.c_contiguous
    np.testing.assert_array_equal(ftorch.gather(wide, dim, ftorch.tensor(j)).numpy(), want)
    torch = pytest.importorskip("torch")
    np.testing.assert_array_equal(got, torch.gather(torch.tensor(x), dim, torch.tensor(j)).numpy())
