"""Variable-length sequences with torch.nn.utils.rnn: a bidirectional LSTM part-of-speech
style tagger over pad_sequence'd batches packed by pack_padded_sequence (enforce_sorted=False,
lengths on the CPU), unpacked by pad_packed_sequence (total_length), the packed run checked
against running each sequence alone; a GRU sequence classifier using the final hidden state
of a pack_sequence batch; PackedSequence fields (batch_sizes, sorted_indices); masked token
loss by ignore_index; unpad_sequence and unpack_sequence round trips."""
# ruff: noqa: E501

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import (pack_padded_sequence, pack_sequence, pad_packed_sequence, pad_sequence,
                                unpack_sequence, unpad_sequence)

torch.set_default_dtype(torch.float64)
torch.manual_seed(0)

V, T = 12, 4  # vocabulary and tag counts
emission = torch.randint(0, T, (V,))  # each word's usual tag


def make_sentence():
    n = int(torch.randint(3, 10, ()).item())
    words = torch.randint(1, V, (n,))
    tags = emission[words].clone()
    flip = torch.rand(n) < 0.1
    tags[1:][flip[1:]] = (tags[:-1][flip[1:]] + 1) % T  # context-dependent tags
    return words, tags


data = [make_sentence() for _ in range(160)]
lengths = torch.tensor([len(w) for w, _ in data])
print("lengths:", lengths[:10].tolist(), "max", lengths.max().item())


class Tagger(nn.Module):
    def __init__(self, emb=8, hidden=12):
        super().__init__()
        self.emb = nn.Embedding(V, emb, padding_idx=0)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, T)

    def forward(self, words, lengths, total_length=None):
        packed = pack_padded_sequence(self.emb(words), lengths, batch_first=True, enforce_sorted=False)
        out, (h, c) = self.lstm(packed)
        padded, out_lengths = pad_packed_sequence(out, batch_first=True, total_length=total_length)
        return self.out(padded), out_lengths, packed


tagger = Tagger()
batch = data[:6]
words = pad_sequence([w for w, _ in batch], batch_first=True, padding_value=0)
tags = pad_sequence([t for _, t in batch], batch_first=True, padding_value=-100)
lens = torch.tensor([len(w) for w, _ in batch])
logits, out_lengths, packed = tagger(words, lens, total_length=12)
print("padded", tuple(words.shape), "logits", tuple(logits.shape), "lengths back", out_lengths.tolist())
print("batch_sizes", packed.batch_sizes.tolist(), "sorted_indices", packed.sorted_indices.tolist(), "unsorted", packed.unsorted_indices.tolist())
alone = [tagger.out(tagger.lstm(tagger.emb(w).unsqueeze(0))[0])[0] for w, _ in batch]
print("packed equals one at a time:", all(torch.allclose(logits[i, :len(a)], a, atol=1e-13) for i, a in enumerate(alone)))
print("padding positions are zero before the output layer:", torch.equal(logits[0, lens[0]:], tagger.out.bias.expand(12 - lens[0].item(), T)))

opt = torch.optim.Adam(tagger.parameters(), lr=0.02)
for epoch in range(1, 9):
    perm = torch.randperm(len(data))
    total, count = 0.0, 0
    for i in range(0, len(data), 32):
        b = [data[j] for j in perm[i:i + 32].tolist()]
        w = pad_sequence([x for x, _ in b], batch_first=True)
        t = pad_sequence([y for _, y in b], batch_first=True, padding_value=-100)
        ln = torch.tensor([len(x) for x, _ in b])
        lg, _, _ = tagger(w, ln)
        loss = F.cross_entropy(lg.reshape(-1, T), t.reshape(-1), ignore_index=-100)
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(tagger.parameters(), 5.0)
        opt.step()
        total += loss.item() * (t != -100).sum().item()
        count += (t != -100).sum().item()
    if epoch % 2 == 0:
        with torch.no_grad():
            w = pad_sequence([x for x, _ in data], batch_first=True)
            t = pad_sequence([y for _, y in data], batch_first=True, padding_value=-100)
            pred = tagger(w, lengths)[0].argmax(-1)
            acc = ((pred == t) & (t != -100)).sum().item() / (t != -100).sum().item()
        print(f"epoch {epoch} token loss {total / count:.8f} token accuracy {acc:.4f}")


# GRU classifier: does the sentence contain more tag-0 words than tag-1 words?
class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 6)
        self.gru = nn.GRU(6, 10, num_layers=2, dropout=0.0)
        self.head = nn.Linear(10, 2)

    def forward(self, seqs):
        packed = pack_sequence([self.emb(s) for s in seqs], enforce_sorted=False)
        _, h = self.gru(packed)
        return self.head(h[-1])


labels = torch.tensor([int((t == 0).sum() > (t == 1).sum()) for _, t in data])
clf = Classifier()
opt = torch.optim.RMSprop(clf.parameters(), lr=0.01)
seqs = [w for w, _ in data]
for epoch in range(1, 41):
    loss = F.cross_entropy(clf(seqs), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 10 == 0:
        acc = (clf(seqs).argmax(1) == labels).double().mean().item()
        print(f"classifier epoch {epoch} loss {loss.item():.8f} acc {acc:.4f}")

packed = pack_sequence(seqs[:5], enforce_sorted=False)
back = unpack_sequence(packed)
print("unpack_sequence round trip:", all(torch.equal(a, b) for a, b in zip(back, seqs[:5])))
padded = pad_sequence(seqs[:5], batch_first=True)
print("unpad_sequence round trip:", all(torch.equal(a, b) for a, b in zip(unpad_sequence(padded, lengths[:5], batch_first=True), seqs[:5])))
print("padding_side left:", pad_sequence(seqs[:2], batch_first=True, padding_side="left")[1].tolist())
