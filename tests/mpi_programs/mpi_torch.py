"""Run under ``mpiexec -n N`` or ``python -m fgrad.torch.distributed.run --nproc-per-node N``:
fgrad.torch.distributed's collectives, DistributedSampler and DistributedDataParallel
(training equal to single-process full-batch training in float64, buckets, no_sync,
find_unused_parameters, state_dict keys), and TORCH_DISTRIBUTED_DEBUG's mismatch error.
Each process checks its own results and prints ``OK <rank>``.

Usage: mpiexec -n 2 python tests/mpi_programs/mpi_torch.py [steps]
"""

import copy
import os
import sys

import numpy as np

import fgrad.torch as torch
import fgrad.torch.distributed as dist
from fgrad.backends import world as W
from fgrad.torch.nn.parallel import DistributedDataParallel as DDP
from fgrad.torch.utils.data.distributed import DistributedSampler


def close(a, b, tol=1e-12, what=""):
    a = a.detach().numpy() if hasattr(a, "detach") else np.asarray(a)
    b = b.detach().numpy() if hasattr(b, "detach") else np.asarray(b)
    assert a.shape == b.shape, (what, a.shape, b.shape)
    assert np.allclose(a, b, rtol=tol, atol=tol), (what, a, b)


def collectives(n, r):
    v = torch.arange(1.0, 4.0, dtype=torch.float64)
    tri = n * (n + 1) / 2
    t = v * (r + 1)
    dist.all_reduce(t)
    close(t, v * tri, what="all_reduce sum")
    for op, want in ((dist.ReduceOp.MAX, v * n), (dist.ReduceOp.MIN, v), (dist.ReduceOp.AVG, v * tri / n),
                     (dist.ReduceOp.PRODUCT, v ** n * float(np.prod(np.arange(1, n + 1))))):
        t = v * (r + 1)
        dist.all_reduce(t, op=op)
        close(t, want, what=f"all_reduce {op}")
    t = v * (r + 1)
    work = dist.all_reduce(t, async_op=True)
    work.wait()
    assert work.is_completed()
    close(t, v * tri, what="all_reduce async")
    t = v * (r + 1)
    dist.broadcast(t, src=n - 1)
    close(t, v * n, what="broadcast")
    outs = [torch.zeros(3, dtype=torch.float64) for _ in range(n)]
    dist.all_gather(outs, v * (r + 1))
    for q in range(n):
        close(outs[q], v * (q + 1), what="all_gather")
    big = torch.zeros(3 * n, dtype=torch.float64)
    dist.all_gather_into_tensor(big, v * (r + 1))
    close(big, torch.cat([v * (q + 1) for q in range(n)]), what="all_gather_into_tensor")
    stacked = torch.zeros(n, 3, dtype=torch.float64)
    dist.all_gather_into_tensor(stacked, v * (r + 1))
    close(stacked, torch.stack([v * (q + 1) for q in range(n)]), what="all_gather_into_tensor stacked")
    out = torch.zeros(3, dtype=torch.float64)
    dist.reduce_scatter(out, [v * (r + 1) * (q + 1) for q in range(n)])
    close(out, v * tri * (r + 1), what="reduce_scatter")
    out = torch.zeros(2, dtype=torch.float64)
    dist.reduce_scatter_tensor(out, torch.arange(2.0 * n, dtype=torch.float64) * (r + 1))
    want = torch.arange(2.0 * n, dtype=torch.float64)[2 * r:2 * r + 2] * tri
    close(out, want, what="reduce_scatter_tensor")
    t = v * (r + 1)
    dist.reduce(t, dst=0)
    close(t, v * tri if r == 0 else v * (r + 1), what="reduce")
    dist.barrier()
    objs = [None] * n
    dist.all_gather_object(objs, {"rank": r})
    assert objs == [{"rank": q} for q in range(n)], objs
    lst = [r, "x"] if r == 0 else [None, None]
    dist.broadcast_object_list(lst, src=0)
    assert lst == [0, "x"], lst
    sub = dist.new_group([0, n - 1])
    if r in (0, n - 1):
        t = v.clone()
        dist.all_reduce(t, group=sub)
        close(t, v * 2, what="new_group all_reduce")
        assert dist.get_world_size(sub) == 2 and dist.get_rank(sub) == (0 if r == 0 else 1)
    else:
        assert sub is dist.GroupMember.NON_GROUP_MEMBER and dist.get_rank(sub) == -1


def sampler(n, r):
    for size, drop in ((10, False), (11, False), (11, True), (3, False)):
        s = DistributedSampler(list(range(size)), num_replicas=n, rank=r, seed=3, drop_last=drop)
        s.set_epoch(2)
        mine = list(s)
        allv = [None] * n
        dist.all_gather_object(allv, mine)
        assert all(len(x) == len(s) for x in allv)
        flat = sorted(i for x in allv for i in x)
        if not drop:
            assert set(flat) == set(range(size)), flat
    s = DistributedSampler(list(range(5)))  # num_replicas/rank from the process group
    assert s.num_replicas == n and s.rank == r


