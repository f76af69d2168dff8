"""Pytrees: nested tuples, lists, dicts, namedtuples and None, plus registered types.

Example::

    >>> from fgrad.tree_util import tree_flatten, tree_unflatten
    >>> leaves, tree = tree_flatten({"w": 1.0, "b": (2.0, None)})
    >>> leaves
    [2.0, 1.0]
    >>> tree_unflatten(tree, [x * 10 for x in leaves])
    {'b': (20.0, None), 'w': 10.0}

Every function here walks trees with an explicit stack, not Python recursion, so trees of
any depth (nested lists 100,000 levels deep) work; a treedef compares and hashes by a flat
pre-order key.
"""

from __future__ import annotations

from collections import OrderedDict, defaultdict
from typing import Any, Callable, NamedTuple

__all__ = [
    "PyTreeDef", "register_pytree_node", "register_pytree_node_class", "tree_flatten",
    "tree_unflatten", "tree_map", "tree_leaves", "tree_structure", "tree_reduce",
    "tree_all", "treedef_children", "tree_transpose", "Partial",
]


class _NodeType(NamedTuple):
    to_iter: Callable  # node -> (children, aux_data)
    from_iter: Callable  # (aux_data, children) -> node


_registry: dict[type, _NodeType] = {}


def register_pytree_node(nodetype: type, flatten_func: Callable, unflatten_func: Callable) -> None:
    """Teach fgrad to flatten ``nodetype``: ``flatten_func(x) -> (children, aux)`` and
    ``unflatten_func(aux, children) -> x``."""
    _registry[nodetype] = _NodeType(flatten_func, unflatten_func)


def register_pytree_node_class(cls):
    """Class decorator: the class defines ``tree_flatten`` and classmethod ``tree_unflatten``."""
    register_pytree_node(cls, lambda x: x.tree_flatten(), cls.tree_unflatten)
    return cls


def _sorted_keys(d):
    try:
        return sorted(d)
    except TypeError:
        return list(d)


register_pytree_node(tuple, lambda t: (t, None), lambda _, c: tuple(c))
register_pytree_node(list, lambda t: (t, None), lambda _, c: list(c))
register_pytree_node(type(None), lambda t: ((), None), lambda _, c: None)


def _dict_flatten(d):
    keys = _sorted_keys(d)
    return [d[k] for k in keys], keys


register_pytree_node(dict, _dict_flatten, lambda keys, c: dict(zip(keys, c)))
register_pytree_node(
    OrderedDict, lambda d: (list(d.values()), list(d.keys())), lambda k, c: OrderedDict(zip(k, c))
)
register_pytree_node(
    defaultdict,
    lambda d: ([d[k] for k in _sorted_keys(d)], (d.default_factory, _sorted_keys(d))),
    lambda aux, c: defaultdict(aux[0], zip(aux[1], c)),
)


def _is_namedtuple(x) -> bool:
    return isinstance(x, tuple) and hasattr(x, "_fields") and type(x) is not tuple


class PyTreeDef:
    """The structure of a pytree (without its leaves).  Hashable and comparable."""

    __slots__ = ("node_type", "aux", "children", "num_leaves", "_flat_key")

    def __init__(self, node_type, aux, children) -> None:
        self.node_type = node_type  # None for a leaf
        self.aux = aux
        self.children = children
        self.num_leaves = 1 if node_type is None else sum([c.num_leaves for c in children])
        self._flat_key = None

    def _key(self) -> tuple:
        """A flat pre-order key: (node type, aux, number of children) per node (computed
        once; flat, so comparing and hashing deep trees needs no recursion)."""
        k = self._flat_key
        if k is None:
            parts: list = []
            stack = [self]
            pop, push = stack.pop, stack.extend
            while stack:
                t = pop()
                if t.node_type is None:
                    parts.append(None)
                    continue
                aux = t.aux
                if type(aux) is list:  # dict keys
                    aux = tuple(aux)
                try:
                    hash(aux)
                except TypeError:
                    aux = repr(aux)
                parts += (t.node_type, aux, len(t.children))
                push(reversed(t.children))
            k = self._flat_key = tuple(parts)
        return k

    def __eq__(self, other) -> bool:
        return isinstance(other, PyTreeDef) and (self is other or self._key() == other._key())

    def __hash__(self) -> int:
        return hash(self._key())

    @property
    def num_nodes(self) -> int:
        n, stack = 0, [self]
        while stack:
            t = stack.pop()
            n += 1
            stack.extend(t.children)
        return n

    def unflatten(self, leaves):
        return tree_unflatten(self, leaves)

    def __repr__(self) -> str:
        return f"PyTreeDef({_show(self)})"


