"""`jacfwd`/`jacrev`/`hessian` with ``chunk_size=`` and ``memory_budget=``
(`fgrad/transforms/chunking.py`): the same Jacobian for every chunk size (and equal to
finite differences), a chunk's working memory within the budget where batching every row
would not fit (measured with tracemalloc on the NumPy backend), clear errors for bad
values, and composition with jit, vmap and nesting."""

from __future__ import annotations

import tracemalloc
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fgrad
import fgrad.numpy as fnp
from fgrad.transforms.chunking import parse_memory_budget

W = np.linspace(0.5, 2.0, 5)


def f(x, w):
    return fnp.tanh(fnp.outer(x, w)) @ w + x ** 2


def f_tree(x, w):
    return {"a": fnp.sin(x) * w.sum(), "b": (x[:, None] * w[None, :]) ** 2}


def finite_difference_jacobian(fun, x, eps=1e-6):
    x = np.asarray(x, dtype=np.float64)
    cols = []
    for i in range(x.size):
        e = np.zeros_like(x)
        e.flat[i] = eps
        cols.append((np.asarray(fun(x + e)) - np.asarray(fun(x - e))).ravel() / (2 * eps))
    return np.stack(cols, axis=-1)


X = np.linspace(-1.0, 1.0, 7)
CHUNKS = [1, 3, None, 100]


@pytest.mark.parametrize("jac", [fgrad.jacrev, fgrad.jacfwd])
@pytest.mark.parametrize("chunk", CHUNKS)
def test_every_chunk_size_gives_the_same_jacobian(jac, chunk):
    x, w = fnp.asarray(X), fnp.asarray(W)
    full = jac(f)(x, w)
    got = jac(f, chunk_size=chunk)(x, w)
    np.testing.assert_allclose(got, full, rtol=1e-13, atol=1e-15)
    fd = finite_difference_jacobian(lambda v: f(fnp.asarray(v), w), X)
    np.testing.assert_allclose(got, fd, rtol=1e-6, atol=1e-8)
    # several arguments and a pytree output: every leaf chunked the same way
    got2 = jac(f_tree, argnums=(0, 1), chunk_size=chunk)(x, w)
    ref2 = jac(f_tree, argnums=(0, 1))(x, w)
    for a, b in zip(fgrad.tree_leaves(got2), fgrad.tree_leaves(ref2)):
        np.testing.assert_allclose(a, b, rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("jac", [fgrad.jacrev, fgrad.jacfwd])
@pytest.mark.parametrize("budget", [2000, "10kB", "1MiB", 10 ** 9])
def test_memory_budget_gives_the_same_jacobian(jac, budget):
    x, w = fnp.asarray(X), fnp.asarray(W)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # 2000 bytes is below one row's bound
        got = jac(f, memory_budget=budget)(x, w)
    np.testing.assert_allclose(got, jac(f)(x, w), rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("jac", [fgrad.jacrev, fgrad.jacfwd])
def test_has_aux_is_returned_once(jac):
    def g(x):
        return fnp.sin(x) * 2.0, {"total": x.sum()}

    x = fnp.asarray(X)
    j, aux = jac(g, has_aux=True, chunk_size=3)(x)
    j0, aux0 = jac(g, has_aux=True)(x)
    np.testing.assert_allclose(j, j0, rtol=1e-14)
    assert float(aux["total"]) == float(aux0["total"])


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 9), st.integers(1, 12), st.sampled_from(["rev", "fwd"]))
def test_chunks_for_any_size(n, chunk, mode):
    jac = fgrad.jacrev if mode == "rev" else fgrad.jacfwd
    x = fnp.asarray(np.linspace(0.1, 1.0, n))

    def g(v):
        return fnp.cumsum(v ** 3)[::-1] * fnp.cos(v)

    np.testing.assert_allclose(jac(g, chunk_size=chunk)(x), jac(g)(x), rtol=1e-13, atol=1e-15)


