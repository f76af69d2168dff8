"""`fgrad.sharding`: JAX's ``jax.sharding`` names with their single-device meaning.

fgrad keeps every array whole on one device.  A `Mesh` may have only one device (every axis
of size 1), a `NamedSharding` over it places an array whole on that device, and a
`PartitionSpec` is recorded but splits nothing.  Code that names these types (libraries that
annotate or pass ``out_sharding=``) runs; code that needs several devices gets a ValueError
from `make_mesh`/`Mesh` naming the device count, or, with the option ``pmap_any_size``, a
mesh of virtual devices for `fgrad.shard_map` (docs/shard-map-and-refs.md).

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> from fgrad.sharding import NamedSharding, PartitionSpec as P
    >>> mesh = fgrad.make_mesh((1,), ("data",))
    >>> s = NamedSharding(mesh, P("data"))
    >>> s.spec, s.num_devices, fgrad.typeof(fnp.zeros(3)).sharding.spec
    (P('data',), 1, P())
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import enum
import math
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from ._config import flag
from .backends import Device, Sharding, SingleDeviceSharding, default_device
from .core.array import ShapedArray
from .core import sharding_flow
from .core.placement import device_put

__all__ = ["AbstractDevice", "make_single_device_sharding",
           "AbstractMesh", "AxisType", "Mesh", "NamedSharding", "PartitionSpec", "Sharding",
           "SingleDeviceSharding", "auto_axes", "explicit_axes", "get_abstract_mesh", "get_mesh",
           "make_array_from_callback", "make_array_from_process_local_data",
           "make_array_from_single_device_arrays", "make_mesh", "reshard", "set_mesh", "typeof",
           "use_abstract_mesh"]


class AxisType(enum.Enum):
    """How a mesh axis is sharded (JAX's ``jax.sharding.AxisType``); recorded only.

    Example::

        >>> import fgrad
        >>> [t.name for t in fgrad.sharding.AxisType]
        ['Auto', 'Explicit', 'Manual']
    """

    Auto = enum.auto()
    Explicit = enum.auto()
    Manual = enum.auto()

    def __repr__(self) -> str:  # JAX's: the bare name, as in ``axis_types=(Explicit,)``
        return self.name


class PartitionSpec(tuple):
    """Per-dimension mesh-axis names (JAX's ``PartitionSpec``, also ``fgrad.P``); a tuple.

    Example::

        >>> PartitionSpec("data", None)
        P('data', None)
    """

    def __new__(cls, *partitions: Any) -> PartitionSpec:
        return super().__new__(cls, partitions)

    def __repr__(self) -> str:  # JAX's: P('x',), P(), P(('x', 'y'),)
        return f"P{tuple.__repr__(self)}"

    def __reduce__(self):
        return (PartitionSpec, tuple(self))


class AbstractMesh:
    """A mesh's axis names and sizes without devices (JAX's ``AbstractMesh``).

    Example::

        >>> dict(AbstractMesh((1,), ("data",)).shape)  # an OrderedDict, as JAX's
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
    def shape(self) -> collections.OrderedDict[str, int]:
        """Axis name -> size, an OrderedDict as JAX's (``OrderedDict([('x', 1)])`` prints)."""
        return collections.OrderedDict(zip(self.axis_names, self.axis_sizes))

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

    def __str__(self) -> str:  # JAX's: Mesh('x': 1, 'y': 1, axis_types=(Explicit, Explicit))
        sizes = ", ".join(f"{n!r}: {s}" for n, s in self.shape.items())
        return f"{type(self).__name__}({sizes}, axis_types={tuple(self.axis_types)!r})"

    __repr__ = __str__


class Mesh(AbstractMesh):
    """Devices arranged along named axes (JAX's ``jax.sharding.Mesh``); fgrad's meshes hold one
    device.  A context manager (as in JAX) that makes itself the current mesh.

    Example::

        >>> import fgrad
        >>> dict(Mesh(np.array(fgrad.devices()[:1]).reshape(1, 1), ("x", "y")).shape)
        {'x': 1, 'y': 1}
    """

    def __init__(self, devices: Any, axis_names: Sequence[str] | str,
                 axis_types: Sequence[AxisType] | AxisType | None = None) -> None:
        grid = np.asarray(devices, dtype=object)
        names = (axis_names,) if isinstance(axis_names, str) else tuple(axis_names)
        if grid.ndim != len(names):
            raise ValueError(f"Mesh: a {grid.ndim}-d device array with {len(names)} axis names "
                             f"{names}; give one name per dimension")
        if grid.size != 1 and not flag("pmap_any_size"):
            raise ValueError(
                f"Mesh: fgrad keeps each array whole on one device, so a mesh holds 1 device; "
                f"got {grid.size} (shape {grid.shape}).  Multi-device sharding is not supported "
                "(use fgrad.distributed for data parallelism over processes); "
                "fgrad.config.update('pmap_any_size', True) allows larger meshes of virtual devices "
                "for fgrad.shard_map (its blocks run vectorized on one device)")
        super().__init__(grid.shape, names, axis_types)
        self.devices = grid
        self._previous: list = []

    def __repr__(self) -> str:  # JAX's (its str is the short form, which NamedSharding shows)
        return (f"Mesh(axis_sizes={self.axis_sizes}, axis_names={self.axis_names!r}, "
                f"axis_types={tuple(self.axis_types)!r})")

    @property
    def device_ids(self) -> np.ndarray:
        return np.vectorize(lambda d: d.id, otypes=[int])(self.devices)

    @property
    def local_devices(self) -> list[Device]:
        return list(self.devices.flat)

    def __enter__(self) -> Mesh:
        self._previous.append(_current.mesh)
        _current.mesh = self
        sharding_flow.mark_live()
        return self

    def __exit__(self, *exc: Any) -> None:
        _current.mesh = self._previous.pop()


_current = sharding_flow.current  # the mesh `set_mesh` made current (one per thread)
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
    sharding_flow.mark_live()  # results inside are replicated over the mesh (`core.sharding_flow`)
    try:
        yield mesh
    finally:
        _current.mesh = previous


def get_mesh() -> AbstractMesh:
    """The current concrete mesh (set by `set_mesh`; an empty mesh outside any), JAX's
    ``jax.sharding.get_mesh``; like JAX, it raises ValueError under a trace.

    Example::

        >>> import fgrad
        >>> with set_mesh(fgrad.make_mesh((1,), ("data",))):
        ...     get_mesh().axis_names
        ('data',)
    """
    from .core.trace import EVAL_TRACE, state
    if state.trace is not EVAL_TRACE:
        raise ValueError("`get_mesh` can only be used outside of `jax.jit`. Maybe you want "
                         "`jax.sharding.get_abstract_mesh()`?")
    mesh = _current.mesh
    return mesh if isinstance(mesh, Mesh) else _EMPTY


@contextlib.contextmanager
def use_abstract_mesh(mesh: AbstractMesh) -> Iterator[AbstractMesh]:
    """Context manager: ``mesh`` (abstract) is the current mesh inside, for tracing
    (JAX's ``jax.sharding.use_abstract_mesh``).

    Example::

        >>> import fgrad
        >>> with use_abstract_mesh(fgrad.make_mesh((1,), ("d",)).abstract_mesh):
        ...     get_abstract_mesh().axis_names
        ('d',)
    """
    with set_mesh(mesh.abstract_mesh if isinstance(mesh, Mesh) else mesh) as m:
        yield m


def reshard(xs: Any, out_shardings: Any) -> Any:
    """``xs`` laid out as ``out_shardings`` (JAX's ``jax.sharding.reshard``): the same values,
    since fgrad keeps each array whole on one device.  As in JAX, a ``None`` sharding and a
    ``PartitionSpec`` outside a mesh context raise ValueError.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> with set_mesh(fgrad.make_mesh((1,), ("d",))):
        ...     reshard(fnp.ones(2), PartitionSpec("d"))
        Array([1., 1.], dtype=float64)
    """
    from .tree_util import tree_leaves
    specs = out_shardings if isinstance(out_shardings, (list, tuple)) and not isinstance(
        out_shardings, PartitionSpec) else [out_shardings]
    for s in tree_leaves(specs, is_leaf=lambda v: v is None or isinstance(v, (PartitionSpec, Sharding))):
        if s is None:
            raise ValueError("Reshard should only be used with out_shardings which are non-None and have "
                             "a non-empty mesh. Got sharding None.")
        if isinstance(s, PartitionSpec) and get_abstract_mesh().empty:
            raise ValueError("Using PartitionSpec when you are not under a mesh context is not allowed. "
                             "Please pass a NamedSharding instance or enter into a mesh context via "
                             f"`jax.set_mesh`. Got {s!r}")
    return xs


def _axes_scope(f: Callable | None) -> Callable:
    """``f`` called as it is (a decorator when ``f`` is None): one device has no axes to mode."""
    def wrap(g: Callable) -> Callable:
        import functools

        @functools.wraps(g)
        def call(*args: Any, **kwargs: Any) -> Any:
            return g(*args, **kwargs)
        return call
    return wrap if f is None else wrap(f)


def auto_axes(f: Callable | None = None, /, *, axes: str | tuple[str, ...] | None = None,
              out_sharding: Any = None) -> Callable:
    """``f`` with mesh ``axes`` in auto mode and its result resharded to ``out_sharding``
    (JAX's ``jax.sharding.auto_axes``, also a decorator): on fgrad's one device, ``f`` itself.

    Example::

        >>> import fgrad.numpy as fnp
        >>> auto_axes(lambda x: x * 2, out_sharding=PartitionSpec())(fnp.ones(2))
        Array([2., 2.], dtype=float64)
    """
    return _axes_scope(f)


def explicit_axes(f: Callable | None = None, /, *, axes: str | tuple[str, ...] | None = None,
                  in_sharding: Any = None) -> Callable:
    """``f`` with mesh ``axes`` in explicit mode, its arguments resharded to ``in_sharding``
    (JAX's ``jax.sharding.explicit_axes``, also a decorator): on fgrad's one device, ``f``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> explicit_axes(lambda x: x + 1)(fnp.zeros(2))
        Array([1., 1.], dtype=float64)
    """
    return _axes_scope(f)


def make_mesh(axis_shapes: Sequence[int], axis_names: Sequence[str], axis_types: Any = None, *,
              devices: Sequence[Device] | None = None) -> Mesh:
    """A `Mesh` of the given axis sizes (JAX's ``jax.make_mesh``); every size must be 1, as
    fgrad's meshes hold one device -- unless ``fgrad.config.update("pmap_any_size", True)``:
    then any sizes, the grid filled with the one device ("virtual devices" whose blocks
    `fgrad.shard_map` runs vectorized).

    Example::

        >>> make_mesh((1, 1), ("data", "model")).axis_names
        ('data', 'model')
    """
    shape = tuple(int(n) for n in axis_shapes)
    if math.prod(shape) != 1 and not flag("pmap_any_size"):
        raise ValueError(
            f"make_mesh: axis sizes {shape} need {math.prod(shape)} devices; fgrad keeps each "
            "array whole on one device, so a mesh has 1 device (every axis size 1).  "
            "Multi-device sharding is not supported; fgrad.config.update('pmap_any_size', True) "
            "makes meshes of any size from virtual devices for fgrad.shard_map (as pmap)")
    device = (list(devices) if devices is not None else [default_device()])[0]
    grid = np.empty(math.prod(shape), dtype=object)
    grid[:] = [device] * grid.size  # virtual devices: the one device, repeated
    # JAX's default: every axis Explicit (`Mesh` itself defaults to Auto)
    return Mesh(grid.reshape(shape), axis_names, AxisType.Explicit if axis_types is None else axis_types)


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

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, NamedSharding) and self.mesh == other.mesh
                and self.spec == other.spec)

    def __hash__(self) -> int:
        return hash((self.mesh, self.spec))

    def __repr__(self) -> str:
        return f"NamedSharding(mesh={self.mesh}, spec={self.spec!r}, memory_kind={self.memory_kind})"


