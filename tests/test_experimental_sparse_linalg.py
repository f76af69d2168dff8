"""`fgrad.experimental.sparse.linalg` (JAX's ``jax.experimental.sparse.linalg``): `spsolve`
against dense solves, finite differences and JAX 0.10.2's numbers (stored, live when JAX is
installed), with duplicates and padding JAX's CPU path rejects, ``vmap`` against a loop and
JAX's errors; `lobpcg_standard` against ``eigh`` and JAX's eigenvalues, eigenvectors and
iteration counts, for dense, sparse and callable operators."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad.experimental import sparse
from fgrad.experimental.sparse.linalg import lobpcg_standard, spsolve

# a 5 x 5 CSR system with sorted, duplicate-free rows (JAX's CPU path hands it to SciPy)
DATA = [4.0, 1.5, 3.0, 1.0, 2.0, 5.0, -1.0, 0.25, 2.5, 9.0]
INDICES = [0, 2, 1, 3, 0, 2, 1, 3, 3, 4]
INDPTR = [0, 2, 4, 6, 8, 10]
B = [1.0, -2.0, 0.5, 3.0, 1.5]
TANGENT = np.linspace(0, 1, 10)

# JAX 0.10.2 (x64) on the system above: the solution, grad of sum(sin(x)) in data and b, and
# the JVP in data along TANGENT
STORED_SPSOLVE = {
    "x": [0.25, -2.0, 0.0, 4.000000000000001, -0.9444444444444448],
    "grad_data": [-0.041831795714017996, -0.0, -1.0520134135486985, 2.1040268270973974, -0.0374504612857946,
                  -0.0, -2.3237465675518107, 4.647493135103622, -0.26053025096754295, 0.061514087034003205],
    "grad_b": [0.16732718285607198, -0.5260067067743492, 0.1498018451431784, -1.1618732837759054,
               0.06513256274188572],
    "jvp_data": [0.00980392156862745, 0.8888888888888893, -0.0261437908496732, -3.555555555555557,
                 0.6975308641975313],
}

# JAX 0.10.2 (x64): lobpcg_standard(A, X) on _lobpcg_problem: eigenvalues, iterations, the
# eigenvectors' last four rows (signs fixed), and the eigenvalues after m=3 iterations
STORED_LOBPCG = {
    "theta": [15.722605273314933, 14.82482311084212], "iterations": 51,
    "U_tail": [[0.007392419362354332, 0.06972546179635282], [0.06005177034518558, 0.35517243363980827],
               [0.3314984832720638, 0.8717319662374474], [0.9415133612699204, -0.3301369631507782]],
    "theta_m3": [15.014806198243386, 14.037739655403602], "iterations_m3": 3,
}


def _spsolve_results(jax, jnp, spsolve_fn) -> dict:
    data, indices, indptr, b = (jnp.asarray(np.asarray(a)) for a in (DATA, INDICES, INDPTR, B))
    solve = lambda d, r: spsolve_fn(d, indices, indptr, r)  # noqa: E731
    return {
        "x": solve(data, b).tolist(),
        "grad_data": jax.grad(lambda d: jnp.sum(jnp.sin(solve(d, b))))(data).tolist(),
        "grad_b": jax.grad(lambda r: jnp.sum(jnp.sin(solve(data, r))))(b).tolist(),
        "jvp_data": jax.jvp(lambda d: solve(d, b), (data,), (jnp.asarray(TANGENT),))[1].tolist(),
    }


def _lobpcg_problem(jnp):
    """A tridiagonal 30 x 30 matrix with well-separated top eigenvalues and two start vectors."""
    n = 30
    diagonal = jnp.arange(n, dtype=jnp.float64) ** 1.5 / 10
    off = 0.3 * jnp.ones(n - 1, dtype=jnp.float64)
    a = jnp.diag(diagonal) + jnp.diag(off, 1) + jnp.diag(off, -1)
    return a, jnp.cos(jnp.arange(2 * n, dtype=jnp.float64).reshape(n, 2))


def _lobpcg_results(jnp, lobpcg) -> dict:
    a, x = _lobpcg_problem(jnp)
    theta, u, i = lobpcg(a, x)
    u = u * jnp.sign(u[jnp.argmax(jnp.abs(u), axis=0), jnp.arange(2)])
    theta3, _, i3 = lobpcg(a, x, m=3)
    return {"theta": theta.tolist(), "iterations": int(i), "U_tail": u[-4:].tolist(),
            "theta_m3": theta3.tolist(), "iterations_m3": int(i3)}


def _close(got: dict, want: dict, rtol: float = 1e-10) -> None:
    for key, value in want.items():
        if isinstance(value, int):
            assert got[key] == value, key
        else:
            np.testing.assert_allclose(got[key], value, rtol=rtol, atol=1e-12, err_msg=key)


# ---- spsolve ----------------------------------------------------------------------------------


def test_spsolve_matches_stored_jax():
    _close(_spsolve_results(fgrad, fnp, spsolve), STORED_SPSOLVE)


def test_spsolve_stored_numbers_are_live_jax():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    from jax.experimental.sparse.linalg import spsolve as jax_spsolve

    _close(_spsolve_results(jax, jax.numpy, jax_spsolve), STORED_SPSOLVE)


def _dense(data, indices, indptr, n):
    a = np.zeros((n, n))
    for row in range(n):
        for p in range(indptr[row], indptr[row + 1]):
            a[row, indices[p]] += data[p]
    return a


def test_spsolve_solves_the_dense_system_and_its_derivatives_are_finite_differences():
    a = _dense(DATA, INDICES, INDPTR, 5)
    data, indices, indptr, b = (fnp.asarray(np.asarray(v)) for v in (DATA, INDICES, INDPTR, B))
    x = spsolve(data, indices, indptr, b)
    np.testing.assert_allclose(np.asarray(x), np.linalg.solve(a, B), rtol=1e-12)
    f = lambda d: fnp.sum(fnp.sin(spsolve(d, indices, indptr, b)) * fnp.arange(5.0))  # noqa: E731
    g = np.asarray(fgrad.grad(f)(data))
    eps = 1e-6
    for p in range(len(DATA)):
        bump = np.zeros(len(DATA))
        bump[p] = eps
        fd = (float(f(data + bump)) - float(f(data - bump))) / (2 * eps)
        assert abs(g[p] - fd) < 1e-7 * (1 + abs(fd))
    # d x / d b = A^-1: the Jacobian in b
    jac = np.asarray(fgrad.jacrev(lambda r: spsolve(data, indices, indptr, r))(b))
    np.testing.assert_allclose(jac, np.linalg.inv(a), rtol=1e-10, atol=1e-12)


def test_spsolve_sums_duplicates_and_ignores_padding_as_scipy_does():
    # JAX 0.10.2 hands these buffers to SciPy, which fails on them ("WRITEBACKIFCOPY base is
    # read-only"); SciPy's csr_matrix semantics: duplicates add up, entries past indptr[-1] are
    # not part of the matrix
    data = [4.0, 1.0, 0.5, 3.0, 2.0, 5.0, 7.0]  # (0, 2) stored twice; the last entry is padding
    indices = [0, 2, 2, 1, 0, 2, 1]
    indptr = [0, 3, 4, 6]
    a = _dense(data, indices, indptr, 3)
    b = np.array([1.0, 2.0, 3.0])
    args = [fnp.asarray(np.asarray(v)) for v in (data, indices, indptr)]
    np.testing.assert_allclose(np.asarray(spsolve(*args, fnp.asarray(b))), np.linalg.solve(a, b), rtol=1e-12)
    g = np.asarray(fgrad.grad(lambda d: spsolve(d, *args[1:], fnp.asarray(b))[0])(args[0]))
    assert g[-1] == 0.0 and g[1] == g[2]  # padding has no influence; both copies of (0, 2) the same


def test_spsolve_under_jit_and_vmap_matches_a_loop():
    data, indices, indptr = (fnp.asarray(np.asarray(v)) for v in (DATA, INDICES, INDPTR))
    rhs = fnp.asarray(np.random.RandomState(0).normal(size=(4, 5)))
    batched = fgrad.vmap(lambda r: spsolve(data, indices, indptr, r))(rhs)
    looped = np.stack([np.asarray(spsolve(data, indices, indptr, r)) for r in rhs])
    np.testing.assert_allclose(np.asarray(batched), looped, rtol=1e-12)
    scales = fnp.asarray([1.0, 2.0, 0.5])
    batched = fgrad.vmap(lambda s: spsolve(s * data, indices, indptr, rhs[0]))(scales)
    want = looped[0][None, :] / np.asarray(scales)[:, None]
    np.testing.assert_allclose(np.asarray(batched), want, rtol=1e-12)
    jitted = fgrad.jit(spsolve, static_argnames=("reorder",))(data, indices, indptr, rhs[1], reorder=0)
    np.testing.assert_allclose(np.asarray(jitted), looped[1], rtol=1e-12)


def test_spsolve_keeps_float32():
    data, indices, indptr, b = (fnp.asarray(np.asarray(v)) for v in (DATA, INDICES, INDPTR, B))
    x = spsolve(data.astype(np.float32), indices, indptr, b.astype(np.float32))
    assert x.dtype == np.float32
    np.testing.assert_allclose(np.asarray(x), STORED_SPSOLVE["x"], rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("case, match", [
    ("dtype", "data types do not match"),
    ("float_indices", "index arrays must be integer"),
    ("two_d", "one-dimensional"),
    ("indptr_size", "invalid CSR buffer sizes"),
    ("reorder", "reorder=7 not valid"),
])
def test_spsolve_bad_input_raises_jax_s_value_error(case, match):
    data, indices, indptr, b = (fnp.asarray(np.asarray(v)) for v in (DATA, INDICES, INDPTR, B))
    args = {"dtype": (data, indices, indptr, b.astype(np.float32)),
            "float_indices": (data, indices.astype(float), indptr, b),
            "two_d": (data[None], indices[None], indptr, b),
            "indptr_size": (data, indices, indptr[:-1], b),
            "reorder": (data, indices, indptr, b)}[case]
    with pytest.raises(ValueError, match=match) as info:
        spsolve(*args, reorder=7 if case == "reorder" else 1)
    assert "spsolve" in str(info.value)


# ---- lobpcg_standard --------------------------------------------------------------------------


def test_lobpcg_matches_stored_jax():
    _close(_lobpcg_results(fnp, lobpcg_standard), STORED_LOBPCG, rtol=1e-9)


def test_lobpcg_stored_numbers_are_live_jax():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    from jax.experimental.sparse.linalg import lobpcg_standard as jax_lobpcg

    _close(_lobpcg_results(jax.numpy, jax_lobpcg), STORED_LOBPCG, rtol=1e-9)


def test_lobpcg_finds_eigh_s_top_eigenpairs_for_dense_sparse_and_callable_operators():
    a, x = _lobpcg_problem(fnp)
    w, v = np.linalg.eigh(np.asarray(a))
    for operator in (a, sparse.BCOO.fromdense(a), sparse.BCSR.fromdense(a), lambda m: a @ m):
        theta, u, i = lobpcg_standard(operator, x)
        np.testing.assert_allclose(np.asarray(theta), w[::-1][:2], rtol=1e-12)
        overlap = np.abs(np.asarray(u).T @ v[:, ::-1][:, :2])
        np.testing.assert_allclose(overlap, np.eye(2), atol=1e-7)
        resid = np.asarray(a @ u - u * theta)
        assert np.linalg.norm(resid, axis=0).max() < 1e-9
        assert int(i) == STORED_LOBPCG["iterations"]


def test_lobpcg_float32_and_jit():
    a, x = _lobpcg_problem(fnp)
    solve = fgrad.jit(lambda m, v: lobpcg_standard(m, v, m=200))
    theta, u, _ = solve(a.astype(np.float32), x.astype(np.float32))
    assert theta.dtype == u.dtype == np.float32
    np.testing.assert_allclose(np.asarray(theta), STORED_LOBPCG["theta"], rtol=1e-5)


@pytest.mark.parametrize("case, match", [
    ("k0", "search dim > 0"),
    ("k_large", r"search dim \* 5 < matrix dim"),
    ("dtype", "same dtypes"),
    ("shape", "matrix A, got output"),
])
def test_lobpcg_bad_input_raises_jax_s_value_error(case, match):
    a, x = _lobpcg_problem(fnp)
    operator, start = {"k0": (a, x[:, :0]), "k_large": (a, fnp.ones((30, 6))),
                       "dtype": (a, x.astype(np.float32)), "shape": (lambda m: m[:-1], x)}[case]
    with pytest.raises(ValueError, match=match) as info:
        lobpcg_standard(operator, start)
    assert "lobpcg_standard" in str(info.value)
