"""Session 16: the host convolution copies its patches a few images at a time
(`ops.convolution._rows_product`, blocks of about ``_CHUNK_BYTES``) so that each block
is still in cache when its GEMM reads it.  Each image's product is the same GEMM as in one
batched call: the numbers must be the same bit for bit, for every configuration (feature and
batch groups, strides, dilations, negative padding, 1-3 spatial axes, both dtypes), forward and
VJP, and in a jitted CNN gradient against eager.  Checked with one image per block against
one block for the whole batch.  On a device (``FGRAD_BACKEND=fake``) there are no blocks: the
tests that count them run on the host only.
"""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.lax as lax
import fgrad.numpy as fnp
from fgrad.backends import NUMPY, default_backend
from fgrad.ops import convolution as C

from test_convolution import CONV, _conv_arrays, _cos_like

on_host = pytest.mark.skipif(default_backend() is not NUMPY,
                             reason="blocks are a host thing; the default device is another")


def _conv_and_vjp(i, dtype):
    name, xs, ws, kw = CONV[i]
    x, w = (a.astype(dtype) for a in _conv_arrays(i, xs, ws))
    y, vjp = fgrad.vjp(lambda a, b: lax.conv_general_dilated(a, b, **kw), fnp.asarray(x), fnp.asarray(w))
    gx, gw = vjp(fnp.asarray(_cos_like(y).astype(dtype)))
    return [np.asarray(a) for a in (y, gx, gw)]


@on_host
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("i", range(len(CONV)), ids=[c[0] for c in CONV])
def test_one_image_per_block_gives_the_same_bits(i, dtype, monkeypatch):
    monkeypatch.setattr(C, "_ROWS_LAYOUT_MIN_P", 0)  # the patches-as-columns path everywhere
    monkeypatch.setattr(C, "_prefer_shift_add", lambda *a: False)
    monkeypatch.setattr(C, "_CHUNK_BYTES", 1 << 40)
    whole = _conv_and_vjp(i, dtype)
    monkeypatch.setattr(C, "_CHUNK_BYTES", 1)
    calls = []
    real = C._matmul
    monkeypatch.setattr(C, "_matmul", lambda *a: calls.append(a[2].shape) or real(*a))
    blocks = _conv_and_vjp(i, dtype)
    assert any(s[0] == 1 for s in calls), calls  # it did run one image per block
    for a, b in zip(whole, blocks):
        np.testing.assert_array_equal(a, b)


@on_host
def test_a_training_batch_runs_in_blocks_of_about_a_megabyte(monkeypatch):
    # the CNN's second layer, batch 64: 144 patch rows x 224 positions (14 wide rows of the
    # 16-wide padded input, `_wide_rows_product`) x 4 bytes = 129 kB per image, so blocks of
    # 8 images
    x = np.random.default_rng(0).standard_normal((64, 16, 14, 14)).astype(np.float32)
    w = np.random.default_rng(1).standard_normal((32, 16, 3, 3)).astype(np.float32)
    calls = []
    real = C._matmul
    monkeypatch.setattr(C, "_matmul", lambda *a: calls.append(a[2].shape) or real(*a))
    y = lax.conv_general_dilated(fnp.asarray(x), fnp.asarray(w), (1, 1), ((1, 1), (1, 1)))
    assert [s[0] for s in calls] == [8] * 8
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
    want = sum(np.einsum("ncij,oc->noij", xp[:, :, a:a + 14, b:b + 14], w[:, :, a, b].astype(np.float64))
               for a in range(3) for b in range(3))
    np.testing.assert_allclose(np.asarray(y), want, rtol=1e-5, atol=1e-4)


@on_host
def test_jitted_forward_keeping_its_patches_in_blocks_equals_eager(monkeypatch):
    # under jit the forward writes its blocks into the patch matrix it keeps for the weight
    # gradient: one image per block, the jitted gradient still equals eager's bit for bit
    from test_conv_shared_patches import _cnn_inputs, _cnn_loss

    params, x, onehot = _cnn_inputs()
    vg = fgrad.value_and_grad(_cnn_loss)
    want_v, want_g = vg(params, x, onehot)
    monkeypatch.setattr(C, "_CHUNK_BYTES", 1)
    calls = []
    real = C._matmul
    monkeypatch.setattr(C, "_matmul", lambda *a: calls.append(a[2].shape) or real(*a))
    got_v, got_g = fgrad.jit(vg)(params, x, onehot)
    assert sum(s[0] == 1 for s in calls) >= 2 * x.shape[0]  # both layers' forwards, per image
    np.testing.assert_array_equal(np.asarray(got_v), np.asarray(want_v))
    for a, b in zip(fgrad.tree_util.tree_leaves(got_g), fgrad.tree_util.tree_leaves(want_g)):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
