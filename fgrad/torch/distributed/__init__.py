"""``fgrad.torch.distributed``: PyTorch's ``torch.distributed`` API on MPI (mpi4py).

Start N processes with ``python -m fgrad.torch.distributed.run --nproc-per-node N train.py``
(torchrun's arguments; it wraps ``mpiexec``) or with ``mpiexec -n N python train.py``, and call
``init_process_group()``.  Backends: ``"mpi"``; ``"gloo"`` means the same CPU engine (MPI);
``"nccl"`` is accepted for CUDA tensors (they go through NCCL when cupy's NCCL is available,
else through the host).  Collectives work in place on tensors, as PyTorch's: `all_reduce`,
`broadcast`, `all_gather`, `all_gather_into_tensor`, `reduce_scatter`,
`reduce_scatter_tensor`, `reduce`, `barrier`, the ``*_object`` variants, with
``async_op=True`` returning a `Work`.  ``TORCH_DISTRIBUTED_DEBUG=DETAIL`` fingerprints every
collective and raises on a mismatch across processes; ``timeout=`` bounds each collective.

Example::

    >>> import fgrad.torch as torch
    >>> import fgrad.torch.distributed as dist
    >>> dist.is_available(), dist.is_initialized()
    (True, False)
"""

from __future__ import annotations

import datetime
import enum
import os
import pickle
from typing import Any

import numpy as np
from ...core.narrow_floats import dtype_kind as _dtype_kind

from fgrad.backends import world as _world
from fgrad.backends.world import CollectiveMismatchError, CollectiveTimeoutError  # noqa: F401
from fgrad.torch._ops_creation import from_numpy
from fgrad.torch._tensor import Tensor
from fgrad.torch.autograd.grad_mode import no_grad


class ReduceOp(enum.Enum):
    """Reductions of `all_reduce`, `reduce` and `reduce_scatter`."""

    SUM = "sum"
    PRODUCT = "prod"
    MIN = "min"
    MAX = "max"
    AVG = "avg"
    BAND = "band"
    BOR = "bor"
    BXOR = "bxor"

    def __repr__(self) -> str:
        return f"<RedOpType.{self.name}: {list(ReduceOp).index(self)}>"


class Backend(str):
    """Backend names (``Backend.MPI == "mpi"``)."""

    MPI = "mpi"
    GLOO = "gloo"
    NCCL = "nccl"
    UNDEFINED = "undefined"

    def __new__(cls, name: str):
        return str.__new__(cls, name.lower())


_BACKENDS = ("mpi", "gloo", "nccl")


class ProcessGroup:
    """A group of processes (the default one: all of them)."""

    def __init__(self, comm: _world.Communicator, backend: str) -> None:
        self._comm = comm
        self._backend = backend

    def rank(self) -> int:
        return self._comm.rank

    def size(self) -> int:
        return self._comm.size

    def name(self) -> str:
        return self._backend

    def __repr__(self) -> str:
        return f"<fgrad.torch.distributed.ProcessGroup {self._backend} rank={self.rank()} size={self.size()}>"


class _GroupMember:
    WORLD: ProcessGroup | None = None
    NON_GROUP_MEMBER = object()


GroupMember = _GroupMember
group = _GroupMember  # ``dist.group.WORLD``

_default: ProcessGroup | None = None


class Work:
    """The handle of a collective started with ``async_op=True``: `wait` completes it."""

    def __init__(self, finish=None, tensors=()) -> None:
        self._finish = finish
        self._tensors = list(tensors)

    def wait(self, timeout: datetime.timedelta | None = None) -> bool:
        if self._finish is not None:
            finish, self._finish = self._finish, None
            finish()
        return True

    def is_completed(self) -> bool:
        return self._finish is None

    def is_success(self) -> bool:
        return self._finish is None

    def result(self) -> list:
        self.wait()
        return self._tensors

    def synchronize(self) -> None:
        self.wait()