def _one_device(sharding: Any, what: str) -> Device:
    """The device of a single-device sharding (fgrad's shardings, or any object with a
    ``device_set``; a `Device` is accepted too)."""
    if isinstance(sharding, Device):
        return sharding
    devs = getattr(sharding, "device_set", None)
    if devs is None:
        raise TypeError(f"{what}: expected a Sharding (e.g. fgrad.sharding.SingleDeviceSharding or a "
                        f"NamedSharding over fgrad.make_mesh), got {type(sharding).__name__}")
    devs = list(devs)
    if len(devs) != 1:
        raise ValueError(f"{what}: the sharding {sharding} spans {len(devs)} devices; fgrad keeps each "
                         "array whole on one device")
    return devs[0]


def _check_shape(what: str, expected: tuple, got: tuple, sharding: Any, dtype) -> None:
    if tuple(expected) != tuple(got):
        raise ValueError(f"{what}: expected shard shape {tuple(expected)} doesn't match the single device "
                         f"array shape {tuple(got)}. Shape of Array is {np.dtype(dtype).name}"
                         f"{list(expected)} with sharding {sharding}")


def make_array_from_callback(shape: Sequence[int], sharding: Any, data_callback: Callable[[Any], Any],
                             dtype: Any = None):
    """An Array of ``shape`` placed by ``sharding``, its data from ``data_callback(index)``
    called once per addressable shard with the shard's index (a tuple of slices): with
    fgrad's single-device shardings, once, for the whole array (JAX's
    ``jax.make_array_from_callback``).

    Example::

        >>> import numpy as np, fgrad
        >>> from fgrad.sharding import SingleDeviceSharding
        >>> data = np.arange(6.0).reshape(2, 3)
        >>> fgrad.make_array_from_callback((2, 3), SingleDeviceSharding(fgrad.devices()[0]),
        ...                                lambda index: data[index])
        Array([[0., 1., 2.],
               [3., 4., 5.]], dtype=float64)
    """
    device = _one_device(sharding, "make_array_from_callback")
    shape = tuple(int(n) for n in shape)
    index = (slice(None),) * len(shape)
    out = device_put(data_callback(index), device)
    if dtype is not None and out.dtype != np.dtype(dtype):
        out = out.astype(dtype)
    _check_shape("make_array_from_callback", shape, out.shape, sharding, out.dtype)
    return out


