"""``jax.experimental.mesh_utils`` for fgrad: device grids for `fgrad.sharding.Mesh`.

fgrad keeps each array whole on one device, so a grid has one device per entry; with
``fgrad.config.update("pmap_any_size", True)`` a larger grid repeats the one device
("virtual devices" whose blocks `fgrad.shard_map` runs vectorized), as `fgrad.make_mesh` does.

Example::

    >>> from fgrad.experimental import mesh_utils
    >>> mesh_utils.create_device_mesh((1, 1)).shape
    (1, 1)
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from .._config import flag
from ..sharding import default_device

__all__ = ["create_device_mesh", "create_hybrid_device_mesh"]


def _grid(shape: tuple[int, ...], devices: Sequence[Any] | None, name: str) -> np.ndarray:
    devices = [default_device()] if devices is None else list(devices)
    size = math.prod(shape)
    if size != len(devices) and not (flag("pmap_any_size") and len(devices) == 1):
        raise ValueError(f"Number of devices {len(devices)} must equal the product of mesh_shape {shape} "
                         f"({name}; fgrad has one device: use sizes of 1, or "
                         "fgrad.config.update('pmap_any_size', True) for virtual devices)")
    grid = np.empty(size, dtype=object)
    grid[:] = devices if len(devices) == size else devices * size
    return grid.reshape(shape)


def create_device_mesh(mesh_shape: Sequence[int], devices: Sequence[Any] | None = None, *,
                       contiguous_submeshes: bool = False, allow_split_physical_axes: bool = False
                       ) -> np.ndarray:
    """An array of devices of shape ``mesh_shape`` (JAX's ``create_device_mesh``).

    Example::

        >>> create_device_mesh((1,))
        array([CpuDevice(id=0)], dtype=object)
    """
    return _grid(tuple(int(n) for n in mesh_shape), devices, "create_device_mesh")


def create_hybrid_device_mesh(mesh_shape: Sequence[int], dcn_mesh_shape: Sequence[int],
                              devices: Sequence[Any] | None = None, *, process_is_granule: bool = False,
                              should_sort_granules_by_key: bool = True,
                              allow_split_physical_axes: bool = False) -> np.ndarray:
    """A grid of shape ``mesh_shape * dcn_mesh_shape`` (per axis) for several hosts (JAX's
    ``create_hybrid_device_mesh``); one process here, so the outer (DCN) sizes must be 1
    unless virtual devices are on.

    Example::

        >>> create_hybrid_device_mesh((1, 1), (1, 1)).shape
        (1, 1)
    """
    if len(mesh_shape) != len(dcn_mesh_shape):
        raise ValueError(f"create_hybrid_device_mesh: mesh_shape {tuple(mesh_shape)} and dcn_mesh_shape "
                         f"{tuple(dcn_mesh_shape)} must have the same length")
    shape = tuple(int(a) * int(b) for a, b in zip(mesh_shape, dcn_mesh_shape))
    return _grid(shape, devices, "create_hybrid_device_mesh")
