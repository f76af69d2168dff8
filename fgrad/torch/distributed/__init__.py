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
import importlib
import os
import pickle
import warnings
from typing import Any

import numpy as np
from ...core.narrow_floats import dtype_kind as _dtype_kind

from fgrad.backends import world as _world
from fgrad.backends.world import CollectiveMismatchError, CollectiveTimeoutError  # noqa: F401
from fgrad.backends.world import DistBackendError, DistError, DistNetworkError, DistStoreError  # noqa: F401
from fgrad.torch._ops_creation import from_numpy
from fgrad.torch._tensor import Tensor
from fgrad.torch.autograd.grad_mode import no_grad
from collections.abc import Callable
from fgrad.torch.types import Device


class ReduceOp(enum.Enum):
    """Reductions of `all_reduce`, `reduce` and `reduce_scatter`.

    Example::

        >>> import fgrad.torch.distributed as dist
        >>> dist.ReduceOp.SUM in (dist.ReduceOp.SUM, dist.ReduceOp.MAX)
        True
    """

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
    """Backend names (``Backend.MPI == "mpi"``).

    Example::

        >>> import fgrad.torch.distributed as dist
        >>> dist.Backend('GLOO') == dist.Backend.GLOO == 'gloo'
        True
    """

    MPI = "mpi"
    GLOO = "gloo"
    NCCL = "nccl"
    UNDEFINED = "undefined"

    def __new__(cls, name: str):
        return str.__new__(cls, name.lower())


_BACKENDS = ("mpi", "gloo", "nccl")


class ProcessGroup:
    """A group of processes (the default one: all of them).

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.distributed as dist
        >>> dist.init_process_group('gloo', init_method='tcp://127.0.0.1:29531', rank=0, world_size=1)
        >>> pg = dist.group.WORLD
        >>> pg.rank(), pg.size()
        (0, 1)
        >>> dist.destroy_process_group()
    """

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
    """The named groups: ``GroupMember.WORLD`` (the default group, once initialized) and
    ``GroupMember.NON_GROUP_MEMBER`` (what `new_group` returns to a process outside it).

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.distributed as dist
        >>> dist.init_process_group('gloo', init_method='tcp://127.0.0.1:29531', rank=0, world_size=1)
        >>> dist.GroupMember.WORLD.size()
        1
        >>> dist.destroy_process_group()
    """
    WORLD: ProcessGroup | None = None
    NON_GROUP_MEMBER = object()


GroupMember = _GroupMember
group = _GroupMember  # ``dist.group.WORLD``

_default: ProcessGroup | None = None


class Work:
    """The handle of an operation started with ``async_op=True`` (or `isend`/`irecv`):
    `wait` completes it; `is_completed` tells without blocking.

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.distributed as dist
        >>> dist.init_process_group('gloo', init_method='tcp://127.0.0.1:29531', rank=0, world_size=1)
        >>> work = dist.all_reduce(torch.ones(2), async_op=True)
        >>> work.wait(), work.is_completed()
        (True, True)
        >>> dist.destroy_process_group()
    """

    def __init__(self, finish: Any = None, tensors: Any = (), poll: Any = None,
                 has_result: bool = True) -> None:
        self._finish = finish
        self._tensors = list(tensors)
        self._poll = poll
        self._has_result = has_result
        self._source = -1

    def wait(self, timeout: datetime.timedelta | None = None) -> bool:
        if self._finish is not None:
            finish, self._finish = self._finish, None
            got = finish()
            if isinstance(got, int):
                self._source = got
        return True

    def is_completed(self) -> bool:
        if self._finish is not None and self._poll is not None and self._poll():
            self.wait()
        return self._finish is None

    def is_success(self) -> bool:
        return self.is_completed()

    def exception(self) -> None:
        return None

    def result(self) -> list:
        if not self._has_result:
            raise RuntimeError("result() not implemented.")
        self.wait()
        return self._tensors

    def get_future(self) -> "Future":
        return Future(lambda: (self.wait(), self._tensors)[1])

    def synchronize(self) -> None:
        self.wait()

    def _source_rank(self) -> int:
        self.wait()
        return self._source


class Future:
    """A value computed on `wait` (``torch.futures.Future``'s reading side): what
    ``async_op=True`` returns for the ``*_coalesced`` collectives and `Work.get_future`.

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.distributed as dist
        >>> dist.init_process_group('gloo', init_method='tcp://127.0.0.1:29531', rank=0, world_size=1)
        >>> fut = dist.all_reduce(torch.ones(2), async_op=True).get_future()
        >>> fut.wait()
        [tensor([1., 1.])]
        >>> dist.destroy_process_group()
    """

    def __init__(self, compute: Any) -> None:
        self._compute = compute
        self._value: Any = None

    def wait(self) -> Any:
        if self._compute is not None:
            compute, self._compute = self._compute, None
            self._value = compute()
        return self._value

    def value(self) -> Any:
        return self.wait()

    def done(self) -> bool:
        return self._compute is None

    def then(self, callback: Any) -> "Future":
        return Future(lambda: callback((self.wait(), self)[1]))


def is_available() -> bool:
    """Always True: without MPI the world is one process.

    Example::

        >>> import fgrad.torch.distributed as dist
        >>> dist.is_available()
        True
    """
    return True


def is_mpi_available() -> bool:
    """Whether mpi4py can be imported.

    Example::

        >>> import fgrad.torch.distributed as dist
        >>> isinstance(dist.is_mpi_available(), bool)
        True
    """
    try:
        import mpi4py  # noqa: F401
    except ImportError:
        return False
    return True


def is_gloo_available() -> bool:
    """``"gloo"`` is served by the same engine as ``"mpi"``.

    Example::

        >>> import fgrad.torch.distributed as dist
        >>> dist.is_gloo_available()
        True
    """
    return True


def is_nccl_available() -> bool:
    """Whether cupy's NCCL bindings can be imported.

    Example::

        >>> import fgrad.torch.distributed as dist
        >>> isinstance(dist.is_nccl_available(), bool)
        True
    """
    try:
        from cupy.cuda import nccl  # noqa: F401
    except Exception:  # noqa: BLE001 - any failure means: not available
        return False
    return True


def is_torchelastic_launched() -> bool:
    return "TORCHELASTIC_RUN_ID" in os.environ


def is_initialized() -> bool:
    """Whether `init_process_group` has run.

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.distributed as dist
        >>> dist.is_initialized()
        False
        >>> dist.init_process_group('gloo', init_method='tcp://127.0.0.1:29531', rank=0, world_size=1)
        >>> dist.is_initialized()
        True
        >>> dist.destroy_process_group()
    """
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
                       store: Any = None, group_name: str = "", pg_options: Any = None,
                       device_id: Device | int | None = None) -> None:
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
    """Leave the default group (MPI itself stays up until the process exits).

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.distributed as dist
        >>> dist.init_process_group('gloo', init_method='tcp://127.0.0.1:29531', rank=0, world_size=1)
        >>> dist.is_initialized()
        True
        >>> dist.destroy_process_group()
    """
    global _default
    if group is None or group is _default:
        if _default is None:
            raise _not_initialized()
        _default = None
        GroupMember.WORLD = None


