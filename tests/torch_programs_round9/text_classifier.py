"""A text classifier in the style of the torchtext tutorial: a tokenizer and vocabulary by hand,
EmbeddingBag with offsets (mean), Embedding with padding_idx and max_norm, accuracy, and
inference on new sentences."""

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

torch.manual_seed(1)
train = [
    (0, "the team won the match in the final minute"),
    (1, "stocks fell as markets reacted to the rate news"),
    (2, "the new phone has a faster chip and a better screen"),
    (0, "the striker scored twice and the fans cheered"),
    (1, "the bank raised interest rates again this quarter"),
    (2, "researchers released a faster open source compiler"),
    (0, "a late goal sealed the win for the home team"),
    (1, "investors sold shares as profits dropped"),
    (2, "the chip maker unveiled a new laptop screen"),
]
vocab = {"<unk>": 0}
for _, text in train:
    for tok in text.split():
        vocab.setdefault(tok, len(vocab))
print("vocab size", len(vocab))


def text_pipeline(s):
    return [vocab.get(t, 0) for t in s.lower().split()]


def collate_batch(batch):
    label_list, text_list, offsets = [], [], [0]
    for label, text in batch:
        label_list.append(label)
        processed = torch.tensor(text_pipeline(text), dtype=torch.int64)
        text_list.append(processed)
        offsets.append(processed.size(0))
    label_list = torch.tensor(label_list, dtype=torch.int64)
    offsets = torch.tensor(offsets[:-1]).cumsum(dim=0)
    text_list = torch.cat(text_list)
    return label_list, text_list, offsets


class TextClassificationModel(nn.Module):
    def __init__(self, vocab_size, embed_dim, num_class):
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocab_size, embed_dim, sparse=False)
        self.fc = nn.Linear(embed_dim, num_class)
        self.init_weights()

    def init_weights(self):
        initrange = 0.5
        self.embedding.weight.data.uniform_(-initrange, initrange)
        self.fc.weight.data.uniform_(-initrange, initrange)
        self.fc.bias.data.zero_()

    def forward(self, text, offsets):
        return self.fc(self.embedding(text, offsets))


model = TextClassificationModel(len(vocab), 8, 3)
criterion = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=2.0)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1.0, gamma=0.9)
loader = DataLoader(train, batch_size=3, shuffle=True, collate_fn=collate_batch)
for epoch in range(1, 7):
    model.train()
    total_acc, total_count, total_loss = 0, 0, 0.0
    for label, text, offsets in loader:
        optimizer.zero_grad()
        predicted = model(text, offsets)
        loss = criterion(predicted, label)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
        optimizer.step()
        total_acc += (predicted.argmax(1) == label).sum().item()
        total_count += label.size(0)
        total_loss += loss.item()
    scheduler.step()
    print(
        f"| epoch {epoch:3d} | accuracy {total_acc / total_count:8.3f} | loss {total_loss:.4f} "
        f"| lr {scheduler.get_last_lr()[0]:.4f}"
    )

labels = {0: "Sports", 1: "Business", 2: "Sci/Tec"}
model.eval()
with torch.no_grad():
    for s in ["the fans cheered the team", "rates and shares fell", "a faster screen chip"]:
        t = torch.tensor(text_pipeline(s))
        out = model(t, torch.tensor([0]))
        print(f"{s!r:32} -> {labels[out.argmax(1).item()]}", torch.softmax(out, 1))

bag_sum = nn.EmbeddingBag(10, 3, mode="sum")
bag_max = nn.EmbeddingBag.from_pretrained(bag_sum.weight.detach(), mode="max")
inp = torch.tensor([[1, 2, 4], [4, 3, 9]])
print(bag_sum(inp), bag_max(inp))
w = torch.tensor([0.5, 1.0, 2.0, 1.0])
print(bag_sum(torch.tensor([1, 2, 3, 4]), torch.tensor([0, 2]), per_sample_weights=w))
emb = nn.Embedding(6, 4, padding_idx=0, max_norm=1.0)
idx = torch.tensor([[0, 2, 5], [2, 2, 1]])
out = emb(idx)
print(out.norm(dim=-1))
out.sum().backward()
print(emb.weight.grad[:3])
print(emb.weight.norm(dim=1))
