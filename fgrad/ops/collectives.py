"""Collectives over processes: psum, pmax, pmin, all_gather, psum_scatter, ppermute,
broadcast, barrier and pvary, each a primitive with its JVP, transpose and batching rules.

The processes are the world of `fgrad.backends.world` (MPI when launched by ``mpiexec``,
else one process, where every collective is the identity).  Each value is either
*replicated* (the same on every process, like parameters) or *varying* (a per-process shard,
like a batch).  Reverse mode follows JAX's ``shard_map`` pairing:

* ``psum`` (varying -> replicated) transposes to ``pvary`` (the identity on values);
* ``pvary`` (replicated -> varying, a marker that communicates nothing) transposes to
  ``psum``.

So ``grad(lambda w: psum(loss(pvary(w), local_batch)))(w)`` is the full-batch gradient on
every process, with one all-reduce per gradient (in the backward pass, from pvary), not
JAX's legacy ``pmap`` result of n times the local gradient.  ``all_gather`` and
``psum_scatter`` transpose to each other, ``ppermute`` to the inverse permutation, and
``broadcast`` to a sum delivered to the root.

All collectives but ``pvary`` are *effectful* (``Primitive.effectful``): jit never folds,
merges, drops or reorders them, since every process must run the same sequence.

Example::

    >>> import numpy as np
    >>> psum(np.arange(3.0))          # one process: the identity
    Array([0., 1., 2.], dtype=float64)
"""

from __future__ import annotations

import numpy as np

from ..backends.world import world
from ..core.array import ShapedArray, get_aval
from ..core.constants import zeros_like
from ..core.primitive import Primitive
from ..core.rules import defbatch, deflinear, defjvp_rule, defvectorized, defzero
from .elementwise import convert_element_type, div, eq, select
from .shape import bdim_to_front


def _same_aval(x, **params):
    return ShapedArray(x.shape, x.dtype, x.weak_type)


def _arr(xp, x):
    """A Python scalar operand as a 0-d array of its backend."""
    return x if hasattr(x, "dtype") and hasattr(x, "shape") else xp.asarray(x)


def collective(name: str, impl, abstract_eval=_same_aval) -> Primitive:
    """A primitive that communicates: effectful, its own family (a fusion barrier)."""
    return Primitive(name, impl, abstract_eval, family="collective", effectful=True)


# -- psum / pvary: the pair -----------------------------------------------------------------

def _sum_impl(xp, x):
    return world().allreduce(_arr(xp, x), "sum")


psum_p = collective("psum", _sum_impl)
pvary_p = Primitive("pvary", lambda xp, x: x, _same_aval, family="collective")


def psum(x):
    """Sum over the processes (every process gets the total).  Its transpose is `pvary`.

    Example::

        >>> psum(2.0)
        Array(2., dtype=float64, weak_type=True)
    """
    return psum_p.bind(x)


def pvary(x):
    """Mark a replicated value as used per process: the identity on values; its transpose
    is `psum` (so gradients of replicated parameters are summed over the processes).

    Example::

        >>> pvary(np.ones(2))
        Array([1., 1.], dtype=float64)
    """
    return pvary_p.bind(x)


deflinear(psum_p, lambda ct, x: [pvary(ct)])
deflinear(pvary_p, lambda ct, x: [psum(ct)])
defvectorized(psum_p)
defvectorized(pvary_p)

# The cross-process part of a named-axis ``lax.psum`` over a ``pmap`` axis that spans processes
# (`fgrad.ops.named_axes`): the same all-reduce, with JAX's legacy ``pmap`` pairing -- psum
# transposes to psum (each device's result is its own output, so the transpose sums the
# cotangents of every device) -- where `psum_p` follows shard_map's (psum <-> pvary).
psum_pmap_p = collective("psum_pmap", _sum_impl)
deflinear(psum_pmap_p, lambda ct, x: [psum_pmap_p.bind(ct)])
defvectorized(psum_pmap_p)


# -- pmax / pmin ---------------------------------------------------------------------------

pmax_p = collective("pmax", lambda xp, x: world().allreduce(_arr(xp, x), "max"))
pmin_p = collective("pmin", lambda xp, x: world().allreduce(_arr(xp, x), "min"))


