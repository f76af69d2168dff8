"""Beam search and sampling decoders over a small GRU language model, as in the seq2seq and
text-generation tutorials: the model trained a few steps on a toy corpus, greedy decoding,
beam search with length normalisation (scores flattened and ranked with topk, beams reordered
with index_select, finished hypotheses masked with masked_fill), top-k and nucleus (top-p)
sampling with sort/cumsum/scatter under a seed, temperature, repetition penalty with gather
and scatter_, and a batch of beams ranked with argsort over tied scores."""
# ruff: noqa: E501

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(23)
corpus = "the cat sat on the mat . the dog sat on the log . a cat and a dog ."
words = sorted(set(corpus.split()))
stoi = {w: i for i, w in enumerate(words)}
V = len(words)
ids = torch.tensor([stoi[w] for w in corpus.split()])
EOS = stoi["."]
print(V, words, ids[:8].tolist())


class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 12)
        self.rnn = nn.GRU(12, 24, batch_first=True)
        self.out = nn.Linear(24, V)

    def forward(self, x, h=None):
        o, h = self.rnn(self.emb(x), h)
        return self.out(o), h


lm = LM()
opt = torch.optim.Adam(lm.parameters(), lr=0.02)
x, y = ids[:-1].unsqueeze(0), ids[1:].unsqueeze(0)
for step in range(60):
    logits, _ = lm(x)
    loss = F.cross_entropy(logits.view(-1, V), y.view(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 15 == 0 or step == 59:
        print(f"step {step} loss {loss.item():.4f}")
lm.eval()


@torch.no_grad()
def greedy(prefix, n=8):
    seq = [stoi[w] for w in prefix.split()]
    logits, h = lm(torch.tensor([seq]))
    for _ in range(n):
        nxt = int(logits[0, -1].argmax())
        seq.append(nxt)
        if nxt == EOS:
            break
        logits, h = lm(torch.tensor([[nxt]]), h)
    return " ".join(words[i] for i in seq)


@torch.no_grad()
def beam_search(prefix, k=3, n=8, alpha=0.7):
    seq = torch.tensor([[stoi[w] for w in prefix.split()]])
    logits, h = lm(seq)
    beams = seq.repeat(k, 1)
    h = h.repeat(1, k, 1)
    scores = torch.zeros(k)
    scores[1:] = float("-inf")
    finished = torch.zeros(k, dtype=torch.bool)
    logp = F.log_softmax(logits[:, -1], -1).repeat(k, 1)
    for _t in range(n):
        cand = scores.unsqueeze(1) + logp.masked_fill(finished.unsqueeze(1), float("-inf"))
        cand[finished, EOS] = scores[finished]
        top, idx = cand.view(-1).topk(k)
        src, tok = idx // V, idx % V
        beams = torch.cat([beams.index_select(0, src), tok.unsqueeze(1)], 1)
        h = h.index_select(1, src)
        finished = finished.index_select(0, src) | (tok == EOS)
        scores = top
        if finished.all():
            break
        logits, h = lm(tok.unsqueeze(1), h)
        logp = F.log_softmax(logits[:, -1], -1)
    lengths = (beams != EOS).sum(1).float()
    normed = scores / lengths ** alpha
    order = normed.argsort(descending=True)
    return [(" ".join(words[i] for i in beams[j].tolist()), round(normed[j].item(), 4)) for j in order.tolist()]


def sample(prefix, n=8, top_k=0, top_p=1.0, temperature=1.0, penalty=1.0, seed=0):
    gen = torch.Generator().manual_seed(seed)
    seq = [stoi[w] for w in prefix.split()]
    with torch.no_grad():
        logits, h = lm(torch.tensor([seq]))
        for _ in range(n):
            lg = logits[0, -1] / temperature
            if penalty != 1.0:
                prev = torch.tensor(seq)
                picked = lg.gather(0, prev)
                lg = lg.scatter(0, prev, torch.where(picked > 0, picked / penalty, picked * penalty))
            if top_k:
                kth = lg.topk(top_k).values[-1]
                lg = lg.masked_fill(lg < kth, float("-inf"))
            if top_p < 1.0:
                srt, order = lg.sort(descending=True)
                cum = srt.softmax(-1).cumsum(-1)
                remove = cum > top_p
                remove[1:] = remove[:-1].clone()
                remove[0] = False
                lg = lg.masked_fill(remove.scatter(0, order, remove), float("-inf"))
            nxt = int(torch.multinomial(lg.softmax(-1), 1, generator=gen))
            seq.append(nxt)
            if nxt == EOS:
                break
            logits, h = lm(torch.tensor([[nxt]]), h)
    return " ".join(words[i] for i in seq)


print(greedy("the"), "|", greedy("a dog"))
for hyp in beam_search("the"):
    print(hyp)
print(beam_search("a", k=4, alpha=0.0)[:2])
for kw in (dict(), dict(top_k=3), dict(top_p=0.8), dict(temperature=0.5, penalty=1.3), dict(top_k=5, top_p=0.9, temperature=1.5, seed=4)):
    print(kw, sample("the", **kw))
tied = torch.tensor([[0.5, 0.2, 0.5, 0.2, 0.5, 0.1], [0.3, 0.3, 0.3, 0.3, 0.9, 0.3]])
print(tied.argsort(dim=1, descending=True), tied.sort(dim=1).indices, tied.topk(3, dim=1).indices, torch.argsort(tied.flatten(), stable=True))
ranks = torch.empty_like(tied, dtype=torch.long).scatter_(1, tied.argsort(1, descending=True), torch.arange(6).repeat(2, 1))
print(ranks)
