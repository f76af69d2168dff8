"""Knowledge-graph embeddings: TransE (Bordes et al. 2013) and DistMult on a synthetic graph
whose relations are translations of hidden entity vectors.  Entity embeddings with
nn.Embedding(max_norm=1) renormalised in place on lookup, corrupted triples by replacing the
head or the tail (torch.where on a Bernoulli mask), nn.MarginRankingLoss on the L1 distances,
DistMult trained with a softplus logistic loss and N3-free L2 regularisation; filtered link
prediction: scores of every candidate tail, the known true triples masked by index_put_ with
-inf, ranks from comparisons, MRR and Hits@1/3/10."""
# ruff: noqa: E501

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
n_ent, n_rel, dim = 60, 4, 16
gen = torch.Generator().manual_seed(0)

# a graph generated from hidden 2-D positions: relation r maps entity e to the entity nearest to e + shift_r
pos = torch.rand(n_ent, 2, generator=gen) * 4
shifts = torch.tensor([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.5], [0.5, -1.0]])
triples = []
for r in range(n_rel):
    target = pos + shifts[r]
    d = torch.cdist(target, pos)
    tail = d.argmin(1)
    keep = d.min(1).values < 0.6
    heads = torch.arange(n_ent)[keep]
    triples.append(torch.stack([heads, torch.full_like(heads, r), tail[keep]], 1))
triples = torch.cat(triples)
perm = torch.randperm(len(triples), generator=gen)
triples = triples[perm]
n_test = len(triples) // 5
test, train = triples[:n_test], triples[n_test:]
print(f"{len(triples)} triples ({len(train)} train, {len(test)} test), per relation {torch.bincount(triples[:, 1], minlength=n_rel).tolist()}")


class TransE(nn.Module):
    def __init__(self):
        super().__init__()
        self.ent = nn.Embedding(n_ent, dim, max_norm=1.0)
        self.rel = nn.Embedding(n_rel, dim)
        bound = 6 / dim ** 0.5
        nn.init.uniform_(self.ent.weight, -bound, bound)
        nn.init.uniform_(self.rel.weight, -bound, bound)
        with torch.no_grad():
            self.rel.weight.div_(self.rel.weight.norm(dim=1, keepdim=True))

    def score(self, h, r, t):  # higher is better
        return -(self.ent(h) + self.rel(r) - self.ent(t)).norm(p=1, dim=-1)

    def all_tails(self, h, r):
        return -torch.cdist(self.ent(h) + self.rel(r), self.ent.weight, p=1)


class DistMult(nn.Module):
    def __init__(self):
        super().__init__()
        self.ent = nn.Embedding(n_ent, dim)
        self.rel = nn.Embedding(n_rel, dim)
        nn.init.xavier_uniform_(self.ent.weight)
        nn.init.xavier_uniform_(self.rel.weight)

    def score(self, h, r, t):
        return (self.ent(h) * self.rel(r) * self.ent(t)).sum(-1)

    def all_tails(self, h, r):
        return (self.ent(h) * self.rel(r)) @ self.ent.weight.T


def corrupt(batch):
    replace_head = torch.rand(len(batch), generator=gen) < 0.5
    rand_ent = torch.randint(0, n_ent, (len(batch),), generator=gen)
    h = torch.where(replace_head, rand_ent, batch[:, 0])
    t = torch.where(replace_head, batch[:, 2], rand_ent)
    return h, batch[:, 1], t


known = torch.zeros(n_ent, n_rel, n_ent, dtype=torch.bool)
known[triples[:, 0], triples[:, 1], triples[:, 2]] = True


def evaluate(model):
    with torch.no_grad():
        scores = model.all_tails(test[:, 0], test[:, 1])
        true = scores.gather(1, test[:, 2:3])
        filt = known[test[:, 0], test[:, 1]].clone()
        filt[torch.arange(len(test)), test[:, 2]] = False
        scores = scores.masked_fill(filt, float("-inf"))
        rank = 1 + (scores > true).sum(1)
        return (1.0 / rank).mean().item(), [(rank <= k).float().mean().item() for k in (1, 3, 10)]


margin_loss = nn.MarginRankingLoss(margin=1.0)
for name, model in [("TransE", TransE()), ("DistMult", DistMult())]:
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    for epoch in range(100):
        for batch in train[torch.randperm(len(train), generator=gen)].split(32):
            pos_s = model.score(batch[:, 0], batch[:, 1], batch[:, 2])
            neg_s = model.score(*corrupt(batch))
            if name == "TransE":
                loss = margin_loss(pos_s, neg_s, torch.ones_like(pos_s))
            else:
                reg = sum(p.pow(2).sum() for p in model.parameters())
                loss = F.softplus(-pos_s).mean() + F.softplus(neg_s).mean() + 1e-4 * reg
            opt.zero_grad()
            loss.backward()
            opt.step()
        if epoch % 25 == 24:
            mrr, hits = evaluate(model)
            print(f"{name:8s} epoch {epoch + 1:3d} loss {loss.item():.4f} MRR {mrr:.4f} hits@1/3/10 {hits[0]:.3f} {hits[1]:.3f} {hits[2]:.3f}")
    if name == "TransE":
        norms = model.ent.weight.detach().norm(dim=1)
        print(f"entity norms after max_norm lookups: max {norms.max().item():.6f} min {norms.min().item():.4f}")
        rel = model.rel.weight.detach()
        print("relation cosine similarity:\n", F.cosine_similarity(rel.unsqueeze(1), rel.unsqueeze(0), dim=-1).round(decimals=3))
