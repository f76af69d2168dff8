"""All-reduce latency and bandwidth: fgrad's collectives against raw mpi4py and PyTorch gloo.

    mpiexec -n 2 python benchmarks/allreduce.py [--sizes 8,65536,1048576,16777216] [--repeat 5]

One job runs every implementation on the same processes, interleaved, float64 sums of
``size`` bytes, timed on rank 0 after a barrier (best of ``--repeat`` timed loops of at
least ``--min-time`` seconds; per-call microseconds and the algorithm bandwidth ``bytes /
time``):

* ``mpi4py``: ``comm.Allreduce(x, out)`` on NumPy buffers (the floor fgrad builds on);
* ``fgrad psum``: ``fgrad.distributed.psum`` eager (a new result array each call);
* ``fgrad jit psum``: a jitted ``psum`` program;
* ``fgrad.torch all_reduce``: ``fgrad.torch.distributed.all_reduce`` in place on a tensor;
* ``torch gloo``: PyTorch 2.13's ``torch.distributed.all_reduce`` on the gloo backend
  (rendezvous over TCP on localhost), when torch is installed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402
from mpi4py import MPI  # noqa: E402

import fgrad  # noqa: E402
import fgrad.distributed as fdist  # noqa: E402
import fgrad.torch as ftorch  # noqa: E402
import fgrad.torch.distributed as ftdist  # noqa: E402


def _timeit(fn, comm, min_time: float, repeat: int) -> float:
    fn()
    n = 1
    while True:  # calibrate on rank 0, agree on the loop count
        comm.Barrier()
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        dt = comm.allreduce(time.perf_counter() - t0, op=MPI.MAX)
        if dt >= min_time or n >= 1 << 20:
            break
        n *= 2 if dt < min_time / 4 else 1
        n = max(n, int(n * min_time / max(dt, 1e-9)))
    best = float("inf")
    for _ in range(repeat):
        comm.Barrier()
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        dt = comm.allreduce(time.perf_counter() - t0, op=MPI.MAX)
        best = min(best, dt / n)
    return best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="8,65536,1048576,16777216")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--min-time", type=float, default=0.2)
    ap.add_argument("--no-torch", action="store_true")
    args = ap.parse_args()
    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    ftdist.init_process_group("mpi")
    tdist = None
    if not args.no_torch:
        try:
            import torch
            import torch.distributed as tdist

            os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
            os.environ.setdefault("MASTER_PORT", "29533")
            tdist.init_process_group("gloo", rank=rank, world_size=size)
        except ImportError:
            tdist = None
    rows = []
    for nbytes in (int(s) for s in args.sizes.split(",")):
        n = max(nbytes // 8, 1)
        x = np.random.default_rng(rank).normal(size=n)
        out = np.empty_like(x)
        fx = fgrad.numpy.asarray(x)
        jpsum = fgrad.jit(fdist.psum)
        ft = ftorch.tensor(x)
        impls = {
            "mpi4py Allreduce": lambda: comm.Allreduce(x, out),
            "fgrad psum": lambda: fdist.psum(fx),
            "fgrad jit psum": lambda: jpsum(fx),
            "fgrad.torch all_reduce": lambda: ftdist.all_reduce(ft),
        }
        if tdist is not None:
            tt = torch.from_numpy(x.copy())
            impls["torch gloo all_reduce"] = lambda: tdist.all_reduce(tt)
        for name, fn in impls.items():
            t = _timeit(fn, comm, args.min_time, args.repeat)
            rows.append((nbytes, name, t))
    if rank == 0:
        print(f"all-reduce (sum, float64), {size} processes on one machine, best of {args.repeat}")
        print(f"{'bytes':>10}  {'implementation':<24} {'us/call':>10} {'GB/s':>8}  {'vs mpi4py':>9}")
        base = {b: t for b, nme, t in rows if nme == "mpi4py Allreduce"}
        for b, nme, t in rows:
            print(f"{b:>10}  {nme:<24} {t * 1e6:>10.1f} {b / t / 1e9:>8.3f}  {t / base[b]:>8.2f}x")
    if tdist is not None:
        tdist.destroy_process_group()
    ftdist.destroy_process_group()


if __name__ == "__main__":
    main()
