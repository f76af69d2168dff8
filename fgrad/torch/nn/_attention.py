"""Attention: `scaled_dot_product_attention` and `multi_head_attention_forward` (PyTorch's
``torch.nn.functional`` functions of those names), written with shim ops (matmul, softmax,
masked_fill), so autograd, devices and dtypes come from those ops.

``scaled_dot_product_attention`` is PyTorch's math definition::

    bias = 0, -inf where a bool attn_mask is False or above the diagonal (is_causal);
           a float attn_mask is added
    weights = softmax(q @ k^T * scale + bias)  (a row with every key masked gives zeros,
                                                as PyTorch's CPU kernels do)
    out = dropout(weights, dropout_p) @ v

float16/bfloat16 operands are computed in float32 and the result rounded once, as PyTorch's
CPU kernels do.

Example::

    >>> import fgrad.torch as torch
    >>> import fgrad.torch.nn.functional as F
    >>> q = torch.ones(1, 2, 3, 4)
    >>> F.scaled_dot_product_attention(q, q, q, is_causal=True).shape
    torch.Size([1, 2, 3, 4])
"""

from __future__ import annotations

import math

import numpy as np

import fgrad.torch as torch

from .._tensor import Tensor
from .._autocast_state import lower_precision as _lower_precision
from ._defop import is_concrete
from .attention import check_backends as _check_sdpa_backends

__all__ = ["scaled_dot_product_attention", "multi_head_attention_forward"]


_CAUSAL_BIAS: dict = {}  # (L, S, dtype, device) -> the causal bias Tensor (a constant)
_CAUSAL_BIAS_MAX = 32


def _causal_bias(L: int, S: int, like: Tensor) -> Tensor:
    """0 on and below the diagonal, -inf above, (L, S) in ``like``'s dtype and device; made
    once per shape (a read-only constant of every call: only ever added to the scores)."""
    key = (L, S, like.dtype, str(like.device), torch.is_inference_mode_enabled())
    hit = _CAUSAL_BIAS.get(key)
    if hit is not None:
        return hit
    causal = torch.ones(L, S, dtype=torch.bool, device=like.device).tril(diagonal=0)
    bias = torch.zeros(L, S, dtype=like.dtype, device=like.device).masked_fill(
        causal.logical_not(), float("-inf")
    )
    if is_concrete(bias):  # (not a value being traced by torch.compile)
        if len(_CAUSAL_BIAS) >= _CAUSAL_BIAS_MAX:
            _CAUSAL_BIAS.clear()
        _CAUSAL_BIAS[key] = bias
    return bias


def _attention_bias(attn_mask, is_causal: bool, L: int, S: int, like: Tensor):
    """The additive bias (None when nothing is masked): -inf above the diagonal for
    ``is_causal`` or where a bool mask is False; a float mask as is."""
    if is_causal:
        return _causal_bias(L, S, like)
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            mask_bias = torch.zeros(attn_mask.shape, dtype=like.dtype, device=like.device).masked_fill(
                attn_mask.logical_not(), float("-inf")
            )
        elif attn_mask.dtype == like.dtype:
            mask_bias = attn_mask
        else:
            raise RuntimeError(
                f"scaled_dot_product_attention: Expected attn_mask dtype to be bool or float "
                f"or to match query dtype, but got attn_mask.dtype: {attn_mask.dtype} and "
                f"query.dtype: {like.dtype} instead; pass a bool mask or one of the "
                f"query's dtype."
            )
        return mask_bias
    return None


def _safe_softmax(scores: Tensor) -> Tensor:
    """softmax over the last dim, with zeros (and zero gradient) for rows that are all -inf."""
    b = scores._buf
    if type(b) is np.ndarray and not (b == -np.inf).all(axis=-1).any():  # the common case, on
        return torch.softmax(scores, dim=-1)                              # the host, without ops
    all_masked = (scores == float("-inf")).all(dim=-1, keepdim=True)
    if is_concrete(all_masked) and not bool(all_masked.any()):  # traced (torch.compile): no branch
        return torch.softmax(scores, dim=-1)
    weights = torch.softmax(scores.masked_fill(all_masked, 0.0), dim=-1)
    return weights.masked_fill(all_masked, 0.0)


