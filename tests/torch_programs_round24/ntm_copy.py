"""Neural Turing Machine (Graves et al. 2014) on the copy task: an LSTMCell controller, one
read and one write head over an N x M memory, content addressing by F.cosine_similarity with
a softplus key strength, interpolation with the previous weighting, a 3-tap circular
convolutional shift (F.pad(mode="circular") + unfold), sharpening by a 1 + softplus power,
erase/add writes by outer products, the memory reset to a learned-free constant each
sequence; RMSprop with momentum and gradient value clipping as in the paper; bit error per
sequence, and the write/read attention locations after training."""
# ruff: noqa: E501

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)  # recurrent memory over 2 x 10 steps amplifies rounding


class Head(nn.Module):
    def __init__(self, ctrl, M, write):
        super().__init__()
        self.M, self.write = M, write
        sizes = [M, 1, 1, 3, 1] + ([M, M] if write else [])  # key, beta, gate, shift, gamma, erase, add
        self.sizes = sizes
        self.fc = nn.Linear(ctrl, sum(sizes))

    def address(self, params, memory, w_prev):
        key, beta, g, s, gamma = params[:5]
        sim = F.cosine_similarity(memory, key.unsqueeze(1), dim=-1, eps=1e-8)
        w_c = F.softmax(F.softplus(beta) * sim, dim=-1)
        g = torch.sigmoid(g)
        w_g = g * w_c + (1 - g) * w_prev
        s = F.softmax(s, dim=-1)
        windows = F.pad(w_g.unsqueeze(1), (1, 1), mode="circular").squeeze(1).unfold(1, 3, 1)  # (B, N, 3)
        w_s = (windows * s.flip(-1).unsqueeze(1)).sum(-1)
        w = w_s.pow(1 + F.softplus(gamma))
        return w / (w.sum(-1, keepdim=True) + 1e-16)

    def forward(self, h, memory, w_prev):
        params = torch.split(self.fc(h), self.sizes, dim=-1)
        w = self.address(params, memory, w_prev)
        if self.write:
            erase, add = torch.sigmoid(params[5]), torch.tanh(params[6])
            memory = memory * (1 - w.unsqueeze(-1) * erase.unsqueeze(1)) + w.unsqueeze(-1) * add.unsqueeze(1)
            return w, memory, None
        return w, memory, torch.einsum("bn,bnm->bm", w, memory)


class NTM(nn.Module):
    def __init__(self, width, ctrl=64, N=16, M=12):
        super().__init__()
        self.N, self.M = N, M
        self.controller = nn.LSTMCell(width + 1 + M, ctrl)
        self.read_head, self.write_head = Head(ctrl, M, False), Head(ctrl, M, True)
        self.out = nn.Linear(ctrl + M, width)

    def forward(self, inputs):
        T, B, _ = inputs.shape
        memory = torch.full((B, self.N, self.M), 1e-6)
        h = c = torch.zeros(B, self.controller.hidden_size)
        w_r = w_w = F.one_hot(torch.zeros(B, dtype=torch.long), self.N).to(inputs)
        read = torch.zeros(B, self.M)
        outs, writes, reads = [], [], []
        for x in inputs:
            h, c = self.controller(torch.cat([x, read], -1), (h, c))
            w_w, memory, _ = self.write_head(h, memory, w_w)
            w_r, memory, read = self.read_head(h, memory, w_r)
            outs.append(self.out(torch.cat([h, read], -1)))
            writes.append(w_w)
            reads.append(w_r)
        return torch.stack(outs), torch.stack(writes), torch.stack(reads)


def copy_batch(B, L, width, gen):
    seq = torch.bernoulli(torch.full((L, B, width), 0.5), generator=gen)
    inp = torch.zeros(2 * L + 1, B, width + 1)
    inp[:L, :, :width] = seq
    inp[L, :, width] = 1.0  # delimiter channel
    return inp, seq


width, L = 4, 5
gen = torch.Generator().manual_seed(0)
model = NTM(width)
print("parameters:", sum(p.numel() for p in model.parameters()))
opt = torch.optim.RMSprop(model.parameters(), lr=1e-3, momentum=0.9, alpha=0.95)
for step in range(300):
    inp, seq = copy_batch(16, L, width, gen)
    logits, _, _ = model(inp)
    pred = logits[L + 1:]
    loss = F.binary_cross_entropy_with_logits(pred, seq)
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_value_(model.parameters(), 10.0)
    opt.step()
    if step % 60 == 0 or step == 299:
        bits = ((pred > 0).to(seq) - seq).abs().sum() / 16
        print(f"step {step:3d} bce {loss.item():.5f} bit errors/seq {bits.item():.3f}")

with torch.no_grad():
    inp, seq = copy_batch(1, L, width, gen)
    logits, writes, reads = model(inp)
    print("input bits :", seq[:, 0].int().tolist())
    print("copied bits:", (logits[L + 1:, 0] > 0).int().tolist())
    print("write focus:", writes[:, 0].argmax(-1).tolist())
    print("read focus :", reads[:, 0].argmax(-1).tolist())
    print(f"max write weight per step: {[round(v, 3) for v in writes[:, 0].max(-1).values.tolist()]}")
