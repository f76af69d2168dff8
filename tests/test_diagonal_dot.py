"""jit's `diagonal_dots` pass and the `diagonal_dot` primitive it emits: a product with the
identity basis times vectors (jacrev's, jacfwd's) runs as a scaling, with the GEMM's values
(NaN where an operand is not finite, like the GEMM), derivatives and batching."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad.ops.diagonal_dot import diagonal_dot_p
from fgrad.test_util import check_grads

RNG = np.random.default_rng(0)
W = (RNG.standard_normal((16, 16)) / 4).astype(np.float32)
X = RNG.standard_normal(16).astype(np.float32)


def _f(x):
    return fnp.tanh(fnp.asarray(W) @ x) * x


def _analytic(x):
    t = np.tanh(W.astype(np.float64) @ x)
    return (x * (1 - t * t))[:, None] * W + np.diag(t)


def _host():
    return fgrad.default_device(fgrad.devices("cpu")[0])


def _names(f, *args):
    return [e.prim.name for e in f.lower(*args).optimized.eqns]


@pytest.mark.parametrize("jac", [fgrad.jacrev, fgrad.jacfwd])
def test_jacobian_runs_as_a_scaling_with_the_gemms_values(jac):
    with _host():
        f = fgrad.jit(jac(_f))
        x = fnp.asarray(X)
        names = _names(f, x)
        # jacrev: the basis meets W in the VJP (the scaling); jacfwd: W @ I is folded
        assert ("diagonal_dot" in names) == (jac is fgrad.jacrev)
        assert names.count("dot_general") == 1  # only W @ x is a product
        got = np.asarray(f(x))
        np.testing.assert_array_equal(got, np.asarray(jac(_f)(x)))  # eager: the GEMM
    np.testing.assert_allclose(got, _analytic(X), rtol=1e-5, atol=1e-6)


def test_hessian_under_jit_matches_eager():
    def g(x):
        return fnp.sum(fnp.tanh(fnp.asarray(W) @ x) ** 2)

    with _host():
        x = fnp.asarray(X)
        h = fgrad.jit(fgrad.hessian(g))
        np.testing.assert_allclose(np.asarray(h(x)), np.asarray(fgrad.hessian(g)(x)), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("where", ["x", "W"])
def test_non_finite_operands_give_the_gemms_nans(where):
    """``0 · inf`` is NaN off the diagonal: the scaling must not hide it."""
    x, w = X.copy(), W.copy()
    if where == "x":
        x[3] = np.inf
    else:
        w[2, 5] = np.inf

    def f(x, w):
        return fnp.tanh(w @ x) * x

    with _host():
        args = (fnp.asarray(x), fnp.asarray(w))
        jf = fgrad.jit(fgrad.jacrev(f))
        assert "diagonal_dot" in _names(jf, *args)
        got = np.asarray(jf(*args))
    eye = np.eye(16, dtype=np.float32)
    with np.errstate(all="ignore"):  # the NumPy reference: the basis times the factors, GEMM
        t = np.tanh(w @ x)
        want = eye * t + ((eye * x) * (1 - t * t)) @ w
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    assert np.isnan(got).any()
    ok = ~np.isnan(want)
    np.testing.assert_allclose(got[ok], want[ok], rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("d_first", [True, False])
@pytest.mark.parametrize("contract", [0, 1])
def test_primitive_matches_the_product_it_replaces(d_first, contract):
    v, s = RNG.standard_normal(5), RNG.standard_normal((5, 1))
    a = RNG.standard_normal((5, 3) if contract == 0 else (3, 5))
    dn = (((1,), (contract,)), ((), ())) if d_first else (((contract,), (0,)), ((), ()))
    params = {"n": 5, "chain": (None, 2.0, None), "d_first": d_first, "dimension_numbers": dn}
    m = np.eye(5) * v * 2.0 * s
    want = fgrad.lax.dot_general(m, a, dn) if d_first else fgrad.lax.dot_general(a, m, dn)
    got = diagonal_dot_p.bind(v, s, a, **params)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-14)
    # derivatives (linear in each operand) and batching (against a Python loop)
    check_grads(lambda v, s, a: diagonal_dot_p.bind(v, s, a, **params), (v, s, a), order=2,
                modes=("fwd", "rev"))
    vs = RNG.standard_normal((4, 5))
    batched = fgrad.vmap(lambda v: diagonal_dot_p.bind(v, s, a, **params))(vs)
    for i in range(4):
        np.testing.assert_allclose(np.asarray(batched[i]),
                                   np.asarray(diagonal_dot_p.bind(vs[i], s, a, **params)), rtol=1e-14)


def test_identity_must_be_exact():
    """A constant that is only close to the identity is left to the GEMM."""
    near = np.eye(8, dtype=np.float32)
    near[7, 6] = 1e-30
    w = fnp.asarray(np.ones((8, 8), np.float32))
    with _host():
        f = fgrad.jit(lambda x: (fnp.asarray(near) * x) @ w)
        x = fnp.asarray(np.arange(8, dtype=np.float32))
        assert "diagonal_dot" not in _names(f, x)
        exact = fgrad.jit(lambda x: (fnp.asarray(np.eye(8, dtype=np.float32)) * x) @ w)
        assert "diagonal_dot" in _names(exact, x)
        want = np.arange(8, dtype=np.float32)[:, None] * np.ones(8)
        np.testing.assert_array_equal(np.asarray(exact(x)), want)
