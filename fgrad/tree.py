"""`fgrad.tree`: the short names of `fgrad.tree_util` (JAX's ``jax.tree``).

Example::

    >>> import fgrad
    >>> fgrad.tree.map(lambda x: x + 1, {"a": 1, "b": (2, None)})
    {'a': 2, 'b': (3, None)}
    >>> fgrad.tree.leaves([1, (2, 3)])
    [1, 2, 3]
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .tree_util import (
    tree_all as all,  # noqa: A004 - JAX's name
    tree_broadcast as broadcast,
    tree_flatten as flatten,
    tree_flatten_with_path as flatten_with_path,
    tree_leaves as leaves,
    tree_leaves_with_path as leaves_with_path,
    tree_map as map,  # noqa: A004 - JAX's name
    tree_map_with_path as map_with_path,
    tree_reduce as reduce,
    tree_reduce_associative as reduce_associative,
    tree_structure as structure,
    tree_transpose as transpose,
    tree_unflatten as unflatten,
)



def static(**kwargs: Any) -> Any:
    """A dataclass field holding static data (JAX's ``jax.tree.static``): ``dataclasses.field``
    with ``metadata["static"] = True``, which `fgrad.tree_util.register_dataclass` keeps in
    the treedef instead of among the leaves.  Takes ``dataclasses.field``'s arguments.

    Example::

        >>> import dataclasses, fgrad
        >>> @fgrad.tree_util.register_dataclass
        ... @dataclasses.dataclass
        ... class Op:
        ...     x: float
        ...     op: str = fgrad.tree.static(default="add")
        >>> fgrad.tree.leaves(Op(1.0, "mul"))
        [1.0]
    """
    metadata = {"static": True, **(kwargs.pop("metadata", None) or {})}  # (the caller's may override)
    return dataclasses.field(metadata=metadata, **kwargs)


__all__ = ["all", "broadcast", "flatten", "flatten_with_path", "leaves", "leaves_with_path", "map",
           "map_with_path", "reduce", "reduce_associative", "static", "structure", "transpose", "unflatten"]
