"""A tiny Vision Transformer: patch embedding by a strided Conv2d flattened to tokens, a class
token and learned position embeddings, nn.TransformerEncoder over
nn.TransformerEncoderLayer(batch_first=True, norm_first=True, activation="gelu"), a final
LayerNorm and head, AdamW with a linear warmup by LambdaLR, and the attention weights of one
layer read with need_weights=True and average_attn_weights=False."""
# ruff: noqa: E501

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(8)
IMG, P, DIM, C = 8, 4, 16, 2


class ViT(nn.Module):
    def __init__(self):
        super().__init__()
        self.patch = nn.Conv2d(1, DIM, P, stride=P)
        n = (IMG // P) ** 2
        self.cls = nn.Parameter(torch.zeros(1, 1, DIM))
        self.pos = nn.Parameter(0.02 * torch.randn(1, n + 1, DIM))
        layer = nn.TransformerEncoderLayer(DIM, 4, 32, dropout=0.0, activation="gelu", batch_first=True, norm_first=True)
        self.enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(DIM)
        self.head = nn.Linear(DIM, C)

    def tokens(self, x):
        t = self.patch(x).flatten(2).transpose(1, 2)
        return torch.cat([self.cls.expand(x.shape[0], -1, -1), t], 1) + self.pos

    def forward(self, x):
        return self.head(self.norm(self.enc(self.tokens(x)))[:, 0])


# class 0: bright top half, class 1: bright bottom half
x = 0.3 * torch.randn(24, 1, IMG, IMG)
y = torch.arange(24) % 2
x[y == 0, :, :IMG // 2] += 1.0
x[y == 1, :, IMG // 2:] += 1.0
model = ViT()
print("tokens", tuple(model.tokens(x[:2]).shape))
opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.05)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 5))
for step in range(20):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    if step % 5 == 0:
        print(f"step {step} loss {loss.item():.4f} lr {sched.get_last_lr()[0]:.5f}")
with torch.no_grad():
    logits = model(x)
    print("acc", (logits.argmax(1) == y).float().mean().item(), [round(v, 4) for v in logits[:2].flatten().tolist()])
    layer = model.enc.layers[0]
    h = layer.norm1(model.tokens(x[:2]))
    _, w = layer.self_attn(h, h, h, need_weights=True, average_attn_weights=False)
    print("attn", tuple(w.shape), [round(v, 4) for v in w[0, 0, 0].tolist()], round(w.sum(-1).mean().item(), 5))
    _, wa = layer.self_attn(h, h, h)
    print("averaged", tuple(wa.shape), [round(v, 4) for v in wa[1, 0].tolist()])
    # a padding mask on the tokens
    mask = torch.tensor([[False, False, False, False, True]] * 2)
    out = model.enc(model.tokens(x[:2]), src_key_padding_mask=mask)
    print("masked", tuple(out.shape), [round(v, 4) for v in out[0, 0, :5].tolist()])
