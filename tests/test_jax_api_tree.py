"""`fgrad.tree_util` / `fgrad.tree` against JAX: key paths, prefix-matching `tree_map`, None as
an empty subtree, ``is_leaf``, registration of custom types, deep trees.

Each case's ``repr`` is compared with JAX's (stored below, from JAX 0.10.2; live as well when
JAX is installed).
"""

from __future__ import annotations

import ast
import collections
import dataclasses
import json
from pathlib import Path
import re
import sys

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import tree_util as tu

P = collections.namedtuple("P", "x y")
TREE = {"b": [1, (2, P(3, 4))], "a": None, "c": collections.OrderedDict([("z", 5), ("y", 6)])}


def cases(tu, tree):
    return {
        "flatten": lambda: tu.tree_flatten(TREE),
        "flatten_with_path": lambda: tu.tree_flatten_with_path(TREE),
        "keystr": lambda: [tu.keystr(p) for p, _ in tu.tree_leaves_with_path(TREE)],
        "keystr_simple": lambda: [tu.keystr(p, simple=True, separator="/")
                                  for p, _ in tu.tree_leaves_with_path(TREE)],
        "map_with_path": lambda: tu.tree_map_with_path(lambda p, x: (tu.keystr(p), x), TREE),
        "map_prefix": lambda: tu.tree_map(lambda a, b: (a, b), [1, 2], [(3, 4), {"k": 5}]),
        "map_none_both": lambda: tu.tree_map(lambda a, b: a + b, [None, 1], [None, 3]),
        "map_none_rest": lambda: tu.tree_map(lambda a, b: (a, b), [1, 2], [None, 3]),
        "map_is_leaf": lambda: tu.tree_map(lambda x: x is None, [None, 1], is_leaf=lambda x: x is None),
        "leaves_is_leaf": lambda: tu.tree_leaves([(1, 2), [3]], is_leaf=lambda x: isinstance(x, tuple)),
        "map_leaf_prefix": lambda: tu.tree_map(lambda a, b: (a, b), 1, {"b": 2}),
        "transpose": lambda: tu.tree_transpose(tu.tree_structure([0, 0]), tu.tree_structure((0, 0)),
                                               [(1, 2), (3, 4)]),
        "structure_children": lambda: tu.tree_structure(TREE).children(),
        "num": lambda: (tu.tree_structure(TREE).num_leaves, tu.tree_structure(TREE).num_nodes),
        "flatten_up_to": lambda: tu.tree_structure([0, (0, 0)]).flatten_up_to([[1], (2, {"q": 3})]),
        "keys_str": lambda: [str(k) for k in (tu.DictKey("a"), tu.SequenceKey(0), tu.GetAttrKey("x"),
                                              tu.FlattenedIndexKey(1))],
        "tree_reduce": lambda: tree.reduce(lambda a, b: a + b, [1, (2, 3)], 10),
        "tree_all": lambda: (tree.all([1, (True,)]), tree.all([1, 0])),
        "leaves_with_path_namedtuple": lambda: tree.leaves_with_path(P(1, [2])),
        "treedef_eq_dict_order": lambda: (tu.tree_structure({"a": 1, "b": 2})
                                          == tu.tree_structure({"b": 0, "a": 9})),
        "none_structure": lambda: (tu.tree_structure(None), tu.tree_structure((1,)), tu.tree_structure(1)),
        "defaultdict_path": lambda: tu.tree_leaves_with_path(collections.defaultdict(int, {"q": 1, "a": 2})),
    }


ERRORS = {
    "map_none_vs_leaf": lambda tu: tu.tree_map(lambda a, b: a + b, [None, 1], [2, 3]),
    "map_length": lambda tu: tu.tree_map(lambda a, b: a + b, [1, 1], [2, 3, 4]),
    "map_type": lambda tu: tu.tree_map(lambda a, b: a + b, [1, 1], (2, 3)),
    "map_dict_keys": lambda tu: tu.tree_map(lambda a, b: a + b, {"a": 1}, {"b": 2}),
    "unflatten_few": lambda tu: tu.tree_unflatten(tu.tree_structure([1, 2]), [1]),
}

# repr of each case's result under JAX 0.10.2
STORED = json.loads((Path(__file__).parent / "jax_tree_stored.json").read_text())


_ORDERED_DICT = re.compile(r"OrderedDict\((\[.*?\])\)")


def in_this_python(text: str) -> str:
    """A stored repr (written under Python 3.11) as this Python prints it: 3.12 prints an
    ``OrderedDict`` as ``OrderedDict({k: v})`` instead of ``OrderedDict([(k, v)])``."""
    if sys.version_info[:2] < (3, 12):
        return text
    return _ORDERED_DICT.sub(lambda m: f"OrderedDict({dict(ast.literal_eval(m.group(1)))!r})", text)


def test_stored_reprs_follow_this_pythons_ordered_dict_repr():
    od = collections.OrderedDict([("z", ("['c']['z']", 5)), ("y", 6)])
    assert in_this_python("{'c': OrderedDict([('z', (\"['c']['z']\", 5)), ('y', 6)])}") == repr({"c": od})


@pytest.mark.parametrize("name", sorted(STORED))
def test_matches_stored_jax(name):
    assert repr(cases(tu, fgrad.tree)[name]()) == in_this_python(STORED[name])


@pytest.mark.parametrize("name", sorted(STORED))
def test_matches_live_jax(name):
    jax = pytest.importorskip("jax")
    assert repr(cases(tu, fgrad.tree)[name]()) == repr(cases(jax.tree_util, jax.tree)[name]())


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_structure_errors_are_value_errors(name):
    with pytest.raises(ValueError):
        ERRORS[name](tu)


