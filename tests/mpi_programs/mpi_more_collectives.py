"""Run under ``mpiexec -n N`` (N >= 2): the rest of the process-collective API that real
programs call, each process checking its own results.

* fgrad.torch.distributed: gather, scatter, all_to_all (uneven), all_to_all_single (equal
  and split sizes, complex), send/recv/isend/irecv (any source, Work.is_completed),
  P2POp + batch_isend_irecv (megabyte messages: no deadlock), the object collectives
  (gather_object, scatter_object_list, send/recv_object_list, all_gather_object,
  broadcast_object_list), monitored_barrier (and its timeout naming the late rank),
  ReduceOp.BAND/BOR/BXOR, all_reduce/all_gather_coalesced, new_subgroups, the
  distributed_c10d path; mismatches across processes raise CollectiveMismatchError on every
  process (a send/recv mismatch on the receiver); bad arguments raise PyTorch's errors.
* fgrad.experimental.multihost_utils: process_allgather, broadcast_one_to_all,
  assert_equal, sync_global_devices; fgrad.distributed.initialize with JAX's arguments.
* torch.distributed.nn.functional: all_reduce, all_gather, broadcast with their gradients.

Each process prints ``OK <rank>``.  Usage: mpiexec -n 2 python tests/mpi_programs/mpi_more_collectives.py
"""

import datetime
import time
import warnings

import numpy as np

import fgrad
import fgrad.distributed as fdist
import fgrad.torch as torch
import fgrad.torch.distributed as dist
import fgrad.torch.distributed.nn as dnn
from fgrad.experimental import multihost_utils as mhu
from fgrad.torch.distributed.distributed_c10d import CollectiveMismatchError, ProcessGroup, _get_default_group


def eq(a, b, what):
    a = a.detach().numpy() if hasattr(a, "detach") else np.asarray(a)
    b = b.detach().numpy() if hasattr(b, "detach") else np.asarray(b)
    assert a.shape == b.shape and a.dtype == b.dtype, (what, a.shape, b.shape, a.dtype, b.dtype)
    assert np.array_equal(a, b), (what, a, b)


def raises(kind, match, f, *args, **kwargs):
    try:
        f(*args, **kwargs)
    except kind as e:
        assert match in str(e), (match, str(e))
        return e
    raise AssertionError(f"{f.__name__} did not raise {kind.__name__}({match!r})")


def gather_scatter(n, r):
    f64 = torch.float64
    dst = n - 1
    out = [torch.zeros(2, dtype=f64) for _ in range(n)] if r == dst else None
    assert dist.gather(torch.full((2,), float(r), dtype=f64), out, dst=dst) is None
    if r == dst:
        for q in range(n):
            eq(out[q], torch.full((2,), float(q), dtype=f64), "gather")
    out = [torch.zeros(2, dtype=f64) for _ in range(n)] if r == 0 else None
    work = dist.gather(torch.full((2,), 1.0 + r, dtype=f64), out, async_op=True)  # dst defaults to 0
    work.wait()
    assert work.is_completed()
    if r == 0:
        eq(torch.stack(out), torch.arange(1.0, n + 1, dtype=f64)[:, None].expand(n, 2), "gather default dst")
    if r == 1:
        raises(ValueError, "must NOT be specified on non-destination ranks", dist.gather, torch.ones(1),
               [torch.ones(1)] * n, dst=0)
    if r == 0:  # argument errors: raised before any communication
        raises(ValueError, "must be specified on destination rank", dist.gather, torch.ones(1), None, dst=0)
        raises(RuntimeError, "Incorrect output list size 1", dist.gather, torch.ones(1), [torch.ones(1)],
               dst=0)
        raises(ValueError, "different dtypes", dist.gather, torch.ones(1), [torch.ones(1, dtype=f64)] * n)
    # a shape that differs between the processes: every process raises, none hangs
    e = raises(CollectiveMismatchError, "mismatched collectives", dist.gather,
               torch.ones(2 + (r == 1)), [torch.zeros(2)] * n if r == 0 else None)
    assert "gather of float32[2]" in str(e) and "gather of float32[3]" in str(e), str(e)

    src = 1 % n
    t = torch.zeros(3, dtype=torch.int64)
    items = [torch.arange(3) + 10 * q for q in range(n)] if r == src else None
    dist.scatter(t, items, src=src)
    eq(t, torch.arange(3) + 10 * r, "scatter")
    if r == 0 and src != 0:
        raises(ValueError, "must NOT be specified on non-source ranks", dist.scatter, t, [t] * n, src=src)
    if r == src:
        raises(ValueError, "must be specified on source rank", dist.scatter, t, None, src=src)
    e = raises(CollectiveMismatchError, "mismatched collectives", dist.scatter,
               torch.zeros(2, dtype=torch.float32 if r else torch.float64),
               [torch.zeros(2, dtype=torch.float64)] * n if r == 0 else None, src=0)
    assert "float64[2]" in str(e) and "float32[2]" in str(e), str(e)


