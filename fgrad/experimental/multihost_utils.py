"""`fgrad.experimental.multihost_utils`: JAX's helpers for programs that run on several
processes (``jax.experimental.multihost_utils``), over fgrad's process world (MPI).

* `process_allgather(tree, tiled=False)`: every process's leaves, stacked (or concatenated).
* `broadcast_one_to_all(tree, is_source=None)`: the source process's leaves everywhere.
* `sync_global_devices(name)`: a barrier that also checks every process passed the same name.
* `assert_equal(tree, fail_message="")`: raise `AssertionError` unless every process holds
  the same values.

All take pytrees and return NumPy arrays (as JAX's).  On one process they gather or return
the process's own values.  Leaves whose shape or dtype differ between processes raise
`CollectiveMismatchError` (a ``RuntimeError``) on every process instead of hanging.

Example::

    >>> import numpy as np
    >>> from fgrad.experimental import multihost_utils
    >>> multihost_utils.process_allgather({"a": np.arange(2.0)})   # one process
    {'a': array([[0., 1.]])}
    >>> multihost_utils.sync_global_devices("step 1")
"""

from __future__ import annotations

import contextlib
import zlib
from typing import Any, Iterator

import numpy as np

from .._device_api import device_get
from ..backends import world as _world
from ..tree_util import tree_flatten, tree_map, tree_unflatten


def _host(leaf) -> np.ndarray:
    return np.asarray(device_get(leaf))


def _all_gather_host(x: np.ndarray, tiled: bool) -> np.ndarray:
    comm = _world.world()
    stacked = comm.allgather(np.asarray(x, order="C"))
    if x.ndim == 0 or not tiled:
        return stacked
    return stacked.reshape((-1,) + x.shape[1:])


def process_allgather(in_tree: Any, tiled: bool = False) -> Any:
    """Every process's value of each leaf of ``in_tree`` (leaves must have one shape on all
    processes), stacked along a new leading axis in process order, or concatenated along
    axis 0 with ``tiled`` (scalars are always stacked).  Returns NumPy arrays.

    Example::

        >>> process_allgather(np.arange(3), tiled=True)
        array([0, 1, 2])
    """
    return tree_map(lambda leaf: _all_gather_host(_host(leaf), tiled), in_tree)


def broadcast_one_to_all(in_tree: Any, is_source: bool | None = None) -> Any:
    """The leaves of ``in_tree`` on the source process (process 0 unless ``is_source`` says
    otherwise) on every process, as NumPy arrays; every process passes leaves of the same
    shapes.  Exactly one process may be the source: JAX sums the sources' values when
    several say so (and gives zeros when none does); fgrad raises `ValueError` instead.

    Example::

        >>> broadcast_one_to_all({"step": np.int32(3)})
        {'step': array(3, dtype=int32)}
    """
    comm = _world.world()
    if comm.size == 1:
        return tree_map(_host, in_tree)
    mine = comm.rank == 0 if is_source is None else bool(is_source)
    flags = comm.allgather(np.array(mine, np.bool_))
    sources = [int(r) for r in np.flatnonzero(flags)]
    if len(sources) != 1:
        who = f"processes {sources} passed" if sources else "no process passed"
        raise ValueError(f"broadcast_one_to_all: exactly one process must be the source; {who} "
                         "is_source=True (or leave is_source=None: process 0)")
    root = sources[0]
    return tree_map(lambda leaf: comm.broadcast(np.asarray(_host(leaf), order="C"), root), in_tree)


