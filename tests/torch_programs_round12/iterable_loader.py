"""torch.utils.data beyond map-style datasets, as in streaming-data scripts: an IterableDataset
that shards by get_worker_info (None in the main process) and a worker_init_fn, ChainDataset,
StackDataset, DataLoader with batch_size=None, default_convert, default_collate on nested
namedtuples and dicts, a custom collate_fn with pad_sequence, a Sampler with its own generator,
random_split with fractions, DataLoader generator reproducibility, pin_memory, drop_last and
the lengths of loaders and samplers."""
# ruff: noqa: B007, E501  (written as the published program is)

import math
from collections import namedtuple

import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import (
    BatchSampler,
    ChainDataset,
    DataLoader,
    IterableDataset,
    RandomSampler,
    StackDataset,
    TensorDataset,
    get_worker_info,
    random_split,
)
from torch.utils.data._utils.collate import default_collate, default_convert


class RangeStream(IterableDataset):
    def __init__(self, start, end):
        self.start, self.end = start, end

    def __iter__(self):
        info = get_worker_info()
        print("worker info", info)
        if info is None:
            lo, hi = self.start, self.end
        else:
            per = int(math.ceil((self.end - self.start) / info.num_workers))
            lo = self.start + info.id * per
            hi = min(lo + per, self.end)
        for i in range(lo, hi):
            yield torch.tensor([float(i), float(i) ** 2])


def init_fn(worker_id):
    print("init", worker_id)


ds = RangeStream(3, 10)
print([b.tolist() for b in DataLoader(ds, batch_size=3, worker_init_fn=init_fn)])
print([b.shape for b in DataLoader(ds, batch_size=3, drop_last=True)])
chain = ChainDataset([RangeStream(0, 2), RangeStream(100, 102)])
print([x.tolist() for x in chain])
print([b for b in DataLoader(TensorDataset(torch.arange(4)), batch_size=None)])

Point = namedtuple("Point", ["x", "y"])
batch = [{"p": Point(torch.tensor(1.0), 2), "name": "a", "v": [1, 2]}, {"p": Point(torch.tensor(3.0), 4), "name": "b", "v": [3, 4]}]
print(default_collate(batch))
print(default_convert({"a": __import__("numpy").array([1, 2]), "b": (3, 4.5)}))
print(default_collate([(torch.ones(2), 1, 0.5), (torch.zeros(2), 0, 1.5)]))

seqs = [torch.tensor([1, 2, 3]), torch.tensor([4]), torch.tensor([5, 6]), torch.tensor([7, 8, 9, 10])]
labels = torch.tensor([0, 1, 0, 1])


def pad_collate(items):
    xs, ys = zip(*items)
    lengths = torch.tensor([len(x) for x in xs])
    return pad_sequence(xs, batch_first=True, padding_value=-1), lengths, torch.stack(ys)


pairs = list(zip(seqs, labels))
for xb, lens, yb in DataLoader(pairs, batch_size=3, collate_fn=pad_collate):
    print(xb, lens, yb)

stack = StackDataset(seqs=seqs, label=labels)
print(len(stack), stack[1])
g = torch.Generator().manual_seed(5)
print(list(RandomSampler(range(6), generator=g)), list(RandomSampler(range(6), replacement=True, num_samples=4, generator=g)))
print(list(BatchSampler(RandomSampler(range(7), generator=torch.Generator().manual_seed(1)), 3, drop_last=False)))
parts = random_split(range(10), [0.5, 0.3, 0.2], generator=torch.Generator().manual_seed(42))
print([list(p) for p in parts], [len(p) for p in parts])

data = TensorDataset(torch.arange(10.0).unsqueeze(1), torch.arange(10))
l1 = [y.tolist() for _, y in DataLoader(data, batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(7))]
l2 = [y.tolist() for _, y in DataLoader(data, batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(7))]
print(l1, l1 == l2)
torch.manual_seed(11)
print([y.tolist() for _, y in DataLoader(data, batch_size=5, shuffle=True)])
loader = DataLoader(data, batch_size=4, drop_last=True, pin_memory=False)
print(len(loader), len(DataLoader(data, batch_size=4)), len(loader.sampler), type(loader.batch_sampler).__name__)
xb, yb = next(iter(loader))
print(xb.is_pinned(), xb.dtype, yb)