def _show(tree: PyTreeDef) -> str:
    """The text of a treedef (iterative: an explicit stack of pending pieces)."""
    out: list = []
    stack: list = [tree]  # PyTreeDefs to render, and strings to emit as they are
    while stack:
        t = stack.pop()
        if type(t) is str:
            out.append(t)
            continue
        nt, cs = t.node_type, t.children
        if nt is None:
            out.append("*")
            continue
        if nt is type(None):
            out.append("None")
            continue
        if nt is tuple:
            opening, closing = "(", ",)" if len(cs) == 1 else ")"
        elif nt is list:
            opening, closing = "[", "]"
        elif nt is dict:
            opening, closing = "{", "}"
        else:
            opening, closing = f"CustomNode({nt.__name__}[{t.aux!r}], [", "])"
        pieces: list = [opening]
        for i, c in enumerate(cs):
            if i:
                pieces.append(", ")
            if nt is dict:
                pieces.append(f"{t.aux[i]!r}: ")
            pieces.append(c)
        pieces.append(closing)
        stack.extend(reversed(pieces))
    return "".join(out)


_LEAF = PyTreeDef(None, None, ())


def _node_of(x):
    t = type(x)
    nt = _registry.get(t)
    if nt is not None:
        return t, nt
    if _is_namedtuple(x):
        return t, _NodeType(lambda v: (tuple(v), None), lambda _, c, t=t: t(*c))
    return None, None


def _flatten(x, is_leaf, leaves: list) -> PyTreeDef:
    """The treedef of ``x``, appending its leaves to ``leaves`` (depth-first, left to
    right).  Iterative: ``stack`` holds the open nodes (type, aux, the iterator over their
    remaining children, the finished treedefs of their parent)."""
    registry = _registry
    done: list = []  # finished treedefs of the children of the innermost open node
    stack: list = []
    it = iter((x,))
    while True:
        for c in it:
            if is_leaf is not None and is_leaf(c):
                leaves.append(c)
                done.append(_LEAF)
                continue
            t = type(c)
            nt = registry.get(t)
            if nt is None:
                t, nt = _node_of(c)
                if nt is None:
                    leaves.append(c)
                    done.append(_LEAF)
                    continue
            children, aux = nt.to_iter(c)
            stack.append((t, aux, it, done))
            it, done = iter(children), []
            break
        else:
            if not stack:
                return done[0]
            t, aux, it, parent = stack.pop()
            parent.append(PyTreeDef(t, aux, tuple(done)))
            done = parent


def tree_flatten(tree: Any, is_leaf: Callable | None = None):
    """Returns ``(leaves, treedef)``.  Dict keys are sorted; None is an empty node."""
    leaves: list = []
    t = type(tree)
    if t not in _registry and is_leaf is None and not _is_namedtuple(tree):
        return [tree], _LEAF
    return leaves, _flatten(tree, is_leaf, leaves)


def _unflatten(tree: PyTreeDef, leaves: list) -> Any:
    """Build ``tree``'s structure from ``leaves`` (iterative, like `_flatten`); raises
    ValueError when there are too few leaves."""
    registry = _registry
    pos = 0
    n = len(leaves)
    done: list = []
    stack: list = []
    it = iter((tree,))
    while True:
        for t in it:
            if t.node_type is None:
                if pos >= n:
                    raise ValueError(
                        f"tree_unflatten: too few leaves for {tree}; expected {tree.num_leaves}, got {n}")
                done.append(leaves[pos])
                pos += 1
                continue
            stack.append((t, it, done))
            it, done = iter(t.children), []
            break
        else:
            if not stack:
                return done[0], pos
            t, it, parent = stack.pop()
            nt = registry.get(t.node_type)
            parent.append(t.node_type(*done) if nt is None else nt.from_iter(t.aux, done))
            done = parent


