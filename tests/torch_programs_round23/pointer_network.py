"""Pointer networks (Vinyals et al. 2015, the classic sort-the-numbers task): an LSTM encoder
over the input set, an LSTMCell decoder whose additive attention v^T tanh(W1 e_j + W2 d_i)
is itself the output distribution over input positions, already-chosen positions masked with
masked_fill(-inf) before log_softmax, teacher forcing by gathering the encoder state of the
target index (torch.gather on an expanded index), the nll_loss of the pointed positions,
greedy decoding at test time; exact-sequence accuracy and mean Kendall-style inversions, and
the argsort it learned compared with torch.sort's stable indices."""
# ruff: noqa: E501

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


class Attention(nn.Module):
    def __init__(self, h):
        super().__init__()
        self.W1 = nn.Linear(h, h, bias=False)
        self.W2 = nn.Linear(h, h, bias=False)
        self.v = nn.Linear(h, 1, bias=False)

    def forward(self, enc, dec, mask):
        scores = self.v(torch.tanh(self.W1(enc) + self.W2(dec).unsqueeze(1))).squeeze(-1)
        return scores.masked_fill(mask, float("-inf"))


class PointerNet(nn.Module):
    def __init__(self, h=64):
        super().__init__()
        self.embed = nn.Linear(1, h)
        self.encoder = nn.LSTM(h, h, batch_first=True)
        self.decoder = nn.LSTMCell(h, h)
        self.attn = Attention(h)
        self.start = nn.Parameter(torch.zeros(h))

    def forward(self, x, targets=None):
        b, n = x.shape
        emb = self.embed(x.unsqueeze(-1))
        enc, (hn, cn) = self.encoder(emb)
        h, c = hn[0], cn[0]
        inp = self.start.expand(b, -1)
        mask = torch.zeros(b, n, dtype=torch.bool)
        logps, idxs = [], []
        for i in range(n):
            h, c = self.decoder(inp, (h, c))
            logp = F.log_softmax(self.attn(enc, h, mask), dim=-1)
            idx = targets[:, i] if targets is not None else logp.argmax(-1)
            logps.append(logp)
            idxs.append(idx)
            mask = mask.scatter(1, idx.unsqueeze(1), True)
            inp = emb.gather(1, idx.view(b, 1, 1).expand(-1, 1, emb.size(-1))).squeeze(1)
        return torch.stack(logps, 1), torch.stack(idxs, 1)


def batch(b, n, gen):
    x = torch.rand(b, n, generator=gen)
    return x, x.argsort(dim=1)


gen = torch.Generator().manual_seed(0)
model = PointerNet()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
for step in range(200):
    x, y = batch(64, 6, gen)
    logps, _ = model(x, y)
    loss = F.nll_loss(logps.reshape(-1, 6), y.reshape(-1))
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 2.0)
    opt.step()
    if step % 40 == 0 or step == 199:
        print(f"step {step:3d} loss {loss.item():.4f}")

with torch.no_grad():
    x, y = batch(200, 6, gen)
    logps, pred = model(x)
    exact = (pred == y).all(1).float().mean()
    valid = (pred.sort(1).values == torch.arange(6)).all(1).float().mean()
    out = x.gather(1, pred)
    inversions = (out[:, :, None] > out[:, None, :]).triu(1).sum((1, 2)).float().mean()
    print(f"exact {exact.item():.3f} permutation {valid.item():.3f} inversions {inversions.item():.3f} position acc {(pred == y).float().mean().item():.3f}")
    print("masked after pick", torch.isinf(logps[:, 1:]).sum().item() == 200 * (1 + 2 + 3 + 4 + 5))
    xs = torch.tensor([[0.5, 0.1, 0.9, 0.3, 0.7, 0.2]])
    _, p = model(xs)
    print("sort", p.tolist(), "torch.sort", torch.sort(xs, stable=True).indices.tolist())
    x8, y8 = batch(100, 8, gen)
    _, p8 = model(x8)
    print(f"length 8 exact {(p8 == y8).all(1).float().mean().item():.3f} position acc {(p8 == y8).float().mean().item():.3f}")