def all_to_all(n, r):
    # uneven: rank r sends q + r + 1 values 100 r + q to rank q
    ins = [torch.full((q + r + 1,), 100.0 * r + q) for q in range(n)]
    outs = [torch.zeros(q + r + 1) for q in range(n)]
    dist.all_to_all(outs, ins)
    for q in range(n):
        eq(outs[q], torch.full((q + r + 1,), 100.0 * q + r), "all_to_all")
    # equal blocks of rows
    x = torch.arange(2.0 * n * 3, dtype=torch.float64).reshape(2 * n, 3) + 1000 * r
    out = torch.zeros(2 * n, 3, dtype=torch.float64)
    dist.all_to_all_single(out, x)
    rows = torch.arange(2.0 * n * 3, dtype=torch.float64).reshape(2 * n, 3)[2 * r:2 * r + 2]
    want = torch.cat([rows + 1000 * q for q in range(n)])
    eq(out, want, "all_to_all_single")
    # split sizes: rank r sends q + 1 rows to rank q, so it receives r + 1 rows from each
    insz = [q + 1 for q in range(n)]
    x = torch.arange(float(sum(insz))) + 100 * r
    out = torch.zeros((r + 1) * n)
    dist.all_to_all_single(out, x, [r + 1] * n, insz)
    want = torch.cat([torch.arange(float(sum(insz)))[r * (r + 1) // 2:r * (r + 1) // 2 + r + 1] + 100 * q
                      for q in range(n)])
    eq(out, want, "all_to_all_single split")
    z = torch.complex(torch.arange(float(n)), torch.ones(n)) * (r + 1)
    zo = torch.zeros(n, dtype=torch.complex64)
    dist.all_to_all_single(zo, z)
    eq(zo, torch.complex(torch.full((n,), float(r)), torch.ones(n)) * torch.arange(1.0, n + 1), "complex")
    raises(RuntimeError, "does not divide equally", dist.all_to_all_single, torch.zeros(n + 1),
           torch.zeros(n + 1))
    raises(RuntimeError, "Split sizes doesn't match", dist.all_to_all_single, torch.zeros(2 * n),
           torch.zeros(2 * n), [1] * n, [1] * n)
    # output split sizes that disagree with what the others send: every process raises
    outsz = [r + 1] * n
    outsz[0] += 1 if r == n - 1 else 0
    insz2 = [q + 1 for q in range(n)]
    e = raises(CollectiveMismatchError, "mismatched all_to_all", dist.all_to_all_single,
               torch.zeros(sum(outsz)), torch.zeros(sum(insz2)), outsz, insz2)
    assert f"rank {n - 1} expects {n + 1} rows from rank 0" in str(e), str(e)


def point_to_point(n, r):
    nxt, prv = (r + 1) % n, (r - 1) % n
    got = torch.zeros(4, dtype=torch.float64)
    w = dist.isend(torch.arange(4.0, dtype=torch.float64) + r, dst=nxt)
    assert dist.recv(got, src=prv) == prv
    w.wait()
    eq(got, torch.arange(4.0, dtype=torch.float64) + prv, "ring")
    raises(RuntimeError, "result() not implemented", w.result)
    raises(ValueError, "Invalid destination rank", dist.send, got, dst=r)
    # any source, with a tag
    if r == 0:
        seen = set()
        for _ in range(n - 1):
            t = torch.zeros(1, dtype=torch.int32)
            s = dist.recv(t, tag=3)
            assert int(t.item()) == 7 * s, (s, t)
            seen.add(s)
        assert seen == set(range(1, n)), seen
    else:
        dist.send(torch.tensor([7 * r], dtype=torch.int32), dst=0, tag=3)
    # is_completed does not block: the sender sends only after the barrier
    if r == 1:
        t = torch.zeros(2)
        w = dist.irecv(t, src=0, tag=4)
        assert not w.is_completed()
    dist.barrier()
    if r == 0:
        dist.send(torch.ones(2), dst=1, tag=4)
    if r == 1:
        w.wait()
        assert w.is_completed()
        eq(t, torch.ones(2), "irecv")
    # batch_isend_irecv with megabyte messages (rendezvous protocol) in either order: no deadlock
    big = torch.arange(300_000, dtype=torch.float64) * (r + 1)
    into = torch.zeros(300_000, dtype=torch.float64)
    ops = [dist.P2POp(dist.irecv, into, prv), dist.P2POp(dist.isend, big, nxt)]
    if r % 2:
        ops.reverse()
    reqs = dist.batch_isend_irecv(ops)
    assert len(reqs) == 2
    for q in reqs:
        q.wait()
    eq(into, torch.arange(300_000, dtype=torch.float64) * (prv + 1), "batch_isend_irecv")
    assert "isend" in repr(dist.P2POp(dist.isend, big, nxt))
    raises(ValueError, "Invalid ``op``", dist.P2POp, dist.all_reduce, big, nxt)
    raises(ValueError, "Invalid ``p2p_op_list``", dist.batch_isend_irecv, [1])
    # a receive whose tensor does not match the message: the receiver names both sides
    if r == 0:
        dist.send(torch.zeros(3, dtype=torch.float32), dst=1, tag=50)
    if r == 1:
        e = raises(CollectiveMismatchError, "mismatched send/recv", dist.recv,
                   torch.zeros(3, dtype=torch.float64), src=0, tag=50)
        assert "rank 0 sent float32[3]" in str(e) and "float64[3]" in str(e), str(e)
    if r == 0:  # a longer message than the receiving tensor, and one to an any-source receive
        dist.send(torch.zeros(3, dtype=torch.float64), dst=1, tag=51)
        dist.send(torch.zeros(2, 2, dtype=torch.int64), dst=1, tag=52)
    if r == 1:
        e = raises(CollectiveMismatchError, "mismatched send/recv", dist.recv,
                   torch.zeros(2, dtype=torch.float64), src=0, tag=51)
        assert "rank 0 sent float64[3]" in str(e) and "float64[2]" in str(e), str(e)
        e = raises(CollectiveMismatchError, "mismatched send/recv", dist.recv, torch.zeros(4), tag=52)
        assert "rank 0 sent int64[2,2]" in str(e) and "float32[4]" in str(e), str(e)
        t = torch.zeros(1)  # the mismatched messages were consumed: the next receive is clean
        dist.recv(t, src=0, tag=51)
        eq(t, torch.ones(1) * 5, "after a mismatch")
    if r == 0:
        dist.send(torch.ones(1) * 5, dst=1, tag=51)
    dist.barrier()


def objects(n, r):
    out = [None] * n if r == 0 else None
    dist.gather_object({"rank": r, "pad": "x" * r * 100}, out, dst=0)
    if r == 0:
        assert out == [{"rank": q, "pad": "x" * q * 100} for q in range(n)], out
    got = [None]
    dist.scatter_object_list(got, [("obj", q, [q] * q) for q in range(n)] if r == n - 1 else None, src=n - 1)
    assert got == [("obj", r, [r] * r)], got
    raises(ValueError, "list of size at least 1", dist.scatter_object_list, [], None)
    lst = [None] * n
    dist.all_gather_object(lst, {r: "y" * (r + 1)})
    assert lst == [{q: "y" * (q + 1)} for q in range(n)], lst
    b = [r, {"k": r}] if r == 1 else [None, None]
    dist.broadcast_object_list(b, src=1)
    assert b == [1, {"k": 1}], b
    # an object collective against a tensor collective: both sides named, no hang, no garbage
    e = raises(CollectiveMismatchError, "mismatched collectives",
               lambda: dist.all_gather_object([None] * n, "x") if r == 0 else dist.all_reduce(torch.ones(3)))
    assert "all_reduce(sum) of float32[3]" in str(e), str(e)
    if r == 0:
        dist.send_object_list([{"a": 1}, "two", 3.0], dst=1)
    if r == 1:
        recv = [None] * 3
        assert dist.recv_object_list(recv, src=0) == 0
        assert recv == [{"a": 1}, "two", 3.0], recv


def reductions(n, r):
    base = torch.tensor([5, 3, 12, 0], dtype=torch.int64)
    vals = [base + q for q in range(n)]
    for op, f in ((dist.ReduceOp.BAND, np.bitwise_and), (dist.ReduceOp.BOR, np.bitwise_or),
                  (dist.ReduceOp.BXOR, np.bitwise_xor)):
        t = vals[r].clone()
        dist.all_reduce(t, op=op)
        eq(t, torch.from_numpy(f.reduce(np.stack([v.numpy() for v in vals]))), f"all_reduce {op}")
        flags = [torch.tensor([True, False, q % 2 == 0]) for q in range(n)]
        t = flags[r].clone()
        dist.all_reduce(t, op=op)
        eq(t, torch.from_numpy(f.reduce(np.stack([v.numpy() for v in flags]))), f"bool {op}")
        raises(RuntimeError, f"Cannot use ReduceOp.{op.name} with non-integral dtype", dist.all_reduce,
               torch.ones(2), op=op)
    t = vals[r].clone()
    dist.reduce(t, dst=0, op=dist.ReduceOp.BOR)
    if r == 0:
        eq(t, torch.from_numpy(np.bitwise_or.reduce(np.stack([v.numpy() for v in vals]))), "reduce BOR")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ts = [torch.ones(2) * (r + 1), torch.ones(3) * (r + 2)]
        assert dist.all_reduce_coalesced(ts) is None
        fut = dist.all_reduce_coalesced([torch.ones(1) * r], op=dist.ReduceOp.MAX, async_op=True)
        outs = [[torch.zeros(2), torch.zeros(1)] for _ in range(n)]
        dist.all_gather_coalesced(outs, [torch.ones(2) * r, torch.ones(1) * 10 * r])
    assert any(issubclass(c.category, FutureWarning) and "will be deprecated" in str(c.message)
               for c in caught)
    tri = n * (n + 1) / 2
    eq(ts[0], torch.full((2,), tri), "coalesced 0")
    eq(ts[1], torch.full((3,), tri + n), "coalesced 1")
    eq(fut.wait()[0], torch.full((1,), float(n - 1)), "coalesced future")
    for q in range(n):
        eq(outs[q][0], torch.ones(2) * q, "all_gather_coalesced")
        eq(outs[q][1], torch.ones(1) * 10 * q, "all_gather_coalesced")


def groups_and_misc(n, r):
    mine, groups = dist.new_subgroups(1)
    assert len(groups) == n and dist.get_world_size(mine) == 1 and dist.get_process_group_ranks(mine) == [r]
    whole, groups = dist.new_subgroups(n)
    assert len(groups) == 1 and dist.get_rank(whole) == r
    t = torch.ones(1) * r
    dist.all_reduce(t, group=whole)
    eq(t, torch.full((1,), n * (n - 1) / 2), "subgroup all_reduce")
    raises(ValueError, f"must not exceed the world size ({n})", dist.new_subgroups, n + 1)
    raises(ValueError, "pass in 'group_size' correctly", dist.new_subgroups)
    if n % 2 == 0:
        pair, _ = dist.new_subgroups(2)
        assert dist.get_process_group_ranks(pair) == [r - r % 2, r - r % 2 + 1]
    assert isinstance(_get_default_group(), ProcessGroup)
    assert dist.get_node_local_rank(fallback_rank=r) == r
    work = dist.broadcast(torch.ones(2), src=0, async_op=True)
    assert work.wait() and work.is_completed() and len(work.result()) == 1
    dist.monitored_barrier(timeout=datetime.timedelta(seconds=30))
    dist.monitored_barrier(wait_all_ranks=True)


def differentiable(n, r):
    """torch.distributed.nn.functional: gradients through the collectives (PyTorch's rules)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        x = torch.arange(1.0, 4.0, dtype=torch.float64).requires_grad_()
        y = dnn.all_reduce(x * (r + 1))  # sum_q (q + 1) x
        eq(y.detach(), torch.arange(1.0, 4.0, dtype=torch.float64) * (n * (n + 1) / 2), "dnn.all_reduce")
        (y * (r + 2)).sum().backward()  # d/dx on rank r: (r + 1) * sum_q (q + 2)
        eq(x.grad, torch.full((3,), (r + 1) * (n * (n + 1) / 2 + n), dtype=torch.float64), "all_reduce grad")
        x = torch.full((2,), float(r), dtype=torch.float64, requires_grad=True)
        outs = dnn.all_gather(x * 2)
        assert len(outs) == n
        eq(torch.stack([o.detach() for o in outs]), torch.arange(float(n), dtype=torch.float64)[:, None]
           .expand(n, 2) * 2, "dnn.all_gather")
        # rank r weighs process q's output by (r + 1) * (q + 1): x_q's gradient is 2 (q + 1) sum_r (r + 1)
        sum(((r + 1) * (q + 1) * o).sum() for q, o in enumerate(outs)).backward()
        want = torch.full((2,), 2.0 * (r + 1) * (n * (n + 1) / 2), dtype=torch.float64)
        eq(x.grad, want, "all_gather grad")
        x = torch.full((2,), float(r + 1), dtype=torch.float64, requires_grad=True)
        b = dnn.broadcast(x, src=n - 1)
        eq(b.detach(), torch.full((2,), float(n), dtype=torch.float64), "dnn.broadcast")
        (b * (r + 1)).sum().backward()
        want = n * (n + 1) / 2 if r == n - 1 else 0.0
        eq(x.grad, torch.full((2,), want, dtype=torch.float64), "broadcast grad")
    assert any("torch.distributed.nn.functional.all_reduce is deprecated" in str(c.message) for c in caught)


def multihost(n, r):
    fdist.initialize(coordinator_address="localhost:1234", num_processes=n, process_id=r)
    assert fgrad.process_index() == r and fgrad.process_count() == n
    raises(ValueError, f"num_processes={n + 1}, but the launcher started {n}", fdist.initialize,
           num_processes=n + 1)
    raises(ValueError, "coordinator_address must be 'host:port'", fdist.initialize,
           coordinator_address="nohost")
    tree = {"a": np.arange(2.0) + r, "s": np.int32(r), "m": fgrad.numpy.ones((1, 2)) * r}
    g = mhu.process_allgather(tree)
    eq(g["a"], np.stack([np.arange(2.0) + q for q in range(n)]), "process_allgather")
    eq(g["s"], np.arange(n, dtype=np.int32), "process_allgather scalar")
    eq(g["m"], np.arange(n, dtype=np.float64)[:, None, None] * np.ones((n, 1, 2)), "process_allgather array")
    t = mhu.process_allgather(tree, tiled=True)
    eq(t["a"], np.concatenate([np.arange(2.0) + q for q in range(n)]), "tiled")
    eq(t["s"], np.arange(n, dtype=np.int32), "tiled scalar is stacked")
    eq(t["m"], np.arange(n, dtype=np.float64)[:, None] * np.ones((n, 2)), "tiled array")
    b = mhu.broadcast_one_to_all({"x": np.full(3, r), "y": np.float32(r)})
    eq(b["x"], np.zeros(3, np.int64), "broadcast_one_to_all")
    eq(b["y"], np.float32(0), "broadcast_one_to_all scalar")
    b = mhu.broadcast_one_to_all(np.full(2, 10.0 * r), is_source=r == n - 1)
    eq(b, np.full(2, 10.0 * (n - 1)), "broadcast_one_to_all is_source")
    raises(ValueError, "exactly one process must be the source", mhu.broadcast_one_to_all, np.ones(1),
           is_source=True)
    mhu.assert_equal({"lr": 0.5, "w": np.arange(3)}, "same")
    raises(AssertionError, "differs. Expected:", mhu.assert_equal, {"w": np.arange(3) * (r == 0)}, "differs")
    mhu.sync_global_devices("phase 1")
    raises(AssertionError, "sync_global_devices name mismatch", mhu.sync_global_devices, f"phase {r}")


def monitored_timeout(n, r):
    """Last: rank 1 arrives late, so the others' monitored_barrier names it."""
    if r == 1:
        time.sleep(1.5)
    err = raises(RuntimeError, "failed to pass monitoredBarrier", dist.monitored_barrier,
                 timeout=datetime.timedelta(seconds=0.5), wait_all_ranks=True)
    if r == 0:
        assert "Rank 1 failed to pass monitoredBarrier in 500 ms" in str(err), str(err)


def main():
    dist.init_process_group("gloo")
    n, r = dist.get_world_size(), dist.get_rank()
    assert n >= 2, "run under mpiexec -n 2 or more"
    gather_scatter(n, r)
    all_to_all(n, r)
    point_to_point(n, r)
    objects(n, r)
    reductions(n, r)
    groups_and_misc(n, r)
    differentiable(n, r)
    multihost(n, r)
    dist.barrier()
    monitored_timeout(n, r)
    print(f"OK {r}", flush=True)


if __name__ == "__main__":
    main()