def is_available() -> bool:
    """Always True: without MPI the world is one process."""
    return True


def is_mpi_available() -> bool:
    """Whether mpi4py can be imported."""
    try:
        import mpi4py  # noqa: F401
    except ImportError:
        return False
    return True


def is_gloo_available() -> bool:
    """``"gloo"`` is served by the same engine as ``"mpi"``."""
    return True


def is_nccl_available() -> bool:
    """Whether cupy's NCCL bindings can be imported."""
    try:
        from cupy.cuda import nccl  # noqa: F401
    except Exception:  # noqa: BLE001 - any failure means: not available
        return False
    return True


def is_torchelastic_launched() -> bool:
    return "TORCHELASTIC_RUN_ID" in os.environ


def is_initialized() -> bool:
    """Whether `init_process_group` has run."""
    return _default is not None


def _not_initialized() -> ValueError:
    return ValueError("Default process group has not been initialized, please make sure to call "
                      "init_process_group.")


def _group(g) -> ProcessGroup:
    if g is None or g is GroupMember.WORLD:
        if _default is None:
            raise _not_initialized()
        return _default
    if g is GroupMember.NON_GROUP_MEMBER:
        raise ValueError("this process is not a member of the group")
    if not isinstance(g, ProcessGroup):
        raise TypeError(f"expected a ProcessGroup, got {type(g).__name__}")
    return g


def init_process_group(backend: str | None = None, init_method: str | None = None,
                       timeout: datetime.timedelta | None = None, world_size: int = -1, rank: int = -1,
                       store=None, group_name: str = "", pg_options=None, device_id=None) -> None:
    """Join the default process group (PyTorch's arguments).  The processes are MPI's; the
    ``world_size`` and ``rank`` given (or in ``WORLD_SIZE``/``RANK``) must agree with it.

    Example::

        >>> init_process_group("gloo"); get_world_size(), get_rank()
        (1, 0)
        >>> destroy_process_group()
    """
    global _default
    if _default is not None:
        raise ValueError("trying to initialize the default process group twice!")
    name = "mpi" if backend is None else str(backend).lower()
    parts = [p.split(":")[-1] for p in name.split(",")]
    for p in parts:
        if p not in _BACKENDS:
            raise ValueError(f"Invalid backend: '{backend}' (fgrad.torch.distributed supports "
                             f"{', '.join(_BACKENDS)}; 'gloo' runs on the MPI engine)")
    if timeout is not None:
        _world.settings.timeout = timeout.total_seconds() if isinstance(
            timeout, datetime.timedelta) else float(timeout)
    if os.environ.get("TORCH_DISTRIBUTED_DEBUG", "").upper() == "DETAIL":
        _world.settings.debug = True
    env_size = int(os.environ.get("WORLD_SIZE", "-1"))
    want = world_size if world_size != -1 else env_size
    launched = _world.launched_size()
    if want > 1 and launched == 1:
        raise RuntimeError(
            f"init_process_group: world_size={want}, but this process was not started by an MPI launcher, "
            "so there is no one to talk to. Launch with: python -m fgrad.torch.distributed.run "
            f"--nproc-per-node {want} script.py (or mpiexec -n {want} python script.py)")
    comm = _world.initialize(force_mpi=launched > 1)
    if want not in (-1, comm.size):
        raise ValueError(f"init_process_group: world_size={want}, but MPI started {comm.size} processes")
    want_rank = rank if rank != -1 else int(os.environ.get("RANK", "-1"))
    if want_rank not in (-1, comm.rank):
        raise ValueError(f"init_process_group: rank={want_rank}, but MPI gave this process rank {comm.rank}")
    _default = ProcessGroup(comm, parts[-1])
    GroupMember.WORLD = _default


def destroy_process_group(group: ProcessGroup | None = None) -> None:
    """Leave the default group (MPI itself stays up until the process exits)."""
    global _default
    if group is None or group is _default:
        if _default is None:
            raise _not_initialized()
        _default = None
        GroupMember.WORLD = None


