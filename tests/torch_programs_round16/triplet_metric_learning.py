"""Metric learning as in the person re-identification and face-embedding repos: an embedding
net with L2-normalised outputs, batch-hard triplet mining from torch.cdist with masked_fill
and the diagonal excluded, nn.TripletMarginLoss, nn.TripletMarginWithDistanceLoss with a
cosine distance and swap, CosineEmbeddingLoss, a supervised-contrastive loss, recall@k from
topk over a similarity matrix, and mean average precision from argsort(descending) of the
similarities with their ties."""
# ruff: noqa: E501

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(9)
N_CLASS, PER, D = 4, 4, 6
centers = torch.randn(N_CLASS, D) * 2
labels = torch.arange(N_CLASS).repeat_interleave(PER)
x = centers[labels] + torch.randn(N_CLASS * PER, D)

net = nn.Sequential(nn.Linear(D, 16), nn.PReLU(), nn.Linear(16, 8))


def embed(x):
    return F.normalize(net(x), p=2, dim=1)


def batch_hard(emb, labels, margin=0.3):
    dist = torch.cdist(emb, emb)
    same = labels[:, None] == labels[None]
    eye = torch.eye(len(labels), dtype=torch.bool)
    hardest_pos = dist.masked_fill(~same | eye, float("-inf")).max(1)
    hardest_neg = dist.masked_fill(same, float("inf")).min(1)
    loss = F.relu(hardest_pos.values - hardest_neg.values + margin).mean()
    return loss, hardest_pos.indices, hardest_neg.indices


def supcon(emb, labels, tau=0.1):
    sim = emb @ emb.t() / tau
    eye = torch.eye(len(labels), dtype=torch.bool)
    sim = sim.masked_fill(eye, -1e9)
    logp = sim - torch.logsumexp(sim, dim=1, keepdim=True)
    pos = (labels[:, None] == labels[None]) & ~eye
    return -(logp * pos).sum(1).div(pos.sum(1)).mean()


triplet = nn.TripletMarginLoss(margin=0.3, p=2)
cos_trip = nn.TripletMarginWithDistanceLoss(distance_function=lambda a, b: 1 - F.cosine_similarity(a, b), margin=0.2, swap=True)
cel = nn.CosineEmbeddingLoss(margin=0.1)
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-4)
for step in range(20):
    emb = embed(x)
    loss_bh, pos_i, neg_i = batch_hard(emb, labels)
    l_trip = triplet(emb, emb[pos_i], emb[neg_i])
    l_cos = cos_trip(emb, emb[pos_i], emb[neg_i])
    pair_t = torch.where(labels == labels.roll(1), 1, -1)
    l_cel = cel(emb, emb.roll(1, 0), pair_t)
    l_sc = supcon(emb, labels)
    loss = loss_bh + 0.5 * l_cos + 0.1 * l_sc
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 4 == 0:
        print(f"step {step:2d} bh {loss_bh.item():.4f} trip {l_trip.item():.4f} cos {l_cos.item():.4f} cel {l_cel.item():.4f} supcon {l_sc.item():.4f}")
print(pos_i.tolist(), neg_i.tolist())

with torch.no_grad():
    emb = embed(x)
sim = emb @ emb.t()
sim.fill_diagonal_(-2.0)
top = sim.topk(3, dim=1).indices
hits = labels[top] == labels[:, None]
print("recall@1", hits[:, 0].float().mean().item(), "recall@3", hits.any(1).float().mean().item())
order = sim.argsort(dim=1, descending=True)[:, :-1]
rel = (labels[order] == labels[:, None]).float()
prec = rel.cumsum(1) / torch.arange(1, rel.shape[1] + 1)
ap = (prec * rel).sum(1) / rel.sum(1)
print("mAP", ap.mean().item().__round__(4), ap.round(decimals=3))
q = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
s = q @ q.t()
print(s.argsort(dim=1, descending=True, stable=True), F.pairwise_distance(q, q.flip(0)), F.cosine_similarity(q[:, None], q[None], dim=-1))
print(F.triplet_margin_loss(q, q.flip(0), q.roll(1, 0), margin=1.0, p=1, reduction="none"), F.cosine_embedding_loss(q, q.flip(0), torch.tensor([1, -1, 1, -1]), reduction="sum"))
