"""The shim's per-call overhead on small calls (data preparation: a corpus maker's draws, a
collate of 64 samples, ``randperm``; training steps' small layers: cross entropy forward and
backward, ``BatchNorm1d``, ``EmbeddingBag``), each call timed against PyTorch's in the same
process, interleaved.

    python -m benchmarks.small_calls [--repeats 7] [--only NAME-PART]

Prints, per call, PyTorch's and fgrad's microseconds (the minimum over repeats of process CPU
time per call) and their ratio. To compare two checkouts, run it with each on ``PYTHONPATH``.
"""

from __future__ import annotations

import argparse
import importlib
import time
from typing import Callable

import benchmarks  # noqa: F401  (pins the threads before numpy/torch are imported)


def calls(m) -> dict[str, Callable[[], object]]:
    """The timed calls on module ``m`` (``torch`` or ``fgrad.torch``)."""
    t = m.arange(10)
    t2 = m.arange(12).reshape(3, 4)
    rows = [m.rand(8) for _ in range(64)]
    smalls = [m.arange(3) for _ in range(64)]
    floats = [1.0, 2.0, 3.0, 4.0]
    collate = importlib.import_module(m.__name__ + ".utils.data").default_collate
    samples = [(m.rand(8), i) for i in range(64)]
    s = m.tensor(3.5)
    logits = m.randn(32, 10, requires_grad=True)
    labels = m.randint(0, 10, (32,))
    ce = m.nn.CrossEntropyLoss()
    bn = m.nn.BatchNorm1d(64)
    x64 = m.randn(64, 64)
    bag = m.nn.EmbeddingBag(200, 16, mode="mean")
    bag_max = m.nn.EmbeddingBag(200, 16, mode="max")
    bag_sum = m.nn.EmbeddingBag(200, 16, mode="sum")
    words, offsets = m.randint(0, 200, (256,)), m.arange(0, 256, 8)
    return {
        "randint(0, 10, (1,))": lambda: m.randint(0, 10, (1,)),
        "rand(4)": lambda: m.rand(4),
        "stack(64 rows of 8)": lambda: m.stack(rows),
        "cat(64 of 3)": lambda: m.cat(smalls),
        "tensor([4 floats])": lambda: m.tensor(floats),
        "zeros(4)": lambda: m.zeros(4),
        "ones(2, 3)": lambda: m.ones(2, 3),
        "arange(10)": lambda: m.arange(10),
        "full((3,), 2.0)": lambda: m.full((3,), 2.0),
        "t.item()": lambda: s.item(),
        "t[i]": lambda: t[3],
        "t[i, j]": lambda: t2[1, 2],
        "t.tolist()": lambda: t.tolist(),
        "default_collate(64)": lambda: collate(samples),
        "cross_entropy (32,10) f+b": lambda: _backward(ce(logits, labels)),
        "randperm(64)": lambda: m.randperm(64),
        "BatchNorm1d (64,64) fwd": lambda: bn(x64),
        "EmbeddingBag fwd": lambda: bag(words, offsets),
        # a training step's case: every batch's bags are new (the draw is timed too)
        "EmbeddingBag f+b, new bags": lambda: _backward(bag(m.randint(0, 200, (256,)), offsets).sum()),
        "EmbeddingBag max f+b, new bags": lambda: _backward(
            bag_max(m.randint(0, 200, (256,)), offsets).sum()),
        "EmbeddingBag psw f+b, new bags": lambda: _backward(
            bag_sum(m.randint(0, 200, (256,)), offsets, per_sample_weights=m.rand(256)).sum()),
    }


def _backward(loss):
    """``loss.backward()``, returning the loss (every timed call returns its result)."""
    loss.backward()
    return loss


def per_call_us(fn: Callable[[], object], number: int) -> float:
    start = time.process_time()
    for _ in range(number):
        fn()
    return (time.process_time() - start) / number * 1e6


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--repeats", type=int, default=7)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--only", default="", help="time only the calls whose name contains this")
    args = p.parse_args(argv)
    import torch

    import fgrad.torch as ft

    peer, ours = calls(torch), calls(ft)
    print(f"{'call':24s} {'torch us':>9s} {'fgrad us':>9s} {'ratio':>6s}")
    for name in peer:
        if args.only not in name:
            continue
        number = 200 if "64" in name else 2000
        tp = tf = float("inf")
        for _ in range(args.repeats):  # interleaved: the machine's load falls on both alike
            tp = min(tp, per_call_us(peer[name], number))
            tf = min(tf, per_call_us(ours[name], number))
        print(f"{name:24s} {tp:9.2f} {tf:9.2f} {tf / tp:6.2f}")


if __name__ == "__main__":
    main()