def _extremum_jvp(prim):
    """The tangent of the selected value, averaged over the processes that tie (as the
    gradient of ``max`` ties)."""
    def rule(primals, tangents):
        (x,), (t,) = primals, tangents
        out = prim.bind(x)
        if t is None:
            return out, None
        hit = eq(x, out)
        count = psum(convert_element_type(hit, get_aval(out).dtype))
        picked = select(hit, t, zeros_like(t))
        return out, div(psum(picked), count)

    return rule


def pmax(x):
    """Elementwise maximum over the processes.

    Example::

        >>> pmax(np.array([1.0, -2.0]))
        Array([ 1., -2.], dtype=float64)
    """
    return pmax_p.bind(x)


def pmin(x):
    """Elementwise minimum over the processes.

    Example::

        >>> pmin(np.array([1.0, -2.0]))
        Array([ 1., -2.], dtype=float64)
    """
    return pmin_p.bind(x)


for _p in (pmax_p, pmin_p):
    defjvp_rule(_p, _extremum_jvp(_p))
    defvectorized(_p)


# -- all_gather / psum_scatter --------------------------------------------------------------

def _check_axis(op: str, ndim: int, axis: int, extra: int) -> int:
    if not -(ndim + extra) <= axis < ndim + extra:
        raise ValueError(f"{op}: axis {axis} is out of range for an operand of rank {ndim}")
    return axis % (ndim + extra)


def _all_gather_impl(xp, x, axis, tiled):
    x = _arr(xp, x)
    stacked = world().allgather(x)  # (n, *x.shape)
    if tiled:
        moved = xp.moveaxis(stacked, 0, axis)
        shp = list(x.shape)
        shp[axis] *= stacked.shape[0]
        return xp.reshape(moved, tuple(shp))
    return xp.moveaxis(stacked, 0, axis)


def _all_gather_abstract(x, axis, tiled):
    n = world().size
    shp = list(x.shape)
    if tiled:
        shp[axis] *= n
    else:
        shp.insert(axis, n)
    return ShapedArray(tuple(shp), x.dtype, x.weak_type)


all_gather_p = collective("all_gather", _all_gather_impl, _all_gather_abstract)


def all_gather(x, axis: int = 0, tiled: bool = False):
    """Every process's ``x``, stacked along a new axis ``axis`` (concatenated along it with
    ``tiled=True``), on every process.  Its transpose is `psum_scatter`.

    Example::

        >>> all_gather(np.arange(2.0)).shape      # (processes, 2)
        (1, 2)
    """
    nd = np.ndim(x) if not hasattr(x, "aval") else len(x.aval.shape)
    axis = _check_axis("all_gather", nd, axis, 0 if tiled else 1)
    if tiled and nd == 0:
        raise ValueError("all_gather: tiled=True needs an operand of rank >= 1")
    return all_gather_p.bind(x, axis=axis, tiled=bool(tiled))


def _psum_scatter_impl(xp, x, scatter_dimension, tiled):
    x = _arr(xp, x)
    front = xp.moveaxis(x, scatter_dimension, 0)
    out = world().reduce_scatter(xp.ascontiguousarray(front), "sum")
    if not tiled:
        out = out[0]
        return out
    return xp.moveaxis(out, 0, scatter_dimension)


def _psum_scatter_abstract(x, scatter_dimension, tiled):
    n = world().size
    shp = list(x.shape)
    d = scatter_dimension
    if tiled:
        if shp[d] % n:
            raise ValueError(f"psum_scatter: dimension {d} of shape {tuple(shp)} is not divisible by "
                             f"the number of processes ({n})")
        shp[d] //= n
    else:
        if shp[d] != n:
            raise ValueError(f"psum_scatter: dimension {d} of shape {tuple(shp)} must equal the number "
                             f"of processes ({n}) (or pass tiled=True)")
        del shp[d]
    return ShapedArray(tuple(shp), x.dtype, x.weak_type)


psum_scatter_p = collective("psum_scatter", _psum_scatter_impl, _psum_scatter_abstract)


