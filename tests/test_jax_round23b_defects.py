"""Regression tests of what the round-23b JAX programs (tests/jax_programs_round23b/) found
(docs/jax-programs-round23b.md)."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad.scipy import signal


def _pair():
    rng = np.random.default_rng(0)
    return rng.normal(size=(3, 2, 7)), rng.normal(size=(3, 2, 3))


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_fftconvolve_axes_convolves_each_slice_of_the_other_axes(mode):
    """JAX's ``fftconvolve(..., axes=)`` maps over the axes not convolved; fgrad raised
    NotImplementedError.  Along the last axis, each (i, j) row is its own 1-D convolution."""
    a, b = _pair()
    got = signal.fftconvolve(fnp.asarray(a), fnp.asarray(b), mode=mode, axes=-1)
    want = np.stack([np.stack([np.convolve(a[i, j], b[i, j], mode=mode if mode != "same" else "full")
                               for j in range(2)]) for i in range(3)])
    if mode == "same":  # centred on in1, as scipy
        start = (want.shape[-1] - a.shape[-1]) // 2
        want = want[..., start:start + a.shape[-1]]
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-10, atol=1e-12)
    # axes over (1, 2): 2-D convolutions of each slice along axis 0
    two = signal.fftconvolve(fnp.asarray(a), fnp.asarray(b), mode=mode, axes=(1, 2))
    for i in range(3):
        one = signal.fftconvolve(fnp.asarray(a[i]), fnp.asarray(b[i]), mode=mode)
        np.testing.assert_allclose(np.asarray(two[i]), np.asarray(one), rtol=1e-10, atol=1e-12)


def test_fftconvolve_axes_gradient_and_refusals():
    a, b = _pair()
    g = fgrad.grad(lambda x: signal.fftconvolve(x, fnp.asarray(b), axes=2).sum())(fnp.asarray(a))
    # d/dx sum(x * b) over the full convolution = sum of b's taps, per row
    np.testing.assert_allclose(np.asarray(g), np.broadcast_to(b.sum(-1, keepdims=True), a.shape), rtol=1e-10)
    with pytest.raises(ValueError, match="mapped axes must have same shape"):
        signal.fftconvolve(fnp.ones((2, 4)), fnp.ones((1, 2)), axes=1)
    with pytest.raises(np.exceptions.AxisError, match="fftconvolve"):
        signal.fftconvolve(fnp.ones((2, 4)), fnp.ones((2, 2)), axes=2)


def test_fftconvolve_axes_live_jax():
    jax = pytest.importorskip("jax")
    from jax.scipy import signal as jsignal
    a, b = _pair()
    with jax.enable_x64(True):
        for axes in (-1, (1, 2), [0, 2]):
            want = jsignal.fftconvolve(a, b, mode="same", axes=axes)
            got = signal.fftconvolve(fnp.asarray(a), fnp.asarray(b), mode="same", axes=axes)
            assert got.shape == want.shape and got.dtype == want.dtype
            np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-10, atol=1e-12)
