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
            out.append(sub)  # a submodule
        elif prefix in mods:
            out.append(prefix)
    return out


def _with_packages(mods, importer: str, target: str) -> list[str]:
    """``target`` and the packages whose ``__init__`` importing it runs: its enclosing
    packages, except those enclosing ``importer`` (already initialized, or initializing,
    when ``importer`` runs).  ``from .autograd import graph`` in ``fgrad.torch._ops`` runs
    ``fgrad.torch.autograd``'s ``__init__`` before ``graph``."""
    parts = target.split(".")
    inside = importer.split(".")
    out = [target]
    for k in range(1, len(parts)):
        pkg = ".".join(parts[:k])
        if pkg in mods and parts[:k] != inside[:k]:
            out.append(pkg)
    return out


LAZY_ALLOWED = ("fgrad.torch",)  # other layers may load it inside a function (an optional face)

# The imports inside functions in fgrad.torch: the upward calls its module order keeps
# (DESIGN.md, "Import layering"), each with why it cannot be a module-level import.  They
# are left out of the graph; any other import of an fgrad module inside a function in
# fgrad.torch is an edge like a module-level one, and fails
# `test_torch_imports_inside_functions_are_the_listed_ones`.
_AUTOGRAD_INIT = ("importing any autograd submodule runs the autograd package, which loads this "
                  "module, below the dispatcher (autograd.graph records the dispatcher's nodes)")
TORCH_LAZY = {
    ("fgrad.torch._tensor", "fgrad.torch.autograd.forward_ad"):
        "a dual tensor's repr shows its tangent; forward_ad builds on Tensor",
    ("fgrad.torch.autograd.function", "fgrad.torch._dual_marks"):
        "Function.apply on dual tensors marks its results; the marks' node class is an autograd node",
    ("fgrad.torch.autograd.gradcheck", "fgrad.torch.autograd.forward_ad"):
        "check_forward_ad evaluates with dual tensors; forward_ad loads after the autograd package",
    ("fgrad.torch.autograd.gradcheck", "fgrad.torch.testing"):
        "gradgradcheck draws its grad_outputs with testing.make_tensor, as PyTorch's does; "
        "torch.testing is built on the whole torch namespace, which loads the autograd package",
    ("fgrad.torch._tensor", "fgrad.torch.overrides"):
        "a Tensor subclass gets the __torch_function__ protocol's routed methods when it is defined; "
        "the protocol's default handler is built on Tensor",
    ("fgrad.torch._storage", "fgrad.torch._tensor"):
        "storage methods return Tensors; a Tensor is a view of a storage",
    ("fgrad.torch._tensor", "fgrad.torch.autograd"):
        "Tensor methods consult grad mode and the graph; autograd's nodes hold Tensors",
    ("fgrad.torch._tensor", "fgrad.torch.autograd.grad_mode"): "as above",
    ("fgrad.torch._tensor", "fgrad.torch.autograd.graph"): "as above",
    ("fgrad.torch.autograd.graph", "fgrad.torch._dispatch"):
        "the create_graph backward and view grad_fns run ops through the dispatcher, which records "
        "into the graph",
    ("fgrad.torch.autograd.graph", "fgrad.torch._ops"): "as above (add, clone)",
    ("fgrad.torch.autograd.function", "fgrad.torch._dispatch"): _AUTOGRAD_INIT,
    ("fgrad.torch.autograd.function", "fgrad.torch._ops"): _AUTOGRAD_INIT,
    ("fgrad.torch.autograd.functional", "fgrad.torch._ops_shape"): _AUTOGRAD_INIT,
    ("fgrad.torch.autograd._grad", "fgrad.torch._ops_shape"):
        "grad(is_grads_batched=True) stacks the per-row gradients: " + _AUTOGRAD_INIT,
    ("fgrad.torch._ops_creation", "fgrad.torch._dispatch"):
        "the autograd package (Variable, grad's grad_outputs) creates tensors: " + _AUTOGRAD_INIT,
    ("fgrad.torch._ops_creation", "fgrad.torch._ops"): "as above (polar: cos, sin, mul)",
    ("fgrad.torch._ops", "fgrad.torch._ops_shape"):
        "ops defined through higher ops (where(cond), cov, vander: nonzero, cat, narrow, stack); the "
        "view ops are built on _ops' copy_/clone/where",
    ("fgrad.torch._ops", "fgrad.torch.linalg"):
        "norm(p='fro'/'nuc') is linalg.matrix_norm; torch.linalg is built on _ops",
    ("fgrad.torch._ops_linalg", "fgrad.torch.linalg"):
        "cholesky/qr are torch.linalg's; torch.linalg is built on _ops_linalg",
    ("fgrad.torch.nn._losses_more", "fgrad.torch.nn.functional"):
        "nn.functional re-exports these losses, which call its other ops (pairwise_distance, relu)",
    ("fgrad.torch.nn._pool_more", "fgrad.torch.nn.functional"):
        "nn.functional re-exports these pools, which call its max_pool/avg_pool",
    ("fgrad.torch.nn._random_layers", "fgrad.torch.nn.functional"):
        "nn.functional re-exports these layers, which call its softmax/dropout",
}


