"""Attention written three ways as the "attention from scratch" posts do: by hand with
softmax(QK^T/sqrt(d)), with F.scaled_dot_product_attention (is_causal, boolean and additive
masks, scale=, enable_gqa for grouped-query heads, dropout_p=0), and with
nn.MultiheadAttention (need_weights, average_attn_weights=False, key_padding_mask, attn_mask,
add_bias_kv, add_zero_attn, kdim/vdim, batch_first); rotary position embeddings, ALiBi
biases, and the gradients of each form agreeing."""
# ruff: noqa: E501

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
B, Hh, L, S, E = 2, 4, 5, 6, 8
q = torch.randn(B, Hh, L, E)
k = torch.randn(B, Hh, S, E)
v = torch.randn(B, Hh, S, E)


def manual(q, k, v, mask=None, causal=False, scale=None):
    s = q @ k.transpose(-2, -1) * (scale if scale is not None else 1 / math.sqrt(q.size(-1)))
    if causal:
        s = s.masked_fill(torch.ones(q.size(-2), k.size(-2), dtype=torch.bool).tril().logical_not(), float("-inf"))
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf")) if mask.dtype == torch.bool else s + mask
    return torch.softmax(s, -1) @ v


out = F.scaled_dot_product_attention(q, k, v)
print(out[0, 0], (out - manual(q, k, v)).abs().max() < 1e-5)
qs = torch.randn(B, Hh, S, E)
print(F.scaled_dot_product_attention(qs, k, v, is_causal=True)[1, 2, :3], (F.scaled_dot_product_attention(qs, k, v, is_causal=True) - manual(qs, k, v, causal=True)).abs().max() < 1e-5)
bmask = torch.rand(L, S) > 0.3
bmask[:, 0] = True
fmask = torch.randn(B, 1, L, S)
print(F.scaled_dot_product_attention(q, k, v, attn_mask=bmask)[0, 1, 0], F.scaled_dot_product_attention(q, k, v, attn_mask=fmask, scale=0.5)[1, 0, 0])
print((F.scaled_dot_product_attention(q, k, v, attn_mask=fmask, scale=0.5) - manual(q, k, v, fmask, scale=0.5)).abs().max() < 1e-5)
kg, vg = torch.randn(B, 2, S, E), torch.randn(B, 2, S, E)
print(F.scaled_dot_product_attention(q, kg, vg, enable_gqa=True)[0, 3, 0], (F.scaled_dot_product_attention(q, kg, vg, enable_gqa=True) - manual(q, kg.repeat_interleave(2, 1), vg.repeat_interleave(2, 1))).abs().max() < 1e-5)
full_mask = torch.zeros(L, S, dtype=torch.bool)
full_mask[0] = True
print(F.scaled_dot_product_attention(q, k, v, attn_mask=full_mask)[0, 0, :2])

torch.manual_seed(1)
mha = nn.MultiheadAttention(E, 2, batch_first=True)
xq = torch.randn(B, L, E)
xk = torch.randn(B, S, E)
o, w = mha(xq, xk, xk)
print(o[0, 0], w.shape, w[0, 0])
o2, w2 = mha(xq, xk, xk, average_attn_weights=False)
print(w2.shape, w2[1, 1, 2])
kpm = torch.tensor([[False] * 4 + [True] * 2, [False] * 6])
am = torch.triu(torch.ones(L, S, dtype=torch.bool), diagonal=2)
o3, w3 = mha(xq, xk, xk, key_padding_mask=kpm, attn_mask=am)
print(o3[0, -1], w3[0, :, -2:])
o4, w4 = mha(xq, xk, xk, need_weights=False)
print(w4, (o4 - o).abs().max() < 1e-6)
torch.manual_seed(2)
m2 = nn.MultiheadAttention(E, 2, add_bias_kv=True, add_zero_attn=True, kdim=3, vdim=5)
o5, w5 = m2(torch.randn(L, B, E), torch.randn(S, B, 3), torch.randn(S, B, 5))
print(o5.shape, w5.shape, o5[0, 0], w5[0, 0])


def rope(x, base=10000.0):
    d = x.shape[-1]
    inv = 1.0 / (base ** (torch.arange(0, d, 2).float() / d))
    ang = torch.arange(x.shape[-2]).float()[:, None] * inv[None]
    cos, sin = ang.cos().repeat_interleave(2, -1), ang.sin().repeat_interleave(2, -1)
    x2 = torch.stack([-x[..., 1::2], x[..., ::2]], -1).flatten(-2)
    return x * cos + x2 * sin


def alibi(n_heads, n):
    slopes = torch.tensor([2 ** (-8 * (i + 1) / n_heads) for i in range(n_heads)])
    pos = torch.arange(n)
    return -slopes[:, None, None] * (pos[None, :] - pos[:, None]).abs()[None].float()


qr, kr = rope(qs), rope(k)
print(qr[0, 0, 1], F.scaled_dot_product_attention(qr, kr, v, attn_mask=alibi(Hh, S))[0, 1, 2])

qq = q.clone().requires_grad_()
kk = k.clone().requires_grad_()
vv = v.clone().requires_grad_()
g1 = torch.autograd.grad((F.scaled_dot_product_attention(qq, kk, vv, attn_mask=fmask) ** 2).sum(), (qq, kk, vv))
g2 = torch.autograd.grad((manual(qq, kk, vv, fmask) ** 2).sum(), (qq, kk, vv))
print([(a - b).abs().max() < 1e-4 for a, b in zip(g1, g2)], g1[0][0, 0, 0], g1[2][1, 3, -1])
qc = qs.clone().requires_grad_()
F.scaled_dot_product_attention(qc, k, v, is_causal=True).sum().backward()
print(qc.grad[0, 0, :2])
xr = xq.clone().requires_grad_()
mha(xr, xr, xr, key_padding_mask=torch.tensor([[False] * 3 + [True] * 2, [False] * 5]))[0].pow(2).sum().backward()
print(xr.grad[0, :, :3], mha.in_proj_weight.grad.norm(), mha.out_proj.bias.grad)
