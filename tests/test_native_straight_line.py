"""Native kernels in the straight-line executor (`fgrad.core.executor.straight_line`'s
``native``, `fgrad.compile.native_kernels.straight_line_kernel`; docs/speed-transformer.md,
round 21).

The executor gathers runs of big elementwise equations of one shape (`executor._native_groups`,
moving a run's members to its last member's place) and offers each to the native maker; a
run it accepts becomes one C call, with the run's NumPy lines as the branch taken when the
runner declines.  Every test compares the bits of the program with native kernels against
the same program without them (and against its NumPy branch), and checks that the C code ran
where a compiler exists.
"""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad.backends import NUMPY, default_backend
from fgrad.compile import native_kernels
from fgrad.compile.native_kernels import straight_line_kernel
from fgrad.core import executor, native_loops
from fgrad.core.executor import straight_line

ON_HOST = default_backend() is NUMPY
HAS_CC = native_loops._compiler() is not None and native_loops.cache_dir() is not None
RNG = np.random.default_rng(21)
SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -1e-40, 3e38, -3e38, 1e9, 0.5, -7.0]


@pytest.fixture(autouse=True)
def _split_kernels_at_test_sizes(monkeypatch):
    monkeypatch.setattr(native_kernels, "MIN_ELEMENTS_SPLIT", native_kernels.MIN_ELEMENTS)


def _values(shape, dtype):
    x = (RNG.standard_normal(shape) * 3).astype(dtype)
    flat = x.reshape(-1)
    flat[:len(SPECIAL)] = np.array(SPECIAL, dtype)[:flat.size]
    return x


def _assert_bits(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, w.dtype, g.shape, w.shape)
        assert native_loops.same_bits(g, w), (g, w)


def _ran(run) -> int:
    return sum(1 for k in run.native_kernels if k.state["native"] > 0)


def _both(f, *args):
    """``f``'s jaxpr run by the straight-line executor with native kernels (its
    `COMPILE_AFTER`-th call), without them, and with them switched off at run time (the NumPy
    branch); the native program."""
    cj = fgrad.make_jaxpr(f)(*args)
    bufs = list(cj.consts) + [np.asarray(a) for a in args]
    on = straight_line(cj.jaxpr, native=straight_line_kernel)
    for _ in range(native_kernels.COMPILE_AFTER):
        got = on(np, list(bufs))
    want = straight_line(cj.jaxpr)(np, list(bufs))
    fgrad.config.update("native_loops", False)
    try:
        branch = on(np, list(bufs))
    finally:
        fgrad.config.update("native_loops", None)
    _assert_bits(got, want)
    _assert_bits(branch, want)
    return on


def _expect_native(run, at_least=1):
    if ON_HOST and HAS_CC:
        assert _ran(run) >= at_least, run.source


