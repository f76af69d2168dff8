"""A character-level transformer language model, written for PyTorch, run on fgrad.torch.

The program is plain PyTorch: ``nn.TransformerEncoder`` with a causal mask, ``AdamW``, a
warm-up + cosine learning-rate schedule (``SequentialLR``), gradient clipping. Only the
import line differs: ``import fgrad.torch as torch`` (pass ``--torch`` to run the very same
code on PyTorch instead).

The data: synthetic sentences from a tiny grammar ("the cat sees a red dog."), so it needs
no download; the model learns the spelling and the grammar and then writes sentences itself.
Weights start from a NumPy generator and batches come from NumPy, so both libraries start and
train identically (no dropout) and print the same losses.

Run: ``python examples/char_transformer.py [--torch] [--steps N]`` (about 30 s for 300 steps).  It
saves its loss curve to ``examples/plots/char_transformer.png`` with matplotlib installed
(``--plot FILE.png``, ``--no-plot``).
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np

from _training_plot import TrainingCurves, add_plot_arguments  # examples/_training_plot.py

if "--torch" in sys.argv:
    import torch
else:
    import fgrad.torch as torch

nn = torch.nn
F = torch.nn.functional

CONTEXT = 32
D_MODEL, HEADS, LAYERS, FF = 48, 4, 2, 96
BATCH = 16


def make_corpus(n_sentences: int, seed: int = 0) -> str:
    """Sentences of a small grammar: determiner (adjective) noun verb determiner (adjective) noun."""
    rng = np.random.default_rng(seed)
    dets, adjs = ["the", "a"], ["red", "big", "small", "old"]
    nouns, verbs = ["cat", "dog", "bird", "fish", "man"], ["sees", "likes", "eats", "finds"]

    def phrase() -> str:
        words = [rng.choice(dets)]
        if rng.random() < 0.5:
            words.append(rng.choice(adjs))
        return " ".join([*words, rng.choice(nouns)])

    return " ".join(f"{phrase()} {rng.choice(verbs)} {phrase()}." for _ in range(n_sentences))


class CharTransformer(nn.Module):
    """Token + position embeddings, a causal pre-norm transformer encoder, a linear head."""

    def __init__(self, vocab: int) -> None:
        super().__init__()
        self.tok = nn.Embedding(vocab, D_MODEL)
        self.pos = nn.Embedding(CONTEXT, D_MODEL)
        layer = nn.TransformerEncoderLayer(D_MODEL, HEADS, FF, dropout=0.0, activation="gelu",
                                           batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, LAYERS, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(D_MODEL)
        self.head = nn.Linear(D_MODEL, vocab)
        causal = nn.Transformer.generate_square_subsequent_mask(CONTEXT)
        self.register_buffer("mask", causal, persistent=False)

    def forward(self, idx):
        t = idx.shape[1]
        x = self.tok(idx) + self.pos(torch.arange(t))
        x = self.encoder(x, mask=self.mask[:t, :t], is_causal=True)
        return self.head(self.norm(x))


def init_from_numpy(model: nn.Module, seed: int = 0) -> None:
    """Deterministic weights (the same in every library): N(0, 0.02), LayerNorm weights 1."""
    rng = np.random.default_rng(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "norm" in name and name.endswith("weight"):
                values = np.ones(tuple(p.shape))
            elif name.endswith("bias"):
                values = np.zeros(tuple(p.shape))
            else:
                values = rng.normal(0.0, 0.02, tuple(p.shape))
            p.copy_(torch.tensor(values, dtype=torch.float32))


@torch.no_grad()
def generate(model: nn.Module, prompt: str, stoi: dict, itos: list, n: int) -> str:
    idx = torch.tensor([[stoi[c] for c in prompt]])
    for _ in range(n):
        logits = model(idx[:, -CONTEXT:])[:, -1]
        idx = torch.cat([idx, logits.argmax(dim=-1, keepdim=True)], dim=1)
    return "".join(itos[i] for i in idx[0].tolist())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--torch", action="store_true", help="run on PyTorch instead of fgrad.torch")
    parser.add_argument("--steps", type=int, default=300)
    args = add_plot_arguments(parser).parse_args()

    text = make_corpus(600)
    itos = sorted(set(text))
    stoi = {c: i for i, c in enumerate(itos)}
    data = np.array([stoi[c] for c in text], dtype=np.int64)
    split = int(0.9 * len(data))
    train, val = data[:split], data[split:]
    print(f"backend {torch.__name__}, {len(text)} characters, vocabulary of {len(itos)}")

    model = CharTransformer(len(itos))
    init_from_numpy(model)
    print(f"{sum(p.numel() for p in model.parameters())} parameters")
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
    warmup = max(1, args.steps // 10)
    sched = torch.optim.lr_scheduler.SequentialLR(
        opt, [torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.1, total_iters=warmup),
              torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.steps - warmup, eta_min=3e-4)],
        milestones=[warmup])

    rng = np.random.default_rng(1)

    def batch(source: np.ndarray):
        starts = rng.integers(0, len(source) - CONTEXT - 1, BATCH)
        x = np.stack([source[s:s + CONTEXT] for s in starts])
        y = np.stack([source[s + 1:s + CONTEXT + 1] for s in starts])
        return torch.tensor(x), torch.tensor(y)

    t0 = time.perf_counter()
    curves = TrainingCurves(f"char_transformer on {torch.__name__}: AdamW, warm-up + cosine schedule")
    for step in range(args.steps + 1):
        x, y = batch(train)
        logits = model(x)
        loss = F.cross_entropy(logits.reshape(-1, len(itos)), y.reshape(-1))
        curves.add("loss", "train", step, loss.item())
        if step % 50 == 0 or step == args.steps:
            print(f"step {step:4d}  loss {loss.item():.5f}  lr {sched.get_last_lr()[0]:.6f}")
        if step == args.steps:
            break
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()

    model.eval()
    with torch.no_grad():
        x, y = batch(val)
        val_loss = F.cross_entropy(model(x).reshape(-1, len(itos)), y.reshape(-1)).item()
    print(f"validation loss {val_loss:.5f} (uniform guessing: {math.log(len(itos)):.5f})")
    print(f"sample: {generate(model, 'the cat ', stoi, itos, 60)!r}")
    print(f"time {time.perf_counter() - t0:.1f} s")
    curves.add("loss", "validation", args.steps, val_loss)
    curves.save("char_transformer", args)


if __name__ == "__main__":
    main()
