"""nn.Transformer on a toy reversal task: square subsequent masks, key padding masks,
positional encoding, teacher forcing, label smoothing and greedy decoding."""

import math

import torch
import torch.nn as nn

torch.manual_seed(0)
PAD, BOS, V, D = 0, 1, 8, 16


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=32):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe)

    def forward(self, x):
        x = x + self.pe[: x.size(0)]
        return self.dropout(x)


class Seq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, D, padding_idx=PAD)
        self.pos = PositionalEncoding(D, dropout=0.0)
        self.tf = nn.Transformer(
            d_model=D, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=32, dropout=0.0
        )
        self.out = nn.Linear(D, V)

    def forward(self, src, tgt, src_pad, tgt_pad):
        s = self.pos(self.emb(src) * math.sqrt(D))
        t = self.pos(self.emb(tgt) * math.sqrt(D))
        tgt_mask = nn.Transformer.generate_square_subsequent_mask(tgt.size(0))
        h = self.tf(
            s,
            t,
            tgt_mask=tgt_mask,
            src_key_padding_mask=src_pad,
            tgt_key_padding_mask=tgt_pad,
            memory_key_padding_mask=src_pad,
        )
        return self.out(h)


def batch(n=8, L=5):
    lens = torch.randint(2, L + 1, (n,))
    src = torch.randint(2, V, (L, n))
    for j, l in enumerate(lens.tolist()):
        src[l:, j] = PAD
    tgt = torch.full((L, n), PAD)
    for j, l in enumerate(lens.tolist()):
        tgt[:l, j] = src[:l, j].flip(0)
    dec_in = torch.cat([torch.full((1, n), BOS), tgt[:-1]], 0)
    return src, dec_in, tgt


print(nn.Transformer.generate_square_subsequent_mask(4))
model = Seq2Seq()
print("parameters:", sum(p.numel() for p in model.parameters()))
crit = nn.CrossEntropyLoss(ignore_index=PAD, label_smoothing=0.1)
opt = torch.optim.AdamW(model.parameters(), lr=5e-3, weight_decay=0.01)
for step in range(1, 31):
    src, dec_in, tgt = batch()
    logits = model(src, dec_in, (src == PAD).T, (dec_in == PAD).T)
    loss = crit(logits.reshape(-1, V), tgt.reshape(-1))
    opt.zero_grad()
    loss.backward()
    gn = nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    if step % 5 == 0:
        print(f"step {step:2d} loss {loss.item():.4f} grad norm {gn.item():.4f}")

model.eval()
src, dec_in, tgt = batch(n=3)
with torch.no_grad():
    ys = torch.full((1, 3), BOS)
    for _ in range(src.size(0)):
        out = model(src, ys, (src == PAD).T, None)
        nxt = out[-1].argmax(-1)
        ys = torch.cat([ys, nxt.unsqueeze(0)], 0)
print("src", src.T.tolist())
print("greedy", ys[1:].T.tolist())
print("logits", out[-1, 0])

enc_layer = nn.TransformerEncoderLayer(
    d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, batch_first=True, norm_first=True, activation="gelu"
)
enc = nn.TransformerEncoder(enc_layer, num_layers=2, enable_nested_tensor=False)
x = torch.randn(2, 4, 8)
pad = torch.tensor([[False, False, False, True], [False, False, True, True]])
y = enc(x, mask=nn.Transformer.generate_square_subsequent_mask(4), src_key_padding_mask=pad)
print(y[:, :3].sum(-1))
mha = nn.MultiheadAttention(8, 2, batch_first=True)
o, w = mha(x, x, x, key_padding_mask=pad)
print(w)
o, w = mha(
    x,
    x,
    x,
    need_weights=True,
    average_attn_weights=False,
    attn_mask=torch.triu(torch.ones(4, 4, dtype=torch.bool), 1),
)
print(w.shape, w[1, 1])
