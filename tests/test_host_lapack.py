"""The SciPy-LAPACK path of the host factorizations (`fgrad.ops._host_lapack`): the same
results as NumPy's ``linalg`` (to rounding) on single and stacked matrices of each LAPACK
dtype, JAX's NaN for failed factorizations, the lower triangle read, and the fallbacks."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.numpy as fnp
from fgrad.ops import _host_lapack as H

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]


def _rand(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.normal(size=shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.normal(size=shape)
    return a.astype(dtype)


def _hpd(shape, dtype):
    a = _rand(shape, dtype)
    n = shape[-1]
    return (a @ np.swapaxes(a.conj(), -1, -2) / n + np.eye(n)).astype(dtype)


def _tol(dtype):
    single = np.dtype(dtype) in (np.float32, np.complex64)
    return dict(rtol=2e-4, atol=2e-4) if single else dict(rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(70, 70), (2, 3, 70, 70)])
def test_cholesky_and_solve_match_numpy(dtype, shape):
    a = _hpd(shape, dtype)
    garbage = np.triu(_rand(shape, dtype, 1), 1)  # the upper triangle is not read
    c = H.cholesky(np, np.tril(a) + garbage)
    np.testing.assert_allclose(c, np.linalg.cholesky(a), **_tol(dtype))
    assert np.all(np.triu(c, 1) == 0)
    b = _rand(shape[:-1] + (3,), dtype, 2)
    np.testing.assert_allclose(H.solve(np, a, b), np.linalg.solve(a, b), **_tol(dtype))


@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
@pytest.mark.parametrize("shape", [(70, 70), pytest.param((2, 70, 70), marks=pytest.mark.slow)])  # 12 s
def test_eigh_svd_qr_match_numpy(dtype, shape):
    a = _hpd(shape, dtype)
    w, v = H.eigh(np, np.tril(a) + np.triu(_rand(shape, dtype, 1), 1))
    wn, _ = np.linalg.eigh(a)
    np.testing.assert_allclose(w, wn, rtol=1e-4, atol=1e-4)
    recon = v @ (w[..., :, None] * np.swapaxes(v.conj(), -1, -2))
    np.testing.assert_allclose(recon, a, rtol=1e-4, atol=1e-4)
    m = _rand(shape[:-1] + (shape[-1] + 5,), dtype)  # wide
    for full in (False, True):
        u, s, vh = H.svd(np, m, full, True)
        un, sn, vhn = np.linalg.svd(m, full_matrices=full)
        assert u.shape == un.shape and vh.shape == vhn.shape
        np.testing.assert_allclose(s, sn, rtol=1e-4, atol=1e-4)
        k = s.shape[-1]
        close = dict(rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose((u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :], m, **close)
        q, r = H.qr(np, np.swapaxes(m, -1, -2), full)
        qn, rn = np.linalg.qr(np.swapaxes(m, -1, -2), mode="complete" if full else "reduced")
        assert q.shape == qn.shape and r.shape == rn.shape
        np.testing.assert_allclose(q @ r, np.swapaxes(m, -1, -2), rtol=1e-4, atol=1e-4)
    sv = H.svd(np, m, False, False)
    np.testing.assert_allclose(sv, np.linalg.svd(m, compute_uv=False), rtol=1e-4, atol=1e-4)


def test_failures_are_jaxs_nan():
    bad = np.stack([np.eye(20, dtype=np.float32), -np.eye(20, dtype=np.float32)])
    c = H.cholesky(np, bad)
    assert np.array_equal(c[0], np.eye(20)) and np.isnan(c[1]).all()
    # an exactly singular solve is the LU's division by zero pivots, as JAX's (live-checked
    # in session 25): the last unknown 1/0 = inf, the others inf - inf = NaN
    lu_values = np.full((20, 2), np.nan)
    lu_values[-1] = np.inf
    np.testing.assert_array_equal(H.solve(np, np.zeros((20, 20)), np.ones((20, 2))), lu_values)
    # through the public functions, as JAX: NaN or the LU's infinities, no exception
    assert np.isnan(np.asarray(fnp.linalg.cholesky(fnp.asarray(-np.eye(40))))).all()
    lu_values = np.full((40, 2), np.nan)
    lu_values[-1] = np.inf
    np.testing.assert_array_equal(np.asarray(fnp.linalg.solve(fnp.zeros((40, 40)), fnp.ones((40, 2)))),
                                  lu_values)


def test_fallbacks():
    small = np.eye(4, dtype=np.float32)
    assert H.cholesky(np, small) is None  # below the size where SciPy's path pays
    assert H.eigh(np, np.eye(80)) is None  # double precision: NumPy's is as fast
    assert H.cholesky(np, np.eye(40).astype(np.float16)) is None  # no LAPACK routine
    assert H.solve(np, np.eye(40), np.ones((40, 0))) is None
    assert H.cholesky(object(), np.eye(40)) is None  # not the host


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_public_functions_and_gradients_on_the_fast_path(dtype):
    a = _hpd((48, 48), dtype)
    b = _rand((48, 2), dtype, 3)
    tol = dict(rtol=3e-3, atol=3e-3) if dtype == np.float32 else dict(rtol=1e-8, atol=1e-8)
    np.testing.assert_allclose(fnp.linalg.cholesky(fnp.asarray(a)), np.linalg.cholesky(a), **tol)
    np.testing.assert_allclose(fnp.linalg.solve(fnp.asarray(a), fnp.asarray(b)), np.linalg.solve(a, b), **tol)
    np.testing.assert_allclose(fnp.linalg.inv(fnp.asarray(a)), np.linalg.inv(a), **tol)
    if dtype == np.float64:  # gradients through the factorization: finite differences
        from fgrad.test_util import check_grads

        check_grads(lambda m: fnp.sum(fnp.linalg.solve(m @ m.T + 48 * fnp.eye(48), fnp.asarray(b)) ** 2),
                    (fnp.asarray(a),), order=1, modes=("rev",))
        check_grads(lambda m: fnp.sum(fnp.linalg.cholesky(m @ m.T + 48 * fnp.eye(48))),
                    (fnp.asarray(a),), order=1, modes=("fwd", "rev"))


def test_jax_values_live():
    jnp = pytest.importorskip("jax.numpy")

    a = _hpd((64, 64), np.float32)
    for f, g in [(fnp.linalg.cholesky, jnp.linalg.cholesky), (fnp.linalg.inv, jnp.linalg.inv),
                 (lambda m: fnp.linalg.eigh(m)[0], lambda m: jnp.linalg.eigh(m)[0])]:
        ours, theirs = np.asarray(f(fnp.asarray(a))), np.asarray(g(jnp.asarray(a)))
        np.testing.assert_allclose(ours, theirs, rtol=1e-3, atol=1e-4)
