"""`resample`'s sparse-product path: a transposed map that is mostly padding (an embedding's
rows read by few bags, a few popular rows read by many) runs as a SciPy CSR product; it must
give what the padded gather-and-sum gives, on every axis, dtype and under vmap."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import fgrad
import fgrad.numpy as fnp
from fgrad.ops.resample import AxisMap, resample, _impl


def _bag_map(rng, rows, bags, per_bag):
    index = rng.integers(0, rows, (bags, per_bag))
    index[0, :] = 3  # one popular row: the transposed map's padded width grows
    weight = rng.uniform(0.5, 1.5, (bags, per_bag))
    return AxisMap(index, weight, rows)


def _padded(x, table, axis):
    """The padded gather-and-sum of `_impl`, computed here without the sparse path."""
    moved = np.moveaxis(x, axis, 0)
    out = np.zeros((table.out_size,) + moved.shape[1:], x.dtype)
    for j in range(table.out_size):
        for t in range(table.index.shape[1]):
            out[j] += table.weight[j, t].astype(x.dtype) * moved[table.index[j, t]]
    return np.moveaxis(out, 0, axis)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), axis=st.integers(0, 2),
       dtype=st.sampled_from([np.float32, np.float64, np.complex64, np.complex128]))
def test_sparse_path_equals_padded_sum(seed, axis, dtype):
    rng = np.random.default_rng(seed)
    fwd = _bag_map(rng, rows=40, bags=12, per_bag=5)
    t = fwd.transposed()
    assert t._segments is not None  # the popular row makes the padded layout mostly padding
    shape = [2, 3, 4]
    shape[axis] = fwd.out_size
    x = rng.standard_normal(shape).astype(dtype)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape).astype(dtype)
    got = _impl(np, x, table=t, axis=axis)
    assert got.dtype == x.dtype
    tol = 1e-5 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-12
    np.testing.assert_allclose(got, _padded(x, t, axis), rtol=tol, atol=tol)
    # rows no bag reads get exact zeros
    unread = np.setdiff1d(np.arange(40), fwd.index.ravel())
    assert np.all(np.take(got, unread, axis=axis) == 0)


def test_gradient_of_bag_mean_matches_finite_differences_and_vmap():
    rng = np.random.default_rng(0)
    fwd = _bag_map(rng, rows=30, bags=8, per_bag=4)
    w = fnp.asarray(rng.standard_normal((30, 3)))
    f = lambda w: fnp.sum(fnp.sin(resample(w, fwd, 0)))
    fgrad.test_util.check_grads(f, (w,), order=2, modes=["rev"])
    batched = fgrad.vmap(fgrad.grad(f))(fnp.stack([w, 2 * w]))
    for i, s in enumerate([1.0, 2.0]):
        np.testing.assert_allclose(np.asarray(batched[i]), np.asarray(fgrad.grad(f)(s * w)), rtol=1e-12)


def test_float16_keeps_the_padded_path():
    rng = np.random.default_rng(1)
    t = _bag_map(rng, rows=40, bags=12, per_bag=5).transposed()
    x = rng.standard_normal((12, 2)).astype(np.float16)
    got = _impl(np, x, table=t, axis=0)
    assert got.dtype == np.float16
    np.testing.assert_allclose(got.astype(np.float64), _padded(x.astype(np.float64), t, 0), atol=2e-2)


def test_embedding_bag_weight_grad_matches_torch():
    torch = pytest.importorskip("torch")
    import fgrad.torch as ftorch

    rng = np.random.default_rng(2)
    text = rng.integers(0, 500, 300)
    text[:40] = 7
    offsets = np.arange(0, 300, 15)
    w = rng.standard_normal((500, 8)).astype(np.float32)
    grads = []
    for lib in (torch, ftorch):
        wt = lib.tensor(w, requires_grad=True)
        out = lib.nn.functional.embedding_bag(lib.tensor(text), wt, lib.tensor(offsets), mode="mean")
        (out * lib.arange(8.0)).sum().backward()
        grads.append(np.asarray(wt.grad))
    np.testing.assert_allclose(grads[1], grads[0], rtol=1e-6, atol=1e-6)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), ones=st.booleans(), dtype=st.sampled_from([np.float32, np.float64]))
def test_csr_built_from_arrays_equals_scipys_coo_route(seed, ones, dtype):
    """`_csr_matrix` (session 24) builds the transposed map's matrix from its sorted arrays,
    merging duplicate entries (a row read twice by one bag) itself when every weight is 1:
    the product has the bits of SciPy's own COO construction."""
    sparse = pytest.importorskip("scipy.sparse")
    from fgrad.ops.resample import _csr_matrix

    rng = np.random.default_rng(seed)
    index = rng.integers(0, 6, (15, 4))  # few rows: duplicates within bags are frequent
    weight = np.ones((15, 4)) if ones else rng.uniform(0.5, 1.5, (15, 4))
    t = AxisMap(index, weight, 30).transposed()
    rows, cols, w = t._segments["coo"]
    shape = (t.out_size, t.in_size)
    x = rng.standard_normal((15, 3)).astype(dtype)
    got = _csr_matrix(sparse, rows, cols, w.astype(dtype), shape) @ x
    want = sparse.csr_matrix((w.astype(dtype), (rows, cols)), shape=shape) @ x
    np.testing.assert_array_equal(np.asarray(got).view(np.uint8), np.asarray(want).view(np.uint8))
