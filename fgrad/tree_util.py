"""Pytrees: nested tuples, lists, dicts, namedtuples and None, plus registered types.

A pytree is a container of containers whose non-container parts are its *leaves*; None is an
empty container (no leaves).  The names and semantics are JAX's ``jax.tree_util``: flattening
(dict keys sorted, ``OrderedDict`` in insertion order), prefix matching of the extra trees of
`tree_map`, key paths (`DictKey`, `SequenceKey`, `GetAttrKey`, `FlattenedIndexKey`, `keystr`)
and registration of your own types (`register_pytree_node`, `register_pytree_with_keys`,
`register_pytree_node_class`, `register_dataclass`, `register_static`).

Example::

    >>> from fgrad.tree_util import tree_flatten, tree_unflatten, tree_map, keystr
    >>> leaves, tree = tree_flatten({"w": 1.0, "b": (2.0, None)})
    >>> leaves
    [2.0, 1.0]
    >>> tree_unflatten(tree, [x * 10 for x in leaves])
    {'b': (20.0, None), 'w': 10.0}
    >>> tree_map(lambda x, y: (x, y), [1, 2], [(3, 4), 5])   # the extra tree may be deeper
    [(1, (3, 4)), (2, 5)]

Every function here walks trees with an explicit stack, not Python recursion, so trees of
any depth (nested lists 100,000 levels deep) work; a treedef compares and hashes by a flat
pre-order key.
"""

from __future__ import annotations

from collections import OrderedDict, defaultdict
import dataclasses
import functools
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, NamedTuple

__all__ = [
    "PyTreeDef", "register_pytree_node", "register_pytree_node_class", "register_pytree_with_keys",
    "register_pytree_with_keys_class", "register_dataclass", "register_static", "tree_flatten",
    "tree_unflatten", "tree_map", "tree_leaves", "tree_structure", "tree_reduce",
    "tree_reduce_associative", "tree_all", "treedef_children", "treedef_is_leaf", "treedef_tuple",
    "tree_transpose", "tree_broadcast", "all_leaves", "is_tree_node", "Partial", "DictKey",
    "SequenceKey", "GetAttrKey", "FlattenedIndexKey", "KeyEntry", "KeyPath", "keystr",
    "tree_flatten_with_path", "tree_leaves_with_path", "tree_map_with_path",
    "flatten_one_level", "flatten_one_level_with_keys", "PyTreeRegistry", "default_registry",
]


# ---- key paths ---------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class DictKey:
    """The key of a dict entry on a key path: ``str(DictKey("a")) == "['a']"``.

    Example::

        >>> from fgrad import tree_util
        >>> path, _ = tree_util.tree_flatten_with_path({'a': 1.0})[0][0]
        >>> path
        (DictKey(key='a'),)
        >>> tree_util.keystr(path)
        "['a']"
    """

    key: Hashable

    def __str__(self) -> str:
        return f"[{self.key!r}]"


@dataclasses.dataclass(frozen=True)
class SequenceKey:
    """The index of a list or tuple entry on a key path: ``str(SequenceKey(0)) == "[0]"``.

    Example::

        >>> from fgrad import tree_util
        >>> path, _ = tree_util.tree_flatten_with_path([1.0, 2.0])[0][1]
        >>> path
        (SequenceKey(idx=1),)
        >>> tree_util.keystr(path)
        '[1]'
    """

    idx: int

    def __str__(self) -> str:
        return f"[{self.idx!r}]"


@dataclasses.dataclass(frozen=True)
class GetAttrKey:
    """An attribute (namedtuple field, dataclass field) on a key path: ``".x"``.

    Example::

        >>> from fgrad import tree_util
        >>> import collections
        >>> Point = collections.namedtuple('Point', ['x', 'y'])
        >>> path, _ = tree_util.tree_flatten_with_path(Point(1.0, 2.0))[0][1]
        >>> path
        (GetAttrKey(name='y'),)
        >>> tree_util.keystr(path)
        '.y'
    """

    name: str

    def __str__(self) -> str:
        return f".{self.name}"


@dataclasses.dataclass(frozen=True)
class FlattenedIndexKey:
    """The position of a child of a type registered without keys: ``"[<flat index 1>]"``.

    Example::

        >>> from fgrad import tree_util
        >>> tree_util.FlattenedIndexKey(1)
        FlattenedIndexKey(key=1)
        >>> str(tree_util.FlattenedIndexKey(1))
        '[<flat index 1>]'
    """

    key: int

    def __str__(self) -> str:
        return f"[<flat index {self.key}>]"


KeyEntry = Any
KeyPath = tuple


def _simple_key(k) -> str:
    for attr in ("key", "idx", "name"):
        if hasattr(k, attr):
            return str(getattr(k, attr))
    return str(k)