def get_rank(group: ProcessGroup | None = None) -> int:
    """This process's rank in ``group`` (-1 when it is not a member).

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.distributed as dist
        >>> dist.init_process_group('gloo', init_method='tcp://127.0.0.1:29531', rank=0, world_size=1)
        >>> dist.get_rank()
        0
        >>> dist.destroy_process_group()
    """
    if group is GroupMember.NON_GROUP_MEMBER:
        return -1
    return _group(group).rank()


def get_world_size(group: ProcessGroup | None = None) -> int:
    """The number of processes in ``group``.

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.distributed as dist
        >>> dist.init_process_group('gloo', init_method='tcp://127.0.0.1:29531', rank=0, world_size=1)
        >>> dist.get_world_size()
        1
        >>> dist.destroy_process_group()
    """
    if group is GroupMember.NON_GROUP_MEMBER:
        return -1
    return _group(group).size()


def get_backend(group: ProcessGroup | None = None) -> str:
    """The backend name of ``group`` (default: the default group).

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.distributed as dist
        >>> dist.init_process_group('gloo', init_method='tcp://127.0.0.1:29531', rank=0, world_size=1)
        >>> dist.get_backend()
        'gloo'
        >>> dist.destroy_process_group()
    """
    return _group(group).name()


def get_global_rank(group: ProcessGroup, group_rank: int) -> int:
    """The world rank of the process with rank ``group_rank`` in ``group``.

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.distributed as dist
        >>> dist.init_process_group('gloo', init_method='tcp://127.0.0.1:29531', rank=0, world_size=1)
        >>> dist.get_global_rank(dist.group.WORLD, 0)
        0
        >>> dist.destroy_process_group()
    """
    return _group(group)._comm.ranks[group_rank]


def get_process_group_ranks(group: ProcessGroup) -> list:
    """The world ranks of ``group``'s processes, in group-rank order.

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.distributed as dist
        >>> dist.init_process_group('gloo', init_method='tcp://127.0.0.1:29531', rank=0, world_size=1)
        >>> dist.get_process_group_ranks(dist.group.WORLD)
        [0]
        >>> dist.destroy_process_group()
    """
    return list(_group(group)._comm.ranks)


def new_group(ranks: Any = None, timeout: Any = None, backend: Any = None, pg_options: Any = None,
              use_local_synchronization: bool = False,
              group_desc: Any = None, device_id: Device = None, sort_ranks: bool = True) -> Any:
    """A group of the world ranks ``ranks`` (all when None); every process must call it.
    Processes outside the group get ``GroupMember.NON_GROUP_MEMBER``.

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.distributed as dist
        >>> dist.init_process_group('gloo', init_method='tcp://127.0.0.1:29531', rank=0, world_size=1)
        >>> g = dist.new_group([0])
        >>> dist.get_world_size(g), dist.get_rank(g)
        (1, 0)
        >>> dist.destroy_process_group()
    """
    pg = _group(None)
    if ranks is not None and not sort_ranks and list(ranks) != sorted(ranks):
        raise NotImplementedError("new_group(sort_ranks=False) with unsorted ranks: fgrad numbers a group's "
                                  "processes in world-rank order; pass the ranks sorted")
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


def _red(op, dtype=None) -> str:
    """The engine's reduction name of ``op``; bitwise ones need an integral ``dtype`` (as c10d)."""
    if isinstance(op, str):
        op = ReduceOp(op) if op in {o.value for o in ReduceOp} else getattr(ReduceOp, op.upper())
    if not isinstance(op, ReduceOp):
        raise TypeError(f"op must be a torch.distributed.ReduceOp, got {type(op).__name__}")
    if dtype is not None and op.value in _world.BITWISE and _dtype_kind(np.dtype(dtype)) not in "biu":
        raise RuntimeError(f"Cannot use ReduceOp.{op.name} with non-integral dtype")
    return op.value


def _done(async_op: bool, tensors=()):
    return Work(None, tensors) if async_op else None


# -- collectives -----------------------------------------------------------------------------

def all_reduce(tensor: Tensor, op: Any = ReduceOp.SUM, group: Any = None, async_op: bool = False) -> Any:
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
    red = _red(op, tensor._buf.dtype)
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


def broadcast(tensor: Tensor, src: int | None = None, group: Any = None, async_op: bool = False,
              group_src: int | None = None) -> Any:
    """``tensor`` of process ``src`` (a global rank) into ``tensor`` on every process.

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.distributed as dist
        >>> dist.init_process_group('gloo', init_method='tcp://127.0.0.1:29531', rank=0, world_size=1)
        >>> t = torch.tensor([1.0, 2.0]); dist.broadcast(t, src=0); t
        tensor([1., 2.])
        >>> dist.destroy_process_group()
    """
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


def all_gather(tensor_list: list, tensor: Tensor, group: Any = None, async_op: bool = False) -> Any:
    """Every process's ``tensor`` into ``tensor_list`` (one tensor per process).

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.distributed as dist
        >>> dist.init_process_group('gloo', init_method='tcp://127.0.0.1:29531', rank=0, world_size=1)
        >>> out = [torch.zeros(2)]; dist.all_gather(out, torch.tensor([1.0, 2.0])); out
        [tensor([1., 2.])]
        >>> dist.destroy_process_group()
    """
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


def all_gather_into_tensor(output_tensor: Tensor, input_tensor: Tensor, group: Any = None,
                           async_op: bool = False) -> Any:
    """Every process's ``input_tensor`` concatenated along dim 0 (or stacked, when
    ``output_tensor`` has one more dimension) into ``output_tensor``.

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.distributed as dist
        >>> dist.init_process_group('gloo', init_method='tcp://127.0.0.1:29531', rank=0, world_size=1)
        >>> out = torch.zeros(2); dist.all_gather_into_tensor(out, torch.tensor([1.0, 2.0])); out
        tensor([1., 2.])
        >>> dist.destroy_process_group()
    """
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


def reduce_scatter_tensor(output: Tensor, input: Tensor, op: Any = ReduceOp.SUM, group: Any = None,
                          async_op: bool = False) -> Any:
    """``input`` (dim 0 = world_size x output's) reduced over the group; process i keeps
    block i in ``output``.

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.distributed as dist
        >>> dist.init_process_group('gloo', init_method='tcp://127.0.0.1:29531', rank=0, world_size=1)
        >>> out = torch.zeros(2); dist.reduce_scatter_tensor(out, torch.tensor([1.0, 2.0])); out
        tensor([1., 2.])
        >>> dist.destroy_process_group()
    """
    _check_tensor(output, "output")
    _check_tensor(input, "input")
    pg = _group(group)
    n = pg.size()
    red = _red(op, input._buf.dtype)
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