def tree_unflatten(treedef: PyTreeDef, leaves) -> Any:
    """Rebuild a pytree of structure ``treedef`` from ``leaves``."""
    if treedef.node_type is None:
        if len(leaves) != 1:
            raise ValueError(f"tree_unflatten: expected 1 leaf for {treedef}, got {len(leaves)}")
        return leaves[0]
    if type(leaves) is not list:
        leaves = list(leaves)
    out, used = _unflatten(treedef, leaves)
    if used != len(leaves):
        raise ValueError(f"tree_unflatten: {len(leaves) - used} leaves left over for {treedef}")
    return out


def tree_leaves(tree, is_leaf=None) -> list:
    return tree_flatten(tree, is_leaf)[0]


def tree_structure(tree, is_leaf=None) -> PyTreeDef:
    return tree_flatten(tree, is_leaf)[1]


def treedef_children(treedef: PyTreeDef) -> list:
    return list(treedef.children)


def tree_map(f: Callable, tree, *rest, is_leaf=None):
    """Apply ``f`` leaf-wise over one or more pytrees of the same structure.

    Example::

        >>> tree_map(lambda a, b: a + b, (1, [2]), (10, [20]))
        (11, [22])
    """
    leaves, treedef = tree_flatten(tree, is_leaf)
    others = []
    for r in rest:
        ls, td = tree_flatten(r, is_leaf)
        if td != treedef:
            raise ValueError(f"tree_map: structures differ: {treedef} vs {td}")
        others.append(ls)
    return tree_unflatten(treedef, [f(*xs) for xs in zip(leaves, *others)])


_NO_INIT = object()


def tree_reduce(f: Callable, tree, initializer=_NO_INIT, is_leaf=None):
    import functools

    leaves = tree_leaves(tree, is_leaf)
    if initializer is _NO_INIT:
        return functools.reduce(f, leaves)
    return functools.reduce(f, leaves, initializer)


def tree_all(tree) -> bool:
    return all(tree_leaves(tree))


def tree_transpose(outer_treedef: PyTreeDef, inner_treedef: PyTreeDef, pytree_to_transpose):
    flat = tree_leaves(pytree_to_transpose)
    n_in = inner_treedef.num_leaves
    groups = [flat[i * n_in:(i + 1) * n_in] for i in range(outer_treedef.num_leaves)]
    inners = [tree_unflatten(outer_treedef, [g[j] for g in groups]) for j in range(n_in)]
    return tree_unflatten(inner_treedef, inners)


def flatten_prefix(prefix, tree, name: str = "argument") -> list:
    """Broadcast a pytree prefix (like vmap's in_axes) to the leaves of ``tree``."""
    out: list = []
    stack = [(prefix, tree)]  # iterative, so deep trees are fine; popped in left-to-right order
    while stack:
        p, t = stack.pop()
        tp, ntp = _node_of(p) if p is not None else (None, None)
        if p is None or ntp is None:
            out.extend([p] * len(tree_leaves(t)))
            continue
        tt, ntt = _node_of(t)
        if tt is not tp:
            raise ValueError(
                f"{name} specification must be a tree prefix of the corresponding value, got "
                f"{type(p).__name__} for a value of type {type(t).__name__}"
            )
        pc, paux = ntp.to_iter(p)
        tc, taux = ntt.to_iter(t)
        if len(pc) != len(tc) or (paux != taux and tp is dict):
            raise ValueError(f"{name} specification {p!r} does not match the value's structure")
        stack.extend(reversed(list(zip(pc, tc))))
    return out


class Partial:
    """``functools.partial`` that is a pytree (its bound arguments are leaves)."""

    def __init__(self, func, *args, **kwargs) -> None:
        self.func, self.args, self.keywords = func, args, kwargs

    def __call__(self, *args, **kwargs):
        return self.func(*self.args, *args, **{**self.keywords, **kwargs})


register_pytree_node(
    Partial,
    lambda p: ((p.args, p.keywords), p.func),
    lambda func, c: Partial(func, *c[0], **c[1]),
)
