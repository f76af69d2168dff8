"""BERT-style masked language modelling (Devlin et al. 2019, the HuggingFace
DataCollatorForLanguageModeling recipe) on a toy grammar: [CLS]/[SEP]/[PAD] special tokens,
sequences of different lengths padded by pad_sequence, 15% of the real tokens chosen by
torch.bernoulli with special tokens and padding excluded, 80% replaced by [MASK], 10% by a
random token, 10% kept, labels -100 elsewhere for cross_entropy's ignore_index; token +
learned position + segment embeddings, nn.TransformerEncoder (batch_first, GELU, norm_first)
with src_key_padding_mask, an MLM head tied to the token embedding, AdamW with weight decay
groups and linear warmup/decay; masked-token accuracy and fill-in predictions at the end."""
# ruff: noqa: E501

import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.utils.rnn import pad_sequence

torch.manual_seed(0)
PAD, CLS, SEP, MASK = 0, 1, 2, 3
VOCAB = 24  # 4 specials + 20 words


def make_sentence(gen):
    # word w is always followed by w + 1 (mod 20): a grammar the model can learn
    n = int(torch.randint(4, 11, (1,), generator=gen))
    start = int(torch.randint(0, 20, (1,), generator=gen))
    words = (torch.arange(n) + start) % 20 + 4
    return torch.cat([torch.tensor([CLS]), words, torch.tensor([SEP])])


def mask_tokens(ids, gen, prob=0.15):
    labels = ids.clone()
    special = (ids == PAD) | (ids == CLS) | (ids == SEP)
    probs = torch.full(ids.shape, prob).masked_fill(special, 0.0)
    chosen = torch.bernoulli(probs, generator=gen).bool()
    labels[~chosen] = -100
    inputs = ids.clone()
    replace = torch.bernoulli(torch.full(ids.shape, 0.8), generator=gen).bool() & chosen
    inputs[replace] = MASK
    rand = torch.bernoulli(torch.full(ids.shape, 0.5), generator=gen).bool() & chosen & ~replace
    inputs[rand] = torch.randint(4, VOCAB, ids.shape, generator=gen)[rand]
    return inputs, labels


class TinyBert(nn.Module):
    def __init__(self, d=48, heads=4, layers=2, max_len=16):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, d, padding_idx=PAD)
        self.pos = nn.Embedding(max_len, d)
        self.seg = nn.Embedding(2, d)
        self.norm = nn.LayerNorm(d)
        layer = nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.0, activation="gelu", batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.head_transform = nn.Sequential(nn.Linear(d, d), nn.GELU(), nn.LayerNorm(d))
        self.head_bias = nn.Parameter(torch.zeros(VOCAB))
        self.apply(self._init)

    @staticmethod
    def _init(m):
        if isinstance(m, (nn.Linear, nn.Embedding)):
            nn.init.normal_(m.weight, std=0.02)
        if isinstance(m, nn.Linear) and m.bias is not None:
            nn.init.zeros_(m.bias)

    def forward(self, ids):
        pos = torch.arange(ids.size(1)).unsqueeze(0)
        x = self.tok(ids) + self.pos(pos) + self.seg(torch.zeros_like(ids))
        h = self.encoder(self.norm(x), src_key_padding_mask=ids == PAD)
        return F.linear(self.head_transform(h), self.tok.weight, self.head_bias)


gen = torch.Generator().manual_seed(0)
model = TinyBert()
decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
no_decay = [p for n, p in model.named_parameters() if p.dim() < 2]
print("params", sum(p.numel() for p in model.parameters()), "decay", len(decay), "no decay", len(no_decay))
opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.01}, {"params": no_decay, "weight_decay": 0.0}], lr=3e-3, betas=(0.9, 0.98), eps=1e-6)
total, warmup = 150, 15
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: s / warmup if s < warmup else max(0.0, (total - s) / (total - warmup)))

batch = pad_sequence([make_sentence(gen) for _ in range(8)], batch_first=True, padding_value=PAD)
inp, lab = mask_tokens(batch, gen)
print("batch", tuple(batch.shape), "pads", (batch == PAD).sum().item(), "chosen", (lab != -100).sum().item(), "masked", (inp == MASK).sum().item())
for step in range(total):
    batch = pad_sequence([make_sentence(gen) for _ in range(32)], batch_first=True, padding_value=PAD)
    inp, lab = mask_tokens(batch, gen)
    logits = model(inp)
    loss = F.cross_entropy(logits.view(-1, VOCAB), lab.view(-1), ignore_index=-100)
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    sched.step()
    if step % 30 == 0 or step == total - 1:
        acc = (logits.argmax(-1) == lab)[lab != -100].float().mean()
        print(f"step {step:3d} loss {loss.item():.3f} masked acc {acc.item():.3f} lr {sched.get_last_lr()[0]:.5f}")

model.eval()
with torch.no_grad():
    test = pad_sequence([make_sentence(gen) for _ in range(64)], batch_first=True, padding_value=PAD)
    inp, lab = mask_tokens(test, gen, prob=0.3)
    pred = model(inp).argmax(-1)
    print(f"eval masked acc {(pred == lab)[lab != -100].float().mean().item():.3f} on {(lab != -100).sum().item()} tokens")
    sent = torch.tensor([[CLS, 9, 10, MASK, 12, MASK, 14, SEP, PAD, PAD]])
    probs = model(sent).softmax(-1)
    top = probs[0, [3, 5]].topk(2, dim=-1)
    print("fill-in", top.indices.tolist(), [[round(v, 3) for v in row] for row in top.values.tolist()])
print("padding row gets no gradient", model.tok.weight.grad[PAD].abs().sum().item() == 0.0, "others do", model.tok.weight.grad[MASK].abs().sum().item() > 0)
