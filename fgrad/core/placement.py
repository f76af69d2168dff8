"""Placement of fgrad Arrays: where an Array (or a tracer over one) lives, and `device_put`,
the one way an Array moves between devices.  It sits in core (above `fgrad.backends`, which
knows only raw buffers)."""

from __future__ import annotations

import numpy as np

from ..backends import transfer_guard
from ..backends import (_BY_TYPE, NUMPY, Backend, Device, Sharding, SingleDeviceSharding, backend_of_buffer,
                        parse_device, put_buffer)
from ..tree_util import map_arrays as tree_map
from . import sharding_flow
from .array import ArrayImpl, Tracer, wrap


def backend_of(x) -> Backend | None:
    """The backend of an fgrad Array / tracer / raw buffer when it is known concretely:
    a tracer is followed to the concrete value it wraps (a JVP primal, a batched value);
    None for purely abstract tracers (inside jit) and Python scalars."""
    p = placement_of(x)
    return None if p is None else p[0]


def placement_of(x):
    """``(backend, device)`` of an fgrad Array, a raw buffer, or a tracer that wraps a
    concrete value (followed through ``.primal`` / ``.val``); None when unknown (abstract
    tracers, Python scalars)."""
    for _ in range(64):
        if type(x) is ArrayImpl:
            b = x._buf
            be = _BY_TYPE.get(type(b)) or backend_of_buffer(b)
            return be, be.device_of(b)
        if not isinstance(x, Tracer):
            break
        for attr in ("primal", "val"):
            y = getattr(x, attr, _MISSING)
            if y is not _MISSING:
                x = y
                break
        else:
            return None
    if hasattr(x, "shape") and hasattr(x, "dtype") and not isinstance(x, (int, float, complex, bool)):
        be = backend_of_buffer(x)
        return be, be.device_of(x)
    return None


_MISSING = object()


def device_put(x, device=None):
    """``x`` (an Array, NumPy/cupy array, scalar, or a pytree of them) on ``device``:
    ``"cpu"``, ``"cuda"``, ``"cuda:1"``, an `fgrad.Device`, a sharding (`SingleDeviceSharding`,
    or a `NamedSharding` over a one-device mesh, which the result records as its
    ``.sharding``), or None for the default device.
    An Array already there is returned as is; otherwise the data is copied.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> x = fgrad.device_put(fnp.arange(3.0), "cpu")
        >>> str(x.device)
        'cpu:0'
    """
    sharding = None
    if isinstance(device, Sharding) and not isinstance(device, SingleDeviceSharding):
        # a NamedSharding over a one-device mesh: the array goes whole to that device, and
        # records the sharding (``x.sharding``), as JAX's device_put(x, NamedSharding(...))
        devices = list(device.device_set)
        if len(devices) != 1:
            raise ValueError(f"fgrad.device_put: the sharding {device} spans {len(devices)} devices; fgrad "
                             "keeps each array whole on one device")
        sharding, device = device, devices[0]
    elif isinstance(device, SingleDeviceSharding):
        device = device.device
    dev = parse_device(device)

    def put(leaf):
        if sharding is not None and isinstance(leaf, Tracer):
            return leaf  # inside a transform a sharding only constrains (one device: nothing to do)
        out = _put_leaf(leaf, dev)
        if sharding is not None:
            sharding_flow.mark_live()  # results of operations on it follow `core.sharding_flow`
            return out.with_sharding(sharding)
        if type(out) is ArrayImpl and getattr(out, "_sharding", None) is not None:
            return wrap(out._buf, out._weak)  # placed on a device: no longer over a mesh
        return out

    if not transfer_guard.active:
        return tree_map(put, x)
    with transfer_guard.explicit():  # an explicit transfer: only the *_explicit guards act
        return tree_map(put, x)


def _put_leaf(x, dev: Device):
    if type(x) is ArrayImpl:
        b = x._buf
        out = put_buffer(b, dev)
        return x if out is b else wrap(out)
    if isinstance(x, Tracer):
        be = backend_of(x)
        if be is not None and _device_of_traced(x, be) == dev:
            return x
        where = "an abstract value (inside jit)" if be is None else f"a value on {_device_of_traced(x, be)}"
        raise TypeError(
            f"fgrad.device_put(..., {str(dev)!r}) got a traced value ({x.aval.str_short()}): {where}. "
            "Moving data between devices inside grad/vmap/jit is not supported; put the inputs on "
            "the device before calling the transformed function."
        )
    if hasattr(x, "shape") and hasattr(x, "dtype") and not isinstance(x, (np.ndarray, np.generic)):
        return wrap(put_buffer(x, dev))  # a raw device buffer (cupy array)
    host = np.array(x, copy=True)
    if host.dtype == object:
        raise TypeError(f"fgrad.device_put: cannot convert {type(x).__name__} to an array")
    be = dev.backend
    if transfer_guard.active:
        transfer_guard.check("host_to_device", f"{host.dtype}{list(host.shape)} to {dev}")
    return wrap(host if be is NUMPY else be.from_host(host, dev))


def _device_of_traced(x, be):
    y = x
    for _ in range(64):
        if type(y) is ArrayImpl:
            return be.device_of(y._buf)
        y = getattr(y, "primal", None) if hasattr(y, "primal") else getattr(y, "val", None)
        if y is None:
            break
    return be.current_device()


__all__ = ["backend_of", "device_put", "placement_of"]
