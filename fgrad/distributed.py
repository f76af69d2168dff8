"""`fgrad.distributed`: data-parallel programs over processes (MPI), JAX-style.

Run the same program on N processes (``mpiexec -n N python train.py``); each process works
on its shard of the data and the collectives combine the results.  Started without a
launcher, the world is this one process and every collective is the identity, so the
program runs unchanged.

* `initialize`, `process_index`, `process_count`: the world (`initialize` is optional:
  the first collective creates the world).
* collectives: `psum`, `pmean`, `pmax`, `pmin`, `all_gather`, `psum_scatter`, `ppermute`,
  `broadcast`, `barrier`, and `pvary` (a replicated value used per process).  They accept
  pytrees and work under `grad`, `jvp`, `vmap` and `jit` (where they are never folded,
  dropped or reordered).
* `data_parallel(loss_fn)`: places `pvary` and `pmean` for you, so ``grad`` of the result
  is the full-batch gradient on every process, with one all-reduce for all gradients.

Process collectives are separate functions, not ``vmap`` axis names: ``axis_name`` may be
omitted or be the reserved name ``"processes"`` (`PROCESSES`).

Example::

    >>> import numpy as np, fgrad
    >>> import fgrad.distributed as dist
    >>> dist.process_count(), dist.process_index()      # not launched by mpiexec
    (1, 0)
    >>> def loss(w, x, y):
    ...     return ((x @ w - y) ** 2).mean()
    >>> x, y, w = np.ones((4, 2)), np.ones(4), np.zeros(2)
    >>> fgrad.grad(dist.data_parallel(loss))(w, x, y)   # full-batch gradient on every process
    Array([-2., -2.], dtype=float64)
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from . import numpy as fnp
from ._device_api import local_device_count
from .backends import world as _world
from .backends.world import CollectiveMismatchError, CollectiveTimeoutError
from .ops import collectives as _c
from .ops import structural as _structural
from .tree_util import flatten_arrays as tree_flatten, map_arrays as tree_map, tree_unflatten

PROCESSES = "processes"  # the reserved axis name of the process world


def initialize(coordinator_address: str | None = None, num_processes: int | None = None,
               process_id: int | None = None, local_device_ids=None,
               cluster_detection_method: str | None = None,
               initialization_timeout: int = 300, heartbeat_timeout_seconds: int = 100,
               shutdown_timeout_seconds: int = 300, coordinator_bind_address: str | None = None,
               slice_index: int | None = None, partition_index: int | None = None, *,
               timeout: float | None = None, debug: bool | None = None, check: bool | None = None) -> None:
    """Join the process world (``jax.distributed.initialize``'s arguments).  The processes
    are MPI's (as JAX's ``cluster_detection_method="mpi4py"``): under an MPI launcher the
    world is MPI's, and ``num_processes``/``process_id``, if given, must agree with it
    (`ValueError` otherwise); ``coordinator_address`` (``"host:port"``) is checked for its
    form and otherwise unused (MPI connects the processes), as are JAX's timeouts and device
    ids.  Without a launcher the world is this process; ``num_processes > 1`` then raises
    (there is no one to talk to).  Calling it again is harmless.  fgrad's own options:
    ``timeout`` (seconds) bounds every collective; ``debug`` all-gathers each collective's
    fingerprint and names mismatches across processes; ``check`` (on by default) is the
    cheap form of that check: one 16-byte all-reduce per collective, the fingerprints
    gathered only when the processes disagree.  On several processes it checks that every
    process has as many local devices as the others (``fgrad.device_count()`` is
    ``process_count() * local_device_count()``), raising `ValueError` naming both sides.

    Example::

        >>> initialize(); process_count()
        1
        >>> initialize(coordinator_address="localhost:1234", num_processes=1, process_id=0)
    """
    if cluster_detection_method not in (None, "mpi4py", "auto"):
        raise ValueError("fgrad.distributed.initialize: "
                         f"cluster_detection_method={cluster_detection_method!r}: fgrad's processes come "
                         "from MPI ('mpi4py'); start the job with mpiexec or srun")
    if coordinator_address is not None:
        host, sep, port = str(coordinator_address).rpartition(":")
        if not sep or not host or not port.isdigit():
            raise ValueError(f"fgrad.distributed.initialize: coordinator_address must be 'host:port', got "
                             f"{coordinator_address!r}")
    if process_id is not None and num_processes is not None and not 0 <= process_id < num_processes:
        raise ValueError(f"fgrad.distributed.initialize: process_id={process_id} must lie in "
                         f"[0, num_processes={num_processes})")
    if timeout is not None:
        _world.settings.timeout = float(timeout)
    if debug is not None:
        _world.settings.debug = bool(debug)
    if check is not None:
        _world.settings.check = bool(check)
    launched = _world.launched_size()
    if num_processes is not None and num_processes > 1 and launched == 1:
        raise ValueError(f"fgrad.distributed.initialize: num_processes={num_processes}, but this process was "
                         f"not started by an MPI launcher (run: mpiexec -n {num_processes} python ...)")
    w = _world.initialize(force_mpi=launched > 1)
    if num_processes is not None and num_processes != w.size:
        raise ValueError(f"fgrad.distributed.initialize: num_processes={num_processes}, but the launcher "
                         f"started {w.size} (run: mpiexec -n {num_processes} python ...)")
    if process_id is not None and process_id != w.rank:
        raise ValueError(f"fgrad.distributed.initialize: process_id={process_id}, but MPI gave this "
                         f"process rank {w.rank}")
    if w.size > 1:
        _check_same_devices(w)


def _check_same_devices(w) -> None:
    """Every process has as many devices of the default platform as this one (what
    ``fgrad.device_count()`` and a pmap over processes take for granted), else all raise."""
    counts = w.allgather(np.array(local_device_count(), np.int64))
    other = next((q for q, c in enumerate(counts) if c != counts[w.rank]), None)
    if other is not None:
        raise ValueError(
            f"fgrad.distributed.initialize: every process must have the same number of local devices, but "
            f"process {w.rank} has {int(counts[w.rank])} and process {other} has {int(counts[other])} (all: "
            f"{[int(c) for c in counts]}); give each process the same devices (e.g. CUDA_VISIBLE_DEVICES)")


def is_initialized() -> bool:
    """Whether the process world exists (`initialize` or a first collective made it), as
    ``jax.distributed.is_initialized``.

    Example::

        >>> initialize(); is_initialized()
        True
    """
    return _world.is_initialized()


def shutdown() -> None:
    """``jax.distributed.shutdown``: nothing to do (MPI closes when the process exits; the
    world stays usable).

    Example::

        >>> shutdown()
    """


def process_index() -> int:
    """This process's index in the world (0 on one process).

    Example::

        >>> process_index()
        0
    """
    return _world.world().rank


def process_count() -> int:
    """The number of processes in the world (1 when not launched by MPI).

    Example::

        >>> process_count()
        1
    """
    return _world.world().size


def process_indices(backend: str | None = None) -> list[int]:
    """The indices of all processes (JAX's ``jax.process_indices``): ``[0]`` on one process.

    Example::

        >>> process_indices()
        [0]
    """
    return list(range(process_count()))


def host_id(backend: str | None = None) -> int:
    """`process_index` under its old JAX name (``jax.host_id``).

    Example::

        >>> host_id()
        0
    """
    return process_index()


def host_count(backend: str | None = None) -> int:
    """`process_count` under its old JAX name (``jax.host_count``).

    Example::

        >>> host_count()
        1
    """
    return process_count()


def _check_axis_name(axis_name, op: str) -> None:
    if axis_name is not None and axis_name != PROCESSES:
        raise NameError(
            f"fgrad.distributed.{op}: unbound axis name {axis_name!r}: process collectives run over the "
            f"world of processes, whose reserved axis name is {PROCESSES!r} (or omit axis_name)")


def psum(x, axis_name=None):
    """Sum of ``x`` (a pytree) over the processes.  Transposes to `pvary`.

    Example::

        >>> psum({"a": 1.0})
        {'a': Array(1., dtype=float64, weak_type=True)}
    """
    _check_axis_name(axis_name, "psum")
    return tree_map(_c.psum, x)


def pmean(x, axis_name=None):
    """Mean of ``x`` (a pytree) over the processes.

    Example::

        >>> pmean(np.arange(2.0))
        Array([0., 1.], dtype=float64)
    """
    _check_axis_name(axis_name, "pmean")
    n = process_count()
    return tree_map(lambda v: _c.psum(v) / n if n > 1 else _c.psum(v), x)


def pmax(x, axis_name=None):
    """Elementwise maximum over the processes (pytrees).

    Example::

        >>> pmax(np.arange(2.0))
        Array([0., 1.], dtype=float64)
    """
    _check_axis_name(axis_name, "pmax")
    return tree_map(_c.pmax, x)


def pmin(x, axis_name=None):
    """Elementwise minimum over the processes (pytrees).

    Example::

        >>> pmin(np.arange(2.0))
        Array([0., 1.], dtype=float64)
    """
    _check_axis_name(axis_name, "pmin")
    return tree_map(_c.pmin, x)


def pvary(x, axis_name=None):
    """Mark replicated values (a pytree) as used per process; gradients flowing back
    through it are summed over the processes.

    Example::

        >>> pvary(np.ones(2))
        Array([1., 1.], dtype=float64)
    """
    _check_axis_name(axis_name, "pvary")
    return tree_map(_c.pvary, x)


def all_gather(x, axis_name=None, *, axis: int = 0, tiled: bool = False):
    """Every process's ``x`` stacked along ``axis`` (concatenated with ``tiled``).

    Example::

        >>> all_gather(np.arange(2.0)).shape
        (1, 2)
    """
    _check_axis_name(axis_name, "all_gather")
    return tree_map(lambda v: _c.all_gather(v, axis=axis, tiled=tiled), x)


def psum_scatter(x, axis_name=None, *, scatter_dimension: int = 0, tiled: bool = False):
    """Sum over the processes; process i keeps block i of ``scatter_dimension``.

    Example::

        >>> psum_scatter(np.ones((1, 2)))
        Array([1., 1.], dtype=float64)
    """
    _check_axis_name(axis_name, "psum_scatter")
    return tree_map(lambda v: _c.psum_scatter(v, scatter_dimension, tiled), x)


def ppermute(x, axis_name=None, perm=()):
    """Send ``x`` along the (source, destination) pairs ``perm``; others get zeros.

    Example::

        >>> ppermute(np.ones(2), perm=[(0, 0)])
        Array([1., 1.], dtype=float64)
    """
    _check_axis_name(axis_name, "ppermute")
    return tree_map(lambda v: _c.ppermute(v, perm), x)


def broadcast(x, root: int = 0):
    """Process ``root``'s ``x`` (a pytree) on every process.

    Example::

        >>> broadcast(np.ones(2))
        Array([1., 1.], dtype=float64)
    """
    return tree_map(lambda v: _c.broadcast(v, root), x)


def barrier() -> None:
    """Wait for every process.

    Example::

        >>> barrier()
    """
    _c.barrier()


def _bucketed_pvary(params):
    """`pvary` of every leaf through one flat vector per dtype: its transpose is one psum
    per dtype (one all-reduce for all gradients), not one per parameter."""
    leaves, tree = tree_flatten(params)
    by_dtype: dict = {}
    for i, leaf in enumerate(leaves):
        by_dtype.setdefault(np.dtype(fnp.result_type(leaf)), []).append(i)
    out = list(leaves)
    for idx in by_dtype.values():
        if len(idx) == 1:
            out[idx[0]] = _c.pvary(leaves[idx[0]])
            continue
        flat = _c.pvary(fnp.concatenate([fnp.ravel(leaves[i]) for i in idx]))
        # one split (transpose: one concatenate), not a slice per leaf (transpose: a full-size
        # scatter per leaf, which made a bucketed step 5x slower than an unbucketed one)
        pieces = _structural.split(flat, [int(np.prod(fnp.shape(leaves[i]))) for i in idx], 0)
        for i, piece in zip(idx, pieces):
            out[i] = fnp.reshape(piece, fnp.shape(leaves[i]))
    return tree_unflatten(tree, out)


def data_parallel(loss_fn: Callable, *, argnums: int = 0, reduce: str = "mean",
                  bucket: bool = True) -> Callable:
    """``loss_fn`` over a data-parallel world: argument ``argnums`` (the parameters, a
    pytree, replicated) goes through `pvary`; the result through `pmean` (``reduce="sum"``:
    `psum`).  ``grad`` of the returned function is then the gradient of the mean of the
    per-process losses (the full-batch gradient when the shards have equal sizes and
    ``loss_fn`` is a mean), identical on every process; with ``bucket`` all gradients of a
    dtype are summed in one all-reduce.

    Example::

        >>> import fgrad
        >>> f = data_parallel(lambda w, x: (w * x).sum())
        >>> fgrad.grad(f)(np.ones(2), np.arange(2.0))
        Array([0., 1.], dtype=float64)
    """
    if reduce not in ("mean", "sum"):
        raise ValueError(f"data_parallel: reduce must be 'mean' or 'sum', got {reduce!r}")

    def wrapped(*args, **kwargs):
        args = list(args)
        args[argnums] = _bucketed_pvary(args[argnums]) if bucket else pvary(args[argnums])
        out = loss_fn(*args, **kwargs)
        return pmean(out) if reduce == "mean" else psum(out)

    wrapped.__name__ = getattr(loss_fn, "__name__", "loss") + "_data_parallel"
    wrapped.__doc__ = loss_fn.__doc__
    return wrapped


def shard(x, axis: int = 0):
    """This process's contiguous block of ``x`` along ``axis`` (sizes differ by at most one
    when the length is not divisible by the number of processes).

    Example::

        >>> shard(np.arange(4.0)).shape
        (4,)
    """
    n, r = process_count(), process_index()
    length = np.shape(x)[axis]
    base, extra = divmod(length, n)
    start = r * base + min(r, extra)
    stop = start + base + (r < extra)
    index = [slice(None)] * np.ndim(x)
    index[axis] = slice(start, stop)
    return x[tuple(index)]


__all__ = ["initialize", "is_initialized", "shutdown", "process_index", "process_count", "process_indices",
           "host_id", "host_count",
           "psum", "pmean", "pmax", "pmin", "pvary",
           "all_gather", "psum_scatter", "ppermute", "broadcast", "barrier", "data_parallel", "shard",
           "PROCESSES", "CollectiveMismatchError", "CollectiveTimeoutError"]
