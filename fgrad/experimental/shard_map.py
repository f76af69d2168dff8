"""``jax.experimental.shard_map``: the older home of `fgrad.shard_map`, with its older
signature ``shard_map(f, mesh, in_specs, out_specs, check_rep=True, auto=frozenset())``.

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> from fgrad.experimental.shard_map import shard_map
    >>> from fgrad.sharding import PartitionSpec as P
    >>> shard_map(lambda x: x * 2, fgrad.make_mesh((1,), ("i",)), P("i"), P("i"))(fnp.ones(2))
    Array([2., 2.], dtype=float64)
"""

from __future__ import annotations

from typing import Any, Callable

from .._shard_map import shard_map as _shard_map

__all__ = ["shard_map"]


def shard_map(f: Callable, mesh: Any, in_specs: Any, out_specs: Any, check_rep: bool = True,
              auto: Any = frozenset()) -> Callable:
    """`fgrad.shard_map` with JAX's older positional signature: ``check_rep`` is the older
    name of ``check_vma``; ``auto`` names the mesh axes left automatic (the others are the
    manual ``axis_names``).

    Example::

        >>> import fgrad, fgrad.lax as lax, fgrad.numpy as fnp
        >>> from fgrad.sharding import PartitionSpec as P
        >>> f = shard_map(lambda x: lax.psum(x, "i"), fgrad.make_mesh((1,), ("i",)), P("i"), P())
        >>> f(fnp.ones(1))
        Array([1.], dtype=float64)
    """
    manual = frozenset(a for a in mesh.axis_names if a not in frozenset(auto)) if auto else frozenset()
    return _shard_map(f, mesh=mesh, in_specs=in_specs, out_specs=out_specs, check_vma=check_rep,
                      axis_names=manual)
