"""`shard_map`: JAX's ``jax.shard_map`` with the mesh's devices emulated on one device.

``shard_map(f, mesh=mesh, in_specs=P("i"), out_specs=P("i"))(x)`` splits ``x`` into one block
per position of the mesh along the dimensions its `PartitionSpec` names, runs ``f`` on each
block with the mesh axis names bound (so ``lax.psum``/``pmean``/``pmax``/``all_gather``/
``psum_scatter``/``ppermute``/``axis_index``/``axis_size``/``pcast`` work over them), and
joins the results as ``out_specs`` says: a named dimension is the concatenation of the
blocks, a mesh axis an output spec does not name means the output is the same on every
block (replicated) and one copy is returned.

fgrad keeps arrays whole on one device, so the blocks are the examples of nested ``vmap``s,
one per manual mesh axis (as `fgrad.pmap` is ``jit(vmap(f))``): values, derivatives and
collectives are JAX's, the placement is not sharded.  A mesh of size 1 (the single real
device) always works; larger meshes come from ``fgrad.make_mesh``/``Mesh`` with the option
``fgrad.config.update("pmap_any_size", True)`` (virtual devices, as for ``pmap``).

With ``check_vma=True`` (the default, JAX's "varying manual axes" types) an output whose
spec leaves a mesh axis out must be provably replicated along it (ValueError otherwise,
as JAX), and reverse mode *inside* the body is JAX's typed one: the gradient with respect
to a value that is invariant along an axis is summed over the blocks (JAX's ``pvary``
transposes to ``psum``, ``psum`` to ``pvary``).  ``check_vma=False`` gives the untyped
rules (``psum`` transposes to ``psum``) and returns block 0 of an unnamed output axis.

Example::

    >>> import fgrad, fgrad.lax as lax, fgrad.numpy as fnp
    >>> from fgrad.sharding import PartitionSpec as P
    >>> mesh = fgrad.make_mesh((1,), ("i",))
    >>> f = fgrad.shard_map(lambda x: x / lax.psum(fnp.sum(x), "i"), mesh=mesh,
    ...                     in_specs=P("i"), out_specs=P("i"))
    >>> f(fnp.arange(4.0))
    Array([0.        , 0.16666667, 0.33333333, 0.5       ], dtype=float64)
"""

from __future__ import annotations

import contextlib
import functools
import math
from typing import Any, Callable

from ._config import flag
from ._device_api import local_device_count
from .core.array import get_aval
from .core.trace import state
from .ops.shape import reshape, transpose
from .ops.lax_ops import index_in_dim
from .sharding import AbstractMesh, PartitionSpec, _current
from .transforms.jit import disable_jit
from .transforms.batching import BatchTrace, BatchTracer, vma_scopes, vmap
from .tree_util import flatten_arrays, tree_map, tree_unflatten

__all__ = ["shard_map", "Infer"]


class _InferType:
    """``in_specs`` left out: every argument replicated (fgrad's arrays carry no shardings,
    which is what JAX infers from unsharded arrays)."""

    def __repr__(self) -> str:
        return "Infer"


Infer = _InferType()


def _is_spec(s: Any) -> bool:
    return s is None or isinstance(s, PartitionSpec)


def _fname(f: Callable) -> str:
    return getattr(f, "__name__", type(f).__name__)


def _current_mesh(mesh: Any) -> AbstractMesh:
    if mesh is None:
        mesh = _current.mesh
        if mesh is None or not getattr(mesh, "axis_names", ()):
            raise ValueError("shard_map: no mesh given and no current mesh; pass mesh=... or call it "
                             "inside `with fgrad.sharding.set_mesh(mesh):`")
    if not isinstance(mesh, AbstractMesh):
        raise TypeError(f"shard_map: mesh must be a fgrad.sharding.Mesh or AbstractMesh, got "
                        f"{type(mesh).__name__}")
    if mesh.size > local_device_count() and not flag("pmap_any_size"):
        raise ValueError(f"shard_map: the mesh {mesh} has {mesh.size} positions but "
                         f"{local_device_count()} device(s) are available; run the blocks as virtual "
                         "devices with fgrad.config.update('pmap_any_size', True)")
    return mesh


def _entry_names(entry: Any) -> tuple:
    if entry is None:
        return ()
    return tuple(entry) if isinstance(entry, tuple) else (entry,)


def _check_spec(spec: PartitionSpec, manual: tuple, mesh: AbstractMesh, what: str, fname: str) -> None:
    seen: list = []
    for entry in spec:
        for name in _entry_names(entry):
            if name not in mesh.axis_names:
                raise ValueError(f"shard_map applied to the function '{fname}' was given {what} {spec} "
                                 f"naming the axis {name!r}, which is not in the mesh {mesh} (axes "
                                 f"{mesh.axis_names})")
            if name not in manual:
                raise ValueError(f"shard_map applied to the function '{fname}' was given {what} {spec} "
                                 f"naming the axis {name!r}, which is not one of the manual axes "
                                 f"{manual} (axis_names=)")
            if name in seen:
                raise ValueError(f"shard_map applied to the function '{fname}' was given {what} {spec} "
                                 f"that names the mesh axis {name!r} twice")
            seen.append(name)