def get_rank(group: ProcessGroup | None = None) -> int:
    """This process's rank in ``group`` (-1 when it is not a member)."""
    if group is GroupMember.NON_GROUP_MEMBER:
        return -1
    return _group(group).rank()


def get_world_size(group: ProcessGroup | None = None) -> int:
    """The number of processes in ``group``."""
    if group is GroupMember.NON_GROUP_MEMBER:
        return -1
    return _group(group).size()


def get_backend(group: ProcessGroup | None = None) -> str:
    return _group(group).name()


def get_global_rank(group: ProcessGroup, group_rank: int) -> int:
    return _group(group)._comm.ranks[group_rank]


def get_process_group_ranks(group: ProcessGroup) -> list:
    return list(_group(group)._comm.ranks)


def new_group(ranks=None, timeout=None, backend=None, pg_options=None, use_local_synchronization=False,
              group_desc=None, device_id=None):
    """A group of the world ranks ``ranks`` (all when None); every process must call it.
    Processes outside the group get ``GroupMember.NON_GROUP_MEMBER``."""
    pg = _group(None)
    ranks = tuple(range(pg.size())) if ranks is None else tuple(sorted(int(r) for r in ranks))
    for r in ranks:
        if not 0 <= r < pg.size():
            raise ValueError(f"new_group: rank {r} is not below the world size {pg.size()}")
    sub = pg._comm.split(ranks)
    if sub is None:
        return GroupMember.NON_GROUP_MEMBER
    return ProcessGroup(sub, backend or pg.name())


# -- tensors <-> buffers ---------------------------------------------------------------------

def _check_tensor(t, name: str = "tensor") -> None:
    if not isinstance(t, Tensor):
        raise TypeError(f"Invalid function argument. Expected parameter `{name}` of type torch.Tensor\n"
                        f"             but got {type(t)} instead.")


def _host(t: Tensor) -> np.ndarray:
    """The tensor's values as a C-contiguous host array (a copy for device tensors)."""
    b = t._buf
    if isinstance(b, np.ndarray):
        return np.ascontiguousarray(b)
    return np.ascontiguousarray(t.detach().cpu().numpy())


def _write(t: Tensor, arr: np.ndarray) -> None:
    """Write ``arr`` into ``t`` in place (outside autograd, as c10d does)."""
    b = t._buf
    if isinstance(b, np.ndarray):
        b[...] = arr.reshape(b.shape)
        t._get_vc().v += 1  # an in-place write, as c10d's
        return
    with no_grad():
        t.copy_(from_numpy(np.ascontiguousarray(arr)).reshape(t.shape))


def _red(op) -> str:
    if isinstance(op, str):
        op = ReduceOp(op) if op in {o.value for o in ReduceOp} else getattr(ReduceOp, op.upper())
    if op in (ReduceOp.BAND, ReduceOp.BOR, ReduceOp.BXOR):
        raise ValueError(f"{op} is not supported by fgrad.torch.distributed (SUM, PRODUCT, MIN, MAX, AVG)")
    return op.value


def _done(async_op: bool, tensors=()):
    return Work(None, tensors) if async_op else None


# -- collectives -----------------------------------------------------------------------------