def make_array_from_single_device_arrays(shape: Sequence[int], sharding: Any, arrays: Sequence[Any], *,
                                         dtype: Any = None):
    """An Array of ``shape`` from its per-device pieces ``arrays`` (JAX's
    ``jax.make_array_from_single_device_arrays``): with fgrad's single-device shardings,
    one piece, the whole array, placed on the sharding's device.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> from fgrad.sharding import SingleDeviceSharding
        >>> fgrad.make_array_from_single_device_arrays((2,), SingleDeviceSharding(fgrad.devices()[0]),
        ...                                            [fnp.ones(2)])
        Array([1., 1.], dtype=float64)
    """
    device = _one_device(sharding, "make_array_from_single_device_arrays")
    arrays = list(arrays)
    if len(arrays) != 1:
        raise ValueError(f"make_array_from_single_device_arrays: the sharding {sharding} has 1 device, "
                         f"but {len(arrays)} arrays were given")
    out = device_put(arrays[0], device)
    if dtype is not None and out.dtype != np.dtype(dtype):
        raise ValueError(f"make_array_from_single_device_arrays: dtype={np.dtype(dtype)} but the array "
                         f"has dtype {out.dtype}")
    _check_shape("make_array_from_single_device_arrays", tuple(shape), out.shape, sharding, out.dtype)
    return out


