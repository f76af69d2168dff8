"""Max/min pooling over disjoint 2-D windows in C (`fgrad.core.native_pool`, session 24): the
forward extrema and the gradient (each window's cotangent to its first extremum) must have
the NumPy path's bits -- ties of equal values and of ``+0.0``/``-0.0``, infinities, NaN
windows (the NaN-aware selection), non-finite and negative-zero cotangents, rows and columns
the windows leave out -- eagerly, through the tape, and under `jit` (the forward handing its
cells to the gradient); each case runs with native loops on and off."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fgrad
import fgrad.numpy as fnp
from fgrad import lax
from fgrad.core import native_loops, native_pool

HAS_CC = native_loops._compiler() is not None and native_loops.cache_dir() is not None
VALUES = np.array([0.0, -0.0, 1.0, -1.0, 2.5, np.inf, -np.inf, 3e38, -3e38, 1e-40], np.float64)


def _pool(kind, window):
    init, op = (-fnp.inf, lax.max) if kind == "max" else (fnp.inf, lax.min)
    dims = (1, 1) + window
    return lambda x: lax.reduce_window(x, init, op, dims, dims, "VALID")


def _run(kind, window, x, ct):
    """Forward, eager gradient and jitted value-and-gradient of ``sum(pool(x) * ct)``."""
    pool = _pool(kind, window)

    def loss(x):
        return fnp.sum(pool(x) * ct)

    fwd = np.asarray(pool(fnp.asarray(x)))
    vjp = fgrad.vjp(pool, fnp.asarray(x))[1](fnp.asarray(ct))[0]
    jitted = fgrad.jit(fgrad.value_and_grad(loss))
    for _ in range(2):
        v, g = jitted(fnp.asarray(x))
    return [fwd, np.asarray(vjp), np.asarray(v), np.asarray(g)]


def _both(kind, window, x, ct):
    on = _run(kind, window, x, ct)
    fgrad.config.update("native_loops", False)
    try:
        off = _run(kind, window, x, ct)
    finally:
        fgrad.config.update("native_loops", None)
    for a, b in zip(on, off):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert native_loops.same_bits(a, b), (a, b)
    return on


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(["max", "min"]), window=st.sampled_from([(2, 2), (3, 3), (1, 2), (2, 1), (3, 2)]),
       h=st.integers(3, 11), w=st.integers(3, 11), dtype=st.sampled_from([np.float32, np.float64]),
       nan=st.booleans(), bad_ct=st.sampled_from(["finite", "inf", "nan", "negzero"]),
       seed=st.integers(0, 99))
def test_pooling_bit_equal_to_numpy_path(kind, window, h, w, dtype, nan, bad_ct, seed):
    rng = np.random.default_rng(seed)
    x = rng.choice(VALUES, (2, 3, h, w)).astype(dtype)  # (few values: ties everywhere)
    if nan:
        x[1, 2, rng.integers(0, h), rng.integers(0, w)] = np.nan
    out = (2, 3, h // window[0], w // window[1])
    ct = rng.standard_normal(out).astype(dtype)
    ct.reshape(-1)[0] = -0.0
    if bad_ct != "finite":
        ct.reshape(-1)[1] = {"inf": np.inf, "nan": np.nan, "negzero": -0.0}[bad_ct]
    _both(kind, window, x, ct)


def test_gradient_goes_to_the_first_extremum():
    """The definition: each window's cotangent at its first maximum (row-major in the window),
    ``+0.0`` elsewhere and in the rows/columns no window covers."""
    rng = np.random.default_rng(0)
    x = rng.integers(0, 3, (2, 2, 7, 9)).astype(np.float32)  # (ties)
    ct = rng.standard_normal((2, 2, 3, 4)).astype(np.float32)
    _, _, _, g = _both("max", (2, 2), x, ct)
    ref = np.zeros(x.shape, np.float32)
    for n, c, i, j in np.ndindex(*ct.shape):
        win = x[n, c, 2 * i:2 * i + 2, 2 * j:2 * j + 2]
        a, b = np.unravel_index(np.argmax(win), win.shape)
        ref[n, c, 2 * i + a, 2 * j + b] = ct[n, c, i, j]
    assert native_loops.same_bits(g, ref)


def test_native_path_taken_and_declined():
    """The C loops run where they apply (2-D disjoint windows, float32/64 on the host) and
    decline padding, overlapping windows and integers."""
    x = np.ones((2, 3, 8, 8), np.float32)
    p = dict(window_dimensions=(1, 1, 2, 2), window_strides=(1, 1, 2, 2), padding=((0, 0),) * 4,
             base_dilation=(1,) * 4, window_dilation=(1,) * 4)
    assert native_pool.applies(x, p) == (2, 2)
    if HAS_CC:
        assert native_pool.pool_forward(x, (2, 2), "max") is not None
    assert native_pool.applies(x, dict(p, padding=((0, 0),) * 2 + ((1, 0),) * 2)) is None
    assert native_pool.applies(x, dict(p, window_strides=(1, 1, 1, 1))) is None
    assert native_pool.applies(x.astype(np.int32), p) is None


def test_matches_torch_max_pool_gradient():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(3)
    x = rng.standard_normal((4, 3, 11, 10)).astype(np.float32)
    ct = rng.standard_normal((4, 3, 5, 5)).astype(np.float32)
    got = _both("max", (2, 2), x, ct)
    xt = torch.from_numpy(x).requires_grad_()
    (torch.nn.functional.max_pool2d(xt, 2) * torch.from_numpy(ct)).sum().backward()
    np.testing.assert_array_equal(got[0], torch.nn.functional.max_pool2d(torch.from_numpy(x), 2).numpy())
    np.testing.assert_array_equal(got[3], xt.grad.numpy())
