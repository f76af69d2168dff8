"""Prototypical networks (Snell et al. 2017) and matching networks (Vinyals et al. 2016) for
few-shot classification, the learn2learn / original-repo episode recipe: N-way K-shot episodes
sampled from synthetic classes (per-class random Gaussians in a 16-D space, 2-D "images"
through a small Conv2d embedder), prototypes as class means by index_add_ / bincount, logits
as negative squared torch.cdist distances, matching-network cosine attention over the support
set (F.normalize + bmm + softmax), episodic training with Adam, and evaluation on unseen
classes with 95% confidence intervals; an Episode sampler written as a torch.utils.data
Sampler feeding a DataLoader with a custom collate_fn."""
# ruff: noqa: E501

import math

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, Dataset, Sampler

torch.manual_seed(0)


class Blobs(Dataset):
    def __init__(self, num_classes, per_class, gen):
        self.means = torch.randn(num_classes, 1, 6, 6, generator=gen) * 1.2
        noise = torch.randn(num_classes, per_class, 1, 6, 6, generator=gen) * 0.8
        self.x = (self.means[:, None] + noise).reshape(-1, 1, 6, 6)
        self.y = torch.arange(num_classes).repeat_interleave(per_class)
        self.num_classes, self.per_class = num_classes, per_class

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


class EpisodeSampler(Sampler):
    def __init__(self, data, n_way, k_shot, q_query, episodes, gen):
        self.data, self.n, self.k, self.q, self.episodes, self.gen = data, n_way, k_shot, q_query, episodes, gen

    def __len__(self):
        return self.episodes

    def __iter__(self):
        for _ in range(self.episodes):
            classes = torch.randperm(self.data.num_classes, generator=self.gen)[: self.n]
            idx = [c * self.data.per_class + torch.randperm(self.data.per_class, generator=self.gen)[: self.k + self.q] for c in classes.tolist()]
            yield torch.stack(idx).view(-1).tolist()


def collate(batch, n_way, k_shot):
    x = torch.stack([b[0] for b in batch]).view(n_way, -1, 1, 6, 6)
    support, query = x[:, :k_shot].reshape(-1, 1, 6, 6), x[:, k_shot:].reshape(-1, 1, 6, 6)
    ys = torch.arange(n_way).repeat_interleave(k_shot)
    yq = torch.arange(n_way).repeat_interleave(x.size(1) - k_shot)
    return support, ys, query, yq


def conv_block(i, o):
    return nn.Sequential(nn.Conv2d(i, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU(), nn.MaxPool2d(2, ceil_mode=True))


class Embedder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(conv_block(1, 16), conv_block(16, 16), nn.Flatten())

    def forward(self, x):
        return self.net(x)


def proto_logits(emb_s, ys, emb_q, n_way):
    sums = torch.zeros(n_way, emb_s.size(1)).index_add_(0, ys, emb_s)
    protos = sums / torch.bincount(ys, minlength=n_way).unsqueeze(1)
    return -torch.cdist(emb_q, protos).pow(2), protos


def matching_logits(emb_s, ys, emb_q, n_way):
    sim = torch.bmm(F.normalize(emb_q, dim=-1)[None], F.normalize(emb_s, dim=-1).T[None])[0]
    attn = (sim * 10).softmax(-1)
    probs = attn @ F.one_hot(ys, n_way).float()
    return probs.clamp_min(1e-8).log()


gen = torch.Generator().manual_seed(0)
train_set, test_set = Blobs(20, 20, gen), Blobs(10, 20, gen)
N, K, Q = 5, 3, 5
results = {}
for name, head in (("proto", proto_logits), ("matching", matching_logits)):
    torch.manual_seed(1)
    model = Embedder()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loader = DataLoader(train_set, batch_sampler=EpisodeSampler(train_set, N, K, Q, 100, gen), collate_fn=lambda b: collate(b, N, K))
    for ep, (s, ys, q, yq) in enumerate(loader):
        out = head(model(s), ys, model(q), N)
        logits = out[0] if isinstance(out, tuple) else out
        loss = F.cross_entropy(logits, yq)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if ep % 25 == 0 or ep == 99:
            print(f"{name} episode {ep:2d} loss {loss.item():.4f} acc {(logits.argmax(1) == yq).float().mean().item():.3f}")
    model.eval()
    accs = []
    test_loader = DataLoader(test_set, batch_sampler=EpisodeSampler(test_set, N, K, Q, 40, gen), collate_fn=lambda b: collate(b, N, K))
    with torch.no_grad():
        for s, ys, q, yq in test_loader:
            out = head(model(s), ys, model(q), N)
            logits = out[0] if isinstance(out, tuple) else out
            accs.append((logits.argmax(1) == yq).float().mean())
    accs = torch.stack(accs)
    results[name] = accs.mean().item()
    print(f"{name} test acc {accs.mean().item():.3f} +- {1.96 * accs.std().item() / math.sqrt(len(accs)):.3f}")

s, ys, q, yq = next(iter(DataLoader(test_set, batch_sampler=EpisodeSampler(test_set, N, K, Q, 1, gen), collate_fn=lambda b: collate(b, N, K))))
with torch.no_grad():
    logits, protos = proto_logits(model(s), ys, model(q), N)
print("shapes", tuple(s.shape), tuple(q.shape), tuple(protos.shape), "proto is mean", torch.allclose(protos[2], model(s)[ys == 2].mean(0).detach(), atol=1e-5))
print("better", max(results, key=results.get))
