"""`TransformerEncoderLayer`, `TransformerEncoder`, `TransformerDecoderLayer`,
`TransformerDecoder`, `Transformer`: PyTorch's layers with its submodule names (``self_attn``,
``linear1``, ``norm1``, ``layers.0``...), so state dicts load both ways.

Post-norm (default) ``x = norm1(x + sa(x)); x = norm2(x + ff(x))``; ``norm_first=True``
gives ``x = x + sa(norm1(x)); x = x + ff(norm2(x))``. PyTorch's inference fast path
(nested tensors, fused kernels) is not reproduced: outputs equal PyTorch's regular path, which
differs from the fast path only at padded positions (PyTorch's fast path writes zeros there).

Example::

    >>> import fgrad.torch as torch
    >>> layer = torch.nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, batch_first=True)
    >>> enc = torch.nn.TransformerEncoder(layer, num_layers=2)
    >>> mask = torch.nn.Transformer.generate_square_subsequent_mask(5)
    >>> enc(torch.randn(3, 5, 8), mask=mask, is_causal=True).shape
    torch.Size([3, 5, 8])
"""

from __future__ import annotations

import copy
from typing import Callable

import fgrad.torch as torch

import fgrad.torch.nn.functional as F
import fgrad.torch._deprecations as _deprecations
from fgrad.torch.backends import mha as _mha_backend
from .._attention import canonical_mask as _canonical_mask
from .activation import GELU, MultiheadAttention, ReLU
from .container import ModuleList
from .dropout import Dropout
from .linear import Linear
from .module import Module
from .normalization import LayerNorm
from fgrad.torch.types import Device, DType, Tensor

__all__ = [
    "TransformerEncoderLayer",
    "TransformerEncoder",
    "TransformerDecoderLayer",
    "TransformerDecoder",
    "Transformer",
]


def _generate_square_subsequent_mask(sz: int, device=None, dtype=None):
    """An (sz, sz) float mask: -inf above the diagonal, 0 elsewhere."""
    if dtype is None:
        dtype = torch.get_default_dtype()
    return torch.triu(torch.full((sz, sz), float("-inf"), dtype=dtype, device=device), diagonal=1)


def _activation_fn(activation) -> Callable:
    if callable(activation):
        return activation
    if activation == "relu":
        return F.relu
    if activation == "gelu":
        return F.gelu
    raise RuntimeError(f"activation should be relu/gelu, not {activation}")


def _detect_is_causal_mask(mask, is_causal: bool | None, size: int | None) -> bool:
    """``is_causal`` if given; otherwise whether ``mask`` is the square subsequent mask."""
    make_causal = is_causal is True
    if is_causal is None and mask is not None:
        sz = size if size is not None else mask.size(-2)
        causal = _generate_square_subsequent_mask(sz, device=mask.device, dtype=mask.dtype)
        make_causal = tuple(mask.shape) == tuple(causal.shape) and bool((mask == causal).all())
    return make_causal


def _seq_len(x, batch_first: bool) -> int:
    if x.dim() == 2:  # unbatched (S, E)
        return x.size(0)
    return x.size(1 if batch_first else 0)


def _clones(module: Module, n: int) -> ModuleList:
    return ModuleList([copy.deepcopy(module) for _ in range(n)])


def _build_layer(layer: Module, d_model: int, nhead: int, dim_feedforward: int, dropout: float, activation,
                 layer_norm_eps: float, batch_first: bool, norm_first: bool, bias: bool, factory_kwargs: dict,
                 *, cross_attention: bool) -> None:
    """The submodules of an encoder layer (``cross_attention=False``) or a decoder layer, in
    PyTorch's order (its parameter initialisation draws and its state-dict keys follow it)."""
    def attention() -> MultiheadAttention:
        return MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias, batch_first=batch_first,
                                  **factory_kwargs)

    blocks = 3 if cross_attention else 2
    layer.self_attn = attention()
    if cross_attention:
        layer.multihead_attn = attention()
    layer.linear1 = Linear(d_model, dim_feedforward, bias=bias, **factory_kwargs)
    layer.dropout = Dropout(dropout)
    layer.linear2 = Linear(dim_feedforward, d_model, bias=bias, **factory_kwargs)
    layer.norm_first = norm_first
    for k in range(1, blocks + 1):
        setattr(layer, f"norm{k}", LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory_kwargs))
    for k in range(1, blocks + 1):
        setattr(layer, f"dropout{k}", Dropout(dropout))
    layer.activation = _activation_fn(activation)


