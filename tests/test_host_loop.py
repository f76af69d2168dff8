"""A host while loop whose condition and body were joined into one step runs as one
generated function (`core.executor.host_loop`): values against the loop run in Python,
carries that swap or pass through, zero iterations, and inputs that must survive."""

from __future__ import annotations

import numpy as np

import fgrad
import fgrad.numpy as fnp
from fgrad import lax
from fgrad.core.executor import host_loop
from fgrad.ops import control_flow as cf


def _newton(a):
    def cond(s):
        x, i = s
        return (fnp.max(fnp.abs(x ** 3 - a)) > 1e-5) & (i < 50)

    def body(s):
        x, i = s
        return x - (x ** 3 - a) / (3 * x ** 2), i + 1

    return lax.while_loop(cond, body, (fnp.ones_like(a) * 2, 0))


def _newton_python(a):
    x, i = np.full_like(a, 2), 0
    while np.max(np.abs(x * x * x - a)) > np.float32(1e-5) and i < 50:
        x, i = x - (x * x * x - a) / (np.float32(3) * (x * x)), i + 1
    return x, i


def test_newton_matches_the_python_loop_bit_for_bit():
    a = np.random.default_rng(0).uniform(1, 8, 100).astype(np.float32)
    xw, iw = _newton_python(a)
    x, i = fgrad.jit(_newton)(fnp.asarray(a))  # on the default device
    np.testing.assert_array_equal(np.asarray(x), xw)
    assert int(i) == iw
    cf._STEPS.clear()
    with fgrad.default_device(fgrad.devices("cpu")[0]):  # on the host: the generated loop
        x, i = fgrad.jit(_newton)(fnp.asarray(a))
    np.testing.assert_array_equal(np.asarray(x), xw)
    assert int(i) == iw
    assert any(s is not cf._NO_STEP and s._loop is not None for s in cf._STEPS.values())


def test_swapped_and_passed_through_carries():
    """``(a, b, k) -> (b, a + b, k)``: the next carry is assigned at once, not one by one."""
    jx = fgrad.make_jaxpr(lambda n, a, b, k: (a < n, b, a + b, k))(100.0, 0.0, 1.0, 7.0).jaxpr
    out = host_loop(jx, 1)([100.0, np.float64(0.0), np.float64(1.0), np.float64(7.0)])
    assert [float(v) for v in out] == [144.0, 233.0, 7.0]


def test_zero_iterations_return_the_inputs():
    x = np.arange(3.0)
    jx = fgrad.make_jaxpr(lambda c, x: (fnp.sum(x) < c, x * 2.0))(0.0, x).jaxpr
    (out,) = host_loop(jx, 1)([0.0, x])
    assert out is x


def test_constants_and_inputs_are_not_overwritten():
    a = np.random.default_rng(1).uniform(1, 8, 50)
    a_copy = a.copy()
    x0 = np.full_like(a, 2.0)
    jx = fgrad.make_jaxpr(lambda a, x: (fnp.max(fnp.abs(x * x - a)) > 1e-12,
                                        x - (x * x - a) / (2.0 * x)))(a, x0).jaxpr
    (out,) = host_loop(jx, 1)([a, x0])
    np.testing.assert_array_equal(a, a_copy)
    np.testing.assert_array_equal(x0, np.full_like(a, 2.0))
    np.testing.assert_allclose(out, np.sqrt(a), rtol=1e-14)
