"""Recurrent layers as the "RNN from scratch" notebooks compare them with the built-ins:
RNNCell/GRUCell/LSTMCell stepped by hand against RNN/GRU/LSTM, the gate equations written out
with the layer's weights, multi-layer bidirectional outputs and h_n/c_n layouts, LSTM with
proj_size, batch_first, an initial state, unbatched input, flatten_parameters, and gradients
through time with truncated backprop (detach of the hidden state)."""
# ruff: noqa: E501

import torch
import torch.nn as nn

torch.manual_seed(0)
T, B, I, H = 5, 3, 4, 6
x = torch.randn(T, B, I)
cell = nn.RNNCell(I, H, nonlinearity="tanh")
rnn = nn.RNN(I, H)
with torch.no_grad():
    rnn.weight_ih_l0.copy_(cell.weight_ih)
    rnn.weight_hh_l0.copy_(cell.weight_hh)
    rnn.bias_ih_l0.copy_(cell.bias_ih)
    rnn.bias_hh_l0.copy_(cell.bias_hh)
h = torch.zeros(B, H)
for t in range(T):
    h = cell(x[t], h)
out, hn = rnn(x)
print(h[0], torch.allclose(h, hn[0], atol=1e-6), torch.allclose(out[-1], hn[0]))

gcell = nn.GRUCell(I, H)
h = torch.zeros(B, H)
W_ir, W_iz, W_in = gcell.weight_ih.chunk(3)
W_hr, W_hz, W_hn = gcell.weight_hh.chunk(3)
b_ir, b_iz, b_in = gcell.bias_ih.chunk(3)
b_hr, b_hz, b_hn = gcell.bias_hh.chunk(3)
hm = torch.zeros(B, H)
for t in range(T):
    h = gcell(x[t], h)
    r = torch.sigmoid(x[t] @ W_ir.T + b_ir + hm @ W_hr.T + b_hr)
    z = torch.sigmoid(x[t] @ W_iz.T + b_iz + hm @ W_hz.T + b_hz)
    n = torch.tanh(x[t] @ W_in.T + b_in + r * (hm @ W_hn.T + b_hn))
    hm = (1 - z) * n + z * hm
print(h[1], (h - hm).abs().max() < 1e-6)

lcell = nn.LSTMCell(I, H)
hx, cx = torch.zeros(B, H), torch.zeros(B, H)
outs = []
for t in range(T):
    hx, cx = lcell(x[t], (hx, cx))
    outs.append(hx)
print(torch.stack(outs)[:, 0, :3], cx[2])

lstm = nn.LSTM(I, H, num_layers=2, bidirectional=True, batch_first=True)
xb = x.transpose(0, 1)
o, (hn, cn) = lstm(xb)
print(o.shape, hn.shape, cn.shape)
print(o[0, -1, :H], hn[2, 0], o[0, 0, H:], hn[3, 0])
h0 = torch.randn(4, B, H)
c0 = torch.randn(4, B, H)
o2, (hn2, cn2) = lstm(xb, (h0, c0))
print(o2[1, 2, ::3], cn2[:, 1, 0])
proj = nn.LSTM(I, H, proj_size=2, num_layers=2)
op, (hp, cp) = proj(x)
print(op.shape, hp.shape, cp.shape, op[-1], proj.weight_hr_l0.shape)
gru = nn.GRU(I, H, num_layers=2, dropout=0.0, bidirectional=True)
og, hg = gru(x[:, 0])
print(og.shape, hg.shape, og[-1, :4], hg[:, :2])
rr = nn.RNN(I, H, nonlinearity="relu", bias=False, num_layers=3)
print(rr(x)[1][:, 0, :3])
lstm.flatten_parameters()
print([n for n, _ in lstm.named_parameters()][:6], sum(p.numel() for p in lstm.parameters()))

torch.manual_seed(1)
model = nn.LSTM(1, 8, batch_first=True)
head = nn.Linear(8, 1)
opt = torch.optim.Adam(list(model.parameters()) + list(head.parameters()), lr=0.02)
series = torch.sin(torch.linspace(0, 12, 61)).view(1, -1, 1)
state = None
for epoch in range(3):
    state = None
    total = 0.0
    for s in range(0, 60, 15):
        inp, tgt = series[:, s:s + 15], series[:, s + 1:s + 16]
        out, state = model(inp, state)
        loss = ((head(out) - tgt) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        state = tuple(s_.detach() for s_ in state)
        total += loss.item()
    print(epoch, round(total, 5))
print(model.weight_hh_l0.grad.norm(), head.weight)
