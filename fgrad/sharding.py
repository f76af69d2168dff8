"""`fgrad.sharding`: JAX's ``jax.sharding`` names with their single-device meaning.

fgrad keeps every array whole on one device.  A `Mesh` may have only one device (every axis
of size 1), a `NamedSharding` over it places an array whole on that device, and a
`PartitionSpec` is recorded but splits nothing.  Code that names these types (libraries that
annotate or pass ``out_sharding=``) runs; code that needs several devices gets a ValueError
from `make_mesh`/`Mesh` naming the device count.

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> from fgrad.sharding import NamedSharding, PartitionSpec as P
    >>> mesh = fgrad.make_mesh((1,), ("data",))
    >>> s = NamedSharding(mesh, P("data"))
    >>> s.spec, s.num_devices, fgrad.typeof(fnp.zeros(3)).sharding.spec
    (PartitionSpec('data',), 1, PartitionSpec())
"""

from __future__ import annotations

import contextlib
import enum
import math
import threading
from typing import Any, Iterator, Sequence

import numpy as np

from .backends import Device, Sharding, SingleDeviceSharding, default_device
from .core.array import ShapeDtypeStruct

__all__ = ["AbstractMesh", "AxisType", "Mesh", "NamedSharding", "PartitionSpec", "Sharding",
           "SingleDeviceSharding", "get_abstract_mesh", "make_mesh", "set_mesh", "typeof"]


class AxisType(enum.Enum):
    """How a mesh axis is sharded (JAX's ``jax.sharding.AxisType``); recorded only."""

    Auto = enum.auto()
    Explicit = enum.auto()
    Manual = enum.auto()


class PartitionSpec(tuple):
    """Per-dimension mesh-axis names (JAX's ``PartitionSpec``, also ``fgrad.P``); a tuple.

    Example::

        >>> PartitionSpec("data", None)
        PartitionSpec('data', None)
    """

    def __new__(cls, *partitions: Any) -> PartitionSpec:
        return super().__new__(cls, partitions)

    def __repr__(self) -> str:
        return f"PartitionSpec{tuple.__repr__(self)}" if len(self) != 1 else \
            f"PartitionSpec({self[0]!r},)"

    def __reduce__(self):
        return (PartitionSpec, tuple(self))


class AbstractMesh:
    """A mesh's axis names and sizes without devices (JAX's ``AbstractMesh``).

    Example::

        >>> AbstractMesh((1,), ("data",)).shape
        {'data': 1}
    """

    def __init__(self, axis_sizes: Sequence[int], axis_names: Sequence[str],
                 axis_types: Sequence[AxisType] | AxisType | None = None) -> None:
        self.axis_sizes = tuple(int(n) for n in axis_sizes)
        self.axis_names = tuple(axis_names)
        if len(self.axis_sizes) != len(self.axis_names):
            raise ValueError(f"AbstractMesh: {len(self.axis_sizes)} axis sizes but "
                             f"{len(self.axis_names)} axis names")
        if axis_types is None or isinstance(axis_types, AxisType):
            axis_types = (axis_types or AxisType.Auto,) * len(self.axis_names)
        self.axis_types = tuple(axis_types)

    @property
    def shape(self) -> dict[str, int]:
        return dict(zip(self.axis_names, self.axis_sizes))

    @property
    def size(self) -> int:
        return math.prod(self.axis_sizes)

    @property
    def empty(self) -> bool:
        return not self.axis_names

    @property
    def are_all_axes_explicit(self) -> bool:
        return bool(self.axis_types) and all(t == AxisType.Explicit for t in self.axis_types)

    @property
    def are_all_axes_auto(self) -> bool:
        return all(t == AxisType.Auto for t in self.axis_types)

    @property
    def abstract_mesh(self) -> AbstractMesh:
        return AbstractMesh(self.axis_sizes, self.axis_names, self.axis_types)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, AbstractMesh) and self.axis_sizes == other.axis_sizes
                and self.axis_names == other.axis_names and self.axis_types == other.axis_types)

    def __hash__(self) -> int:
        return hash((self.axis_sizes, self.axis_names, self.axis_types))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{n}={s}' for n, s in self.shape.items())})"


class Mesh(AbstractMesh):
    """Devices arranged along named axes (JAX's ``jax.sharding.Mesh``); fgrad's meshes hold one
    device.  A context manager (as in JAX) that makes itself the current mesh.

    Example::

        >>> import fgrad
        >>> Mesh(np.array(fgrad.devices()[:1]).reshape(1, 1), ("x", "y")).shape
        {'x': 1, 'y': 1}
    """

    def __init__(self, devices: Any, axis_names: Sequence[str] | str,
                 axis_types: Sequence[AxisType] | AxisType | None = None) -> None:
        grid = np.asarray(devices, dtype=object)
        names = (axis_names,) if isinstance(axis_names, str) else tuple(axis_names)
        if grid.ndim != len(names):
            raise ValueError(f"Mesh: a {grid.ndim}-d device array with {len(names)} axis names "
                             f"{names}; give one name per dimension")
        if grid.size != 1:
            raise ValueError(
                f"Mesh: fgrad keeps each array whole on one device, so a mesh holds 1 device; "
                f"got {grid.size} (shape {grid.shape}).  Multi-device sharding is not supported "
                "(use fgrad.distributed for data parallelism over processes)")
        super().__init__(grid.shape, names, axis_types)
        self.devices = grid
        self._previous: list = []

    @property
    def device_ids(self) -> np.ndarray:
        return np.vectorize(lambda d: d.id, otypes=[int])(self.devices)

    @property
    def local_devices(self) -> list[Device]:
        return list(self.devices.flat)

    def __enter__(self) -> Mesh:
        self._previous.append(_current.mesh)
        _current.mesh = self
        return self

    def __exit__(self, *exc: Any) -> None:
        _current.mesh = self._previous.pop()


