"""JAX API round 7 (issue 12): `fgrad.lax.linalg` (JAX's ``jax.lax.linalg``).  Stored JAX
0.10.2 numbers, live JAX comparisons (importorskip), finite differences, vmap vs loop and
jit vs eager."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad.lax import linalg as L
from fgrad.test_util import check_grads
from fgrad.testing.device_numerics import rounds_like_numpy

A3 = np.array([[4.0, 1, 2], [1, 3, 0], [2, 0, 5]])
RNG = np.random.default_rng(0)
A = RNG.standard_normal((4, 4))
SYM = A + A.T
SPD = A @ A.T + 4 * np.eye(4)
C = RNG.standard_normal((4, 4)) + 1j * RNG.standard_normal((4, 4))
HERM = C + C.conj().T


def _close(x, y, **kw):
    np.testing.assert_allclose(np.asarray(x), np.asarray(y), **{"rtol": 1e-10, "atol": 1e-12, **kw})


def test_stored_jax_numbers():
    # JAX 0.10.2 (x64) on A3
    v, w = L.eigh(A3)
    _close(w, [1.85489731, 3.4760236, 6.66907909], rtol=1e-7)
    _close(np.abs(v[:, 0]), [0.67931306, 0.59323331, 0.43198148], rtol=1e-7)
    lu, piv, perm = L.lu(A3)
    _close(lu, [[4, 1, 2], [0.25, 2.75, -0.5], [0.5, -0.18181818, 3.90909091]], rtol=1e-7)
    assert piv.dtype == np.int32 and perm.tolist() == [0, 1, 2]
    assert L.lu_pivots_to_permutation(fnp.asarray([2, 2, 2], dtype="int32"), 3).tolist() == [2, 0, 1]
    assert L.lu_pivots_to_permutation(fnp.asarray([[2, 2, 2]], dtype="int32"), 4).tolist() == [[2, 0, 1, 3]]
    h, taus = L.hessenberg(A3)
    _close(h, [[4, -2.23606798, 0], [-2.23606798, 4.6, -0.8], [0.61803399, -0.8, 3.4]], atol=1e-8)
    _close(taus, [1.4472136, 0.0], atol=1e-8)
    packed, d, e, taus = L.tridiagonal(A3)
    _close(packed, [[4, 1, 2], [-2.23606798, 4.6, 0], [0.61803399, -0.8, 3.4]], atol=1e-8)
    _close(d, [4, 4.6, 3.4]), _close(e, [-2.23606798, -0.8], rtol=1e-7)
    _close(L.householder_product(h, taus),
           [[-0.4472136, 3.23606798, -0.89442719], [3.23606798, -6.23606798, 2.0],
            [-0.89442719, 2.0, 0.4472136]], rtol=1e-7)
    _close(L.triangular_solve(A3, fnp.ones((2, 3))), [[0.25, 0.25, 0.1]] * 2)
    _close(L.triangular_solve(A3, fnp.ones((3, 2)), left_side=True, lower=True, transpose_a=True,
                              unit_diagonal=True), [[-2, -2], [1, 1], [1, 1]])
    _close(L.triangular_solve(A3, fnp.ones(3), left_side=True), [0.06666667, 0.33333333, 0.2], rtol=1e-7)
    _close(L.tridiagonal_solve(fnp.asarray([0.0, 1, 1]), fnp.asarray([4.0, 4, 4]), fnp.asarray([1.0, 1, 0]),
                               fnp.ones((3, 2))),
           [[0.21428571] * 2, [0.14285714] * 2, [0.21428571] * 2], rtol=1e-7)
    _close(L.cholesky(A3), [[2, 0, 0], [0.5, 1.6583124, 0], [1, -0.30151134, 1.97714211]], rtol=1e-7)
    # not positive definite: NaN, no error (JAX); symmetrize_input=False reads the lower triangle
    bad = np.asarray(L.cholesky(fnp.asarray([[4.0, 100.0], [0.0, 3.0]])))
    assert np.isnan(bad[np.tril_indices(2)]).all() and bad[0, 1] == 0  # JAX: [[nan, 0], [nan, nan]]
    _close(L.cholesky(fnp.asarray([[4.0, 100.0], [0.0, 3.0]]), symmetrize_input=False),
           [[2, 0], [0, 1.73205081]], rtol=1e-7)
    v, w = L.eigh(fnp.asarray([[4.0, 100.0], [0.0, 3.0]]), symmetrize_input=False)
    _close(w, [3, 4])
    v, w = L.eigh(fnp.asarray([[4.0, 100.0], [0.0, 3.0]]), symmetrize_input=False, lower=False)
    _close(w, [-96.50124999, 103.50124999], rtol=1e-9)
    q, r, p = L.qr(A3, pivoting=True)
    _close(r, [[-5.38516481, -0.37139068, -3.34251609], [0, -3.14039312, -1.83372605],
               [0, 0, -2.5426433]], rtol=1e-7)
    assert p.tolist() == [2, 1, 0] and p.dtype == np.int32
    s = L.svd(A3, compute_uv=False)
    _close(s, [6.66907909, 3.4760236, 1.85489731], rtol=1e-7)
    assert [x.shape for x in L.svd(A3[:, :2])] == [(3, 3), (2,), (2, 2)]
    assert [x.shape for x in L.svd(A3[:, :2], full_matrices=False)] == [(3, 2), (2,), (2, 2)]
    _close(L.cholesky_update(L.cholesky(A3).T, fnp.ones(3)),
           [[2.23606798, 0.89442719, 1.34164079], [0, 1.78885438, -0.1118034], [0, 0, 2.04633819]],
           rtol=1e-7, atol=1e-12)
    _close(L.symmetric_product(A3, A3), [[21, 7, 18], [7, 10, 2], [18, 2, 29]])
    t = L.schur(A3, compute_schur_vectors=False)
    assert isinstance(t, list) and len(t) == 1
    _close(np.sort(np.diag(np.asarray(t[0]))), [1.85489731, 3.4760236, 6.66907909], rtol=1e-7)


def test_output_containers_and_errors_match_jax():
    assert isinstance(L.lu(A3), list) and isinstance(L.hessenberg(A3), list)
    assert isinstance(L.tridiagonal(A3), list) and isinstance(L.eig(A3), list)
    assert isinstance(L.eigh(A3), tuple) and isinstance(L.qr(A3), tuple) and isinstance(L.svd(A3), tuple)
    assert len(L.eig(A3, compute_left_eigenvectors=False)) == 2
    assert len(L.eig(A3, compute_left_eigenvectors=False, compute_right_eigenvectors=False)) == 1
    with pytest.raises(TypeError, match="same dtypes"):
        L.triangular_solve(C, fnp.ones((4, 2)), left_side=True)
    with pytest.raises(TypeError, match="rank at least 2"):
        L.tridiagonal_solve(fnp.zeros(3), fnp.ones(3), fnp.zeros(3), fnp.ones(3))
    with pytest.raises(ValueError, match="full_matrices and subset_by_index"):
        L.svd(A3, subset_by_index=(0, 2))
    with pytest.raises(ValueError, match="square"):
        L.cholesky(fnp.ones((2, 3)))
    # subset_by_index (JAX: NotImplementedError on CPU) slices the full result
    v, w = L.eigh(A3, subset_by_index=(1, 3))
    _close(w, [3.4760236, 6.66907909], rtol=1e-7)
    assert v.shape == (3, 2)
    _close(L.svd(A3, compute_uv=False, subset_by_index=(0, 2)), [6.66907909, 3.4760236], rtol=1e-7)


def _jax_linalg():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    from jax.lax import linalg

    return linalg


LIVE_CASES = [
    ("cholesky", (SPD,), {}), ("cholesky", (np.triu(SPD),), {"symmetrize_input": False}),
    ("cholesky", (np.stack([SPD, SPD + np.eye(4)]),), {}),
    ("eigh", (SYM,), {}), ("eigh", (np.tril(SYM),), {"symmetrize_input": False}),
    ("eigh", (np.triu(SYM),), {"symmetrize_input": False, "lower": False}), ("eigh", (HERM,), {}),
    ("lu", (A,), {}), ("lu", (np.stack([A, SYM]),), {}), ("lu", (C,), {}),
    ("lu_pivots_to_permutation", (np.array([[2, 3, 2, 3]], np.int32), 5), {}),
    ("qr", (A,), {}), ("qr", (A[:, :2],), {"full_matrices": False}), ("qr", (A[:, :2],), {}),
    ("qr", (C,), {}), ("qr", (A,), {"pivoting": True}),
    ("qr", (A[:, :3],), {"pivoting": True, "full_matrices": False}),
    ("qr", (A[:3],), {"pivoting": True}), ("qr", (C,), {"pivoting": True}),
    ("qr", (np.stack([A, SYM]),), {"pivoting": True}),
    ("svd", (A,), {"compute_uv": False}), ("svd", (A,), {}),
    ("svd", (np.stack([A, SYM]),), {"compute_uv": False}),
    ("triangular_solve", (A, RNG.standard_normal((3, 4))), {}),
    ("triangular_solve", (A, RNG.standard_normal((4, 3))),
     {"left_side": True, "lower": True, "transpose_a": True}),
    ("triangular_solve", (C, C[:, :3].copy()), {"left_side": True, "lower": True, "transpose_a": True,
                                               "conjugate_a": True}),
    ("triangular_solve", (C, C[:2].copy()), {"conjugate_a": True, "unit_diagonal": True}),
    ("triangular_solve", (np.stack([A, SYM]), RNG.standard_normal((2, 4, 2))), {"left_side": True}),
    ("tridiagonal_solve", (RNG.standard_normal(4), RNG.standard_normal(4) + 4, RNG.standard_normal(4),
                           RNG.standard_normal((4, 2))), {}),
    ("tridiagonal_solve", (RNG.standard_normal((2, 4)), RNG.standard_normal((2, 4)) + 4,
                           RNG.standard_normal((2, 4)), RNG.standard_normal((2, 4, 3))), {}),
    ("hessenberg", (A,), {}), ("hessenberg", (C,), {}), ("hessenberg", (np.stack([A, SYM]),), {}),
    ("tridiagonal", (SYM,), {}), ("tridiagonal", (SYM,), {"lower": False}), ("tridiagonal", (HERM,), {}),
    ("tridiagonal", (HERM,), {"lower": False}),
    ("householder_product", (RNG.standard_normal((5, 3)), RNG.standard_normal(2)), {}),
    ("householder_product", (RNG.standard_normal((2, 4, 4)), RNG.standard_normal((2, 3))), {}),
    ("ormqr", (RNG.standard_normal((4, 3)), RNG.standard_normal(2), RNG.standard_normal((4, 2))), {}),
    ("ormqr", (RNG.standard_normal((4, 3)), RNG.standard_normal(2), RNG.standard_normal((2, 4))),
     {"left": False, "transpose": True}),
    ("cholesky_update", (np.linalg.cholesky(SPD).T, RNG.standard_normal(4)), {}),
    ("symmetric_product", (A, SYM), {"alpha": 2.0, "beta": 3.0}),
]


@pytest.mark.parametrize("name,args,kw", LIVE_CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(LIVE_CASES)])
def test_matches_live_jax(name, args, kw):
    J = _jax_linalg()
    got, want = getattr(L, name)(*args, **kw), getattr(J, name)(*args, **kw)
    assert type(got) is type(want) or not isinstance(want, (list, tuple))
    got = got if isinstance(got, (list, tuple)) else [got]
    want = want if isinstance(want, (list, tuple)) else [want]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        g, w = np.asarray(g), np.asarray(w)
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, w.shape, g.dtype, w.dtype)
        if name in ("eigh", "svd") and not rounds_like_numpy() and g.ndim == 2:
            g = _same_phases_as(g, w)  # cuSOLVER's vectors: LAPACK's up to a sign or phase each
        np.testing.assert_allclose(g, w, rtol=1e-9, atol=1e-11)


def _same_phases_as(g, w):
    """``g``'s columns (or, for ``svd``'s ``vh``, rows) turned by the unit phase that best
    matches ``w``'s: singular and eigenvectors are defined up to one."""
    for axis in (0, 1):
        dots = (g.conj() * w).sum(axis=axis, keepdims=True)
        phase = np.where(np.abs(dots) > 0, dots / np.where(dots == 0, 1, np.abs(dots)), 1)
        turned = g * phase
        if np.allclose(turned, w, rtol=1e-9, atol=1e-11):
            return turned
    return g


