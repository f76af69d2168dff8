"""Every public callable of fgrad (functions and classes, both faces) has a docstring with a
runnable ``>>>`` example, and every such example runs.

`tests/test_doc_examples.py` covers the functions of `fgrad._docs.MODULES` whose examples are
generated from the peers' output (``fgrad/_docs/*_examples.py``).  This test walks every
public module instead (the functional face and `fgrad.torch`, with all their public
submodules; the internal packages `fgrad.core`, `ops`, `compile`, `backends`, `transforms`,
`testing` are not API), so a class (``torch.nn.ReLU``, ``torch.optim.SGD``,
``torch.utils.data.DataLoader``...) or a function of a module outside that list cannot go
without an example, and it runs each hand-written docstring example as a doctest
(``ELLIPSIS | NORMALIZE_WHITESPACE``) so they cannot rot.  The examples of `fgrad.torch`
print PyTorch's output: the slow test runs them with ``import torch`` (the real PyTorch) too.

Each public object is checked once, under its *home*: the public module that defines it
(``__module__``), else the first walked module that exports it.
"""

from __future__ import annotations

import doctest
import importlib
import inspect
import io
import pkgutil
import re
import sys
import warnings

import pytest

import fgrad
import fgrad.torch  # noqa: F401

# the packages of fgrad that are not API (the engine); everything else without a leading
# underscore is walked
INTERNAL = ("fgrad.core", "fgrad.ops", "fgrad.compile", "fgrad.backends", "fgrad.transforms",
            "fgrad.testing")

# public names that are not API: helpers imported into a public namespace without an
# underscore (tests/test_doc_examples.py's NOT_API lists the functions; these are the rest)
NOT_API: set[str] = {
    "fgrad.torch.is_grad_enabled_",
}


def public_modules() -> list[str]:
    """``fgrad`` and every submodule without a leading underscore in its path, outside `INTERNAL`
    (those whose optional dependency is missing aside)."""
    names = ["fgrad"]
    for info in pkgutil.walk_packages(fgrad.__path__, "fgrad."):
        name = info.name
        if any(part.startswith("_") for part in name.split(".")) or name.startswith(
                tuple(p + "." for p in INTERNAL)) or name in INTERNAL:
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                importlib.import_module(name)
        except ImportError:
            continue
        names.append(name)
    return names


def public_names(module) -> list[str]:
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n in dir(module) if not n.startswith("_")]
    return [n for n in names if not n.startswith("_")]


def own_doc(obj) -> str | None:
    """The docstring ``obj`` itself carries (a class's, not one inherited from a base)."""
    if inspect.isclass(obj):
        doc = obj.__dict__.get("__doc__")
        return doc if isinstance(doc, str) else None
    return getattr(obj, "__doc__", None)


def public_callables() -> dict[int, tuple[str, str, object]]:
    """``{id: (home module, name, object)}`` for every public function and class of fgrad."""
    modules = public_modules()
    walked = set(modules)
    found: dict[int, tuple[str, str, object]] = {}
    for module_name in modules:
        module = sys.modules[module_name]
        for name in public_names(module):
            obj = getattr(module, name, None)
            if obj is None or inspect.ismodule(obj) or not callable(obj):
                continue
            owner = getattr(obj, "__module__", None) or ""
            if not isinstance(owner, str) or not (owner == "fgrad" or owner.startswith("fgrad.")):
                continue  # a re-exported Python/NumPy object, or a typing alias
            if id(obj) in found and found[id(obj)][0] == owner:
                continue
            home = owner if owner in walked else module_name
            if id(obj) not in found or home == owner:
                found[id(obj)] = (home, getattr(obj, "__name__", name) if home == owner else name, obj)
    return found


CALLABLES = public_callables()


def _missing() -> list[str]:
    missing = []
    for home, name, obj in CALLABLES.values():
        qualified = f"{home}.{name}"
        if qualified in NOT_API:
            continue
        if ">>>" not in (own_doc(obj) or ""):
            missing.append(qualified)
    return sorted(missing)


def test_every_public_callable_has_an_example():
    missing = _missing()
    assert not missing, (
        f"{len(missing)} public function(s)/class(es) without a docstring with a `>>>` example: "
        f"{', '.join(missing)}.\nWrite one (a short summary, then `Example::` and 1-4 `>>>` lines "
        "whose output is PyTorch's/JAX's: run it with `import torch` / `import jax` to check), "
        "or for a generated function add it to CURATED in tools/make_doc_examples.py.")


def test_not_api_is_current():
    """Every NOT_API name exists and still lacks an example."""
    homes = {home for home, _, _ in CALLABLES.values()}
    by_name = {f"{home}.{name}": obj for home, name, obj in CALLABLES.values()}
    stale = sorted(n for n in NOT_API if n not in by_name or ">>>" in (own_doc(by_name[n]) or ""))
    assert not stale, f"remove from NOT_API (gone, or it has an example now): {stale}"
    assert homes


def test_the_walk_finds_the_classes():
    """The walk sees classes and submodules (a walk that found nothing would pass trivially)."""
    import fgrad.torch as torch

    homes = {id(obj): home for home, _, obj in CALLABLES.values()}
    assert homes[id(torch.nn.ReLU)] == "fgrad.torch.nn.modules.activation"
    assert homes[id(torch.optim.SGD)].startswith("fgrad.torch.optim")
    assert homes[id(torch.utils.data.DataLoader)].startswith("fgrad.torch.utils.data")
    assert homes[id(torch.Size)] == "fgrad.torch"  # defined in a private module: its exporter
    assert len(CALLABLES) > 2000


