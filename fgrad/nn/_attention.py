"""Scaled dot-product attention (``jax.nn.dot_product_attention``), written with
`fgrad.numpy`'s ``einsum`` and `softmax`, so it differentiates, batches and stages like any
composite.  Layout as in JAX: ``[batch, seq, heads, head_dim]`` (the batch axis optional);
key/value may have fewer heads than the query (grouped-query attention).  Precision as JAX's:
the logits in at least float32, the softmax in float32 for every input dtype (float64 too),
the probabilities cast to the key's dtype before they weight the values."""

from __future__ import annotations

from ..typing import Array, ArrayLike, Shaped

import math

import numpy as np
from ..core.narrow_floats import finfo as _narrow_finfo
from ..core.narrow_floats import promote_types

from .. import numpy as fnp
from ..core.array import ArrayImpl as _ArrayImpl
from ..core.array import Tracer as _Tracer
from ..core.array import get_aval as _get_aval
from ._activations import softmax, logsumexp


def _arr(x):
    return x if isinstance(x, (_Tracer, _ArrayImpl)) else fnp.asarray(x)


def _large_negative(dtype) -> float:
    # what a masked logit becomes: far below any real logit, yet finite, so a row with every
    # entry masked gives a uniform average (as in JAX) rather than NaN; capped at float32's
    # range, where the softmax runs (as JAX)
    return -0.7 * min(float(_narrow_finfo(dtype).max), float(np.finfo(np.float32).max))


def _check_qkv(query, key, value):
    q, k, v = (_get_aval(a) for a in (query, key, value))
    if not q.ndim == k.ndim == v.ndim or q.ndim not in (3, 4):
        raise ValueError("dot_product_attention: query, key and value must all be 3D [T, N, H] or 4D "
                         f"[B, T, N, H], got shapes {q.shape}, {k.shape}, {v.shape}")
    if k.shape != v.shape:
        raise ValueError(f"dot_product_attention: key and value must have the same shape, got {k.shape} "
                         f"and {v.shape}")
    if q.shape[-1] != k.shape[-1] or (q.ndim == 4 and q.shape[0] != k.shape[0]):
        raise ValueError(f"dot_product_attention: query {q.shape} and key {k.shape} must agree in the "
                         "batch and head_dim axes")
    if q.shape[-2] % k.shape[-2]:
        raise ValueError(f"dot_product_attention: the number of query heads ({q.shape[-2]}) must be a "
                         f"multiple of the number of key/value heads ({k.shape[-2]})")


def _check_lengths(lengths, b, name):
    """JAX's check of ``query_seq_lengths``/``key_value_seq_lengths``: int32, shape ``[B]``."""
    aval = _get_aval(lengths)
    if aval.ndim != 1 or aval.dtype != np.int32 or aval.shape[0] != b:
        raise ValueError(f"dot_product_attention: {name} must be an int32 array of shape ({b},) (one "
                         f"length per batch row), got {aval.dtype} of shape {aval.shape}; pass "
                         f"jnp.asarray(lengths, jnp.int32)")
    return lengths


def _position_mask(t, s, is_causal, local_window_size):
    """The [T, S] boolean mask of the causal and local-window constraints (None: no mask)."""
    q_pos = np.arange(t)[:, None]
    k_pos = np.arange(s)[None, :]
    keep = np.ones((t, s), dtype=bool)
    if is_causal:
        keep &= k_pos <= q_pos
    if local_window_size is not None:
        left, right = ((local_window_size, local_window_size) if isinstance(local_window_size, int)
                       else tuple(local_window_size))
        keep &= (k_pos >= q_pos - left) & (k_pos <= q_pos + right)
    return None if keep.all() else keep


