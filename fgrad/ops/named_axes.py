"""Collectives over *named* mapped axes: ``psum``, ``pmax``, ``pmin``, ``all_gather``,
``psum_scatter``, ``ppermute`` and ``axis_index`` over the axis a ``vmap(..., axis_name=)``
or ``pmap(..., axis_name=)`` introduced (JAX's ``jax.lax`` collectives).

Each is a primitive with an ``axes`` parameter (a tuple of axis names).  Evaluated outside
any transform that binds the name it raises ``NameError: unbound axis name``, as in JAX.
Under the `BatchTrace` whose ``axis_name`` is in ``axes`` its batching rule *is* the
collective: the examples of the mapped axis are the "devices", so ``psum`` sums over the
batch axis and returns a value that no longer varies along it.  Under a batch trace of
another name the rule vectorizes (the collective is applied per example of that axis).

A ``pmap`` axis may span processes (``mpiexec``; `fgrad._pmap`): its `BatchTrace` then has
``processes > 1`` and hands the rules ``bound_processes``.  Each process holds ``axis_size``
consecutive entries of the global axis (process ``r`` the entries ``r * axis_size`` on); a
rule does the local part as for one process, then the cross-process part with the process
collectives of `fgrad.ops.collectives` (MPI): ``psum`` through `psum_pmap_p` (the all-reduce
with the pmap pairing), ``pmax``/``pmin`` through the process extrema, ``all_gather`` and
``psum_scatter`` through their process forms (tiled, so the global order is process-major),
``ppermute`` through rounds of process ``ppermute``, and ``axis_index`` adds ``r * axis_size``.

The derivative rules follow JAX's (legacy ``pmap``) pairing: ``psum`` transposes to
``psum``, ``all_gather`` to ``psum_scatter`` and back, ``ppermute`` to the inverse
permutation.  ``pmax``/``pmin`` differentiate like ``max`` (ties share the tangent equally),
where JAX has no rule.

Example::

    >>> import fgrad, numpy as np
    >>> fgrad.vmap(lambda x: psum_p.bind(x, axes=("i",)), axis_name="i")(np.arange(3.0))
    Array([3., 3., 3.], dtype=float64)
"""

from __future__ import annotations

from typing import Hashable

import numpy as np

from ..core.array import ShapedArray, get_aval, wrap
from ..core.constants import make_on_default_device, zeros_like
from ..core.primitive import Primitive
from ..core.trace import state
from ..core.rules import defbatch, defjvp_rule, deflinear, defzero
from ..backends.world import world
from . import collectives as _procs
from .elementwise import convert_element_type, div, eq, mul, select
from .reductions import reduce_max, reduce_min
from .shape import bdim_to_front, broadcast_to, expand_dims, moveaxis, reduce_sum, reshape
from .structural import concatenate, slice_in_dim

FAMILY = "named_axis"  # BatchTrace hands these primitives its own axis name (transforms/batching.py)


def _unbound(name: str):
    def impl(xp, *args, axes, **params):
        raise NameError(
            f"unbound axis name: {axes[0]!r}. {name} reduces over a named mapped axis, which only "
            "exists inside `fgrad.vmap(f, axis_name=...)` or `fgrad.pmap(f, axis_name=...)`; "
            "call the function through one of them (the names available are those of the "
            "enclosing vmap/pmap calls)")
    return impl


def _same(x, **_):
    return ShapedArray(x.shape, x.dtype, x.weak_type)


def named(name: str, abstract_eval=_same) -> Primitive:
    """A collective over named axes: effectful (jit keeps it where it is)."""
    return Primitive(f"{name}_named", _unbound(name), abstract_eval, family=FAMILY, effectful=True)


def _rest(axes: tuple, bound: Hashable) -> tuple:
    return tuple(a for a in axes if a != bound)


def _rank() -> int:
    """This process's index: its entries of an axis spanning processes start at
    ``rank * axis_size``."""
    return world().rank


# -- psum / pmax / pmin ----------------------------------------------------------------------

psum_p = named("psum")
pmax_p = named("pmax")
pmin_p = named("pmin")

_REDUCE = {"psum_named": None, "pmax_named": reduce_max, "pmin_named": reduce_min}
# the cross-process part, over a pmap axis that spans processes
_ACROSS = {"psum_named": _procs.psum_pmap_p, "pmax_named": _procs.pmax_p, "pmin_named": _procs.pmin_p}