def assert_equal(in_tree: Any, fail_message: str = "") -> None:
    """Raise `AssertionError` (on every process) unless every process holds the same
    values of ``in_tree``'s leaves.

    Example::

        >>> assert_equal({"lr": 0.1, "seed": np.arange(2)})
    """
    leaves, treedef = tree_flatten(in_tree)
    same_structure = _agree(zlib.crc32(str(treedef).encode()))
    if not same_structure:
        raise AssertionError(f"{fail_message}. The processes hold pytrees of different structures; this "
                             f"process: {treedef}.")
    gathered = [_all_gather_host(_host(leaf), tiled=True) for leaf in leaves]
    ok = True
    for leaf, got in zip(leaves, gathered):
        mine = np.atleast_1d(_host(leaf))
        ok = ok and bool(np.all(np.equal(np.concatenate([mine] * _world.world().size), got)))
    if not ok:
        out = tree_unflatten(treedef, gathered)
        raise AssertionError(f"{fail_message}. Expected: {out}; got: {in_tree}.")


def _agree(value: int) -> bool:
    """Whether every process passed the same 32-bit ``value``."""
    comm = _world.world()
    if comm.size == 1:
        return True
    both = comm.allreduce(np.array([value, -value], np.int64), "max")
    return bool(both[0] == value and both[1] == -value)


def sync_global_devices(name: str) -> None:
    """A barrier across all processes; raises `AssertionError` when they passed different
    names (as JAX's).

    Example::

        >>> sync_global_devices("checkpoint saved")
    """
    h = np.uint32(zlib.crc32(name.encode()))
    assert_equal(h, f"sync_global_devices name mismatch ('{name}')")


def reached_preemption_sync_point(step_id: int) -> bool:
    """Always False: fgrad's MPI world has no preemption notice service (JAX's returns False
    too when its distributed client is not running).

    Example::

        >>> reached_preemption_sync_point(10)
        False
    """
    return False


def _one_process(what: str) -> None:
    if _world.world().size != 1:
        raise NotImplementedError(
            f"{what} on {_world.world().size} processes: fgrad keeps each array whole on every "
            "process (no global arrays split across processes); use process_allgather")


def host_local_array_to_global_array(local_inputs: Any, global_mesh: Any, pspecs: Any) -> Any:
    """Host-local data as global arrays sharded over ``global_mesh`` by ``pspecs`` (JAX's).
    On one process the global array is the host-local one: the leaves as fgrad arrays.  Several
    processes raise NotImplementedError (fgrad has no array split across processes).

    Example::

        >>> import numpy as np, fgrad
        >>> from fgrad.experimental import multihost_utils
        >>> mesh = fgrad.sharding.Mesh(fgrad.devices()[:1], ("x",))
        >>> multihost_utils.host_local_array_to_global_array(np.arange(4.0), mesh,
        ...                                                  fgrad.sharding.PartitionSpec("x"))
        Array([0., 1., 2., 3.], dtype=float64)
    """
    _one_process("host_local_array_to_global_array")
    from ..numpy import asarray

    return tree_map(asarray, local_inputs)


def global_array_to_host_local_array(global_inputs: Any, global_mesh: Any, pspecs: Any) -> Any:
    """The process-local part of global arrays (JAX's); on one process, the arrays themselves.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> from fgrad.experimental import multihost_utils
        >>> mesh = fgrad.sharding.Mesh(fgrad.devices()[:1], ("x",))
        >>> P = fgrad.sharding.PartitionSpec
        >>> multihost_utils.global_array_to_host_local_array(fnp.ones(2), mesh, P())
        Array([1., 1.], dtype=float64)
    """
    _one_process("global_array_to_host_local_array")
    from ..numpy import asarray

    return tree_map(asarray, global_inputs)


@contextlib.contextmanager
def live_devices(devices: list) -> Iterator[list]:
    """Run a block on the devices that are alive (JAX's fault-tolerance context manager, "under
    active development" there).  fgrad's devices of this process do not fail separately: it
    yields ``devices``.

    Example::

        >>> import fgrad
        >>> from fgrad.experimental import multihost_utils
        >>> with multihost_utils.live_devices(fgrad.devices()) as alive:
        ...     len(alive) == len(fgrad.devices())
        True
    """
    yield list(devices)


__all__ = ["process_allgather", "broadcast_one_to_all", "assert_equal", "sync_global_devices",
           "reached_preemption_sync_point", "host_local_array_to_global_array",
           "global_array_to_host_local_array", "live_devices"]