def _lazy_allowed(importer: str, target: str) -> bool:
    if _under(importer, ("fgrad.torch",)):
        return (importer, target) in TORCH_LAZY
    return _under(target, LAZY_ALLOWED)


def _imports(root: pathlib.Path = PKG):
    """(importer, target, inside a function) for every import of an fgrad module."""
    mods = _modules(root)
    out = []
    for m, p in mods.items():
        is_pkg = p.name == "__init__.py"

        def visit(node, in_func, m=m, is_pkg=is_pkg):
            for c in ast.iter_child_nodes(node):
                f = in_func or isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
                if isinstance(c, (ast.Import, ast.ImportFrom)):
                    for t in _targets(mods, m, is_pkg, c):
                        out.extend((m, u, f) for u in _with_packages(mods, m, t) if u != m)
                visit(c, f)

        visit(ast.parse(p.read_text()), False)
    return mods, out


def import_graph(root: pathlib.Path = PKG, in_functions: bool = True) -> dict[str, set[str]]:
    """Module -> the fgrad modules it imports (and the packages that runs): at module level,
    and (``in_functions``) inside functions, except the lazy imports `_lazy_allowed` lets
    through."""
    mods, imports = _imports(root)
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for m, t, f in imports:
        if not f or (in_functions and not _lazy_allowed(m, t)):
            graph[m].add(t)
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
    # importing fgrad.numpy.face runs fgrad.numpy's __init__ first; fgrad.core's has run
    assert g["fgrad.core.a"] == {"fgrad.core.b", "fgrad.numpy.face", "fgrad.numpy"}
    assert g["fgrad.core.b"] == {"fgrad.core.a"}  # module level only: f()'s import is left out
    assert sorted(map(tuple, cycles(g))) == [("fgrad.core.a", "fgrad.core.b", "fgrad.numpy.face")]
    (pkg / "numpy" / "late.py").write_text("from ..core import b\n")
    g = import_graph(pkg)
    assert "fgrad.numpy.late" in g["fgrad.core.b"]  # an import inside a function is an edge
    assert any({"fgrad.core.b", "fgrad.numpy.late"} <= set(c) for c in cycles(g))


def test_torch_imports_inside_functions_are_the_listed_ones():
    """Inside fgrad.torch, an fgrad module is imported inside a function only where
    `TORCH_LAZY` says why (an upward call the module order keeps); each listed import is
    needed (at module level it would close an import cycle) and still exists."""
    mods, imports = _imports()
    lazy = {(m, t) for m, t, f in imports if f and _under(m, ("fgrad.torch",)) and _under(t, ("fgrad",))}
    unlisted = sorted(lazy - set(TORCH_LAZY))
    assert not unlisted, (
        f"imports inside functions in fgrad.torch: {unlisted}. Import at module level; if that "
        "closes a cycle, move the shared piece down (DESIGN.md, 'Import layering'), or list it "
        "in TORCH_LAZY with the reason."
    )
    stale = sorted(set(TORCH_LAZY) - lazy)
    assert not stale, f"TORCH_LAZY lists imports that no longer exist: {stale}"
    graph = import_graph()
    hoistable = []
    for m, t in sorted(TORCH_LAZY):
        g = {k: set(v) for k, v in graph.items()}
        g[m].update(u for u in _with_packages(mods, m, t) if u != m)
        if not any(m in c for c in cycles(g)):
            hoistable.append(f"{m} -> {t}")
    assert not hoistable, f"these imports can move to module level (no cycle): {hoistable}"


def test_the_torch_lazy_check_sees_package_inits(tmp_path):
    """``from .sub import mod`` runs ``sub``'s ``__init__``: an edge to the package too."""
    pkg = tmp_path / "fgrad"
    (pkg / "torch" / "autograd").mkdir(parents=True)
    for init in (pkg, pkg / "torch", pkg / "torch" / "autograd"):
        (init / "__init__.py").write_text("")
    (pkg / "torch" / "autograd" / "__init__.py").write_text("from . import function\n")
    (pkg / "torch" / "autograd" / "graph.py").write_text("")
    (pkg / "torch" / "autograd" / "function.py").write_text("def f():\n    from .._shim import x\n")
    (pkg / "torch" / "_shim.py").write_text("from .autograd import graph\n")
    g = import_graph(pkg)
    assert g["fgrad.torch._shim"] == {"fgrad.torch.autograd.graph", "fgrad.torch.autograd"}
    assert any({"fgrad.torch._shim", "fgrad.torch.autograd.function"} <= set(c) for c in cycles(g))