def _reduce_rule(prim: Primitive):
    def rule(axis_size, vals, dims, *, axes, bound_axis=None, bound_processes=1):
        (x,), (d,) = vals, dims
        if bound_axis not in axes:  # another axis: the collective per example of this one
            return prim.bind(x, axes=axes), d
        if d is None:  # the same value on every example (of this process)
            if prim is not psum_p:
                out = x
            elif isinstance(x, (int, float, complex)):  # psum(1, "i"): a weakly typed scalar, made on
                # the default device (a staged product of two Python numbers runs on the host)
                out = wrap(make_on_default_device("asarray", x * axis_size)._buf, weak_type=True)
            else:
                out = mul(x, axis_size)
        elif prim is psum_p:
            out = reduce_sum(x, (d,))
        else:
            out = _REDUCE[prim.name](x, (d,))
        if bound_processes > 1:
            out = _ACROSS[prim.name].bind(out)
        rest = _rest(axes, bound_axis)
        return (prim.bind(out, axes=rest) if rest else out), None

    return rule


def _extremum_jvp(prim: Primitive):
    """The tangent of the selected example, averaged over the examples that tie (as the
    gradient of ``max`` ties).  JAX has no rule here (NotImplementedError)."""
    def rule(primals, tangents, *, axes):
        (x,), (t,) = primals, tangents
        out = prim.bind(x, axes=axes)
        if t is None:
            return out, None
        hit = eq(x, out)
        count = psum_p.bind(convert_element_type(hit, get_aval(out).dtype), axes=axes)
        picked = psum_p.bind(select(hit, t, zeros_like(t)), axes=axes)
        return out, div(picked, count)

    return rule


for _p in (psum_p, pmax_p, pmin_p):
    defbatch(_p, _reduce_rule(_p), axis_name=True)


# -- pvary / the transpose of psum in a shard_map that tracks varying axes -------------------------
# In a ``shard_map(check_vma=True)`` body (its batch traces carry ``vma=True``) a value that is
# unbatched along a manual axis is *invariant* along it (one value shared by the blocks).  JAX
# types values that way and pairs ``psum`` (varying -> invariant) with ``pvary`` (invariant ->
# varying, identity on values).  `psum_invariant_p` is psum's transpose there: a cotangent that
# is already invariant passes unchanged (JAX's pvary); one that still varies is summed.

pvary_p = named("pvary")
psum_invariant_p = named("psum_invariant")


def _varying_bound(name: Hashable) -> bool:
    """Whether the innermost trace binding ``name`` is a shard_map block axis with vma checks."""
    t = state.trace
    while t is not None:
        if getattr(t, "axis_name", None) == name:
            return bool(getattr(t, "vma", False))
        t = t.parent
    return False


def _pvary_rule(axis_size, vals, dims, *, axes, bound_axis=None, bound_processes=1):
    """Identity on values; the result is batched (varying), so that the vma typing, which
    reads "batched" as "varying", sees what JAX's types say."""
    (x,), (d,) = vals, dims
    rest = _rest(axes, bound_axis)
    if rest:
        x = pvary_p.bind(x, axes=rest)
    if d is None and bound_axis in axes:
        return broadcast_to(expand_dims(x, 0), (axis_size,) + get_aval(x).shape), 0
    return x, d


def _psum_invariant_rule(axis_size, vals, dims, *, axes, bound_axis=None, bound_processes=1):
    (x,), (d,) = vals, dims
    if bound_axis not in axes:
        return psum_invariant_p.bind(x, axes=axes), d
    out = x if d is None else reduce_sum(x, (d,))
    if bound_processes > 1 and d is not None:  # (shard_map axes never span processes today)
        out = _procs.psum_pmap_p.bind(out)
    rest = _rest(axes, bound_axis)
    return (psum_invariant_p.bind(out, axes=rest) if rest else out), None


def _psum_transpose(ct, x, axes):
    typed = tuple(a for a in axes if _varying_bound(a))
    legacy = tuple(a for a in axes if a not in typed)
    if typed:
        ct = psum_invariant_p.bind(ct, axes=typed)
    if legacy:  # vmap/pmap axes: JAX's pmap pairing, psum transposes to psum
        ct = psum_p.bind(ct, axes=legacy)
    return [ct]


# all_gather's batching rule returns one unbatched value (the gathered array is the same on
# every block), which the vma typing would read as invariant; JAX types it varying (its
# transpose, psum_scatter, takes one cotangent per block).  `as_varying_p` gives it that type:
# it materializes the block axis, and its transpose passes the per-block cotangents through.
as_varying_p = named("as_varying")


