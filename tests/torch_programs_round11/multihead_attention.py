"""nn.MultiheadAttention as used in detection and NLP code: batch_first and sequence-first
layouts, key_padding_mask (bool) and a float attn_mask, a causal bool mask, need_weights with
average_attn_weights True/False, kdim/vdim for cross attention, add_bias_kv and add_zero_attn,
the in_proj packing checked against a hand-written computation, and a tiny training step."""
# ruff: noqa: B007, E501  (written as the published program is)

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
E, H = 8, 2
mha = nn.MultiheadAttention(E, H, batch_first=True)
print(mha)
print(mha.in_proj_weight.shape, mha.out_proj, mha._qkv_same_embed_dim)
x = torch.randn(2, 5, E)
out, w = mha(x, x, x)
print(out.shape, w.shape, w[0, 0])
out2, w2 = mha(x, x, x, average_attn_weights=False)
print(w2.shape, torch.allclose(w2.mean(1), w))

# the same by hand
q, k, v = F.linear(x, mha.in_proj_weight, mha.in_proj_bias).chunk(3, -1)
q, k, v = (t.reshape(2, 5, H, E // H).transpose(1, 2) for t in (q, k, v))
att = (q @ k.transpose(-2, -1) / (E // H) ** 0.5).softmax(-1)
by_hand = mha.out_proj(( att @ v).transpose(1, 2).reshape(2, 5, E))
print(torch.allclose(by_hand, out, atol=1e-6), torch.allclose(att, w2, atol=1e-6))

# masks
key_padding_mask = torch.tensor([[False, False, False, True, True], [False, False, False, False, False]])
out, w = mha(x, x, x, key_padding_mask=key_padding_mask)
print(w[0, :2], w[0, :, 3:].abs().sum())
causal = torch.triu(torch.ones(5, 5, dtype=torch.bool), diagonal=1)
out, w = mha(x, x, x, attn_mask=causal)
print(w[1, :3, :3])
float_mask = torch.zeros(5, 5)
float_mask[:, 0] = -1.0
out_f, w_f = mha(x, x, x, attn_mask=float_mask, need_weights=True)
print(w_f[0, 0], out_f[0, 0, :3])
out_nw, none = mha(x, x, x, need_weights=False)
print(none, torch.allclose(out_nw, mha(x, x, x)[0], atol=1e-6))
m3 = causal.unsqueeze(0).expand(2 * H, 5, 5)
print(torch.allclose(mha(x, x, x, attn_mask=m3)[0], mha(x, x, x, attn_mask=causal)[0], atol=1e-6))
print(torch.allclose(mha(x, x, x, is_causal=True, attn_mask=causal)[0], mha(x, x, x, attn_mask=causal)[0], atol=1e-6))

# sequence-first cross attention with kdim/vdim, bias_kv, zero attention
cross = nn.MultiheadAttention(E, H, kdim=6, vdim=4, add_bias_kv=True, add_zero_attn=True)
print(cross.q_proj_weight.shape, cross.k_proj_weight.shape, cross.v_proj_weight.shape, cross.bias_k.shape, cross.in_proj_weight)
tgt = torch.randn(3, 2, E)
mem_k = torch.randn(7, 2, 6)
mem_v = torch.randn(7, 2, 4)
o, a = cross(tgt, mem_k, mem_v)
print(o.shape, a.shape, a[0, 0], a.sum(-1)[0].round(decimals=4))
print([n for n, _ in cross.named_parameters()])

# train to copy the first token into every position
opt = torch.optim.Adam(mha.parameters(), lr=1e-2)
for step in range(20):
    out, _ = mha(x, x, x, key_padding_mask=key_padding_mask)
    loss = F.mse_loss(out, x[:, :1].expand_as(out))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 4:
        print(step, f"{loss.item():.5f}")
