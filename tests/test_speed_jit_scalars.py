"""Issue 16: a jitted call with Python scalar arguments takes the call-path index (no
pytree walk, no device check), and its cache keys still tell apart what must be told apart:
Python bool / int / float / complex (weak types) vs NumPy scalars (strong), dtypes, shapes."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
import fgrad.transforms.jit as jit_module


def test_python_float_argument_takes_the_fast_path(monkeypatch):
    f = fgrad.jit(lambda x, s: x * s + 1.0)
    x = fnp.arange(4.0, dtype=fnp.float32)
    np.testing.assert_allclose(np.asarray(f(x, 0.5)), np.arange(4.0) * 0.5 + 1)

    def no_walk(*a, **k):
        raise AssertionError("the argument tree was walked on a cached signature")

    monkeypatch.setattr(jit_module, "_structure", no_walk)
    monkeypatch.setattr(jit_module, "_check_devices", no_walk)
    for s in (2.0, -3.5, 0.0):  # a new value is not a new signature
        out = f(x, s)
        assert out.dtype == np.float32  # weakly typed: x's dtype wins
        np.testing.assert_allclose(np.asarray(out), np.arange(4.0) * s + 1)
    assert f.stats["traces"] == 1


def test_scalar_kinds_and_strong_scalars_are_distinct_signatures():
    f = fgrad.jit(lambda x, s: x * s)
    x = fnp.ones(3, dtype=fnp.float32)
    outs = [f(x, v) for v in (2.0, 2, True, 2.0 + 0j, np.float64(2.0), 3.0, 3)]
    assert [o.dtype for o in outs] == [np.float32, np.float32, np.float32, np.complex64, np.float64,
                                       np.float32, np.float32]
    assert f.stats["traces"] == 5  # float, int, bool, complex, numpy float64; no retrace for 3.0 / 3
    np.testing.assert_allclose(np.asarray(outs[5]), 3.0)


def test_scalar_fast_path_keeps_array_shape_and_dtype_in_the_key():
    f = fgrad.jit(lambda x, s: x + s)
    a = f(fnp.ones(2, dtype=fnp.float32), 1.5)
    b = f(fnp.ones(3, dtype=fnp.float64), 1.5)
    c = f(fnp.ones(2, dtype=fnp.float32), 2.5)
    assert (a.shape, a.dtype, b.shape, b.dtype) == ((2,), np.float32, (3,), np.float64)
    np.testing.assert_allclose(np.asarray(c), 3.5)
    assert f.stats["traces"] == 2


def test_scalar_argument_under_grad_and_static_args():
    f = fgrad.jit(lambda x, s: fnp.sum(fnp.sin(x) * s))
    x = fnp.linspace(0.0, 1.0, 5)
    f(x, 2.0)
    g = fgrad.grad(f, argnums=1)(x, 2.0)  # a tracer for s: not the fast path
    np.testing.assert_allclose(float(g), np.sum(np.sin(np.linspace(0.0, 1.0, 5))), rtol=1e-12)
    h = fgrad.jit(lambda x, n: x * n, static_argnums=1)
    assert float(h(fnp.asarray(2.0), 3)) == 6.0 and float(h(fnp.asarray(2.0), 4)) == 8.0
    assert h.stats["traces"] == 2


def test_scalar_only_call():
    f = fgrad.jit(lambda a, b: a * b)
    assert float(f(2.0, 3.0)) == 6.0 and float(f(4.0, 0.5)) == 2.0
    assert f.stats["traces"] == 1
    with pytest.raises(TypeError):
        f(2.0, "x")