def reduce_scatter(output: Tensor, input_list: list, op: Any = ReduceOp.SUM, group: Any = None,
                   async_op: bool = False) -> Any:
    """The sum (``op``) over processes of ``input_list[i]`` into ``output`` on process i.

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.distributed as dist
        >>> dist.init_process_group('gloo', init_method='tcp://127.0.0.1:29531', rank=0, world_size=1)
        >>> out = torch.zeros(2); dist.reduce_scatter(out, [torch.tensor([1.0, 2.0])]); out
        tensor([1., 2.])
        >>> dist.destroy_process_group()
    """
    pg = _group(group)
    if len(input_list) != pg.size():
        raise ValueError(f"reduce_scatter: input_list has {len(input_list)} tensors; the group has "
                         f"{pg.size()} processes")
    stacked = np.stack([_host(t) for t in input_list])  # (processes, *shape): block i -> process i
    red = _red(op, stacked.dtype)
    res = pg._comm.reduce_scatter(stacked, "sum" if red == "avg" else red).reshape(tuple(output.shape))
    _write(output, res / pg.size() if red == "avg" else res)
    return _done(async_op, [output])


def reduce(tensor: Tensor, dst: int | None = None, op: Any = ReduceOp.SUM, group: Any = None,
           async_op: bool = False,
           group_dst: int | None = None) -> Any:
    """The reduction over the group into ``tensor`` on process ``dst`` (others unchanged).

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.distributed as dist
        >>> dist.init_process_group('gloo', init_method='tcp://127.0.0.1:29531', rank=0, world_size=1)
        >>> t = torch.tensor([1.0, 2.0]); dist.reduce(t, dst=0, op=dist.ReduceOp.MAX); t
        tensor([1., 2.])
        >>> dist.destroy_process_group()
    """
    pg = _group(group)
    dst = _group_rank(pg, dst, group_dst, "dst")
    red = _red(op, tensor._buf.dtype)
    out = pg._comm.allreduce(_host(tensor), "sum" if red == "avg" else red)
    if pg.rank() == dst:
        _write(tensor, out / pg.size() if red == "avg" else out)
    return _done(async_op, [tensor])


def barrier(group: Any = None, async_op: bool = False, device_ids: Any = None, timeout: Any = None) -> Any:
    """Wait for every process of the group.

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.distributed as dist
        >>> dist.init_process_group('gloo', init_method='tcp://127.0.0.1:29531', rank=0, world_size=1)
        >>> dist.barrier()
        >>> dist.destroy_process_group()
    """
    _group(group)._comm.barrier()
    return _done(async_op)


def all_gather_object(object_list: list, obj: Any, group: Any = None) -> None:
    """Every process's picklable ``obj`` into ``object_list``.

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.distributed as dist
        >>> dist.init_process_group('gloo', init_method='tcp://127.0.0.1:29531', rank=0, world_size=1)
        >>> out = [None]; dist.all_gather_object(out, {'step': 3}); out
        [{'step': 3}]
        >>> dist.destroy_process_group()
    """
    pg = _group(group)
    if len(object_list) != pg.size():
        raise ValueError(f"all_gather_object: object_list must have {pg.size()} elements")
    for i, o in enumerate(pg._comm.allgather_object(obj)):
        object_list[i] = o


def broadcast_object_list(object_list: list, src: int | None = None, group: Any = None, device: Device = None,
                          group_src: int | None = None) -> None:
    """Process ``src``'s ``object_list`` contents on every process (in place).

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.distributed as dist
        >>> dist.init_process_group('gloo', init_method='tcp://127.0.0.1:29531', rank=0, world_size=1)
        >>> objs = ['hello', 2]; dist.broadcast_object_list(objs, src=0); objs
        ['hello', 2]
        >>> dist.destroy_process_group()
    """
    pg = _group(group)
    src = _group_rank(pg, src, group_src, "src")
    if pg.size() == 1:
        return
    got = pg._comm.broadcast_object(list(object_list) if pg.rank() == src else None, src)
    if len(got) != len(object_list):
        raise RuntimeError(f"broadcast_object_list: process {src} sent {len(got)} objects, but this "
                           f"process's object_list has {len(object_list)} elements; the lists must have one "
                           "length")
    object_list[:] = got


# -- 2.13's other names for the same collectives, and small queries ----------------------------

def all_gather_single(output_tensor: Tensor, input_tensor: Tensor, group: Any = None,
                      async_op: bool = False) -> Any:
    """`all_gather_into_tensor` under PyTorch 2.13's newer name.

    Example::

        >>> import fgrad.torch as torch
        >>> init_process_group("gloo")
        >>> out = torch.zeros(2); all_gather_single(out, torch.ones(2)); out
        tensor([1., 1.])
        >>> destroy_process_group()
    """
    return all_gather_into_tensor(output_tensor, input_tensor, group=group, async_op=async_op)


def reduce_scatter_single(output: Tensor, input: Tensor, op: Any = ReduceOp.SUM, group: Any = None,
                          async_op: bool = False) -> Any:
    """`reduce_scatter_tensor` under PyTorch 2.13's newer name.

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.distributed as dist
        >>> dist.init_process_group('gloo', init_method='tcp://127.0.0.1:29531', rank=0, world_size=1)
        >>> out = torch.zeros(2); dist.reduce_scatter_single(out, torch.tensor([1.0, 2.0])); out
        tensor([1., 2.])
        >>> dist.destroy_process_group()
    """
    return reduce_scatter_tensor(output, input, op=op, group=group, async_op=async_op)


def _all_gather_base(output_tensor: Tensor, input_tensor: Tensor, group=None, async_op: bool = False):
    warnings.warn("`torch.distributed._all_gather_base` is a private function and will be deprecated. Please "
                  "use `torch.distributed.all_gather_single` instead.", FutureWarning, stacklevel=2)
    return all_gather_single(output_tensor, input_tensor, group, async_op)


def _reduce_scatter_base(output: Tensor, input: Tensor, op=ReduceOp.SUM, group=None, async_op: bool = False):
    warnings.warn("`torch.distributed._reduce_scatter_base` is a private function and will be deprecated. "
                  "Please use `torch.distributed.reduce_scatter_single` instead.", FutureWarning,
                  stacklevel=2)
    return reduce_scatter_single(output, input, op, group, async_op)