def _spec_pairs(specs: Any, tree: Any, what: str, fname: str) -> list:
    """One spec per array leaf of ``tree`` (``specs`` is a pytree prefix of it)."""
    if _is_spec(specs):
        return [specs or PartitionSpec()] * len(flatten_arrays(tree)[0])
    out: list = []

    def one(spec, sub):
        out.extend([spec or PartitionSpec()] * len(flatten_arrays(sub)[0]))

    try:
        tree_map(one, specs, tree, is_leaf=_is_spec)
    except (ValueError, TypeError) as e:
        raise ValueError(f"shard_map applied to the function '{fname}': {what} must be a pytree prefix "
                         f"of the {'arguments' if what == 'in_specs' else 'outputs'} (one "
                         f"PartitionSpec per array, or one for a whole subtree): {e}") from None
    return out


def _split(x: Any, spec: PartitionSpec, mesh_shape: dict, order: tuple, fname: str, i: int) -> tuple:
    """``x`` reshaped so its blocks lie on leading axes, one per mesh axis it names (in
    ``order``), and the names it uses."""
    shape = get_aval(x).shape
    if len(spec) > len(shape):
        raise ValueError(f"shard_map applied to the function '{fname}' was given an in_specs entry {spec} "
                         f"of length {len(spec)} for args[{i}] of shape {shape}, which has rank "
                         f"{len(shape)}; entries in in_specs must be no longer than the rank of the "
                         "corresponding argument")
    split_shape: list = []
    axis_of: dict = {}
    for d, n in enumerate(shape):
        names = _entry_names(spec[d]) if d < len(spec) else ()
        blocks = math.prod(mesh_shape[a] for a in names)
        if n % blocks:
            raise ValueError(f"shard_map applied to the function '{fname}' was given argument arrays with "
                             f"axis sizes that are not evenly divisible by the corresponding mesh axis "
                             f"sizes: args[{i}] of shape {shape} maps its axis {d} (of size {n}) to mesh "
                             f"axes {names} of total size {blocks}")
        for a in names:
            axis_of[a] = len(split_shape)
            split_shape.append(mesh_shape[a])
        split_shape.append(n // blocks)
    used = tuple(a for a in order if a in axis_of)
    lead = [axis_of[a] for a in used]
    rest = [k for k in range(len(split_shape)) if k not in lead]
    x = reshape(x, tuple(split_shape))
    return transpose(x, tuple(lead + rest)), used


def _join(y: Any, spec: PartitionSpec, order: tuple, fname: str, i: int) -> Any:
    """The inverse of `_split` for an output: ``y`` has one leading axis per manual mesh axis
    (in ``order``) followed by the block's shape."""
    names_in_spec = [a for entry in spec for a in _entry_names(entry)]
    for a in reversed(order):  # unnamed axes: the blocks agree (checked), keep block 0
        if a not in names_in_spec:
            y = index_in_dim(y, 0, order.index(a), keepdims=False)
            order = tuple(b for b in order if b != a)
    local = get_aval(y).shape[len(order):]
    if len(spec) > len(local):
        raise ValueError(f"shard_map applied to the function '{fname}' was given an out_specs entry which "
                         f"is too long to be compatible with the corresponding output value from the "
                         f"function: out_specs is {spec} which has length {len(spec)}, but output {i} "
                         f"has shape {local}, which has rank {len(local)}. Entries in out_specs must be of "
                         "length no greater than the number of axes in the corresponding output value; "
                         "for scalars use P()")
    perm: list = []
    new_shape: list = []
    for d, n in enumerate(local):
        names = _entry_names(spec[d]) if d < len(spec) else ()
        perm.extend(order.index(a) for a in names)
        perm.append(len(order) + d)
        new_shape.append(n * math.prod(get_aval(y).shape[order.index(a)] for a in names))
    return reshape(transpose(y, tuple(perm)), tuple(new_shape))


def _not_replicated(fname: str, spec: PartitionSpec, axis: Any, mesh: AbstractMesh) -> ValueError:
    return ValueError(
        f"shard_map applied to the function '{fname}' was given out_specs which require replication "
        f"which can't be statically inferred given the mesh:\n\nThe mesh given has shape "
        f"{mesh.axis_sizes} with corresponding axis names {mesh.axis_names}.\n\nout_specs is {spec} "
        f"which implies that the corresponding output value is replicated across mesh axis {axis!r}, "
        f"but it varies along that axis.\n\nCheck if these output values are meant to be replicated "
        "over those mesh axes (reduce them with lax.psum/pmean/pmax, or compute them from replicated "
        "inputs). If not, consider revising the corresponding out_specs entries. If so, consider "
        "disabling the check by passing the check_vma=False argument to `fgrad.shard_map`.")


def shard_map(f: Callable | None = None, /, *, out_specs: Any, in_specs: Any = Infer,
              mesh: AbstractMesh | None = None, axis_names: Any = frozenset(), check_vma: bool = True,
              check_rep: bool | None = None) -> Callable:
    """``f`` run on one block of its inputs per mesh position, with the mesh axes named for
    collectives (JAX's ``jax.shard_map``; module docstring).  ``in_specs``/``out_specs``:
    a `PartitionSpec` per argument/output (pytree prefixes); ``mesh``: a `Mesh` (default:
    the current one, `fgrad.sharding.set_mesh`); ``axis_names``: the manual axes (default:
    all of the mesh's); ``check_rep`` is the older name of ``check_vma``.  Usable as a
    decorator through ``functools.partial`` or with ``f`` left out.

    Example::

        >>> import fgrad, fgrad.lax as lax, fgrad.numpy as fnp
        >>> from fgrad.sharding import PartitionSpec as P
        >>> mesh = fgrad.make_mesh((1,), ("batch",))
        >>> @fgrad.shard_map(mesh=mesh, in_specs=(P(), P("batch")), out_specs=P())
        ... def total_grad(w, x):
        ...     return fgrad.grad(lambda w: lax.psum(fnp.sum((w * x) ** 2), "batch"))(w)
        >>> total_grad(fnp.asarray(1.5), fnp.arange(4.0))
        Array(42., dtype=float64, weak_type=True)
    """
    if check_rep is not None:
        check_vma = bool(check_rep)
    if f is None:
        return functools.partial(shard_map, out_specs=out_specs, in_specs=in_specs, mesh=mesh,
                                 axis_names=axis_names, check_vma=check_vma)
    if not callable(f):
        raise TypeError(f"shard_map requires a callable for its first argument, but got {f!r} of type "
                        f"{type(f).__name__}")
    fname = _fname(f)

    @functools.wraps(f)
    def mapped(*args):
        m = _current_mesh(mesh)
        manual = tuple(a for a in m.axis_names if not axis_names or a in axis_names)
        unknown = [a for a in (axis_names or ()) if a not in m.axis_names]
        if unknown:
            raise ValueError(f"shard_map: axis_names {sorted(axis_names, key=str)} names axes {unknown} "
                             f"that the mesh {m} does not have")
        sizes = m.shape
        specs = (PartitionSpec(),) * len(args) if in_specs is Infer or in_specs is None else in_specs
        if isinstance(specs, list):
            specs = tuple(specs)
        if isinstance(specs, tuple) and not isinstance(specs, PartitionSpec) and len(specs) != len(args):
            raise ValueError(f"shard_map applied to the function '{fname}' was given in_specs with "
                             f"{len(specs)} entries for {len(args)} positional arguments")
        flat_args, args_tree = flatten_arrays(args)
        flat_specs = _spec_pairs(specs, args, "in_specs", fname)
        blocked, used = [], []
        for i, (x, s) in enumerate(zip(flat_args, flat_specs)):
            _check_spec(s, manual, m, "in_specs", fname)
            bx, u = _split(x, s, sizes, manual, fname, i)
            blocked.append(bx)
            used.append(u)
        out_box: dict = {}

        def body(*leaves):
            # jit inside a check_vma body runs inline: a staged program would be traced from
            # logical shapes, without the varying/invariant types its derivatives need
            with disable_jit() if check_vma and manual else contextlib.nullcontext():
                outs = f(*tree_unflatten(args_tree, list(leaves)))
            flat_out, out_tree = flatten_arrays(outs)
            out_box["tree"], out_box["value"] = out_tree, outs
            return flat_out

        run = body
        for axis in reversed(manual):
            run = _block_axis(run, axis, sizes[axis], [axis in u for u in used], check_vma, out_box)
        flat_out = run(*blocked)
        out_specs_flat = _spec_pairs(out_specs, out_box["value"], "out_specs", fname)
        results = []
        for i, (y, s) in enumerate(zip(flat_out, out_specs_flat)):
            _check_spec(s, manual, m, "out_specs", fname)
            named = {a for entry in s for a in _entry_names(entry)}
            if check_vma:
                for a in manual:
                    if a not in named and out_box["varying"][a][i]:
                        raise _not_replicated(fname, s, a, m)
            results.append(_join(y, s, manual, fname, i))
        return tree_unflatten(out_box["tree"], results)

    return mapped


def _block_axis(inner: Callable, axis: Any, size: int, mapped: list, check_vma: bool,
                out_box: dict) -> Callable:
    """``inner`` vectorized over the blocks of mesh axis ``axis`` (the leading block axis of
    each argument with ``mapped`` True); records which outputs vary along it."""

    def per_block(*leaves):
        trace = state.trace
        assert isinstance(trace, BatchTrace) and trace.axis_name == axis
        trace.vma = check_vma
        vma_scopes.depth += check_vma
        try:
            outs = inner(*leaves)
        finally:
            vma_scopes.depth -= check_vma
        out_box.setdefault("varying", {})[axis] = [
            type(o) is BatchTracer and o._trace is trace for o in outs]
        return outs

    per_block.__name__ = f"shard_map_block_{axis}"
    return vmap(per_block, in_axes=tuple(0 if m else None for m in mapped), out_axes=0, axis_name=axis,
                axis_size=size)

