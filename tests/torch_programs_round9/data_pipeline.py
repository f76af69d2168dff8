"""torch.utils.data: a map-style Dataset, a custom Sampler and BatchSampler, collate_fn with
padding, random_split with a seeded generator, Subset, ConcatDataset, WeightedRandomSampler,
an IterableDataset, and DataLoader shuffle/drop_last — then a tiny training loop."""

import torch
from torch.utils.data import (
    BatchSampler,
    ConcatDataset,
    DataLoader,
    Dataset,
    IterableDataset,
    RandomSampler,
    Sampler,
    SequentialSampler,
    Subset,
    TensorDataset,
    WeightedRandomSampler,
    random_split,
)

torch.manual_seed(0)


class Squares(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        x = torch.tensor([float(i), float(i) ** 0.5])
        return {"x": x, "y": torch.tensor(i % 3), "len": i % 4 + 1}


class EvensFirst(Sampler):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter(list(range(0, self.n, 2)) + list(range(1, self.n, 2)))

    def __len__(self):
        return self.n


def pad_collate(batch):
    seqs = [torch.arange(b["len"], dtype=torch.float32) for b in batch]
    padded = torch.nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=-1.0)
    return torch.stack([b["x"] for b in batch]), torch.stack([b["y"] for b in batch]), padded


ds = Squares(10)
print(len(ds), ds[4])
loader = DataLoader(ds, batch_size=4, sampler=EvensFirst(10), collate_fn=pad_collate)
for xb, yb, padded in loader:
    print(xb[:, 0].tolist(), yb.tolist(), padded.tolist())
default = next(iter(DataLoader(ds, batch_size=3)))
print(sorted(default.keys()), default["x"].shape, default["y"], default["len"])

train_set, val_set = random_split(ds, [7, 3], generator=torch.Generator().manual_seed(42))
print(train_set.indices, val_set.indices, type(train_set).__name__)
a, b, c = random_split(range(10), [0.5, 0.3, 0.2], generator=torch.Generator().manual_seed(1))
print(list(a), list(b), list(c))
sub = Subset(ds, [9, 0, 5])
print([int(s["y"]) for s in sub], len(ConcatDataset([sub, ds])), ConcatDataset([sub, ds])[4]["x"])

print(list(RandomSampler(range(6), generator=torch.Generator().manual_seed(3))))
print(
    list(RandomSampler(range(6), replacement=True, num_samples=8, generator=torch.Generator().manual_seed(3)))
)
print(list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=False)))
print(list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=True)))
weights = torch.tensor([0.1, 0.1, 0.1, 0.7])
print(
    list(
        WeightedRandomSampler(
            weights, num_samples=10, replacement=True, generator=torch.Generator().manual_seed(0)
        )
    )
)
print(
    list(
        WeightedRandomSampler(
            [1.0, 5.0, 2.0, 0.5], 3, replacement=False, generator=torch.Generator().manual_seed(5)
        )
    )
)


class Countdown(IterableDataset):
    def __init__(self, start):
        self.start = start

    def __iter__(self):
        return iter(torch.tensor([float(v)]) for v in range(self.start, 0, -1))


print([b.tolist() for b in DataLoader(Countdown(5), batch_size=2)])

X = torch.randn(40, 3)
Y = (X @ torch.tensor([1.5, -2.0, 0.5]) + 0.1 * torch.randn(40)).unsqueeze(1)
tds = TensorDataset(X, Y)
print(len(tds), tds[0][0].shape, tds[0][1])
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
g = torch.Generator()
g.manual_seed(7)
dl = DataLoader(tds, batch_size=8, shuffle=True, drop_last=True, generator=g)
print(len(dl))
for epoch in range(3):
    total = 0.0
    for xb, yb in dl:
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(model(xb), yb)
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    print(f"epoch {epoch} loss {total / 40:.5f}")
print(model.weight.data, model.bias.data)
torch.manual_seed(3)
print(
    [
        b[0][:, 0].tolist()
        for b in DataLoader(TensorDataset(torch.arange(6.0).unsqueeze(1)), batch_size=4, shuffle=True)
    ]
)