def _as_varying_rule(axis_size, vals, dims, *, axes, bound_axis=None, bound_processes=1):
    (x,), (d,) = vals, dims
    rest = _rest(axes, bound_axis)
    if rest:
        x = as_varying_p.bind(x, axes=rest)
    if d is None and bound_axis in axes:
        return broadcast_to(expand_dims(x, 0), (axis_size,) + get_aval(x).shape), 0
    return x, d


defbatch(as_varying_p, _as_varying_rule, axis_name=True)
deflinear(as_varying_p, lambda ct, x, axes: [ct])
defbatch(pvary_p, _pvary_rule, axis_name=True)
defbatch(psum_invariant_p, _psum_invariant_rule, axis_name=True)
deflinear(psum_p, _psum_transpose)
deflinear(pvary_p, lambda ct, x, axes: [psum_p.bind(ct, axes=axes)])
deflinear(psum_invariant_p, lambda ct, x, axes: [pvary_p.bind(ct, axes=axes)])
defjvp_rule(pmax_p, _extremum_jvp(pmax_p))
defjvp_rule(pmin_p, _extremum_jvp(pmin_p))


# -- all_gather / psum_scatter -----------------------------------------------------------------

def _gather_abstract(x, axes, axis, tiled, size):
    shp = list(x.shape)
    if tiled:
        shp[axis] *= size
    else:
        shp.insert(axis, size)
    return ShapedArray(tuple(shp), x.dtype, x.weak_type)


def _scatter_abstract(x, axes, scatter_dimension, tiled, size):
    shp = list(x.shape)
    d = scatter_dimension
    if tiled:
        if shp[d] % size:
            raise ValueError(f"psum_scatter: dimension {d} of shape {tuple(shp)} is not divisible by "
                             f"the size of axis {axes[0]!r} ({size})")
        shp[d] //= size
    else:
        if shp[d] != size:
            raise ValueError(f"psum_scatter: dimension {d} of shape {tuple(shp)} must equal the size of "
                             f"axis {axes[0]!r} ({size}) (or pass tiled=True)")
        del shp[d]
    return ShapedArray(tuple(shp), x.dtype, x.weak_type)


all_gather_p = named("all_gather", _gather_abstract)
psum_scatter_p = named("psum_scatter", _scatter_abstract)


def _gather_rule(axis_size, vals, dims, *, axes, axis, tiled, bound_axis=None, bound_processes=1, **params):
    x = bdim_to_front(vals[0], dims[0], axis_size)  # (n, *logical)
    if bound_axis not in axes:
        return all_gather_p.bind(x, axes=axes, axis=axis + 1, tiled=tiled, **params), 0
    if bound_processes > 1:  # every process's entries, in process order: the global axis
        x = _procs.all_gather_p.bind(x, axis=0, tiled=True)
    out = moveaxis(x, 0, axis)
    if tiled:
        shp = list(get_aval(x).shape[1:])
        shp[axis] *= get_aval(x).shape[0]
        out = reshape(out, tuple(shp))
    return out, None


