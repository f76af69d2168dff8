"""nn.TransformerEncoder as deployed: eval mode with src_key_padding_mask (PyTorch's fast path
turns the batch into a nested tensor, so padded positions come out as zeros), the same with
enable_nested_tensor=False, norm_first layers, a causal mask with is_causal=True, a
TransformerDecoder with tgt_is_causal and memory_key_padding_mask, masked mean pooling, and
F.scaled_dot_product_attention with bool and float masks and a custom scale."""
# ruff: noqa: B007, E501  (written as the published program is)

import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

warnings.filterwarnings("ignore")
torch.manual_seed(0)
torch.set_printoptions(precision=4)
d_model, B, S = 8, 2, 5
src = torch.randn(B, S, d_model)
pad = torch.tensor([[False, False, False, True, True], [False, False, False, False, False]])
layer = nn.TransformerEncoderLayer(d_model, nhead=2, dim_feedforward=16, dropout=0.1, batch_first=True)
enc = nn.TransformerEncoder(layer, num_layers=2)
enc.eval()
with torch.no_grad():
    out = enc(src, src_key_padding_mask=pad)
print(out[0, :, :3])
print(out[1, :, :3])
enc_nn = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
enc_nn.load_state_dict(enc.state_dict())
enc_nn.eval()
with torch.no_grad():
    out2 = enc_nn(src, src_key_padding_mask=pad)
print(out2[0, :, :3])
print(torch.allclose(out[:, :3][0], out2[:, :3][0], atol=1e-5), torch.allclose(out[1], out2[1], atol=1e-5))
keep = (~pad).unsqueeze(-1).float()
print((out2 * keep).sum(1) / keep.sum(1))

enc.train()
torch.manual_seed(1)
out_t = enc(src, src_key_padding_mask=pad)
print(out_t[0, 3, :3], out_t.requires_grad)

pre = nn.TransformerEncoderLayer(d_model, 2, 16, dropout=0.0, batch_first=True, norm_first=True, activation="gelu")
causal = nn.Transformer.generate_square_subsequent_mask(S)
print(causal)
y1 = pre(src, src_mask=causal, is_causal=True)
y2 = pre(src, src_mask=causal)
print(y1[0, :2, :4], torch.allclose(y1, y2, atol=1e-6))

dec_layer = nn.TransformerDecoderLayer(d_model, 2, 16, dropout=0.0, batch_first=True)
dec = nn.TransformerDecoder(dec_layer, 2, norm=nn.LayerNorm(d_model))
tgt = torch.randn(B, 4, d_model)
tmask = nn.Transformer.generate_square_subsequent_mask(4)
o = dec(tgt, out2, tgt_mask=tmask, tgt_is_causal=True, memory_key_padding_mask=pad)
print(o[1, :, :4])
(o * torch.arange(8.0)).sum().backward()
print(dec.layers[0].multihead_attn.in_proj_weight.grad.norm())

q, k, v = torch.randn(3, B, 2, S, 4).unbind(0)
bool_mask = torch.ones(S, S, dtype=torch.bool).tril()
print(F.scaled_dot_product_attention(q, k, v, attn_mask=bool_mask)[0, 0, :2])
float_mask = torch.zeros(S, S).masked_fill(~bool_mask, float("-inf"))
print(torch.allclose(F.scaled_dot_product_attention(q, k, v, attn_mask=float_mask), F.scaled_dot_product_attention(q, k, v, is_causal=True), atol=1e-6))
print(F.scaled_dot_product_attention(q, k, v, scale=0.1)[1, 1, -1])
kp = pad[:, None, None, :]
print(F.scaled_dot_product_attention(q, k, v, attn_mask=~kp)[0, 0, :, :2])