def keystr(keys: KeyPath, *, simple: bool = False, separator: str = "") -> str:
    """The text of a key path, as JAX writes it.

    Example::

        >>> keystr((DictKey("b"), SequenceKey(1), GetAttrKey("x")))
        "['b'][1].x"
        >>> keystr((DictKey("b"), SequenceKey(1)), simple=True, separator="/")
        'b/1'
    """
    if simple:
        return separator.join(_simple_key(k) for k in keys)
    return separator.join(str(k) for k in keys)


# ---- the registry ------------------------------------------------------------------------------

class _NodeType(NamedTuple):
    to_iter: Callable  # node -> (children, aux_data)
    from_iter: Callable  # (aux_data, children) -> node
    to_keyed: Callable | None  # node -> ([(key, child), ...], aux_data), or None: flat-index keys
    name: str  # how the treedef's repr names the type


_registry: dict[type, _NodeType] = {}
# types that are leaves of the public tree functions but that the transforms flatten into
# their arrays (typed PRNG key arrays: leaves as in JAX, uint32 data under jit/vmap/scan)
_array_nodes: dict[type, _NodeType] = {}


def register_array_node(nodetype: type, flatten_func: Callable, unflatten_func: Callable) -> None:
    """Register ``nodetype`` as an array-like leaf: `tree_flatten` and the other public
    functions keep it whole (a leaf), while the transforms flatten it with `flatten_arrays`
    into the arrays it holds (``flatten_func(x) -> (arrays, aux)``, ``unflatten_func(aux,
    arrays) -> x``).  fgrad's typed PRNG key arrays are registered this way, so that
    ``tree_leaves(key) == [key]`` as in JAX while ``jit(f)(key)`` traces the key's data.

    Example::

        >>> import fgrad.random as random
        >>> key = random.key(0)
        >>> tree_leaves({"k": key})[0] is key, len(flatten_arrays({"k": key})[0])
        (True, 1)
    """
    if nodetype in _array_nodes or nodetype in _registry:
        raise ValueError(f"Duplicate custom PyTreeDef type registration for {nodetype!r}.")
    _array_nodes[nodetype] = _NodeType(flatten_func, unflatten_func, None, nodetype.__name__)


def _register(nodetype: type, to_iter, from_iter, to_keyed, name: str | None = None) -> None:
    if nodetype in _registry:
        raise ValueError(f"Duplicate custom PyTreeDef type registration for {nodetype!r}.")
    _registry[nodetype] = _NodeType(to_iter, from_iter, to_keyed, name or nodetype.__name__)


def register_pytree_node(nodetype: type, flatten_func: Callable, unflatten_func: Callable,
                         flatten_with_keys_func: Callable | None = None) -> None:
    """Teach fgrad to flatten ``nodetype``: ``flatten_func(x) -> (children, aux)`` and
    ``unflatten_func(aux, children) -> x`` (``aux`` must be hashable and comparable).
    Registering a type twice raises ValueError, as in JAX.

    Example::

        >>> class Pair:
        ...     def __init__(self, a, b): self.a, self.b = a, b
        >>> register_pytree_node(Pair, lambda p: ((p.a, p.b), None), lambda _, c: Pair(*c))
        >>> tree_leaves([Pair(1, 2), 3])
        [1, 2, 3]
    """
    _register(nodetype, flatten_func, unflatten_func, flatten_with_keys_func)


def register_pytree_with_keys(nodetype: type, flatten_with_keys: Callable, unflatten_func: Callable,
                              flatten_func: Callable | None = None) -> None:
    """Register ``nodetype`` with named children: ``flatten_with_keys(x) -> ([(key, child),
    ...], aux)`` gives the key path entries `tree_flatten_with_path` reports.

    Example::

        >>> class Box:
        ...     def __init__(self, v): self.v = v
        >>> register_pytree_with_keys(Box, lambda b: (((GetAttrKey("v"), b.v),), None),
        ...                           lambda _, c: Box(*c))
        >>> keystr(tree_leaves_with_path(Box(1.0))[0][0])
        '.v'
    """
    if flatten_func is None:
        def flatten_func(x):
            keyed, aux = flatten_with_keys(x)
            return [c for _, c in keyed], aux
    _register(nodetype, flatten_func, unflatten_func, flatten_with_keys)


def register_pytree_node_class(cls: type) -> type:
    """Class decorator: the class defines ``tree_flatten`` and classmethod ``tree_unflatten``.

    Example::

        >>> @register_pytree_node_class
        ... class Scale:
        ...     def __init__(self, s): self.s = s
        ...     def tree_flatten(self): return (self.s,), None
        ...     @classmethod
        ...     def tree_unflatten(cls, aux, children): return cls(*children)
        >>> tree_map(lambda v: v * 2, Scale(1.5)).s
        3.0
    """
    register_pytree_node(cls, lambda x: x.tree_flatten(), cls.tree_unflatten)
    return cls


