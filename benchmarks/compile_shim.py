"""``torch.compile`` on the shim's training workloads (CPU): the same PyTorch training step run
by PyTorch eagerly, by ``fgrad.torch`` eagerly and by ``fgrad.torch`` with the model and loss
under ``torch.compile``.

    python -m benchmarks.compile_shim                 # all workloads
    python -m benchmarks.compile_shim --only mlp,gpt --repeat 7

Workloads: ``mlp`` (784-512-512-10 ReLU, batch 128), ``cnn`` (conv-relu-pool x2 + linear,
64 images 1x28x28), ``lstm`` (LSTM(32, 64) over 50 steps, batch 16, linear head on the last
output), ``gpt`` (2 pre-LN transformer blocks, d=64, 4 heads, sequence 32, vocabulary 128,
batch 8), all float32 with cross-entropy and SGD (momentum 0.9).  Before timing, the compiled
step's losses over 3 steps are checked against the eager shim's.  Timing: 2 warm-up steps
(tracing excluded, reported apart as "first call"), then ``--repeat`` repeats round-robin
across the three variants, each the median per-step time of a block of ``--steps`` steps;
reported: the median over repeats (``--clock process`` times the process's CPU time instead
of the wall clock: steadier where other jobs share the cores).  The machine this ran on is
shared, so single numbers move by 10-30%; compare the ratios of one run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

if __package__ in (None, ""):  # run as a script
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    __package__ = "benchmarks"  # noqa: A001

from . import _env  # noqa: E402,F401  (thread pinning, before numpy)

import numpy as np  # noqa: E402
from .shim_models import gpt as _gpt_model


def _mlp(t):
    nn = t.nn
    return nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))


def _cnn(t):
    nn = t.nn
    return nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Flatten(), nn.Linear(32 * 7 * 7, 10))


def _lstm(t):
    nn = t.nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.lstm, self.head = nn.LSTM(32, 64), nn.Linear(64, 10)

        def forward(self, x):
            out, _ = self.lstm(x)
            return self.head(out[-1])

    return Net()


def _gpt(t, d=64, heads=4, seq=32, vocab=128):
    return _gpt_model(t, d=d, heads=heads, seq=seq, vocab=vocab)


def _inputs(name: str):
    rng = np.random.default_rng(1)
    if name == "mlp":
        return rng.standard_normal((128, 784)).astype(np.float32), rng.integers(0, 10, 128)
    if name == "cnn":
        return rng.standard_normal((64, 1, 28, 28)).astype(np.float32), rng.integers(0, 10, 64)
    if name == "lstm":
        return rng.standard_normal((50, 16, 32)).astype(np.float32), rng.integers(0, 10, 16)
    return rng.integers(0, 128, (8, 32)), rng.integers(0, 128, (8, 32))


BUILD = {"mlp": _mlp, "cnn": _cnn, "lstm": _lstm, "gpt": _gpt}


def make_step(t, model, x, y, compiled: bool):
    """One SGD training step; with ``compiled`` the model and the loss run under
    ``t.compile`` (one traced program, one backward node)."""
    F = t.nn.functional
    opt = t.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

    def loss_of(x, y):
        out = model(x)
        return F.cross_entropy(out.reshape(-1, out.shape[-1]), y.reshape(-1))

    fn = t.compile(loss_of) if compiled else loss_of

    def step():
        opt.zero_grad()
        loss = fn(x, y)
        loss.backward()
        opt.step()
        return loss

    return step


CLOCKS = {"wall": time.perf_counter, "process": time.process_time}
CLOCK = [time.perf_counter]


def _block(step, n: int) -> float:
    clock = CLOCK[0]
    ts = []
    for _ in range(n):
        t0 = clock()
        step()
        ts.append(clock() - t0)
    return statistics.median(ts)


def run_case(name: str, repeat: int, steps: int) -> list:
    import fgrad.torch as ft
    import torch

    torch.manual_seed(0)
    xh, yh = _inputs(name)
    tm = BUILD[name](torch)
    state = {k: v.detach().numpy().copy() for k, v in tm.state_dict().items()}
    steps_by = {}
    tx, ty = torch.from_numpy(xh), torch.from_numpy(yh)
    steps_by["torch eager"] = make_step(torch, tm, tx, ty, False)
    fx, fy = ft.from_numpy(xh), ft.from_numpy(yh)
    first = {}
    losses = {}
    for label, comp in (("fgrad.torch eager", False), ("fgrad.torch compiled", True)):
        fm = BUILD[name](ft)
        fm.load_state_dict({k: ft.from_numpy(v.copy()) for k, v in state.items()})
        s = make_step(ft, fm, fx, fy, comp)
        t0 = time.perf_counter()
        losses[label] = [float(s().item())]
        first[label] = time.perf_counter() - t0
        losses[label] += [float(s().item()) for _ in range(2)]
        steps_by[label] = s
    np.testing.assert_allclose(losses["fgrad.torch compiled"], losses["fgrad.torch eager"], rtol=2e-4)
    for s in steps_by.values():
        s()
    times: dict = {k: [] for k in steps_by}
    order = list(steps_by)
    for r in range(repeat):
        for k in order[r % len(order):] + order[:r % len(order)]:
            times[k].append(_block(steps_by[k], steps))
    rows = []
    for k, ts in times.items():
        rows.append(dict(case=name, impl=k, ms=1e3 * statistics.median(ts), first_ms=1e3 * first.get(k, 0.0),
                         spread=(max(ts) - min(ts)) / statistics.median(ts)))
    return rows


def main(argv=None) -> list:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", default="", help="comma-separated workloads (mlp, cnn, lstm, gpt)")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--steps", type=int, default=5)
    p.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                   help="process: CPU time of this process (steadier on a shared machine; one thread)")
    args = p.parse_args(argv)
    CLOCK[0] = CLOCKS[args.clock]
    names = [n for n in args.only.split(",") if n] or list(BUILD)
    rows: list = []
    print(f"{'workload':8} {'variant':22} {'ms/step':>9} {'spread':>7} {'first call':>11}  "
          "vs torch  vs shim eager")
    for name in names:
        case_rows = run_case(name, args.repeat, args.steps)
        by = {r["impl"]: r["ms"] for r in case_rows}
        for r in case_rows:
            first = f"{r['first_ms']:9.0f}ms" if r["first_ms"] else " " * 11
            print(f"{name:8} {r['impl']:22} {r['ms']:9.2f} {100 * r['spread']:6.0f}% {first}"
                  f"  {r['ms'] / by['torch eager']:7.2f}x  {r['ms'] / by['fgrad.torch eager']:7.2f}x")
        rows += case_rows
    return rows


if __name__ == "__main__":
    main()