def _attention_block(attn: MultiheadAttention, dropout: Dropout, x, kv, attn_mask, key_padding_mask,
                     is_causal: bool):
    """``dropout(attn(x, kv, kv))``: the self-attention (``kv`` is ``x``) and the cross-attention
    blocks of the layers."""
    out = attn(x, kv, kv, attn_mask=attn_mask, key_padding_mask=key_padding_mask, need_weights=False,
               is_causal=is_causal)[0]
    return dropout(out)


def _feed_forward_block(layer: Module, dropout: Dropout, x):
    return dropout(layer.linear2(layer.dropout(layer.activation(layer.linear1(x)))))


def _residual(x, norm: LayerNorm, norm_first: bool, block: Callable):
    """``x + block(norm(x))`` (pre-norm) or ``norm(x + block(x))`` (post-norm, the default)."""
    return x + block(norm(x)) if norm_first else norm(x + block(x))


class TransformerEncoderLayer(Module):
    """Self-attention and a feed-forward block, each with a residual connection and LayerNorm.

    Example::

        >>> import fgrad.torch as torch
        >>> layer = torch.nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16)
        >>> layer(torch.randn(5, 3, 8)).shape
        torch.Size([5, 3, 8])
    """

    __constants__ = ["norm_first"]

    def __init__(
        self,
        d_model: int,
        nhead: int,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: str | Callable[[Tensor], Tensor] = "relu",
        layer_norm_eps: float = 1e-5,
        batch_first: bool = False,
        norm_first: bool = False,
        bias: bool = True,
        device: Device = None,
        dtype: DType | None = None,
    ) -> None:
        super().__init__()
        _build_layer(self, d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first,
                     norm_first, bias, {"device": device, "dtype": dtype}, cross_attention=False)
        act = self.activation  # PyTorch's flag for its fast path: 1 relu, 2 gelu, 0 other
        self.activation_relu_or_gelu = (1 if act is F.relu or isinstance(act, ReLU) else
                                        2 if act is F.gelu or isinstance(act, GELU) else 0)

    def __setstate__(self, state) -> None:
        super().__setstate__(state)
        if not hasattr(self, "activation"):
            self.activation = F.relu

    def forward(self, src: Tensor, src_mask: Tensor | None = None, src_key_padding_mask: Tensor | None = None,
                is_causal: bool = False) -> Tensor:
        src_key_padding_mask = _canonical_mask(src_key_padding_mask, "src_key_padding_mask", src.dtype)
        src_mask = _canonical_mask(src_mask, "src_mask", src.dtype)
        x = _residual(src, self.norm1, self.norm_first,
                      lambda y: self._sa_block(y, src_mask, src_key_padding_mask, is_causal))
        return _residual(x, self.norm2, self.norm_first, self._ff_block)

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal: bool = False):
        return _attention_block(self.self_attn, self.dropout1, x, x, attn_mask, key_padding_mask, is_causal)

    def _ff_block(self, x):
        return _feed_forward_block(self, self.dropout2, x)