def _layer_norm_backward(x, ct, w):
    """Layer norm's backward as the shim's program computes it: row statistics as (n, 1)
    operands between row reductions, broadcasts of row vectors, literals."""
    mean = fnp.mean(x, axis=-1, keepdims=True)
    xc = x - mean
    rstd = 1.0 / fnp.sqrt(fnp.mean(xc * xc, axis=-1, keepdims=True) + 1e-5)
    y = xc * rstd
    g = ct * w
    gy = fnp.sum(g * y, axis=-1)
    gm = fnp.sum(g, axis=-1)
    dx = rstd * (g - gm[:, None] / x.shape[-1] - y * gy[:, None] / x.shape[-1])
    return dx, fnp.sum(ct * y, axis=0), fnp.sum(ct, axis=0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_layer_norm_backward_bit_equal(dtype):
    x, ct = _values((96, 64), dtype), _values((96, 64), dtype)
    w = RNG.standard_normal(64).astype(dtype)
    run = _both(_layer_norm_backward, x, ct, w)
    _expect_native(run, 2)


def test_comparisons_selects_integers_and_literals():
    a = _values((64, 48), np.float32)
    b = _values((64, 1), np.float32)
    i = RNG.integers(-2**31, 2**31 - 1, (64, 48), dtype=np.int32)

    def f(a, b, i):
        m = fnp.max(a, axis=-1, keepdims=True)
        s = fnp.where(a > b, a - m, (a * 0.5) / b)
        return s.astype(np.float64) * 2.0, (i * 3 + 7) ^ (i >> 2), fnp.maximum(s, 0.0)

    _expect_native(_both(f, a, b, i))


def test_a_run_gathers_around_an_equation_of_another_shape():
    """``x * 2`` and ``(x * 2 + 1) / 3`` are one run although a small product sits between
    them; an equation outside the run that reads its value ends it."""
    x, r = np.ones((64, 64), np.float32), np.ones((64, 1), np.float32)
    jx = fgrad.make_jaxpr(lambda x, r: ((x * 2.0), r * r, (x * 2.0 + 1.0) / 3.0))(x, r).jaxpr
    order, groups = executor._native_groups(list(jx.eqns), 2048)
    small = [e for e in jx.eqns if e.outvars[0].aval.shape == (64, 1)]
    assert order[0] is small[0] and groups == {1: 4}
    assert [e for e in order[1:]] == [e for e in jx.eqns if e is not small[0]]
    jx = fgrad.make_jaxpr(lambda x: fnp.sum(x * 2.0) + (x * 3.0))(x).jaxpr
    order, groups = executor._native_groups(list(jx.eqns), 2048)
    assert order == list(jx.eqns) and groups == {0: 0, 2: 3}
    _both(lambda x, r: ((x * 2.0), r * r, (x * 2.0 + 1.0) / 3.0), x, r)


def test_runner_declines_inputs_of_another_dtype():
    """Buffers of another dtype than the program's (a float64 array where it was traced
    float32) take the NumPy branch: the results are the program's without native kernels."""
    x, b = _values((64, 64), np.float32), _values((64, 1), np.float32)
    cj = fgrad.make_jaxpr(lambda x, b: (x - b) * 3.0 + x)(x, b)
    on = straight_line(cj.jaxpr, native=straight_line_kernel)
    off = straight_line(cj.jaxpr)
    for _ in range(native_kernels.COMPILE_AFTER):
        on(np, [x, b])
    ran = [k.state["native"] for k in on.native_kernels]
    wide = [x.astype(np.float64), b]
    _assert_bits(on(np, list(wide)), off(np, list(wide)))
    assert [k.state["native"] for k in on.native_kernels] == ran
    if ON_HOST and HAS_CC:
        assert ran and ran[0] >= 1


def test_one_full_size_equation_stays_numpy():
    x = np.ones((64, 64), np.float32)
    assert not straight_line(fgrad.make_jaxpr(lambda v: v * 2.0)(x).jaxpr,
                             native=straight_line_kernel).native_kernels


def test_without_a_compiler_no_native_kernel(monkeypatch):
    monkeypatch.setitem(native_loops._state, "cc", None)
    x, b = _values((64, 64), np.float32), _values((64, 1), np.float32)
    cj = fgrad.make_jaxpr(lambda x, b: (x - b) * 3.0)(x, b)
    run = straight_line(cj.jaxpr, native=straight_line_kernel)
    assert not run.native_kernels and "nkh" not in run.source
    _assert_bits(run(np, [x, b]), straight_line(cj.jaxpr)(np, [x, b]))


def _shim_step(torch, x, w, b, steps=native_kernels.COMPILE_AFTER):
    for _ in range(steps):
        xt = torch.from_numpy(x.copy()).requires_grad_(True)
        wt = torch.from_numpy(w.copy()).requires_grad_(True)
        bt = torch.from_numpy(b.copy()).requires_grad_(True)
        y = torch.nn.functional.layer_norm(xt, (x.shape[-1],), wt, bt)
        z = torch.nn.functional.gelu(y)
        (z * torch.from_numpy(x)).sum().backward()
    return [t.grad.numpy().copy() for t in (xt, wt, bt)]


def test_shim_layer_norm_and_gelu_backward_bit_equal():
    """The shim's backward programs (layer norm, GELU) with native kernels give the bits
    they give with native loops switched off (their NumPy branch)."""
    import fgrad.torch as torch
    from fgrad.torch.autograd import graph

    x = _values((128, 64), np.float32)
    w, b = RNG.standard_normal(64).astype(np.float32), RNG.standard_normal(64).astype(np.float32)
    got = _shim_step(torch, x, w, b)
    progs = [p for p in list(graph._PROGS_D.values()) if hasattr(p, "steps")]
    progs += [v for p in progs for v in p.variants.values() if hasattr(v, "steps")]
    ran = sum(_ran(p.steps) for p in progs)
    fgrad.config.update("native_loops", False)
    try:
        want = _shim_step(torch, x, w, b, 1)
    finally:
        fgrad.config.update("native_loops", None)
    _assert_bits(got, want)
    if ON_HOST and HAS_CC:
        assert ran >= 1