def test_hessian_jit_vmap_and_nesting():
    def g(x):
        return (fnp.sin(x) ** 3).sum() + (x[:-1] * x[1:]).sum()

    x = fnp.asarray(X)
    h = fgrad.hessian(g)(x)
    for kw in [{"chunk_size": 1}, {"chunk_size": 2}, {"memory_budget": "3kB"}]:
        np.testing.assert_allclose(fgrad.hessian(g, **kw)(x), h, rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(fgrad.jit(fgrad.hessian(g, **kw))(x), h, rtol=1e-12,
                                   atol=1e-14)
    np.testing.assert_allclose(fgrad.jacrev(fgrad.jacfwd(g, chunk_size=2), chunk_size=3)(x), h,
                               rtol=1e-12, atol=1e-14)
    xs = fnp.stack([x, 2 * x])
    batched = fgrad.vmap(fgrad.jacrev(fgrad.grad(g), chunk_size=2))(xs)
    np.testing.assert_allclose(batched[1], fgrad.hessian(g)(2 * x), rtol=1e-12, atol=1e-14)


def _peak_bytes(fun, *args) -> int:
    fun(*args)  # warm the caches first: only the computation is measured
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        fun(*args)
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


K = 500
WIDE_W = fnp.asarray(np.linspace(0.1, 1.0, K), "float64")
WIDE_V = fnp.asarray(np.linspace(-1.0, 1.0, K), "float64")


def wide(x):
    """R^n -> R^n through an (n, 500) intermediate: each Jacobian row carries cotangents or
    tangents of that size, so batching all n rows costs n times as much."""
    h = fnp.tanh(x[:, None] * WIDE_W[None, :])
    return fnp.sin(h) @ WIDE_V


@pytest.mark.skipif(fgrad.config.backend != "numpy", reason="tracemalloc sees host memory")
@pytest.mark.parametrize("jac", [fgrad.jacrev, fgrad.jacfwd])
def test_chunks_stay_within_a_budget_the_full_batch_exceeds(jac):
    x = fnp.asarray(np.linspace(-1.0, 1.0, 32))
    budget = 2_000_000
    full_peak = _peak_bytes(jac(wide), x)
    chunked_peak = _peak_bytes(jac(wide, memory_budget=budget), x)
    # batching every row at once needs several times the budget ...
    assert full_peak > 3 * budget, full_peak
    # ... a chunk stays within it (the Jacobian itself, 32 * 32 * 8 bytes, included)
    assert chunked_peak <= budget, chunked_peak
    np.testing.assert_allclose(jac(wide, memory_budget=budget)(x), jac(wide)(x), rtol=1e-13)


def test_budget_below_one_row_warns_and_runs_row_by_row():
    x = fnp.asarray(X)
    with pytest.warns(UserWarning, match="less than the estimated cost of one Jacobian row"):
        got = fgrad.jacrev(f, memory_budget=10)(x, fnp.asarray(W))
    np.testing.assert_allclose(got, fgrad.jacrev(f)(x, fnp.asarray(W)), rtol=1e-13)


def test_parse_memory_budget():
    assert parse_memory_budget("2GB", "j") == 2 * 10 ** 9
    assert parse_memory_budget("2 GiB", "j") == 2 * 2 ** 30
    assert parse_memory_budget("512mib", "j") == 512 * 2 ** 20
    assert parse_memory_budget("1.5kB", "j") == 1500
    assert parse_memory_budget("64", "j") == 64 and parse_memory_budget(64, "j") == 64


@pytest.mark.parametrize("jac", [fgrad.jacrev, fgrad.jacfwd, fgrad.hessian])
@pytest.mark.parametrize("kwargs, error, match", [
    ({"chunk_size": 0}, ValueError, "chunk_size must be greater than 0"),
    ({"chunk_size": -2}, ValueError, "chunk_size must be greater than 0"),
    ({"chunk_size": 1.5}, TypeError, "chunk_size must be an int or None, got float"),
    ({"chunk_size": True}, TypeError, "chunk_size must be an int or None, got bool"),
    ({"memory_budget": 0}, ValueError, "memory_budget must be positive"),
    ({"memory_budget": "lots"}, ValueError, "memory_budget='lots' is not a size"),
    ({"memory_budget": "2XB"}, ValueError, "is not a size"),
    ({"memory_budget": 1.5e9}, TypeError, "memory_budget must be an int"),
    ({"chunk_size": 2, "memory_budget": "1GB"}, ValueError, "not both"),
])
def test_bad_arguments_fail_when_the_transform_is_made(jac, kwargs, error, match):
    with pytest.raises(error, match=match):
        jac(fnp.sin, **kwargs)


def test_torch_func_jacrev_chunk_size():
    import fgrad.torch as torch
    x = torch.tensor([0.1, 0.5, 0.9, 1.3])

    def g(t):
        return torch.sin(t) * t.sum()

    full = torch.func.jacrev(g)(x).numpy()
    for c in (1, 3, None, 10):
        np.testing.assert_allclose(torch.func.jacrev(g, chunk_size=c)(x).numpy(), full, rtol=1e-6)
        np.testing.assert_allclose(torch.func.jacfwd(g, chunk_size=c)(x).numpy(), full, rtol=1e-6)
    with pytest.raises(ValueError, match=r"^jacrev: `chunk_size` should be greater than 0\.$"):
        torch.func.jacrev(g, chunk_size=0)
    real = pytest.importorskip("torch")
    xr = real.tensor([0.1, 0.5, 0.9, 1.3])
    expected = real.func.jacrev(lambda t: real.sin(t) * t.sum(), chunk_size=3)(xr).numpy()
    np.testing.assert_allclose(full, expected, rtol=1e-6)
    with pytest.raises(ValueError, match=r"^jacrev: `chunk_size` should be greater than 0\.$"):
        real.func.jacrev(real.sin, chunk_size=0)
