"""A text classifier as in the torchtext tutorial (AG_NEWS with nn.EmbeddingBag): a
vocabulary built with a Counter, token ids concatenated with offsets (the collate_fn of a
DataLoader over a custom Dataset), EmbeddingBag in mean, sum and max modes and with
per_sample_weights, padding_idx, SGD with StepLR and gradient clipping, and accuracy."""
# ruff: noqa: E501

from collections import Counter

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(7)
texts = [
    ("the team won the match", 0), ("a great goal in the final", 0), ("the striker scored twice", 0),
    ("stocks fell on the market", 1), ("the bank raised rates", 1), ("shares and bonds rallied", 1),
    ("new phone with a fast chip", 2), ("the software update fixed bugs", 2), ("a chip maker posts record sales", 2),
    ("the coach praised the team", 0), ("markets rallied as rates fell", 1), ("the update adds a new chip", 2),
]
counter = Counter(w for t, _ in texts for w in t.split())
vocab = {"<pad>": 0, "<unk>": 1}
for w, _ in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])):
    vocab[w] = len(vocab)
print("vocab", len(vocab), list(vocab)[:8])


class News(Dataset):
    def __len__(self):
        return len(texts)

    def __getitem__(self, i):
        t, y = texts[i]
        return torch.tensor([vocab.get(w, 1) for w in t.split()]), y


def collate(batch):
    ids = [b[0] for b in batch]
    offsets = torch.tensor([0] + [len(t) for t in ids[:-1]]).cumsum(0)
    return torch.cat(ids), offsets, torch.tensor([b[1] for b in batch])


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(len(vocab), 8, mode="mean")
        self.fc = nn.Linear(8, 3)
        self.emb.weight.data.uniform_(-0.5, 0.5)
        self.fc.weight.data.uniform_(-0.5, 0.5)
        self.fc.bias.data.zero_()

    def forward(self, ids, offsets):
        return self.fc(self.emb(ids, offsets))


loader = DataLoader(News(), batch_size=4, shuffle=True, collate_fn=collate, generator=torch.Generator().manual_seed(0))
model = Classifier()
opt = torch.optim.SGD(model.parameters(), lr=2.0)
sched = torch.optim.lr_scheduler.StepLR(opt, 5, gamma=0.5)
loss_fn = nn.CrossEntropyLoss()
for epoch in range(15):
    total, correct, n = 0.0, 0, 0
    for ids, offsets, y in loader:
        out = model(ids, offsets)
        loss = loss_fn(out, y)
        opt.zero_grad()
        loss.backward()
        norm = nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        opt.step()
        total += loss.item() * len(y)
        correct += (out.argmax(1) == y).sum().item()
        n += len(y)
    sched.step()
    if epoch % 5 == 4:
        print(f"epoch {epoch} loss {total / n:.4f} acc {correct / n:.3f} lr {sched.get_last_lr()[0]:.3f} last norm {norm.item():.4f}")

with torch.no_grad():
    test = ["the team scored a goal", "rates and markets", "a new software chip"]
    ids = [torch.tensor([vocab.get(w, 1) for w in t.split()]) for t in test]
    offsets = torch.tensor([0] + [len(t) for t in ids[:-1]]).cumsum(0)
    probs = model(torch.cat(ids), offsets).softmax(1)
    print("pred", probs.argmax(1).tolist(), [round(v, 4) for v in probs.max(1).values.tolist()])

# the modes, per-sample weights, padding_idx, 2-D input
w = torch.arange(12.0).reshape(6, 2)
inp = torch.tensor([1, 2, 4, 5, 4, 3, 2, 0])
off = torch.tensor([0, 3, 3, 6])
for mode in ("sum", "mean", "max"):
    bag = nn.EmbeddingBag.from_pretrained(w, mode=mode, freeze=False)
    print(mode, bag(inp, off).tolist())
bag = nn.EmbeddingBag.from_pretrained(w, mode="sum", padding_idx=2)
print("padding_idx", bag(inp, off).tolist())
bag = nn.EmbeddingBag.from_pretrained(w.clone(), mode="sum", freeze=False)
psw = torch.linspace(0.5, 2.0, 8, requires_grad=True)
out = bag(inp, off, per_sample_weights=psw)
print("per_sample_weights", [round(v, 4) for v in out.flatten().tolist()])
(out ** 2).sum().backward()
print("grad w", bag.weight.grad.tolist())
print("grad psw", [round(v, 4) for v in psw.grad.tolist()])
bag = nn.EmbeddingBag.from_pretrained(w, mode="max")
print("2-D input", bag(torch.tensor([[0, 1, 2], [5, 3, 1]])).tolist())
print("include_last_offset", nn.EmbeddingBag.from_pretrained(w, mode="mean", include_last_offset=True)(inp, torch.tensor([0, 3, 6, 8])).tolist())
