"""Models the shim benchmarks build with either library (``t`` is ``torch`` or ``fgrad.torch``):
the same PyTorch code runs on both, so the comparison is of the libraries only."""

from __future__ import annotations


def gpt(t, d: int, heads: int, seq: int, vocab: int):
    """A two-block GPT (pre-norm, causal self-attention written out, GELU MLP) on the device
    of its input."""
    nn, F = t.nn, t.nn.functional

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
            self.fc, self.out = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

        def forward(self, x):
            B, T, C = x.shape
            q, k, v = self.qkv(self.ln1(x)).split(C, dim=2)
            q, k, v = (z.view(B, T, heads, C // heads).transpose(1, 2) for z in (q, k, v))
            att = (q @ k.transpose(-2, -1)) * (1.0 / (C // heads) ** 0.5)
            mask = t.tril(t.ones(T, T, device=x.device)) == 0
            att = F.softmax(att.masked_fill(mask, float("-inf")), dim=-1)
            y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
            x = x + self.proj(y)
            return x + self.out(F.gelu(self.fc(self.ln2(x))))

    class GPT(nn.Module):
        def __init__(self):
            super().__init__()
            self.tok, self.pos = nn.Embedding(vocab, d), nn.Embedding(seq, d)
            self.blocks = nn.Sequential(Block(), Block())
            self.ln, self.head = nn.LayerNorm(d), nn.Linear(d, vocab)

        def forward(self, idx):
            T = idx.shape[1]
            x = self.tok(idx) + self.pos(t.arange(T, device=idx.device))
            return self.head(self.ln(self.blocks(x)))

    return GPT()
