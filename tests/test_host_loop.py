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
from test_speed_loops import A32, _newton, _newton_numpy


def test_newton_runs_as_a_generated_loop():
    """The values are `test_speed_loops`' (NumPy's loop bit for bit, JAX's iteration count);
    here: on the host the joined step ran as one generated loop."""
    cf._STEPS.clear()
    with fgrad.default_device(fgrad.devices("cpu")[0]):
        x, i = fgrad.jit(_newton(fnp, lax))(fnp.asarray(A32))
    ref_x, ref_i = _newton_numpy(A32)
    np.testing.assert_array_equal(np.asarray(x), ref_x)
    assert int(i) == ref_i
    steps = [s for s in cf._STEPS.values() if s is not cf._NO_STEP]
    assert steps and all(s._loop is not None for s in steps)
    assert "while True:" in steps[0]._loop.source


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



def test_jit_calls_the_loops_host_kernel_for_each_alias_pattern(monkeypatch):
    """`fgrad.jit`'s host code calls the while loop's kernel (its parameters bound once, not
    the implementation through keyword arguments); a kernel that saw the condition's
    constant be the body's (one array passed twice) gives the loop's values when they are
    two arrays, and again when they are one."""
    calls = []
    impl = cf.while_p.impl
    monkeypatch.setattr(cf.while_p, "impl", lambda *a, **k: calls.append(1) or impl(*a, **k))

    def loop(a, b):
        return lax.while_loop(lambda s: (fnp.max(fnp.abs(s[0] * s[0] - a)) > 1e-12) & (s[1] < 8),
                              lambda s: (s[0] - (s[0] * s[0] - b) / (2.0 * s[0]), s[1] + 1),
                              (fnp.full_like(a, 2.0), 0))

    def ref(a, b):
        x, k = np.full_like(a, 2.0), 0
        while np.max(np.abs(x * x - a)) > 1e-12 and k < 8:
            x, k = x - (x * x - b) / (2.0 * x), k + 1
        return x, k

    a = np.random.default_rng(2).uniform(1, 8, 40)
    with fgrad.default_device(fgrad.devices("cpu")[0]):
        f = fgrad.jit(loop)
        for b in (a, a + 1.0, a):
            x, k = f(fnp.asarray(a), fnp.asarray(a) if b is a else fnp.asarray(b))
            want_x, want_k = ref(a, b)
            np.testing.assert_array_equal(np.asarray(x), want_x)
            assert int(k) == want_k
    assert not calls
