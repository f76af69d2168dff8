"""`core.native_strided_copy.copy_strided`: a strided view copied into a C-contiguous array
in C (the convolutions' patch matrices, `ops.convolution._copy`).  It moves bits only, so
the result must be NumPy's copy byte for byte, NaN payloads included; where it declines,
the caller's NumPy copy runs."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
from fgrad.core import native_loops
from fgrad.core.native_strided_copy import copy_strided

RNG = np.random.default_rng(2501)

needs_compiler = pytest.mark.skipif(not native_loops.available(), reason="no C compiler")


def _base(dtype, n=300_000):
    bits = RNG.integers(0, 2 ** (8 * np.dtype(dtype).itemsize) - 1, n, dtype=f"u{np.dtype(dtype).itemsize}",
                        endpoint=True)
    return bits.view(dtype)  # every bit pattern: NaNs with payloads, signed zeros, subnormals


VIEWS = [  # (shape, strides in elements): the patch views of the DCGAN's and a ResNet's convolutions
    ((1, 32, 4, 4, 16, 4, 4), (1600, 1600, 20, 2, 100, 10, 1)),
    ((1, 16, 4, 4, 32, 4, 4), (3200, 3200, 10, 1, 100, 20, 2)),
    ((1, 1, 4, 4, 32, 8, 8), (10368, 10368, 18, 1, 324, 36, 2)),
    ((1, 2, 8, 8, 8, 16), (0, 9000, -1400, 170, 20, -1)),  # negative strides (flipped axes)
    ((1, 2, 2, 16, 32, 16), (0, 0, 9000, 0, 16, 1)),  # broadcast axes
    ((4, 4, 4, 4, 4, 4, 4, 2), (8192, 2048, 512, 128, 32, 8, 2, 1)),  # eight axes
]


@needs_compiler
@pytest.mark.parametrize("view", range(len(VIEWS)))
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.complex64])
def test_copy_is_numpys_byte_for_byte(view, dtype):
    shape, strides = VIEWS[view]
    base = _base(dtype)
    start = 150_000  # room for negative strides either side
    e = base.itemsize
    x = np.lib.stride_tricks.as_strided(base[start:], shape=shape, strides=tuple(s * e for s in strides))
    out = np.empty(shape, dtype)
    assert copy_strided(x, out)
    want = np.empty(shape, dtype)
    want[...] = x
    np.testing.assert_array_equal(out.view(np.uint8), want.view(np.uint8))


def test_declines_what_it_does_not_handle():
    big = np.zeros((64, 128), np.float32)
    assert copy_strided(big[:, ::2][:2], np.empty((2, 64), np.float32)) is False  # below MIN_SIZE
    assert copy_strided(big, np.empty((64, 128), np.float32)) is False  # 2 axes (fewer than MIN_NDIM)
    big5 = big.reshape(1, 1, 1, 64, 128)
    assert copy_strided(big5, np.empty(big5.shape, np.float64)) is False  # another dtype
    assert copy_strided(big5, np.empty((128, 64, 1, 1, 1), np.float32).T) is False  # not C-ordered
    for dt in (np.int16, object):  # 2-byte items, objects
        assert copy_strided(np.zeros(big5.shape, dt), np.empty(big5.shape, dt)) is False
    fgrad.config.update("native_loops", False)
    try:
        assert copy_strided(big5, np.empty(big5.shape, np.float32)) is False
    finally:
        fgrad.config.update("native_loops", None)


@needs_compiler
def test_convolutions_keep_their_bits():
    """A strided convolution (the DCGAN's discriminator layer) and its gradients, native copy
    on and off."""
    import fgrad.torch as torch

    x0 = RNG.standard_normal((32, 16, 8, 8)).astype(np.float32)
    w0 = RNG.standard_normal((32, 16, 4, 4)).astype(np.float32)
    ct = RNG.standard_normal((32, 32, 4, 4)).astype(np.float32)

    def run():
        x, w = torch.tensor(x0, requires_grad=True), torch.tensor(w0, requires_grad=True)
        out = torch.nn.functional.conv2d(x, w, stride=2, padding=1)
        (out * torch.tensor(ct)).sum().backward()
        return out.detach().numpy(), x.grad.numpy(), w.grad.numpy()

    native = run()
    fgrad.config.update("native_loops", False)
    try:
        plain = run()
    finally:
        fgrad.config.update("native_loops", None)
    for a, b in zip(native, plain, strict=True):
        np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))
