"""Every public class and function of the modules below has a docstring with a runnable ``>>>``
example, the examples run, and they print what the peer prints.

The modules are those the op-spec docs (``fgrad/_docs``, tests/test_doc_examples.py) and
tests/test_docstrings_everywhere.py (fgrad.torch, its nn/optim/data parts) do not walk: the
rest of `fgrad.torch` (distributed, cuda, backends, autograd, distributions, amp, ...) and
the functional face's public modules (`fgrad`, `fgrad.numpy`, `fgrad.scipy`, `fgrad.io`,
`fgrad.experimental`, ...).  Each public callable (a name without a leading underscore,
defined in fgrad; each object once) needs a ``>>>`` example in its own docstring (a class's
on the class).  The examples run as doctests in their module's namespace, as
``pytest --doctest-modules`` runs them.

An example that imports fgrad first (``import fgrad.torch as torch``, ``import fgrad``,
``from fgrad.scipy import stats``) runs with the peer too: ``fgrad.torch`` becomes PyTorch,
``fgrad`` becomes JAX (x64, fgrad's default precision), and the peer must print the same
(`PEERLESS` lists the examples of names the peer does not have).
"""

from __future__ import annotations

import ast
import builtins
import doctest
import importlib
import inspect
import pkgutil
import re
import warnings

import pytest

import fgrad
import fgrad.torch  # noqa: F401

# roots walked with their submodules (a name with a leading underscore is skipped)
TORCH_ROOTS = [
    "fgrad.torch.distributed", "fgrad.torch.cuda", "fgrad.torch.backends", "fgrad.torch.autograd",
    "fgrad.torch.multiprocessing", "fgrad.torch.distributions", "fgrad.torch.random",
    "fgrad.torch.accelerator", "fgrad.torch.onnx", "fgrad.torch.serialization",
    "fgrad.torch.utils.safetensors", "fgrad.torch.utils.checkpoint", "fgrad.torch.utils.dlpack",
    "fgrad.torch.utils.hooks", "fgrad.torch.amp", "fgrad.torch.func", "fgrad.torch.jit",
    "fgrad.torch.profiler", "fgrad.torch.types", "fgrad.torch.testing", "fgrad.torch.special",
    "fgrad.torch.fft", "fgrad.torch.sparse", "fgrad.torch.compiler", "fgrad.torch.linalg",
]
FUNCTIONAL_ROOTS = [
    "fgrad.numpy", "fgrad.lax", "fgrad.nn", "fgrad.random", "fgrad.monitoring", "fgrad.io",
    "fgrad.scipy", "fgrad.tree", "fgrad.tree_util", "fgrad.example_libraries", "fgrad.experimental",
    "fgrad.test_util", "fgrad.dtypes", "fgrad.debug", "fgrad.profiler", "fgrad.ad_checkpoint",
    "fgrad.custom_batching", "fgrad.custom_derivatives", "fgrad.dlpack", "fgrad.errors",
    "fgrad.flatten_util", "fgrad.image", "fgrad.sharding", "fgrad.stages", "fgrad.typing",
    "fgrad.distributed", "fgrad.ref", "fgrad.version",
]
# `fgrad` itself without its submodules (the internal packages are not API)
TOP_LEVEL = ["fgrad"]

# examples of names the peer does not have (fgrad extras): they run with fgrad only
PEERLESS: set[str] = set()

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _modules() -> list[str]:
    names = list(TOP_LEVEL)
    for root in TORCH_ROOTS + FUNCTIONAL_ROOTS:
        pkg = importlib.import_module(root)
        names.append(root)
        if hasattr(pkg, "__path__"):
            names += [m.name for m in pkgutil.walk_packages(pkg.__path__, root + ".")
                      if not any(p.startswith("_") for p in m.name.split(".")[1:])]
    return list(dict.fromkeys(names))


def _public(module) -> list[tuple[str, object]]:
    names = getattr(module, "__all__", None) or dir(module)
    out = []
    for name in names:
        if name.startswith("_"):
            continue
        obj = getattr(module, name, None)
        if obj is None or not callable(obj) or inspect.ismodule(obj):
            continue
        if not (getattr(obj, "__module__", None) or "").startswith("fgrad"):
            continue
        out.append((name, obj))
    return out


def _own_doc(obj) -> str:
    """The object's own docstring (a class's from its body, not inherited)."""
    if inspect.isclass(obj):
        return obj.__dict__.get("__doc__") or ""
    return getattr(obj, "__doc__", None) or ""


def collect() -> list[tuple[str, object]]:
    """``(qualified name, object)`` of every public callable, each object once."""
    seen, rows = set(), []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for module_name in _modules():
            module = importlib.import_module(module_name)
            for name, obj in _public(module):
                if id(obj) in seen:
                    continue
                seen.add(id(obj))
                rows.append((f"{module_name}.{name}", obj))
    return rows