def register_pytree_with_keys_class(cls: type) -> type:
    """Class decorator: the class defines ``tree_flatten_with_keys`` (and optionally
    ``tree_flatten``) and classmethod ``tree_unflatten``.

    Example::

        >>> @register_pytree_with_keys_class
        ... class W:
        ...     def __init__(self, w): self.w = w
        ...     def tree_flatten_with_keys(self): return ((GetAttrKey("w"), self.w),), None
        ...     @classmethod
        ...     def tree_unflatten(cls, aux, children): return cls(*children)
        >>> tree_leaves_with_path(W(2.0))
        [((GetAttrKey(name='w'),), 2.0)]
    """
    flat = (lambda x: x.tree_flatten()) if hasattr(cls, "tree_flatten") else None
    register_pytree_with_keys(cls, lambda x: x.tree_flatten_with_keys(), cls.tree_unflatten, flat)
    return cls


def register_dataclass(nodetype: type, data_fields: Iterable[str] | None = None,
                       meta_fields: Iterable[str] | None = None, drop_fields: Iterable[str] = ()) -> type:
    """Register a dataclass: ``data_fields`` are children (leaves or subtrees), ``meta_fields``
    static data kept in the treedef (hashable).  With neither given, fields whose metadata
    has ``static=True`` are meta and the others data.  Returns the class (a decorator too).

    Example::

        >>> import dataclasses
        >>> @dataclasses.dataclass
        ... class Params:
        ...     w: float
        ...     n: int = dataclasses.field(metadata=dict(static=True), default=3)
        >>> _ = register_dataclass(Params)
        >>> tree_flatten(Params(1.5))
        ([1.5], PyTreeDef(CustomNode(Params[(3,)], [*])))
    """
    if data_fields is None and meta_fields is None:
        if not dataclasses.is_dataclass(nodetype):
            raise TypeError(f"register_dataclass: {nodetype.__name__} is not a dataclass; pass "
                            "data_fields and meta_fields explicitly")
        fields = [f for f in dataclasses.fields(nodetype) if f.init and f.name not in set(drop_fields)]
        data_fields = [f.name for f in fields if not f.metadata.get("static", False)]
        meta_fields = [f.name for f in fields if f.metadata.get("static", False)]
    elif data_fields is None or meta_fields is None:
        raise TypeError("register_dataclass: pass both data_fields and meta_fields, or neither")
    data, meta = tuple(data_fields), tuple(meta_fields)
    if dataclasses.is_dataclass(nodetype):
        init = {f.name for f in dataclasses.fields(nodetype) if f.init} - set(drop_fields)
        if set(data) | set(meta) != init:
            raise ValueError(f"register_dataclass: data_fields {list(data)} and meta_fields "
                             f"{list(meta)} must together be the init fields {sorted(init)} of "
                             f"{nodetype.__name__}")

    def flatten(x):
        return [getattr(x, n) for n in data], tuple(getattr(x, n) for n in meta)

    def flatten_with_keys(x):
        return [(GetAttrKey(n), getattr(x, n)) for n in data], tuple(getattr(x, n) for n in meta)

    def unflatten(aux, children):
        return nodetype(**dict(zip(meta, aux, strict=True)), **dict(zip(data, children, strict=True)))

    _register(nodetype, flatten, unflatten, flatten_with_keys)
    return nodetype


def register_static(cls: type) -> type:
    """Register ``cls`` as a node with no children: its instances are kept in the treedef
    (they must be hashable), never treated as leaves.

    Example::

        >>> @register_static
        ... class Tag(str): pass
        >>> tree_leaves([Tag("layer"), 1.0])
        [1.0]
    """
    _register(cls, lambda x: ((), x), lambda aux, _: aux, lambda x: ((), x))
    return cls


def _sorted_keys(d):
    try:
        return sorted(d)
    except TypeError:
        return list(d)


def _dict_flatten(d):
    keys = _sorted_keys(d)
    return [d[k] for k in keys], keys


def _dict_keyed(d):
    keys = _sorted_keys(d)
    return [(DictKey(k), d[k]) for k in keys], keys


_register(tuple, lambda t: (t, None), lambda _, c: tuple(c),
          lambda t: ([(SequenceKey(i), c) for i, c in enumerate(t)], None))
_register(list, lambda t: (t, None), lambda _, c: list(c),
          lambda t: ([(SequenceKey(i), c) for i, c in enumerate(t)], None))
_register(type(None), lambda t: ((), None), lambda _, c: None, lambda t: ((), None))
_register(dict, _dict_flatten, lambda keys, c: dict(zip(keys, c, strict=True)), _dict_keyed)
_register(OrderedDict, lambda d: (list(d.values()), list(d.keys())),
          lambda k, c: OrderedDict(zip(k, c, strict=True)),
          lambda d: ([(DictKey(k), v) for k, v in d.items()], list(d.keys())))
