"""An AWD-LSTM-flavoured word language model (salesforce/awd-lstm-lm) with an adaptive
softmax (Grave et al.; nn.AdaptiveLogSoftmaxWithLoss as in fairseq/transformer-XL ports):
embedding dropout that drops whole word rows, locked (variational) dropout with a mask shared
across time, batchify + get_batch with truncated BPTT and repackage_hidden, gradient clipping,
NT-ASGD (SGD switched to torch.optim.ASGD when validation stops improving, averaged weights
read from the optimizer state 'ax'), the adaptive head's log_prob and predict, and perplexity."""
# ruff: noqa: E501

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def embedded_dropout(embed, words, dropout=0.1):
    if dropout:
        mask = embed.weight.new_empty((embed.weight.size(0), 1)).bernoulli_(1 - dropout).expand_as(embed.weight) / (1 - dropout)
        masked_embed_weight = mask * embed.weight
    else:
        masked_embed_weight = embed.weight
    return F.embedding(words, masked_embed_weight, embed.padding_idx, embed.max_norm, embed.norm_type, embed.scale_grad_by_freq, embed.sparse)


class LockedDropout(nn.Module):
    def forward(self, x, dropout=0.5):
        if not self.training or not dropout:
            return x
        m = x.data.new(1, x.size(1), x.size(2)).bernoulli_(1 - dropout)
        mask = m.requires_grad_(False) / (1 - dropout)
        return mask.expand_as(x) * x


class RNNModel(nn.Module):
    def __init__(self, ntoken, ninp=16, nhid=24, cutoffs=(8, 20)):
        super().__init__()
        self.lockdrop = LockedDropout()
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, num_layers=2, dropout=0.1)
        self.proj = nn.Linear(nhid, ninp)
        self.crit = nn.AdaptiveLogSoftmaxWithLoss(ninp, ntoken, cutoffs=list(cutoffs), div_value=2.0, head_bias=True)
        nn.init.uniform_(self.encoder.weight, -0.1, 0.1)

    def forward(self, inp, hidden, targets=None):
        emb = embedded_dropout(self.encoder, inp, dropout=0.1 if self.training else 0)
        emb = self.lockdrop(emb, 0.2)
        output, hidden = self.rnn(emb, hidden)
        output = self.proj(self.lockdrop(output, 0.2)).view(-1, self.proj.out_features)
        if targets is None:
            return output, hidden
        return self.crit(output, targets.reshape(-1)), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return (weight.new_zeros(2, bsz, self.rnn.hidden_size), weight.new_zeros(2, bsz, self.rnn.hidden_size))


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    return data.narrow(0, 0, nbatch * bsz).view(bsz, -1).t().contiguous()


def get_batch(source, i, bptt):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len]


torch.manual_seed(8)
ntoken = 30
# a Zipf-like stream with local structure: token t is often followed by (t * 7 + 3) % ntoken
probs = 1.0 / torch.arange(1, ntoken + 1).float()
stream = [0]
for _ in range(1199):
    stream.append((stream[-1] * 7 + 3) % ntoken if torch.rand(1).item() < 0.6 else torch.multinomial(probs, 1).item())
corpus = torch.tensor(stream)
train_data, val_data = batchify(corpus[:960], 4), batchify(corpus[960:], 2)
print("train", tuple(train_data.shape), "val", tuple(val_data.shape), "counts", torch.bincount(corpus, minlength=ntoken)[:6].tolist())

model = RNNModel(ntoken)
print(model.crit)
print("head", model.crit.head, "tail sizes", [tuple(t[1].weight.shape) for t in model.crit.tail])


def evaluate(data):
    model.eval()
    total, hidden = 0.0, model.init_hidden(data.size(1))
    with torch.no_grad():
        for i in range(0, data.size(0) - 1, 10):
            x, y = get_batch(data, i, 10)
            out, hidden = model(x, hidden, y)
            total += len(x) * out.loss.item()
    return total / (len(data) - 1)


optimizer = torch.optim.SGD(model.parameters(), lr=3.0, weight_decay=1.2e-6)
best_val, history = [], []
for epoch in range(1, 6):
    model.train()
    hidden = model.init_hidden(4)
    for i in range(0, train_data.size(0) - 1, 12):
        x, y = get_batch(train_data, i, 12)
        hidden = repackage_hidden(hidden)
        optimizer.zero_grad()
        out, hidden = model(x, hidden, y)
        out.loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        optimizer.step()
    if isinstance(optimizer, torch.optim.ASGD):
        saved = {p: p.data.clone() for p in model.parameters()}
        for p in model.parameters():
            p.data.copy_(optimizer.state[p]["ax"])
        val = evaluate(val_data)
        for p in model.parameters():
            p.data.copy_(saved[p])
    else:
        val = evaluate(val_data)
        if epoch == 3 or (len(history) > 2 and val > min(history[:-2])):  # nonmono, or a fixed budget
            print("switching to ASGD")
            optimizer = torch.optim.ASGD(model.parameters(), lr=3.0, t0=0, lambd=0.0, weight_decay=1.2e-6)
        history.append(val)
    print(f"epoch {epoch} train loss {out.loss.item():.4f} valid loss {val:.4f} ppl {math.exp(val):.3f} {type(optimizer).__name__}")

model.eval()
with torch.no_grad():
    x, y = get_batch(val_data, 0, 5)
    feats, _ = model(x, model.init_hidden(2))
    lp = model.crit.log_prob(feats)
    print("log_prob", tuple(lp.shape), "sums to one", torch.allclose(lp.exp().sum(1), torch.ones(lp.shape[0]), atol=1e-5))
    out = model.crit(feats, y.reshape(-1))
    print("output matches log_prob gather", torch.allclose(out.output, lp.gather(1, y.reshape(-1, 1)).squeeze(1), atol=1e-5), f"loss {out.loss.item():.4f}")
    print("predict", model.crit.predict(feats).tolist(), "targets", y.reshape(-1).tolist())
