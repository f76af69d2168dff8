"""`fgrad.core.native_casts`: the C float32 -> bfloat16 cast gives ``ml_dtypes``' bits
(round to nearest even on every exponent, subnormals, overflow, infinities, NaN payloads of
both signs), `convert_element_type` takes it and gives the same with the native loops off,
and it declines what it does not take."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import lax
from fgrad.backends import NUMPY, default_backend
from fgrad.core import native_casts
from tests._native_switch import native_loops_off, needs_native
from fgrad.core.narrow_floats import bfloat16

needs_cc = needs_native


def _patterns() -> np.ndarray:
    """float32 bit patterns: every sign and exponent with low halves around the rounding
    boundaries (0x7fff, 0x8000, 0x8001 with even and odd kept bits) and random ones, NaN
    payloads (quiet and signalling), infinities, the largest finite values."""
    rng = np.random.default_rng(0)
    hi = np.arange(1 << 16, dtype=np.uint32) << 16  # every sign, exponent and kept mantissa
    lows = np.array([0, 1, 0x7FFF, 0x8000, 0x8001, 0xFFFF], np.uint32)
    grid = (hi[:, None] | lows[None, :]).reshape(-1)
    rand = rng.integers(0, 1 << 32, 200_000, dtype=np.uint64).astype(np.uint32)
    special = np.array([0x7F800000, 0xFF800000, 0x7F800001, 0xFF800001, 0x7FC00000, 0xFFC00000, 0x7FFFFFFF,
                        0xFFFFFFFF, 0x7FBFFFFF, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F7F8000, 0x00008000, 0x00018000,
                        0x80008000, 0x00000001], np.uint32)
    return np.concatenate([grid, rand, special])


@needs_cc
def test_ml_dtypes_bits():
    x = _patterns().view(np.float32)
    got = native_casts.f32_to_bf16(x)
    assert got is not None and got.dtype == np.dtype(bfloat16) and got.shape == x.shape
    with np.errstate(invalid="ignore"):  # (ml_dtypes reports NaN casts; the C loop does not)
        want = x.astype(bfloat16)
    np.testing.assert_array_equal(got.view(np.uint16), want.view(np.uint16))
    shaped = x[:6 * 4096].reshape(6, 64, 64)
    np.testing.assert_array_equal(native_casts.f32_to_bf16(shaped).view(np.uint16),
                                  want[:6 * 4096].reshape(6, 64, 64).view(np.uint16))


def test_declines_what_it_does_not_take():
    x = np.ones((64, 64), np.float32)
    assert native_casts.f32_to_bf16(x.T) is None  # not C-contiguous
    assert native_casts.f32_to_bf16(x[:10]) is None  # small: NumPy's cast
    assert native_casts.f32_to_bf16(x.astype(np.float64)) is None
    with native_loops_off():
        assert native_casts.f32_to_bf16(x) is None


@pytest.mark.skipif(default_backend() is not NUMPY, reason="the device backends have no bfloat16 arrays")
def test_convert_element_type_is_the_same_with_native_loops_off():
    """The primitive (eager and jit, what the shim's ``.to(bfloat16)`` and autocast call)
    gives the same bits with the C cast and with ``ml_dtypes``' own."""
    x = _patterns()[:70_000].view(np.float32).reshape(700, 100)

    def casts():
        with np.errstate(invalid="ignore"):
            eager = np.asarray(lax.convert_element_type(fnp.asarray(x), bfloat16))
            jitted = np.asarray(fgrad.jit(lambda v: (v * 1.0).astype(bfloat16))(x))
        return eager, jitted

    on = casts()
    with native_loops_off():
        off = casts()
    for a, b in zip(on, off):
        assert a.dtype == np.dtype(bfloat16)
        np.testing.assert_array_equal(a.view(np.uint16), b.view(np.uint16))


@pytest.mark.skipif(default_backend() is not NUMPY, reason="the device backends have no bfloat16 arrays")
@pytest.mark.parametrize("make", [
    lambda v: np.broadcast_to(v[:1, :], (700, 100)),    # a row repeated (stride 0 on axis 0)
    lambda v: np.broadcast_to(v[0, 7], (64, 64)),       # one value (a sum's cotangent)
    lambda v: np.broadcast_to(v[:, :1], (700, 100)),    # a column repeated (stride 0 on axis 1)
])
def test_broadcast_operands_cast_as_ml_dtypes(make):
    """A broadcast float32 operand (stride 0) is copied and cast natively (ml_dtypes' cast of
    it runs one element at a time): the bits of ``ml_dtypes``' cast, shape and dtype kept."""
    from fgrad.ops.elementwise import _convert_impl

    x = make(_patterns()[:70_000].view(np.float32).reshape(700, 100))
    with np.errstate(invalid="ignore"):
        got = _convert_impl(np, x, bfloat16, saturate=False)
        want = x.astype(bfloat16)
    assert got.shape == x.shape and got.dtype == np.dtype(bfloat16)
    np.testing.assert_array_equal(got.view(np.uint16), want.view(np.uint16))
