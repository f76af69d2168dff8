"""`fgrad.linear_transpose` of linearized programs and of nonlinear functions.

Regressions: (1) the transpose of ``t -> jvp(jit(g), (x,), (t,))[1]`` was 0 (loops) or raised
(`mul is not linear`): the function was staged whole, so its primal computations became
"linear" inputs of the jit call -- it is now staged with partial evaluation (primal values are
computed, only what reads the inputs is transposed); (2) a nonlinear ``scan``/``cond`` body
was transposed as its derivative at zero (silently 0) -- `check_linear` now raises, as JAX does.
"""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import lax


def _fori(x):
    return lax.fori_loop(0, 3, lambda i, c: c * x + i, x)  # x**4 + x + 2 for 3 steps


def _scan(x):
    return lax.scan(lambda c, i: (c * x + i, None), x, fnp.arange(3.0))[0]


def _poly(x):
    return x ** 4 + x + 2


@pytest.mark.parametrize("g", [_fori, _scan, _poly])
@pytest.mark.parametrize("jitted", [True, False])
def test_transpose_of_a_jvp(g, jitted):
    gg = fgrad.jit(g) if jitted else g
    (ct,) = fgrad.linear_transpose(lambda t: fgrad.jvp(gg, (2.0,), (t,))[1], 1.0)(1.0)
    assert float(ct) == 4 * 2.0 ** 3 + 1  # d/dx (x**4 + x + 2) at 2
    (v,) = fgrad.linear_transpose(lambda t: fgrad.jvp(gg, (2.0,), (t,))[1], 1.0)(3.0)
    assert float(v) == 3 * 33.0


def test_transpose_of_a_jvp_over_arrays_matches_vjp():
    w = np.linspace(0.5, 1.5, 3)
    g = fgrad.jit(lambda x: lax.scan(lambda c, i: (fnp.tanh(c) * w + i, c), x, fnp.arange(4.0)))
    x0 = np.linspace(-1.0, 1.0, 3)
    lin = lambda t: fgrad.jvp(g, (x0,), (t,))[1]  # noqa: E731
    ct = (np.array([1.0, -2.0, 0.5]), np.ones((4, 3)))
    (got,) = fgrad.linear_transpose(lin, x0)(ct)
    (want,) = fgrad.vjp(g, x0)[1](ct)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-13)


@pytest.mark.parametrize("f", [
    lambda t: lax.scan(lambda c, i: (c * c, None), t, fnp.arange(3.0))[0],
    lambda t: lax.fori_loop(0, 3, lambda i, c: c * c, t),
    lambda t: lax.cond(True, lambda c: c * c, lambda c: c, t),
    lambda t: fgrad.jit(lambda c: fnp.sin(c))(t),
    lambda t: 1.0 / t,
    lambda t: t * t,
])
def test_nonlinear_functions_raise(f):
    with pytest.raises(NotImplementedError, match="not linear"):
        fgrad.linear_transpose(f, 1.0)(1.0)


def test_linear_control_flow_transposes():
    f = lambda t: lax.scan(lambda c, i: (2 * c + 0 * i, 3 * c), t, fnp.arange(3.0))  # noqa: E731
    (ct,) = fgrad.linear_transpose(f, 1.0)((1.0, np.ones(3)))
    assert float(ct) == 8 + 3 * (1 + 2 + 4)
    (ct,) = fgrad.linear_transpose(lambda t: lax.cond(True, lambda c: 3 * c, lambda c: c, t), 1.0)(1.0)
    assert float(ct) == 3.0


def test_matches_jax_live():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    try:
        def g(x, L):
            return L.fori_loop(0, 3, lambda i, c: c * x + i, x)
        want = jax.linear_transpose(lambda t: jax.jvp(jax.jit(lambda x: g(x, jax.lax)), (2.0,), (t,))[1],
                                    1.0)(1.0)
        got = fgrad.linear_transpose(lambda t: fgrad.jvp(fgrad.jit(lambda x: g(x, lax)), (2.0,), (t,))[1],
                                     1.0)(1.0)
        assert float(got[0]) == float(want[0])
    finally:
        jax.config.update("jax_enable_x64", False)
