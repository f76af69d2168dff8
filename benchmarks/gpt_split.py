"""Where the `torch_gpt` step's time goes: fgrad's shim and PyTorch, interleaved, in CPU time.

    python -m benchmarks.gpt_split                 # 60 interleaved steps, medians
    python -m benchmarks.gpt_split --steps 100 --nodes
    python -m benchmarks.gpt_split --native-ab     # fgrad with and without native kernels

Runs the benchmark's GPT training step (``benchmarks.cases.workloads``: 2 blocks, d=64,
batch 16 x 32, AdamW) with both libraries in one process, alternating one step of each, and
times the phases of every step in *thread CPU time* (time spent waiting for a core on a
loaded machine is not counted): forward (embeddings to logits), the cross-entropy, the
backward and ``opt.step()``.  Prints the median of each phase per library, their difference
and the step's ratio.  With ``--nodes`` it also prints fgrad's backward split by autograd
node class (the time each class's backward programs take per step), the list to compare with
``torch.profiler``'s ``autograd::engine::evaluate_function`` rows.  With ``--native-ab`` it runs
three steppers in turn -- fgrad with native kernels (``native_loops`` on), fgrad with them off,
PyTorch -- and prints the three columns.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import time


def _stepper(t, x, y, times: dict):
    from benchmarks.compile_shim import _gpt

    t.manual_seed(0)
    model = _gpt(t)
    opt = t.optim.AdamW(model.parameters(), lr=1e-3)
    xt, yt = t.from_numpy(x), t.from_numpy(y)
    cross_entropy = t.nn.functional.cross_entropy
    clock = time.thread_time

    def step():
        t0 = clock()
        opt.zero_grad()
        logits = model(xt)
        t1 = clock()
        loss = cross_entropy(logits.view(-1, logits.shape[-1]), yt.view(-1))
        t2 = clock()
        loss.backward()
        t3 = clock()
        opt.step()
        t4 = clock()
        for name, dt in zip(("forward", "cross-entropy", "backward", "opt.step", "step"),
                            (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t4 - t0)):
            times[name].append(dt)

    return step


def _node_timer(acc: dict):
    """Wrap fgrad's autograd node evaluation so that each node class's time is summed."""
    from fgrad.torch.autograd import graph

    apply = graph.FnNode._apply

    def timed(self, cts, create_graph):
        t0 = time.thread_time()
        res = apply(self, cts, create_graph)
        a = acc[type(self).__name__]
        a[0] += 1
        a[1] += time.thread_time() - t0
        return res

    graph.FnNode._apply = timed


def main(argv: list[str] | None = None) -> None:
    """Print the step's split (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=60, help="interleaved steps of each library")
    ap.add_argument("--nodes", action="store_true", help="also fgrad's backward by node class")
    ap.add_argument("--native-ab", action="store_true",
                    help="fgrad with native kernels, without them, and PyTorch")
    args = ap.parse_args(argv)
    if args.native_ab:
        _native_ab(args.steps)
        return

    import benchmarks  # noqa: F401  (one thread, set before numpy and torch load)
    import numpy as np
    import torch

    import fgrad.torch as ft

    rng = np.random.default_rng(1)  # the benchmark case's inputs
    x = rng.integers(0, 128, (16, 32)).astype(np.int64)
    y = rng.integers(0, 128, (16, 32)).astype(np.int64)
    tf, tt = collections.defaultdict(list), collections.defaultdict(list)
    nodes: dict = collections.defaultdict(lambda: [0, 0.0])
    if args.nodes:
        _node_timer(nodes)
    fs, ts = _stepper(ft, x, y, tf), _stepper(torch, x, y, tt)
    for _ in range(5):  # warm-up: programs staged, allocator warm
        fs()
        ts()
    tf.clear()
    tt.clear()
    nodes.clear()
    for _ in range(args.steps):
        fs()
        ts()
    print(f"median thread CPU time per step over {args.steps} interleaved steps (us)")
    print(f"{'phase':<14} {'fgrad':>9} {'torch':>9} {'fgrad - torch':>14}")
    for name in tf:
        a, b = statistics.median(tf[name]) * 1e6, statistics.median(tt[name]) * 1e6
        print(f"{name:<14} {a:9.1f} {b:9.1f} {a - b:14.1f}")
    print(f"step ratio fgrad / torch: {statistics.median(tf['step']) / statistics.median(tt['step']):.3f}")
    if args.nodes:
        print("\nfgrad backward by node class (per step)")
        for name, (n, total) in sorted(nodes.items(), key=lambda kv: -kv[1][1]):
            print(f"{name:<28} {n // args.steps:3d} nodes {total / args.steps * 1e6:9.1f} us")


def _native_ab(steps: int) -> None:
    """fgrad's step with native kernels on and off and PyTorch's, interleaved: medians."""
    import benchmarks  # noqa: F401
    import numpy as np
    import torch

    import fgrad
    import fgrad.torch as ft

    rng = np.random.default_rng(1)
    x = rng.integers(0, 128, (16, 32)).astype(np.int64)
    y = rng.integers(0, 128, (16, 32)).astype(np.int64)
    cols = [collections.defaultdict(list) for _ in range(3)]
    on, off, peer = _stepper(ft, x, y, cols[0]), _stepper(ft, x, y, cols[1]), _stepper(torch, x, y, cols[2])

    def run_all():
        fgrad.config.update("native_loops", True)
        on()
        fgrad.config.update("native_loops", False)
        off()
        fgrad.config.update("native_loops", None)
        peer()

    for _ in range(5):
        run_all()
    for c in cols:
        c.clear()
    for _ in range(steps):
        run_all()
    print(f"median thread CPU time per step over {steps} interleaved steps (us)")
    print(f"{'phase':<14} {'native':>9} {'numpy':>9} {'torch':>9}")
    for name in cols[0]:
        a, b, c = (statistics.median(col[name]) * 1e6 for col in cols)
        print(f"{name:<14} {a:9.1f} {b:9.1f} {c:9.1f}")
    s = [statistics.median(col["step"]) for col in cols]
    print(f"step ratio vs torch: native {s[0] / s[2]:.3f}, numpy kernels {s[1] / s[2]:.3f}")


if __name__ == "__main__":
    main()
