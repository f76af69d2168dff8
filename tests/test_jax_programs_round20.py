"""Round 20 of the JAX programs (tests/jax_programs_round20/): soft-DTW by nested
``lax.scan``, Black-Scholes Greeks and implied volatility by ``custom_jvp`` + ``while_loop``,
a variational quantum eigensolver on complex state vectors, P1 finite elements assembled by
scatter-add and solved by ``cg``, growing neural cellular automata, Laplace-approximation GP
classification through ``custom_root``, rank-revealing QR, the Kuramoto model, 1-D shallow
water with data assimilation and wavelet denoising (docs/jax-programs-round20.md) -- run
unchanged with ``import jax`` resolved to fgrad (``python -m fgrad.jax_alias``), in JAX's
default 32-bit mode and with ``JAX_ENABLE_X64=1``, their output compared with JAX 0.10.2's
(stored in ``jax_programs_round20/expected/``; live JAX in the slow tests), as in round 8
(`test_jax_programs_round8.same_output`).

The default run runs one program in 32-bit mode; ``pytest tests/test_jax_programs_round20.py
-m slow`` runs all of them in both modes.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from test_jax_programs_round8 import program_tests

PROGRAMS = Path(__file__).resolve().parent / "jax_programs_round20"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py"))
FAST = {"quantum_vqe"}  # the default run's program (32-bit mode, ~2 s)
RTOL_PROGRAM: dict = {}

(
    test_program_prints_what_jax_prints_32bit,
    test_program_prints_what_jax_prints,
    test_stored_output_is_live_jax,
    test_every_program_has_stored_outputs_and_no_fgrad_import,
) = program_tests(PROGRAMS, NAMES, FAST, RTOL_PROGRAM, 10)


# ---- regression tests of what the programs found ----------------------------------------------

_A = [[4.0, 1.0, 0.5], [1.4, 3.0, 0.2], [0.1, 0.7, 2.0]]  # not symmetric
# JAX 0.10.2 (x64): jax.scipy.linalg.cholesky(_A, lower=...) -- only that triangle is read
_CHOL = {False: [[2.0, 0.5, 0.25], [0.0, 1.6583123951777, 0.04522670168666455],
                 [0.0, 0.0, 1.391206147720224]],
         True: [[2.0, 0.0, 0.0], [0.7, 1.584297951775486, 0.0],
                [0.05, 0.41974427806003906, 1.3495609438020413]]}


def _cholesky_factors(linalg, jnp):
    a = jnp.asarray(_A)
    return {lower: np.asarray(linalg.cholesky(a, lower=lower)) for lower in (False, True)}


@pytest.mark.parametrize("lower", [False, True])
def test_scipy_cholesky_reads_one_triangle_as_jax(lower):
    """gp_laplace_classification.py / rank_revealing_qr.py (``cho_factor(B)``, SciPy's default
    upper factor): fgrad's ``scipy.linalg.cholesky``/``cho_factor`` factored the symmetrized
    ``(a + a^T) / 2``; SciPy and JAX read only the requested triangle, so a matrix with
    anything else in the other triangle (round-off of a Gram matrix, or garbage, as LAPACK
    allows) gave other factors, silently.  The derivative is that of the function computed:
    along a symmetric direction it is JAX's; entries of the unread triangle get none."""
    import fgrad.scipy.linalg as sla
    with fgrad.enable_x64(True):
        got = _cholesky_factors(sla, fnp)[lower]
        np.testing.assert_allclose(got, _CHOL[lower], rtol=1e-14, atol=1e-15)
        a = fnp.asarray(_A)
        garbage = fnp.tril(fnp.full((3, 3), 7.0), -1) if not lower else fnp.triu(fnp.full((3, 3), 7.0), 1)
        keep = fnp.triu(a) if not lower else fnp.tril(a)
        np.testing.assert_array_equal(np.asarray(sla.cholesky(keep + garbage, lower=lower)), got)
        # derivatives against central differences, along a symmetric and a general direction
        w = fnp.arange(9.0).reshape(3, 3)
        f = lambda m: fnp.sum(sla.cho_solve(sla.cho_factor(m, lower=lower), fnp.ones(3)) * w[0])
        g = np.asarray(fgrad.grad(f)(a))
        rng = np.random.default_rng(0)
        for d in (rng.normal(size=(3, 3)), None):
            d = fnp.asarray(d if d is not None else (lambda s: s + s.T)(rng.normal(size=(3, 3))))
            fd = (f(a + 1e-6 * d) - f(a - 1e-6 * d)) / 2e-6
            np.testing.assert_allclose(np.sum(g * np.asarray(d)), float(fd), rtol=1e-6)
        unread = np.tril(g, -1) if not lower else np.triu(g, 1)
        assert not unread.any()