class TransformerDecoderLayer(Module):
    """Self-attention, attention over the encoder's ``memory``, and a feed-forward block.

    Example::

        >>> import fgrad.torch as torch
        >>> layer = torch.nn.TransformerDecoderLayer(d_model=8, nhead=2, dim_feedforward=16)
        >>> layer(torch.randn(4, 3, 8), torch.randn(6, 3, 8)).shape
        torch.Size([4, 3, 8])
    """

    __constants__ = ["norm_first"]

    def __init__(
        self,
        d_model: int,
        nhead: int,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: str | Callable[[Tensor], Tensor] = "relu",
        layer_norm_eps: float = 1e-5,
        batch_first: bool = False,
        norm_first: bool = False,
        bias: bool = True,
        device: Device = None,
        dtype: DType | None = None,
    ) -> None:
        super().__init__()
        _build_layer(self, d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first,
                     norm_first, bias, {"device": device, "dtype": dtype}, cross_attention=True)

    def __setstate__(self, state) -> None:
        if "activation" not in state:
            state["activation"] = F.relu
        super().__setstate__(state)

    def forward(
        self,
        tgt: Tensor,
        memory: Tensor,
        tgt_mask: Tensor | None = None,
        memory_mask: Tensor | None = None,
        tgt_key_padding_mask: Tensor | None = None,
        memory_key_padding_mask: Tensor | None = None,
        tgt_is_causal: bool = False,
        memory_is_causal: bool = False,
    ) -> Tensor:
        x = _residual(tgt, self.norm1, self.norm_first,
                      lambda y: self._sa_block(y, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
        x = _residual(x, self.norm2, self.norm_first,
                      lambda y: self._mha_block(y, memory, memory_mask, memory_key_padding_mask,
                                                memory_is_causal))
        return _residual(x, self.norm3, self.norm_first, self._ff_block)

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal: bool = False):
        return _attention_block(self.self_attn, self.dropout1, x, x, attn_mask, key_padding_mask, is_causal)

    def _mha_block(self, x, mem, attn_mask, key_padding_mask, is_causal: bool = False):
        return _attention_block(self.multihead_attn, self.dropout2, x, mem, attn_mask, key_padding_mask,
                                is_causal)

    def _ff_block(self, x):
        return _feed_forward_block(self, self.dropout3, x)


class TransformerEncoder(Module):
    """``num_layers`` deep copies of ``encoder_layer`` (``layers.0``, ``layers.1``...), then
    ``norm`` if given; ``forward(src, mask=None, src_key_padding_mask=None, is_causal=None)``.

    Example::

        >>> import fgrad.torch as torch
        >>> layer = torch.nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16)
        >>> torch.nn.TransformerEncoder(layer, num_layers=2)(torch.randn(5, 3, 8)).shape
        torch.Size([5, 3, 8])
    """

    def __init__(
        self,
        encoder_layer: Module,
        num_layers: int,
        norm: Module | None = None,
        enable_nested_tensor: bool = True,
        mask_check: bool = True,
    ) -> None:
        super().__init__()
        self.layers = _clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        # PyTorch's "sparsity fast path" (a nested tensor in eval mode; see `_padded_to_zero`):
        # its conditions on the layer, checked once (PyTorch also warns when they fail)
        why_not = _deprecations.nested_tensor_reason(encoder_layer, TransformerEncoderLayer)
        if enable_nested_tensor and why_not:
            _deprecations.warn("enable_nested_tensor is True, but self.use_nested_tensor is False because "
                               f"{why_not}")
        self.use_nested_tensor = enable_nested_tensor and not why_not
        self.mask_check = mask_check

    def forward(self, src: Tensor, mask: Tensor | None = None, src_key_padding_mask: Tensor | None = None,
                is_causal: bool | None = None) -> Tensor:
        first = self.layers[0] if len(self.layers) else None
        batch_first = bool(first is not None and getattr(first.self_attn, "batch_first", False))
        is_causal = _detect_is_causal_mask(mask, is_causal, _seq_len(src, batch_first))
        output = src
        for mod in self.layers:
            output = mod(
                output, src_mask=mask, is_causal=is_causal, src_key_padding_mask=src_key_padding_mask
            )
        if self._padded_to_zero(src, mask, src_key_padding_mask):
            keep = _canonical_mask(src_key_padding_mask, "src_key_padding_mask", src.dtype).logical_not()
            output = output.masked_fill(keep.logical_not().unsqueeze(-1), 0.0)
        if self.norm is not None:
            output = self.norm(output)
        return output

    def _padded_to_zero(self, src: Tensor, mask: Tensor | None, src_key_padding_mask: Tensor | None) -> bool:
        """Whether PyTorch takes its nested-tensor fast path, whose output is 0 at every padded
        position (the padded tokens are dropped, then ``to_padded_tensor(0.0)``; the others are
        what the masked computation gives): eval mode, a batched input with a left-aligned
        key padding mask and no ``mask``, no autocast, and no gradient to record."""
        first = self.layers[0] if len(self.layers) else None
        if (first is None or not getattr(self, "use_nested_tensor", False) or first.training
                or src_key_padding_mask is None or src.dim() != 3 or mask is not None
                or not _mha_backend.get_fastpath_enabled() or torch.is_autocast_enabled()):
            return False
        keep = _canonical_mask(src_key_padding_mask, "src_key_padding_mask", src.dtype).logical_not()
        if getattr(self, "mask_check", True) and not bool(
                (keep[:, 1:] <= keep[:, :-1]).all()):  # left aligned: no kept token after a padded one
            return False
        sa = first.self_attn
        args = (src, sa.in_proj_weight, sa.in_proj_bias, sa.out_proj.weight, sa.out_proj.bias,
                first.norm1.weight, first.norm1.bias, first.norm2.weight, first.norm2.bias,
                first.linear1.weight, first.linear1.bias, first.linear2.weight, first.linear2.bias)
        return not (torch.is_grad_enabled() and any(a is not None and a.requires_grad for a in args))


class TransformerDecoder(Module):
    """``num_layers`` deep copies of ``decoder_layer``, then ``norm`` if given;
    ``forward(tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
    memory_key_padding_mask=None, tgt_is_causal=None, memory_is_causal=False)``.

    Example::

        >>> import fgrad.torch as torch
        >>> layer = torch.nn.TransformerDecoderLayer(d_model=8, nhead=2, dim_feedforward=16)
        >>> torch.nn.TransformerDecoder(layer, 2)(torch.randn(4, 3, 8), torch.randn(6, 3, 8)).shape
        torch.Size([4, 3, 8])
    """

    def __init__(self, decoder_layer: Module, num_layers: int, norm: Module | None = None) -> None:
        super().__init__()
        self.layers = _clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(
        self,
        tgt: Tensor,
        memory: Tensor,
        tgt_mask: Tensor | None = None,
        memory_mask: Tensor | None = None,
        tgt_key_padding_mask: Tensor | None = None,
        memory_key_padding_mask: Tensor | None = None,
        tgt_is_causal: bool | None = None,
        memory_is_causal: bool = False,
    ) -> Tensor:
        first = self.layers[0] if len(self.layers) else None
        batch_first = bool(first is not None and getattr(first.self_attn, "batch_first", False))
        tgt_is_causal = _detect_is_causal_mask(tgt_mask, tgt_is_causal, _seq_len(tgt, batch_first))
        output = tgt
        for mod in self.layers:
            output = mod(
                output,
                memory,
                tgt_mask=tgt_mask,
                memory_mask=memory_mask,
                tgt_key_padding_mask=tgt_key_padding_mask,
                memory_key_padding_mask=memory_key_padding_mask,
                tgt_is_causal=tgt_is_causal,
                memory_is_causal=memory_is_causal,
            )
        if self.norm is not None:
            output = self.norm(output)
        return output


class Transformer(Module):
    """An encoder-decoder transformer (Vaswani et al.), PyTorch's defaults: ``d_model=512,
    nhead=8, num_encoder_layers=6, num_decoder_layers=6, dim_feedforward=2048, dropout=0.1``.

    Example::

        >>> import fgrad.torch as torch
        >>> model = torch.nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1,
        ...                              dim_feedforward=16, batch_first=True)
        >>> tgt_mask = model.generate_square_subsequent_mask(4)
        >>> model(torch.randn(2, 6, 8), torch.randn(2, 4, 8), tgt_mask=tgt_mask).shape
        torch.Size([2, 4, 8])
    """

    def __init__(
        self,
        d_model: int = 512,
        nhead: int = 8,
        num_encoder_layers: int = 6,
        num_decoder_layers: int = 6,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: str | Callable[[Tensor], Tensor] = "relu",
        custom_encoder: Module | None = None,
        custom_decoder: Module | None = None,
        layer_norm_eps: float = 1e-5,
        batch_first: bool = False,
        norm_first: bool = False,
        bias: bool = True,
        device: Device = None,
        dtype: DType | None = None,
    ) -> None:
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            encoder_layer = TransformerEncoderLayer(
                d_model,
                nhead,
                dim_feedforward,
                dropout,
                activation,
                layer_norm_eps,
                batch_first,
                norm_first,
                bias,
                **factory_kwargs,
            )
            encoder_norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory_kwargs)
            self.encoder = TransformerEncoder(encoder_layer, num_encoder_layers, encoder_norm)
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            decoder_layer = TransformerDecoderLayer(
                d_model,
                nhead,
                dim_feedforward,
                dropout,
                activation,
                layer_norm_eps,
                batch_first,
                norm_first,
                bias,
                **factory_kwargs,
            )
            decoder_norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory_kwargs)
            self.decoder = TransformerDecoder(decoder_layer, num_decoder_layers, decoder_norm)
        self._reset_parameters()
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(
        self,
        src: Tensor,
        tgt: Tensor,
        src_mask: Tensor | None = None,
        tgt_mask: Tensor | None = None,
        memory_mask: Tensor | None = None,
        src_key_padding_mask: Tensor | None = None,
        tgt_key_padding_mask: Tensor | None = None,
        memory_key_padding_mask: Tensor | None = None,
        src_is_causal: bool | None = None,
        tgt_is_causal: bool | None = None,
        memory_is_causal: bool = False,
    ) -> Tensor:
        is_batched = src.dim() == 3
        if not self.batch_first and src.size(1) != tgt.size(1) and is_batched:
            raise RuntimeError("the batch number of src and tgt must be equal")
        if self.batch_first and src.size(0) != tgt.size(0) and is_batched:
            raise RuntimeError("the batch number of src and tgt must be equal")
        if src.size(-1) != self.d_model or tgt.size(-1) != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(
            src, mask=src_mask, src_key_padding_mask=src_key_padding_mask, is_causal=src_is_causal
        )
        return self.decoder(
            tgt,
            memory,
            tgt_mask=tgt_mask,
            memory_mask=memory_mask,
            tgt_key_padding_mask=tgt_key_padding_mask,
            memory_key_padding_mask=memory_key_padding_mask,
            tgt_is_causal=tgt_is_causal,
            memory_is_causal=memory_is_causal,
        )

    @staticmethod
    def generate_square_subsequent_mask(sz: int, device: Device = None, dtype: DType | None = None) -> Tensor:
        """An (sz, sz) float mask with -inf above the diagonal (position i sees 0..i).

        Example::

            >>> import fgrad.torch as torch
            >>> torch.nn.Transformer.generate_square_subsequent_mask(2)
            tensor([[0., -inf],
                    [0., 0.]])
        """
        return _generate_square_subsequent_mask(sz, device=device, dtype=dtype)

    def _reset_parameters(self) -> None:
        for p in self.parameters():
            if p.dim() > 1:
                torch.nn.init.xavier_uniform_(p)