def all_reduce(tensor: Tensor, op=ReduceOp.SUM, group=None, async_op: bool = False):
    """Reduce ``tensor`` over the group, in place on every process.

    Example::

        >>> import fgrad.torch as torch
        >>> init_process_group("gloo")
        >>> t = torch.ones(2); all_reduce(t); t
        tensor([1., 1.])
        >>> destroy_process_group()
    """
    _check_tensor(tensor)
    pg = _group(group)
    red = _red(op)
    comm = pg._comm
    if comm.size == 1:
        return _done(async_op, [tensor])
    b = tensor._buf
    direct = isinstance(b, np.ndarray) and b.flags.c_contiguous and b.flags.writeable and b.dtype != np.bool_
    arr = b if direct else _host(tensor).copy()  # reduce in place in the tensor's own memory
    if red == "avg" and _dtype_kind(arr.dtype) not in "fc":
        raise RuntimeError(f"all_reduce: ReduceOp.AVG needs a floating point tensor, got {tensor.dtype}")
    mpi_red = "sum" if red == "avg" else red
    if async_op and arr.dtype != np.bool_:
        req = comm.allreduce_inplace(arr, mpi_red, start_only=True)

        def finish():
            _world.wait(req, f"all_reduce (collective #{comm.seq} on rank {comm.rank})")
            _finish_all_reduce(tensor, arr, direct, red, comm.size)

        return Work(finish, [tensor])
    if direct:
        comm.allreduce_inplace(arr, mpi_red)
    else:
        arr = comm.allreduce(arr, mpi_red)
    _finish_all_reduce(tensor, arr, direct, red, comm.size)
    return _done(async_op, [tensor])


def _finish_all_reduce(tensor: Tensor, arr: np.ndarray, direct: bool, red: str, size: int) -> None:
    if direct:
        if red == "avg":
            np.divide(arr, size, out=arr, casting="unsafe")
        tensor._get_vc().v += 1
    else:
        _write(tensor, arr / size if red == "avg" else arr)


def broadcast(tensor: Tensor, src: int | None = None, group=None, async_op: bool = False, group_src=None):
    """``tensor`` of process ``src`` (a global rank) into ``tensor`` on every process."""
    _check_tensor(tensor)
    pg = _group(group)
    src = _group_rank(pg, src, group_src, "src")
    if pg.size() > 1:
        _write(tensor, pg._comm.broadcast(_host(tensor), src))
    return _done(async_op, [tensor])


def _group_rank(pg: ProcessGroup, global_rank, group_rank, what: str) -> int:
    if group_rank is not None:
        return int(group_rank)
    if global_rank is None:
        raise ValueError(f"Must specify a {what} rank")
    try:
        return pg._comm.ranks.index(int(global_rank))
    except ValueError:
        raise ValueError(f"Global rank {global_rank} is not part of group {pg}") from None


def all_gather(tensor_list: list, tensor: Tensor, group=None, async_op: bool = False):
    """Every process's ``tensor`` into ``tensor_list`` (one tensor per process)."""
    _check_tensor(tensor)
    pg = _group(group)
    if len(tensor_list) != pg.size():
        raise ValueError(f"all_gather: tensor_list has {len(tensor_list)} tensors; the group has "
                         f"{pg.size()} processes")
    for t in tensor_list:
        if tuple(t.shape) != tuple(tensor.shape):
            raise ValueError(f"all_gather: output tensor of shape {tuple(t.shape)} does not match the input "
                             f"shape {tuple(tensor.shape)}")
    stacked = pg._comm.allgather(_host(tensor))
    for t, part in zip(tensor_list, stacked):
        _write(t, part)
    return _done(async_op, tensor_list)


def all_gather_into_tensor(output_tensor: Tensor, input_tensor: Tensor, group=None, async_op: bool = False):
    """Every process's ``input_tensor`` concatenated along dim 0 (or stacked, when
    ``output_tensor`` has one more dimension) into ``output_tensor``."""
    _check_tensor(output_tensor, "output_tensor")
    _check_tensor(input_tensor, "input_tensor")
    pg = _group(group)
    n = pg.size()
    ins = tuple(input_tensor.shape)
    outs = tuple(output_tensor.shape)
    ok = outs == (n,) + ins or (ins and outs == (n * ins[0],) + ins[1:])
    if not ok:
        raise ValueError("all_gather_into_tensor: output tensor size must be equal to world_size times "
                         f"input tensor size (output {outs}, input {ins}, world_size {n})")
    _write(output_tensor, pg._comm.allgather(_host(input_tensor)))
    return _done(async_op, [output_tensor])


