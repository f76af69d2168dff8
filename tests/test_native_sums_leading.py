"""Float32 sums over leading axes in C (`fgrad.core.native_sums.leading_sum`): bit for bit NumPy's
float64-accumulated sum, used by the host executor's ``reduce_sum`` (the shim's bias and
weight gradients), NumPy's code wherever the C sum does not apply."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad.backends import NUMPY, default_backend
from fgrad.core import native_loops, native_sums
from fgrad.core.array import ShapedArray
from fgrad.core.executor import straight_line
from fgrad.ops.shape import reduce_sum_p

HAS_CC = native_loops._compiler() is not None and native_loops.cache_dir() is not None
RNG = np.random.default_rng(2021)
SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-40, 3e38, 3e38, -3e38, 1e9, -1e9],
                   np.float32)


def _numpy(x, axes):
    with np.errstate(all="ignore"):  # (inf - inf, overflow: as the executor's programs run it)
        return np.add.reduce(x, axis=axes, dtype=np.float64).astype(np.float32)


def _values(shape, special=True):
    x = (RNG.standard_normal(shape) * 10.0 ** RNG.uniform(-6, 6, shape)).astype(np.float32)
    if special:
        flat = x.reshape(-1)
        at = RNG.choice(flat.size, min(flat.size, SPECIAL.size * 3), replace=False)
        flat[at] = np.tile(SPECIAL, 3)[:at.size]
    return x


def _bits_equal(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and native_loops.same_bits(a, b)


@pytest.mark.parametrize("shape,axes", [((512, 64), (0,)), ((1100, 2), (0,)), ((4097, 129), (0,)),
                                        ((16, 32, 64), (0, 1)), ((9, 300, 3), (0,)),
                                        ((100, 600), (0,)), ((3000, 7), (0,))])
def test_bit_equal_to_numpy(shape, axes):
    run = native_sums.leading_sum(shape, axes)
    if not HAS_CC:
        assert run is None
        return
    for special in (False, True):
        x = _values(shape, special)
        got = run(x)
        assert got is not None and _bits_equal(got, _numpy(x, axes)), (got, _numpy(x, axes))


def test_signed_zeros_and_all_nan_columns():
    x = np.zeros((128, 32), np.float32)
    x[:, 0] = -0.0
    x[:, 1] = np.nan
    x[::2, 2], x[1::2, 2] = np.inf, -np.inf
    run = native_sums.leading_sum(x.shape, (0,))
    if run is not None:
        assert _bits_equal(run(x), _numpy(x, (0,)))
        assert np.signbit(run(x)[0]) == np.signbit(_numpy(x, (0,))[0])


def test_declines_what_it_does_not_compute():
    assert native_sums.leading_sum((4096, 1), (0,)) is None  # one column: NumPy sums pairwise
    assert native_sums.leading_sum((64, 16), (0,)) is None  # small
    assert native_sums.leading_sum((64, 64), (1,)) is None  # not leading axes
    assert native_sums.leading_sum((64, 64), (0, 1)) is None  # everything
    run = native_sums.leading_sum((256, 64), (0,))
    if run is None:
        return
    x = _values((256, 64))
    assert run(x.astype(np.float64)) is None and run(x[:128]) is None
    assert run(np.asfortranarray(x)) is None
    fgrad.config.update("native_loops", False)
    try:
        assert run(x) is None
    finally:
        fgrad.config.update("native_loops", None)


def test_without_a_compiler(monkeypatch):
    monkeypatch.setitem(native_loops._state, "cc", None)
    assert native_sums.leading_sum((512, 64), (0,)) is None


def test_host_executor_sum_uses_it_and_matches_the_eager_sum():
    x = _values((512, 64))
    kernel = reduce_sum_p.host_kernel({"axes": (0,), "out_sharding": None},
                                      [ShapedArray((512, 64), np.float32)])
    assert (kernel.func.__name__ == "_native_wide_sum") == HAS_CC
    cj = fgrad.make_jaxpr(lambda v: (fnp.sum(v, axis=0), fnp.sum(v[None], axis=(0, 1))))(x)
    got = straight_line(cj.jaxpr)(np, [x])
    want = _numpy(x, (0,))
    for g in got:
        assert _bits_equal(np.asarray(g), want)
    if default_backend() is NUMPY:  # (the eager sum on a device is the device's)
        assert _bits_equal(np.asarray(fnp.sum(x, axis=0)), want)


def test_jit_programs_use_it_bit_equal():
    """The code generator's float64-accumulated column sums (a bias gradient under
    ``jit(grad)``) call the C sum too: the same bits as with native code switched off."""
    x = _values((512, 64), special=False)
    w = RNG.standard_normal((64, 32)).astype(np.float32)
    b = RNG.standard_normal(32).astype(np.float32)

    def loss(w, b):
        return fnp.sum(fnp.tanh(x @ w + b) ** 2)

    f = fgrad.jit(fgrad.grad(loss, argnums=(0, 1)))
    exe = f.lower(w, b).compile()
    used = [k for k, v in exe.ns.items() if getattr(v, "func", None) is not None
            and v.func.__name__ == "_native_wide_sum"]
    assert bool(used) == (HAS_CC and default_backend() is NUMPY)
    got = f(w, b)
    fgrad.config.update("native_loops", False)
    try:
        want = fgrad.jit(fgrad.grad(loss, argnums=(0, 1)))(w, b)
    finally:
        fgrad.config.update("native_loops", None)
    for g, v in zip(got, want):
        assert _bits_equal(np.asarray(g), np.asarray(v))