def test_structure_error_names_the_key_path():
    with pytest.raises(ValueError, match=r"tree_map: structures differ at key path \['a'\]\[1\]"):
        tu.tree_map(lambda a, b: a, {"a": [1, [2]]}, {"a": [1, (2,)]})


def test_custom_node_without_keys_gets_flat_index_keys():
    class C:
        def __init__(self, a, b):
            self.a, self.b = a, b

    tu.register_pytree_node(C, lambda c: ((c.a, c.b), "aux"), lambda aux, ch: C(*ch))
    assert repr(tu.tree_structure([C(1, 2)])) == "PyTreeDef([CustomNode(C[aux], [*, *])])"
    paths = [tu.keystr(p) for p, _ in tu.tree_leaves_with_path([C(1, 2)])]
    assert paths == ["[0][<flat index 0>]", "[0][<flat index 1>]"]
    with pytest.raises(ValueError, match="Duplicate"):
        tu.register_pytree_node(C, lambda c: ((), None), lambda aux, ch: C(1, 2))


def test_register_pytree_with_keys_reports_its_keys():
    class Layer:
        def __init__(self, w, b):
            self.w, self.b = w, b

    tu.register_pytree_with_keys(
        Layer, lambda l: (((tu.GetAttrKey("w"), l.w), (tu.GetAttrKey("b"), l.b)), None),
        lambda _, c: Layer(*c))
    tree = {"l1": Layer(1.0, 2.0)}
    assert [tu.keystr(p) for p, _ in tu.tree_leaves_with_path(tree)] == ["['l1'].w", "['l1'].b"]
    doubled = tu.tree_map(lambda x: 2 * x, tree)
    assert (doubled["l1"].w, doubled["l1"].b) == (2.0, 4.0)


def test_register_dataclass_data_and_meta_fields():
    @dataclasses.dataclass
    class D:
        x: float
        y: float
        n: int

    tu.register_dataclass(D, data_fields=["x", "y"], meta_fields=["n"])
    leaves, td = tu.tree_flatten_with_path(D(1.0, 2.0, 3))
    assert repr(leaves) == "[((GetAttrKey(name='x'),), 1.0), ((GetAttrKey(name='y'),), 2.0)]"
    assert repr(td) == "PyTreeDef(CustomNode(D[(3,)], [*, *]))"  # as JAX prints it
    assert tu.tree_unflatten(td, [5, 6]) == D(5, 6, 3)
    assert td != tu.tree_structure(D(1.0, 2.0, 4))  # meta data is part of the structure
    with pytest.raises(ValueError, match="init fields"):
        tu.register_dataclass(type("E", (D,), {}), data_fields=["x"], meta_fields=["n"])


def test_dataclass_under_grad_and_jit():
    @tu.register_dataclass
    @dataclasses.dataclass
    class Params:
        w: object
        b: object
        scale: float = dataclasses.field(default=2.0, metadata=dict(static=True))

    def loss(p, x):
        return fnp.sum((p.scale * p.w * x + p.b) ** 2)

    p = Params(fnp.asarray([1.0, -0.5]), fnp.asarray(0.25))
    x = fnp.asarray([0.3, 0.7])
    g = fgrad.jit(fgrad.grad(loss))(p, x)
    r = 2 * (2.0 * np.array([1.0, -0.5]) * np.array([0.3, 0.7]) + 0.25)
    np.testing.assert_allclose(np.asarray(g.w), r * 2.0 * np.array([0.3, 0.7]))
    np.testing.assert_allclose(float(g.b), r.sum())
    assert g.scale == 2.0


def test_partial_is_a_pytree_through_jit():
    add = tu.Partial(lambda a, b: a * b, fnp.asarray(3.0))
    assert len(tu.tree_leaves(add)) == 1

    @fgrad.jit
    def call(fn, x):
        return fn(x)

    assert float(call(add, fnp.asarray(2.0))) == 6.0
    assert float(fgrad.grad(lambda s: tu.Partial(lambda a, b: a * b, s)(4.0))(2.0)) == 4.0


def test_register_static_is_kept_in_the_structure():
    @tu.register_static
    class Tag(str):
        pass

    assert tu.tree_leaves([Tag("a"), 1.0]) == [1.0]
    assert tu.tree_map(lambda x: x + 1, [Tag("a"), 1.0])[0] == "a"


def test_deep_trees_with_paths_and_prefix_map():
    depth = 3 * sys.getrecursionlimit()
    tree, full = 1.0, (1.0, 2.0)
    for _ in range(depth):
        tree, full = [tree], [full]
    out = tu.tree_map(lambda a, b: b, tree, full)  # prefix matching, no recursion
    assert tu.tree_structure(out) == tu.tree_structure(full) and tu.tree_leaves(out) == [1.0, 2.0]
    (path, leaf), = tu.tree_leaves_with_path(tree)
    assert leaf == 1.0 and len(path) == depth and tu.keystr(path[:2]) == "[0][0]"
    with pytest.raises(ValueError, match="structures differ"):
        tu.tree_map(lambda a, b: a, full, tree)


def test_tree_module_has_jax_names():
    for name in ("map", "leaves", "structure", "flatten", "unflatten", "reduce", "all", "transpose",
                 "map_with_path", "flatten_with_path", "leaves_with_path", "broadcast"):
        assert callable(getattr(fgrad.tree, name)), name
    assert fgrad.tree.unflatten(*reversed(fgrad.tree.flatten({"a": 1}))) == {"a": 1}