def is_backend_available(backend: str) -> bool:
    """Whether ``backend`` can run here: ``"mpi"`` and ``"gloo"`` (the MPI engine) always,
    ``"nccl"`` with cupy's NCCL.

    Example::

        >>> is_backend_available("gloo"), is_backend_available("ucc")
        (True, False)
    """
    name = str(backend).lower()
    return name in ("mpi", "gloo") or (name == "nccl" and is_nccl_available())


def get_default_backend_for_device(device: str | Device) -> str:
    """``"gloo"`` for the CPU, ``"nccl"`` for CUDA (as PyTorch).

    Example::

        >>> get_default_backend_for_device("cpu")
        'gloo'
    """
    kind = str(getattr(device, "type", device)).split(":")[0]
    if kind == "cpu":
        return "gloo"
    if kind == "cuda":
        return "nccl"
    raise ValueError(f"Default backend not registered for device : {device}")


def supports_complex(reduceOp: Any) -> bool:  # noqa: N803 - PyTorch's argument name
    """Whether ``reduceOp`` is defined for complex tensors (not MAX, MIN, PRODUCT, BAND,
    BOR, BXOR; as PyTorch).

    Example::

        >>> supports_complex(ReduceOp.SUM), supports_complex(ReduceOp.MAX)
        (True, False)
    """
    return reduceOp not in (ReduceOp.MAX, ReduceOp.MIN, ReduceOp.PRODUCT, ReduceOp.BAND, ReduceOp.BOR,
                            ReduceOp.BXOR)


# -- c10d's argument checks ---------------------------------------------------------------

def _check_tensor_list(ts, name: str) -> None:
    if not isinstance(ts, list):
        raise TypeError(f"Invalid function argument. Expected parameter `{name}` of type List[torch.Tensor]\n"
                        f"             but got {type(ts)} instead.")
    if not all(isinstance(t, Tensor) for t in ts):
        raise TypeError(f"Invalid function argument. Expected parameter `{name}` of type List[torch.Tensor]\n"
                        f"             but got {type(ts)} with elements of type {[type(t) for t in ts]}.")


_COMPLEX_PARTS = {np.dtype("complex64"): np.dtype("float32"), np.dtype("complex128"): np.dtype("float64")}


def _same_dtype(*tensors) -> None:
    """c10d's check that every tensor has one dtype (a complex one counts as its real type)."""
    last = None
    for t in tensors:
        for x in (t if isinstance(t, list) else [t]):
            dt = np.dtype(x._buf.dtype)
            key = _COMPLEX_PARTS.get(dt, dt)  # complex64 goes with float32, complex128 with float64
            if last is None:
                last = (key, x.dtype)
            elif last[0] != key:
                raise ValueError("Invalid usage of tensors with different dtypes"
                                 f"Found {last[1]} and  {x.dtype}")


def _canonical_rank(pg: ProcessGroup, global_rank, group_rank, return_global: bool = False) -> int:
    """A group rank from either a global rank or a group rank (c10d's rules and errors)."""
    if group_rank is not None:
        if global_rank is not None:
            raise ValueError("Can't specify both group_rank and global_rank")
        group_rank = int(group_rank)
        if not 0 <= group_rank < pg.size():
            raise ValueError(f"Group rank {group_rank} is not part of group {pg}")
        return pg._comm.ranks[group_rank] if return_global else group_rank
    if global_rank is None:
        raise ValueError("Must specify global_rank or group_rank")
    if return_global:
        return int(global_rank)
    return get_group_rank(pg, int(global_rank))


def get_group_rank(group: ProcessGroup, global_rank: int) -> int:
    """The rank in ``group`` of the process with world rank ``global_rank``.

    Example::

        >>> init_process_group("gloo"); get_group_rank(group.WORLD, 0)
        0
        >>> destroy_process_group()
    """
    pg = _group(group)
    try:
        return pg._comm.ranks.index(int(global_rank))
    except ValueError:
        raise ValueError(f"Global rank {global_rank} is not part of group {pg}") from None


def _get_default_group() -> ProcessGroup:
    return _group(None)


def _validate_gather_list(my_rank: int, dst: int, gather_list) -> None:
    if dst == my_rank:
        if not gather_list:
            raise ValueError("Argument ``gather_list`` must be specified on destination rank.")
    elif gather_list:
        raise ValueError("Argument ``gather_list`` must NOT be specified on non-destination ranks.")


def _recv_buffer(t: Tensor) -> tuple:
    """(host array to receive into, whether it is the tensor's own memory)."""
    b = t._buf
    if isinstance(b, np.ndarray) and b.flags.c_contiguous and b.flags.writeable:
        return b, True
    return np.empty(tuple(t.shape), _host(t).dtype), False


def _received(t: Tensor, arr: np.ndarray, direct: bool) -> None:
    if direct:
        t._get_vc().v += 1
    else:
        _write(t, arr)


# -- gather, scatter, all-to-all -------------------------------------------------------------

def _rooted_list(tensor: Tensor, tensors: list | None, list_name: str, rank: int | None,
                 group_rank: int | None, group) -> tuple:
    """The checks `gather` and `scatter` share: ``(group, root, tensors)`` with ``tensors``
    checked (an empty list where none was given, as on the non-root processes) and the root
    rank defaulting to 0."""
    _check_tensor(tensor)
    if tensors:
        _check_tensor_list(tensors, list_name)
    else:
        tensors = []
    _same_dtype(tensor, tensors)
    pg = _group(group)
    if rank is None and group_rank is None:
        rank = 0
    return pg, _canonical_rank(pg, rank, group_rank), tensors


def gather(tensor: Tensor, gather_list: list | None = None, dst: int | None = None, group: Any = None,
           async_op: bool = False, group_dst: int | None = None) -> Any:
    """Every process's ``tensor`` into ``gather_list`` on process ``dst`` (a global rank,
    default 0); the other processes pass no list.

    Example::

        >>> import fgrad.torch as torch
        >>> init_process_group("gloo")
        >>> out = [torch.zeros(2)]; gather(torch.ones(2), out, dst=0); out
        [tensor([1., 1.])]
        >>> destroy_process_group()
    """
    pg, root, gather_list = _rooted_list(tensor, gather_list, "gather_list", dst, group_dst, group)
    _validate_gather_list(pg.rank(), root, gather_list)
    if pg.rank() == root:
        if len(gather_list) != pg.size():
            raise RuntimeError(f"gather: Incorrect output list size {len(gather_list)}. Output list size "
                               f"should be {pg.size()}, same as size of the process group.")
        for t in gather_list:
            if tuple(t.shape) != tuple(tensor.shape):
                raise RuntimeError(f"gather: output tensor of shape {tuple(t.shape)} does not match the "
                                   f"input tensor's shape {tuple(tensor.shape)}")
    stacked = pg._comm.gather(_host(tensor), root)
    if stacked is not None:
        for t, part in zip(gather_list, stacked):
            _write(t, part)
    return _done(async_op, gather_list)