def dot_product_attention(query: Shaped[ArrayLike, "*batch t n h"],
                          key: Shaped[ArrayLike, "*batch s k h"],
                          value: Shaped[ArrayLike, "*batch s k h"], bias: ArrayLike | None = None,
                          mask: ArrayLike | None = None, *, scale: float | None = None,
                          is_causal: bool = False,
                          query_seq_lengths: ArrayLike | None = None,
                          key_value_seq_lengths: ArrayLike | None = None,
                          local_window_size: int | tuple[int, int] | None = None,
                          implementation: str | None = None,
                          return_residual: bool = False) -> Array | tuple[Array, Array]:
    """``softmax(scale * query @ key^T + bias, masked) @ value`` per batch and head.

    Shapes as in JAX: query ``[B, T, N, H]``, key/value ``[B, S, K, H]`` with ``N`` a
    multiple of ``K`` (or all three without the batch axis); ``bias`` and the boolean
    ``mask`` (True = attend) broadcast to ``[B, N, T, S]``; ``scale`` defaults to
    ``1/sqrt(H)``; ``is_causal`` masks keys after the query position, ``local_window_size``
    (``w`` or ``(left, right)``) keys outside the window, and the sequence lengths ``[B]``
    the padding.  ``return_residual=True`` also returns the ``logsumexp`` of the scaled
    logits, ``[B, T, N]``.

    Example::

        >>> import fgrad.nn as nn, fgrad.numpy as fnp
        >>> q = k = v = fnp.ones((1, 3, 2, 4))
        >>> nn.dot_product_attention(q, k, v, is_causal=True).shape
        (1, 3, 2, 4)
    """
    if implementation not in (None, "xla"):
        raise ValueError(f"dot_product_attention: implementation {implementation!r} is not available in "
                         "fgrad; use None (or 'xla', which fgrad treats the same)")
    query, key, value = _arr(query), _arr(key), _arr(value)
    _check_qkv(query, key, value)
    unbatched = _get_aval(query).ndim == 3
    if unbatched:
        query, key, value = (fnp.expand_dims(a, 0) for a in (query, key, value))
    b, t, n, h = _get_aval(query).shape
    s, k_heads = _get_aval(key).shape[1], _get_aval(key).shape[2]
    # as JAX: logits in at least float32 (bfloat16 products summed in float32), the softmax
    # in float32 (also for float64 inputs), the probabilities back in the key's dtype
    dtype = promote_types(_get_aval(query).dtype, np.float32)
    if scale is None:
        scale = 1.0 / math.sqrt(h)
    group = n // k_heads
    # [B, T, K, G, H] x [B, S, K, H] -> [B, K, G, T, S]
    q5 = fnp.reshape(query, (b, t, k_heads, group, h))
    logits = fnp.einsum("btkgh,bskh->bkgts", q5, key, preferred_element_type=dtype)
    logits = fnp.multiply(logits, fnp.asarray(scale, dtype))
    logits = fnp.reshape(logits, (b, n, t, s))
    if bias is not None:
        bias = _arr(bias)
        logits = fnp.add(logits, fnp.expand_dims(bias, 0) if unbatched and _get_aval(bias).ndim == 3
                         else bias).astype(dtype)
    keep = None
    if mask is not None:
        mask = _arr(mask)
        if _get_aval(mask).dtype != np.bool_:
            raise TypeError(f"dot_product_attention: mask must be boolean, got {_get_aval(mask).dtype}")
        keep = fnp.expand_dims(mask, 0) if unbatched and _get_aval(mask).ndim == 3 else mask
    position = _position_mask(t, s, is_causal, local_window_size)
    if position is not None:
        keep = position if keep is None else fnp.logical_and(keep, position)
    if query_seq_lengths is not None:
        q_len = _check_lengths(_arr(query_seq_lengths), b, "query_seq_lengths")
        q_ok = fnp.less(np.arange(t)[None, :], fnp.reshape(q_len, (b, 1)))
        q_ok = fnp.reshape(q_ok, (b, 1, t, 1))
        keep = q_ok if keep is None else fnp.logical_and(keep, q_ok)
    if key_value_seq_lengths is not None:
        kv_len = _check_lengths(_arr(key_value_seq_lengths), b, "key_value_seq_lengths")
        kv_ok = fnp.less(np.arange(s)[None, :], fnp.reshape(kv_len, (b, 1)))
        kv_ok = fnp.reshape(kv_ok, (b, 1, 1, s))
        keep = kv_ok if keep is None else fnp.logical_and(keep, kv_ok)
    if keep is not None:
        logits = fnp.where(keep, logits, fnp.asarray(_large_negative(dtype), dtype))
    logits = logits.astype(np.float32)
    probs = softmax(logits, axis=-1).astype(_get_aval(key).dtype)
    # [B, K, G, T, S] x [B, S, K, H] -> [B, T, K, G, H]
    out = fnp.einsum("bkgts,bskh->btkgh", fnp.reshape(probs, (b, k_heads, group, t, s)), value)
    out = fnp.reshape(out, (b, t, n, h))
    if unbatched:
        out = fnp.squeeze(out, 0)
    if not return_residual:
        return out
    residual = fnp.transpose(logsumexp(logits, axis=-1).astype(_get_aval(key).dtype), (0, 2, 1))
    return out, (fnp.squeeze(residual, 0) if unbatched else residual)
