"""Variable-length sequences with torch.nn.utils.rnn as in sequence-labelling repos:
pad_sequence (batch_first and not, padding_value), pack_padded_sequence with
enforce_sorted=False and its sorted/unsorted indices, a bidirectional 2-layer GRU on the packed
batch, pad_packed_sequence with total_length, the last hidden states of both directions,
unpack_sequence/unpad_sequence, pack_sequence, and a masked mean-pooled classifier trained."""
# ruff: noqa: B007, E501  (written as the published program is)

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import (pack_padded_sequence, pack_sequence, pad_packed_sequence, pad_sequence,
                                unpack_sequence, unpad_sequence)

torch.manual_seed(0)
lengths = torch.tensor([3, 5, 2, 4])
seqs = [torch.randn(int(n), 4) for n in lengths]
padded = pad_sequence(seqs, batch_first=True)
print(padded.shape, padded[2], pad_sequence(seqs, padding_value=-1.0).shape)
print(pad_sequence([torch.tensor([1, 2]), torch.tensor([3])], batch_first=True, padding_value=9, padding_side="left"))
packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
print(packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices, packed.data.shape)

gru = nn.GRU(4, 6, num_layers=2, bidirectional=True, batch_first=True)
out_packed, h_n = gru(packed)
out, out_lengths = pad_packed_sequence(out_packed, batch_first=True, total_length=6)
print(out.shape, out_lengths, h_n.shape)
print(out[2, 2:].abs().sum(), out[1, 4, :3])
fwd_last = out[torch.arange(4), lengths - 1, :6]
bwd_first = out[:, 0, 6:]
print(torch.allclose(fwd_last, h_n[-2], atol=1e-6), torch.allclose(bwd_first, h_n[-1], atol=1e-6))
one, h_one = gru(seqs[1].unsqueeze(0))
print(torch.allclose(one[0], out[1, :5], atol=1e-6))
print([t.shape[0] for t in unpack_sequence(out_packed)], [t.shape for t in unpad_sequence(out, lengths, batch_first=True)][:2])
ps = pack_sequence([s for s in sorted(seqs, key=len, reverse=True)])
print(ps.batch_sizes, ps.sorted_indices)
print(packed.to(torch.float64).data.dtype, type(packed).__name__, packed.is_cuda)


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(4, 8, bidirectional=True, batch_first=True)
        self.fc = nn.Linear(16, 2)

    def forward(self, x, lengths):
        packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
        out, _ = self.gru(packed)
        out, _ = pad_packed_sequence(out, batch_first=True)
        mask = (torch.arange(out.shape[1])[None, :] < lengths[:, None]).unsqueeze(-1)
        pooled = (out * mask).sum(1) / lengths[:, None]
        return self.fc(pooled)


lengths = torch.randint(2, 8, (16,))
data = [torch.randn(int(n), 4) + (i % 2) for i, n in enumerate(lengths)]
labels = torch.arange(16) % 2
x = pad_sequence(data, batch_first=True)
model = Classifier()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(15):
    logits = model(x, lengths)
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    if epoch % 5 == 4:
        print(epoch, f"{loss.item():.4f}", (logits.argmax(1) == labels).sum().item())