def test_eig_and_schur_against_live_jax_and_invariants():
    w, vl, vr = L.eig(A)
    a = A.astype(complex)
    _close(a @ np.asarray(vr), np.asarray(vr) * np.asarray(w), atol=1e-12)
    _close(np.asarray(vl).conj().T @ a, np.asarray(w)[:, None] * np.asarray(vl).conj().T, atol=1e-12)
    _close(np.linalg.norm(np.asarray(vl), axis=0), np.ones(4))
    big = np.asarray(vl)[np.abs(np.asarray(vl)).argmax(axis=0), np.arange(4)]
    assert np.allclose(big.imag, 0, atol=1e-14)  # largest component real (LAPACK's normalization)
    t, z = L.schur(A)
    _close(np.asarray(z) @ np.asarray(t) @ np.asarray(z).T, A)
    J = _jax_linalg()
    jw, jvl, jvr = J.eig(A)
    _close(w, jw)
    # eigenvectors are unique up to a unit factor: compare the moduli
    _close(np.abs(np.asarray(vr)), np.abs(np.asarray(jvr)))
    _close(np.abs(np.asarray(vl)), np.abs(np.asarray(jvl)))
    _close(t, J.schur(A)[0])


def test_derivatives_finite_differences():
    spd = fnp.asarray(SPD)
    a = fnp.asarray(A)
    tri = fnp.asarray(np.triu(A) + 4 * np.eye(4))
    b = fnp.asarray(RNG.standard_normal((4, 2)))
    check_grads(lambda x: L.cholesky(x @ x.T + 4 * fnp.eye(4)), (a,), order=2, modes=("fwd", "rev"))
    check_grads(lambda x: L.eigh(x + x.T)[1], (a,), order=2, modes=("fwd", "rev"))
    # a gauge-invariant function of the eigenvectors
    check_grads(lambda x: fnp.abs(L.eigh(x + x.T)[0]) ** 2, (a,), order=1, modes=("fwd", "rev"))
    check_grads(lambda x: L.lu(x)[0], (a,), order=2, modes=("fwd", "rev"))
    check_grads(lambda x: L.qr(x)[1], (a,), order=1, modes=("fwd", "rev"))
    check_grads(lambda x: L.svd(x, compute_uv=False), (a,), order=2, modes=("fwd", "rev"))
    check_grads(lambda x, y: L.triangular_solve(x, y, left_side=True, lower=False, transpose_a=True),
                (tri, b), order=2, modes=("fwd", "rev"))
    check_grads(lambda x, y: L.triangular_solve(x, y.T, lower=False), (tri, b), order=1, modes=("fwd", "rev"))
    dl, d, du = (fnp.asarray(RNG.standard_normal(4)) for _ in range(3))
    check_grads(lambda dl, d, du, y: L.tridiagonal_solve(dl, d + 4, du, y), (dl, d, du, b), order=2,
                modes=("fwd", "rev"))
    check_grads(lambda x: L.hessenberg(x)[0], (a,), order=2, modes=("fwd", "rev"))
    check_grads(lambda x: L.tridiagonal(x + x.T)[1], (a,), order=2, modes=("fwd", "rev"))
    check_grads(lambda x, t: L.householder_product(x, t), (a, fnp.asarray([0.5, 1.2])), order=2,
                modes=("fwd", "rev"))
    check_grads(lambda x: L.cholesky_update(L.cholesky(spd).T, x[0]), (a,), order=1, modes=("fwd", "rev"))


