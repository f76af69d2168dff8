"""``torch.utils._pytree``: PyTorch's pytrees, which code written for PyTorch imports
(``tree_map`` over nested batches, ``tree_flatten`` of module outputs, custom node types).

PyTorch's conventions, not JAX's (``fgrad.tree_util``): ``None`` is a leaf, dicts keep their
insertion order, a `TreeSpec` prints as ``TreeSpec(dict, ['a'], [*])``; nodes are lists,
tuples, dicts, ``OrderedDict``, ``defaultdict``, ``deque``, namedtuples and registered types.

Example::

    >>> from fgrad.torch.utils._pytree import tree_flatten, tree_map
    >>> tree_map(lambda x: x if x is None else x * 2, {"a": [1, 2], "b": None})
    {'a': [2, 4], 'b': None}
    >>> tree_flatten((1, [2]))[0]
    [1, 2]
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict, defaultdict, deque
from typing import Any, Callable, Iterable, NamedTuple

__all__ = [
    "GetAttrKey",
    "LeafSpec",
    "MappingKey",
    "PyTree",
    "SequenceKey",
    "TreeSpec",
    "is_namedtuple",
    "keystr",
    "key_get",
    "register_pytree_node",
    "tree_all",
    "tree_all_only",
    "tree_any",
    "tree_any_only",
    "tree_flatten",
    "tree_flatten_with_path",
    "tree_is_leaf",
    "tree_iter",
    "tree_leaves",
    "tree_leaves_with_path",
    "tree_map",
    "tree_map_",
    "tree_map_only",
    "tree_map_only_",
    "tree_map_with_path",
    "tree_structure",
    "tree_unflatten",
    "treespec_pprint",
]

PyTree = Any


class _Node(NamedTuple):
    flatten: Callable[[Any], tuple[list, Any]]
    unflatten: Callable[[Iterable, Any], Any]
    keys: Callable[[Any, Any], list]  # (node, context) -> key entries of its children


@dataclasses.dataclass(frozen=True)
class SequenceKey:
    """The path entry of a sequence element (``[idx]``).

    Example::

        >>> str(SequenceKey(0))
        '[0]'
    """

    idx: int

    def __str__(self) -> str:
        return f"[{self.idx!r}]"

    def get(self, sequence: Any) -> Any:
        return sequence[self.idx]


@dataclasses.dataclass(frozen=True)
class MappingKey:
    """The path entry of a mapping value (``['key']``).

    Example::

        >>> str(MappingKey("a"))
        "['a']"
    """

    key: Any

    def __str__(self) -> str:
        return f"[{self.key!r}]"

    def get(self, mapping: Any) -> Any:
        return mapping[self.key]


@dataclasses.dataclass(frozen=True)
class GetAttrKey:
    """The path entry of an attribute (``.name``).

    Example::

        >>> str(GetAttrKey("x"))
        '.x'
    """

    name: str

    def __str__(self) -> str:
        return f".{self.name}"

    def get(self, obj: Any) -> Any:
        return getattr(obj, self.name)


SUPPORTED_NODES: dict[type, _Node] = {}


def _seq_keys(node: Any, context: Any) -> list:
    return [SequenceKey(i) for i in range(len(node))]


def _map_keys(node: Any, context: Any) -> list:
    return [MappingKey(k) for k in context]


def register_pytree_node(
    cls: type,
    flatten_fn: Callable[[Any], tuple[list, Any]],
    unflatten_fn: Callable[[Iterable, Any], Any],
    *,
    serialized_type_name: str | None = None,
    to_dumpable_context: Any = None,
    from_dumpable_context: Any = None,
    flatten_with_keys_fn: Callable[[Any], tuple[list, Any]] | None = None,
) -> None:
    """Make ``cls`` a node: ``flatten_fn(x) -> (children, context)``,
    ``unflatten_fn(children, context) -> x`` (and optionally ``flatten_with_keys_fn(x) ->
    ([(key, child)], context)`` for paths).

    Example::

        >>> class Pair:
        ...     def __init__(self, a, b): self.a, self.b = a, b
        >>> register_pytree_node(Pair, lambda p: ([p.a, p.b], None), lambda c, _: Pair(*c))
        >>> tree_leaves(Pair(1, [2, 3]))
        [1, 2, 3]
    """
    if cls in SUPPORTED_NODES:
        raise ValueError(f"{cls} is already registered as pytree node.")
    if flatten_with_keys_fn is not None:

        def keys(node: Any, context: Any) -> list:
            return [k for k, _ in flatten_with_keys_fn(node)[0]]
    else:

        def keys(node: Any, context: Any) -> list:
            return [SequenceKey(i) for i in range(len(flatten_fn(node)[0]))]

    SUPPORTED_NODES[cls] = _Node(flatten_fn, unflatten_fn, keys)


def _defaultdict_unflatten(values: Iterable, context: Any) -> defaultdict:
    factory, keys = context
    return defaultdict(factory, zip(keys, values))


SUPPORTED_NODES.update(
    {
        list: _Node(lambda x: (list(x), None), lambda v, c: list(v), _seq_keys),
        tuple: _Node(lambda x: (list(x), None), lambda v, c: tuple(v), _seq_keys),
        dict: _Node(lambda x: (list(x.values()), list(x.keys())), lambda v, c: dict(zip(c, v)), _map_keys),
        OrderedDict: _Node(
            lambda x: (list(x.values()), list(x.keys())), lambda v, c: OrderedDict(zip(c, v)), _map_keys
        ),
        defaultdict: _Node(
            lambda x: (list(x.values()), [x.default_factory, list(x.keys())]),
            _defaultdict_unflatten,
            lambda node, c: [MappingKey(k) for k in c[1]],
        ),
        deque: _Node(lambda x: (list(x), x.maxlen), lambda v, c: deque(v, maxlen=c), _seq_keys),
    }
)


def is_namedtuple(obj: Any) -> bool:
    """Whether ``obj`` (an instance or a class) is a namedtuple.

    Example::

        >>> from collections import namedtuple
        >>> is_namedtuple(namedtuple("P", "x")(1)), is_namedtuple((1,))
        (True, False)
    """
    cls = obj if isinstance(obj, type) else type(obj)
    return issubclass(cls, tuple) and isinstance(getattr(cls, "_fields", None), tuple)


def _node_of(tree: Any) -> tuple[type, _Node] | None:
    cls = type(tree)
    node = SUPPORTED_NODES.get(cls)
    if node is not None:
        return cls, node
    if is_namedtuple(cls):
        return cls, _Node(
            lambda x: (list(x), type(x)),
            lambda v, c: c(*v),
            lambda x, c: [GetAttrKey(f) for f in type(x)._fields],
        )
    return None


class TreeSpec:
    """The structure of a pytree: a node type, its context (dict keys, namedtuple class...),
    and the specs of its children; a leaf is ``TreeSpec(None, None, [])`` (printed ``*``).

    Example::

        >>> tree_structure({"a": [1, 2]})
        TreeSpec(dict, ['a'], [TreeSpec(list, None, [*,
            *])])
    """

    def __init__(self, type: type | None, context: Any, children_specs: list[TreeSpec]) -> None:
        self.type = type
        self.context = context
        self.children_specs = list(children_specs)
        self.num_nodes = 1 + sum(c.num_nodes for c in self.children_specs)
        self.num_leaves = 1 if type is None else sum(c.num_leaves for c in self.children_specs)
        self.num_children = len(self.children_specs)

    def is_leaf(self) -> bool:
        """Whether this spec is a leaf."""
        return self.type is None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TreeSpec):
            return NotImplemented
        return (
            self.type is other.type
            and self.context == other.context
            and self.children_specs == other.children_specs
        )

    def __hash__(self) -> int:
        return hash((self.type, repr(self.context), tuple(self.children_specs)))

    def __repr__(self, indent: int = 0) -> str:
        if self.is_leaf():
            return "*"
        name = "namedtuple" if is_namedtuple(self.type) else self.type.__name__
        inner = f",\n{'  ' * (indent + 1)}".join(c.__repr__(indent + 1) for c in self.children_specs)
        return f"TreeSpec({name}, {self.context!r}, [{inner}])"

    def unflatten(self, leaves: Iterable) -> PyTree:
        """The tree of this structure holding ``leaves`` in order."""
        return tree_unflatten(leaves, self)

    def flatten_up_to(self, tree: PyTree) -> list:
        """The subtrees of ``tree`` at this spec's leaves (``tree`` must have this structure
        down to them)."""
        if self.is_leaf():
            return [tree]
        found = _node_of(tree)
        if found is None or found[0] is not self.type:
            raise ValueError(f"Node type mismatch; expected {self.type}, but got {type(tree)}.")
        children, context = found[1].flatten(tree)
        if len(children) != self.num_children or context != self.context:
            raise ValueError(
                f"Node structure mismatch for {type(tree).__name__}: expected context "
                f"{self.context!r} with {self.num_children} children."
            )
        return [
            sub for spec, child in zip(self.children_specs, children) for sub in spec.flatten_up_to(child)
        ]


def LeafSpec() -> TreeSpec:
    """The spec of a leaf.

    Example::

        >>> LeafSpec().is_leaf()
        True
    """
    return TreeSpec(None, None, [])


def tree_is_leaf(tree: PyTree, is_leaf: Callable[[PyTree], bool] | None = None) -> bool:
    """Whether ``tree`` is a leaf (not a registered node, or ``is_leaf`` says so).

    Example::

        >>> tree_is_leaf(None), tree_is_leaf([1])
        (True, False)
    """
    if is_leaf is not None and is_leaf(tree):
        return True
    return _node_of(tree) is None


def tree_flatten(tree: PyTree, is_leaf: Callable[[PyTree], bool] | None = None) -> tuple[list, TreeSpec]:
    """The leaves of ``tree`` in order and its `TreeSpec`.

    Example::

        >>> tree_flatten({"b": 1, "a": (2, None)})[0]
        [1, 2, None]
    """
    leaves: list = []

    def walk(node: Any) -> TreeSpec:
        if is_leaf is not None and is_leaf(node):
            leaves.append(node)
            return LeafSpec()
        found = _node_of(node)
        if found is None:
            leaves.append(node)
            return LeafSpec()
        cls, kind = found
        children, context = kind.flatten(node)
        return TreeSpec(cls, context, [walk(c) for c in children])

    spec = walk(tree)
    return leaves, spec


def tree_unflatten(leaves: Iterable, treespec: TreeSpec) -> PyTree:
    """The tree of structure ``treespec`` holding ``leaves``.

    Example::

        >>> leaves, spec = tree_flatten([1, (2, 3)])
        >>> tree_unflatten([4, 5, 6], spec)
        [4, (5, 6)]
    """
    if not isinstance(treespec, TreeSpec):
        raise TypeError(
            f"tree_unflatten(leaves, treespec): Expected `treespec` to be instance of TreeSpec but "
            f"got item of type {type(treespec)}."
        )
    leaves = list(leaves)
    if len(leaves) != treespec.num_leaves:
        raise ValueError(
            f"treespec.unflatten(leaves): `leaves` has length {len(leaves)} but the spec refers to "
            f"a pytree that holds {treespec.num_leaves} items ({treespec})."
        )
    it = iter(leaves)

    def build(spec: TreeSpec) -> Any:
        if spec.is_leaf():
            return next(it)
        children = [build(c) for c in spec.children_specs]
        if spec.type in SUPPORTED_NODES:
            return SUPPORTED_NODES[spec.type].unflatten(children, spec.context)
        return spec.context(*children)  # a namedtuple: the context is its class

    return build(treespec)


def tree_leaves(tree: PyTree, is_leaf: Callable[[PyTree], bool] | None = None) -> list:
    """The leaves of ``tree`` in order.

    Example::

        >>> tree_leaves([1, {"a": 2}])
        [1, 2]
    """
    return tree_flatten(tree, is_leaf)[0]


def tree_iter(tree: PyTree, is_leaf: Callable[[PyTree], bool] | None = None) -> Iterable:
    """An iterator over the leaves of ``tree``.

    Example::

        >>> list(tree_iter((1, [2])))
        [1, 2]
    """
    return iter(tree_leaves(tree, is_leaf))


def tree_structure(tree: PyTree, is_leaf: Callable[[PyTree], bool] | None = None) -> TreeSpec:
    """The `TreeSpec` of ``tree``.

    Example::

        >>> tree_structure((1, 2)).num_leaves
        2
    """
    return tree_flatten(tree, is_leaf)[1]


def tree_map(
    func: Callable[..., Any], tree: PyTree, *rests: PyTree, is_leaf: Callable[[PyTree], bool] | None = None
) -> PyTree:
    """``func`` applied to each leaf (with the matching leaves of ``rests``, which must have
    ``tree``'s structure down to its leaves), in a tree of the same structure.

    Example::

        >>> tree_map(lambda x, y: x + y, [1, (2,)], [10, (20,)])
        [11, (22,)]
    """
    leaves, spec = tree_flatten(tree, is_leaf)
    others = [spec.flatten_up_to(r) for r in rests]
    return tree_unflatten([func(*xs) for xs in zip(leaves, *others)], spec)


def tree_map_(
    func: Callable[..., Any], tree: PyTree, *rests: PyTree, is_leaf: Callable[[PyTree], bool] | None = None
) -> PyTree:
    """Call ``func`` on each leaf (for its effect: in-place updates) and return ``tree``.

    Example::

        >>> seen = []
        >>> tree_map_(seen.append, [1, (2,)]) and seen
        [1, 2]
    """
    leaves, spec = tree_flatten(tree, is_leaf)
    others = [spec.flatten_up_to(r) for r in rests]
    for xs in zip(leaves, *others):
        func(*xs)
    return tree


def _only(types: type | tuple, func: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda x: func(x) if isinstance(x, types) else x


def tree_map_only(
    type_or_types: type | tuple,
    func: Callable[[Any], Any],
    tree: PyTree,
    is_leaf: Callable[[PyTree], bool] | None = None,
) -> PyTree:
    """`tree_map` applying ``func`` only to leaves of the given type(s).

    Example::

        >>> tree_map_only(int, lambda x: -x, [1, 2.0, "s"])
        [-1, 2.0, 's']
    """
    return tree_map(_only(type_or_types, func), tree, is_leaf=is_leaf)


def tree_map_only_(
    type_or_types: type | tuple,
    func: Callable[[Any], Any],
    tree: PyTree,
    is_leaf: Callable[[PyTree], bool] | None = None,
) -> PyTree:
    """`tree_map_` calling ``func`` only on leaves of the given type(s).

    Example::

        >>> seen = []
        >>> _ = tree_map_only_(str, seen.append, [1, "a", ("b",)])
        >>> seen
        ['a', 'b']
    """
    return tree_map_(_only(type_or_types, func), tree, is_leaf=is_leaf)


def tree_all(
    pred: Callable[[Any], bool], tree: PyTree, is_leaf: Callable[[PyTree], bool] | None = None
) -> bool:
    """Whether ``pred`` holds for every leaf.

    Example::

        >>> tree_all(lambda x: x > 0, [1, (2,)])
        True
    """
    return all(map(pred, tree_leaves(tree, is_leaf)))


def tree_any(
    pred: Callable[[Any], bool], tree: PyTree, is_leaf: Callable[[PyTree], bool] | None = None
) -> bool:
    """Whether ``pred`` holds for some leaf.

    Example::

        >>> tree_any(lambda x: x > 1, [1, (2,)])
        True
    """
    return any(map(pred, tree_leaves(tree, is_leaf)))


def tree_all_only(
    type_or_types: type | tuple,
    pred: Callable[[Any], bool],
    tree: PyTree,
    is_leaf: Callable[[PyTree], bool] | None = None,
) -> bool:
    """Whether ``pred`` holds for every leaf of the given type(s).

    Example::

        >>> tree_all_only(int, lambda x: x > 0, [1, "s", -2.0])
        True
    """
    return all(pred(x) for x in tree_leaves(tree, is_leaf) if isinstance(x, type_or_types))


def tree_any_only(
    type_or_types: type | tuple,
    pred: Callable[[Any], bool],
    tree: PyTree,
    is_leaf: Callable[[PyTree], bool] | None = None,
) -> bool:
    """Whether ``pred`` holds for some leaf of the given type(s).

    Example::

        >>> tree_any_only(float, lambda x: x < 0, [1, -2.0])
        True
    """
    return any(pred(x) for x in tree_leaves(tree, is_leaf) if isinstance(x, type_or_types))


def tree_flatten_with_path(
    tree: PyTree, is_leaf: Callable[[PyTree], bool] | None = None
) -> tuple[list[tuple[tuple, Any]], TreeSpec]:
    """``([(key path, leaf)], treespec)``; a key path is a tuple of `SequenceKey`,
    `MappingKey` and `GetAttrKey` entries.

    Example::

        >>> [keystr(p) for p, _ in tree_flatten_with_path({"a": [1, 2]})[0]]
        ["['a'][0]", "['a'][1]"]
    """
    out: list = []

    def walk(node: Any, path: tuple) -> None:
        if is_leaf is not None and is_leaf(node):
            out.append((path, node))
            return
        found = _node_of(node)
        if found is None:
            out.append((path, node))
            return
        children, context = found[1].flatten(node)
        for key, child in zip(found[1].keys(node, context), children):
            walk(child, (*path, key))

    walk(tree, ())
    return out, tree_structure(tree, is_leaf)


def tree_leaves_with_path(
    tree: PyTree, is_leaf: Callable[[PyTree], bool] | None = None
) -> list[tuple[tuple, Any]]:
    """``[(key path, leaf)]`` (see `tree_flatten_with_path`).

    Example::

        >>> tree_leaves_with_path([5])
        [((SequenceKey(idx=0),), 5)]
    """
    return tree_flatten_with_path(tree, is_leaf)[0]


def tree_map_with_path(
    func: Callable[..., Any], tree: PyTree, *rests: PyTree, is_leaf: Callable[[PyTree], bool] | None = None
) -> PyTree:
    """`tree_map` whose ``func`` also takes each leaf's key path first.

    Example::

        >>> tree_map_with_path(lambda p, x: keystr(p), {"a": 1})
        {'a': "['a']"}
    """
    pairs, spec = tree_flatten_with_path(tree, is_leaf)
    others = [spec.flatten_up_to(r) for r in rests]
    return tree_unflatten([func(p, x, *xs) for (p, x), *xs in zip(pairs, *others)], spec)


def keystr(kp: tuple) -> str:
    """A key path as a string, e.g. ``"['a'][0]"``.

    Example::

        >>> keystr((MappingKey("a"), SequenceKey(0), GetAttrKey("x")))
        "['a'][0].x"
    """
    return "".join(str(k) for k in kp)


def key_get(obj: Any, kp: tuple) -> Any:
    """The subtree of ``obj`` at key path ``kp``.

    Example::

        >>> key_get({"a": [1, 2]}, (MappingKey("a"), SequenceKey(1)))
        2
    """
    for k in kp:
        obj = k.get(obj)
    return obj


def treespec_pprint(treespec: TreeSpec) -> str:
    """A short text of a spec's structure, with ``*`` for leaves.

    Example::

        >>> treespec_pprint(tree_structure({"a": (1, 2)}))
        "TreeSpec(dict, ['a'], [TreeSpec(tuple, None, [*,\\n    *])])"
    """
    return repr(treespec)
