"""Deep programs and deep pytrees in the functional core: no recursion limits, linear work.

``grad`` of a 20,000-op chain (the reverse-mode tape), ``jit`` of a 5,000-op chain and
pytrees 10,000 levels deep run by default; the 100,000-op chains and 50,000-level pytrees are
slow (``python -m pytest -m slow tests/test_deep_programs.py``)."""

from __future__ import annotations

import sys
import time
from collections import OrderedDict, namedtuple

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import tree_util as tu
from fgrad.transforms import tape


def _sin_chain(n):
    def f(x):
        for _ in range(n):
            x = fnp.sin(x)
        return fnp.sum(x)

    return f


def _sin_chain_ref(n):
    v, g = np.ones(3), np.ones(3)
    for _ in range(n):
        g = g * np.cos(v)
        v = np.sin(v)
    return v.sum(), g


def test_grad_of_a_deep_chain_builds_one_tape_program(monkeypatch):
    n = 20_000
    builds = [0]
    real = tape._build

    def counted(*a):
        builds[0] += 1
        return real(*a)

    monkeypatch.setattr(tape, "_build", counted)
    tape._cache.clear()
    g = fgrad.grad(_sin_chain(n))(fnp.ones(3))
    assert builds[0] <= 2  # sin and sum: the per-op programs are cached, not rebuilt per op
    np.testing.assert_allclose(np.asarray(g), _sin_chain_ref(n)[1], rtol=1e-12)


def test_jit_of_a_deep_chain():
    n = 5_000
    out = fgrad.jit(_sin_chain(n))(fnp.ones(3))
    np.testing.assert_allclose(float(out), _sin_chain_ref(n)[0], rtol=1e-12)


@pytest.mark.slow
def test_100k_chain_grad_and_jit():
    n = 100_000
    t0 = time.perf_counter()
    g = fgrad.grad(_sin_chain(n))(fnp.ones(3))
    out = fgrad.jit(_sin_chain(n))(fnp.ones(3))
    assert time.perf_counter() - t0 < 300  # a budget, not a timing ratio
    want_v, want_g = _sin_chain_ref(n)
    np.testing.assert_allclose(np.asarray(g), want_g, rtol=1e-9)
    np.testing.assert_allclose(float(out), want_v, rtol=1e-9)


# ---------------------------------------------------------------------------------------
# deep pytrees

Pair = namedtuple("Pair", "a b")


def _deep_tree(depth):
    """Lists, tuples, dicts, OrderedDicts, namedtuples and None nested ``depth`` deep,
    with a leaf beside each level; leaves are the level numbers."""
    t = -1.0
    for i in range(depth):
        k = i % 5
        if k == 0:
            t = [t, float(i)]
        elif k == 1:
            t = (float(i), t)
        elif k == 2:
            t = {"z": t, "a": float(i), "n": None}
        elif k == 3:
            t = OrderedDict(q=t, b=float(i))
        else:
            t = Pair(t, float(i))
    return t


@pytest.mark.parametrize("depth", [5_000])
def test_deep_pytrees(depth):
    assert depth > sys.getrecursionlimit()
    tree = _deep_tree(depth)
    leaves, td = tu.tree_flatten(tree)
    assert len(leaves) == depth + 1 == td.num_leaves
    assert sorted(leaves) == [-1.0] + [float(i) for i in range(depth)]
    assert leaves == tu.tree_leaves(tree)
    assert tu.tree_structure(tree) == td and hash(tu.tree_structure(tree)) == hash(td)
    back = tu.tree_unflatten(td, leaves)
    assert tu.tree_structure(back) == td and tu.tree_leaves(back) == leaves
    doubled = tu.tree_map(lambda a, b: a + b, tree, back)
    assert tu.tree_leaves(doubled) == [2 * v for v in leaves]
    assert td.num_nodes > depth and repr(td).startswith("PyTreeDef(")
    other = tu.tree_structure(_deep_tree(depth - 1))
    assert other != td
    with pytest.raises(ValueError, match="structures differ"):
        tu.tree_map(lambda a, b: a, tree, _deep_tree(depth - 1))
    with pytest.raises(ValueError, match="too few leaves"):
        tu.tree_unflatten(td, leaves[:-1])
    with pytest.raises(ValueError, match="left over"):
        tu.tree_unflatten(td, leaves + [0.0])


def test_shallow_pytrees_unchanged():
    tree = {"w": 1.0, "b": (2.0, None), "l": [3.0, {"k": 4.0}], "p": Pair(5.0, 6.0)}
    leaves, td = tu.tree_flatten(tree)
    assert leaves == [2.0, 3.0, 4.0, 5.0, 6.0, 1.0]
    # as JAX prints it
    assert repr(td) == ("PyTreeDef({'b': (*, None), 'l': [*, {'k': *}], "
                        "'p': CustomNode(namedtuple[Pair], [*, *]), 'w': *})")
    assert tu.tree_unflatten(td, leaves) == tree
    assert tu.tree_structure((1.0,)) != tu.tree_structure([1.0])
    assert repr(tu.tree_structure((1.0,))) == "PyTreeDef((*,))"
    assert tu.tree_leaves(tree, is_leaf=lambda x: isinstance(x, list)) == [2.0, [3.0, {"k": 4.0}],
                                                                          5.0, 6.0, 1.0]


def test_jit_and_grad_take_deep_pytrees():
    depth = 3_000
    x = fnp.arange(3.0)
    tree = x
    for _ in range(depth):
        tree = [tree]

    def f(t):
        return fnp.sum(tu.tree_leaves(t)[0] ** 2)

    np.testing.assert_allclose(float(fgrad.jit(f)(tree)), 5.0)
    g = fgrad.grad(f)(tree)
    assert tu.tree_structure(g) == tu.tree_structure(tree)
    np.testing.assert_allclose(np.asarray(tu.tree_leaves(g)[0]), [0.0, 2.0, 4.0])
    out = fgrad.jit(lambda t: t)(tree)  # a deep output tree
    assert tu.tree_structure(out) == tu.tree_structure(tree)


@pytest.mark.slow
def test_100k_deep_pytrees():
    test_deep_pytrees(50_000)
