"""word2vec skip-gram with negative sampling (Mikolov et al. 2013) on a generated corpus
whose words come in topics: a vocabulary by collections.Counter, frequent-word subsampling
with torch.rand, dynamic windows, noise words drawn by torch.multinomial from the unigram
distribution to the 3/4 power, nn.Embedding(sparse=True) centre and context tables trained by
optim.SparseAdam (the gradient is a sparse COO tensor: coalesce, its indices and nnz), the
loss by F.logsigmoid of bmm scores; nearest neighbours by cosine similarity and topk, an
analogy by vector arithmetic, and the topic purity of the neighbours."""
# ruff: noqa: E501

from collections import Counter

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.set_default_dtype(torch.float64)
torch.manual_seed(0)
gen = torch.Generator().manual_seed(1)

topics = {
    "animals": ["cat", "dog", "horse", "cow", "sheep", "goat"],
    "food": ["bread", "cheese", "apple", "rice", "soup", "cake"],
    "weather": ["rain", "snow", "wind", "sun", "cloud", "storm"],
    "numbers": ["one", "two", "three", "four", "five", "six"],
}
function_words = ["the", "a", "and", "of", "is"]
topic_names = list(topics)

sentences = []
for _ in range(400):
    t = topic_names[torch.randint(0, 4, (1,), generator=gen).item()]
    words = topics[t]
    length = torch.randint(6, 11, (1,), generator=gen).item()
    sent = []
    for _ in range(length):
        if torch.rand(1, generator=gen).item() < 0.35:
            sent.append(function_words[torch.randint(0, 5, (1,), generator=gen).item()])
        else:
            sent.append(words[torch.randint(0, 6, (1,), generator=gen).item()])
    sentences.append(sent)

counts = Counter(w for s in sentences for w in s)
vocab = sorted(counts, key=lambda w: (-counts[w], w))
word_to_ix = {w: i for i, w in enumerate(vocab)}
V = len(vocab)
freq = torch.tensor([counts[w] for w in vocab], dtype=torch.float64)
total = freq.sum()
print(f"{len(sentences)} sentences, {int(total)} tokens, vocabulary {V}; most common {vocab[:5]}")

# subsampling of frequent words: keep with probability sqrt(t / f) + t / f
t_sub = 1e-2
f = freq / total
keep_prob = ((t_sub / f).sqrt() + t_sub / f).clamp(max=1.0)
print("keep probability of 'the':", round(keep_prob[word_to_ix["the"]].item(), 4), "of 'cat':", round(keep_prob[word_to_ix["cat"]].item(), 4))

noise = freq ** 0.75
noise = noise / noise.sum()

pairs = []
for sent in sentences:
    ids = torch.tensor([word_to_ix[w] for w in sent])
    kept = ids[torch.rand(len(ids), generator=gen) < keep_prob[ids]]
    for i in range(len(kept)):
        window = torch.randint(1, 4, (1,), generator=gen).item()
        for j in range(max(0, i - window), min(len(kept), i + window + 1)):
            if j != i:
                pairs.append((kept[i].item(), kept[j].item()))
pairs = torch.tensor(pairs)
print("training pairs", tuple(pairs.shape))


class SkipGram(nn.Module):
    def __init__(self, V, dim):
        super().__init__()
        self.centre = nn.Embedding(V, dim, sparse=True)
        self.context = nn.Embedding(V, dim, sparse=True)
        nn.init.uniform_(self.centre.weight, -0.5 / dim, 0.5 / dim)
        nn.init.zeros_(self.context.weight)

    def forward(self, c, o, negatives):
        vc = self.centre(c)  # (B, D)
        uo = self.context(o)  # (B, D)
        un = self.context(negatives)  # (B, K, D)
        pos = F.logsigmoid((vc * uo).sum(-1))
        neg = F.logsigmoid(-torch.bmm(un, vc.unsqueeze(2)).squeeze(2)).sum(1)
        return -(pos + neg).mean()


model = SkipGram(V, 12)
opt = torch.optim.SparseAdam(list(model.parameters()), lr=0.02)
loader = DataLoader(TensorDataset(pairs[:, 0], pairs[:, 1]), batch_size=256, shuffle=True, generator=torch.Generator().manual_seed(2))
K = 5

c, o = pairs[:4, 0], pairs[:4, 1]
loss = model(c, o, torch.multinomial(noise, 4 * K, replacement=True).view(4, K))
loss.backward()
g = model.context.weight.grad  # the centre table's is zero: the context table starts at zero
print("gradient layout", g.layout, "is_sparse", g.is_sparse, "shape", tuple(g.shape))
gc = g.coalesce()
print("coalesced rows", gc.indices()[0].tolist(), "nnz", gc._nnz(), "values", tuple(gc.values().shape))
print(f"dense gradient norm {g.to_dense().norm().item():.6e} loss {loss.item():.6f}, uncoalesced nnz {g._nnz()}, centre gradient zero: {bool((model.centre.weight.grad.to_dense() == 0).all())}")
model.zero_grad()

for epoch in range(1, 7):
    total_loss, batches = 0.0, 0
    for c, o in loader:
        negatives = torch.multinomial(noise, len(c) * K, replacement=True).view(len(c), K)
        loss = model(c, o, negatives)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total_loss += loss.item()
        batches += 1
    print(f"epoch {epoch} loss {total_loss / batches:.5f}")

emb = F.normalize(model.centre.weight.detach(), dim=1)
sim = emb @ emb.T


def neighbours(word, k=3):
    s = sim[word_to_ix[word]].clone()
    s[word_to_ix[word]] = -2
    vals, idx = s.topk(k)
    return [(vocab[i], round(v, 3)) for v, i in zip(vals.tolist(), idx.tolist())]


for w in ["cat", "rain", "three", "bread", "the"]:
    print(w, neighbours(w))

topic_of = {w: t for t, ws in topics.items() for w in ws}
content = [w for w in vocab if w in topic_of]
hits = 0
for w in content:
    s = sim[word_to_ix[w]].clone()
    s[word_to_ix[w]] = -2
    for fw in function_words:
        s[word_to_ix[fw]] = -2
    top = s.topk(3).indices.tolist()
    hits += sum(topic_of[vocab[i]] == topic_of[w] for i in top)
print(f"topic purity of the 3 nearest content words: {hits / (3 * len(content)):.4f}")

a = emb[word_to_ix["dog"]] - emb[word_to_ix["cat"]] + emb[word_to_ix["snow"]]
scores = F.cosine_similarity(a.unsqueeze(0), emb)
for w in ["dog", "cat", "snow"]:
    scores[word_to_ix[w]] = -2
best = scores.argmax().item()
print("dog - cat + snow ->", vocab[best], topic_of.get(vocab[best]))
print("state sizes", {k: tuple(v.shape) for k, v in opt.state[model.centre.weight].items() if torch.is_tensor(v)}, "step", int(opt.state[model.centre.weight]["step"]))
