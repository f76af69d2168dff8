"""The ``scaled_scatter`` primitive and jit's `scaled_scatters` pass (`fgrad/ops/scaled_scatter.py`):
``x.at[rows].add(s * X[cols])`` -- a sparse-dense product -- in one pass.

Witnesses: NumPy's ``np.multiply`` then ``np.add.at``, byte for byte (the host kernel adds
the rounded products in NumPy's order), and the eager (unfused) program; a spy showing the
kernel ran; the fallbacks (indices out of range, the fake device); derivatives by finite
differences and against the unfused program; vmap against a loop; JAX's BCOO product live.
"""

from __future__ import annotations

from unittest import mock

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad.experimental import sparse
from fgrad.ops import scaled_scatter as ss
from fgrad.ops.scaled_scatter import scaled_scatter_p
from fgrad.test_util import check_grads
from fgrad.testing.device_numerics import rounds_like_numpy

PARAMS = {"gather_oob": "clip", "fill_value": None, "oob": "drop", "s_first": True}


def _problem(rng, dtype, n=400, rows=30, width=8, specials=False, zero_scale=False):
    s = rng.standard_normal((n, 1)).astype(dtype)
    X = rng.standard_normal((50, width)).astype(dtype)
    if specials:
        X[3, 1], X[7, 2], X[9, 0] = np.inf, np.nan, -0.0
    if zero_scale:
        s[5, 0] = -0.0
        c_bad = 3  # a zero scale times inf: NaN in NumPy (the kernel would skip the entry)
    r = rng.integers(0, rows, n)  # unsorted, duplicate-heavy
    c = rng.integers(0, 50, n)
    if zero_scale:
        c[5] = c_bad
    return s, X, c, r


def _numpy(x, s, X, c, r):
    out = x.copy()
    with np.errstate(invalid="ignore"):
        np.add.at(out, r, s * X[c])
    return out


def _same(a, b):
    a = np.asarray(a)
    if rounds_like_numpy():
        return a.dtype == b.dtype and a.tobytes() == b.tobytes()
    return np.allclose(a, b, rtol=1e-5, atol=1e-5, equal_nan=True)


def _fused(z, s, X, c, r):
    return z.at[r].add(s * X[c])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("operand", ["zeros", "random", "signed-zeros", "zero-scale"])
def test_jit_runs_one_scaled_scatter_with_numpys_bits(dtype, operand):
    """The kernel's bits are NumPy's onto any operand, with inf/NaN/-0.0 rows; a zero scale
    (which the kernel would skip) runs the three primitives instead."""
    rng = np.random.default_rng(0)
    s, X, c, r = _problem(rng, dtype, specials=operand != "zeros", zero_scale=operand == "zero-scale")
    z = {"zeros": np.zeros((30, 8), dtype), "random": rng.standard_normal((30, 8)).astype(dtype),
         "signed-zeros": np.full((30, 8), -0.0, dtype), "zero-scale": np.full((30, 8), -0.0, dtype)}[operand]
    f = fgrad.jit(_fused)
    names = [e.prim.name for e in f.lower(z, s, X, c, r).optimized.eqns]
    assert names.count("scaled_scatter") == 1 and "gather" not in names and "mul" not in names, names
    used = []
    host_kernel = ss._host_kernel
    with mock.patch.object(ss, "_host_kernel", lambda *a: used.append(host_kernel(*a)) or used[-1]):
        got = f(z, s, X, c, r)
    want = _numpy(z, s, X, c, r)
    assert _same(got, want)
    with np.errstate(invalid="ignore"):  # 0 * inf: NumPy warns eagerly
        assert _same(_fused(fnp.asarray(z), s, X, c, r), want)  # eager: the three primitives
    if fgrad.default_backend() != "cpu":
        assert used == []  # a device: the three primitives
    elif ss._coo_matmat_dense(np.dtype(dtype)) is not None:
        assert used == [operand != "zero-scale"]