_register(
    defaultdict,
    lambda d: ([d[k] for k in _sorted_keys(d)], (d.default_factory, tuple(_sorted_keys(d)))),
    lambda aux, c: defaultdict(aux[0], zip(aux[1], c, strict=True)),
    lambda d: ([(DictKey(k), d[k]) for k in _sorted_keys(d)], (d.default_factory, tuple(_sorted_keys(d)))),
)


def _is_namedtuple(x) -> bool:
    return isinstance(x, tuple) and hasattr(x, "_fields") and type(x) is not tuple


def _namedtuple_node(t: type) -> _NodeType:
    return _NodeType(lambda v: (tuple(v), None), lambda _, c, t=t: t(*c),
                     lambda v: ([(GetAttrKey(f), c) for f, c in zip(v._fields, v, strict=True)], None),
                     "namedtuple")


_namedtuple_nodes: dict[type, _NodeType] = {}


def _node_of(x, arrays: bool = False):
    """``(type, _NodeType)`` of a pytree node, or ``(None, None)`` for a leaf; ``arrays``:
    array-like leaves (`register_array_node`) count as nodes."""
    t = type(x)
    nt = _registry.get(t)
    if nt is not None:
        return t, nt
    if _is_namedtuple(x):
        nt = _namedtuple_nodes.get(t)
        if nt is None:
            nt = _namedtuple_nodes[t] = _namedtuple_node(t)
        return t, nt
    if arrays:
        nt = _array_nodes.get(t)
        if nt is not None:
            return t, nt
    return None, None


def _node_of_type(t: type) -> _NodeType | None:
    nt = _registry.get(t)
    if nt is not None:
        return nt
    nt = _namedtuple_nodes.get(t)
    return nt if nt is not None else _array_nodes.get(t)


def is_tree_node(typ: Any) -> bool:
    """True for a pytree node type (a registered type, a namedtuple class, ``type(None)``),
    as JAX's, which takes the type: an instance is not a type, so False (None: TypeError).

    Example::

        >>> is_tree_node(tuple), is_tree_node(float), is_tree_node((1, 2))
        (True, False, False)
    """
    if typ is None:
        raise TypeError("is_tree_node: expected a type, got None (pass type(None))")
    if not isinstance(typ, type):
        return False
    return (_node_of_type(typ) is not None and typ not in _array_nodes) or (
        issubclass(typ, tuple) and hasattr(typ, "_fields"))


# ---- treedefs ----------------------------------------------------------------------------------

class PyTreeDef:
    """The structure of a pytree (without its leaves).  Hashable and comparable.

    Example::

        >>> td = tree_structure({"a": 1, "b": (2, 3)})
        >>> td, td.num_leaves, td.num_nodes
        (PyTreeDef({'a': *, 'b': (*, *)}), 3, 5)
        >>> td.unflatten([10, 20, 30])
        {'a': 10, 'b': (20, 30)}
    """

    __slots__ = ("node_type", "aux", "subtrees", "num_leaves", "_flat_key")

    def __init__(self, node_type, aux, subtrees) -> None:
        self.node_type = node_type  # None for a leaf
        self.aux = aux
        self.subtrees = subtrees
        self.num_leaves = 1 if node_type is None else sum([c.num_leaves for c in subtrees])
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
                parts += (t.node_type, aux, len(t.subtrees))
                push(reversed(t.subtrees))
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
            stack.extend(t.subtrees)
        return n

    def children(self) -> list:
        """The treedefs of the root's children."""
        return list(self.subtrees)

    def node_data(self):
        """``(type, aux data)`` of the root node, or None for a leaf."""
        return None if self.node_type is None else (self.node_type, self.aux)

    def unflatten(self, leaves):
        return tree_unflatten(self, leaves)

    def flatten_up_to(self, tree) -> list:
        """The subtrees of ``tree`` at this treedef's leaves (``tree`` must have this
        structure down to them).

        Example::

            >>> tree_structure([0, 0]).flatten_up_to([(1, 2), 3])
            [(1, 2), 3]
        """
        return _flatten_up_to(self, tree, "flatten_up_to")

    def compose(self, inner: PyTreeDef) -> PyTreeDef:
        """This structure with every leaf replaced by ``inner`` (JAX's ``PyTreeDef.compose``):
        ``num_leaves`` multiplies.

        Example::

            >>> tree_structure((0, 0)).compose(tree_structure([0, 0, 0])).num_leaves
            6
        """
        if not isinstance(inner, PyTreeDef):
            raise TypeError(f"compose: expected a PyTreeDef, got {type(inner).__name__}")
        if self.node_type is None:
            return inner
        return PyTreeDef(self.node_type, self.aux, [c.compose(inner) for c in self.subtrees])

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
        nt, cs = t.node_type, t.subtrees
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
            node = _node_of_type(nt)
            name = node.name if node is not None else nt.__name__
            if name == "namedtuple":
                opening = f"CustomNode(namedtuple[{nt.__name__}], ["
            else:
                aux = tuple(t.aux) if nt is OrderedDict else t.aux
                opening = f"CustomNode({name}[{aux}], ["
            closing = "])"
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