def make_array_from_process_local_data(sharding: Any, local_data: Any,
                                       global_shape: Sequence[int] | None = None):
    """An Array from this process's data (JAX's ``jax.make_array_from_process_local_data``):
    on one process the local data is the whole array, placed by ``sharding``;
    ``global_shape`` must be None or its shape.

    Example::

        >>> import numpy as np, fgrad
        >>> from fgrad.sharding import SingleDeviceSharding
        >>> fgrad.make_array_from_process_local_data(SingleDeviceSharding(fgrad.devices()[0]), np.ones(3))
        Array([1., 1., 1.], dtype=float64)
    """
    device = _one_device(sharding, "make_array_from_process_local_data")
    out = device_put(local_data, device)
    if global_shape is not None and tuple(global_shape) != tuple(out.shape):
        raise ValueError(
            "When calling `make_array_from_process_local_data` on a single process, global_shape "
            f"should be None or equal to local_data.shape. Got global_shape={tuple(global_shape)} and "
            f"local_data.shape={tuple(out.shape)}.")
    return out


@dataclasses.dataclass(frozen=True)
class AbstractDevice:
    """A device described by its kind, core count and platform, without the device itself
    (JAX's ``jax.sharding.AbstractDevice``, which abstract meshes may hold).

    Example::

        >>> AbstractDevice(device_kind="cpu", num_cores=None, platform="cpu")
        AbstractDevice(device_kind=cpu, num_cores=None, platform=cpu)
    """

    device_kind: str
    num_cores: int | None
    platform: str

    def __repr__(self) -> str:
        return (f"AbstractDevice(device_kind={self.device_kind}, num_cores={self.num_cores}, "
                f"platform={self.platform})")


