"""A LLaMA-style decoder as in meta-llama/llama's model.py and its minimal reimplementations:
RMSNorm, rotary position embeddings computed with torch.polar and applied through
view_as_complex/view_as_real, grouped-query attention with repeat_interleave of the key/value
heads, a SwiGLU feed-forward, a key/value cache for incremental decoding (checked against the
full causal forward), scaled_dot_product_attention with is_causal and with an explicit mask,
and temperature + top-p sampling with torch.multinomial under a seeded Generator."""
# ruff: noqa: E501

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def precompute_freqs_cis(dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: dim // 2].float() / dim))
    t = torch.arange(end, device=freqs.device)
    freqs = torch.outer(t, freqs).float()
    return torch.polar(torch.ones_like(freqs), freqs)


def apply_rotary_emb(xq, xk, freqs_cis):
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    freqs_cis = freqs_cis.view(1, xq_.shape[1], 1, xq_.shape[-1])
    xq_out = torch.view_as_real(xq_ * freqs_cis).flatten(3)
    xk_out = torch.view_as_real(xk_ * freqs_cis).flatten(3)
    return xq_out.type_as(xq), xk_out.type_as(xk)


class Attention(nn.Module):
    def __init__(self, dim, n_heads, n_kv_heads, max_seq):
        super().__init__()
        self.n_heads, self.n_kv_heads, self.head_dim = n_heads, n_kv_heads, dim // n_heads
        self.wq = nn.Linear(dim, n_heads * self.head_dim, bias=False)
        self.wk = nn.Linear(dim, n_kv_heads * self.head_dim, bias=False)
        self.wv = nn.Linear(dim, n_kv_heads * self.head_dim, bias=False)
        self.wo = nn.Linear(n_heads * self.head_dim, dim, bias=False)
        self.register_buffer("cache_k", torch.zeros(1, max_seq, n_kv_heads, self.head_dim), persistent=False)
        self.register_buffer("cache_v", torch.zeros(1, max_seq, n_kv_heads, self.head_dim), persistent=False)

    def forward(self, x, start_pos, freqs_cis, mask, use_cache):
        bsz, seqlen, _ = x.shape
        xq = self.wq(x).view(bsz, seqlen, self.n_heads, self.head_dim)
        xk = self.wk(x).view(bsz, seqlen, self.n_kv_heads, self.head_dim)
        xv = self.wv(x).view(bsz, seqlen, self.n_kv_heads, self.head_dim)
        xq, xk = apply_rotary_emb(xq, xk, freqs_cis)
        if use_cache:
            self.cache_k[:bsz, start_pos:start_pos + seqlen] = xk
            self.cache_v[:bsz, start_pos:start_pos + seqlen] = xv
            xk, xv = self.cache_k[:bsz, :start_pos + seqlen], self.cache_v[:bsz, :start_pos + seqlen]
        rep = self.n_heads // self.n_kv_heads
        keys = xk.repeat_interleave(rep, dim=2).transpose(1, 2)
        values = xv.repeat_interleave(rep, dim=2).transpose(1, 2)
        xq = xq.transpose(1, 2)
        if mask is None:
            out = F.scaled_dot_product_attention(xq, keys, values, is_causal=seqlen > 1)
        else:
            scores = xq @ keys.transpose(2, 3) / math.sqrt(self.head_dim) + mask
            out = F.softmax(scores.float(), dim=-1).type_as(xq) @ values
        return self.wo(out.transpose(1, 2).contiguous().view(bsz, seqlen, -1))


class FeedForward(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.w1, self.w2, self.w3 = nn.Linear(dim, hidden, bias=False), nn.Linear(hidden, dim, bias=False), nn.Linear(dim, hidden, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class Block(nn.Module):
    def __init__(self, dim, n_heads, n_kv_heads, max_seq):
        super().__init__()
        self.attention = Attention(dim, n_heads, n_kv_heads, max_seq)
        self.feed_forward = FeedForward(dim, 4 * dim)
        self.attention_norm, self.ffn_norm = nn.RMSNorm(dim, eps=1e-5), nn.RMSNorm(dim, eps=1e-5)

    def forward(self, x, start_pos, freqs_cis, mask, use_cache):
        h = x + self.attention(self.attention_norm(x), start_pos, freqs_cis, mask, use_cache)
        return h + self.feed_forward(self.ffn_norm(h))


class Transformer(nn.Module):
    def __init__(self, vocab=20, dim=16, n_layers=2, n_heads=4, n_kv_heads=2, max_seq=16):
        super().__init__()
        self.tok_embeddings = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList(Block(dim, n_heads, n_kv_heads, max_seq) for _ in range(n_layers))
        self.norm = nn.RMSNorm(dim, eps=1e-5)
        self.output = nn.Linear(dim, vocab, bias=False)
        self.freqs_cis = precompute_freqs_cis(dim // n_heads, max_seq * 2)

    def forward(self, tokens, start_pos=0, use_cache=False, explicit_mask=False):
        seqlen = tokens.shape[1]
        h = self.tok_embeddings(tokens)
        freqs_cis = self.freqs_cis[start_pos:start_pos + seqlen]
        mask = None  # SDPA's is_causal, or the explicit additive mask of the original
        if explicit_mask and seqlen > 1:
            mask = torch.full((seqlen, seqlen), float("-inf")).triu(1)
            mask = torch.hstack([torch.zeros(seqlen, start_pos), mask])
        for layer in self.layers:
            h = layer(h, start_pos, freqs_cis, mask, use_cache)
        return self.output(self.norm(h)).float()


def sample_top_p(probs, p, generator):
    probs_sort, probs_idx = torch.sort(probs, dim=-1, descending=True)
    probs_sum = torch.cumsum(probs_sort, dim=-1)
    probs_sort[probs_sum - probs_sort > p] = 0.0
    probs_sort.div_(probs_sort.sum(dim=-1, keepdim=True))
    next_token = torch.multinomial(probs_sort, num_samples=1, generator=generator)
    return torch.gather(probs_idx, -1, next_token)


torch.manual_seed(5)
model = Transformer()
print("freqs_cis", model.freqs_cis.shape, model.freqs_cis.dtype, model.freqs_cis[1, :2])
# train a little on a periodic sequence
seq = torch.tensor([[1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 6, 7, 1, 2]])
opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.1)
for step in range(25):
    logits = model(seq[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, 20), seq[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 8 == 0 or step == 24:
        print(f"step {step} loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    prompt = torch.tensor([[3, 4, 5]])
    full, explicit = model(prompt), model(prompt, explicit_mask=True)
    print("sdpa is_causal vs explicit mask", torch.allclose(full, explicit, atol=1e-5))
    logits = model(prompt, 0, use_cache=True)
    print("cached prefill matches", torch.allclose(logits, full, atol=1e-5))
    g = torch.Generator().manual_seed(42)
    out, cur = prompt.tolist()[0], prompt.shape[1]
    for _ in range(6):
        probs = torch.softmax(logits[:, -1] / 0.7, dim=-1)
        nxt = sample_top_p(probs, 0.9, g)
        out.append(nxt.item())
        logits, cur = model(nxt, cur, use_cache=True), cur + 1
    print("generated", out)
    ref = model(torch.tensor([out]))
    print("incremental == full forward", torch.allclose(ref[:, -1], logits[:, -1], atol=1e-4))
    print("greedy next", ref.argmax(-1).tolist())
    print("rmsnorm", nn.RMSNorm(4)(torch.tensor([[1.0, 2.0, 3.0, 4.0]])))
