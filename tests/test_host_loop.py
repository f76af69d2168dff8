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


def test_a_scan_runs_as_one_generated_loop_with_the_steps_values():
    """A host scan (`core.executor.host_scan`) against the same scan run step by step in
    Python: forward and reverse, constants, a passed-through carry, ys of two dtypes and a
    y that is a carry; the scanned and constant inputs are not written."""
    rng = np.random.default_rng(4)
    W, xs = rng.standard_normal((3, 3)), rng.standard_normal((6, 2, 3))
    W0, xs0 = W.copy(), xs.copy()

    def step(c, x):
        h, k = c
        h = fnp.tanh(x @ W + h)
        return (h, k), (h.sum(), (h > 0).astype(np.int32), h)

    for reverse in (False, True):
        with fgrad.default_device(fgrad.devices("cpu")[0]):
            (h, k), (s, pos, hs) = fgrad.jit(lambda xs: lax.scan(step, (fnp.zeros((2, 3)), 7.0), xs,
                                                                reverse=reverse))(fnp.asarray(xs))
        rh, rs, rpos, rhs = np.zeros((2, 3)), [], [], []
        for x in (xs[::-1] if reverse else xs):
            rh = np.tanh(x @ W + rh)
            rs.append(rh.sum())
            rpos.append((rh > 0).astype(np.int32))
            rhs.append(rh)
        if reverse:
            rs, rpos, rhs = rs[::-1], rpos[::-1], rhs[::-1]
        np.testing.assert_allclose(np.asarray(h), rh, rtol=1e-14)
        assert float(k) == 7.0
        np.testing.assert_allclose(np.asarray(s), rs, rtol=1e-13)
        assert np.asarray(pos).dtype == np.int32
        np.testing.assert_array_equal(np.asarray(pos), rpos)
        np.testing.assert_allclose(np.asarray(hs), rhs, rtol=1e-14)
    np.testing.assert_array_equal(W, W0)
    np.testing.assert_array_equal(xs, xs0)
    sources = [r.source for b in _branches_with_scans() for r in (b._scans or {}).values()]
    # one generated loop (its first step on its own when it makes the stacked ys: `_it`; the
    # scans of tiny states other tests left behind: `core.scalar_loops`)
    assert sources and all("for _i in _steps:" in src or "for _i in _it:" in src or "for i in range(" in src
                           for src in sources)


def _branches_with_scans():
    import gc

    return [o for o in gc.get_objects() if type(o) is cf.Branch and o._scans]
