"""A training script's data and checkpoint plumbing: random_split with a seeded generator, a
custom BatchSampler-style Sampler that groups by length, a collate_fn padding with
pad_sequence, a WeightedRandomSampler, then a checkpoint dict (model and optimizer state,
epoch, a scheduler) saved with torch.save into a BytesIO and loaded with weights_only=True,
training resumed from it and compared with an uninterrupted run."""
# ruff: noqa: E501

import io

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader, Dataset, Sampler, WeightedRandomSampler, random_split

torch.manual_seed(5)


class Seqs(Dataset):
    def __init__(self, n):
        g = torch.Generator().manual_seed(1)
        self.lens = torch.randint(2, 7, (n,), generator=g).tolist()
        self.data = [torch.randn(L, 3, generator=g) for L in self.lens]
        self.y = [float(d.sum() > 0) for d in self.data]

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        return self.data[i], self.y[i]


class ByLength(Sampler):
    def __init__(self, lens, batch):
        self.lens, self.batch = lens, batch

    def __iter__(self):
        order = sorted(range(len(self.lens)), key=lambda i: (self.lens[i], i))
        for s in range(0, len(order), self.batch):
            yield order[s:s + self.batch]

    def __len__(self):
        return (len(self.lens) + self.batch - 1) // self.batch


def collate(batch):
    xs, ys = zip(*batch)
    lengths = torch.tensor([len(x) for x in xs])
    return pad_sequence(xs, batch_first=True), lengths, torch.tensor(ys)


full = Seqs(40)
train, val = random_split(full, [30, 10], generator=torch.Generator().manual_seed(42))
print("split", len(train), len(val), val.indices[:5])
sub_lens = [full.lens[i] for i in train.indices]
loader = DataLoader(train, batch_sampler=ByLength(sub_lens, 8), collate_fn=collate)
for xb, lb, yb in loader:
    print("batch", tuple(xb.shape), lb.tolist()[:4], yb.tolist()[:4])
    break
w = torch.tensor([3.0 if full.y[i] else 1.0 for i in train.indices])
ws = WeightedRandomSampler(w, 12, replacement=True, generator=torch.Generator().manual_seed(3))
print("weighted", list(ws))


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.GRU(3, 8, batch_first=True)
        self.head = nn.Linear(8, 1)

    def forward(self, x, lengths):
        out, _ = self.rnn(x)
        last = out[torch.arange(x.shape[0]), lengths - 1]
        return self.head(last).squeeze(-1)


def make():
    torch.manual_seed(9)
    m = Model()
    o = torch.optim.AdamW(m.parameters(), lr=0.01, weight_decay=0.1)
    s = torch.optim.lr_scheduler.ExponentialLR(o, 0.9)
    return m, o, s


def epoch(m, o, s):
    total = 0.0
    for xb, lb, yb in loader:
        loss = nn.functional.binary_cross_entropy_with_logits(m(xb, lb), yb)
        o.zero_grad()
        loss.backward()
        o.step()
        total += loss.item()
    s.step()
    return total / len(loader)


m, o, s = make()
for _ in range(4):
    last = epoch(m, o, s)
buf = io.BytesIO()
torch.save({"epoch": 4, "model": m.state_dict(), "opt": o.state_dict(), "sched": s.state_dict()}, buf)
for _ in range(4, 6):
    last = epoch(m, o, s)
print("uninterrupted", round(last, 5), [round(v, 5) for v in m.head.weight[0, :4].tolist()])

buf.seek(0)
ck = torch.load(buf, weights_only=True)
print("checkpoint keys", sorted(ck), sorted(ck["opt"]["state"])[:3], ck["opt"]["param_groups"][0]["lr"] == s.get_last_lr()[0] / 0.81)
m2, o2, s2 = make()
m2.load_state_dict(ck["model"])
o2.load_state_dict(ck["opt"])
s2.load_state_dict(ck["sched"])
print("step count", o2.state_dict()["state"][0]["step"].item(), "lr", round(s2.get_last_lr()[0], 6))
for _ in range(ck["epoch"], 6):
    last2 = epoch(m2, o2, s2)
print("resumed", round(last2, 5), [round(v, 5) for v in m2.head.weight[0, :4].tolist()])
print("identical", all(torch.equal(a, b) for a, b in zip(m.state_dict().values(), m2.state_dict().values())))
with torch.no_grad():
    xv, lv, yv = collate([val[i] for i in range(len(val))])
    print("val acc", ((m(xv, lv) > 0).float() == yv).float().mean().item())
