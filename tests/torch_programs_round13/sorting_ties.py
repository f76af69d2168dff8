"""Sorting, ranking and arg-reductions with ties and NaNs, as ranking-metric and top-k
decoding code depends on them: sort (stable, descending, with NaN and -0.0), argsort,
topk/kthvalue/median/mode with ties and the index they return, max/min/argmax/argmin over
dims with ties, unique (sorted, dim, return_inverse), msort, searchsorted on ties, NDCG and
mean reciprocal rank computed from argsort, beam-search style top-k over flattened scores,
and the gradients of sort/topk/max/median through ties."""
# ruff: noqa: E501

import torch

t = torch.tensor([3.0, 1.0, 2.0, 3.0, 1.0, float("nan"), 2.0, -0.0, 0.0])
print(torch.sort(t), torch.sort(t, descending=True), torch.sort(t, stable=True), torch.sort(t, descending=True, stable=True))
print(torch.argsort(t), torch.argsort(t, descending=True, stable=True), torch.msort(t.view(3, 3)))
ti = torch.tensor([[4, 1, 4, 2, 1, 4], [0, 0, 5, 5, 3, 3]])
print(ti.sort(dim=1), ti.sort(dim=0, descending=True), ti.argsort(dim=1, stable=True))
print(torch.topk(ti, 3), torch.topk(ti, 2, largest=False), torch.topk(t[:5], 2), torch.topk(torch.tensor([1.0, 1.0, 1.0, 0.5]), 2))
print(torch.kthvalue(ti.float(), 2, dim=1), torch.kthvalue(torch.tensor([2.0, 1.0, 2.0, 1.0]), 3), torch.median(ti, dim=1), torch.median(torch.tensor([1.0, 2.0, 3.0, 4.0])))
print(torch.mode(ti, dim=1), torch.mode(torch.tensor([2, 2, 1, 1, 3])), torch.mode(torch.tensor([[1.0, 1.0, 2.0], [3.0, 2.0, 2.0]]), 0))
print(ti.max(dim=1), ti.min(dim=1), ti.argmax(dim=1), ti.argmin(dim=0), ti.argmax(), torch.tensor([[1, 5, 5], [5, 1, 5]]).argmax(), torch.max(t), torch.argmax(t), torch.amax(ti, dim=1), torch.aminmax(ti))
print(torch.max(torch.tensor([1.0, float("nan"), 3.0]), 0), torch.argmin(torch.tensor([2.0, float("nan"), 1.0])), torch.nanmedian(torch.tensor([1.0, float("nan"), 3.0, 2.0])))
print(torch.unique(ti), torch.unique(ti, sorted=True, return_inverse=True, return_counts=True), torch.unique(ti, dim=1), torch.unique(torch.tensor([[1, 2], [1, 2], [0, 3]]), dim=0, return_counts=True))
print(torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 1, 3, 3]), return_inverse=True, return_counts=True), torch.unique(torch.tensor([2.0, float("nan"), 2.0, float("nan")])))
edges = torch.tensor([1, 2, 2, 2, 3])
print(torch.searchsorted(edges, torch.tensor([2, 0, 4])), torch.searchsorted(edges, torch.tensor([2]), right=True), torch.bucketize(torch.tensor([2, 3]), edges, right=True))

scores = torch.tensor([[0.9, 0.3, 0.3, 0.8, 0.1], [0.2, 0.7, 0.7, 0.7, 0.0]])
rel = torch.tensor([[3.0, 0.0, 1.0, 2.0, 0.0], [0.0, 1.0, 0.0, 2.0, 3.0]])
order = scores.argsort(dim=1, descending=True, stable=True)
gains = rel.gather(1, order)
disc = torch.log2(torch.arange(2, 7).float())
dcg = (gains / disc).sum(1)
ideal = (rel.sort(1, descending=True).values / disc).sum(1)
print(order, dcg / ideal)
first_hit = (gains > 0).float().argmax(1)
print(first_hit, (1.0 / (first_hit + 1)).mean())
ranks = scores.argsort(1).argsort(1)
print(ranks)
beam = torch.tensor([[-1.0, -2.0], [-1.5, -0.5]])
logp = torch.log_softmax(torch.tensor([[1.0, 2.0, 2.0, 0.0], [0.5, 0.5, 0.1, 3.0]]), -1)
cand = (beam.unsqueeze(-1) + logp.unsqueeze(1)).view(2, -1)
top_s, top_i = cand.topk(3, dim=1)
print(top_s, top_i // 4, top_i % 4)

x = torch.tensor([3.0, 1.0, 3.0, 2.0, 1.0], requires_grad=True)
parts = [x.sort().values * torch.arange(5.0), x.topk(2).values, x.max().unsqueeze(0), x.min(0).values.unsqueeze(0), x.median().unsqueeze(0), x.kthvalue(2).values.unsqueeze(0), x.amax().unsqueeze(0), x.amin(0, keepdim=True), torch.mode(x).values.unsqueeze(0)]
for p in parts:
    g, = torch.autograd.grad(p.sum(), x)
    print(g)
y = torch.tensor([[2.0, 5.0, 5.0], [1.0, 1.0, 0.0]], requires_grad=True)
(y.max(dim=1).values.sum() + y.amax(dim=0).sum() + y.logsumexp(1).sum()).backward()
print(y.grad)