def test_scipy_cholesky_one_triangle_live_jax():
    jax = pytest.importorskip("jax")
    with jax.enable_x64(True):
        got = _cholesky_factors(jax.scipy.linalg, jax.numpy)
    for lower in (False, True):
        np.testing.assert_allclose(got[lower], _CHOL[lower], rtol=1e-14, atol=1e-15)


_QR_A = [[1.0, 2.0, 0.5], [0.5, 4.0, 1.0], [2.0, 1.0, 3.0], [1.0, 1.0, 1.0]]
# JAX 0.10.2 (x64): jax.scipy.linalg.qr(_QR_A, pivoting=True) -> p, diag(r)
_QR_P = [1, 2, 0]
_QR_DIAG = [-4.69041575982343, 2.7510328638861834, 0.7326573460948762]


def test_scipy_qr_pivoting_as_jax():
    """rank_revealing_qr.py (``jax.scipy.linalg.qr(a, pivoting=True)``, column subset
    selection): fgrad raised NotImplementedError (and ``qr_multiply(..., pivoting=True)``
    too), although ``lax.linalg.qr`` had the pivoted factorization."""
    import fgrad.scipy.linalg as sla
    with fgrad.enable_x64(True):
        a = fnp.asarray(_QR_A)
        q, r, p = sla.qr(a, pivoting=True)
        assert q.shape == (4, 4) and r.shape == (4, 3) and p.dtype == np.int32
        assert p.tolist() == _QR_P
        np.testing.assert_allclose(np.diag(np.asarray(r)), _QR_DIAG, rtol=1e-13)
        np.testing.assert_allclose(np.asarray(a)[:, _QR_P], np.asarray(q @ r), atol=1e-13)
        qe, re, pe = sla.qr(a, mode="economic", pivoting=True)
        rr, pr = sla.qr(a, mode="r", pivoting=True)
        assert qe.shape == (4, 3) and re.shape == (3, 3) and pe.tolist() == pr.tolist() == _QR_P
        np.testing.assert_allclose(np.asarray(rr), np.asarray(r), atol=1e-13)
        b = fnp.asarray([1.0, 2.0, 0.0, -1.0])
        cq, r2, p2 = sla.qr_multiply(a, b, pivoting=True)
        np.testing.assert_allclose(np.asarray(cq), np.asarray(b @ qe), atol=1e-13)
        assert p2.tolist() == _QR_P


def test_scipy_qr_pivoting_live_jax():
    jax = pytest.importorskip("jax")
    with jax.enable_x64(True):
        q, r, p = jax.scipy.linalg.qr(jax.numpy.asarray(_QR_A), pivoting=True)
    assert np.asarray(p).tolist() == _QR_P
    np.testing.assert_allclose(np.diag(np.asarray(r)), _QR_DIAG, rtol=1e-13)


def _newton_root_grad(jax_like, jnp):
    """d/dk of the root of x + k x**3 - 1, found by a Newton solver that closes over k
    (not over the residual it is given) -- as gp_laplace_classification.py's mode finder
    closes over the kernel matrix."""
    lax = jax_like.lax

    def root(k):
        def residual(x):
            return x + k * x**3 - 1.0

        def solve(_, x0):
            return lax.fori_loop(0, 30, lambda i, x: x - (x + k * x**3 - 1.0) / (1.0 + 3 * k * x**2), x0)

        return lax.custom_root(residual, 0.5, solve, lambda g, y: y / g(1.0))

    return float(root(0.7)), float(jax_like.grad(root)(0.7)), float(jax_like.jit(jax_like.grad(root))(0.7))


def test_custom_root_solver_may_close_over_outer_tracers():
    """gp_laplace_classification.py (``lax.custom_root`` whose ``solve`` runs Newton's method
    with the kernel matrix of the enclosing ``grad``): fgrad called the solver with the outer
    transform's tracers inside its rule's primal evaluation and raised UnexpectedTracerError.
    The solver's closed-over values are now explicit (derivative-free) operands, as in JAX;
    the derivative is the implicit-function one: dx/dk = -x^3 / (1 + 3 k x^2)."""
    with fgrad.enable_x64(True):
        x, dx, dx_jit = _newton_root_grad(fgrad, fnp)
    assert abs(x + 0.7 * x**3 - 1.0) < 1e-14
    np.testing.assert_allclose([dx, dx_jit], -x**3 / (1 + 3 * 0.7 * x**2), rtol=1e-12)


def test_custom_root_solver_closure_live_jax():
    jax = pytest.importorskip("jax")
    with jax.enable_x64(True):
        want = _newton_root_grad(jax, jax.numpy)
    with fgrad.enable_x64(True):
        got = _newton_root_grad(fgrad, fnp)
    np.testing.assert_allclose(got, want, rtol=1e-12)