def test_vmap_matches_loop_and_jit_matches_eager():
    xs = fnp.asarray(RNG.standard_normal((3, 4, 4)))
    funcs = [
        lambda x: L.cholesky(x @ x.T + fnp.eye(4)),
        lambda x: L.eigh(x + x.T)[1],
        lambda x: L.lu(x)[0],
        lambda x: L.qr(x)[1],
        lambda x: L.svd(x, compute_uv=False),
        lambda x: L.triangular_solve(x + 4 * fnp.eye(4), x[:, :2], left_side=True, lower=True),
        lambda x: L.hessenberg(x)[0],
        lambda x: L.tridiagonal(x + x.T)[0],
        lambda x: L.householder_product(x, x[0, :3]),
        lambda x: L.tridiagonal_solve(x[0], x[1] + 4, x[2], x[:, :2]),
    ]
    for f in funcs:
        loop = np.stack([np.asarray(f(xs[i])) for i in range(3)])
        _close(fgrad.vmap(f)(xs), loop, rtol=1e-12)
        _close(fgrad.jit(f)(xs[0]), f(xs[0]), rtol=1e-12)


def test_importable_as_jax_lax_linalg_under_the_alias(tmp_path):
    script = tmp_path / "prog.py"
    script.write_text(textwrap.dedent("""
        import jax
        import jax.lax.linalg
        from jax.lax import linalg
        from jax.lax.linalg import eigh
        import fgrad
        assert jax.lax.linalg is linalg is fgrad.lax.linalg and eigh is linalg.eigh
        print("ok")
    """))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([os.getcwd(), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-m", "fgrad.jax_alias", str(script)], capture_output=True,
                         text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


# -- rectangular LU (JAX factors (m, n) matrices: L is m x k, U is k x n, k = min(m, n)) --------

TALL = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]])