# ---- flattening --------------------------------------------------------------------------------

def _flatten(x, is_leaf, leaves: list, arrays: bool = False) -> PyTreeDef:
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
                t, nt = _node_of(c, arrays)
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


def tree_flatten(tree: Any, is_leaf: Callable | None = None) -> tuple[list[Any], PyTreeDef]:
    """Returns ``(leaves, treedef)``.  Dict keys are sorted; None is an empty node;
    ``is_leaf(x)`` True makes ``x`` a leaf.

    Example::

        >>> tree_flatten([1, (2, None)])
        ([1, 2], PyTreeDef([*, (*, None)]))
    """
    leaves: list = []
    t = type(tree)
    if t not in _registry and is_leaf is None and not _is_namedtuple(tree):
        return [tree], _LEAF
    return leaves, _flatten(tree, is_leaf, leaves)


def flatten_arrays(tree: Any, is_leaf: Callable | None = None):
    """`tree_flatten` for the transforms: array-like leaves (`register_array_node`, such as
    typed PRNG key arrays) are flattened into the arrays they hold.

    Example::

        >>> flatten_arrays([1, (2, None)])
        ([1, 2], PyTreeDef([*, (*, None)]))
    """
    leaves: list = []
    t = type(tree)
    if t not in _registry and t not in _array_nodes and is_leaf is None and not _is_namedtuple(tree):
        return [tree], _LEAF
    return leaves, _flatten(tree, is_leaf, leaves, True)


def _unflatten(tree: PyTreeDef, leaves: list) -> Any:
    """Build ``tree``'s structure from ``leaves`` (iterative, like `_flatten`); raises
    ValueError when there are too few leaves."""
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
            it, done = iter(t.subtrees), []
            break
        else:
            if not stack:
                return done[0], pos
            t, it, parent = stack.pop()
            nt = _node_of_type(t.node_type)
            parent.append(t.node_type(*done) if nt is None else nt.from_iter(t.aux, done))
            done = parent


def tree_unflatten(treedef: PyTreeDef, leaves: Iterable[Any]) -> Any:
    """Rebuild a pytree of structure ``treedef`` from ``leaves``.

    Example::

        >>> tree_unflatten(tree_structure((0, [0])), [1, 2])
        (1, [2])
    """
    if type(leaves) is not list:  # any iterable (a generator too), as JAX
        leaves = list(leaves)
    if treedef.node_type is None:
        if len(leaves) != 1:
            raise ValueError(f"tree_unflatten: expected 1 leaf for {treedef}, got {len(leaves)}")
        return leaves[0]
    out, used = _unflatten(treedef, leaves)
    if used != len(leaves):
        raise ValueError(f"tree_unflatten: {len(leaves) - used} leaves left over for {treedef}")
    return out


def _keyed_children(node: _NodeType, x) -> tuple[list, Any]:
    if node.to_keyed is not None:
        keyed, aux = node.to_keyed(x)
        return list(keyed), aux
    children, aux = node.to_iter(x)
    return [(FlattenedIndexKey(i), c) for i, c in enumerate(children)], aux


def _leaves_with_path(tree, is_leaf) -> list:
    """``[(key path, leaf), ...]`` in flattening order (iterative)."""
    out: list = []
    stack: list = [((), tree)]
    while stack:
        path, x = stack.pop()
        if is_leaf is not None and is_leaf(x):
            out.append((path, x))
            continue
        _, node = _node_of(x)
        if node is None:
            out.append((path, x))
            continue
        keyed, _ = _keyed_children(node, x)
        stack.extend((path + (k,), c) for k, c in reversed(keyed))
    return out


def tree_flatten_with_path(tree: Any,
                           is_leaf: Callable | None = None) -> tuple[list[tuple[KeyPath, Any]], PyTreeDef]:
    """``([(key path, leaf), ...], treedef)``: each leaf with the keys that lead to it.

    Example::

        >>> paths, _ = tree_flatten_with_path({"a": [1.0, 2.0]})
        >>> [keystr(p) for p, _ in paths]
        ["['a'][0]", "['a'][1]"]
    """
    return _leaves_with_path(tree, is_leaf), tree_structure(tree, is_leaf)


def tree_leaves_with_path(tree: Any, is_leaf: Callable | None = None) -> list:
    """``[(key path, leaf), ...]``.

    Example::

        >>> tree_leaves_with_path((5,))
        [((SequenceKey(idx=0),), 5)]
    """
    return _leaves_with_path(tree, is_leaf)


def tree_leaves(tree: Any, is_leaf: Callable | None = None) -> list:
    """The leaves of ``tree``, left to right.

    Example::

        >>> tree_leaves({"b": 2, "a": [1, None]})
        [1, 2]
    """
    return tree_flatten(tree, is_leaf)[0]


