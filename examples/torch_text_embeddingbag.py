"""The text-classification tutorial's ``EmbeddingBag`` model, on fgrad.torch, with a synthetic corpus.

PyTorch's "Text classification with the torchtext library" tutorial without torchtext: a
``collate_batch`` that concatenates the token ids of a batch's texts into one flat tensor and
builds their ``offsets`` with ``torch.cumsum``, a ``TextClassificationModel`` of
``nn.EmbeddingBag(vocab_size, embed_dim)`` (mean of each text's embeddings) and a ``Linear``
layer, initialised with ``uniform_`` / ``zero_``; ``CrossEntropyLoss``, ``SGD(lr=5)``,
``StepLR(step_size=1, gamma=0.1)`` stepped when the validation accuracy does not improve,
``clip_grad_norm_(..., 0.1)``, ``random_split`` into training and validation sets, and
prediction on a new text under ``torch.no_grad()``. The corpus: texts of 4..30 words from a
vocabulary of 200, each class drawing half of its words from a band of its own. The only
change from the PyTorch program is the import line (pass ``--torch``, or set
``FGRAD_EXAMPLE_BACKEND=torch``, to run the same code on PyTorch).

Run: ``python examples/torch_text_embeddingbag.py [--torch] [--epochs N] [--batches N]``.
"""

import os
import sys

if "--torch" in sys.argv or os.environ.get("FGRAD_EXAMPLE_BACKEND") == "torch":
    import torch
else:
    import fgrad.torch as torch

nn = torch.nn
DataLoader = torch.utils.data.DataLoader
random_split = torch.utils.data.dataset.random_split

EPOCHS = 3
LR = 5
BATCH_SIZE = 32
max_batches = None
for i, arg in enumerate(sys.argv):
    if arg == "--epochs":
        EPOCHS = int(sys.argv[i + 1])
    if arg == "--batches":
        max_batches = int(sys.argv[i + 1])

torch.manual_seed(0)
VOCAB_SIZE = 200
NUM_CLASS = 4


def make_corpus(n):
    """(label, token ids) pairs: half of a text's words come from its class's band of 50."""
    data = []
    for _ in range(n):
        label = int(torch.randint(0, NUM_CLASS, (1,)).item())
        length = int(torch.randint(4, 31, (1,)).item())
        common = torch.randint(0, VOCAB_SIZE, (length,))
        topical = torch.randint(label * 50, (label + 1) * 50, (length,))
        words = torch.where(torch.rand(length) < 0.5, topical, common)
        data.append((label, words.tolist()))
    return data


def collate_batch(batch):
    label_list, text_list, offsets = [], [], [0]
    for _label, _text in batch:
        label_list.append(_label)
        processed_text = torch.tensor(_text, dtype=torch.int64)
        text_list.append(processed_text)
        offsets.append(processed_text.size(0))
    label_list = torch.tensor(label_list, dtype=torch.int64)
    offsets = torch.tensor(offsets[:-1]).cumsum(dim=0)
    text_list = torch.cat(text_list)
    return label_list, text_list, offsets


class TextClassificationModel(nn.Module):
    def __init__(self, vocab_size, embed_dim, num_class):
        super(TextClassificationModel, self).__init__()
        self.embedding = nn.EmbeddingBag(vocab_size, embed_dim, sparse=False)
        self.fc = nn.Linear(embed_dim, num_class)
        self.init_weights()

    def init_weights(self):
        initrange = 0.5
        self.embedding.weight.data.uniform_(-initrange, initrange)
        self.fc.weight.data.uniform_(-initrange, initrange)
        self.fc.bias.data.zero_()

    def forward(self, text, offsets):
        embedded = self.embedding(text, offsets)
        return self.fc(embedded)


model = TextClassificationModel(VOCAB_SIZE, 32, NUM_CLASS)
criterion = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=LR)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1.0, gamma=0.1)


def train(dataloader, epoch):
    model.train()
    total_acc, total_count = 0, 0
    log_interval = 8
    for idx, (label, text, offsets) in enumerate(dataloader):
        if max_batches is not None and idx >= max_batches:
            break
        optimizer.zero_grad()
        predicted_label = model(text, offsets)
        loss = criterion(predicted_label, label)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
        optimizer.step()
        total_acc += (predicted_label.argmax(1) == label).sum().item()
        total_count += label.size(0)
        if idx % log_interval == 0:
            print("| epoch {:3d} | {:5d}/{:5d} batches | accuracy {:8.4f} | loss {:8.4f}".format(
                epoch, idx, len(dataloader), total_acc / total_count, loss.item()))
            total_acc, total_count = 0, 0


def evaluate(dataloader):
    model.eval()
    total_acc, total_count = 0, 0
    with torch.no_grad():
        for label, text, offsets in dataloader:
            predicted_label = model(text, offsets)
            total_acc += (predicted_label.argmax(1) == label).sum().item()
            total_count += label.size(0)
    return total_acc / total_count


train_dataset = make_corpus(640)
test_dataset = make_corpus(160)
num_train = int(len(train_dataset) * 0.95)
split_train_, split_valid_ = random_split(train_dataset, [num_train, len(train_dataset) - num_train])
train_dataloader = DataLoader(split_train_, batch_size=BATCH_SIZE, shuffle=True, collate_fn=collate_batch)
valid_dataloader = DataLoader(split_valid_, batch_size=BATCH_SIZE, shuffle=True, collate_fn=collate_batch)
test_dataloader = DataLoader(test_dataset, batch_size=BATCH_SIZE, shuffle=True, collate_fn=collate_batch)

total_accu = None
for epoch in range(1, EPOCHS + 1):
    train(train_dataloader, epoch)
    accu_val = evaluate(valid_dataloader)
    if total_accu is not None and total_accu > accu_val:
        scheduler.step()
    else:
        total_accu = accu_val
    print("| end of epoch {:3d} | valid accuracy {:8.4f} | lr {:.4f}".format(
        epoch, accu_val, scheduler.get_last_lr()[0]))

print("test accuracy {:8.4f}".format(evaluate(test_dataloader)))
with torch.no_grad():
    text = torch.tensor(list(range(50, 60)) * 2)
    output = model(text, torch.tensor([0]))
    print("a text of band-1 words is class %d; probabilities %s" % (
        output.argmax(1).item(), [round(p, 4) for p in output.softmax(1)[0].tolist()]))
