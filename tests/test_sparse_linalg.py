"""fgrad.lax.custom_linear_solve and fgrad.scipy.sparse.linalg (cg, bicgstab, gmres): values
against dense solves (and live JAX), implicit derivatives against the dense solve's and finite
differences, pytrees, preconditioners, vmap and jit."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad.lax import custom_linear_solve, while_loop
from fgrad.scipy.sparse.linalg import bicgstab, cg, gmres
from fgrad.testing import check_grads

RNG = np.random.default_rng(7)
N = 5
_Q = RNG.normal(size=(N, N))
SPD = _Q @ _Q.T + N * np.eye(N)
GEN = RNG.normal(size=(N, N)) + N * np.eye(N)
B = RNG.normal(size=N)
SOLVERS = [("cg", cg, SPD), ("bicgstab", bicgstab, GEN), ("gmres", gmres, GEN)]


def _close(a, b, tol=1e-10):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=tol, atol=tol)


def _dense(a):
    return lambda mv, r: fnp.linalg.solve(a, r)


def test_custom_linear_solve_derivatives():
    a = fnp.asarray(GEN)

    def f(a, b):
        return custom_linear_solve(lambda x: a @ x, b, _dense(a), lambda vm, r: fnp.linalg.solve(a.T, r))

    _close(f(a, B), np.linalg.solve(GEN, B))
    check_grads(f, [a, fnp.asarray(B)], order=2, modes=("fwd", "rev"), atol=1e-6, rtol=1e-6)
    ga = fgrad.grad(lambda a, b: fnp.sum(f(a, b) ** 3), argnums=(0, 1))(a, fnp.asarray(B))
    gd = fgrad.grad(lambda a, b: fnp.sum(fnp.linalg.solve(a, b) ** 3), argnums=(0, 1))(a, fnp.asarray(B))
    for x, y in zip(ga, gd):
        _close(x, y)


def test_custom_linear_solve_with_integer_constants():
    """matvec may capture integer arrays (indices): they get no tangent."""
    a, perm = fnp.asarray(GEN), fnp.asarray(np.arange(N)[::-1])

    def f(a, b):
        return custom_linear_solve(lambda x: (a @ x)[perm][perm], b, _dense(a),
                                   lambda vm, r: fnp.linalg.solve(a.T, r))

    got = fgrad.grad(lambda a: fnp.sum(f(a, fnp.asarray(B)) ** 2))(a)
    _close(got, fgrad.grad(lambda a: fnp.sum(fnp.linalg.solve(a, fnp.asarray(B)) ** 2))(a))


def test_custom_linear_solve_never_differentiates_the_solver():
    """The solver is a while_loop (no reverse mode of its own): reverse mode still works."""
    a = fnp.asarray(np.diag([2.0, 4.0, 5.0]))

    def jacobi(mv, r):
        d = fnp.diagonal(a)
        return while_loop(lambda s: s[1] < 50, lambda s: (s[0] + (r - mv(s[0])) / d, s[1] + 1),
                          (fnp.zeros_like(r), 0))[0]

    f = lambda b: custom_linear_solve(lambda x: a @ x, b, jacobi, symmetric=True)  # noqa: E731
    _close(fgrad.grad(lambda b: fnp.sum(f(b)))(fnp.ones(3)), [0.5, 0.25, 0.2])


def test_custom_linear_solve_errors():
    with pytest.raises(TypeError, match="transpose_solve"):
        fgrad.grad(lambda b: fnp.sum(custom_linear_solve(lambda x: 2.0 * x, b, lambda mv, r: r / 2.0)))(
            fnp.ones(2))
    with pytest.raises(TypeError, match="matvec"):
        custom_linear_solve(lambda x: x[:1], fnp.ones(2), lambda mv, r: r)


@pytest.mark.parametrize("name,solver,mat", SOLVERS)
def test_values_and_implicit_gradients(name, solver, mat):
    a, b = fnp.asarray(mat), fnp.asarray(B)
    _close(solver(a, b, tol=1e-12)[0], np.linalg.solve(mat, B), 1e-9)
    # matvec as a function closing over `a`: derivatives in a and b are implicit
    loss = lambda a, b: fnp.sum(solver(lambda x: a @ x, b, tol=1e-12)[0] ** 2)  # noqa: E731
    ref = lambda a, b: fnp.sum(fnp.linalg.solve(a, b) ** 2)  # noqa: E731
    for got, want in zip(fgrad.grad(loss, argnums=(0, 1))(a, b), fgrad.grad(ref, argnums=(0, 1))(a, b)):
        _close(got, want, 1e-8)
    _close(fgrad.jvp(lambda b: solver(a, b, tol=1e-12)[0], (b,), (b,))[1], np.linalg.solve(mat, B), 1e-9)
    check_grads(lambda a, b: solver(a, b, tol=1e-13)[0], [a, b], order=2, modes=("fwd", "rev"),
                atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("name,solver,mat", SOLVERS)
def test_pytrees_preconditioner_vmap_jit(name, solver, mat):
    a = fnp.asarray(mat)
    d = np.diag(mat)

    def op(t):
        x = fnp.concatenate([t["u"], t["v"]])
        y = a @ x
        return {"u": y[:2], "v": y[2:]}

    b = {"u": fnp.asarray(B[:2]), "v": fnp.asarray(B[2:])}
    precond = lambda t: {"u": t["u"] / d[:2], "v": t["v"] / d[2:]}  # noqa: E731
    x = solver(op, b, tol=1e-12, M=precond)[0]
    _close(fnp.concatenate([x["u"], x["v"]]), np.linalg.solve(mat, B), 1e-9)
    x0 = {"u": fnp.ones(2), "v": fnp.ones(3)}
    x = solver(op, b, x0, tol=1e-12)[0]
    _close(fnp.concatenate([x["u"], x["v"]]), np.linalg.solve(mat, B), 1e-9)
    bs = RNG.normal(size=(3, N))
    _close(fgrad.vmap(lambda r: solver(a, r, tol=1e-12)[0])(fnp.asarray(bs)), np.linalg.solve(mat, bs.T).T,
           1e-9)
    mats = np.stack([mat, mat + np.eye(N), 2 * mat])
    _close(fgrad.vmap(lambda m: solver(m, fnp.asarray(B), tol=1e-12)[0])(fnp.asarray(mats)),
           np.stack([np.linalg.solve(m, B) for m in mats]), 1e-9)
    _close(fgrad.jit(lambda a, b: solver(a, b, tol=1e-12)[0])(a, fnp.asarray(B)), np.linalg.solve(mat, B),
           1e-9)


def test_tolerances_and_maxiter():
    a, b = fnp.asarray(GEN), fnp.asarray(B)
    exact = np.linalg.solve(GEN, B)
    one_step = np.asarray(bicgstab(a, b, maxiter=1)[0])
    assert np.abs(one_step - exact).max() > 1e-6           # maxiter bounds the work
    loose = np.asarray(cg(fnp.asarray(SPD), b, tol=1e-2)[0])
    r = np.linalg.norm(SPD @ loose - B)
    assert r <= 1e-2 * np.linalg.norm(B) and r > 1e-12     # stops at SciPy's rule, not before
    x, info = gmres(a, b, restart=2, maxiter=200, tol=1e-12)
    _close(x, exact, 1e-9)
    assert int(info) == 0
    big_atol = np.asarray(cg(fnp.asarray(SPD), b, atol=1e3)[0])
    _close(big_atol, np.zeros(N), 0.0)                     # already within atol: x0 returned


def test_complex_cg_and_gmres():
    h = SPD + 1j * (np.triu(np.ones((N, N)), 1) - np.tril(np.ones((N, N)), -1))   # Hermitian PD
    bc = B + 1j * B[::-1]
    _close(cg(fnp.asarray(h), fnp.asarray(bc), tol=1e-12)[0], np.linalg.solve(h, bc), 1e-9)
    g = GEN + 1j * np.eye(N)
    _close(gmres(fnp.asarray(g), fnp.asarray(bc), tol=1e-12)[0], np.linalg.solve(g, bc), 1e-9)
    _close(bicgstab(fnp.asarray(g), fnp.asarray(bc), tol=1e-12)[0], np.linalg.solve(g, bc), 1e-9)


def test_errors():
    with pytest.raises(ValueError, match="square matrix"):
        cg(fnp.ones((2, 3)), fnp.ones(2))
    with pytest.raises(ValueError, match="matching shapes"):
        cg(fnp.eye(2), fnp.ones(2), fnp.ones(3))
    with pytest.raises(ValueError, match="solve_method"):
        gmres(fnp.eye(2), fnp.ones(2), solve_method="other")
    with pytest.raises(TypeError, match="function or a matrix"):
        cg(3, fnp.ones(2))


def test_vs_jax():
    jsl = pytest.importorskip("jax.scipy.sparse.linalg")
    import jax
    jax.config.update("jax_enable_x64", True)
    for name, solver, mat in SOLVERS:
        want = getattr(jsl, name)(mat, B, tol=1e-12)[0]
        _close(solver(fnp.asarray(mat), fnp.asarray(B), tol=1e-12)[0], want, 1e-9)
        g_want = jax.grad(lambda a: (getattr(jsl, name)(a, B, tol=1e-12)[0] ** 2).sum())(mat)
        g = fgrad.grad(lambda a: fnp.sum(solver(a, fnp.asarray(B), tol=1e-12)[0] ** 2))(fnp.asarray(mat))
        _close(g, g_want, 1e-8)
