"""The host path of ``triangular_solve`` (`fgrad.ops._host_lapack.triangular_solve`): BLAS
``trsm`` matrix by matrix, one call for a factor broadcast over the batch (the batch as more
right-hand sides): JAX's bits, SciPy's accuracy, NaN for a zero diagonal, derivatives
unchanged (docs/speed-linalg.md, session 25)."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad.ops import linalg as L
from fgrad.scipy.stats import multivariate_normal
from fgrad.testing.check_grads import check_grads

CASES = [(dt, n, k, left, lower, trans)
         for dt in (np.float64, np.float32, np.complex128)
         for n in (1, 2, 7) for k in (1, 3)
         for left in (True, False) for lower in (True, False) for trans in (False, True)]


def _system(rng, dt, n, k, left, batch=5, shared=False):
    a = rng.standard_normal((n, n)) + 3 * np.eye(n)
    if np.dtype(dt).kind == "c":
        a = a + 1j * rng.standard_normal((n, n))
    if shared:
        a = np.broadcast_to(a.astype(dt), (batch, n, n))
    else:
        a = (a + 0.1 * rng.standard_normal((batch, n, n))).astype(dt)
    b = rng.standard_normal((batch, n, k) if left else (batch, k, n)).astype(dt)
    return a, b


@pytest.mark.parametrize("dt,n,k,left,lower,trans", CASES)
def test_broadcast_factor_gives_the_bits_of_the_materialized_stack(dt, n, k, left, lower, trans):
    rng = np.random.default_rng(n * 10 + k)
    a, b = _system(rng, dt, n, k, left, shared=True)
    one_call = L._tri_impl(np, a, b, left, lower, trans, False)
    by_matrix = L._tri_impl(np, np.ascontiguousarray(a), b, left, lower, trans, False)
    assert np.array_equal(one_call, by_matrix)


@pytest.mark.parametrize("shared", [False, True])
@pytest.mark.parametrize("dt,n,k,left,lower,trans", CASES)
def test_bits_are_jaxs(dt, n, k, left, lower, trans, shared):
    """One right-hand side included: SciPy's ``solve_triangular`` (LAPACK ``trtrs``) differs
    from JAX's kernel in the last bits there; fgrad's path is JAX's ``trsm``."""
    jax = pytest.importorskip("jax")
    rng = np.random.default_rng(n * 10 + k)
    a, b = _system(rng, dt, n, k, left, shared=shared)
    jax.config.update("jax_enable_x64", True)  # fgrad's default (as tests/_peers.py)
    want = np.asarray(jax.lax.linalg.triangular_solve(np.ascontiguousarray(a), b, left_side=left,
                                                      lower=lower, transpose_a=trans))
    got = L._tri_impl(np, a, b, left, lower, trans, False)
    assert got.dtype == want.dtype and np.array_equal(got, want)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_as_accurate_as_the_float64_reference(dt):
    """Residual of the one-call broadcast solve against a long-double substitution: within
    the backward-error bound of a triangular solve (n eps |L| |x|)."""
    rng = np.random.default_rng(0)
    n, batch = 12, 64
    lo = np.tril(rng.standard_normal((n, n))) + 4 * np.eye(n)
    b = rng.standard_normal((batch, n, 1))
    x = L._tri_impl(np, np.broadcast_to(lo.astype(dt), (batch, n, n)), b.astype(dt), True, True, False, False)
    ref = np.zeros((batch, n), np.longdouble)
    lq, bq = lo.astype(dt).astype(np.longdouble), b[..., 0].astype(dt).astype(np.longdouble)
    for i in range(n):
        ref[:, i] = (bq[:, i] - ref[:, :i] @ lq[i, :i]) / lq[i, i]
    bound = n * np.finfo(dt).eps * (np.abs(lq) @ np.abs(ref).T).T
    assert np.all(np.abs(np.longdouble(1) * (lq @ x[..., 0].T).T - bq) <= bound)


def test_zero_diagonal_gives_nan_for_that_matrix_only():
    a = np.stack([np.eye(3), np.diag([1.0, 0.0, 2.0]), 2 * np.eye(3)])
    x = L._tri_impl(np, a, np.ones((3, 3, 1)), True, True, False, False)
    assert np.isnan(x[1]).all()
    assert np.array_equal(x[0], np.ones((3, 1))) and np.array_equal(x[2], np.full((3, 1), 0.5))
    shared = L._tri_impl(np, np.broadcast_to(a[1], (4, 3, 3)), np.ones((4, 3, 2)), True, True, False, False)
    assert np.isnan(shared).all()
    unit = L._tri_impl(np, a[1], np.ones((3, 1)), True, True, False, True)  # the diagonal is not read
    assert np.isfinite(unit).all()


