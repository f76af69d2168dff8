"""Run under ``mpiexec -n N``: ``nn.SyncBatchNorm`` on N processes, each with its slice of a
batch, gives the outputs, input and parameter gradients (summed over the processes, as DDP
would average them) and running statistics of ``nn.BatchNorm`` on the whole batch (float64).
Each process checks its own results and prints ``OK <rank>``.

Usage: mpiexec -n 2 python tests/mpi_programs/mpi_sync_batchnorm.py
"""

import numpy as np

import fgrad.torch as torch
import fgrad.torch.distributed as dist


def close(a, b, tol=1e-10, what=""):
    a = a.detach().numpy() if hasattr(a, "detach") else np.asarray(a)
    b = b.detach().numpy() if hasattr(b, "detach") else np.asarray(b)
    assert a.shape == b.shape, (what, a.shape, b.shape)
    assert np.allclose(a, b, rtol=tol, atol=tol), (what, a, b)


def main():
    dist.init_process_group(backend="gloo")
    n, r = dist.get_world_size(), dist.get_rank()
    rows = 3
    full = np.sin(np.arange(n * rows * 4 * 5) * 0.37).reshape(n * rows, 4, 5) * 2 + 0.5
    g = np.cos(np.arange(full.size) * 0.11).reshape(full.shape)
    ref = torch.nn.BatchNorm1d(4, momentum=0.3).double()
    with torch.no_grad():
        ref.weight.copy_(torch.arange(1.0, 5.0))
        ref.bias.copy_(torch.arange(4.0) * 0.1)
    bn = torch.nn.Sequential(torch.nn.BatchNorm1d(4, momentum=0.3))
    sync = torch.nn.SyncBatchNorm.convert_sync_batchnorm(bn).double()
    with torch.no_grad():
        sync[0].weight.copy_(ref.weight)
        sync[0].bias.copy_(ref.bias)
    xf = torch.tensor(full, requires_grad=True)
    yf = ref(xf)
    yf.backward(torch.tensor(g))
    mine = slice(r * rows, (r + 1) * rows)
    x = torch.tensor(full[mine], requires_grad=True)
    y = sync(x)
    y.backward(torch.tensor(g[mine]))
    close(y, yf[mine], what="output")
    close(x.grad, xf.grad[mine], what="input gradient")
    for p, q, name in ((sync[0].weight, ref.weight, "weight"), (sync[0].bias, ref.bias, "bias")):
        total = p.grad.clone()
        dist.all_reduce(total)
        close(total, q.grad, what=f"{name} gradient")
    close(sync[0].running_mean, ref.running_mean, what="running_mean")
    close(sync[0].running_var, ref.running_var, what="running_var")
    assert int(sync[0].num_batches_tracked) == 1
    sync.eval()
    ref.eval()
    close(sync(x), ref(xf)[mine], what="eval output")
    print(f"OK {r}", flush=True)


if __name__ == "__main__":
    main()
