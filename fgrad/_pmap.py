"""`pmap`: JAX's ``jax.pmap`` on one host.

``pmap(f, axis_name="i")(xs)`` maps ``f`` over the leading axis of ``xs`` (``in_axes``),
one slice per local device, with the collectives of `fgrad.lax` (``psum``, ``pmean``,
``all_gather``, ``ppermute``, ``axis_index``, ...) over ``axis_name``.  fgrad runs the whole
map as one vectorized, jit-compiled program (``jit(vmap(f, axis_name=...))``) on the default
device, and returns an ordinary Array: values, derivatives and collectives are those of
JAX's ``pmap``, the placement is not sharded.

Under ``mpiexec -n P`` (fgrad's process world, `fgrad.distributed`) the map is JAX's
multi-process ``pmap``: each process maps its own ``L`` local slices, and the named axis is
global -- ``P * L`` entries, process ``r`` holding entries ``r * L`` to ``r * L + L - 1`` --
so ``lax.psum(x, "i")`` sums every process's slices, ``lax.axis_index("i")`` is the global
index and ``lax.psum(1, "i")`` is ``P * L``.  The local part of each collective runs as on
one process, the cross-process part through the process collectives of
`fgrad.ops.collectives` (MPI).  Every process must map the same number of slices (checked on
each call: ``ValueError`` naming both sides).

As in JAX the mapped axis may not be longer than the number of devices (``ValueError``);
``fgrad.config.update("pmap_any_size", True)`` lifts that limit (fgrad's option: the map
then runs any number of "virtual devices" on the one device, like JAX's
``--xla_force_host_platform_device_count``), which lets multi-device code run on a laptop.

Example::

    >>> import fgrad, fgrad.lax as lax, fgrad.numpy as fnp
    >>> n = fgrad.local_device_count()
    >>> fgrad.pmap(lambda x: x / lax.psum(x, "i"), axis_name="i")(fnp.ones((n, 2)))
    Array([[1., 1.]], dtype=float64)
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Sequence

import numpy as np

from ._config import flag
from .backends.world import world
from ._device_api import local_devices
from .core.array import get_aval
from .core.trace import state
from .transforms.batching import BatchTrace, vmap_on_axis
from .transforms.jit import jit
from .tree_util import flatten_prefix, flatten_arrays as tree_flatten

__all__ = ["pmap"]


def _as_tuple(nums: int | Sequence[int], what: str) -> tuple:
    t = (nums,) if isinstance(nums, int) else tuple(nums)
    if any(not isinstance(i, int) for i in t):
        raise TypeError(f"pmap: {what} must be ints, got {nums!r}")
    return t


def _mapped_size(args: tuple, in_axes: Any) -> int:
    flat, _ = tree_flatten(args)
    axes = [in_axes] * len(flat) if isinstance(in_axes, int) or in_axes is None else \
        flatten_prefix(in_axes, args, "pmap in_axes")
    sizes = set()
    for x, ax in zip(flat, axes):
        if ax is None:
            continue
        shape = get_aval(x).shape
        if not -len(shape) <= ax < len(shape) or not shape:
            raise ValueError(f"pmap was requested to map its argument along axis {ax}, which implies that "
                             f"its rank should be at least {max(ax + 1, -ax)}, but is only {len(shape)} "
                             f"(its shape is {shape})")
        sizes.add(shape[ax])
    if not sizes:
        raise ValueError("pmap requires at least one argument with a mapped axis.")
    if len(sizes) > 1:
        raise ValueError(f"pmap got inconsistent sizes for array axes to be mapped: {sorted(sizes)}")
    return sizes.pop()


def _spanning_axis() -> Any:
    """The name of an enclosing pmap axis that spans processes, or None."""
    t = state.trace
    while t is not None:
        if isinstance(t, BatchTrace) and t.processes > 1:
            return t.axis_name
        t = t.parent
    return None


def _check_same_size(size: int, name: str, comm) -> None:
    """Every process maps ``size`` slices, or all raise naming the sizes (JAX assumes equal
    local sizes: the global axis is ``processes * size``)."""
    sizes = comm.allgather(np.array(size, np.int64))
    if any(int(s) != size for s in sizes):
        other = next(q for q, s in enumerate(sizes) if int(s) != size)
        raise ValueError(
            f"pmap of {name}: every process must map the same number of slices (the global axis is "
            f"process_count() * local size), but process {comm.rank} maps {size} and process {other} maps "
            f"{int(sizes[other])} (all: {[int(s) for s in sizes]}). Give every process a leading axis of "
            "fgrad.local_device_count() entries.")


def pmap(fun: Callable | None = None, axis_name: Any = None, *, in_axes: Any = 0, out_axes: Any = 0,
         static_broadcasted_argnums: int | Sequence[int] = (), devices: Sequence | None = None,
         backend: str | None = None, axis_size: int | None = None, donate_argnums: int | Sequence[int] = (),
         global_arg_shapes: Any = None) -> Callable:
    """``fun`` mapped over the leading axis (``in_axes``) of its arguments, one slice per
    device, with collectives over ``axis_name`` (module docstring).  ``static_broadcasted_argnums``
    are Python values passed to every slice (hashable: each value compiles once);
    ``donate_argnums``, ``backend`` and ``global_arg_shapes`` are accepted and ignored.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> fgrad.pmap(lambda x, k: x * k, static_broadcasted_argnums=1)(fnp.ones((1, 2)), 3)
        Array([[3., 3.]], dtype=float64)
    """
    if fun is None:
        return functools.partial(pmap, axis_name=axis_name, in_axes=in_axes, out_axes=out_axes,
                                 static_broadcasted_argnums=static_broadcasted_argnums, devices=devices,
                                 backend=backend, axis_size=axis_size, donate_argnums=donate_argnums,
                                 global_arg_shapes=global_arg_shapes)
    if not callable(fun):
        raise TypeError(f"pmap: expected a callable value, got {fun!r}")
    static_nums = _as_tuple(static_broadcasted_argnums, "static_broadcasted_argnums")
    _as_tuple(donate_argnums, "donate_argnums")
    if isinstance(in_axes, list):
        in_axes = tuple(in_axes)
    compiled: dict = {}

    @functools.wraps(fun)
    def pmapped(*args, **kwargs):
        n_args = len(args)
        static = sorted({i % n_args for i in static_nums if -n_args <= i < n_args})
        if len(static) != len(static_nums):
            raise ValueError(f"pmap: static_broadcasted_argnums {static_nums} out of range for "
                             f"{n_args} positional arguments")
        dyn = tuple(a for i, a in enumerate(args) if i not in static)
        axes = in_axes
        if isinstance(axes, tuple):
            if len(axes) == n_args and static:
                axes = tuple(a for i, a in enumerate(axes) if i not in static)
            elif len(axes) != len(dyn):
                raise ValueError(f"pmap in_axes must be an int, None, or a tuple of entries corresponding "
                                 f"to the positional arguments passed to the function, but got "
                                 f"len(in_axes)={len(axes)}, len(args)={n_args}")
        size = axis_size if not dyn and axis_size is not None else _mapped_size(dyn, axes)
        comm = world()
        procs = comm.size if axis_name is not None else 1  # no axis name: nothing crosses processes
        if procs > 1:
            outer = _spanning_axis()
            if outer is not None:
                raise NotImplementedError(
                    f"pmap of {getattr(fun, '__name__', 'function')} inside pmap(axis_name={outer!r}) on "
                    f"{procs} processes: nested pmaps over processes are not supported; use vmap("
                    "axis_name=...) inside the pmap for the inner axis")
            _check_same_size(size, getattr(fun, "__name__", "function"), comm)
        available = [d for d in devices if d.process_index == comm.rank] if devices is not None \
            else local_devices()
        if size > len(available) and not flag("pmap_any_size"):
            raise ValueError(
                f"pmap of {getattr(fun, '__name__', 'function')}: the mapped axis has size {size}, but "
                f"only {len(available)} device(s) are available ({', '.join(map(str, available))}); "
                "compiling a computation that requires that many devices fails in JAX too. Reshape "
                "the data to (fgrad.local_device_count(), ...), or run any size vectorized on one "
                "device with fgrad.config.update('pmap_any_size', True)")
        statics = tuple(args[i] for i in static)
        unmapped_size = None if dyn else size  # no mapped argument: pmap's axis_size is the map's
        key = (n_args, statics, tuple(sorted(kwargs)), procs, unmapped_size)  # in_axes follows from n_args
        try:
            hash(key)
        except TypeError:
            raise TypeError(f"pmap: static_broadcasted_argnums values must be hashable, got "
                            f"{[type(s).__name__ for s in statics]}") from None
        run = compiled.get(key)
        if run is None:
            def per_device(*dyn_args, **kw):
                it = iter(dyn_args)
                full = [statics[static.index(i)] if i in static else next(it) for i in range(n_args)]
                return fun(*full, **kw)

            run = compiled[key] = jit(vmap_on_axis(per_device, in_axes=axes, out_axes=out_axes,
                                                   axis_name=axis_name, axis_size=unmapped_size,
                                                   processes=procs))
        return run(*dyn, **kwargs)

    return pmapped
