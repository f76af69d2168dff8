"""The layer stack of the functional core, checked over the import graph of fgrad.

The graph is read with `ast` (no module is imported): an edge ``a -> b`` for every import
statement of ``a``.  ``from pkg import name`` is an edge to ``pkg.name`` when that is a
module, else to ``pkg``.  Imports inside functions count too: they are allowed only for
lazy optional dependencies (cupy, scipy: not fgrad modules, so no edges) and for
``fgrad.torch``, so an import moved into a function to dodge a cycle still fails here.
The layer order (DESIGN.md, "Import layering"):

    backends < core < ops < compile < transforms < ops.control_flow < numpy < lax, random,
    nn < fgrad

The checks: no import cycles among the modules of the functional core (`CYCLE_FREE`);
ops/, transforms/, core/ and compile/ never import the faces (fgrad.numpy, fgrad.lax,
fgrad.torch), not even inside a function; backends/ never imports core/.
"""

from __future__ import annotations

import ast
import pathlib

import pytest

PKG = pathlib.Path(__file__).resolve().parent.parent / "fgrad"

# Packages / modules whose import graph must be acyclic.
CYCLE_FREE = ("fgrad.core", "fgrad.ops", "fgrad.transforms", "fgrad.compile", "fgrad.backends",
              "fgrad.numpy", "fgrad.lax", "fgrad.random", "fgrad.nn", "fgrad.tree_util",
              "fgrad.torch", "fgrad.scipy")

# (importer prefix, forbidden prefixes)
FORBIDDEN = [
    ("fgrad.ops", ("fgrad.numpy", "fgrad.lax", "fgrad.torch", "fgrad.scipy")),
    ("fgrad.transforms", ("fgrad.numpy", "fgrad.lax", "fgrad.torch", "fgrad.scipy")),
    ("fgrad.numpy", ("fgrad.scipy",)),
    ("fgrad.core", ("fgrad.numpy", "fgrad.lax", "fgrad.torch", "fgrad.ops", "fgrad.transforms")),
    ("fgrad.compile", ("fgrad.numpy", "fgrad.lax", "fgrad.torch")),
    ("fgrad.backends", ("fgrad.core", "fgrad.ops", "fgrad.transforms", "fgrad.numpy", "fgrad.lax",
                        "fgrad.torch")),
]


def _modules(root: pathlib.Path) -> dict[str, pathlib.Path]:
    mods = {}
    for p in root.rglob("*.py"):
        rel = p.relative_to(root.parent).with_suffix("").parts
        name = ".".join(rel[:-1] if rel[-1] == "__init__" else rel)
        mods[name] = p
    return mods


def _targets(mods, cur: str, is_pkg: bool, node) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name in mods]
    if node.level:
        base = cur.split(".") if is_pkg else cur.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        prefix = ".".join(base + ([node.module] if node.module else []))
    else:
        prefix = node.module
    out = []
    for a in node.names:
        sub = f"{prefix}.{a.name}"
        if sub in mods:
            out.append(sub)  # a submodule: importing it does not run more of the package
        elif prefix in mods:
            out.append(prefix)
    return out


LAZY_ALLOWED = ("fgrad.torch",)  # may be imported inside a function (an optional face)


def import_graph(root: pathlib.Path = PKG, in_functions: bool = True) -> dict[str, set[str]]:
    """Module -> the fgrad modules it imports: at module level, and (``in_functions``)
    inside functions, except the lazy imports of `LAZY_ALLOWED` there."""
    mods = _modules(root)
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for m, p in mods.items():
        is_pkg = p.name == "__init__.py"

        def visit(node, in_func, m=m, is_pkg=is_pkg):
            for c in ast.iter_child_nodes(node):
                f = in_func or isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
                if isinstance(c, (ast.Import, ast.ImportFrom)) and (in_functions or not f):
                    graph[m].update(t for t in _targets(mods, m, is_pkg, c)
                                    if t != m and not (f and _under(t, LAZY_ALLOWED)))
                visit(c, f)

        visit(ast.parse(p.read_text()), False)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


def _under(mod: str, prefixes) -> bool:
    return any(mod == p or mod.startswith(p + ".") for p in prefixes)


@pytest.fixture(scope="module")
def graph():
    return import_graph()


def test_no_import_cycles_in_the_functional_core(graph):
    bad = [c for c in cycles(graph) if any(_under(m, CYCLE_FREE) for m in c)]
    assert not bad, (
        "import cycles among fgrad modules (module-level imports): "
        + "; ".join(" <-> ".join(c) for c in bad)
        + ". Move the shared piece to the lower layer (see DESIGN.md, 'Import layering')."
    )


@pytest.mark.parametrize("importer,forbidden", FORBIDDEN, ids=[f[0] for f in FORBIDDEN])
def test_layers_import_only_downwards(graph, importer, forbidden):
    bad = sorted(f"{m} -> {t}" for m, ts in graph.items() if _under(m, (importer,))
                 for t in ts if _under(t, forbidden))
    assert not bad, f"{importer} must not import {forbidden}: {bad} (DESIGN.md, 'Import layering')"


def test_the_checks_see_cycles_and_upward_imports(tmp_path):
    """The graph reader and cycle finder catch what they guard against (on a toy package)."""
    pkg = tmp_path / "fgrad"
    (pkg / "core").mkdir(parents=True)
    (pkg / "numpy").mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "core" / "__init__.py").write_text("")
    (pkg / "numpy" / "__init__.py").write_text("")
    (pkg / "core" / "a.py").write_text("from . import b\nfrom ..numpy import face\n")
    (pkg / "core" / "b.py").write_text("from .a import x\n\ndef f():\n    from ..numpy import late\n")
    (pkg / "numpy" / "face.py").write_text("import fgrad.core.a\n")
    g = import_graph(pkg, in_functions=False)
    assert g["fgrad.core.a"] == {"fgrad.core.b", "fgrad.numpy.face"}
    assert g["fgrad.core.b"] == {"fgrad.core.a"}  # module level only: f()'s import is left out
    assert sorted(map(tuple, cycles(g))) == [("fgrad.core.a", "fgrad.core.b", "fgrad.numpy.face")]
    (pkg / "numpy" / "late.py").write_text("from ..core import b\n")
    g = import_graph(pkg)
    assert "fgrad.numpy.late" in g["fgrad.core.b"]  # an import inside a function is an edge
    assert any({"fgrad.core.b", "fgrad.numpy.late"} <= set(c) for c in cycles(g))