def test_broadcast_factor_derivatives_by_finite_differences():
    rng = np.random.default_rng(1)
    lo = np.tril(rng.standard_normal((3, 3))) + 3 * np.eye(3)
    b = rng.standard_normal((6, 3, 2))

    def f(lo, b):
        return L.triangular_solve(fnp.broadcast_to(lo, (6, 3, 3)), b, left_side=True, lower=True)

    check_grads(f, (lo, b), order=2, rtol=1e-5, atol=1e-6)


def test_multivariate_normal_logpdf_batch_value_and_gradient():
    """The batched density (the broadcast Cholesky factor, one solve) against the formula, and
    its gradient in x, mean and cov against finite differences."""
    rng = np.random.default_rng(2)
    x, mean = rng.standard_normal((40, 3)), rng.standard_normal(3)
    m = rng.standard_normal((3, 3))
    cov = m @ m.T + 3 * np.eye(3)
    d = x - mean
    want = (-0.5 * np.einsum("bi,ij,bj->b", d, np.linalg.inv(cov), d) - 0.5 * np.linalg.slogdet(cov)[1]
            - 1.5 * np.log(2 * np.pi))
    np.testing.assert_allclose(np.asarray(multivariate_normal.logpdf(x, mean, cov)), want, rtol=1e-12)
    check_grads(lambda x, mean, m: multivariate_normal.logpdf(x, mean, m @ m.T + 3 * fnp.eye(3)),
                (x[:5], mean, m), order=1, rtol=1e-5, atol=1e-6)
    jit_grad = fgrad.jit(fgrad.grad(lambda x: fnp.sum(multivariate_normal.logpdf(x, mean, cov))))(x)
    np.testing.assert_allclose(np.asarray(jit_grad), -d @ np.linalg.inv(cov), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("fortran", [False, True])
def test_stack_of_factors_in_one_c_loop_gives_the_bits_of_python_calls(dt, fortran):
    """A stack of different factors is solved by one C loop calling BLAS ``trsm``
    (`core.native_trsm`); every configuration (side, triangle, transpose, unit diagonal,
    row- or column-major matrices, a zero diagonal) gives the bits of the Python loop of
    SciPy-wrapped calls it replaces (the native loops switched off)."""
    from fgrad.core import native_trsm

    if native_trsm.blas_address("d") is None:
        pytest.skip("no SciPy")
    rng = np.random.default_rng(5)
    for n, k, left, lower, trans, unit in [(n, k, lf, lo, t, u) for n in (1, 3, 9) for k in (1, 4)
                                           for lf in (True, False) for lo in (True, False)
                                           for t in (False, True) for u in (False, True)]:
        a, b = _system(rng, dt, n, k, left, batch=6)
        if fortran:
            a = np.swapaxes(np.ascontiguousarray(np.swapaxes(a, -1, -2)), -1, -2)
        a[3, n - 1, n - 1] = 0
        fgrad.config.update("native_loops", False)
        try:
            want = L._tri_impl(np, a, b, left, lower, trans, unit)
        finally:
            fgrad.config.update("native_loops", True)
        got = L._tri_impl(np, a, b, left, lower, trans, unit)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert np.array_equal(got, want, equal_nan=True), (n, k, left, lower, trans, unit)
        assert unit or np.isnan(got[3]).all()


def test_stack_loop_declines_what_it_cannot_solve():
    from fgrad.core import native_trsm

    address = native_trsm.blas_address("d")
    if address is None:
        pytest.skip("no SciPy")
    a, b = np.ones((2, 3, 3)), np.ones((2, 1, 3))
    assert native_trsm.trsm_stack(address, "d", "L", "L", "N", "N", a, np.ones((2, 1, 4))) is False  # sizes
    assert native_trsm.trsm_stack(address, "d", "L", "L", "N", "N", a.astype(np.float32), b) is False
    assert native_trsm.trsm_stack(address, "d", "L", "L", "N", "N", a[:, ::-1], b) is False  # not C order
    assert native_trsm.blas_address("i") is None
