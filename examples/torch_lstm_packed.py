"""An LSTM sequence classifier over variable-length sequences, with packed sequences, on fgrad.torch.

Written as PyTorch tutorials on padding and packing write it: a ``Dataset`` of token
sequences of different lengths, a ``DataLoader`` whose ``collate_fn`` pads them with
``nn.utils.rnn.pad_sequence``; the model embeds the tokens (``padding_idx=0``), packs them with
``pack_padded_sequence`` (``enforce_sorted=False`` in training; in evaluation the batch is
sorted by length first and packed with ``enforce_sorted=True``), runs a two-layer
bidirectional ``nn.LSTM`` on the ``PackedSequence``, unpacks the outputs with
``pad_packed_sequence`` for a masked mean, and classifies from that and the final hidden
states. The task: does a sequence hold more 1s than 2s (tokens 1..9)?

The only change from the PyTorch program is the import line (pass ``--torch``, or set
``FGRAD_EXAMPLE_BACKEND=torch``, to run the very same code on PyTorch).

Run: ``python examples/torch_lstm_packed.py [--torch] [--epochs N]``.
"""

import os
import sys

if "--torch" in sys.argv or os.environ.get("FGRAD_EXAMPLE_BACKEND") == "torch":
    import torch
else:
    import fgrad.torch as torch

nn = torch.nn
F = torch.nn.functional
Dataset = torch.utils.data.Dataset
DataLoader = torch.utils.data.DataLoader
pad_sequence = torch.nn.utils.rnn.pad_sequence
pack_padded_sequence = torch.nn.utils.rnn.pack_padded_sequence
pad_packed_sequence = torch.nn.utils.rnn.pad_packed_sequence

PAD = 0
VOCAB = 10
num_epochs = 4
max_batches = None
for i, arg in enumerate(sys.argv):
    if arg == "--epochs":
        num_epochs = int(sys.argv[i + 1])
    if arg == "--batches":
        max_batches = int(sys.argv[i + 1])

torch.manual_seed(0)


class CountingDataset(Dataset):
    """Sequences of 3..20 tokens in 1..9; the label is 1 when there are more 1s than 2s."""

    def __init__(self, n):
        self.samples = []
        for _ in range(n):
            length = int(torch.randint(3, 21, (1,)).item())
            seq = torch.randint(1, VOCAB, (length,))
            label = int((seq == 1).sum() > (seq == 2).sum())
            self.samples.append((seq, label))

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, idx):
        return self.samples[idx]


def collate_batch(batch):
    sequences, labels = zip(*batch)
    lengths = torch.tensor([len(s) for s in sequences])
    padded = pad_sequence(sequences, batch_first=True, padding_value=PAD)
    return padded, lengths, torch.tensor(labels)


class LSTMClassifier(nn.Module):
    def __init__(self, vocab_size, embed_dim, hidden_dim, num_classes):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_dim, padding_idx=PAD)
        self.lstm = nn.LSTM(embed_dim, hidden_dim, num_layers=2, batch_first=True, bidirectional=True,
                            dropout=0.1)
        self.fc = nn.Linear(4 * hidden_dim, num_classes)

    def forward(self, padded, lengths, enforce_sorted=False):
        embedded = self.embedding(padded)
        packed = pack_padded_sequence(embedded, lengths, batch_first=True, enforce_sorted=enforce_sorted)
        packed_out, (h_n, c_n) = self.lstm(packed)
        out, out_lengths = pad_packed_sequence(packed_out, batch_first=True)
        mask = (torch.arange(out.size(1))[None, :] < out_lengths[:, None]).unsqueeze(-1)
        mean = (out * mask).sum(dim=1) / out_lengths[:, None].float()
        last = torch.cat([h_n[-2], h_n[-1]], dim=1)  # the last layer, both directions
        return self.fc(torch.cat([mean, last], dim=1))


train_set = CountingDataset(512)
test_set = CountingDataset(128)
train_loader = DataLoader(train_set, batch_size=32, shuffle=True, collate_fn=collate_batch)
test_loader = DataLoader(test_set, batch_size=64, shuffle=False, collate_fn=collate_batch)

model = LSTMClassifier(VOCAB, 8, 16, 2)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
criterion = nn.CrossEntropyLoss()
print(model)


def evaluate():
    model.eval()
    correct = total = 0
    loss_sum = 0.0
    with torch.no_grad():
        for padded, lengths, labels in test_loader:
            lengths, order = lengths.sort(descending=True)
            logits = model(padded[order], lengths, enforce_sorted=True)
            loss_sum += criterion(logits, labels[order]).item() * len(labels)
            correct += (logits.argmax(1) == labels[order]).sum().item()
            total += len(labels)
    model.train()
    return loss_sum / total, correct / total


for epoch in range(num_epochs):
    running = 0.0
    for i, (padded, lengths, labels) in enumerate(train_loader):
        if max_batches is not None and i >= max_batches:
            break
        optimizer.zero_grad()
        logits = model(padded, lengths)
        loss = criterion(logits, labels)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), max_norm=5.0)
        optimizer.step()
        running += loss.item()
        if i % 4 == 0:
            print(f"epoch {epoch} batch {i:2d} loss {loss.item():.4f}")
    scheduler.step()
    test_loss, acc = evaluate()
    print(f"epoch {epoch}: train loss {running / (i + 1):.4f}, test loss {test_loss:.4f}, "
          f"test accuracy {acc:.4f}, lr {scheduler.get_last_lr()[0]:.5f}")