def scatter(tensor: Tensor, scatter_list: list | None = None, src: int | None = None, group: Any = None,
            async_op: bool = False, group_src: int | None = None) -> Any:
    """``scatter_list[i]`` of process ``src`` (a global rank, default 0) into ``tensor`` on
    process i; the other processes pass no list.

    Example::

        >>> import fgrad.torch as torch
        >>> init_process_group("gloo")
        >>> t = torch.zeros(2); scatter(t, [torch.full((2,), 7.0)], src=0); t
        tensor([7., 7.])
        >>> destroy_process_group()
    """
    pg, root, scatter_list = _rooted_list(tensor, scatter_list, "scatter_list", src, group_src, group)
    stacked = None
    if pg.rank() == root:
        if not scatter_list:
            raise ValueError("Argument ``scatter_list`` must be specified on source rank.")
        if len(scatter_list) != pg.size():
            raise RuntimeError(f"scatter: Incorrect input list size {len(scatter_list)}. Input list size "
                               f"should be {pg.size()}, same as size of the process group.")
        for t in scatter_list:
            if tuple(t.shape) != tuple(tensor.shape):
                raise RuntimeError(f"scatter: input tensor of shape {tuple(t.shape)} does not match the "
                                   f"output tensor's shape {tuple(tensor.shape)}")
        stacked = np.stack([_host(t) for t in scatter_list])
    elif scatter_list:
        raise ValueError("Argument ``scatter_list`` must NOT be specified on non-source ranks.")
    _write(tensor, pg._comm.scatter(stacked, _host(tensor), root))
    return _done(async_op, [tensor])


def all_to_all_single(output: Tensor, input: Tensor, output_split_sizes: Any = None,
                      input_split_sizes: Any = None,
                      group: Any = None, async_op: bool = False) -> Any:
    """Split ``input`` along dim 0 (into ``input_split_sizes``, default equal blocks), send
    block j to process j, and concatenate the blocks received from every process, in rank
    order, into ``output`` (``output_split_sizes`` rows from each).

    Example::

        >>> import fgrad.torch as torch
        >>> init_process_group("gloo")
        >>> out = torch.zeros(3); all_to_all_single(out, torch.arange(3.0)); out
        tensor([0., 1., 2.])
        >>> destroy_process_group()
    """
    _check_tensor(output, "output")
    _check_tensor(input, "input")
    _same_dtype(output, input)
    pg = _group(group)
    n = pg.size()
    ins, outs = tuple(input.shape), tuple(output.shape)
    for shape, splits in ((ins, input_split_sizes), (outs, output_split_sizes)):
        rows = shape[0] if shape else 1
        if splits:
            if len(splits) != n or sum(int(c) for c in splits) != rows:
                raise RuntimeError("Split sizes doesn't match total dim 0 size")
        elif rows % n:
            raise RuntimeError("Tensor's dim 0 does not divide equally across group size")
    x = _host(input).reshape(ins if ins else (1,))
    if tuple(x.shape[1:]) != tuple((outs if outs else (1,))[1:]):
        raise RuntimeError(f"all_to_all_single: input rows of shape {ins[1:]} and output rows of shape "
                           f"{outs[1:]} differ")
    res = pg._comm.alltoall(x, list(input_split_sizes) if input_split_sizes else None,
                            list(output_split_sizes) if output_split_sizes else None,
                            recv_shape=outs if outs else (1,))
    _write(output, res)
    return _done(async_op, [output])


def all_to_all(output_tensor_list: list, input_tensor_list: list, group: Any = None,
               async_op: bool = False) -> Any:
    """``input_tensor_list[j]`` to process j; ``output_tensor_list[i]`` receives process
    i's tensor for this process (tensors may differ in size between pairs).

    Example::

        >>> import fgrad.torch as torch
        >>> init_process_group("gloo")
        >>> out = [torch.zeros(2)]; all_to_all(out, [torch.ones(2)]); out
        [tensor([1., 1.])]
        >>> destroy_process_group()
    """
    _check_tensor_list(output_tensor_list, "output_tensor_list")
    _check_tensor_list(input_tensor_list, "input_tensor_list")
    _same_dtype(output_tensor_list, input_tensor_list)
    pg = _group(group)
    n = pg.size()
    if len(output_tensor_list) != n or len(input_tensor_list) != n:
        raise RuntimeError(f"all_to_all: the tensor lists must have one tensor per process ({n}); got "
                           f"{len(input_tensor_list)} inputs and {len(output_tensor_list)} outputs")
    flat = np.concatenate([_host(t).reshape(-1) for t in input_tensor_list]) if n else np.zeros(0)
    send = [int(np.prod(t.shape, dtype=np.int64)) for t in input_tensor_list]
    recv = [int(np.prod(t.shape, dtype=np.int64)) for t in output_tensor_list]
    res = pg._comm.alltoall(flat, send, recv)
    offset = 0
    for t, k in zip(output_tensor_list, recv):
        _write(t, res[offset:offset + k])
        offset += k
    return _done(async_op, output_tensor_list)


# -- point to point --------------------------------------------------------------------------

def _self_rank_error(what: str) -> ValueError:
    return ValueError(f"Invalid {what} rank: {what} rank should not be the same as the rank of the current "
                      "process.")


def _peer(pg: ProcessGroup, rank, group_rank, what: str) -> int:
    peer = _canonical_rank(pg, rank, group_rank)
    if pg.size() == 1:
        raise _self_rank_error(what)
    return peer


def isend(tensor: Tensor, dst: int | None = None, group: Any = None, tag: int = 0,
          group_dst: int | None = None) -> Any:
    """Start sending ``tensor`` to process ``dst`` (a global rank); returns a `Work`.  The
    receiver's tensor must have the same dtype and number of elements (else it raises
    `CollectiveMismatchError`).  Don't modify ``tensor`` before ``wait()``.

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.distributed as dist
        >>> dist.init_process_group('gloo', init_method='tcp://127.0.0.1:29531', rank=0, world_size=1)
        >>> try:
        ...     dist.isend(torch.ones(1), dst=0)
        ... except (RuntimeError, ValueError):
        ...     print('a process cannot send to itself')
        ...
        a process cannot send to itself
        >>> dist.destroy_process_group()
    """
    pg = _group(group)
    peer = _peer(pg, dst, group_dst, "destination")
    _check_tensor(tensor)
    arr = _host(tensor)
    reqs = pg._comm.isend(arr, peer, tag)

    def finish():
        for r in reqs[:2]:
            _world.wait(r, f"send to rank {peer} (tag {tag})")

    return Work(finish, [tensor], poll=lambda: all(r.Test() for r in reqs[:2]), has_result=False)


