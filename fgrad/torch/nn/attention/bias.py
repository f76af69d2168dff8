"""``torch.nn.attention.bias``: causal masks as ``attn_mask`` objects.

``causal_upper_left(L, S)``: query i attends to keys 0..i (``is_causal=True``'s mask);
``causal_lower_right(L, S)``: the diagonal ends at the bottom-right corner (query i attends
to keys 0..i+S-L), the mask for decoding with a KV cache.  Pass either as
``F.scaled_dot_product_attention(q, k, v, attn_mask=bias)``.  Unlike PyTorch's (a Tensor
subclass), fgrad's `CausalBias` is a plain object: ``bias._materialize()`` gives the bool tensor.

Example::

    >>> import fgrad.torch as torch
    >>> from fgrad.torch.nn.attention.bias import causal_lower_right
    >>> causal_lower_right(2, 3)._materialize()
    tensor([[ True,  True, False],
            [ True,  True,  True]])
"""

from __future__ import annotations

import enum
import warnings
from typing import Any

import fgrad.torch as torch

from ..._tensor import Tensor

__all__ = ["causal_upper_left", "causal_lower_right", "CausalVariant", "CausalBias"]


class CausalVariant(enum.IntEnum):
    """Where the causal diagonal starts: the upper-left or the lower-right corner.

    Example::

        >>> from fgrad.torch.nn.attention.bias import CausalVariant
        >>> CausalVariant.LOWER_RIGHT
        <CausalVariant.LOWER_RIGHT: 2>
    """

    UPPER_LEFT = 1
    LOWER_RIGHT = 2


class CausalBias:
    """A causal attention mask of ``seq_len_q`` queries by ``seq_len_kv`` keys.

    Example::

        >>> from fgrad.torch.nn.attention.bias import CausalBias, CausalVariant
        >>> CausalBias(CausalVariant.UPPER_LEFT, 2, 2)
        tensor([[ True, False],
                [ True,  True]])
    """

    def __init__(self, variant: CausalVariant, seq_len_q: int, seq_len_kv: int) -> None:
        if not isinstance(variant, CausalVariant):
            raise AssertionError(f"variant must be a CausalVariant, got {type(variant).__name__}")
        self.variant = variant
        self.seq_len_q = seq_len_q
        self.seq_len_kv = seq_len_kv
        if seq_len_q > seq_len_kv and variant == CausalVariant.LOWER_RIGHT:
            warnings.warn("Lower right causal bias will produce NaNs in the output when seq_len_q > "
                          "seq_len_kv!", UserWarning, stacklevel=2)

    def _upper_left(self, device: Any) -> Tensor:
        return torch.ones(self.seq_len_q, self.seq_len_kv, device=device, dtype=torch.bool).tril()

    def _lower_right(self, device: Any) -> Tensor:
        diagonal = self.seq_len_kv - self.seq_len_q
        ones = torch.ones(self.seq_len_q, self.seq_len_kv, device=device, dtype=torch.bool)
        return ones.tril(diagonal=diagonal)

    def _materialize(self, device: Any = None) -> Tensor:
        """The bool mask (True = attend)."""
        if self.variant == CausalVariant.UPPER_LEFT:
            return self._upper_left(device)
        return self._lower_right(device)

    @staticmethod
    def _dispatch(query: Tensor, key: Tensor, value: Tensor, attn_mask: CausalBias, dropout_p: float = 0.0,
                  is_causal: bool = False, scale: float | None = None, enable_gqa: bool = False) -> Tensor:
        """``F.scaled_dot_product_attention`` with this mask (PyTorch's CPU route)."""
        sdpa = torch.nn.functional.scaled_dot_product_attention
        if is_causal:
            raise ValueError("CausalBias should not be used with causal=True")
        if attn_mask.seq_len_q == attn_mask.seq_len_kv or attn_mask.variant == CausalVariant.UPPER_LEFT:
            return sdpa(query, key, value, attn_mask=None, dropout_p=dropout_p, is_causal=True, scale=scale,
                        enable_gqa=enable_gqa)
        return sdpa(query, key, value, attn_mask=attn_mask._materialize(query.device), dropout_p=dropout_p,
                    is_causal=False, scale=scale, enable_gqa=enable_gqa)

    def __repr__(self) -> str:
        return repr(self._materialize())


def causal_upper_left(*size: int) -> CausalBias:
    """The upper-left causal bias of ``size = (seq_len_q, seq_len_kv)``.

    Example::

        >>> from fgrad.torch.nn.attention.bias import causal_upper_left
        >>> causal_upper_left(2, 3)._materialize()
        tensor([[ True, False, False],
                [ True,  True, False]])
    """
    if len(size) != 2:
        raise AssertionError("causal_upper_left only supports 2D tensors")
    return CausalBias(CausalVariant.UPPER_LEFT, size[0], size[1])


def causal_lower_right(*size: int) -> CausalBias:
    """The lower-right causal bias of ``size = (seq_len_q, seq_len_kv)``.

    Example::

        >>> from fgrad.torch.nn.attention.bias import causal_lower_right
        >>> causal_lower_right(1, 3)._materialize()
        tensor([[True, True, True]])
    """
    if len(size) != 2:
        raise AssertionError("causal_lower_right only supports 2D tensors")
    return CausalBias(CausalVariant.LOWER_RIGHT, size[0], size[1])
