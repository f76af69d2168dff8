"""Weak scaling of data-parallel training steps across processes, and a model of 8-64 nodes.

    python benchmarks/scaling.py [--procs 1,2,4] [--steps 20] [--json out.json]

The driver launches one ``mpiexec -n P`` job per process count P (the worker is this file
with ``--worker``).  Every process trains on its own batch of the same size (weak scaling:
the global batch grows with P), so with perfect scaling a step takes as long on P processes
as on one.  Three steps are timed (median over ``--steps`` after warm-up, the slowest
process's time):

* ``functional MLP``: ``jit(grad(data_parallel(loss)))`` on the 784-512-512-10 MLP, batch 128;
* ``DDP MLP``: ``fgrad.torch`` DistributedDataParallel, the same MLP, SGD step;
* ``DDP CNN``: DistributedDataParallel of a small CNN (2 conv + 2 linear), batch 32.

Efficiency is ``t(1) / t(P)``.  The job also measures all-reduce latency (8 B) and
bandwidth (the model's gradient size) at each P, and the model predicts a step on N nodes
as ``t(1) + 2 (N - 1) alpha + 2 (N - 1) / N * bytes / beta`` (a ring all-reduce: 2(N-1)
messages, each process sending 2(N-1)/N of the gradient), printed for N = 8..64 both with
the measured intra-node alpha/beta and with ``--net-latency-us`` / ``--net-gbps`` (default:
a 100 Gb/s fabric, 5 us).  On the 2-core development VM, P > 2 oversubscribes the cores:
that, not communication, limits what it can show.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))


def _median_step(step, comm, steps: int) -> float:
    for _ in range(3):
        step()
    times = []
    for _ in range(steps):
        comm.Barrier()
        t0 = time.perf_counter()
        step()
        times.append(comm.allreduce(time.perf_counter() - t0, op=_MPI().MAX))
    return float(np.median(times))


def _MPI():
    from mpi4py import MPI
    return MPI


def _functional_mlp(rank: int):
    import fgrad
    import fgrad.distributed as dist
    import fgrad.numpy as fnp
    from cases._models import mlp_data, mlp_loss

    params, x, _, onehot = mlp_data(seed=rank)
    params = [(fnp.asarray(w), fnp.asarray(b)) for w, b in mlp_data(seed=0)[0]]  # replicated
    grad = fgrad.jit(fgrad.grad(dist.data_parallel(mlp_loss(fnp))))
    x, onehot = fnp.asarray(x), fnp.asarray(onehot)
    state = {"p": params}

    def step():
        g = grad(state["p"], x, onehot)
        state["p"] = [(w - 0.01 * gw, b - 0.01 * gb) for (w, b), (gw, gb) in zip(state["p"], g)]
        state["p"][0][0].block_until_ready()

    nbytes = sum(w.size * 4 + b.size * 4 for w, b in params)
    return step, nbytes


def _ddp(model_fn, x_shape, n_classes: int, rank: int):
    import fgrad.torch as torch
    from fgrad.torch.nn.parallel import DistributedDataParallel as DDP

    torch.manual_seed(0)
    model = DDP(model_fn(torch))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    g = torch.Generator().manual_seed(rank)
    x = torch.randn(*x_shape, generator=g)
    y = torch.randint(0, n_classes, (x_shape[0],), generator=g)

    def step():
        opt.zero_grad()
        torch.nn.functional.cross_entropy(model(x), y).backward()
        opt.step()

    nbytes = sum(p.numel() * p.element_size() for p in model.parameters())
    return step, nbytes


def _mlp(torch):
    return torch.nn.Sequential(torch.nn.Linear(784, 512), torch.nn.ReLU(), torch.nn.Linear(512, 512),
                               torch.nn.ReLU(), torch.nn.Linear(512, 10))


def _cnn(torch):
    return torch.nn.Sequential(torch.nn.Conv2d(1, 16, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
                               torch.nn.Conv2d(16, 32, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
                               torch.nn.Flatten(), torch.nn.Linear(32 * 7 * 7, 64), torch.nn.ReLU(),
                               torch.nn.Linear(64, 10))


def worker(steps: int) -> None:
    sys.path.insert(0, HERE)
    MPI = _MPI()
    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    import fgrad.torch.distributed as tdist

    tdist.init_process_group("mpi")
    out = {"procs": size, "cases": {}}
    for name, build in (("functional MLP", lambda: _functional_mlp(rank)),
                        ("DDP MLP", lambda: _ddp(_mlp, (128, 784), 10, rank)),
                        ("DDP CNN", lambda: _ddp(_cnn, (32, 1, 28, 28), 10, rank))):
        step, nbytes = build()
        out["cases"][name] = {"step_s": _median_step(step, comm, steps), "grad_bytes": int(nbytes)}
    # all-reduce latency (8 B) and bandwidth (the MLP's gradient size), raw MPI
    for label, n in (("latency_s", 1), ("big_s", 669_706)):
        buf, res = np.ones(n), np.empty(n)
        out[label] = _median_step(lambda b=buf, r=res: comm.Allreduce(b, r), comm, max(steps, 20))
    out["bandwidth_Bps"] = 669_706 * 8 / out["big_s"]
    if rank == 0:
        print("RESULT " + json.dumps(out), flush=True)
    tdist.destroy_process_group()


def model_rows(t1: float, nbytes: int, alpha: float, beta: float, nodes=(8, 16, 32, 64)):
    """Predicted (nodes, step seconds, efficiency) of a ring all-reduce data-parallel step."""
    rows = []
    for n in nodes:
        t = t1 + 2 * (n - 1) * alpha + 2 * (n - 1) / n * nbytes / beta
        rows.append((n, t, t1 / t))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--procs", default="1,2,4")
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--json")
    ap.add_argument("--net-latency-us", type=float, default=5.0)
    ap.add_argument("--net-gbps", type=float, default=100.0)
    ap.add_argument("--worker", action="store_true")
    args = ap.parse_args()
    if args.worker:
        worker(args.steps)
        return
    if shutil.which("mpiexec") is None:
        sys.exit("mpiexec is not on PATH: pip install 'fgrad[mpi]'")
    results = []
    for p in (int(s) for s in args.procs.split(",")):
        cmd = ["mpiexec", "-n", str(p), sys.executable, os.path.abspath(__file__), "--worker",
               "--steps", str(args.steps)]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
        line = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
        if proc.returncode or not line:
            sys.exit(f"{' '.join(cmd)} failed:\n{proc.stdout}\n{proc.stderr}")
        results.append(json.loads(line[0][7:]))
    base = results[0]
    print(f"weak scaling, {os.cpu_count()} cores; step time (ms), efficiency t(1)/t(P)")
    names = list(base["cases"])
    print(f"{'P':>3}  " + "  ".join(f"{n:>22}" for n in names) + "  allreduce 8B (us)  GB/s")
    for r in results:
        cells = []
        for n in names:
            t = r["cases"][n]["step_s"]
            cells.append(f"{t * 1e3:>10.2f} ms {base['cases'][n]['step_s'] / t:>7.0%}")
        print(f"{r['procs']:>3}  " + "  ".join(f"{c:>22}" for c in cells)
              + f"  {r['latency_s'] * 1e6:>17.1f}  {r['bandwidth_Bps'] / 1e9:>4.2f}")
    intra = results[-1] if results[-1]["procs"] > 1 else None
    print("\nmodel (ring all-reduce), predicted step time and efficiency on N nodes:")
    for n in names:
        t1, nbytes = base["cases"][n]["step_s"], base["cases"][n]["grad_bytes"]
        fabrics = [(f"{args.net_gbps:g} Gb/s, {args.net_latency_us:g} us", args.net_latency_us * 1e-6,
                    args.net_gbps * 1e9 / 8)]
        if intra:
            fabrics.append(("measured here", intra["latency_s"], intra["bandwidth_Bps"]))
        for label, a, b in fabrics:
            rows = model_rows(t1, nbytes, a, b)
            cells = ", ".join(f"N={N}: {t * 1e3:.2f} ms ({e:.0%})" for N, t, e in rows)
            print(f"  {n} [{label}]: {cells}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"results": results, "cpus": os.cpu_count()}, f, indent=1)


if __name__ == "__main__":
    main()
