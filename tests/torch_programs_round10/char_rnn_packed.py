"""The "classifying names with a character-level RNN" tutorial done in batches: one-hot
letters, sequences sorted and padded, pack_padded_sequence through a GRU and an LSTM,
pad_packed_sequence, enforce_sorted=False, pack_sequence, and the final hidden states used to
classify; plus a character-level generator sampled with temperature."""
# ruff: noqa: B007, E501  (written as the published program is)


import string

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence, pack_sequence

all_letters = string.ascii_letters + " .,;'"
n_letters = len(all_letters)
names = {"English": ["Smith", "Jones", "Taylor", "Brown"], "Italian": ["Rossi", "Russo", "Bianchi", "Romano"],
         "Japanese": ["Sato", "Suzuki", "Takahashi", "Tanaka"]}
categories = list(names)
print("n_letters", n_letters, "categories", categories)


def line_to_tensor(line):
    t = torch.zeros(len(line), n_letters)
    for i, letter in enumerate(line):
        t[i][all_letters.find(letter)] = 1
    return t


samples = [(line_to_tensor(n), categories.index(c)) for c in categories for n in names[c]]
seqs = [s for s, _ in samples]
labels = torch.tensor([c for _, c in samples])
lengths = torch.tensor([len(s) for s in seqs])
padded = pad_sequence(seqs, batch_first=True)
print("padded", tuple(padded.shape), "lengths", lengths.tolist())


class CharRNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size, cell="gru"):
        super().__init__()
        rnn = nn.GRU if cell == "gru" else nn.LSTM
        self.rnn = rnn(input_size, hidden_size, batch_first=True, num_layers=1, bidirectional=True)
        self.h2o = nn.Linear(2 * hidden_size, output_size)
        self.cell = cell

    def forward(self, x, lengths):
        packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
        out, hidden = self.rnn(packed)
        if self.cell == "lstm":
            hidden = hidden[0]
        unpacked, out_lengths = pad_packed_sequence(out, batch_first=True)
        h = torch.cat([hidden[-2], hidden[-1]], dim=1)
        return F.log_softmax(self.h2o(h), dim=1), unpacked, out_lengths


torch.manual_seed(5)
for cell in ("gru", "lstm"):
    model = CharRNN(n_letters, 12, len(categories), cell)
    opt = torch.optim.RMSprop(model.parameters(), lr=0.01)
    crit = nn.NLLLoss()
    for it in range(15):
        opt.zero_grad()
        out, unpacked, out_lengths = model(padded, lengths)
        loss = crit(out, labels)
        loss.backward()
        opt.step()
        if it % 5 == 4:
            print(f"{cell} iter {it} loss {loss.item():.4f}")
    print(cell, "unpacked", tuple(unpacked.shape), out_lengths.tolist(), "pad zero", unpacked[0, 5:].abs().sum().item())
    with torch.no_grad():
        out, _, _ = model(padded, lengths)
        guess = out.argmax(1)
        print(cell, "guess", [categories[i] for i in guess[:6].tolist()], "acc", (guess == labels).float().mean().item())

packed = pack_sequence([torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0, 5.0]), torch.tensor([6.0])])
print("packed data", packed.data.tolist(), "batch sizes", packed.batch_sizes.tolist())
p2 = pack_padded_sequence(torch.tensor([[1.0, 0.0], [2.0, 3.0]]), torch.tensor([1, 2]), batch_first=True,
                          enforce_sorted=False)
print("sorted idx", p2.sorted_indices.tolist(), "unsorted", p2.unsorted_indices.tolist(), p2.data.tolist())


class Generator(nn.Module):
    def __init__(self, n, hidden):
        super().__init__()
        self.embed = nn.Embedding(n, 8)
        self.lstm = nn.LSTM(8, hidden, batch_first=True)
        self.out = nn.Linear(hidden, n)

    def forward(self, x, state=None):
        y, state = self.lstm(self.embed(x), state)
        return self.out(y), state


text = "tanaka takahashi suzuki sato "
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
ids = torch.tensor([stoi[c] for c in text])
torch.manual_seed(9)
gen = Generator(len(chars), 16)
opt = torch.optim.Adam(gen.parameters(), lr=0.02)
for it in range(40):
    opt.zero_grad()
    logits, _ = gen(ids[:-1].unsqueeze(0))
    loss = F.cross_entropy(logits.squeeze(0), ids[1:])
    loss.backward()
    opt.step()
print("char loss", round(loss.item(), 4))
with torch.no_grad():
    x = torch.tensor([[stoi["t"]]])
    state = None
    s = "t"
    for _ in range(12):
        logits, state = gen(x, state)
        probs = F.softmax(logits[0, -1] / 0.7, dim=0)
        nxt = torch.multinomial(probs, 1).item()
        s += chars[nxt]
        x = torch.tensor([[nxt]])
print("sample", repr(s))