@pytest.mark.parametrize("a, lu_jax, piv_jax, perm_jax, grad_jax", [
    (TALL, [[5.0, 7.0], [0.2, 0.6], [0.6, -0.3333333333]], [2, 2], [2, 0, 1],
     [[-1.6944230591, 1.3503116962], [-2.0398324184, 1.5749282439], [1.8464462483, -0.4611170312]]),
    (TALL.T, [[2.0, 4.0, 7.0], [0.5, 1.0, 1.5]], [1, 1], [1, 0],
     [[-0.8893935366, 0.5403023059, 0.0707372017], [0.0285499318, -0.9237947738, 0.7185336535]]),
], ids=["tall", "wide"])
def test_rectangular_lu_matches_stored_jax(a, lu_jax, piv_jax, perm_jax, grad_jax):
    """JAX 0.10.2 (x64): factors, pivots, permutation and grad of sum(sin(lu)); was a
    NotImplementedError."""
    packed, piv, perm = L.lu(fnp.asarray(a))
    _close(packed, lu_jax, rtol=1e-9)
    assert piv.tolist() == piv_jax and perm.tolist() == perm_jax
    assert piv.dtype == np.int32 and perm.dtype == np.int32
    g = fgrad.grad(lambda x: fnp.sum(fnp.sin(L.lu(x)[0])))(fnp.asarray(a))
    _close(g, grad_jax, rtol=1e-8)  # (stored to 10 decimals)