def irecv(tensor: Tensor, src: int | None = None, group: Any = None, tag: int = 0,
          group_src: int | None = None) -> Any:
    """Start receiving into ``tensor`` from process ``src`` (a global rank; None: any
    process); returns a `Work`.

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.distributed as dist
        >>> dist.init_process_group('gloo', init_method='tcp://127.0.0.1:29531', rank=0, world_size=1)
        >>> try:
        ...     dist.irecv(torch.zeros(1), src=0)
        ... except (RuntimeError, ValueError):
        ...     print('a process cannot receive from itself')
        ...
        a process cannot receive from itself
        >>> dist.destroy_process_group()
    """
    _check_tensor(tensor)
    pg = _group(group)
    peer = None
    if src is not None or group_src is not None:
        peer = _peer(pg, src, group_src, "source")
    elif pg.size() == 1:
        raise _self_rank_error("source")
    arr, direct = _recv_buffer(tensor)
    pending = pg._comm.irecv(arr, peer, tag)

    def finish():
        source = pending.wait()
        _received(tensor, arr, direct)
        return pg._comm.ranks[source]

    return Work(finish, [tensor], poll=pending.test, has_result=False)


def send(tensor: Tensor, dst: int | None = None, group: Any = None, tag: int = 0,
         group_dst: int | None = None) -> None:
    """Send ``tensor`` to process ``dst`` (a global rank) and wait until it is sent.

    Example::

        >>> import fgrad.torch as torch
        >>> init_process_group("gloo")
        >>> try:
        ...     send(torch.ones(1), dst=0)     # to itself
        ... except ValueError as e:
        ...     print(str(e)[:24])
        Invalid destination rank
        >>> destroy_process_group()
    """
    pg = _group(group)
    peer = _canonical_rank(pg, dst, group_dst)
    if peer == pg.rank():
        raise _self_rank_error("destination")
    isend(tensor, group=pg, tag=tag, group_dst=peer).wait()


def recv(tensor: Tensor, src: int | None = None, group: Any = None, tag: int = 0,
         group_src: int | None = None) -> int:
    """Receive into ``tensor`` from process ``src`` (None: any process); returns the
    sender's global rank.

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.distributed as dist
        >>> dist.init_process_group('gloo', init_method='tcp://127.0.0.1:29531', rank=0, world_size=1)
        >>> try:
        ...     dist.recv(torch.zeros(1), src=0)
        ... except (RuntimeError, ValueError):
        ...     print('a process cannot receive from itself')
        ...
        a process cannot receive from itself
        >>> dist.destroy_process_group()
    """
    pg = _group(group)
    if src is not None or group_src is not None:
        peer = _canonical_rank(pg, src, group_src)
        if peer == pg.rank():  # (PyTorch's gloo fails here with a RuntimeError of its transport)
            raise RuntimeError(str(_self_rank_error("source")))
    work = irecv(tensor, src=src, group=pg, tag=tag, group_src=group_src)
    return work._source_rank()


class P2POp:
    """One point-to-point operation of `batch_isend_irecv`: ``op`` is `isend` or `irecv`.

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.distributed as dist
        >>> dist.init_process_group('gloo', init_method='tcp://127.0.0.1:29531', rank=0, world_size=1)
        >>> op = dist.P2POp(dist.isend, torch.ones(2), 0)
        >>> op.peer, op.op is dist.isend
        (0, True)
        >>> dist.destroy_process_group()
    """

    def __init__(self, op: Callable[..., Any], tensor: Tensor, peer: int | None = None, group: Any = None,
                 tag: int = 0,
                 group_peer: int | None = None) -> None:
        if op is not isend and op is not irecv:
            raise ValueError("Invalid ``op``. Expected ``op`` to be of type ``torch.distributed.isend`` or "
                             "``torch.distributed.irecv``.")
        _check_tensor(tensor)
        self.op = op
        self.tensor = tensor
        self.group = _group(group)
        self.peer = _canonical_rank(self.group, peer, group_peer, return_global=True)
        self.group_peer = _canonical_rank(self.group, peer, group_peer)
        self.tag = tag

    def __repr__(self) -> str:
        me = self.group.rank()
        s, d = (me, self.group_peer) if self.op is isend else (self.group_peer, me)
        return (f"P2POp({self.op.__name__} pg={self.group.name()}, group_src={s}, group_dst={d},  "
                f"{self.tensor.shape}, {self.tensor.dtype})")


def batch_isend_irecv(p2p_op_list: list) -> list:
    """Start every `P2POp` of the list at once (their order does not matter, none can
    deadlock another) and return their `Work` handles.

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.distributed as dist
        >>> dist.init_process_group('gloo', init_method='tcp://127.0.0.1:29531', rank=0, world_size=1)
        >>> callable(dist.batch_isend_irecv)
        True
        >>> dist.destroy_process_group()
    """
    if not isinstance(p2p_op_list, list) or not all(isinstance(op, P2POp) for op in p2p_op_list):
        raise ValueError("Invalid ``p2p_op_list``. Each op is expected to to be of type "
                         "``torch.distributed.P2POp``.")
    pg = p2p_op_list[0].group
    if not all(op.group is pg for op in p2p_op_list):
        raise ValueError("All ops need to use the same group.")
    works = []
    for op in p2p_op_list:
        key = "group_dst" if op.op is isend else "group_src"
        works.append(op.op(op.tensor, group=op.group, tag=op.tag, **{key: op.group_peer}))
    return works


# -- Python objects: pickled, between this job's own processes (as PyTorch) -------------------

def gather_object(obj: Any, object_gather_list: list | None = None, dst: int | None = None, group: Any = None,
                  group_dst: int | None = None) -> None:
    """Every process's picklable ``obj`` into ``object_gather_list`` on process ``dst``
    (default 0).  Objects are pickled: use it between the job's own processes only, as
    PyTorch's (unpickling runs code).

    Example::

        >>> init_process_group("gloo")
        >>> out = [None]; gather_object({"a": 1}, out); out
        [{'a': 1}]
        >>> destroy_process_group()
    """
    pg = _group(group)
    if dst is None and group_dst is None:
        dst = 0
    root = _canonical_rank(pg, dst, group_dst)
    _validate_gather_list(pg.rank(), root, object_gather_list)
    if pg.rank() == root and len(object_gather_list) < pg.size():
        raise ValueError(f"gather_object: object_gather_list has {len(object_gather_list)} elements; the "
                         f"group has {pg.size()} processes")
    got = pg._comm.gather_object(obj, root)
    if got is not None:
        for i, o in enumerate(got):
            object_gather_list[i] = o


