"""A character-level GPT, as the "let's build GPT" tutorials and nanoGPT write it, on fgrad.torch.

Plain PyTorch: token and position ``nn.Embedding``, pre-norm blocks of causal self-attention
through ``F.scaled_dot_product_attention(..., is_causal=True)`` and a GELU MLP, ``LayerNorm``,
dropout, ``AdamW`` with weight decay, a warm-up + cosine ``LambdaLR`` schedule, gradient
clipping, training under ``torch.autocast("cpu", dtype=torch.bfloat16)``, random batches from
``torch.randint`` and sampling with ``torch.multinomial``. The only change from the PyTorch
program is the import line: ``import fgrad.torch as torch`` (pass ``--torch``, or set
``FGRAD_EXAMPLE_BACKEND=torch``, to run the very same code on PyTorch).

Run: ``python examples/torch_char_gpt.py [--torch] [--steps N]``.
"""

import math
import os
import sys

if "--torch" in sys.argv or os.environ.get("FGRAD_EXAMPLE_BACKEND") == "torch":
    import torch
else:
    import fgrad.torch as torch

nn = torch.nn
F = torch.nn.functional

TEXT = """\
Twinkle, twinkle, little star, how I wonder what you are!
Up above the world so high, like a diamond in the sky.
When the blazing sun is gone, when he nothing shines upon,
then you show your little light, twinkle, twinkle, all the night.
Mary had a little lamb, its fleece was white as snow;
and everywhere that Mary went, the lamb was sure to go.
It followed her to school one day, which was against the rule;
it made the children laugh and play, to see a lamb at school.
Hey diddle diddle, the cat and the fiddle, the cow jumped over the moon;
the little dog laughed to see such sport, and the dish ran away with the spoon.
Humpty Dumpty sat on a wall, Humpty Dumpty had a great fall;
all the king's horses and all the king's men couldn't put Humpty together again.
Jack and Jill went up the hill to fetch a pail of water;
Jack fell down and broke his crown, and Jill came tumbling after.
"""

# hyperparameters
batch_size = 16
block_size = 32
n_embd = 64
n_head = 4
n_layer = 2
dropout = 0.1
learning_rate = 3e-3
weight_decay = 0.1
warmup_steps = 20
eval_interval = 25
max_steps = 200
for i, arg in enumerate(sys.argv):
    if arg == "--steps":
        max_steps = int(sys.argv[i + 1])
        eval_interval = max(1, min(eval_interval, max_steps // 4))

torch.manual_seed(1337)

chars = sorted(set(TEXT))
vocab_size = len(chars)
stoi = {ch: i for i, ch in enumerate(chars)}
itos = {i: ch for i, ch in enumerate(chars)}


def encode(s):
    return [stoi[c] for c in s]


def decode(ids):
    return "".join(itos[i] for i in ids)


data = torch.tensor(encode(TEXT), dtype=torch.long)
n = int(0.9 * len(data))
train_data, val_data = data[:n], data[n:]


def get_batch(split):
    source = train_data if split == "train" else val_data
    ix = torch.randint(len(source) - block_size, (batch_size,))
    x = torch.stack([source[i:i + block_size] for i in ix])
    y = torch.stack([source[i + 1:i + block_size + 1] for i in ix])
    return x, y


class CausalSelfAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)
        self.resid_dropout = nn.Dropout(dropout)

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(n_embd, dim=2)
        k = k.view(B, T, n_head, C // n_head).transpose(1, 2)
        q = q.view(B, T, n_head, C // n_head).transpose(1, 2)
        v = v.view(B, T, n_head, C // n_head).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=None,
                                           dropout_p=dropout if self.training else 0.0, is_causal=True)
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.resid_dropout(self.c_proj(y))


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.c_fc = nn.Linear(n_embd, 4 * n_embd)
        self.gelu = nn.GELU()
        self.c_proj = nn.Linear(4 * n_embd, n_embd)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        return self.dropout(self.c_proj(self.gelu(self.c_fc(x))))


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln_1 = nn.LayerNorm(n_embd)
        self.attn = CausalSelfAttention()
        self.ln_2 = nn.LayerNorm(n_embd)
        self.mlp = MLP()

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        x = x + self.mlp(self.ln_2(x))
        return x


class GPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.wpe = nn.Embedding(block_size, n_embd)
        self.drop = nn.Dropout(dropout)
        self.blocks = nn.ModuleList([Block() for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(n_embd)
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)
        self.apply(self._init_weights)

    def _init_weights(self, module):
        if isinstance(module, nn.Linear):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)
            if module.bias is not None:
                torch.nn.init.zeros_(module.bias)
        elif isinstance(module, nn.Embedding):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)

    def forward(self, idx, targets=None):
        B, T = idx.size()
        pos = torch.arange(0, T, dtype=torch.long)
        x = self.drop(self.wte(idx) + self.wpe(pos))
        for block in self.blocks:
            x = block(x)
        logits = self.lm_head(self.ln_f(x))
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
        return logits, loss

    @torch.no_grad()
    def generate(self, idx, max_new_tokens, temperature=1.0, top_k=None):
        for _ in range(max_new_tokens):
            idx_cond = idx[:, -block_size:]
            logits, _ = self(idx_cond)
            logits = logits[:, -1, :].float() / temperature
            if top_k is not None:
                v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
                logits[logits < v[:, [-1]]] = -float("Inf")
            probs = F.softmax(logits, dim=-1)
            idx_next = torch.multinomial(probs, num_samples=1)
            idx = torch.cat((idx, idx_next), dim=1)
        return idx


@torch.no_grad()
def estimate_loss(model, eval_iters=4):
    out = {}
    model.eval()
    for split in ["train", "val"]:
        losses = torch.zeros(eval_iters)
        for k in range(eval_iters):
            X, Y = get_batch(split)
            with torch.autocast("cpu", dtype=torch.bfloat16):
                _, loss = model(X, Y)
            losses[k] = loss.item()
        out[split] = losses.mean()
    model.train()
    return out


def lr_lambda(step):
    if step < warmup_steps:
        return (step + 1) / warmup_steps
    progress = (step - warmup_steps) / max(1, max_steps - warmup_steps)
    return 0.1 + 0.9 * 0.5 * (1.0 + math.cos(math.pi * progress))


model = GPT()
print(f"{sum(p.numel() for p in model.parameters())} parameters, vocabulary of {vocab_size}")
decay = [p for p in model.parameters() if p.dim() >= 2]
no_decay = [p for p in model.parameters() if p.dim() < 2]
optimizer = torch.optim.AdamW([{"params": decay, "weight_decay": weight_decay},
                               {"params": no_decay, "weight_decay": 0.0}],
                              lr=learning_rate, betas=(0.9, 0.95))
scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda)

for step in range(max_steps + 1):
    if step % eval_interval == 0 or step == max_steps:
        losses = estimate_loss(model)
        print(f"step {step}: train loss {losses['train']:.4f}, val loss {losses['val']:.4f}, "
              f"lr {scheduler.get_last_lr()[0]:.6f}")
    if step == max_steps:
        break
    xb, yb = get_batch("train")
    with torch.autocast("cpu", dtype=torch.bfloat16):
        logits, loss = model(xb, yb)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    scheduler.step()
    if step % eval_interval == 0:
        print(f"  iter {step}: loss {loss.item():.4f} ({loss.dtype}), logits {logits.dtype}, "
              f"grad norm {norm.item():.4f}")

model.eval()
context = torch.tensor([encode("Mary ")], dtype=torch.long)
print(repr(decode(model.generate(context, max_new_tokens=80)[0].tolist())))