def test_bcoo_product_under_jit_matches_numpy_and_jax():
    rng = np.random.default_rng(1)
    n, nse = 60, 500
    flat = rng.choice(n * n, nse, replace=False)  # unsorted entries
    idx = np.stack([flat // n, flat % n], 1).astype(np.int32)
    data = rng.standard_normal(nse).astype(np.float32)
    X = rng.standard_normal((n, 16)).astype(np.float32)
    S = sparse.BCOO((fnp.asarray(data), fnp.asarray(idx)), shape=(n, n))
    f = fgrad.jit(lambda S, X: S @ X)
    assert "scaled_scatter" in [e.prim.name for e in f.lower(S, X).optimized.eqns]
    got = np.asarray(f(S, X))
    assert _same(got, _numpy(np.zeros((n, 16), np.float32), data[:, None], X, idx[:, 1], idx[:, 0]))
    jax = pytest.importorskip("jax")
    from jax.experimental import sparse as jsparse

    want = jax.jit(lambda S, X: S @ X)(jsparse.BCOO((data, idx), shape=(n, n)), X)
    np.testing.assert_allclose(got, np.asarray(want), rtol=1e-5, atol=1e-5)  # XLA's order


def test_out_of_range_indices_fall_back_to_the_three_primitives():
    """Gathered rows filled with 0 (``mode="fill"``) and dropped targets: the kernel does not
    run; the values are the unfused program's."""
    rng = np.random.default_rng(2)
    s, X, c, r = _problem(rng, "float64")
    c[::7], r[::5] = 50, -3  # a filled row; a negative target (dropped by mode="drop")

    def f(z, s, X, c, r):
        return z.at[r].add(s * X.at[c].get(mode="fill", fill_value=0), mode="drop")

    z = np.zeros((30, 8))
    names = [e.prim.name for e in fgrad.jit(f).lower(z, s, X, c, r).optimized.eqns]
    assert "scaled_scatter" in names, names
    with mock.patch.object(ss, "_coo_matmat_dense", wraps=ss._coo_matmat_dense) as kernel:
        got = fgrad.jit(f)(z, s, X, c, r)
    assert kernel.call_count == 0
    assert _same(got, np.asarray(f(fnp.asarray(z), s, fnp.asarray(X), c, r)))


def test_not_fused_when_the_product_is_read_elsewhere():
    rng = np.random.default_rng(3)
    s, X, c, r = _problem(rng, "float64")

    def f(z, s, X):
        p = s * X[c]
        return z.at[r].add(p), p.sum()

    names = [e.prim.name for e in fgrad.jit(f).lower(np.zeros((30, 8)), s, X).optimized.eqns]
    assert "scaled_scatter" not in names and "scatter" in names, names


def test_gradients_through_the_fused_program():
    rng = np.random.default_rng(4)
    s, X, c, r = _problem(rng, "float64", n=40, rows=6, width=3)
    z = rng.standard_normal((6, 3))
    w = rng.standard_normal((6, 3))
    loss = lambda z, s, X: fnp.sum(fnp.sin(_fused(z, s, X, c, r)) * w)  # noqa: E731
    g_jit = fgrad.jit(fgrad.grad(loss, argnums=(0, 1, 2)))(z, s, X)
    g_eager = fgrad.grad(loss, argnums=(0, 1, 2))(z, s, X)
    for a, b in zip(g_jit, g_eager):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-12, atol=1e-12)
    check_grads(fgrad.jit(loss), (z, s, X), order=1, modes=["rev"])


def test_primitive_rules_jvp_and_vmap():
    """The primitive's own rules (it is bound by jit's pass, never traced, but carries them):
    JVP by finite differences, vmap against a loop, eager values against NumPy."""
    rng = np.random.default_rng(5)
    s, X, c, r = _problem(rng, "float64", n=20, rows=5, width=3)
    z = rng.standard_normal((5, 3))
    bind = lambda z, s, X: scaled_scatter_p.bind(z, s, X, c, r, **PARAMS)  # noqa: E731
    assert _same(bind(z, s, X), _numpy(z, s, X, c, r))
    check_grads(bind, (z, s, X), order=2, modes=["fwd", "rev"])
    zs = rng.standard_normal((4, 5, 3))
    batched = fgrad.vmap(bind, in_axes=(0, None, None))(zs, s, X)
    for i in range(4):
        np.testing.assert_allclose(np.asarray(batched[i]), _numpy(zs[i], s, X, c, r), rtol=1e-14)
    Xs = rng.standard_normal((3, 50, 3))
    batched = fgrad.vmap(bind, in_axes=(None, None, 0))(z, s, Xs)
    for i in range(3):
        np.testing.assert_allclose(np.asarray(batched[i]), _numpy(z, s, Xs[i], c, r), rtol=1e-14)


def test_kernel_refused_when_it_fuses_the_multiply_add():
    """A kernel computing ``c + a * b`` with one rounding (an FMA) would not give NumPy's
    bits: the probe refuses it and the three primitives run."""

    def fma_kernel(nnz, nvec, ai, aj, ax, bx, cx):
        for k in range(nnz):
            for j in range(nvec):
                t = ai[k] * nvec + j
                exact = np.float64(ax[k]) * np.float64(bx[aj[k] * nvec + j]) + np.float64(cx[t])
                cx[t] = exact  # float32: one rounding of the exact sum

    class Tools:
        coo_matmat_dense = staticmethod(fma_kernel)

    ss._coo_matmat_dense.cache_clear()
    try:
        with mock.patch.object(ss, "scipy_module", lambda name: Tools()):
            assert ss._coo_matmat_dense(np.float32) is None
        ss._coo_matmat_dense.cache_clear()
        tools = ss.scipy_module("sparse._sparsetools")
        if hasattr(tools, "coo_matmat_dense") and np.dtype(np.intp).itemsize == 8:
            import platform

            if platform.machine() in ("x86_64", "AMD64"):  # no FMA in the wheels' baseline
                assert ss._coo_matmat_dense(np.float32) is not None
    finally:
        ss._coo_matmat_dense.cache_clear()