def scatter_object_list(scatter_object_output_list: list, scatter_object_input_list: list | None = None,
                        src: int | None = None, group: Any = None, group_src: int | None = None) -> None:
    """Object i of ``scatter_object_input_list`` (given on process ``src``, default 0) into
    ``scatter_object_output_list[0]`` on process i (pickled, as PyTorch's).

    Example::

        >>> init_process_group("gloo")
        >>> out = [None]; scatter_object_list(out, ["x"]); out
        ['x']
        >>> destroy_process_group()
    """
    pg = _group(group)
    if src is None and group_src is None:
        src = 0
    root = _canonical_rank(pg, src, group_src)
    if not isinstance(scatter_object_output_list, list) or len(scatter_object_output_list) < 1:
        raise ValueError("Expected argument scatter_object_output_list to be a list of size at least 1.")
    if pg.rank() == root and scatter_object_input_list is None:
        raise ValueError("source rank must provide non-None scatter_object_input_list")
    scatter_object_output_list[0] = pg._comm.scatter_object(
        list(scatter_object_input_list) if pg.rank() == root else None, root)


def send_object_list(object_list: list, dst: int | None = None, group: Any = None, device: Device = None,
                     group_dst: int | None = None, use_batch: bool = False) -> None:
    """Send the picklable objects of ``object_list`` to process ``dst`` (pickled, as
    PyTorch's); the receiver's list must have the same length.

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.distributed as dist
        >>> dist.init_process_group('gloo', init_method='tcp://127.0.0.1:29531', rank=0, world_size=1)
        >>> try:
        ...     dist.send_object_list(['x'], dst=0)
        ... except (RuntimeError, ValueError):
        ...     print('a process cannot send to itself')
        ...
        a process cannot send to itself
        >>> dist.destroy_process_group()
    """
    pg = _group(group)
    peer = _canonical_rank(pg, dst, group_dst)
    if peer == pg.rank():
        raise _self_rank_error("destination")
    datas = [np.frombuffer(pickle.dumps(o), np.uint8) for o in object_list]
    sizes = np.array([d.size for d in datas], np.int64)
    payload = np.concatenate(datas) if datas else np.zeros(0, np.uint8)
    for arr in (sizes, payload):
        reqs = pg._comm.isend(arr, peer, 0)
        for r in reqs[:2]:
            _world.wait(r, f"send_object_list to rank {peer}")


def recv_object_list(object_list: list, src: int | None = None, group: Any = None, device: Device = None,
                     group_src: int | None = None, use_batch: bool = False) -> int:
    """Receive ``len(object_list)`` objects from process ``src`` into ``object_list``;
    returns the sender's global rank.

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.distributed as dist
        >>> dist.init_process_group('gloo', init_method='tcp://127.0.0.1:29531', rank=0, world_size=1)
        >>> try:
        ...     dist.recv_object_list([None], src=0)
        ... except (RuntimeError, ValueError):
        ...     print('a process cannot receive from itself')
        ...
        a process cannot receive from itself
        >>> dist.destroy_process_group()
    """
    pg = _group(group)
    peer = _canonical_rank(pg, src, group_src)
    if peer == pg.rank():
        raise _self_rank_error("source")
    sizes = np.empty(len(object_list), np.int64)
    pg._comm.irecv(sizes, peer, 0).wait()
    payload = np.empty(int(sizes.sum()), np.uint8)
    pg._comm.irecv(payload, peer, 0).wait()
    offset = 0
    for i, k in enumerate(sizes):
        object_list[i] = pickle.loads(payload[offset:offset + k].tobytes())  # noqa: S301 - the job's own
        offset += int(k)
    return pg._comm.ranks[peer]


# -- more of c10d ------------------------------------------------------------------------------

def monitored_barrier(group: Any = None, timeout: Any = None, wait_all_ranks: bool = False) -> None:
    """A barrier that names the processes that did not arrive within ``timeout`` (a
    ``timedelta``; default: the collective timeout): ``RuntimeError: Rank 1 failed to pass
    monitoredBarrier in 5000 ms`` (with ``wait_all_ranks``, every missing rank).

    Example::

        >>> import datetime
        >>> init_process_group("gloo"); monitored_barrier(timeout=datetime.timedelta(seconds=5))
        >>> destroy_process_group()
    """
    pg = _group(group)
    if pg.name() == "nccl":
        raise ValueError("monitored_barrier is only implemented for GLOO backend.")
    if timeout is None:
        seconds = _world.settings.timeout if _world.settings.timeout is not None else 1800.0
    elif isinstance(timeout, datetime.timedelta):
        seconds = timeout.total_seconds()
    else:
        warnings.warn("Please specify timeout arg as a timedelta. Converting current value of "
                      f"{timeout} assuming it represents seconds", stacklevel=2)
        seconds = float(timeout)
    pg._comm.monitored_barrier(seconds, wait_all_ranks)


def get_node_local_rank(fallback_rank: int | None = None) -> int:
    """This process's rank on its node, from ``LOCAL_RANK`` (set by the launcher), else
    ``fallback_rank``.

    Example::

        >>> get_node_local_rank(fallback_rank=0)
        0
    """
    if "LOCAL_RANK" in os.environ:
        return int(os.environ["LOCAL_RANK"])
    if fallback_rank is not None:
        return int(fallback_rank)
    raise RuntimeError("LOCAL_RANK is not in the environment. Consider passing fallback_rank to allow "
                       "`get_node_local_rank` to work, assuming you are not running in a multi-device "
                       "context and want the code to run locally instead.")


def _coalesced_deprecation(name: str) -> None:
    warnings.warn(f"`torch.distributed.{name}` will be deprecated. If you must use it, please revisit our "
                  "documentation later at https://pytorch.org/docs/main/distributed.html#collective-functions",
                  FutureWarning, stacklevel=3)


def all_reduce_coalesced(tensors: Any, op: Any = ReduceOp.SUM, group: Any = None,
                         async_op: bool = False) -> Any:
    """`all_reduce` of several tensors of one dtype through one flat buffer (one
    collective); with ``async_op`` returns a `Future` of the tensors (as PyTorch's).

    Example::

        >>> import warnings, fgrad.torch as torch
        >>> init_process_group("gloo")
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     ts = [torch.ones(2), torch.ones(1)]; all_reduce_coalesced(ts)
        >>> ts
        [tensor([1., 1.]), tensor([1.])]
        >>> destroy_process_group()
    """
    _coalesced_deprecation("all_reduce_coalesced")
    if isinstance(tensors, Tensor):
        tensors = [tensors]
    _check_tensor_list(tensors, "tensor")
    _same_dtype(tensors)
    pg = _group(group)
    if tensors and pg.size() > 1:
        flat = from_numpy(np.concatenate([_host(t).reshape(-1) for t in tensors]))
        all_reduce(flat, op=op, group=pg)
        done = flat._buf
        offset = 0
        for t in tensors:
            k = int(np.prod(t.shape, dtype=np.int64))
            _write(t, done[offset:offset + k])
            offset += k
    elif tensors:
        _red(op, tensors[0]._buf.dtype)
    return Future(lambda: tensors) if async_op else None