def make_single_device_sharding(device: Device, *, memory_kind: str | None = None) -> SingleDeviceSharding:
    """The sharding that places a whole array on ``device`` (JAX's
    ``jax.sharding.make_single_device_sharding``).

    Example::

        >>> import fgrad
        >>> make_single_device_sharding(fgrad.devices()[0]).device_set == {fgrad.devices()[0]}
        True
    """
    if not isinstance(device, Device):
        raise TypeError(f"make_single_device_sharding: expected a device (fgrad.devices()[i]), got "
                        f"{type(device).__name__}")
    return SingleDeviceSharding(device, memory_kind=memory_kind)


class _TypedAval(ShapedArray):
    """What `typeof` returns: a `ShapedArray` (``float32[2,3]`` as text, as JAX's) that also
    carries the value's ``sharding``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> t = typeof(fnp.ones(2))
        >>> str(t), t.sharding.spec
        ('float64[2]', P())
    """

    __slots__ = ("sharding",)

    def __init__(self, shape: Sequence[int], dtype: Any, weak_type: bool, sharding: Sharding) -> None:
        super().__init__(shape, dtype, weak_type)
        self.sharding = sharding


def typeof(x: Any) -> _TypedAval:
    """The abstract type of ``x`` (JAX's ``jax.typeof``): a `ShapedArray` -- shape, dtype,
    weak type -- with its sharding (a `NamedSharding` over the current abstract mesh, with an
    empty spec).

    Example::

        >>> import fgrad.numpy as fnp
        >>> typeof(fnp.ones((2, 3), "float32"))
        ShapedArray(float32[2,3])
    """
    aval = getattr(x, "aval", None)
    if aval is None:
        arr = np.asarray(x) if not hasattr(x, "shape") else x
        shape, dtype, weak = arr.shape, arr.dtype, isinstance(x, (bool, int, float, complex))
    else:
        shape, dtype, weak = aval.shape, aval.dtype, aval.weak_type
    return _TypedAval(shape, dtype, weak, NamedSharding(get_abstract_mesh(), PartitionSpec()))


def _named(mesh: AbstractMesh, entries: tuple) -> NamedSharding:
    return NamedSharding(mesh, PartitionSpec(*entries))


sharding_flow.named = _named
