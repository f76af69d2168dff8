"""A Transformer-encoder sequence classifier built from ``nn.TransformerEncoderLayer``, on fgrad.torch.

Written as PyTorch's transformer tutorials write it: ``nn.Embedding`` scaled by sqrt(d_model),
the tutorial's sinusoidal ``PositionalEncoding`` (a registered buffer, with dropout), an
``nn.TransformerEncoder`` of two ``nn.TransformerEncoderLayer(batch_first=True,
norm_first=True)`` layers with a ``src_key_padding_mask`` for the padded positions, a masked
mean over the sequence and a ``Linear`` head; ``CrossEntropyLoss``, ``AdamW``, a linear
warm-up with ``LambdaLR``, ``clip_grad_norm_``; evaluation under ``model.eval()`` and
``torch.no_grad()``. The task: is the first half of a sequence's (non-padding) tokens' sum larger
than the second half's? Sequences of 6..24 tokens from ``torch.randint``, padded by a
``collate_fn``. The only change from the PyTorch program is the import line (pass
``--torch``, or set ``FGRAD_EXAMPLE_BACKEND=torch``, to run the same code on PyTorch).

Run: ``python examples/torch_transformer_encoder.py [--torch] [--epochs N] [--batches N]``.
"""

import math
import os
import sys

if "--torch" in sys.argv or os.environ.get("FGRAD_EXAMPLE_BACKEND") == "torch":
    import torch
else:
    import fgrad.torch as torch

nn = torch.nn
DataLoader = torch.utils.data.DataLoader

PAD = 0
VOCAB = 16
num_epochs = 2
max_batches = None
for i, arg in enumerate(sys.argv):
    if arg == "--epochs":
        num_epochs = int(sys.argv[i + 1])
    if arg == "--batches":
        max_batches = int(sys.argv[i + 1])

torch.manual_seed(0)


def make_dataset(n):
    samples = []
    for _ in range(n):
        length = int(torch.randint(6, 25, (1,)).item())
        seq = torch.randint(1, VOCAB, (length,))
        half = length // 2
        label = int(seq[:half].sum() > seq[half:2 * half].sum())
        samples.append((seq, label))
    return samples


def collate_batch(batch):
    sequences, labels = zip(*batch)
    padded = nn.utils.rnn.pad_sequence(sequences, batch_first=True, padding_value=PAD)
    return padded, torch.tensor(labels)


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=64):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(1, max_len, d_model)
        pe[0, :, 0::2] = torch.sin(position * div_term)
        pe[0, :, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe)

    def forward(self, x):
        x = x + self.pe[:, :x.size(1)]
        return self.dropout(x)


class TransformerClassifier(nn.Module):
    def __init__(self, vocab, d_model=32, nhead=4, d_hid=64, nlayers=2, num_classes=2, dropout=0.1):
        super().__init__()
        self.d_model = d_model
        self.embedding = nn.Embedding(vocab, d_model, padding_idx=PAD)
        self.pos_encoder = PositionalEncoding(d_model, dropout)
        layer = nn.TransformerEncoderLayer(d_model, nhead, d_hid, dropout, batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, nlayers, enable_nested_tensor=False)
        self.head = nn.Linear(d_model, num_classes)

    def forward(self, src):
        padding_mask = src == PAD
        x = self.pos_encoder(self.embedding(src) * math.sqrt(self.d_model))
        x = self.encoder(x, src_key_padding_mask=padding_mask)
        keep = (~padding_mask).unsqueeze(-1).float()
        pooled = (x * keep).sum(1) / keep.sum(1)
        return self.head(pooled)


train_loader = DataLoader(make_dataset(512), batch_size=32, shuffle=True, collate_fn=collate_batch)
test_loader = DataLoader(make_dataset(128), batch_size=64, collate_fn=collate_batch)

model = TransformerClassifier(VOCAB)
print(model.encoder.layers[0])
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
warmup = 8
scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: min(1.0, (step + 1) / warmup))


def evaluate():
    model.eval()
    loss_sum, correct, total = 0.0, 0, 0
    with torch.no_grad():
        for src, labels in test_loader:
            logits = model(src)
            loss_sum += criterion(logits, labels).item() * labels.size(0)
            correct += (logits.argmax(dim=1) == labels).sum().item()
            total += labels.size(0)
    return loss_sum / total, correct / total


for epoch in range(num_epochs):
    model.train()
    total_loss = 0.0
    for batch, (src, labels) in enumerate(train_loader):
        if max_batches is not None and batch >= max_batches:
            break
        logits = model(src)
        loss = criterion(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        optimizer.step()
        scheduler.step()
        total_loss += loss.item()
        if batch % 4 == 0:
            lr = scheduler.get_last_lr()[0]
            print(f"| epoch {epoch} | batch {batch:2d} | lr {lr:.5f} | loss {loss.item():.4f}")
    test_loss, acc = evaluate()
    print(f"| end of epoch {epoch} | train loss {total_loss / (batch + 1):.4f} | test loss {test_loss:.4f} "
          f"| test accuracy {acc:.4f}")