def _scatter_rule(axis_size, vals, dims, *, axes, scatter_dimension, tiled, bound_axis=None,
                  bound_processes=1, **params):
    x = bdim_to_front(vals[0], dims[0], axis_size)  # (n, *logical)
    if bound_axis not in axes:
        return psum_scatter_p.bind(x, axes=axes, scatter_dimension=scatter_dimension + 1, tiled=tiled,
                                   **params), 0
    total = reduce_sum(x, (0,))  # every device's sum, logical shape
    d = scatter_dimension
    if bound_processes > 1:
        return _scatter_across(total, d, tiled, axis_size), 0
    if tiled:
        shp = list(get_aval(total).shape)
        shp[d: d + 1] = [axis_size, shp[d] // axis_size]
        total = reshape(total, tuple(shp))
    return total, d  # device i keeps block i of dimension d


def _scatter_across(total, d: int, tiled: bool, local: int):
    """The blocks of ``total`` (this process's sum) summed over the processes, this process
    keeping its ``local`` consecutive blocks of dimension ``d``: (local, *block shape)."""
    front = moveaxis(total, d, 0)  # (global blocks [* k], *rest)
    mine = _procs.psum_scatter_p.bind(front, scatter_dimension=0, tiled=True)  # (local [* k], *rest)
    if not tiled:
        return mine
    shp = get_aval(mine).shape
    mine = reshape(mine, (local, shp[0] // local) + shp[1:])
    return moveaxis(mine, 1, d + 1)


defbatch(all_gather_p, _gather_rule, axis_name=True)
defbatch(psum_scatter_p, _scatter_rule, axis_name=True)
deflinear(all_gather_p, lambda ct, x, axes, axis, tiled, size: [psum_scatter_p.bind(
    ct, axes=axes, scatter_dimension=axis, tiled=tiled, size=size)])
deflinear(psum_scatter_p, lambda ct, x, axes, scatter_dimension, tiled, size: [all_gather_p.bind(
    ct, axes=axes, axis=scatter_dimension, tiled=tiled, size=size)])


# -- ppermute ------------------------------------------------------------------------------------

ppermute_p = named("ppermute")


def _ppermute_rule(axis_size, vals, dims, *, axes, perm, bound_axis=None, bound_processes=1):
    (x,), (d,) = vals, dims
    if bound_axis not in axes:
        return ppermute_p.bind(x, axes=axes, perm=perm), d
    if d is None:
        x = broadcast_to(expand_dims(x, 0), (axis_size,) + get_aval(x).shape)
        d = 0
    for s, t in perm:
        if not (0 <= s < axis_size * bound_processes and 0 <= t < axis_size * bound_processes):
            raise ValueError(f"ppermute: pair ({s}, {t}) of perm names an index outside axis "
                             f"{bound_axis!r} of size {axis_size * bound_processes}")
    if bound_processes > 1:
        return _ppermute_across(bdim_to_front(x, d, axis_size), axis_size, perm), 0
    source = {t: s for s, t in perm}
    pieces = []
    for t in range(axis_size):
        piece = slice_in_dim(x, source.get(t, t), source.get(t, t) + 1, axis=d)
        pieces.append(piece if t in source else zeros_like(piece))
    return concatenate(pieces, d), d


def _process_rounds(perm: tuple, local: int) -> list:
    """The pairs of ``perm`` whose source and destination live on different processes, in
    rounds in which no process sends or receives twice (so that each round is one process
    ``ppermute``); the same rounds on every process (they depend on ``perm`` only)."""
    rounds: list = []
    for s, t in perm:
        ps, pt = s // local, t // local
        if ps == pt:
            continue
        for rd in rounds:
            if all(ps != a // local and pt != b // local for a, b in rd):
                rd.append((s, t))
                break
        else:
            rounds.append([(s, t)])
    return rounds


def _ppermute_across(x, local: int, perm: tuple):
    """``ppermute`` over a global axis: ``x`` holds this process's ``local`` entries
    (leading axis); pairs within the process are slices, the others go through the process
    ``ppermute`` in rounds."""
    lo = _rank() * local

    def entry(i):
        return slice_in_dim(x, i - lo, i - lo + 1, axis=0)

    received = {}
    for rd in _process_rounds(perm, local):
        send = [s for s, _ in rd if s // local == lo // local]
        buf = entry(send[0]) if send else zeros_like(entry(lo))
        got = _procs.ppermute_p.bind(buf, perm=tuple((s // local, t // local) for s, t in rd))
        for _, t in rd:
            if t // local == lo // local:
                received[t] = got
    source = {t: s for s, t in perm}
    pieces = []
    for t in range(lo, lo + local):
        s = source.get(t)
        if s is None:
            pieces.append(zeros_like(entry(t)))
        elif lo <= s < lo + local:
            pieces.append(entry(s))
        else:
            pieces.append(received[t])
    return concatenate(pieces, 0)


defbatch(ppermute_p, _ppermute_rule, axis_name=True)
deflinear(ppermute_p, lambda ct, x, axes, perm: [ppermute_p.bind(
    ct, axes=axes, perm=tuple((t, s) for s, t in perm))])


# -- axis_index ------------------------------------------------------------------------------------

axis_index_p = Primitive("axis_index_named", _unbound("axis_index"),
                         lambda axes: ShapedArray((), np.dtype(np.int32)), family=FAMILY, effectful=True)


def _axis_index_rule(axis_size, vals, dims, *, axes, bound_axis=None, bound_processes=1):
    lo = _rank() * axis_size if bound_processes > 1 else 0  # the global index of this process's first entry
    return make_on_default_device("arange", lo, lo + axis_size, dtype=np.int32), 0


defbatch(axis_index_p, _axis_index_rule, axis_name=True)
defzero(axis_index_p)