def tree_structure(tree: Any, is_leaf: Callable | None = None) -> PyTreeDef:
    """The treedef of ``tree``.

    Example::

        >>> tree_structure((1, {"x": 2}))
        PyTreeDef((*, {'x': *}))
    """
    return tree_flatten(tree, is_leaf)[1]


def treedef_children(treedef: PyTreeDef) -> list:
    """The treedefs of ``treedef``'s root children.

    Example::

        >>> treedef_children(tree_structure((1, [2])))
        [PyTreeDef(*), PyTreeDef([*])]
    """
    return list(treedef.subtrees)


def treedef_is_leaf(treedef: PyTreeDef) -> bool:
    """True for the treedef of a single leaf.

    Example::

        >>> treedef_is_leaf(tree_structure(1.0)), treedef_is_leaf(tree_structure([1.0]))
        (True, False)
    """
    return treedef.node_type is None


def treedef_tuple(treedefs: Iterable[PyTreeDef]) -> PyTreeDef:
    """The treedef of a tuple of trees with these treedefs.

    Example::

        >>> treedef_tuple([tree_structure(1), tree_structure([1, 2])])
        PyTreeDef((*, [*, *]))
    """
    return PyTreeDef(tuple, None, tuple(treedefs))


def all_leaves(iterable: Iterable, is_leaf: Callable | None = None) -> bool:
    """True if every element is a leaf.

    Example::

        >>> all_leaves([1.0, 2.0]), all_leaves([(1.0,)])
        (True, False)
    """
    return all(treedef_is_leaf(tree_structure(x, is_leaf)) for x in iterable)


def flatten_one_level(tree: Any) -> tuple[list, Any]:
    """``(children, aux data)`` of the root node; ValueError for a leaf.

    Example::

        >>> flatten_one_level({"a": 1, "b": (2,)})
        ([1, (2,)], ('a', 'b'))
    """
    _, node = _node_of(tree)
    if node is None:
        raise ValueError(f"can't tree-flatten type: {type(tree)}")
    children, aux = node.to_iter(tree)
    if type(tree) is dict:  # JAX gives a dict's keys as a tuple
        aux = tuple(aux)
    return list(children), aux


def flatten_one_level_with_keys(tree: Any) -> tuple[list, Any]:
    """``([(key, child), ...], aux data)`` of the root node; ValueError for a leaf.

    Example::

        >>> children, _ = flatten_one_level_with_keys({"a": 1, "b": (2, 3)})
        >>> [(str(k), c) for k, c in children]
        [("['a']", 1), ("['b']", (2, 3))]
    """
    _, node = _node_of(tree)
    if node is None:
        raise ValueError(f"can't tree-flatten type: {type(tree)}")
    return _keyed_children(node, tree)


# ---- prefix matching ---------------------------------------------------------------------------

def _where(link) -> str:
    keys: list = []
    while link is not None:
        keys.append(link[0])
        link = link[1]
    return keystr(tuple(reversed(keys))) or "the root"


def _flatten_up_to(treedef: PyTreeDef, tree, what: str) -> list:
    """The subtrees of ``tree`` at ``treedef``'s leaves; ValueError naming the key path where
    ``tree`` does not have ``treedef``'s structure (iterative)."""
    out: list = []
    stack: list = [(None, treedef, tree)]  # paths as linked (key, parent) pairs: deep trees stay linear
    while stack:
        link, td, x = stack.pop()
        if td.node_type is None:
            out.append(x)
            continue
        xt, node = _node_of(x, True)
        if xt is not td.node_type:
            raise ValueError(
                f"{what}: structures differ at key path {_where(link)}: the first tree has a subtree of "
                f"type {td.node_type.__name__} there but the other has {type(x).__name__}")
        keyed, aux = _keyed_children(node, x)
        if len(keyed) != len(td.subtrees):
            raise ValueError(
                f"{what}: structures differ at key path {_where(link)}: {td.node_type.__name__} with "
                f"{len(td.subtrees)} children in the first tree, {len(keyed)} in the other")
        if td.node_type is not tuple and td.node_type is not list:
            a, b = td.aux, aux
            try:
                same = (tuple(a) if type(a) is list else a) == (tuple(b) if type(b) is list else b)
            except Exception:  # noqa: BLE001 - aux data whose == does not give a bool
                same = a is b
            if not same:
                raise ValueError(
                    f"{what}: structures differ at key path {_where(link)}: {td.node_type.__name__} "
                    f"metadata {a!r} in the first tree, {b!r} in the other")
        stack.extend(((k, link), s, c) for (k, c), s in zip(reversed(keyed), reversed(td.subtrees),
                                                               strict=True))
    return out