def all_gather_coalesced(output_tensor_lists: list, input_tensor_list: list, group: Any = None,
                         async_op: bool = False) -> Any:
    """`all_gather` of several tensors: ``output_tensor_lists[i][j]`` receives process i's
    ``input_tensor_list[j]``; with ``async_op`` returns a `Future`.

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.distributed as dist
        >>> dist.init_process_group('gloo', init_method='tcp://127.0.0.1:29531', rank=0, world_size=1)
        >>> import warnings
        >>> out = [[torch.zeros(2)]]
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter('ignore')
        ...     _ = dist.all_gather_coalesced(out, [torch.tensor([1.0, 2.0])])
        ...
        >>> out
        [[tensor([1., 2.])]]
        >>> dist.destroy_process_group()
    """
    _coalesced_deprecation("all_gather_coalesced")
    _check_tensor_list(input_tensor_list, "input_tensor_list")
    _same_dtype(input_tensor_list)
    if not isinstance(output_tensor_lists, list):
        raise TypeError("Invalid function argument: output_tensor_lists should be a list")
    for lst in output_tensor_lists:
        _check_tensor_list(lst, "output_tensor_lists")
        _same_dtype(lst)
    pg = _group(group)
    if len(output_tensor_lists) != pg.size():
        raise RuntimeError(f"all_gather_coalesced: output_tensor_lists has {len(output_tensor_lists)} lists; "
                           f"the group has {pg.size()} processes")
    for lst in output_tensor_lists:
        if [tuple(t.shape) for t in lst] != [tuple(t.shape) for t in input_tensor_list]:
            raise RuntimeError("all_gather_coalesced: every output list must match the input tensors' shapes")
    flat = np.concatenate([_host(t).reshape(-1) for t in input_tensor_list]) if input_tensor_list else None
    if flat is not None:
        stacked = pg._comm.allgather(flat)
        for row, lst in zip(stacked, output_tensor_lists):
            offset = 0
            for t in lst:
                k = int(np.prod(t.shape, dtype=np.int64))
                _write(t, row[offset:offset + k])
                offset += k
    return Future(lambda: output_tensor_lists) if async_op else None


def new_subgroups_by_enumeration(ranks_per_subgroup_list: Any, timeout: Any = None, backend: Any = None,
                                 pg_options: Any = None,
                                 group_desc: Any = None) -> Any:
    """One group per list of world ranks (disjoint); returns (this process's group or None,
    all groups).  Every process must call it.

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.distributed as dist
        >>> dist.init_process_group('gloo', init_method='tcp://127.0.0.1:29531', rank=0, world_size=1)
        >>> mine, groups = dist.new_subgroups_by_enumeration([[0]])
        >>> dist.get_world_size(mine), len(groups)
        (1, 1)
        >>> dist.destroy_process_group()
    """
    if not ranks_per_subgroup_list:
        raise ValueError("The arg 'ranks_per_subgroup_list' cannot be empty")
    me = get_rank()
    seen: dict = {}
    for ranks in ranks_per_subgroup_list:
        for r in ranks:
            if r in seen:
                raise ValueError(f"Rank {r} has appeared in both subgroup {seen[r]} and {ranks}")
            seen[r] = ranks
    subgroups, mine = [], None
    for ranks in ranks_per_subgroup_list:
        g = new_group(ranks=ranks, timeout=timeout, backend=backend, pg_options=pg_options)
        subgroups.append(g)
        if me in ranks:
            mine = g
    return mine, subgroups


def new_subgroups(group_size: Any = None, group: Any = None, timeout: Any = None, backend: Any = None,
                  pg_options: Any = None, group_desc: Any = None) -> Any:
    """Consecutive groups of ``group_size`` ranks of ``group``; returns (this process's
    group, all of them).

    Example::

        >>> init_process_group("gloo")
        >>> mine, groups = new_subgroups(1); get_world_size(mine), len(groups)
        (1, 1)
        >>> destroy_process_group()
    """
    if group_size is None:
        raise ValueError("Default group size only takes effect when CUDA is available.If your subgroup "
                         "using a backend that does not depend on CUDA,please pass in 'group_size' "
                         "correctly.")
    if group_size <= 0:
        raise ValueError(f"The arg 'group_size' ({group_size}) must be positive")
    world_size = get_world_size(group=group)
    if world_size < group_size:
        raise ValueError(f"The arg 'group_size' ({group_size}) must not exceed the world size ({world_size})")
    if world_size % group_size != 0:
        raise ValueError(f"The world size ({world_size}) must be divisible by '{group_size=}'")
    ranks = get_process_group_ranks(_group(group))
    return new_subgroups_by_enumeration([ranks[i:i + group_size] for i in range(0, len(ranks), group_size)],
                                        timeout=timeout, backend=backend, pg_options=pg_options)


__all__ = ["ReduceOp", "Backend", "ProcessGroup", "GroupMember", "group", "Work", "is_available",
           "is_mpi_available", "is_gloo_available", "is_nccl_available", "is_initialized",
           "init_process_group", "destroy_process_group", "get_rank", "get_world_size", "get_backend",
           "new_group", "all_reduce", "broadcast", "all_gather", "all_gather_into_tensor",
           "reduce_scatter", "reduce_scatter_tensor", "reduce", "barrier", "all_gather_object",
           "broadcast_object_list", "get_global_rank", "get_process_group_ranks", "get_group_rank",
           "gather", "scatter", "all_to_all", "all_to_all_single", "send", "recv", "isend", "irecv",
           "P2POp", "batch_isend_irecv", "gather_object", "scatter_object_list", "send_object_list",
           "recv_object_list", "monitored_barrier", "get_node_local_rank", "all_reduce_coalesced",
           "all_gather_coalesced", "new_subgroups", "new_subgroups_by_enumeration", "Future",
           "CollectiveMismatchError", "CollectiveTimeoutError", "DistError", "DistBackendError",
           "DistNetworkError", "DistStoreError", "all_gather_single", "reduce_scatter_single",
           "is_backend_available", "get_default_backend_for_device", "supports_complex"]


def __getattr__(name: str):
    """``torch.distributed.distributed_c10d`` (the same API under PyTorch's module path),
    ``torch.distributed.nn`` (differentiable collectives) and ``.elastic`` load on first use."""
    if name in ("distributed_c10d", "nn", "elastic"):
        return importlib.import_module(f"fgrad.torch.distributed.{name}")
    raise AttributeError(f"module 'fgrad.torch.distributed' has no attribute {name!r}")