def psum_scatter(x, scatter_dimension: int = 0, tiled: bool = False):
    """Sum over the processes, each process keeping its block of ``scatter_dimension``
    (whose size must be the number of processes; with ``tiled=True``, a multiple of it).
    Its transpose is `all_gather`.

    Example::

        >>> psum_scatter(np.arange(3.0)[None])     # one process: keeps the only block
        Array([0., 1., 2.], dtype=float64)
    """
    nd = np.ndim(x) if not hasattr(x, "aval") else len(x.aval.shape)
    d = _check_axis("psum_scatter", nd, scatter_dimension, 0)
    _psum_scatter_abstract(get_aval(x), d, bool(tiled))  # the shape check, also when eager
    return psum_scatter_p.bind(x, scatter_dimension=d, tiled=bool(tiled))


deflinear(all_gather_p, lambda ct, x, axis, tiled: [psum_scatter(ct, axis, tiled)])
deflinear(psum_scatter_p, lambda ct, x, scatter_dimension, tiled: [
    all_gather(ct, scatter_dimension, tiled)])


def _all_gather_batch(axis_size, vals, dims, axis, tiled):
    x = bdim_to_front(vals[0], dims[0], axis_size)
    return all_gather_p.bind(x, axis=axis + 1, tiled=tiled), 0


def _psum_scatter_batch(axis_size, vals, dims, scatter_dimension, tiled):
    x = bdim_to_front(vals[0], dims[0], axis_size)
    return psum_scatter_p.bind(x, scatter_dimension=scatter_dimension + 1, tiled=tiled), 0


defbatch(all_gather_p, _all_gather_batch)
defbatch(psum_scatter_p, _psum_scatter_batch)


# -- ppermute ---------------------------------------------------------------------------

ppermute_p = collective("ppermute", lambda xp, x, perm: world().permute(_arr(xp, x), perm))


def ppermute(x, perm):
    """Send ``x`` along the (source, destination) process pairs ``perm``; a process that is
    no destination gets zeros.  Its transpose is the inverse permutation.

    Example::

        >>> ppermute(np.ones(2), perm=[(0, 0)])
        Array([1., 1.], dtype=float64)
    """
    perm = tuple((int(s), int(d)) for s, d in perm)
    return ppermute_p.bind(x, perm=perm)


deflinear(ppermute_p, lambda ct, x, perm: [ppermute(ct, tuple((d, s) for s, d in perm))])
defvectorized(ppermute_p)


# -- broadcast ---------------------------------------------------------------------------

broadcast_p = collective("broadcast", lambda xp, x, root: world().broadcast(_arr(xp, x), root))


def broadcast(x, root: int = 0):
    """Process ``root``'s ``x`` on every process.  Its transpose sums the cotangents of
    all processes into the root (the others get zero).

    Example::

        >>> broadcast(np.arange(2.0), root=0)
        Array([0., 1.], dtype=float64)
    """
    n = world().size
    if not 0 <= int(root) < n:
        raise ValueError(f"broadcast: root {root} is not a process index (there are {n} processes)")
    return broadcast_p.bind(x, root=int(root))


def _broadcast_transpose(ct, x, root):
    total = psum(ct)  # every process takes part; only the root keeps the sum
    if world().rank == root:
        return [total]
    return [zeros_like(total)]


deflinear(broadcast_p, _broadcast_transpose)
defvectorized(broadcast_p)


# -- barrier ------------------------------------------------------------------------------

def _barrier_impl(xp):
    world().barrier()
    return xp.zeros((), np.int32)


barrier_p = collective("barrier", _barrier_impl, lambda: ShapedArray((), np.dtype(np.int32)))
defzero(barrier_p)
defbatch(barrier_p, lambda axis_size, vals, dims: (barrier_p.bind(), None))  # no operands to batch


def barrier() -> None:
    """Wait until every process arrives (under jit: a step of the program that is never
    dropped or moved).

    Example::

        >>> barrier()
    """
    barrier_p.bind()


__all__ = ["psum", "pvary", "pmax", "pmin", "all_gather", "psum_scatter", "ppermute", "broadcast",
           "barrier", "psum_p", "psum_pmap_p", "pvary_p", "pmax_p", "pmin_p", "all_gather_p",
           "psum_scatter_p", "ppermute_p", "broadcast_p", "barrier_p"]
