"""`fgrad.custom_batching`: the names of ``jax.custom_batching`` -- `custom_vmap` (a
function with its own ``vmap`` rule) and `sequential_vmap` (batched by a loop).

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> from fgrad.custom_batching import sequential_vmap
    >>> @sequential_vmap
    ... def f(x):
    ...     return x.sum() + 1.0
    >>> fgrad.vmap(f)(fnp.ones((3, 2)))
    Array([3., 3., 3.], dtype=float64)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .ops.control_flow import map as _loop_map
from .transforms.custom_vmap import custom_vmap
from .tree_util import tree_flatten, tree_leaves, tree_map, tree_unflatten


def sequential_vmap(f: Callable[..., Any]) -> custom_vmap:
    """``f`` as a `custom_vmap` function whose batching rule is a loop (``lax.map``) over
    the batched arguments, the unbatched ones passed whole to every call: for functions
    that do not vectorize (host callbacks, data-dependent control).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> from fgrad.custom_batching import sequential_vmap
        >>> g = sequential_vmap(lambda x, y: x * y)
        >>> fgrad.vmap(g, in_axes=(0, None))(fnp.arange(3.0), 2.0)
        Array([0., 2., 4.], dtype=float64)
    """
    f = custom_vmap(f)

    @f.def_vmap
    def rule(axis_size, in_batched, *args):
        leaves, tree = tree_flatten(list(args))
        flags = tree_leaves(in_batched)

        def one(mapped):
            it = iter(mapped)
            return f(*tree_unflatten(tree, [next(it) if b else x for x, b in zip(leaves, flags)]))

        out = _loop_map(one, [x for x, b in zip(leaves, flags) if b])
        return out, tree_map(lambda _: True, out)

    return f


__all__ = ["custom_vmap", "sequential_vmap"]
