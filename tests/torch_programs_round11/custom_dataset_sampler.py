"""Custom data loading as in imbalanced-classification repos: a map-style Dataset with a
transform, class weights from bincount for WeightedRandomSampler (replacement, a seeded
generator), a bucketing BatchSampler that groups similar lengths, a collate_fn that pads and
returns lengths and a mask, default_collate on dicts and tuples, SubsetRandomSampler,
SequentialSampler, RandomSampler(num_samples=), a seeded DataLoader generator, drop_last, and
the class balance the sampler achieves."""
# ruff: noqa: B007, E501  (written as the published program is)

import torch
from torch.utils.data import (BatchSampler, DataLoader, Dataset, RandomSampler, Sampler, SequentialSampler,
                              SubsetRandomSampler, WeightedRandomSampler, default_collate)

torch.manual_seed(0)


class ToyText(Dataset):
    def __init__(self, n=40, transform=None):
        self.lengths = torch.randint(2, 9, (n,))
        self.labels = (torch.rand(n) < 0.2).long()
        self.transform = transform

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        tokens = torch.arange(int(self.lengths[idx])) + idx
        if self.transform:
            tokens = self.transform(tokens)
        return {"tokens": tokens, "label": self.labels[idx]}


ds = ToyText(transform=lambda t: t % 17)
print(len(ds), ds[3], torch.bincount(ds.labels))
class_count = torch.bincount(ds.labels)
weights = 1.0 / class_count.float()
sample_weights = weights[ds.labels]
print(sample_weights[:6])
gen = torch.Generator().manual_seed(42)
sampler = WeightedRandomSampler(sample_weights, num_samples=200, replacement=True, generator=gen)
drawn = torch.tensor(list(sampler))
print(drawn[:12], len(sampler))
print("balance", torch.bincount(ds.labels[drawn]))
print(list(WeightedRandomSampler([0.1, 0.9, 0.4, 0.7], 3, replacement=False, generator=torch.Generator().manual_seed(1))))


def pad_collate(batch):
    tokens = [b["tokens"] for b in batch]
    lengths = torch.tensor([len(t) for t in tokens])
    out = torch.zeros(len(batch), int(lengths.max()), dtype=torch.long)
    for i, t in enumerate(tokens):
        out[i, :len(t)] = t
    mask = torch.arange(out.shape[1])[None, :] < lengths[:, None]
    return out, lengths, mask, torch.stack([b["label"] for b in batch])


class BucketBatchSampler(Sampler):
    def __init__(self, lengths, batch_size, generator=None):
        self.lengths = lengths
        self.batch_size = batch_size
        self.generator = generator

    def __iter__(self):
        order = torch.argsort(self.lengths, stable=True)
        batches = [order[i:i + self.batch_size].tolist() for i in range(0, len(order), self.batch_size)]
        perm = torch.randperm(len(batches), generator=self.generator)
        for j in perm.tolist():
            yield batches[j]

    def __len__(self):
        return (len(self.lengths) + self.batch_size - 1) // self.batch_size


loader = DataLoader(ds, batch_sampler=BucketBatchSampler(ds.lengths, 8, torch.Generator().manual_seed(3)), collate_fn=pad_collate)
for k, (x, lengths, mask, y) in enumerate(loader):
    if k < 3:
        print(x.shape, lengths.tolist(), mask.sum().item(), y.tolist())
print(len(loader))
weighted_loader = DataLoader(ds, batch_size=10, sampler=sampler, collate_fn=pad_collate)
ys = torch.cat([y for _, _, _, y in weighted_loader])
print(ys.shape, ys.float().mean())

print(default_collate([{"a": torch.tensor(1.0), "b": (1, 2)}, {"a": torch.tensor(2.0), "b": (3, 4)}]))
print(default_collate([(torch.ones(2), 0), (torch.zeros(2), 1)]))
print(list(SequentialSampler(range(5))), list(BatchSampler(SequentialSampler(range(7)), 3, drop_last=True)))
print(list(SubsetRandomSampler([10, 11, 12, 13], generator=torch.Generator().manual_seed(0))))
print(list(RandomSampler(range(4), replacement=True, num_samples=6, generator=torch.Generator().manual_seed(5))))
g = torch.Generator()
g.manual_seed(7)
plain = DataLoader(list(range(10)), batch_size=4, shuffle=True, generator=g, drop_last=True)
print([b.tolist() for b in plain], len(plain))
print([b.tolist() for b in plain])