def _leaves_up_to(treedef: PyTreeDef, tree, is_leaf, what: str, arrays: bool = False) -> list:
    leaves, td = (flatten_arrays if arrays else tree_flatten)(tree, is_leaf)
    if td == treedef:
        return leaves
    return _flatten_up_to(treedef, tree, what)


def tree_map(f: Callable, tree: Any, *rest: Any, is_leaf: Callable | None = None) -> Any:
    """Apply ``f`` leaf-wise.  Each tree in ``rest`` must have ``tree``'s structure down to
    ``tree``'s leaves, where it may hold whole subtrees (``tree`` is a prefix of it); None in
    ``tree`` is an empty subtree (``f`` is not called there).

    Example::

        >>> tree_map(lambda a, b: a + b, (1, [2]), (10, [20]))
        (11, [22])
        >>> tree_map(lambda x: x * 2, {"a": None, "b": 3})
        {'a': None, 'b': 6}
    """
    leaves, treedef = tree_flatten(tree, is_leaf)
    if not rest:
        return tree_unflatten(treedef, [f(x) for x in leaves])
    others = [_leaves_up_to(treedef, r, is_leaf, "tree_map") for r in rest]
    return tree_unflatten(treedef, [f(*xs) for xs in zip(leaves, *others, strict=True)])


def map_arrays(f: Callable, tree, *rest, is_leaf: Callable | None = None):
    """`tree_map` for the transforms: over the arrays inside array-like leaves too
    (`flatten_arrays`).

    Example::

        >>> map_arrays(lambda x: x * 2, {"a": None, "b": 3})
        {'a': None, 'b': 6}
    """
    leaves, treedef = flatten_arrays(tree, is_leaf)
    if not rest:
        return tree_unflatten(treedef, [f(x) for x in leaves])
    others = [_leaves_up_to(treedef, r, is_leaf, "tree_map", True) for r in rest]
    return tree_unflatten(treedef, [f(*xs) for xs in zip(leaves, *others, strict=True)])


def tree_map_with_path(f: Callable, tree: Any, *rest: Any, is_leaf: Callable | None = None) -> Any:
    """Like `tree_map`, with each leaf's key path as ``f``'s first argument.

    Example::

        >>> tree_map_with_path(lambda p, x: keystr(p), {"a": [0, 0]})
        {'a': ["['a'][0]", "['a'][1]"]}
    """
    pairs, treedef = tree_flatten_with_path(tree, is_leaf)
    others = [_leaves_up_to(treedef, r, is_leaf, "tree_map_with_path") for r in rest]
    return tree_unflatten(treedef, [f(p, x, *xs) for (p, x), *xs in zip(pairs, *others, strict=True)])


_NO_INIT = object()


def tree_reduce(function: Callable, tree: Any, initializer: Any = _NO_INIT,
                is_leaf: Callable | None = None) -> Any:
    """``functools.reduce`` over the leaves.

    Example::

        >>> tree_reduce(lambda a, b: a + b, [1, (2, 3)])
        6
    """
    leaves = tree_leaves(tree, is_leaf)
    if initializer is _NO_INIT:
        return functools.reduce(function, leaves)
    return functools.reduce(function, leaves, initializer)


def tree_reduce_associative(operation: Callable, tree: Any, *, identity: Any = _NO_INIT,
                            is_leaf: Callable | None = None) -> Any:
    """Reduce the leaves with an associative ``operation`` as a balanced tree of calls.

    Example::

        >>> tree_reduce_associative(lambda a, b: a + b, [1, 2, 3, 4])
        10
    """
    items = tree_leaves(tree, is_leaf)
    if not items:
        if identity is _NO_INIT:
            raise TypeError("tree_reduce_associative: the tree has no leaves and no identity was given")
        return identity
    while len(items) > 1:
        pairs = [operation(items[i], items[i + 1]) for i in range(0, len(items) - 1, 2)]
        if len(items) % 2:
            pairs.append(items[-1])
        items = pairs
    return items[0]


def tree_all(tree: Any, *, is_leaf: Callable | None = None) -> bool:
    """True if every leaf is truthy.

    Example::

        >>> tree_all([1, (True,)]), tree_all({"a": 0})
        (True, False)
    """
    return all(tree_leaves(tree, is_leaf))


def tree_broadcast(prefix_tree: Any, full_tree: Any, is_leaf: Callable | None = None) -> Any:
    """``prefix_tree`` with each leaf repeated over the matching subtree of ``full_tree``.

    Example::

        >>> tree_broadcast([1, 2], [(0, 0), 0])
        [(1, 1), 2]
    """
    leaves, treedef = tree_flatten(prefix_tree, is_leaf)
    subtrees = _flatten_up_to(treedef, full_tree, "tree_broadcast")
    return tree_unflatten(treedef, [tree_map(lambda _, v=v: v, s, is_leaf=is_leaf)
                                    for v, s in zip(leaves, subtrees, strict=True)])