def reduce_scatter_tensor(output: Tensor, input: Tensor, op=ReduceOp.SUM, group=None, async_op: bool = False):
    """``input`` (dim 0 = world_size x output's) reduced over the group; process i keeps
    block i in ``output``."""
    _check_tensor(output, "output")
    _check_tensor(input, "input")
    pg = _group(group)
    n = pg.size()
    red = _red(op)
    x = _host(input)
    outs = tuple(output.shape)
    if tuple(x.shape) == (n,) + outs:
        x = x.reshape((n * (outs[0] if outs else 1),) + outs[1:]) if outs else x.reshape(n)
    elif not outs or x.shape[0] != n * outs[0] or tuple(x.shape[1:]) != outs[1:]:
        raise ValueError(f"reduce_scatter_tensor: input tensor must be world_size ({n}) times the output "
                         f"tensor's size (input {tuple(input.shape)}, output {outs})")
    res = pg._comm.reduce_scatter(x, "sum" if red == "avg" else red)
    _write(output, res / n if red == "avg" else res)
    return _done(async_op, [output])


def reduce_scatter(output: Tensor, input_list: list, op=ReduceOp.SUM, group=None, async_op: bool = False):
    """The sum (``op``) over processes of ``input_list[i]`` into ``output`` on process i."""
    pg = _group(group)
    if len(input_list) != pg.size():
        raise ValueError(f"reduce_scatter: input_list has {len(input_list)} tensors; the group has "
                         f"{pg.size()} processes")
    stacked = np.stack([_host(t) for t in input_list])  # (processes, *shape): block i -> process i
    red = _red(op)
    res = pg._comm.reduce_scatter(stacked, "sum" if red == "avg" else red).reshape(tuple(output.shape))
    _write(output, res / pg.size() if red == "avg" else res)
    return _done(async_op, [output])


def reduce(tensor: Tensor, dst: int | None = None, op=ReduceOp.SUM, group=None, async_op: bool = False,
           group_dst=None):
    """The reduction over the group into ``tensor`` on process ``dst`` (others unchanged)."""
    pg = _group(group)
    dst = _group_rank(pg, dst, group_dst, "dst")
    red = _red(op)
    out = pg._comm.allreduce(_host(tensor), "sum" if red == "avg" else red)
    if pg.rank() == dst:
        _write(tensor, out / pg.size() if red == "avg" else out)
    return _done(async_op, [tensor])


def barrier(group=None, async_op: bool = False, device_ids=None):
    """Wait for every process of the group."""
    _group(group)._comm.barrier()
    return _done(async_op)


def all_gather_object(object_list: list, obj: Any, group=None) -> None:
    """Every process's picklable ``obj`` into ``object_list``."""
    pg = _group(group)
    if len(object_list) != pg.size():
        raise ValueError(f"all_gather_object: object_list must have {pg.size()} elements")
    for i, o in enumerate(pg._comm.allgather_object(pickle.dumps(obj))):
        object_list[i] = pickle.loads(o)


def broadcast_object_list(object_list: list, src: int | None = None, group=None, device=None,
                          group_src=None) -> None:
    """Process ``src``'s ``object_list`` contents on every process (in place)."""
    pg = _group(group)
    src = _group_rank(pg, src, group_src, "src")
    if pg.size() == 1:
        return
    got = pg._comm.allgather_object(pickle.dumps(object_list) if pg.rank() == src else None)[src]
    object_list[:] = pickle.loads(got)


__all__ = ["ReduceOp", "Backend", "ProcessGroup", "GroupMember", "group", "Work", "is_available",
           "is_mpi_available", "is_gloo_available", "is_nccl_available", "is_initialized",
           "init_process_group", "destroy_process_group", "get_rank", "get_world_size", "get_backend",
           "new_group", "all_reduce", "broadcast", "all_gather", "all_gather_into_tensor",
           "reduce_scatter", "reduce_scatter_tensor", "reduce", "barrier", "all_gather_object",
           "broadcast_object_list", "get_global_rank", "get_process_group_ranks"]