ROWS = collect()


def _doctest(qualified: str, obj, text: str | None = None, globs: dict | None = None) -> doctest.DocTest:
    module = inspect.getmodule(inspect.unwrap(obj)) if not inspect.isclass(obj) else \
        importlib.import_module(obj.__module__)
    g = dict(vars(module)) if globs is None and module is not None else dict(globs or {})
    return doctest.DocTestParser().get_doctest(text if text is not None else _own_doc(obj), g, qualified,
                                               getattr(module, "__file__", None), 0)


def _run(test: doctest.DocTest) -> tuple[int, str]:
    out = []
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test, out=out.append)
    return runner.failures, "".join(out)


def test_every_public_callable_has_an_example():
    missing = [q for q, obj in ROWS if ">>>" not in _own_doc(obj)]
    assert not missing, (f"{len(missing)} public callable(s) without a `>>>` example in their own "
                         f"docstring: {', '.join(missing)}")


def test_the_walk_finds_the_modules():
    names = {q for q, _ in ROWS}
    for q in ("fgrad.torch.distributed.all_reduce", "fgrad.torch.cuda.is_available",
              "fgrad.torch.distributions.Normal", "fgrad.monitoring.record_event", "fgrad.numpy.sin",
              "fgrad.scipy.linalg.expm", "fgrad.io.tree_json.encode"):
        assert q in names, q
    assert not any(q.startswith(("fgrad.core.", "fgrad.ops.", "fgrad.torch.nn.")) for q in names)


# the examples, a module's at a time (one test per module keeps the collection small)
BY_MODULE: dict[str, list] = {}
for _q, _obj in ROWS:
    BY_MODULE.setdefault(_q.rsplit(".", 1)[0], []).append((_q, _obj))
SLOW_MODULES = {"fgrad.torch.distributions", "fgrad.numpy", "fgrad.lax", "fgrad.scipy.special",
                "fgrad.scipy.stats", "fgrad.torch.special", "fgrad.torch.linalg"}


@pytest.mark.parametrize("module_name", [
    pytest.param(m, marks=(pytest.mark.slow,) if m in SLOW_MODULES else ()) for m in BY_MODULE])
def test_examples_run(module_name):
    failed = []
    for qualified, obj in BY_MODULE[module_name]:
        failures, report = _run(_doctest(qualified, obj))
        if failures:
            failed.append(report)
    assert not failed, "\n".join(failed)


# ------------------------------------------------------------------------ the peer's output

_IMPORTS_FGRAD = re.compile(r"^\s*>>> (import fgrad|from fgrad)", re.M)


def _self_contained(doc: str) -> bool:
    """Whether the example starts by importing fgrad and uses no name it does not bind itself
    (many older examples use their module's globals)."""
    first = re.search(r"^\s*>>> .*$", doc, re.M)
    if first is None or _IMPORTS_FGRAD.match(first.group(0)) is None:
        return False
    try:
        examples = doctest.DocTestParser().get_examples(doc)
        trees = [ast.parse(e.source) for e in examples]
    except (SyntaxError, ValueError):
        return False
    bound, used = set(dir(builtins)), set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                (bound if isinstance(node.ctx, ast.Store) else used).add(node.id)
            elif isinstance(node, ast.alias):
                bound.add((node.asname or node.name).split(".")[0])
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                bound.add(node.name)
            elif isinstance(node, ast.arg):
                bound.add(node.arg)
    return used <= bound


def _peer_text(qualified: str, doc: str) -> str:
    if qualified.startswith("fgrad.torch"):
        return doc.replace("fgrad.torch", "torch")
    return re.sub(r"\bfgrad\b", "jax", doc)


def peer_rows() -> list[tuple[str, object]]:
    return [(q, obj) for q, obj in ROWS if q not in PEERLESS and _self_contained(_own_doc(obj))]


def _peer_check(rows) -> None:
    torch = pytest.importorskip("torch")
    jax = pytest.importorskip("jax")
    x64 = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", True)
    failed = []
    try:
        for qualified, obj in rows:
            test = _doctest(qualified, obj, _peer_text(qualified, _own_doc(obj)), globs={})
            torch.manual_seed(0)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                failures, report = _run(test)
            if failures:
                failed.append(report)
    finally:
        jax.config.update("jax_enable_x64", x64)
    assert not failed, "the peer prints something else:\n" + "\n".join(failed)


def test_examples_print_the_peers_output_sample():
    _peer_check(peer_rows()[::25])


@pytest.mark.slow
def test_examples_print_the_peers_output_all():
    _peer_check(peer_rows())


def test_peerless_list_is_current():
    names = {q for q, _ in ROWS}
    assert PEERLESS <= names, sorted(PEERLESS - names)