@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 2), (2, 2, 4)])
def test_rectangular_lu_reconstructs_and_differentiates(shape):
    a = RNG.standard_normal(shape)
    packed, piv, perm = L.lu(fnp.asarray(a))
    m, n = shape[-2:]
    k = min(m, n)
    p = np.asarray(packed)
    lower = np.tril(p[..., :, :k], -1) + np.eye(m, k)
    upper = np.triu(p[..., :k, :])
    permuted = np.take_along_axis(a, np.asarray(perm)[..., :, None], axis=-2)
    _close(lower @ upper, permuted)
    assert piv.shape == shape[:-2] + (k,) and perm.shape == shape[:-2] + (m,)
    # finite differences, orders 1 and 2, forward and reverse
    check_grads(lambda x: L.lu(x)[0], (fnp.asarray(a),), order=2, modes=["fwd", "rev"])
    # vmap over a batch equals the loop; jit equals eager
    batch = RNG.standard_normal((3,) + shape)
    looped = np.stack([np.asarray(L.lu(fnp.asarray(b))[0]) for b in batch])
    _close(fgrad.vmap(lambda x: L.lu(x)[0])(fnp.asarray(batch)), looped)
    _close(fgrad.jit(lambda x: L.lu(x)[0])(fnp.asarray(a)), packed)