def tree_transpose(outer_treedef: PyTreeDef, inner_treedef: PyTreeDef | None,
                   pytree_to_transpose: Any) -> Any:
    """Turn an outer tree of inner trees into an inner tree of outer trees.  With
    ``inner_treedef`` None it is taken from the first inner tree.

    Example::

        >>> tree_transpose(tree_structure([0, 0]), tree_structure((0, 0)), [(1, 2), (3, 4)])
        ([1, 3], [2, 4])
    """
    inners = _flatten_up_to(outer_treedef, pytree_to_transpose, "tree_transpose")
    if inner_treedef is None:
        inner_treedef = tree_structure(inners[0]) if inners else _LEAF
    columns = [_flatten_up_to(inner_treedef, t, "tree_transpose") for t in inners]
    n_in = inner_treedef.num_leaves
    outers = [tree_unflatten(outer_treedef, [c[j] for c in columns]) for j in range(n_in)]
    return tree_unflatten(inner_treedef, outers)


def flatten_prefix(prefix, tree, name: str = "argument") -> list:
    """Broadcast a pytree prefix (like vmap's in_axes) to the leaves of ``tree``.

    Example::

        >>> flatten_prefix((0, None), ([1, 2], {"x": 3}))
        [0, 0, None]
    """
    out: list = []
    stack = [(prefix, tree)]  # iterative, so deep trees are fine; popped in left-to-right order
    while stack:
        p, t = stack.pop()
        tp, ntp = _node_of(p) if p is not None else (None, None)
        if p is None or ntp is None:
            out.extend([p] * len(flatten_arrays(t)[0]))
            continue
        tt, ntt = _node_of(t, True)
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


class Partial(functools.partial):
    """``functools.partial`` that is a pytree: its bound arguments are leaves and the
    function is static, so it can be passed to and returned from transformed functions.

    Example::

        >>> add = Partial(lambda a, b: a + b, 1)
        >>> add(2), tree_leaves(add)
        (3, [1])
    """


_register(Partial, lambda p: ((p.args, p.keywords), p.func),
          lambda func, c: Partial(func, *c[0], **c[1]),
          lambda p: ([(GetAttrKey("args"), p.args), (GetAttrKey("keywords"), p.keywords)], p.func))


class PyTreeRegistry:
    """A pytree registry object (JAX's ``jax.tree_util.default_registry``, a
    ``PyTreeRegistry``): methods over fgrad's one registry of node types.  ``leaf_predicate``
    is called with the value (``flatten``) or with ``(key path, value)``
    (``flatten_with_path``).

    Example::

        >>> default_registry.flatten({"a": 1, "b": (2, 3)})
        ([1, 2, 3], PyTreeDef({'a': *, 'b': (*, *)}))
        >>> default_registry.flatten_one_level({"a": 1, "b": (2, 3)}), default_registry.is_node(tuple)
        (((1, (2, 3)), ('a', 'b')), True)
    """

    def flatten(self, tree: Any, leaf_predicate: Callable | None = None) -> tuple[list, PyTreeDef]:
        return tree_flatten(tree, is_leaf=leaf_predicate)

    def flatten_one_level(self, tree: Any) -> tuple[tuple, Any] | None:
        """``(children, aux data)`` of the root node, ``None`` for a leaf."""
        if _node_of(tree)[1] is None:
            return None
        children, aux = flatten_one_level(tree)
        return tuple(children), aux

    def flatten_one_level_with_keys(self, tree: Any) -> tuple[tuple, Any] | None:
        """``(((key, child), ...), aux data)`` of the root node, ``None`` for a leaf."""
        if _node_of(tree)[1] is None:
            return None
        children, aux = flatten_one_level_with_keys(tree)
        return tuple(children), aux

    def flatten_with_path(self, tree: Any, leaf_predicate: Callable | None = None):
        is_leaf = None
        if leaf_predicate is not None:
            def is_leaf(x):  # fgrad's predicate sees the value; JAX's (path, value)
                return leaf_predicate((), x)
        return tree_flatten_with_path(tree, is_leaf=is_leaf)

    def is_node(self, type: type) -> bool:  # noqa: A002 - JAX's name
        """Whether ``type`` is a registered pytree node type (tuple, list, dict, ...)."""
        return _node_of_type(type) is not None

    def register_node(self, type: type, to_iterable: Callable, from_iterable: Callable,  # noqa: A002
                      to_iterable_with_keys: Callable | None = None) -> None:
        register_pytree_node(type, to_iterable, from_iterable, to_iterable_with_keys)

    def register_dataclass_node(self, type: type, data_fields: Sequence[str],  # noqa: A002
                                meta_fields: Sequence[str], /) -> None:
        register_dataclass(type, list(data_fields), list(meta_fields))

    def __repr__(self) -> str:
        return "<fgrad.tree_util.PyTreeRegistry (the default registry)>"


default_registry = PyTreeRegistry()
