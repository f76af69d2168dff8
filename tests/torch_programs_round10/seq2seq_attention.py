"""The PyTorch tutorial "NLP from scratch: translation with a sequence to sequence network and
attention": a GRU encoder, a Bahdanau attention decoder, teacher forcing, greedy decoding and
attention weights, trained on a toy reversal task."""

import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import optim

random.seed(0)
torch.manual_seed(0)
SOS, EOS = 0, 1
n_words = 8
MAX_LENGTH = 6
pairs = []
for _ in range(24):
    n = random.randint(2, 4)
    src = [random.randint(2, n_words - 1) for _ in range(n)]
    pairs.append((src, src[::-1]))
print("pairs", len(pairs), pairs[0])


def to_tensor(seq):
    return torch.tensor(seq + [EOS], dtype=torch.long).view(1, -1)


def get_dataloader(batch_size):
    n = len(pairs)
    input_ids = torch.ones((n, MAX_LENGTH), dtype=torch.long) * EOS
    target_ids = torch.ones((n, MAX_LENGTH), dtype=torch.long) * EOS
    for i, (a, b) in enumerate(pairs):
        input_ids[i, :len(a) + 1] = torch.tensor(a + [EOS])
        target_ids[i, :len(b) + 1] = torch.tensor(b + [EOS])
    data = torch.utils.data.TensorDataset(input_ids, target_ids)
    return torch.utils.data.DataLoader(data, batch_size=batch_size, shuffle=True)


class EncoderRNN(nn.Module):
    def __init__(self, input_size, hidden_size, dropout_p=0.0):
        super().__init__()
        self.embedding = nn.Embedding(input_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size, batch_first=True)
        self.dropout = nn.Dropout(dropout_p)

    def forward(self, input):
        embedded = self.dropout(self.embedding(input))
        return self.gru(embedded)


class BahdanauAttention(nn.Module):
    def __init__(self, hidden_size):
        super().__init__()
        self.Wa = nn.Linear(hidden_size, hidden_size)
        self.Ua = nn.Linear(hidden_size, hidden_size)
        self.Va = nn.Linear(hidden_size, 1)

    def forward(self, query, keys):
        scores = self.Va(torch.tanh(self.Wa(query) + self.Ua(keys)))
        scores = scores.squeeze(2).unsqueeze(1)
        weights = F.softmax(scores, dim=-1)
        context = torch.bmm(weights, keys)
        return context, weights


class AttnDecoderRNN(nn.Module):
    def __init__(self, hidden_size, output_size, dropout_p=0.0):
        super().__init__()
        self.embedding = nn.Embedding(output_size, hidden_size)
        self.attention = BahdanauAttention(hidden_size)
        self.gru = nn.GRU(2 * hidden_size, hidden_size, batch_first=True)
        self.out = nn.Linear(hidden_size, output_size)
        self.dropout = nn.Dropout(dropout_p)

    def forward(self, encoder_outputs, encoder_hidden, target_tensor=None):
        batch_size = encoder_outputs.size(0)
        decoder_input = torch.empty(batch_size, 1, dtype=torch.long).fill_(SOS)
        decoder_hidden = encoder_hidden
        decoder_outputs, attentions = [], []
        for i in range(MAX_LENGTH):
            decoder_output, decoder_hidden, attn_weights = self.forward_step(
                decoder_input, decoder_hidden, encoder_outputs)
            decoder_outputs.append(decoder_output)
            attentions.append(attn_weights)
            if target_tensor is not None:
                decoder_input = target_tensor[:, i].unsqueeze(1)  # teacher forcing
            else:
                _, topi = decoder_output.topk(1)
                decoder_input = topi.squeeze(-1).detach()
        decoder_outputs = F.log_softmax(torch.cat(decoder_outputs, dim=1), dim=-1)
        return decoder_outputs, decoder_hidden, torch.cat(attentions, dim=1)

    def forward_step(self, input, hidden, encoder_outputs):
        embedded = self.dropout(self.embedding(input))
        query = hidden.permute(1, 0, 2)
        context, attn_weights = self.attention(query, encoder_outputs)
        input_gru = torch.cat((embedded, context), dim=2)
        output, hidden = self.gru(input_gru, hidden)
        return self.out(output), hidden, attn_weights


hidden_size = 16
encoder = EncoderRNN(n_words, hidden_size)
decoder = AttnDecoderRNN(hidden_size, n_words)
loader = get_dataloader(8)
enc_opt = optim.Adam(encoder.parameters(), lr=0.01)
dec_opt = optim.Adam(decoder.parameters(), lr=0.01)
criterion = nn.NLLLoss()
for epoch in range(1, 31):
    total = 0.0
    for input_tensor, target_tensor in loader:
        enc_opt.zero_grad()
        dec_opt.zero_grad()
        encoder_outputs, encoder_hidden = encoder(input_tensor)
        decoder_outputs, _, _ = decoder(encoder_outputs, encoder_hidden, target_tensor)
        loss = criterion(decoder_outputs.view(-1, decoder_outputs.size(-1)), target_tensor.view(-1))
        loss.backward()
        enc_opt.step()
        dec_opt.step()
        total += loss.item()
    if epoch % 10 == 0:
        print(f"epoch {epoch} loss {total / len(loader):.4f}")

encoder.eval()
decoder.eval()
with torch.no_grad():
    for src, tgt in pairs[:4]:
        enc_out, enc_hid = encoder(to_tensor(src))
        dec_out, _, attn = decoder(enc_out, enc_hid)
        _, topi = dec_out.topk(1)
        ids = topi.squeeze().tolist()
        words = []
        for t in ids:
            if t == EOS:
                break
            words.append(t)
        print(src, "->", words, "target", tgt, "attn", [round(v, 3) for v in attn[0, 0].tolist()])
