"""torch.nn.attention: sdpa_kernel's backend choice on the CPU, and the causal biases."""

import numpy as np
import pytest

import fgrad.torch as torch
import fgrad.torch.nn.functional as F
from fgrad.torch.nn.attention import SDPBackend, sdpa_kernel
from fgrad.torch.nn.attention.bias import CausalBias, CausalVariant, causal_lower_right, causal_upper_left

rng = np.random.default_rng(0)
Q, K, V = (rng.standard_normal(s).astype(np.float32) for s in ((1, 2, 4, 8), (1, 2, 6, 8), (1, 2, 6, 8)))


def _qkv(mod):
    return mod.tensor(Q), mod.tensor(K), mod.tensor(V)


def test_enum_values_are_pytorchs():
    assert {m.name: m.value for m in SDPBackend} == {"ERROR": -1, "MATH": 0, "FLASH_ATTENTION": 1,
                                                     "EFFICIENT_ATTENTION": 2, "CUDNN_ATTENTION": 3,
                                                     "OVERRIDEABLE": 4}
    assert [v.value for v in CausalVariant] == [1, 2]


def test_sdpa_kernel_sets_and_restores_the_switches():
    with sdpa_kernel(SDPBackend.MATH):
        assert (torch.backends.cuda.flash_sdp_enabled(), torch.backends.cuda.math_sdp_enabled(),
                torch.backends.cuda.mem_efficient_sdp_enabled()) == (False, True, False)
    assert torch.backends.cuda.flash_sdp_enabled() and torch.backends.cuda.math_sdp_enabled()
    with pytest.raises(AssertionError, match="Backend must be an instance of SDPBackend"):
        with sdpa_kernel("math"):
            pass


@pytest.mark.parametrize("backends,ok", [
    (SDPBackend.FLASH_ATTENTION, True), (SDPBackend.MATH, True),
    ([SDPBackend.FLASH_ATTENTION, SDPBackend.MATH], True),
    (SDPBackend.EFFICIENT_ATTENTION, False), (SDPBackend.CUDNN_ATTENTION, False), ([], False)])
def test_cpu_backend_choice_as_pytorch(backends, ok):
    q, k, v = _qkv(torch)
    ref = F.scaled_dot_product_attention(q, k, v)
    with sdpa_kernel(backends):
        if ok:
            np.testing.assert_allclose(F.scaled_dot_product_attention(q, k, v).numpy(), ref.numpy())
        else:
            with pytest.raises(RuntimeError, match="No viable backend for scaled_dot_product_attention"):
                F.scaled_dot_product_attention(q, k, v)


def test_flash_only_rejects_dropout_and_3d_like_pytorch():
    q, k, v = _qkv(torch)
    with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
        for kwargs, why in (({"dropout_p": 0.5}, "do not support non-zero dropout"),
                            ({}, "requires query, key and value to be 4 dimensional")):
            args = (q, k, v) if kwargs else (q[0], k[0], v[0])
            with pytest.warns(UserWarning) as record:
                with pytest.raises(RuntimeError, match="No available kernel"):
                    F.scaled_dot_product_attention(*args, **kwargs)
            messages = [str(w.message) for w in record]
            assert messages[0] == "Flash attention kernel not used because:"
            assert any(why in m for m in messages)


def test_causal_bias_masks_and_attention_live():
    pt = pytest.importorskip("torch")
    from torch.nn.attention import bias as ptb

    for mine, theirs in ((causal_lower_right(4, 6), ptb.causal_lower_right(4, 6)),
                         (causal_upper_left(4, 6), ptb.causal_upper_left(4, 6))):
        np.testing.assert_array_equal(mine._materialize().numpy(), theirs._materialize().numpy())
        out = F.scaled_dot_product_attention(*_qkv(torch), attn_mask=mine)
        ref = pt.nn.functional.scaled_dot_product_attention(*_qkv(pt), attn_mask=theirs)
        np.testing.assert_allclose(out.numpy(), ref.numpy(), rtol=1e-5, atol=1e-6)
        assert repr(mine) == repr(theirs)


def test_causal_bias_stored():
    np.testing.assert_array_equal(causal_lower_right(2, 3)._materialize().numpy(), [[1, 1, 0], [1, 1, 1]])
    np.testing.assert_array_equal(causal_upper_left(2, 3)._materialize().numpy(), [[1, 0, 0], [1, 1, 0]])
    q, k, v = _qkv(torch)
    dense = F.scaled_dot_product_attention(q, k, v, attn_mask=causal_lower_right(4, 6)._materialize())
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=causal_lower_right(4, 6))
    np.testing.assert_allclose(out.numpy(), dense.numpy(), rtol=1e-6)
    with pytest.raises(ValueError, match="CausalBias should not be used with causal=True"):
        F.scaled_dot_product_attention(q, k, v, attn_mask=causal_upper_left(4, 6), is_causal=True)
    with pytest.warns(UserWarning, match="Lower right causal bias will produce NaNs"):
        CausalBias(CausalVariant.LOWER_RIGHT, 6, 4)


def test_causal_bias_gradients_match_the_dense_mask():
    q, k, v = (t.requires_grad_() for t in _qkv(torch))
    F.scaled_dot_product_attention(q, k, v, attn_mask=causal_lower_right(4, 6)).sum().backward()
    g1 = [t.grad.clone() for t in (q, k, v)]
    for t in (q, k, v):
        t.grad = None
    mask = causal_lower_right(4, 6)._materialize()
    F.scaled_dot_product_attention(q, k, v, attn_mask=mask).sum().backward()
    for a, t in zip(g1, (q, k, v), strict=True):
        np.testing.assert_allclose(a.numpy(), t.grad.numpy(), rtol=1e-6)