class _CurrentMesh(threading.local):
    mesh: AbstractMesh | None = None


_current = _CurrentMesh()
_EMPTY = AbstractMesh((), ())


def get_abstract_mesh() -> AbstractMesh:
    """The current mesh (set by `set_mesh`) as an `AbstractMesh`; an empty one outside any.

    Example::

        >>> get_abstract_mesh().empty
        True
    """
    mesh = _current.mesh
    return _EMPTY if mesh is None else mesh.abstract_mesh


@contextlib.contextmanager
def set_mesh(mesh: AbstractMesh) -> Iterator[AbstractMesh]:
    """Context manager: ``mesh`` is the current mesh inside (JAX's ``jax.set_mesh``).

    Example::

        >>> import fgrad
        >>> with set_mesh(fgrad.make_mesh((1,), ("data",))):
        ...     get_abstract_mesh().axis_names
        ('data',)
    """
    previous = _current.mesh
    _current.mesh = mesh
    try:
        yield mesh
    finally:
        _current.mesh = previous


def make_mesh(axis_shapes: Sequence[int], axis_names: Sequence[str], axis_types: Any = None, *,
              devices: Sequence[Device] | None = None) -> Mesh:
    """A `Mesh` of the given axis sizes (JAX's ``jax.make_mesh``); every size must be 1, as
    fgrad's meshes hold one device.

    Example::

        >>> make_mesh((1, 1), ("data", "model")).axis_names
        ('data', 'model')
    """
    shape = tuple(int(n) for n in axis_shapes)
    if math.prod(shape) != 1:
        raise ValueError(
            f"make_mesh: axis sizes {shape} need {math.prod(shape)} devices; fgrad keeps each "
            "array whole on one device, so a mesh has 1 device (every axis size 1).  "
            "Multi-device sharding is not supported")
    device = (list(devices) if devices is not None else [default_device()])[0]
    return Mesh(np.array([device], dtype=object).reshape(shape), axis_names, axis_types)


class NamedSharding(Sharding):
    """An array placed over a mesh by a `PartitionSpec` (JAX's ``NamedSharding``); with
    fgrad's one-device meshes the array is whole on that device.

    Example::

        >>> import fgrad
        >>> NamedSharding(fgrad.make_mesh((1,), ("d",)), PartitionSpec()).is_fully_replicated
        True
    """

    def __init__(self, mesh: AbstractMesh, spec: PartitionSpec | None = None, *,
                 memory_kind: str | None = None) -> None:
        self.mesh = mesh
        self.spec = PartitionSpec() if spec is None else PartitionSpec(*spec)
        self.memory_kind = memory_kind or "device"
        for name in (n for entry in self.spec if entry is not None
                     for n in (entry if isinstance(entry, tuple) else (entry,))):
            if name not in mesh.axis_names:
                raise ValueError(f"NamedSharding: the spec {self.spec} names the axis {name!r}, "
                                 f"which the mesh {mesh} does not have")

    @property
    def device_set(self) -> set:
        found = getattr(self.mesh, "devices", None)
        return set(found.flat) if found is not None else {default_device()}

    addressable_devices = device_set

    @property
    def num_devices(self) -> int:
        return 1

    @property
    def is_fully_addressable(self) -> bool:
        return True

    @property
    def is_fully_replicated(self) -> bool:
        return True

    def shard_shape(self, global_shape: Sequence[int]) -> tuple[int, ...]:
        """The shape of one shard: the whole array, as each mesh axis has size 1."""
        return tuple(global_shape)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, NamedSharding) and self.mesh == other.mesh
                and self.spec == other.spec)

    def __hash__(self) -> int:
        return hash((self.mesh, self.spec))

    def __repr__(self) -> str:
        return f"NamedSharding(mesh={self.mesh!r}, spec={self.spec!r})"


def typeof(x: Any) -> ShapeDtypeStruct:
    """The abstract type of ``x`` (JAX's ``jax.typeof``): its shape, dtype, weak type and
    sharding (a `NamedSharding` over the current abstract mesh, with an empty spec).

    Example::

        >>> import fgrad.numpy as fnp
        >>> typeof(fnp.ones((2, 3), "float32"))
        ShapeDtypeStruct(shape=(2, 3), dtype=float32)
    """
    aval = getattr(x, "aval", None)
    if aval is None:
        arr = np.asarray(x) if not hasattr(x, "shape") else x
        shape, dtype, weak = arr.shape, arr.dtype, isinstance(x, (bool, int, float, complex))
    else:
        shape, dtype, weak = aval.shape, aval.dtype, aval.weak_type
    return ShapeDtypeStruct(shape, dtype, weak_type=weak,
                            sharding=NamedSharding(get_abstract_mesh(), PartitionSpec()))