def _flash_16bit(scores: Tensor, value: Tensor, out_dtype) -> Tensor:
    """The rest of PyTorch's CPU flash-attention kernel for 16-bit floats, given the float32
    ``scores`` (scaled and masked): exponentials and their row sums in float32, the
    exponentials rounded to the 16-bit type for the product with ``value`` (accumulated in
    float32), divided by the sums and rounded once.  A row with every key masked gives zeros."""
    row_max = scores.amax(dim=-1, keepdim=True)
    row_max = row_max.masked_fill(row_max == float("-inf"), 0.0)
    e = torch.exp(scores - row_max)
    total = e.sum(dim=-1, keepdim=True)
    out = torch.matmul(e.to(out_dtype).float(), value)
    out = out / total.masked_fill(total == 0.0, float("inf"))
    return out.to(out_dtype)


@_lower_precision
def scaled_dot_product_attention(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    attn_mask: Tensor | None = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    scale: float | None = None,
    enable_gqa: bool = False,
) -> Tensor:
    """``softmax(query @ key^T * scale + mask) @ value`` over the last two dims; ``query``
    (..., L, E), ``key`` (..., S, E), ``value`` (..., S, Ev) -> (..., L, Ev).

    ``attn_mask``: bool (True = attend) or float (added), broadcastable to (..., L, S);
    ``is_causal``: query i attends to keys 0..i; ``scale`` defaults to 1/sqrt(E);
    ``enable_gqa``: key/value heads (dim -3) are repeated to match the query's heads.

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.nn.functional as F
        >>> q = torch.tensor([[[1.0, 0.0], [0.0, 1.0]]])
        >>> F.scaled_dot_product_attention(q, q, q, is_causal=True)[0, 0]
        tensor([1., 0.])
    """
    if attn_mask is not None and not isinstance(attn_mask, Tensor) and hasattr(attn_mask, "_dispatch"):
        # a torch.nn.attention.bias.CausalBias
        return attn_mask._dispatch(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa)
    for name, t in (("query", query), ("key", key), ("value", value)):
        if not isinstance(t, Tensor) or t.dim() < 2:
            got = f"shape {tuple(t.shape)}" if isinstance(t, Tensor) else type(t).__name__
            raise RuntimeError(
                f"scaled_dot_product_attention: {name} must be a tensor of at least 2 dims "
                f"(..., seq, features), got {got}"
            )
    if query.size(-1) != key.size(-1):
        raise RuntimeError(
            f"scaled_dot_product_attention: query's last dim ({query.size(-1)}) must equal "
            f"key's ({key.size(-1)}); query {tuple(query.shape)}, key {tuple(key.shape)}"
        )
    if key.size(-2) != value.size(-2):
        raise RuntimeError(
            f"scaled_dot_product_attention: key and value must have the same sequence length "
            f"(dim -2); key {tuple(key.shape)}, value {tuple(value.shape)}"
        )
    if enable_gqa and query.dim() >= 3 and key.dim() >= 3:
        heads, kv_heads = query.size(-3), key.size(-3)
        if heads % kv_heads != 0 or heads % value.size(-3) != 0:
            raise RuntimeError(
                f"scaled_dot_product_attention: with enable_gqa, the query's heads ({heads}) "
                f"must be a multiple of the key's ({kv_heads}) and value's "
                f"({value.size(-3)}) heads"
            )
        key = key.repeat_interleave(heads // kv_heads, -3)
        value = value.repeat_interleave(heads // value.size(-3), -3)
    if is_causal and attn_mask is not None:
        raise RuntimeError(
            "_scaled_dot_product_attention: Explicit attn_mask should not be set when "
            "is_causal=True; pass one of them (a causal bool mask is torch.ones(L, S, "
            "dtype=torch.bool).tril())"
        )
    _check_sdpa_backends(query, key, value, dropout_p)  # torch.nn.attention.sdpa_kernel's choice
    narrow = query.dtype in (torch.bfloat16, torch.float16)
    if narrow:  # PyTorch's CPU kernels (flash and math) compute 16-bit floats in float32, round once
        out_dtype = query.dtype
        query, key, value = query.float(), key.float(), value.float()
        if attn_mask is not None and attn_mask.dtype == out_dtype:
            attn_mask = attn_mask.float()
    L, S = query.size(-2), key.size(-2)
    scale_factor = 1.0 / math.sqrt(query.size(-1)) if scale is None else scale
    scores = torch.matmul(query, key.transpose(-2, -1)) * scale_factor
    bias = _attention_bias(attn_mask, is_causal, L, S, query)
    if narrow and dropout_p == 0.0 and query.dim() == 4:
        return _flash_16bit(scores if bias is None else scores + bias, value, out_dtype)
    if bias is not None:
        scores = scores + bias
        weights = _safe_softmax(scores)
    else:
        weights = torch.softmax(scores, dim=-1)
    if dropout_p > 0.0:
        weights = torch.dropout(weights, dropout_p, True)
    out = torch.matmul(weights, value)
    return out.to(out_dtype) if narrow else out


# ---------------------------------------------------------------------------------------
# multi-head attention


def canonical_mask(mask, mask_name: str, target_type) -> Tensor | None:
    """A bool mask (True = masked out) -> a float one with -inf there; a float mask as is."""
    if mask is None:
        return None
    if mask.dtype == torch.bool:
        return torch.zeros(mask.shape, dtype=target_type, device=mask.device).masked_fill(mask, float("-inf"))
    if not mask.is_floating_point():
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    return mask


def _in_projection(query, key, value, q_w, k_w, v_w, in_proj_bias, embed_dim: int):
    b_q = b_k = b_v = None
    if in_proj_bias is not None:
        b_q, b_k, b_v = in_proj_bias.split(embed_dim)
    return _linear(query, q_w, b_q), _linear(key, k_w, b_k), _linear(value, v_w, b_v)


def _linear(x: Tensor, w: Tensor, b) -> Tensor:
    y = torch.matmul(x, w.t())
    return y if b is None else y + b


def multi_head_attention_forward(query: Tensor, key: Tensor, value: Tensor, embed_dim_to_check: int,
                                 num_heads: int, in_proj_weight: Tensor | None, in_proj_bias: Tensor | None,
                                 bias_k: Tensor | None, bias_v: Tensor | None, add_zero_attn: bool,
                                 dropout_p: float, out_proj_weight: Tensor, out_proj_bias: Tensor | None,
                                 training: bool = True, key_padding_mask: Tensor | None = None,
                                 need_weights: bool = True, attn_mask: Tensor | None = None,
                                 use_separate_proj_weight: bool = False, q_proj_weight: Tensor | None = None,
                                 k_proj_weight: Tensor | None = None, v_proj_weight: Tensor | None = None,
                                 static_k: Tensor | None = None, static_v: Tensor | None = None,
                                 average_attn_weights: bool = True,
                                 is_causal: bool = False) -> tuple[Tensor, Tensor | None]:
    """PyTorch's multi-head attention on sequence-first inputs: ``query`` (L, N, E) or (L, E),
    ``key``/``value`` (S, N, E*) -> ``(output (L, N, E), weights (N, L, S) or per head
    (N, H, L, S), or None when not ``need_weights``)``.

    Example::

        >>> import fgrad.torch as torch
        >>> mha = torch.nn.MultiheadAttention(4, 2)
        >>> x = torch.ones(3, 1, 4)
        >>> mha(x, x, x)[1].shape
        torch.Size([1, 3, 3])
    """
    batched = query.dim() == 3
    if query.dim() not in (2, 3):
        raise AssertionError(
            f"query should be unbatched 2D or batched 3D tensor but received {query.dim()}-D query tensor"
        )
    if key.dim() != query.dim() or value.dim() != query.dim():
        raise AssertionError(
            f"key and value should have the same number of dims as query ({query.dim()}-D), "
            f"but got key {key.dim()}-D and value {value.dim()}-D"
        )
    if not batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    if embed_dim != embed_dim_to_check:
        raise AssertionError(
            f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}"
        )
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if is_causal and attn_mask is None:
        raise RuntimeError(
            "Need attn_mask if specifying the is_causal hint. You may use the Transformer "
            "module method `generate_square_subsequent_mask` to create this mask."
        )
    key_padding_mask = canonical_mask(key_padding_mask, "key_padding_mask", query.dtype)
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None  # the SDPA call below gets is_causal instead
    else:
        attn_mask = canonical_mask(attn_mask, "attn_mask", query.dtype)
        if key_padding_mask is not None:
            is_causal = False

    if not use_separate_proj_weight:
        w_q, w_k, w_v = in_proj_weight.chunk(3)
    else:
        w_q, w_k, w_v = q_proj_weight, k_proj_weight, v_proj_weight
    q, k, v = _in_projection(query, key, value, w_q, w_k, w_v, in_proj_bias, embed_dim)

    if attn_mask is not None:
        if attn_mask.dim() == 2:
            if tuple(attn_mask.shape) != (tgt_len, src_len):
                raise RuntimeError(
                    f"The shape of the 2D attn_mask is {tuple(attn_mask.shape)}, but should be "
                    f"{(tgt_len, src_len)}."
                )
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.dim() == 3:
            if tuple(attn_mask.shape) != (bsz * num_heads, tgt_len, src_len):
                raise RuntimeError(
                    f"The shape of the 3D attn_mask is {tuple(attn_mask.shape)}, but should be "
                    f"{(bsz * num_heads, tgt_len, src_len)}."
                )
        else:
            raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")

    if bias_k is not None and bias_v is not None:
        k = torch.cat([k, bias_k.repeat(1, bsz, 1)])
        v = torch.cat([v, bias_v.repeat(1, bsz, 1)])
        if attn_mask is not None:
            attn_mask = _pad_last(attn_mask)
        if key_padding_mask is not None:
            key_padding_mask = _pad_last(key_padding_mask)

    q = q.reshape(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = k.reshape(k.shape[0], bsz * num_heads, head_dim).transpose(0, 1) if static_k is None else static_k
    v = v.reshape(v.shape[0], bsz * num_heads, head_dim).transpose(0, 1) if static_v is None else static_v
    if add_zero_attn:
        k = torch.cat([k, torch.zeros((bsz * num_heads, 1, head_dim), dtype=k.dtype, device=k.device)], dim=1)
        v = torch.cat([v, torch.zeros((bsz * num_heads, 1, head_dim), dtype=v.dtype, device=v.device)], dim=1)
        if attn_mask is not None:
            attn_mask = _pad_last(attn_mask)
        if key_padding_mask is not None:
            key_padding_mask = _pad_last(key_padding_mask)
    src_len = k.size(1)

    if key_padding_mask is not None:
        if tuple(key_padding_mask.shape) != (bsz, src_len):
            raise AssertionError(
                f"expecting key_padding_mask shape of {(bsz, src_len)}, but got "
                f"{tuple(key_padding_mask.shape)}"
            )
        kpm = (
            key_padding_mask.reshape(bsz, 1, 1, src_len)
            .expand(-1, num_heads, -1, -1)
            .reshape(bsz * num_heads, 1, src_len)
        )
        attn_mask = kpm if attn_mask is None else attn_mask + kpm
    if not training:
        dropout_p = 0.0

    if need_weights:
        scores = torch.matmul(q * math.sqrt(1.0 / head_dim), k.transpose(-2, -1))
        if attn_mask is not None:
            scores = scores + attn_mask
        weights = torch.softmax(scores, dim=-1)
        if dropout_p > 0.0:
            weights = torch.dropout(weights, dropout_p, True)
        out = torch.matmul(weights, v)
        out = out.transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        out = _linear(out, out_proj_weight, out_proj_bias).reshape(tgt_len, bsz, embed_dim)
        weights = weights.reshape(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(dim=1)
        if not batched:
            out, weights = out.squeeze(1), weights.squeeze(0)
        return out, weights

    if attn_mask is not None:
        if attn_mask.size(0) == 1 and attn_mask.dim() == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.reshape(bsz, num_heads, -1, src_len)
    q = q.reshape(bsz, num_heads, tgt_len, head_dim)
    k = k.reshape(bsz, num_heads, src_len, head_dim)
    v = v.reshape(bsz, num_heads, src_len, head_dim)
    out = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    out = out.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    out = _linear(out, out_proj_weight, out_proj_bias).reshape(tgt_len, bsz, embed_dim)
    if not batched:
        out = out.squeeze(1)
    return out, None


def _pad_last(mask: Tensor) -> Tensor:
    """Append one zero column (one more key that nothing masks)."""
    zeros = torch.zeros((*mask.shape[:-1], 1), dtype=mask.dtype, device=mask.device)
    return torch.cat([mask, zeros], dim=-1)
