"""A sequence-to-sequence model with attention as in the PyTorch translation tutorial, on a
toy task (reverse a sequence of digits): padded sources packed with pack_padded_sequence
(enforce_sorted=False) into a bidirectional GRU encoder, pad_packed_sequence back, a GRU
decoder with Bahdanau (additive) attention masked on the padding, teacher forcing chosen by a
seeded coin, cross-entropy with ignore_index, and greedy decoding."""
# ruff: noqa: E501

import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence

torch.manual_seed(13)
random.seed(0)
PAD, SOS, EOS, V, H = 0, 1, 2, 8, 16


def sample(n):
    g = torch.Generator().manual_seed(n)
    srcs, tgts = [], []
    for _ in range(n):
        L = int(torch.randint(2, 6, (1,), generator=g))
        s = torch.randint(3, V, (L,), generator=g)
        srcs.append(s)
        tgts.append(torch.cat([s.flip(0), torch.tensor([EOS])]))
    return srcs, tgts


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, H, padding_idx=PAD)
        self.rnn = nn.GRU(H, H, batch_first=True, bidirectional=True)
        self.bridge = nn.Linear(2 * H, H)

    def forward(self, src, lengths):
        packed = pack_padded_sequence(self.emb(src), lengths, batch_first=True, enforce_sorted=False)
        out, h = self.rnn(packed)
        out, out_lens = pad_packed_sequence(out, batch_first=True, total_length=src.shape[1])
        return out, torch.tanh(self.bridge(torch.cat([h[0], h[1]], -1))), out_lens


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, H)
        self.Wq, self.Wk, self.v = nn.Linear(H, H), nn.Linear(2 * H, H), nn.Linear(H, 1, bias=False)
        self.rnn = nn.GRUCell(H + 2 * H, H)
        self.out = nn.Linear(H, V)

    def step(self, tok, h, enc, mask):
        scores = self.v(torch.tanh(self.Wq(h)[:, None] + self.Wk(enc))).squeeze(-1)
        attn = scores.masked_fill(~mask, float("-inf")).softmax(-1)
        ctx = torch.bmm(attn[:, None], enc).squeeze(1)
        h = self.rnn(torch.cat([self.emb(tok), ctx], -1), h)
        return self.out(h), h, attn


enc, dec = Encoder(), Decoder()
params = list(enc.parameters()) + list(dec.parameters())
opt = torch.optim.Adam(params, lr=0.01)
srcs, tgts = sample(32)
src = pad_sequence(srcs, batch_first=True, padding_value=PAD)
tgt = pad_sequence(tgts, batch_first=True, padding_value=PAD)
lengths = torch.tensor([len(s) for s in srcs])
mask = src != PAD
print("src", tuple(src.shape), "lengths", lengths[:6].tolist())
for epoch in range(30):
    enc_out, h, out_lens = enc(src, lengths)
    tok = torch.full((src.shape[0],), SOS)
    loss = 0.0
    teacher = random.random() < 0.6
    for t in range(tgt.shape[1]):
        logits, h, _ = dec.step(tok, h, enc_out, mask)
        loss = loss + F.cross_entropy(logits, tgt[:, t], ignore_index=PAD)
        tok = tgt[:, t] if teacher else logits.argmax(-1)
    loss = loss / tgt.shape[1]
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(params, 1.0)
    opt.step()
    if epoch % 6 == 0:
        print(f"epoch {epoch} teacher {teacher} loss {loss.item():.4f}")
print("out_lens", out_lens[:6].tolist(), "pad rows zero", bool((enc_out[lengths == 2][:, 2:] == 0).all()))

with torch.no_grad():
    test = [torch.tensor([3, 4, 5]), torch.tensor([7, 6, 5, 4]), torch.tensor([4, 4])]
    s = pad_sequence(test, batch_first=True)
    enc_out, h, _ = enc(s, torch.tensor([len(t) for t in test]))
    tok = torch.full((3,), SOS)
    outs, attns = [], []
    for _ in range(5):
        logits, h, a = dec.step(tok, h, enc_out, s != PAD)
        tok = logits.argmax(-1)
        outs.append(tok)
        attns.append(a)
    print("decoded", torch.stack(outs, 1).tolist())
    print("attention step 0", [[round(v, 3) for v in r] for r in attns[0].tolist()])
    print("logprob", [round(v, 4) for v in F.log_softmax(logits, -1)[0, :4].tolist()])
