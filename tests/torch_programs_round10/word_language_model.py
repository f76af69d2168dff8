"""pytorch/examples word_language_model: a TransformerEncoder language model with a square
subsequent mask and positional encoding, batchify/get_batch, gradient clipping, perplexity, and
greedy/temperature generation; then the LSTM variant with repackaged hidden state."""
# ruff: noqa: B007, E501  (written as the published program is)


import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
words = ("the cat sat on the mat the dog sat on the log a cat saw a dog "
         "the dog saw the cat on a mat").split()
vocab = sorted(set(words))
idx = {w: i for i, w in enumerate(vocab)}
data = torch.tensor([idx[w] for w in words * 3], dtype=torch.long)
print("tokens", data.numel(), "vocab", len(vocab))


def batchify(d, bsz):
    nbatch = d.size(0) // bsz
    d = d.narrow(0, 0, nbatch * bsz)
    return d.view(bsz, -1).t().contiguous()


train = batchify(data, 4)
print("batched", tuple(train.shape))
bptt = 8


def get_batch(source, i):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len].reshape(-1)


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=64):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe.unsqueeze(0).transpose(0, 1))

    def forward(self, x):
        return self.dropout(x + self.pe[:x.size(0), :])


class TransformerModel(nn.Transformer):
    def __init__(self, ntoken, ninp, nhead, nhid, nlayers, dropout=0.0):
        super().__init__(d_model=ninp, nhead=nhead, dim_feedforward=nhid, num_encoder_layers=nlayers)
        self.src_mask = None
        self.pos_encoder = PositionalEncoding(ninp, dropout)
        self.input_emb = nn.Embedding(ntoken, ninp)
        self.ninp = ninp
        self.decoder = nn.Linear(ninp, ntoken)
        nn.init.uniform_(self.input_emb.weight, -0.1, 0.1)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -0.1, 0.1)

    def _generate_square_subsequent_mask(self, sz):
        return torch.log(torch.tril(torch.ones(sz, sz)))

    def forward(self, src, has_mask=True):
        if has_mask:
            if self.src_mask is None or self.src_mask.size(0) != len(src):
                self.src_mask = self._generate_square_subsequent_mask(len(src))
        else:
            self.src_mask = None
        src = self.input_emb(src) * math.sqrt(self.ninp)
        src = self.pos_encoder(src)
        output = self.encoder(src, mask=self.src_mask)
        output = self.decoder(output)
        return F.log_softmax(output, dim=-1)


ntokens = len(vocab)
model = TransformerModel(ntokens, 16, 2, 32, 2, dropout=0.0)
print("params", sum(p.numel() for p in model.parameters()))
print("mask", model._generate_square_subsequent_mask(3))
criterion = nn.NLLLoss()
lr = 0.5
for epoch in range(3):
    model.train()
    total = 0.0
    for batch, i in enumerate(range(0, train.size(0) - 1, bptt)):
        x, y = get_batch(train, i)
        model.zero_grad()
        out = model(x).view(-1, ntokens)
        loss = criterion(out, y)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)
        total += loss.item()
    print(f"epoch {epoch} loss {total / (batch + 1):.4f} ppl {math.exp(total / (batch + 1)):.3f}")

model.eval()
with torch.no_grad():
    x, y = get_batch(train, 0)
    out = model(x).view(-1, ntokens)
    print("eval loss", round(criterion(out, y).item(), 4))
    inp = torch.tensor([[idx["the"]]])
    gen = []
    for _ in range(6):
        output = model(inp, False)
        word_weights = output[-1].squeeze().div(0.8).exp()
        word_idx = torch.multinomial(word_weights, 1)[0]
        word_tensor = torch.tensor([[word_idx]]).reshape(1, 1)
        inp = torch.cat([inp, word_tensor], 0)
        gen.append(vocab[word_idx])
    print("generated", " ".join(gen))
    greedy = model(inp, True)[-1].argmax(-1)
    print("greedy next", greedy.tolist())


class RNNModel(nn.Module):
    def __init__(self, ntoken, ninp, nhid, nlayers, tie_weights=True):
        super().__init__()
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers, dropout=0.0)
        self.decoder = nn.Linear(nhid, ntoken)
        if tie_weights:
            self.decoder.weight = self.encoder.weight
        self.nhid, self.nlayers = nhid, nlayers

    def forward(self, input, hidden):
        emb = self.encoder(input)
        output, hidden = self.rnn(emb, hidden)
        decoded = self.decoder(output).view(-1, self.decoder.out_features)
        return F.log_softmax(decoded, dim=1), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return (weight.new_zeros(self.nlayers, bsz, self.nhid), weight.new_zeros(self.nlayers, bsz, self.nhid))


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


torch.manual_seed(1)
rnn = RNNModel(ntokens, 12, 12, 2)
print("tied", rnn.decoder.weight is rnn.encoder.weight, sum(p.numel() for p in rnn.parameters()))
opt = torch.optim.SGD(rnn.parameters(), lr=1.0)
for epoch in range(2):
    hidden = rnn.init_hidden(4)
    total = 0.0
    for batch, i in enumerate(range(0, train.size(0) - 1, bptt)):
        x, y = get_batch(train, i)
        hidden = repackage_hidden(hidden)
        opt.zero_grad()
        out, hidden = rnn(x, hidden)
        loss = criterion(out, y)
        loss.backward()
        nn.utils.clip_grad_norm_(rnn.parameters(), 0.5)
        opt.step()
        total += loss.item()
    print(f"lstm epoch {epoch} loss {total / (batch + 1):.4f}")
print("hidden", tuple(hidden[0].shape), hidden[0].requires_grad)
