"""Embeddings as in recommender and word2vec scripts: nn.Embedding.from_pretrained (freeze and
not), padding_idx with its zero gradient, max_norm renormalisation, sparse=True gradients with
SparseAdam and with SGD, EmbeddingBag (sum/mean/max, offsets, per_sample_weights,
include_last_offset, padding_idx), F.embedding, and skip-gram with negative sampling
(logsigmoid of dot products) trained for a few steps; nearest neighbours by cosine similarity."""
# ruff: noqa: B007, E501  (written as the published program is)

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
pre = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
frozen = nn.Embedding.from_pretrained(pre)
tuned = nn.Embedding.from_pretrained(pre, freeze=False, padding_idx=0)
print(frozen.weight.requires_grad, tuned.weight.requires_grad, frozen(torch.tensor([2, 0])))
tuned(torch.tensor([0, 1, 2, 2])).sum().backward()
print(tuned.weight.grad)

emb = nn.Embedding(5, 3, padding_idx=1)
print(emb.weight[1])
emb(torch.tensor([[0, 1], [1, 4]])).pow(2).sum().backward()
print(emb.weight.grad)
mn = nn.Embedding(4, 3, max_norm=1.0)
with torch.no_grad():
    mn.weight.mul_(3)
out = mn(torch.tensor([0, 2]))
print(out.norm(dim=1), mn.weight.norm(dim=1))

sp = nn.Embedding(6, 2, sparse=True)
loss = sp(torch.tensor([1, 3, 3])).sum()
loss.backward()
print(sp.weight.grad.is_sparse, sp.weight.grad.coalesce().indices(), sp.weight.grad.coalesce().values())
opt = torch.optim.SparseAdam(sp.parameters(), lr=0.1)
opt.step()
print(sp.weight)
sp.zero_grad()
sgd = torch.optim.SGD(sp.parameters(), lr=0.5)
sp(torch.tensor([0, 0])).sum().backward()
sgd.step()
print(sp.weight[0])

inputs = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
offsets = torch.tensor([0, 4])
for mode in ["sum", "mean", "max"]:
    bag = nn.EmbeddingBag(10, 3, mode=mode)
    print(mode, bag(inputs, offsets))
bag = nn.EmbeddingBag(10, 3, mode="sum")
w = torch.linspace(0.1, 0.8, 8)
print(bag(inputs, offsets, per_sample_weights=w))
print(nn.EmbeddingBag(10, 2, mode="sum", include_last_offset=True)(inputs, torch.tensor([0, 3, 8])))
print(nn.EmbeddingBag(10, 2, mode="mean", padding_idx=2)(torch.tensor([[2, 3], [2, 2]])))
print(F.embedding(torch.tensor([[0, 2]]), pre), F.embedding_bag(torch.tensor([0, 1, 2]), pre, torch.tensor([0, 1]), mode="max"))

corpus = "the quick brown fox jumps over the lazy dog the fox".split()
vocab = sorted(set(corpus))
stoi = {w: i for i, w in enumerate(vocab)}
ids = torch.tensor([stoi[w] for w in corpus])
pairs = torch.tensor([(ids[i].item(), ids[j].item()) for i in range(len(ids)) for j in (i - 1, i + 1) if 0 <= j < len(ids)])
V, D, K = len(vocab), 4, 3
center, context = nn.Embedding(V, D), nn.Embedding(V, D)
opt = torch.optim.Adam(list(center.parameters()) + list(context.parameters()), lr=0.05)
for step in range(40):
    neg = torch.randint(0, V, (len(pairs), K))
    c = center(pairs[:, 0])
    pos = (c * context(pairs[:, 1])).sum(-1)
    negs = torch.bmm(context(neg), c.unsqueeze(2)).squeeze(2)
    loss = -(F.logsigmoid(pos) + F.logsigmoid(-negs).sum(1)).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(step, round(loss.item(), 4))
with torch.no_grad():
    E = F.normalize(center.weight, dim=1)
    sims = E @ E[stoi["fox"]]
print([vocab[i] for i in sims.topk(3).indices], F.cosine_similarity(center.weight[:2], center.weight[2:4]))
