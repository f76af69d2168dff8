"""Run under ``mpiexec -n N``: checkpoint/restart of data-parallel training resumes
bit-identically, on both faces.

* ``torch``: DistributedDataParallel + Adam + dropout + DistributedSampler (shuffled per
  epoch).  Rank 0 saves ``{model, optimizer, epoch}`` with ``torch.save``; every rank loads it
  with ``torch.load`` (and ``map_location="cpu"``).  Dropout's random numbers are reseeded per
  epoch and rank, as restartable PyTorch programs do.
* ``functional``: ``fgrad.grad`` of a ``data_parallel`` loss, hand-written momentum SGD;
  rank 0 saves the parameter and momentum pytrees with ``fgrad.io.save``; every rank loads
  them with ``fgrad.io.load(path, like=...)``.

Usage: mpiexec -n N python tests/mpi_programs/mpi_restart.py torch|functional DIR MODE
where MODE is ``full`` (train ``EPOCHS`` epochs and write the final parameters to
``DIR/<face>_full.npz``), ``first`` (train ``SPLIT`` epochs, rank 0 saves the checkpoint in DIR
and ``DIR/<face>_first.npz``) or ``resume`` (start from other initial values, which every rank
replaces by loading the checkpoint; train to ``EPOCHS``; write ``DIR/<face>_resume.npz``).
Each process prints ``OK <rank>``.
"""

import os
import sys

import numpy as np

EPOCHS, SPLIT = 4, 2


def torch_face(path: str, mode: str) -> None:
    import fgrad.torch as torch
    import fgrad.torch.distributed as dist
    from fgrad.torch.nn.parallel import DistributedDataParallel as DDP
    from fgrad.torch.utils.data.distributed import DistributedSampler

    dist.init_process_group(backend="gloo")
    n, r = dist.get_world_size(), dist.get_rank()
    torch.manual_seed(0 if mode != "resume" else 99)  # resume: everything must come from the file
    model = torch.nn.Sequential(torch.nn.Linear(5, 16), torch.nn.ReLU(), torch.nn.Dropout(0.3),
                                torch.nn.Linear(16, 2))
    ddp = DDP(model)
    opt = torch.optim.Adam(ddp.parameters(), lr=0.01)
    data = np.random.default_rng(1)
    X = torch.tensor(data.normal(size=(8 * n, 5)), dtype=torch.float32)
    Y = torch.tensor(data.normal(size=(8 * n, 2)), dtype=torch.float32)
    sampler = DistributedSampler(list(range(8 * n)), num_replicas=n, rank=r, shuffle=True, seed=3)
    ckpt = os.path.join(path, "torch_ckpt.pt")
    start = 0
    if mode == "resume":
        state = torch.load(ckpt, map_location="cpu")  # every rank loads rank 0's file
        ddp.module.load_state_dict(state["model"])
        opt.load_state_dict(state["optimizer"])
        start = state["epoch"]
    stop = SPLIT if mode == "first" else EPOCHS
    for epoch in range(start, stop):
        sampler.set_epoch(epoch)
        torch.manual_seed(1000 * epoch + r)  # dropout's stream: a function of (epoch, rank)
        order = list(sampler)
        for i in range(0, len(order), 4):
            batch = order[i:i + 4]
            opt.zero_grad()
            loss = ((ddp(X[batch]) - Y[batch]) ** 2).mean()
            loss.backward()
            opt.step()
    if mode == "first" and r == 0:
        torch.save({"model": ddp.module.state_dict(), "optimizer": opt.state_dict(),
                    "epoch": stop}, ckpt)
    if r == 0:
        out = {k: v.detach().numpy() for k, v in ddp.module.state_dict().items()}
        np.savez(os.path.join(path, f"torch_{mode}.npz"), **out)
    dist.barrier()  # the files are complete before any process goes on
    dist.destroy_process_group()
    print(f"OK {r}", flush=True)


def functional_face(path: str, mode: str) -> None:
    import fgrad
    import fgrad.distributed as dist
    import fgrad.io
    import fgrad.numpy as fnp

    dist.initialize()
    n, r = dist.process_count(), dist.process_index()
    data = np.random.default_rng(2)
    X = data.normal(size=(6 * n, 3))
    Y = X @ np.array([1.0, -2.0, 0.5]) + 0.1 * data.normal(size=6 * n)
    init = 0.0 if mode != "resume" else 7.0  # resume: everything must come from the file
    params = {"w": fnp.full(3, init), "b": fnp.full((), init)}
    velocity = fgrad.tree.map(fnp.zeros_like, params)

    def loss(p, x, y):
        return fnp.mean((x @ p["w"] + p["b"] - y) ** 2)

    grad = fgrad.jit(fgrad.grad(dist.data_parallel(loss)))
    ckpt = os.path.join(path, "functional_ckpt.npz")
    start = 0
    if mode == "resume":
        state = fgrad.io.load(ckpt, like={"params": params, "velocity": velocity, "epoch": 0})
        params, velocity, start = state["params"], state["velocity"], int(state["epoch"])
    stop = SPLIT if mode == "first" else EPOCHS
    for epoch in range(start, stop):
        order = np.random.default_rng(epoch).permutation(6 * n)[r::n]  # this process's shard
        g = grad(params, X[order], Y[order])
        velocity = fgrad.tree.map(lambda v, gi: 0.9 * v + gi, velocity, g)
        params = fgrad.tree.map(lambda p, v: p - 0.05 * v, params, velocity)
    if mode == "first" and r == 0:
        fgrad.io.save(ckpt, {"params": params, "velocity": velocity, "epoch": stop})
    if r == 0:
        np.savez(os.path.join(path, f"functional_{mode}.npz"), w=np.asarray(params["w"]),
                 b=np.asarray(params["b"]))
    dist.barrier()
    print(f"OK {r}", flush=True)


if __name__ == "__main__":
    face, directory, which = sys.argv[1:4]
    (torch_face if face == "torch" else functional_face)(directory, which)
