"""`fgrad.lax` collectives over named mapped axes (JAX's ``jax.lax.psum`` & co.).

``axis_name`` names the axis of an enclosing ``fgrad.vmap(..., axis_name=)`` or
``fgrad.pmap(..., axis_name=)``; the examples along it play the devices.  ``psum``,
``pmean``, ``pmax`` and ``pmin`` take a pytree and a name or a tuple of names.  The
primitives and their rules live in `fgrad.ops.named_axes`.

Example::

    >>> import fgrad, fgrad.lax as lax, fgrad.numpy as fnp
    >>> fgrad.vmap(lambda x: x / lax.psum(x, "i"), axis_name="i")(fnp.asarray([1.0, 3.0]))
    Array([0.25, 0.75], dtype=float64)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from .core.array import get_aval
from .core.trace import state
from .ops import named_axes as _na
from .ops.elementwise import div
from .transforms.batching import BatchTrace
from .tree_util import map_arrays as tree_map

__all__ = ["psum", "pmean", "pmax", "pmin", "all_gather", "psum_scatter", "ppermute", "pshuffle",
           "axis_index", "axis_size", "pcast", "pvary", "pbroadcast"]


def _names(axis_name: Any) -> tuple:
    return tuple(axis_name) if isinstance(axis_name, (tuple, list)) else (axis_name,)


def _bound_names() -> list:
    names, t = [], state.trace
    while t is not None:
        if isinstance(t, BatchTrace) and t.axis_name is not None:
            names.append(t.axis_name)
        t = t.parent
    return names


def axis_size(axis_name: Hashable | Sequence[Hashable]) -> int:
    """The size of the named mapped axis (the product over a tuple of names), as a Python
    int (JAX's ``jax.lax.axis_size``); for a ``pmap`` axis under ``mpiexec``, the global
    size (every process's devices).

    Example::

        >>> import fgrad, numpy as np
        >>> fgrad.vmap(lambda x: x * axis_size("i"), axis_name="i")(np.ones(4))
        Array([4., 4., 4., 4.], dtype=float64)
    """
    size = 1
    for name in _names(axis_name):
        t = state.trace
        while t is not None and not (isinstance(t, BatchTrace) and t.axis_name == name):
            t = t.parent
        if t is None:
            raise NameError(
                f"unbound axis name: {name!r}. The following axis names (defined by vmap/pmap "
                f"axis_name=) are available to collective operations: {_bound_names()}")
        size *= t.axis_size * t.processes  # a pmap axis spanning processes: all of them
    return size


def _check_groups(groups, op: str) -> None:
    if groups is not None:
        raise NotImplementedError(f"fgrad.lax.{op}: axis_index_groups is not supported; reduce over the "
                                  "whole named axis (or reshape it into two named axes with nested vmaps)")


def _named_reduction(prim, name: str, doc: str):
    """The face of a reduction over named axes: ``name(x, axis_name)`` binds ``prim`` on every
    leaf of the pytree ``x``."""

    def reduce(x: Any, axis_name: Hashable | Sequence[Hashable], *,
               axis_index_groups: Sequence[Sequence[int]] | None = None) -> Any:
        _check_groups(axis_index_groups, name)
        axes = _names(axis_name)
        axis_size(axes)  # NameError for an unbound name, at the call
        return tree_map(lambda leaf: prim.bind(leaf, axes=axes), x)

    reduce.__name__ = reduce.__qualname__ = name
    reduce.__doc__ = doc.lstrip()
    return reduce


psum = _named_reduction(_na.psum_p, "psum", """\
    The sum of ``x`` over the named axis (every example gets the total); a pytree is
    reduced leaf by leaf.  Its transpose is ``psum`` (JAX's pairing).

    Example::

        >>> import fgrad, numpy as np
        >>> fgrad.vmap(lambda x: psum(x, "i"), axis_name="i")(np.arange(3.0))
        Array([3., 3., 3.], dtype=float64)
    """)

pmax = _named_reduction(_na.pmax_p, "pmax", """\
    The elementwise maximum of ``x`` over the named axis (not differentiable, as in JAX).

    Example::

        >>> import fgrad, numpy as np
        >>> fgrad.vmap(lambda x: pmax(x, "i"), axis_name="i")(np.arange(3.0))
        Array([2., 2., 2.], dtype=float64)
    """)

pmin = _named_reduction(_na.pmin_p, "pmin", """\
    The elementwise minimum of ``x`` over the named axis (not differentiable, as in JAX).

    Example::

        >>> import fgrad, numpy as np
        >>> fgrad.vmap(lambda x: pmin(x, "i"), axis_name="i")(np.arange(3.0))
        Array([0., 0., 0.], dtype=float64)
    """)


def pmean(x: Any, axis_name: Hashable | Sequence[Hashable], *,
          axis_index_groups: Sequence[Sequence[int]] | None = None) -> Any:
    """The mean of ``x`` over the named axis.

    Example::

        >>> import fgrad, numpy as np
        >>> fgrad.vmap(lambda x: pmean(x, "i"), axis_name="i")(np.arange(3.0))
        Array([1., 1., 1.], dtype=float64)
    """
    _check_groups(axis_index_groups, "pmean")
    n = axis_size(axis_name)
    return tree_map(lambda s: div(s, n), psum(x, axis_name))


def _single(axis_name, op: str) -> tuple:
    axes = _names(axis_name)
    if len(axes) != 1:
        raise NotImplementedError(f"fgrad.lax.{op}: one axis name, got {axis_name!r}")
    return axes


def _axis(axis: int, ndim: int, op: str) -> int:
    if not -ndim <= axis < ndim:
        raise ValueError(f"{op}: axis {axis} is out of range for an operand of rank {ndim - 1}")
    return axis % ndim


def all_gather(x: Any, axis_name: Hashable, *, axis_index_groups: Sequence[Sequence[int]] | None = None,
               axis: int = 0, tiled: bool = False) -> Any:
    """Every example's ``x`` along the named axis, stacked on a new axis ``axis``
    (concatenated along ``axis`` with ``tiled=True``).  Its transpose is `psum_scatter`.

    Example::

        >>> import fgrad, numpy as np
        >>> fgrad.vmap(lambda x: all_gather(x, "i"), axis_name="i")(np.arange(2.0))
        Array([[0., 1.],
               [0., 1.]], dtype=float64)
    """
    _check_groups(axis_index_groups, "all_gather")
    axes = _single(axis_name, "all_gather")
    n = axis_size(axes)

    def one(leaf):
        nd = get_aval(leaf).ndim
        if tiled and nd == 0:
            raise ValueError("all_gather: tiled=True needs an operand of rank >= 1")
        a = _axis(axis, nd if tiled else nd + 1, "all_gather")
        out = _na.all_gather_p.bind(leaf, axes=axes, axis=a, tiled=bool(tiled), size=n)
        return _na.as_varying_p.bind(out, axes=axes) if _na._varying_bound(axes[0]) else out

    return tree_map(one, x)


def psum_scatter(x: Any, axis_name: Hashable, *, scatter_dimension: int = 0,
                 axis_index_groups: Sequence[Sequence[int]] | None = None, tiled: bool = False) -> Any:
    """``psum`` over the named axis, example ``i`` keeping block ``i`` of
    ``scatter_dimension`` (whose size must be the axis size; a multiple of it with
    ``tiled=True``).  Its transpose is `all_gather`.

    Example::

        >>> import fgrad, numpy as np
        >>> fgrad.vmap(lambda x: psum_scatter(x, "i"), axis_name="i")(np.eye(2))
        Array([1., 1.], dtype=float64)
    """
    _check_groups(axis_index_groups, "psum_scatter")
    axes = _single(axis_name, "psum_scatter")
    n = axis_size(axes)

    def one(leaf):
        av = get_aval(leaf)
        d = _axis(scatter_dimension, av.ndim, "psum_scatter")
        _na._scatter_abstract(av, axes, d, bool(tiled), n)  # the shape check, at the call
        return _na.psum_scatter_p.bind(leaf, axes=axes, scatter_dimension=d, tiled=bool(tiled), size=n)

    return tree_map(one, x)


def ppermute(x: Any, axis_name: Hashable, perm: Sequence[tuple[int, int]]) -> Any:
    """Send example ``s``'s ``x`` to example ``d`` for each pair ``(s, d)`` of ``perm``
    along the named axis; an example that receives nothing gets zeros (as in ``pmap``).
    Its transpose is the inverse permutation.

    Example::

        >>> import fgrad, numpy as np
        >>> fgrad.vmap(lambda x: ppermute(x, "i", [(0, 1), (1, 2), (2, 0)]), axis_name="i")(np.arange(3.0))
        Array([2., 0., 1.], dtype=float64)
    """
    axes = _single(axis_name, "ppermute")
    n = axis_size(axes)
    pairs = tuple((int(s), int(d)) for s, d in perm)
    srcs, dsts = [s for s, _ in pairs], [d for _, d in pairs]
    if len(set(srcs)) != len(srcs) or len(set(dsts)) != len(dsts):
        raise ValueError(f"ppermute: perm sends from or to an index twice: {list(pairs)}")
    bad = [p for p in pairs if not (0 <= p[0] < n and 0 <= p[1] < n)]
    if bad:
        raise ValueError(f"ppermute: perm pairs {bad} name indices outside axis {axes[0]!r} of size {n}")
    return tree_map(lambda leaf: _na.ppermute_p.bind(leaf, axes=axes, perm=pairs), x)


def pshuffle(x: Any, axis_name: Hashable, perm: Sequence[int]) -> Any:
    """Example ``i`` gets the ``x`` of example ``perm[i]`` (a full permutation).

    Example::

        >>> import fgrad, numpy as np
        >>> fgrad.vmap(lambda x: pshuffle(x, "i", [2, 0, 1]), axis_name="i")(np.arange(3.0))
        Array([2., 0., 1.], dtype=float64)
    """
    perm = [int(p) for p in perm]
    if sorted(perm) != list(range(len(perm))):
        raise ValueError(f"pshuffle: perm must be a permutation of range({len(perm)}), got {perm}")
    return ppermute(x, axis_name, [(s, d) for d, s in enumerate(perm)])


def axis_index(axis_name: Hashable) -> Any:
    """The position of the current example along the named axis (int32), JAX's
    ``jax.lax.axis_index``.

    Example::

        >>> import fgrad, numpy as np
        >>> fgrad.vmap(lambda x: x * axis_index("i"), axis_name="i")(np.ones(3))
        Array([0., 1., 2.], dtype=float64)
    """
    axes = _single(axis_name, "axis_index")
    axis_size(axes)
    return _na.axis_index_p.bind(axes=axes)



def pcast(x: Any, axis_name: Hashable | Sequence[Hashable], *, to: str) -> Any:
    """Change the type of ``x`` along the named axes (JAX's ``jax.lax.pcast``): with
    ``to="varying"`` a value that is the same on every block (invariant) becomes varying --
    the identity on values, whose transpose sums the cotangent over the blocks (``psum``),
    which is what a shard_map body's derivative with respect to a replicated value needs.
    ``"reduced"``/``"unreduced"`` (JAX's explicit-sharding types) are not supported.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> from fgrad.sharding import PartitionSpec as P
        >>> f = fgrad.shard_map(lambda w: pcast(w, "i", to="varying") * 2.0,
        ...                     mesh=fgrad.make_mesh((1,), ("i",)), in_specs=P(), out_specs=P("i"))
        >>> f(fnp.ones(2))
        Array([2., 2.], dtype=float64)
    """
    if to not in ("varying", "reduced", "unreduced"):
        raise ValueError(f"Got unexpected `to` value. Allowed `to` values are: "
                         f"{{'varying', 'unreduced', 'reduced'}}, got {to!r}")
    if to != "varying":
        raise NotImplementedError(f"fgrad.lax.pcast(to={to!r}): fgrad has no reduced/unreduced array types "
                                  "(JAX's explicit sharding); only to='varying' is supported")
    axes = _names(axis_name)
    axis_size(axes)
    return tree_map(lambda leaf: _na.pvary_p.bind(leaf, axes=axes), x)


def pvary(x: Any, axis_name: Hashable | Sequence[Hashable]) -> Any:
    """``pcast(x, axis_name, to="varying")``: the name older JAX releases (0.6-0.9) gave it.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> fgrad.vmap(lambda x, w: x * pvary(w, "i"), in_axes=(0, None), axis_name="i")(
        ...     fnp.ones(2), fnp.asarray(3.0))
        Array([3., 3.], dtype=float64)
    """
    return pcast(x, axis_name, to="varying")


def pbroadcast(x: Any, axis_name: Hashable, source: int) -> Any:
    """Every example along ``axis_name`` gets the value of example ``source`` (JAX's
    ``lax.pbroadcast``, a collective broadcast), defined as JAX documents it: the ``psum`` of
    ``x`` masked to the source example, so derivatives flow back to the source only.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> fgrad.vmap(lambda v: pbroadcast(v, "i", 1), axis_name="i")(fnp.arange(6.0).reshape(3, 2))
        Array([[2., 3.],
               [2., 3.],
               [2., 3.]], dtype=float64)
    """
    from .ops.elementwise import select

    n = axis_size(axis_name)
    if not isinstance(source, int) or not 0 <= source < n:
        raise ValueError(f"pbroadcast: source must be an index into the axis {axis_name!r} of size {n}, "
                         f"got {source!r}")
    me = axis_index(axis_name)

    def one(leaf):
        from .core.constants import zeros_like

        return psum(select(me == source, leaf, zeros_like(leaf)), axis_name)
    return tree_map(one, x)
