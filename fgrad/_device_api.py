"""JAX's process- and device-level functions: `device_get`, `block_until_ready`,
`device_put_replicated`/`device_put_sharded` (stacking on one device), `default_backend`,
`devices`, `local_devices`, `local_device_count`, `device_count` (`process_index`/
`process_count` come from `fgrad.distributed`).  fgrad never splits an array over devices,
so the multi-device functions have their single-device meaning.  Under ``mpiexec -n P``
the device counts are JAX's multi-process ones: `devices`/`device_count` list every
process's devices (each process is taken to have the devices this one has, which
`fgrad.distributed.initialize` checks), `local_devices`/`local_device_count` this
process's.

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> fgrad.device_get({"w": fnp.ones(2)})
    {'w': array([1., 1.])}
    >>> fgrad.process_index(), fgrad.process_count()
    (0, 1)
"""

from __future__ import annotations

from typing import Any, Sequence

from . import numpy as fnp
from .backends import Device, default_device, devices as _local_devices, to_host, transfer_guard
from .backends.world import world
from .core.array import ArrayImpl, Tracer
from .core.placement import device_put
from .tree_util import map_arrays as tree_map, tree_leaves

_JAX_PLATFORM = {"cpu": "cpu", "cuda": "gpu", "rocm": "gpu"}


def device_get(x: Any) -> Any:
    """A pytree with every Array replaced by a NumPy array on the host (other leaves as they
    are).

    Example::

        >>> import fgrad.numpy as fnp
        >>> device_get([fnp.arange(2), 3])
        [array([0, 1]), 3]
    """
    def get(leaf):
        if type(leaf) is ArrayImpl:
            if transfer_guard.active:
                leaf._read_on_host("device_get")  # explicit: only the *_explicit levels act
            return to_host(leaf._buf)
        if isinstance(leaf, Tracer):
            return leaf.__array__()  # raises TracerArrayConversionError under jit
        return leaf

    if not transfer_guard.active:
        return tree_map(get, x)
    with transfer_guard.explicit():  # an explicit transfer: only the *_explicit guards act
        return tree_map(get, x)


def copy_to_host_async(x: Any) -> Any:
    """Start copying every Array of the pytree ``x`` to the host (``jax.copy_to_host_async``);
    returns ``x``.  fgrad copies when the host value is read, so this only calls each leaf's
    ``copy_to_host_async`` method where it has one.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> fgrad.copy_to_host_async({"w": fnp.ones(2)})["w"]
        Array([1., 1.], dtype=float64)
    """
    for leaf in tree_leaves(x):
        start = getattr(leaf, "copy_to_host_async", None)
        if start is not None:
            start()
    return x


def block_until_ready(x: Any) -> Any:
    """Wait until every Array in the pytree ``x`` is computed; returns ``x``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> block_until_ready((fnp.ones(2), 1.0))[1]
        1.0
    """
    def wait(leaf):
        ready = getattr(leaf, "block_until_ready", None)
        if ready is not None and not isinstance(leaf, Tracer):
            ready()
        return leaf

    tree_map(wait, x)
    return x


def default_backend() -> str:
    """The platform of the default device, as JAX names it: ``"cpu"`` or ``"gpu"``.

    Example::

        >>> default_backend() in ("cpu", "gpu")
        True
    """
    p = default_device().platform
    return _JAX_PLATFORM.get(p, p)


def _of_process(devs: list, process: int) -> list:
    """``devs`` (this process's) as the devices of process ``process`` (the same kinds)."""
    comm = world()
    if process == comm.rank:
        return devs
    return [Device(d.platform, d.id, d.backend_name, process_index=process) for d in devs]


def devices(backend: str | None = None) -> list:
    """Every process's devices of one platform, in process order (JAX's ``jax.devices``):
    ``backend`` (``"cpu"``, ``"gpu"``/``"cuda"``), by default the default device's platform,
    as in JAX (the GPUs when a GPU is the default device; the CPU otherwise), so a program's
    ``np.array(devices()).reshape(...)`` mesh has the default platform's size.  Under
    ``mpiexec`` the other processes' devices are described, not usable here
    (``d.process_index`` says whose they are).

    Example::

        >>> [str(d) for d in devices("cpu")]
        ['cpu:0']
    """
    platform = {"gpu": "cuda"}.get(backend, backend) if backend is not None else default_device().platform
    mine = _local_devices(platform)
    n = world().size
    if n == 1:
        return mine
    return [d for q in range(n) for d in _of_process(mine, q)]


def local_devices(process_index: int | None = None, backend: str | None = None) -> list:
    """The devices of this process on ``backend`` (``"cpu"``/``"gpu"``), by default those of
    the default device's platform, as in JAX (the GPUs on a GPU machine): the devices
    ``pmap`` maps over.  ``process_index`` names another process (its devices are described
    as this process's kinds).

    Example::

        >>> [str(d) for d in local_devices(backend="cpu")]
        ['cpu:0']
    """
    comm = world()
    if process_index is not None and not 0 <= process_index < comm.size:
        raise ValueError(f"local_devices: process_index {process_index} is not a process index (there "
                         f"{'is one process' if comm.size == 1 else f'are {comm.size} processes'})")
    platform = {"gpu": "cuda"}.get(backend, backend) if backend is not None else default_device().platform
    mine = _local_devices(platform)
    return mine if process_index is None else _of_process(mine, process_index)


def local_device_count(backend: str | None = None) -> int:
    """``len(local_devices(backend=backend))``: this process's devices.

    Example::

        >>> local_device_count() >= 1
        True
    """
    return len(local_devices(backend=backend))


def device_count(backend: str | None = None) -> int:
    """The number of devices of all processes (JAX's ``jax.device_count``): on one process
    the local ones, under ``mpiexec -n P`` ``P * local_device_count()``.

    Example::

        >>> import fgrad
        >>> device_count() == local_device_count() * fgrad.process_count()
        True
    """
    return local_device_count(backend) * world().size


def _stack(shards: Sequence, device):
    return device_put(tree_map(lambda *xs: fnp.stack(xs), *shards), device)


def device_put_replicated(x: Any, devices: Sequence) -> Any:
    """``x`` stacked once per device along a new leading axis, as JAX's (deprecated)
    ``device_put_replicated``; the stack lives on the one device given (fgrad does not
    split arrays over devices, so ``devices`` must name one).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> device_put_replicated(fnp.arange(2.0), fgrad.local_devices()[:1]).shape
        (1, 2)
    """
    devs = _one_device(devices, "device_put_replicated")
    return _stack([x] * len(devices), devs)


def device_put_sharded(shards: Sequence, devices: Sequence) -> Any:
    """The pytrees ``shards`` stacked along a new leading axis, one per device, on the one
    device given (as `device_put_replicated`).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> device_put_sharded([fnp.zeros(2)], fgrad.local_devices()[:1]).shape
        (1, 2)
    """
    devs = _one_device(devices, "device_put_sharded")
    if len(shards) != len(devices):
        raise ValueError(f"device_put_sharded: {len(shards)} shards for {len(devices)} devices")
    return _stack(list(shards), devs)


def _one_device(devs: Sequence, what: str):
    devs = list(devs)
    if not devs:
        raise ValueError(f"{what}: `devices` is empty")
    if any(d != devs[0] for d in devs):
        raise ValueError(f"{what}: fgrad keeps an array on one device; got several: {devs}. "
                         "Pass one device, or move the parts with fgrad.device_put.")
    return devs[0]