class Net(torch.nn.Module):
    def __init__(self, unused=False):
        super().__init__()
        self.fc1 = torch.nn.Linear(5, 8)
        self.fc2 = torch.nn.Linear(8, 2)
        self.unused = torch.nn.Linear(2, 2) if unused else None
        self.register_buffer("steps", torch.zeros(1))

    def forward(self, x):
        return self.fc2(torch.tanh(self.fc1(x)))


def ddp_training(n, r, steps):
    torch.set_default_dtype(torch.float64)
    torch.manual_seed(100 + r)  # different on every process: DDP must broadcast rank 0's
    model = Net()
    ddp = DDP(model, bucket_cap_mb=0.0001)  # ~100 bytes: several buckets
    assert len(ddp._buckets) > 1
    assert sorted(ddp.state_dict()) == ["module.fc1.bias", "module.fc1.weight", "module.fc2.bias",
                                        "module.fc2.weight", "module.steps"]
    ref = copy.deepcopy(model)  # rank 0's initial parameters everywhere
    for p in ref.parameters():
        ps = [None] * n
        dist.all_gather_object(ps, p.detach().numpy().tolist())
        assert all(x == ps[0] for x in ps), "parameters not broadcast at wrap time"
    rng = np.random.default_rng(0)
    X = torch.tensor(rng.normal(size=(6 * n, 5)))
    Y = torch.tensor(rng.normal(size=(6 * n, 2)))
    samp = DistributedSampler(list(range(6 * n)), num_replicas=n, rank=r, shuffle=True, seed=1)
    opt = torch.optim.SGD(ddp.parameters(), lr=0.2, momentum=0.5)
    opt_ref = torch.optim.SGD(ref.parameters(), lr=0.2, momentum=0.5)
    for epoch in range(steps):
        samp.set_epoch(epoch)
        idx = torch.tensor(list(samp))
        opt.zero_grad()
        loss = ((ddp(X[idx]) - Y[idx]) ** 2).mean()
        loss.backward()
        opt_ref.zero_grad()
        loss_ref = ((ref(X) - Y) ** 2).mean()  # every sample once: the full batch
        loss_ref.backward()
        for (name, p), q in zip(model.named_parameters(), ref.parameters()):
            close(p.grad, q.grad, 1e-12, "DDP gradient " + name)
        opt.step()
        opt_ref.step()
    for (name, p), q in zip(model.named_parameters(), ref.parameters()):
        close(p, q, 1e-6, "DDP trained " + name)
    # no_sync: two local backwards, then a synced one; grads = the mean over processes of the sums
    opt.zero_grad()
    parts = [X[r::n][:2], X[r::n][2:4], X[r::n][4:6]]
    with ddp.no_sync():
        for xb in parts[:2]:
            ddp(xb).sum().backward()
    local = [p.grad.clone() for p in model.parameters()]
    ddp(parts[2]).sum().backward()
    opt_ref.zero_grad()
    for q in range(n):
        ref(X[q::n][:6]).sum().backward()
    for p, q, lo in zip(model.parameters(), ref.parameters(), local):
        close(p.grad, q.grad / n, 1e-12, "no_sync then sync")
        assert not np.allclose(lo.numpy(), p.grad.numpy())
    torch.set_default_dtype(torch.float32)


def unused_parameters(n, r):
    torch.manual_seed(0)
    ddp = DDP(Net(unused=True))
    x = torch.ones(3, 5)
    ddp(x).sum().backward()
    try:
        ddp(x)
    except RuntimeError as e:
        assert "Expected to have finished reduction in the prior iteration" in str(e), str(e)
        assert "find_unused_parameters=True" in str(e)
    else:
        raise AssertionError("an unused parameter did not raise")
    ddp = DDP(Net(unused=True), find_unused_parameters=True)
    for _ in range(2):
        ddp.zero_grad()
        ddp(x * (r + 1)).sum().backward()
    assert ddp.module.unused.weight.grad is None
    g = ddp.module.fc2.bias.grad
    close(g, torch.full((2,), 3.0), what="find_unused gradient")


def debug_mismatch(n, r):
    """The cheap default check and TORCH_DISTRIBUTED_DEBUG's full one both name both sides."""
    for debug in (False, True):
        W.settings.debug = debug
        try:
            dist.all_reduce(torch.ones(3 if r == 0 else 4))
        except dist.CollectiveMismatchError as e:
            assert "float32[3]" in str(e) and "float32[4]" in str(e), str(e)
            assert isinstance(e, RuntimeError)
        else:
            raise AssertionError(f"mismatched all_reduce did not raise (debug={debug})")
    W.settings.debug = False


def main():
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    dist.init_process_group(backend="gloo")
    n, r = dist.get_world_size(), dist.get_rank()
    if "RANK" in os.environ:  # started by fgrad.torch.distributed.run
        assert int(os.environ["RANK"]) == r and int(os.environ["WORLD_SIZE"]) == n
        assert int(os.environ["LOCAL_RANK"]) == r and os.environ["MASTER_ADDR"]
    assert n > 1 and dist.is_initialized()
    collectives(n, r)
    sampler(n, r)
    ddp_training(n, r, steps)
    unused_parameters(n, r)
    debug_mismatch(n, r)
    dist.barrier()
    dist.destroy_process_group()
    print(f"OK {r}", flush=True)


if __name__ == "__main__":
    main()