@pytest.mark.parametrize("shape", [(5, 3), (3, 5)])
def test_rectangular_lu_live_jax(shape):
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    a = RNG.standard_normal(shape)
    ct = RNG.standard_normal(shape)
    with jax.enable_x64(True):
        ref = [np.asarray(v) for v in jax.lax.linalg.lu(jnp.asarray(a))]
        g_ref = jax.grad(lambda x: jnp.sum(jax.lax.linalg.lu(x)[0] * ct))(jnp.asarray(a))
    ours = L.lu(fnp.asarray(a))
    for x, y in zip(ours, ref):
        _close(x, y)
    _close(fgrad.grad(lambda x: fnp.sum(L.lu(x)[0] * ct))(fnp.asarray(a)), g_ref)


@pytest.mark.parametrize("shape", [(5, 3), (3, 5)])
@pytest.mark.parametrize("permute_l", [False, True])
def test_scipy_lu_rectangular(shape, permute_l):
    """``fgrad.scipy.linalg.lu`` of an m x n matrix: p (m x m), l (m x k), u (k x n) as
    SciPy and JAX (was NotImplementedError)."""
    from fgrad.scipy import linalg as SL
    a = RNG.standard_normal(shape)
    m, n = shape
    k = min(m, n)
    out = SL.lu(fnp.asarray(a), permute_l=permute_l)
    if permute_l:
        pl, u = out
        assert pl.shape == (m, k) and u.shape == (k, n)
        _close(np.asarray(pl) @ np.asarray(u), a)
    else:
        p, lo, u = out
        assert p.shape == (m, m) and lo.shape == (m, k) and u.shape == (k, n)
        _close(np.asarray(p) @ np.asarray(lo) @ np.asarray(u), a)
        scipy_linalg = pytest.importorskip("scipy.linalg")
        for x, y in zip(out, scipy_linalg.lu(a)):
            _close(x, y)


# session 16 (JAX's docstring examples: lax.linalg.ormqr's): jnp.linalg.qr(a, mode="raw") -- the
# Householder form (h transposed, taus) ormqr/householder_product take -- and mode="full";
# snippets and JAX 0.10.2's output in tests/stored/jax_docstring_fixes.json
from jax_snippets import snippet_tests  # noqa: E402

test_jax_qr_raw, test_jax_qr_raw_live = snippet_tests("qr_raw")


def test_qr_raw_is_numpys_householder_form_and_differentiable():
    """``qr(mode="raw")`` equals NumPy's (float64) and its gradient matches finite differences."""
    import fgrad
    import fgrad.numpy as fnp

    a = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    h, taus = fnp.linalg.qr(a, mode="raw")
    nh, ntaus = np.linalg.qr(a, mode="raw")
    np.testing.assert_allclose(np.asarray(h), nh, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(taus), ntaus, rtol=1e-12)
    f = lambda x: fnp.sum(fnp.linalg.qr(x, mode="raw")[0] * fnp.arange(6.0).reshape(2, 3))  # noqa: E731
    g = np.asarray(fgrad.grad(f)(fnp.asarray(a)))
    eps, d = 1e-6, np.zeros_like(a)
    d[1, 0] = 1.0
    fd = (float(f(fnp.asarray(a + eps * d))) - float(f(fnp.asarray(a - eps * d)))) / (2 * eps)
    np.testing.assert_allclose(g[1, 0], fd, rtol=1e-6)
