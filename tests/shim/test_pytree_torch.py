"""``torch.utils._pytree`` with PyTorch's conventions (None a leaf, dict insertion order,
TreeSpec text, key paths): against PyTorch live when installed, and stored cases."""

from __future__ import annotations

import collections

import pytest

from fgrad.torch.utils import _pytree as F

P = collections.namedtuple("P", "u v")


def _cases():
    return [
        {"b": [1, None, (2, 3)], "a": collections.OrderedDict(x=4), "c": P(5, 6)},
        [1], 5, None, (), {}, [collections.defaultdict(list, {"k": [1]})],
        collections.deque([1, 2], maxlen=3), {"x": {"y": [None, ()]}},
    ]


def test_stored_structure_and_paths():
    leaves, spec = F.tree_flatten(_cases()[0])
    assert leaves == [1, None, 2, 3, 4, 5, 6]
    # PyTorch 2.13's text
    assert repr(spec) == (
        "TreeSpec(dict, ['b', 'a', 'c'], [TreeSpec(list, None, [*,\n    *,\n    TreeSpec(tuple, None, [*,\n"
        "      *])]),\n  TreeSpec(OrderedDict, ['x'], [*]),\n  TreeSpec(namedtuple, <class '"
        f"{__name__}.P'>, [*,\n    *])])")
    assert (spec.num_leaves, spec.num_nodes, spec.num_children) == (7, 12, 3)
    want = {"b": [0, 1, (2, 3)], "a": collections.OrderedDict(x=4), "c": P(5, 6)}
    assert F.tree_unflatten(range(7), spec) == want
    paths = [F.keystr(p) for p, _ in F.tree_flatten_with_path(_cases()[0])[0]]
    assert paths == ["['b'][0]", "['b'][1]", "['b'][2][0]", "['b'][2][1]", "['a']['x']", "['c'].u", "['c'].v"]
    assert F.tree_map(lambda x, y: (x, y), [1, (2,)], [[3], (4,)]) == [(1, [3]), ((2, 4),)]
    assert F.tree_map_only(int, lambda x: -x, [1, 2.0, "s"]) == [-1, 2.0, "s"]
    assert F.tree_all(lambda x: x > 0, [1, 2]) and F.tree_any_only(float, lambda x: x < 0, [1, -2.0])
    with pytest.raises(ValueError, match="holds 2 items"):
        F.tree_unflatten([1], F.tree_structure((1, 2)))


def test_register_pytree_node():
    class Box:
        def __init__(self, items):
            self.items = items

    F.register_pytree_node(Box, lambda b: (list(b.items), None), lambda c, _: Box(list(c)))
    out = F.tree_map(lambda x: x + 1, {"b": Box([1, 2])})
    assert out["b"].items == [2, 3]
    with pytest.raises(ValueError, match="already registered"):
        F.register_pytree_node(Box, lambda b: ([], None), lambda c, _: Box([]))


def test_live_against_pytorch():
    T = pytest.importorskip("torch.utils._pytree")
    for case in _cases():
        lt, st = T.tree_flatten(case)
        lf, sf = F.tree_flatten(case)
        assert lt == lf and repr(st) == repr(sf)
        assert (st.num_leaves, st.num_nodes) == (sf.num_leaves, sf.num_nodes)
        assert T.tree_unflatten(lt, st) == F.tree_unflatten(lf, sf)
        pt = [(T.keystr(p), v) for p, v in T.tree_flatten_with_path(case)[0]]
        pf = [(F.keystr(p), v) for p, v in F.tree_flatten_with_path(case)[0]]
        assert pt == pf