# ----------------------------------------------------------------------- running the examples
def _attached(obj) -> bool:
    """Whether ``obj``'s example was attached from `fgrad._docs` (run by test_doc_examples.py)."""
    return getattr(obj, "__fgrad_doc_example__", None) is not None


def _examples() -> list[tuple[str, object, str]]:
    """``(qualified name, object, docstring)`` of every public callable whose own docstring has a
    hand-written example (each docstring once)."""
    out, seen = [], set()
    for home, name, obj in sorted(CALLABLES.values(), key=lambda t: (t[0], t[1])):
        doc = own_doc(obj)
        if not doc or ">>>" not in doc or _attached(obj) or doc in seen:
            continue
        seen.add(doc)
        out.append((f"{home}.{name}", obj, doc))
    return out


EXAMPLES = _examples()
OPTIONFLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def run_example(qualified: str, obj, doc: str, globs: dict | None = None) -> tuple[int, str]:
    """Run ``doc`` as a doctest in a copy of the defining module's namespace (as
    ``pytest --doctest-modules`` does); ``(failures, report)``."""
    import fgrad.torch as torch

    if globs is None:
        module = sys.modules.get(getattr(obj, "__module__", "") or "")
        globs = dict(vars(module)) if module is not None else {}
    test = doctest.DocTestParser().get_doctest(doc, globs, qualified, None, 0)
    runner = doctest.DocTestRunner(optionflags=OPTIONFLAGS)
    out = io.StringIO()
    state = torch.get_rng_state()
    try:
        with fgrad.default_device("cpu"):
            runner.run(test, out=out.write, clear_globs=True)
    finally:
        torch.set_rng_state(state)
    return runner.failures, out.getvalue()


@pytest.mark.parametrize("qualified,obj,doc", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_example_runs(qualified, obj, doc):
    failures, report = run_example(qualified, obj, doc)
    assert failures == 0, f"the docstring example of {qualified} fails:\n{report}"


# ------------------------------------------------------------- the examples print PyTorch's output
IMPORT_FGRAD_TORCH = re.compile(r"^(\s*>>> )import fgrad\.torch as torch\s*$", re.M)


def torch_examples() -> list[tuple[str, object, str]]:
    """The examples of the PyTorch face that import it as ``torch`` (and nothing else of fgrad)."""
    out = []
    for qualified, obj, doc in EXAMPLES:
        if not qualified.startswith("fgrad.torch") or not IMPORT_FGRAD_TORCH.search(doc):
            continue
        rest = IMPORT_FGRAD_TORCH.sub("", doc)
        if "fgrad" in "\n".join(line for line in rest.splitlines() if ">>>" in line or "..." in line):
            continue  # uses fgrad itself: no PyTorch spelling
        out.append((qualified, obj, doc))
    return out


# names fgrad exports where PyTorch has them elsewhere: their PyTorch spelling for the live check
PEER_SPELLING = {
    "torch.utils.data.WorkerInfo(": "torch.utils.data._utils.worker.WorkerInfo(",
}


def _with_pytorch(doc: str) -> str:
    doc = IMPORT_FGRAD_TORCH.sub(r"\1import torch", doc)
    for ours, theirs in PEER_SPELLING.items():
        doc = doc.replace(ours, theirs)
    return doc


# the modules whose examples must print what PyTorch prints (run with ``import torch``), and
# the modules whose classes must
PEER_CHECKED = ("fgrad.torch.nn", "fgrad.torch.optim", "fgrad.torch.utils.data")
PEER_CHECKED_CLASSES = ("fgrad.torch", "fgrad.torch.linalg")


def _peer_rows():
    return [(q, obj, doc) for q, obj, doc in torch_examples()
            if q.startswith(PEER_CHECKED)
            or (inspect.isclass(obj) and q.rsplit(".", 1)[0] in PEER_CHECKED_CLASSES)]


def _run_with_pytorch(rows) -> list[str]:
    """The reports of the self-contained examples of ``rows`` (those that pass with an empty
    namespace: they import what they use) that fail with ``import torch``."""
    pytest.importorskip("torch")
    wrong = []
    for qualified, obj, doc in rows:
        if run_example(qualified, obj, doc, globs={})[0]:
            continue  # uses a name of its module's namespace: no PyTorch spelling
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            failures, report = run_example(qualified, obj, _with_pytorch(doc), globs={})
        if failures:
            wrong.append(report)
    return wrong


def test_examples_print_pytorchs_output_sample():
    wrong = _run_with_pytorch(_peer_rows()[::10])
    assert not wrong, "examples whose output is not PyTorch's:\n" + "\n".join(wrong)


@pytest.mark.slow
def test_examples_print_pytorchs_output_all():
    wrong = _run_with_pytorch(_peer_rows())
    assert not wrong, "examples whose output is not PyTorch's:\n" + "\n".join(wrong)


if __name__ == "__main__":  # python tests/test_docstrings_everywhere.py: what is left, by module
    import collections

    total, missing = collections.Counter(), collections.Counter()
    for home, _name, obj in CALLABLES.values():
        total[home] += 1
        missing[home] += ">>>" not in (own_doc(obj) or "")
    print(f"{len(CALLABLES)} public callables, {sum(missing.values())} without an example")
    for home, n in missing.most_common():
        if n:
            print(f"  {home:60s} {n:4d} of {total[home]:4d}")
