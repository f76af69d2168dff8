"""``fgrad.experimental.sparse`` against ``jax.experimental.sparse`` (x64): every program in
``jax_sparse_cases.py`` gives JAX's buffers, dense values, dtypes and derivatives -- from
stored numbers (``tests/stored/jax_sparse.json``) and live when JAX is installed; then
gradients against finite differences, vmap against loops, jit against eager, hypothesis
round trips, and the errors JAX raises."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import fgrad
import fgrad.numpy as fnp
from fgrad.experimental import sparse
from fgrad.test_util import check_grads

from jax_sparse_cases import CASES, M, STORED, V, X, namespace, run

STORED_NUMBERS = json.loads(STORED.read_text())
FGRAD = namespace("fgrad")


def assert_same(got, want, path="", rtol=1e-12, atol=1e-12):
    """Results equal: same structure, sparse formats, dtypes, shapes and values (integer
    buffers exactly)."""
    if isinstance(want, dict) and "values" in want and "dtype" in want:
        assert isinstance(got, dict) and "values" in got, f"{path}: got {got!r}, want an array"
        assert got["dtype"] == want["dtype"], f"{path}: dtype {got['dtype']} != {want['dtype']}"
        assert got["shape"] == want["shape"], f"{path}: shape {got['shape']} != {want['shape']}"
        np.testing.assert_allclose(
            np.asarray(got["values"], dtype=float),
            np.asarray(want["values"], dtype=float),
            rtol=rtol,
            atol=atol,
            err_msg=path,
        )
    elif isinstance(want, dict):
        assert isinstance(got, dict) and set(got) == set(want), (
            f"{path}: keys {sorted(got)} != {sorted(want)}"
        )
        for k in want:
            assert_same(got[k], want[k], f"{path}.{k}", rtol, atol)
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{path}: {got!r} != {want!r}"
        for i, (g, w) in enumerate(zip(got, want)):
            assert_same(g, w, f"{path}[{i}]", rtol, atol)
    else:
        assert got == want, f"{path}: {got!r} != {want!r}"


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_stored_jax(name):
    assert_same(run(FGRAD, name), STORED_NUMBERS[name], name)


# live JAX compiles each program (seconds per case): a sample in the default suite, every case
# with ``-m slow`` (the stored numbers, checked above for every case, are JAX's)
LIVE_SAMPLE = {"fromdense_layouts", "matmul", "gradients"}


@pytest.mark.parametrize(
    "name", [n if n in LIVE_SAMPLE else pytest.param(n, marks=pytest.mark.slow) for n in sorted(CASES)]
)
def test_matches_live_jax(name):
    pytest.importorskip("jax")
    want = run(namespace("jax"), name)
    assert_same(run(FGRAD, name), want, name)
    assert_same(STORED_NUMBERS[name], want, f"stored {name}")  # the stored numbers are current


# ---- derivatives against finite differences --------------------------------------------------

S = sparse.BCOO.fromdense(fnp.asarray(M))
SB = sparse.BCOO.fromdense(fnp.asarray(M), n_batch=1)


@pytest.mark.parametrize(
    "mat", [S, SB, sparse.BCOO.fromdense(fnp.asarray(M), n_dense=1)], ids=["n_batch0", "n_batch1", "n_dense1"]
)
def test_dot_general_grads_finite_differences(mat):
    def f(data, x):
        return fnp.asarray([1.0, -2.0, 0.5]) @ sparse.BCOO((data, mat.indices), shape=mat.shape) * x

    check_grads(f, (mat.data, fnp.asarray(np.cos(np.arange(4.0)))), order=2, modes=("fwd", "rev"))


def test_todense_fromdense_extract_grads_finite_differences():
    check_grads(lambda d: sparse.BCOO((d, S.indices), shape=S.shape).todense(), (S.data,), order=2)
    pattern = fnp.asarray(M != 0)  # the nonzero pattern must not move under the finite differences
    check_grads(lambda a: sparse.BCOO.fromdense(a * pattern, nse=5).data, (fnp.asarray(M) + 0.5,), order=2)
    check_grads(lambda a: sparse.bcoo_extract(S, a).data, (fnp.asarray(M) + 1.0,), order=2)
    check_grads(
        lambda d: sparse.bcoo_sum_duplicates(sparse.BCOO((d, S.indices[::-1]), shape=S.shape), nse=4).data,
        (S.data,),
        order=2,
    )


def test_sampled_and_multiply_grads_finite_differences():
    a, b = fnp.asarray(X.T), fnp.asarray(X)
    idx = sparse.eye(3).indices
    check_grads(
        lambda a, b: sparse.bcoo_dot_general_sampled(a, b, idx, dimension_numbers=(((1,), (0,)), ((), ()))),
        (a, b),
        order=2,
    )
    check_grads(
        lambda d, v: sparse.bcoo_multiply_dense(sparse.BCOO((d, S.indices), shape=S.shape), v),
        (S.data, fnp.asarray(V)),
        order=2,
    )
    check_grads(
        lambda d: sparse.sparsify(lambda m: fnp.sin(m) * m)(sparse.BCOO((d, S.indices), shape=S.shape)).data,
        (S.data,),
        order=2,
    )


def test_sparse_grad_is_the_dense_gradient_at_the_indices():
    def loss(m):
        return fnp.sum(fnp.tanh(m @ fnp.asarray(X)))

    g = sparse.grad(loss)(S)
    dense_grad = fgrad.grad(lambda a: fnp.sum(fnp.tanh(a @ fnp.asarray(X))))(fnp.asarray(M))
    rows, cols = np.asarray(S.indices).T
    np.testing.assert_allclose(np.asarray(g.data), np.asarray(dense_grad)[rows, cols], rtol=1e-13)
    assert isinstance(g, sparse.BCOO) and np.array_equal(np.asarray(g.indices), np.asarray(S.indices))


# ---- vmap against loops, jit against eager ---------------------------------------------------


def test_vmap_matches_loop():
    ys = fnp.asarray(np.sin(np.arange(20.0)).reshape(5, 4))
    batched = fgrad.vmap(lambda y: S @ y)(ys)
    for i in range(5):
        np.testing.assert_allclose(np.asarray(batched[i]), np.asarray(S @ ys[i]), rtol=1e-14)
    # mapping over a BCOO's batch dimension: each element is the unbatched array
    mats = fgrad.vmap(lambda a: (a * 2.0).todense())(SB)
    for i in range(3):
        row = sparse.BCOO((SB.data[i], SB.indices[i]), shape=(4,))
        np.testing.assert_array_equal(np.asarray(mats[i]), np.asarray((row * 2.0).todense()))
    datas = fnp.asarray(np.arange(12.0).reshape(3, 4))
    out = fgrad.vmap(lambda d: sparse.BCOO((d, S.indices), shape=S.shape) @ fnp.asarray(V))(datas)
    for i in range(3):
        np.testing.assert_allclose(
            np.asarray(out[i]), np.asarray(sparse.BCOO((datas[i], S.indices), shape=S.shape) @ fnp.asarray(V))
        )


def test_vmap_returns_bcoo_with_a_batch_dimension():
    out = fgrad.vmap(lambda a: sparse.BCOO.fromdense(a, nse=2))(fnp.asarray(M))
    assert isinstance(out, sparse.BCOO) and out.shape == (3, 4) and out.n_batch == 1
    np.testing.assert_array_equal(np.asarray(out.todense()), M)


@pytest.mark.parametrize(
    "fn",
    [
        lambda a, x: a @ x,
        lambda a, x: (a.T @ a) @ x[:, 0],
        lambda a, x: (a * 3.0 - a).todense(),
        lambda a, x: sparse.bcoo_sum_duplicates(a + a, nse=4).data,
        lambda a, x: a.sum(0).todense(),
        lambda a, x: sparse.sparsify(lambda m, y: fnp.tanh(m @ y))(a, x),
        lambda a, x: sparse.bcoo_update_layout(a, n_batch=1, on_inefficient=None).todense(),
    ],
    ids=["matmul", "spsp", "elementwise", "sum_duplicates", "reduce", "sparsify", "update_layout"],
)
def test_jit_matches_eager(fn):
    x = fnp.asarray(X)
    eager = fn(S, x)
    jitted = fgrad.jit(fn)(S, x)
    np.testing.assert_allclose(np.asarray(jitted), np.asarray(eager), rtol=1e-14, atol=1e-14)


def test_grad_of_jit_of_sparse_program():
    def loss(d, x):
        return fnp.sum(fnp.sin(sparse.BCOO((d, S.indices), shape=S.shape) @ x))

    want = fgrad.grad(loss, argnums=(0, 1))(S.data, fnp.asarray(X))
    got = fgrad.jit(fgrad.grad(loss, argnums=(0, 1)))(S.data, fnp.asarray(X))
    for g, w in zip(got, want):
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-14)


# ---- hypothesis: round trips and products against dense ---------------------------------------


@st.composite
def sparse_case(draw):
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=3)))
    values = np.asarray(
        draw(
            st.lists(
                st.sampled_from([0.0, 0.0, 1.5, -2.0, 3.25]),
                min_size=int(np.prod(shape)),
                max_size=int(np.prod(shape)),
            )
        )
    ).reshape(shape)
    n_batch = draw(st.integers(0, len(shape)))
    n_dense = draw(st.integers(0, len(shape) - n_batch))
    return values, n_batch, n_dense


@settings(max_examples=25, deadline=None)
@given(sparse_case())
def test_roundtrip_and_layout_changes(c):
    values, n_batch, n_dense = c
    s = sparse.BCOO.fromdense(fnp.asarray(values), n_batch=n_batch, n_dense=n_dense)
    assert (s.n_batch, s.n_dense) == (n_batch, n_dense)
    np.testing.assert_array_equal(np.asarray(s.todense()), values)
    np.testing.assert_array_equal(np.asarray(sparse.bcoo_sum_duplicates(s).todense()), values)
    np.testing.assert_array_equal(np.asarray(s.sort_indices().todense()), values)
    flat = sparse.bcoo_update_layout(s, n_batch=0, n_dense=0)
    np.testing.assert_array_equal(np.asarray(flat.todense()), values)
    perm = (
        tuple(range(n_batch))
        + tuple(reversed(range(n_batch, values.ndim - n_dense)))
        + tuple(range(values.ndim - n_dense, values.ndim))
    )
    np.testing.assert_array_equal(np.asarray(s.transpose(perm).todense()), values.transpose(perm))
    axes = tuple(range(0, values.ndim, 2))
    reduced = sparse.bcoo_reduce_sum(s, axes=axes)
    np.testing.assert_allclose(np.asarray(sparse.todense(reduced)), values.sum(axes))


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.integers(1, 4), st.integers(0, 2**16))
def test_products_match_dense(m, k, n, seed):
    rng = np.random.default_rng(seed)
    a = rng.normal(size=(m, k)) * (rng.random((m, k)) < 0.4)
    b = rng.normal(size=(k, n))
    s = sparse.BCOO.fromdense(fnp.asarray(a))
    np.testing.assert_allclose(np.asarray(s @ fnp.asarray(b)), a @ b, atol=1e-12)
    np.testing.assert_allclose(np.asarray(fnp.asarray(b.T) @ s.T), b.T @ a.T, atol=1e-12)
    np.testing.assert_allclose(np.asarray((s.T @ s).todense()), a.T @ a, atol=1e-12)
    np.testing.assert_allclose(np.asarray((s * s).todense()), a * a, atol=1e-12)
    np.testing.assert_allclose(
        np.asarray(sparse.BCSR.fromdense(fnp.asarray(a)) @ fnp.asarray(b)), a @ b, atol=1e-12
    )


@st.composite
def basic_index(draw):
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=3)))
    index = []
    for n in shape[: draw(st.integers(0, len(shape)))]:
        if draw(st.booleans()):
            index.append(draw(st.integers(-n, n - 1)))
        else:
            index.append(
                slice(
                    draw(st.none() | st.integers(-n - 1, n + 1)),
                    draw(st.none() | st.integers(-n - 1, n + 1)),
                    draw(st.sampled_from([None, 1, 2, -1, -2])),
                )
            )
    n_batch = draw(st.integers(0, len(shape)))
    return shape, tuple(index), n_batch, draw(st.integers(0, len(shape) - n_batch))


@settings(max_examples=30, deadline=None)
@given(basic_index(), st.integers(0, 2**16))
def test_indexing_matches_numpy(case, seed):
    shape, index, n_batch, n_dense = case
    rng = np.random.default_rng(seed)
    values = rng.normal(size=shape) * (rng.random(shape) < 0.5)
    s = sparse.BCOO.fromdense(fnp.asarray(values), n_batch=n_batch, n_dense=n_dense)
    np.testing.assert_array_equal(np.asarray(sparse.todense(s[index])), values[index])
    traced = fgrad.jit(sparse.sparsify(lambda x: x[index] * 2.0))(s)
    np.testing.assert_array_equal(np.asarray(sparse.todense(traced)), values[index] * 2.0)


# ---- errors (JAX's types) ---------------------------------------------------------------------


def test_errors():
    with pytest.raises(fgrad.errors.ConcretizationTypeError, match="nse"):
        fgrad.jit(sparse.BCOO.fromdense)(fnp.asarray(M))
    with pytest.raises(ValueError, match="nse must be specified"):
        fgrad.jit(lambda a: a.sum_duplicates())(S)
    with pytest.raises(ValueError, match="Invalid data.shape"):
        sparse.BCOO((S.data, S.indices), shape=(2, 2, 2))
    with pytest.raises(NotImplementedError, match="Addition between a sparse array"):
        S + 1.0
    with pytest.raises(NotImplementedError, match="sparse rule for gt"):
        _ = S > 0
    with pytest.raises(NotImplementedError, match="sparse rule for exp"):
        sparse.sparsify(fnp.exp)(S)
    with pytest.raises(NotImplementedError, match="contracting over dense"):
        sparse.BCOO.fromdense(fnp.asarray(M), n_dense=1) @ fnp.asarray(V)
    with pytest.raises(NotImplementedError, match="batch axes with non-batch axes"):
        _ = SB.T
    with pytest.raises(TypeError, match="isn't a permutation"):
        sparse.bcoo_transpose(S, permutation=(0, 0))
    with pytest.raises(TypeError, match="size"):
        S @ fnp.ones(3)
    with pytest.raises(sparse.SparseEfficiencyError, match="increasing n_batch"):
        S.update_layout(n_batch=1)
    with pytest.warns(sparse.SparseEfficiencyWarning):
        S.update_layout(n_dense=1, on_inefficient="warn")
    with pytest.raises(TypeError, match="grad requires real"):
        fgrad.grad(lambda a: a.todense().sum())(S)  # indices are integers: use sparse.grad
    with pytest.raises(ValueError, match="expected to be between"):
        sparse.random_bcoo(fgrad.random.PRNGKey(0), (2, 2), nse=5)


def test_pytree_and_repr():
    leaves, tree = fgrad.tree_util.tree_flatten(S)
    assert len(leaves) == 2 and leaves[1].dtype == np.int32
    again = fgrad.tree_util.tree_unflatten(tree, leaves)
    assert isinstance(again, sparse.BCOO) and again.shape == S.shape
    assert repr(SB) == "BCOO(float64[3, 4], nse=2, n_batch=1)"
    assert repr(sparse.BCSR.fromdense(fnp.asarray(M))) == "BCSR(float64[3, 4], nse=4)"
    assert isinstance(fgrad.tree_util.tree_map(lambda x: x, S), sparse.BCOO)
    assert (S.ndim, S.size, S.dtype, S.nse, S.n_sparse) == (2, 12, np.float64, 4, 2)


# ---- a JAX program, unchanged, through the jax alias -------------------------------------------

PROGRAMS = pathlib.Path(__file__).parent / "jax_sparse_programs"


def _run_program(path: pathlib.Path, alias: bool) -> str:
    root = pathlib.Path(__file__).resolve().parents[1]
    env = {
        **os.environ,
        "PYTHONPATH": str(root) + os.pathsep + os.environ.get("PYTHONPATH", ""),
        "JAX_PLATFORMS": "cpu",
        "FGRAD_BACKEND": "cpu",
    }
    args = ["-m", "fgrad.jax_alias", str(path)] if alias else [str(path)]
    done = subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, env=env, timeout=300, cwd=root
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_graph_convolution_program_prints_jax_output():
    got = _run_program(PROGRAMS / "graph_convolution.py", alias=True)
    assert got == (PROGRAMS / "graph_convolution.expected").read_text()


@pytest.mark.slow
def test_graph_convolution_program_stored_output_is_live_jax():
    pytest.importorskip("jax")
    got = _run_program(PROGRAMS / "graph_convolution.py", alias=False)
    assert got == (PROGRAMS / "graph_convolution.expected").read_text()
