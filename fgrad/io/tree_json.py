"""A pytree's structure as JSON: builtin containers, namedtuples, registered dataclasses and
other registered nodes, with each leaf named by its key path (``"layers.0.w"``).

Decoding builds only dicts, lists and tuples (a namedtuple or dataclass comes back as a dict
of its fields, another registered node as a list): no class is looked up or constructed, so
reading a structure never runs code.  Pass ``like=`` to `fgrad.io.load` for the exact types.

Example::

    >>> spec, names, leaves = encode({"b": [1.0, None], "a": (2,)})
    >>> names
    ['a.0', 'b.0']
    >>> decode(spec, {"a.0": "A", "b.0": "B"})
    {'a': ('A',), 'b': ['B', None]}
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..tree_util import _node_of  # a value's node (is_tree_node takes a type, as JAX's)
from ..tree_util import (DictKey, FlattenedIndexKey, GetAttrKey, SequenceKey, keystr,
                         tree_flatten_with_path)

KINDS = ("none", "leaf", "dict", "list", "tuple", "namedtuple", "dataclass", "node")


def leaf_name(path) -> str:
    """The flat name of a key path: its keys joined by dots (``"layers.0.w"``).

    Example::

        >>> from fgrad.io import tree_json
        >>> from fgrad import tree_util
        >>> path, _ = tree_util.tree_flatten_with_path({'layers': [{'w': 1.0}]})[0][0]
        >>> tree_json.leaf_name(path)
        'layers.0.w'
    """
    return keystr(path, simple=True, separator=".")


def _key(k) -> Any:
    if isinstance(k, DictKey):
        if not isinstance(k.key, (str, int)) or isinstance(k.key, bool):
            raise TypeError(f"fgrad.io.save: dict keys must be str or int, got {k.key!r}")
        return k.key
    if isinstance(k, SequenceKey):
        return k.idx
    if isinstance(k, GetAttrKey):
        return k.name
    if isinstance(k, FlattenedIndexKey):
        return k.key
    return str(k)


def _kind(x) -> str:
    t = type(x)
    if t is dict:
        return "dict"
    if t is list:
        return "list"
    if t is tuple:
        return "tuple"
    if isinstance(x, tuple) and hasattr(t, "_fields"):
        return "namedtuple"
    if dataclasses.is_dataclass(x):
        return "dataclass"
    return "node"


def encode(tree) -> tuple[dict, list[str], list]:
    """``(spec, names, leaves)``: the JSON-able structure of ``tree``, and its leaves with
    their flat names, in `fgrad.tree_util.tree_leaves` order.

    Example::

        >>> from fgrad.io import tree_json
        >>> spec, names, leaves = tree_json.encode({'b': 1.0, 'w': [2.0, 3.0]})
        >>> names, leaves
        (['b', 'w.0', 'w.1'], [1.0, 2.0, 3.0])
        >>> spec['t'], spec['k'], spec['c'][0]
        ('dict', ['b', 'w'], {'t': 'leaf', 'name': 'b', 'py': 'float'})
    """
    flat, _ = tree_flatten_with_path(tree)
    names = [leaf_name(p) for p, _ in flat]
    leaves = [leaf for _, leaf in flat]
    it = iter(names)
    spec = _encode(tree, it)
    return spec, names, leaves


def _encode(x, names) -> dict:
    if x is None:
        return {"t": "none"}
    if _node_of(x)[1] is None:
        return {"t": "leaf", "name": next(names), "py": _python_type(x)}
    kids, _ = tree_flatten_with_path(x, is_leaf=lambda y: y is not x)
    kind = _kind(x)
    node = {"t": kind, "k": [_key(p[0]) for p, _ in kids], "c": [_encode(c, names) for _, c in kids]}
    if kind in ("namedtuple", "dataclass", "node"):
        node["type"] = type(x).__qualname__  # for messages only; never looked up
    return node


def _python_type(x) -> str | None:
    for t in (bool, int, float, complex):
        if type(x) is t:
            return t.__name__
    return None


def decode(spec, leaves: dict[str, Any]) -> Any:
    """The tree ``spec`` describes, with leaves from ``leaves`` (by name), built from dicts,
    lists and tuples only.

    Example::

        >>> from fgrad.io import tree_json
        >>> spec, names, leaves = tree_json.encode({'b': 1.0, 'w': (2.0, 3.0)})
        >>> tree_json.decode(spec, dict(zip(names, leaves)))
        {'b': 1.0, 'w': (2.0, 3.0)}
    """
    if not isinstance(spec, dict) or spec.get("t") not in KINDS:
        raise ValueError(f"fgrad.io.load: the stored tree structure is malformed near {spec!r:.80}")
    kind = spec["t"]
    if kind == "none":
        return None
    if kind == "leaf":
        name = spec.get("name")
        if name not in leaves:
            raise ValueError(f"fgrad.io.load: the structure names a leaf {name!r} the file does not hold")
        return leaves[name]
    keys, kids = spec.get("k"), spec.get("c")
    if not isinstance(keys, list) or not isinstance(kids, list) or len(keys) != len(kids):
        raise ValueError(f"fgrad.io.load: the stored tree structure is malformed near {spec!r:.80}")
    children = [decode(c, leaves) for c in kids]
    if kind == "list" or kind == "node":
        return children
    if kind == "tuple":
        return tuple(children)
    for k in keys:
        if not isinstance(k, (str, int)):
            raise ValueError(f"fgrad.io.load: the stored tree structure has a key {k!r} of type "
                             f"{type(k).__name__}")
    return dict(zip(keys, children))
