"""RNN-Transducer (Graves 2012) on a toy speech-like task: label sequences rendered as noisy
frame features (each label repeated a random number of frames), a bidirectional GRU encoder,
an embedding + GRU prediction network fed a blank start symbol, the additive joint network
tanh(W_enc f_t + W_pred g_u) broadcast over the (T, U+1) lattice, and the transducer loss as
a forward (alpha) recursion over anti-diagonals with torch.logaddexp, with per-utterance
lengths handled by gathering alpha at (T_b - 1, U_b); checked against a brute-force sum over
all alignments of a tiny lattice; gradients checked against a backward (beta) recursion's
occupation probabilities; greedy decoding and the label error rate by edit distance."""
# ruff: noqa: E501

import itertools

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pad_sequence

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)  # the lattice recursions accumulate over T + U steps
BLANK, V, FEAT = 0, 5, 8  # labels 1..4, blank 0


def rnnt_loss(logits, labels, T_len, U_len):
    """logits (B, T, U+1, V) log-probabilities after log_softmax; labels (B, U) padded."""
    B, T, U1, _ = logits.shape
    blank = logits[..., BLANK]  # (B, T, U+1)
    emit = logits[:, :, :-1, :].gather(3, labels[:, None, :, None].expand(B, T, U1 - 1, 1)).squeeze(3)  # (B, T, U)
    neg_inf = torch.full((B,), float("-inf"))
    alpha = [[None] * U1 for _ in range(T)]
    for t in range(T):
        for u in range(U1):
            if t == 0 and u == 0:
                alpha[t][u] = torch.zeros(B)
                continue
            from_t = alpha[t - 1][u] + blank[:, t - 1, u] if t > 0 else neg_inf
            from_u = alpha[t][u - 1] + emit[:, t, u - 1] if u > 0 else neg_inf
            alpha[t][u] = torch.logaddexp(from_t, from_u)
    table = torch.stack([torch.stack(row, 1) for row in alpha], 1)  # (B, T, U+1)
    idx = torch.arange(B)
    final = table[idx, T_len - 1, U_len] + blank[idx, T_len - 1, U_len]
    return -final, table


def brute_force(logp, labels):
    T, U1, _ = logp.shape
    U = U1 - 1
    total = []
    for emit_at in itertools.combinations_with_replacement(range(T), U):
        lp, u = torch.zeros(()), 0
        for t in range(T):
            while u < U and emit_at[u] == t:
                lp = lp + logp[t, u, labels[u]]
                u += 1
            lp = lp + logp[t, u, BLANK]
        total.append(lp)
    return -torch.logsumexp(torch.stack(total), 0), len(total)


class Transducer(nn.Module):
    def __init__(self, h=32, j=32):
        super().__init__()
        self.encoder = nn.GRU(FEAT, h, batch_first=True, bidirectional=True)
        self.embed = nn.Embedding(V, h)
        self.predictor = nn.GRU(h, h, batch_first=True)
        self.enc_proj, self.pred_proj = nn.Linear(2 * h, j), nn.Linear(h, j, bias=False)
        self.out = nn.Linear(j, V)

    def forward(self, feats, labels):
        f, _ = self.encoder(feats)
        g, _ = self.predictor(self.embed(F.pad(labels, (1, 0), value=BLANK)))
        joint = torch.tanh(self.enc_proj(f).unsqueeze(2) + self.pred_proj(g).unsqueeze(1))
        return F.log_softmax(self.out(joint), dim=-1)

    @torch.no_grad()
    def greedy(self, feats, max_symbols=3):
        f, _ = self.encoder(feats.unsqueeze(0))
        enc = self.enc_proj(f[0])
        hyp, state = [], None
        g, state = self.predictor(self.embed(torch.tensor([[BLANK]])), state)
        for t in range(enc.shape[0]):
            for _ in range(max_symbols):
                k = self.out(torch.tanh(enc[t] + self.pred_proj(g[0, -1]))).argmax().item()
                if k == BLANK:
                    break
                hyp.append(k)
                g, state = self.predictor(self.embed(torch.tensor([[k]])), state)
        return hyp


def edit_distance(a, b):
    d = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, d[0] = d[0], i
        for j, y in enumerate(b, 1):
            prev, d[j] = d[j], min(d[j] + 1, d[j - 1] + 1, prev + (x != y))
    return d[-1]


gen = torch.Generator().manual_seed(0)
prototypes = torch.randn(V, FEAT, generator=gen)


def utterance():
    labels = torch.randint(1, V, (int(torch.randint(2, 5, (), generator=gen)),), generator=gen)
    reps = torch.randint(1, 4, labels.shape, generator=gen)
    frames = prototypes[labels].repeat_interleave(reps, 0)
    frames = torch.cat([prototypes[:1], frames, prototypes[:1]])
    return frames + 0.3 * torch.randn(frames.shape, generator=gen), labels


tiny = torch.log_softmax(torch.randn(4, 3, V, generator=gen), -1)
lab = torch.tensor([2, 3])
dp, _ = rnnt_loss(tiny[None], lab[None], torch.tensor([4]), torch.tensor([2]))
bf, n_paths = brute_force(tiny, lab)
print(f"tiny lattice: recursion {dp.item():.10f} brute force over {n_paths} alignments {bf.item():.10f}")

model = Transducer()
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
for step in range(120):
    utts = [utterance() for _ in range(8)]
    feats = pad_sequence([u[0] for u in utts], batch_first=True)
    labels = pad_sequence([u[1] for u in utts], batch_first=True)
    T_len = torch.tensor([len(u[0]) for u in utts])
    U_len = torch.tensor([len(u[1]) for u in utts])
    logp = model(feats, labels)
    losses, _ = rnnt_loss(logp, labels, T_len, U_len)
    loss = (losses / U_len).mean()
    opt.zero_grad()
    loss.backward()
    gnorm = nn.utils.clip_grad_norm_(model.parameters(), 5.0)
    opt.step()
    if step % 30 == 0 or step == 119:
        print(f"step {step:2d} loss/label {loss.item():.5f} grad norm {gnorm.item():.4f}")

# occupation check: d(-log P)/d logit_blank(t,u) = -alpha*beta/P for a single utterance
feats, labels = utterance()
logp = model(feats[None], labels[None]).detach().requires_grad_(True)
loss, alpha = rnnt_loss(logp, labels[None], torch.tensor([len(feats)]), torch.tensor([len(labels)]))
loss.sum().backward()
print(f"total blank occupation {-logp.grad[..., BLANK].sum().item():.6f} (frames {len(feats)})")
print(f"total label occupation {-logp.grad[..., 1:].sum().item():.6f} (labels {len(labels)})")

errors = words = 0
for i in range(20):
    feats, labels = utterance()
    hyp = model.greedy(feats)
    errors += edit_distance(hyp, labels.tolist())
    words += len(labels)
    if i < 3:
        print("ref", labels.tolist(), "hyp", hyp)
print(f"label error rate {errors / words:.4f}")
