"""A toy speech recogniser in the style of the CTC tutorials: log-mel-like features from a
seeded generator, a Conv1d front end, a bidirectional GRU, log_softmax over the blank and the
characters, nn.CTCLoss with zero_infinity, Adam with gradient clipping, greedy decoding with
argmax and unique_consecutive, and a Levenshtein character error rate."""
# ruff: noqa: E501

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(7)
VOCAB = "_abcde"  # blank first
T, B, FEAT = 24, 4, 8


def make_batch(g):
    lengths = torch.randint(3, 6, (B,), generator=g)
    targets = [torch.randint(1, len(VOCAB), (int(n),), generator=g) for n in lengths]
    x = torch.randn(B, FEAT, T, generator=g) * 0.5
    for b, tgt in enumerate(targets):
        step = T // (len(tgt) + 1)
        for i, c in enumerate(tgt):
            x[b, int(c), (i + 1) * step - 1:(i + 1) * step + 1] += 2.0
    in_lens = torch.full((B,), T, dtype=torch.long) - torch.arange(B)
    return x, torch.cat(targets), in_lens, lengths


class SpeechModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(FEAT, 16, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm1d(16)
        self.rnn = nn.GRU(16, 12, bidirectional=True)
        self.fc = nn.Linear(24, len(VOCAB))

    def forward(self, x):
        h = F.relu(self.bn(self.conv(x)))  # (B, C, T)
        h = h.permute(2, 0, 1)  # (T, B, C)
        out, hn = self.rnn(h)
        return self.fc(out).log_softmax(2), hn


def greedy(log_probs, in_lens):
    best = log_probs.argmax(2).t()
    words = []
    for b in range(best.shape[0]):
        seq = torch.unique_consecutive(best[b, :in_lens[b]])
        words.append("".join(VOCAB[int(c)] for c in seq if int(c) != 0))
    return words


def edit_distance(a, b):
    d = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, d[0] = d[0], i
        for j, cb in enumerate(b, 1):
            prev, d[j] = d[j], min(d[j] + 1, d[j - 1] + 1, prev + (ca != cb))
    return d[-1]


model = SpeechModel()
ctc = nn.CTCLoss(blank=0, zero_infinity=True)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
g = torch.Generator().manual_seed(3)
x, targets, in_lens, tgt_lens = make_batch(g)
print(x.shape, targets.tolist(), in_lens.tolist(), tgt_lens.tolist())
for step in range(30):
    model.train()
    lp, hn = model(x)
    loss = ctc(lp, targets, in_lens, tgt_lens)
    opt.zero_grad()
    loss.backward()
    norm = nn.utils.clip_grad_norm_(model.parameters(), 5.0)
    opt.step()
    if step % 5 == 0:
        print(f"step {step:2d} loss {loss.item():.4f} grad-norm {norm.item():.4f} hn {tuple(hn.shape)}")

model.eval()
with torch.no_grad():
    lp, _ = model(x)
    per = F.ctc_loss(lp, targets, in_lens, tgt_lens, reduction="none")
    print("per-utterance", per.round(decimals=3))
    print("sum", F.ctc_loss(lp, targets, in_lens, tgt_lens, reduction="sum").item().__round__(3))
words = greedy(lp, in_lens)
refs, start = [], 0
for n in tgt_lens.tolist():
    refs.append("".join(VOCAB[int(c)] for c in targets[start:start + n]))
    start += n
errs = sum(edit_distance(w, r) for w, r in zip(words, refs))
print(words, refs, f"CER {errs / sum(len(r) for r in refs):.3f}")
print(model.bn.running_mean[:4], model.bn.num_batches_tracked)
# the padded-target form gives the same loss
padded = nn.utils.rnn.pad_sequence([targets[s:s + n] for s, n in zip([0, *tgt_lens.cumsum(0)[:-1].tolist()], tgt_lens.tolist())], batch_first=True)
print(padded, round(F.ctc_loss(lp, padded, in_lens, tgt_lens).item(), 4))
