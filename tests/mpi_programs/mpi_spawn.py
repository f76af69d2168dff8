"""Run WITHOUT a launcher: ``python tests/mpi_programs/mpi_spawn.py N [fail]`` -- PyTorch's
DDP tutorial started by ``torch.multiprocessing.spawn`` (which fgrad runs under mpiexec):
each worker trains a step of DDP, checks an all_reduce and prints ``OK <rank>``; the parent
prints ``PARENT OK``.  With ``fail`` the last worker raises: the parent catches
ProcessRaisedException with that worker's traceback and exits with status 3.
"""

import os
import sys

import fgrad.torch as torch
import fgrad.torch.distributed as dist
import fgrad.torch.multiprocessing as mp  # noqa: F401  (also torch.multiprocessing)
import fgrad.torch.nn as nn
import fgrad.torch.optim as optim
from fgrad.torch.nn.parallel import DistributedDataParallel as DDP


def setup(rank, world_size):
    os.environ["MASTER_ADDR"] = "localhost"
    os.environ["MASTER_PORT"] = "12355"
    dist.init_process_group("gloo", rank=rank, world_size=world_size)


class ToyModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.net1 = nn.Linear(10, 10)
        self.relu = nn.ReLU()
        self.net2 = nn.Linear(10, 5)

    def forward(self, x):
        return self.net2(self.relu(self.net1(x)))


def demo_basic(rank, world_size, fail):
    setup(rank, world_size)
    assert dist.get_rank() == rank and dist.get_world_size() == world_size
    torch.manual_seed(rank)  # different on every worker: DDP broadcasts rank 0's parameters
    model = ToyModel()
    ddp_model = DDP(model)
    loss_fn = nn.MSELoss()
    optimizer = optim.SGD(ddp_model.parameters(), lr=0.001)
    optimizer.zero_grad()
    outputs = ddp_model(torch.randn(20, 10))
    labels = torch.randn(20, 5)
    loss_fn(outputs, labels).backward()
    optimizer.step()
    if fail and rank == world_size - 1:
        raise ValueError(f"boom in {rank}")
    t = torch.ones(1)
    dist.all_reduce(t)
    assert t.item() == world_size
    for p in ddp_model.parameters():  # identical on every worker after the step
        outs = [torch.zeros_like(p) for _ in range(world_size)]
        dist.all_gather(outs, p.detach())
        assert all(torch.equal(o, outs[0]) for o in outs)
    print(f"OK {rank}", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    n = int(sys.argv[1])
    fail = len(sys.argv) > 2
    try:
        mp.spawn(demo_basic, args=(n, fail), nprocs=n, join=True)
    except mp.ProcessRaisedException as e:
        print("PARENT CAUGHT", type(e).__name__, e.error_index, str(e).strip().splitlines()[-1])
        sys.exit(3)
    print("PARENT OK")
