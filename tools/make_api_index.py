"""Which public names the API reference (docs/api/) renders, and the index page of the rest.

The API pages document modules with mkdocstrings ``::: module`` blocks. Such a block renders a
module's ``__all__`` where it has one, and otherwise only the names the module defines itself:
a function or class imported from elsewhere (``fgrad.torch.sin``, defined in
``fgrad.torch._faces``; ``fgrad.numpy.sin``) is an alias, which mkdocstrings leaves out — most
of ``fgrad.torch`` and ``fgrad.numpy``. `rendered` says what the blocks of the pages render
(``members:`` options respected; ``::: module.name`` blocks too); `missing` lists the public
names of both faces that none renders, by the object (a name documented under another path,
``fgrad.torch.nn.modules.linear.Linear`` as ``fgrad.torch.nn.Linear``, counts).

``python tools/make_api_index.py`` writes ``docs/api/names.md``: every missing name with its
signature and the first line of its docstring, module by module (``tests/test_api_docs.py``
fails while a public name is in neither).
"""

from __future__ import annotations

import importlib
import inspect
import pathlib
import pkgutil
import re
import sys
import warnings

ROOT = pathlib.Path(__file__).resolve().parents[1]
API = ROOT / "docs" / "api"
INDEX = API / "names.md"

# the packages whose public modules are walked (the functional face and the PyTorch face)
PACKAGES = ("fgrad.numpy", "fgrad.lax", "fgrad.scipy", "fgrad.nn", "fgrad.random", "fgrad.torch")
MODULES = ("fgrad",)

BLOCK = re.compile(r"^::: ([\w.]+)[ \t]*\n((?:[ \t]+\S.*\n)*)", re.M)
MEMBERS = re.compile(r"members:\s*\[([^\]]*)\]")


def walk(package: str) -> list[str]:
    """``package`` and its submodules without a leading underscore in their path (imported;
    those whose optional dependency is missing aside)."""
    module = importlib.import_module(package)
    names = [package]
    for info in pkgutil.walk_packages(getattr(module, "__path__", []), package + "."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                importlib.import_module(info.name)
        except ImportError:
            continue
        names.append(info.name)
    return names


def public_modules() -> list[str]:
    """`MODULES` and every public module of `PACKAGES`."""
    return list(MODULES) + [m for package in PACKAGES for m in walk(package)]


def _defined_in(obj, module_name: str) -> bool:
    """Whether mkdocstrings sees ``obj`` as the module's own member (not an alias): functions
    and classes defined there, and values without a module of their own (constants)."""
    if inspect.ismodule(obj):
        return False
    owner = getattr(obj, "__module__", None) if (inspect.isclass(obj) or callable(obj)) else None
    return owner is None or owner == module_name


def public_names(module_name: str) -> dict[str, object]:
    """The module's public names: ``__all__``, else the names without an underscore that are not
    modules nor ``typing``/``__future__`` helpers."""
    module = sys.modules[module_name]
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n in dir(module) if not n.startswith("_")]
    out = {}
    for name in names:
        obj = getattr(module, name, None)
        if obj is None or inspect.ismodule(obj):
            continue
        if getattr(obj, "__module__", None) in ("typing", "__future__") or name == "annotations":
            continue
        out[name] = obj
    return out


def rendered(pages=None) -> tuple[set[int], set[str]]:
    """``(ids of the objects the pages render, the qualified names they render)``."""
    objects, names = set(), set()
    for page in pages if pages is not None else sorted(API.glob("*.md")):
        if page == INDEX:
            continue
        for path, options in BLOCK.findall(page.read_text(encoding="utf-8")):
            module = sys.modules.get(path)
            if module is None:
                try:
                    module = importlib.import_module(path)
                except ImportError:
                    module = None
            if module is None:  # ``::: module.name``
                parent, _, name = path.rpartition(".")
                obj = getattr(importlib.import_module(parent), name)
                objects.add(id(obj))
                names.add(path)
                continue
            members = MEMBERS.search(options)
            listed = {m.strip().strip("\"'") for m in members.group(1).split(",")} if members else None
            has_all = hasattr(module, "__all__")
            for name, obj in public_names(path).items():
                if listed is not None and name not in listed:
                    continue
                if has_all or _defined_in(obj, path):
                    objects.add(id(obj))
                    names.add(f"{path}.{name}")
    return objects, names


def missing() -> dict[str, dict[str, object]]:
    """``{module: {name: object}}``: the public names no API page renders, by object."""
    objects, _ = rendered()
    out: dict[str, dict[str, object]] = {}
    for module_name in public_modules():
        for name, obj in public_names(module_name).items():
            if id(obj) not in objects:
                out.setdefault(module_name, {})[name] = obj
    return out


def listed_in_index() -> set[str]:
    """The qualified names `INDEX` lists."""
    if not INDEX.exists():
        return set()
    return set(re.findall(r"^\| `([\w.]+)` \|", INDEX.read_text(encoding="utf-8"), re.M))


def _escape(text: str) -> str:
    return text.replace("|", "\\|").replace("[", "\\[").replace("]", "\\]").replace("<", "&lt;")


def _summary(obj) -> str:
    doc = inspect.getdoc(obj) if (callable(obj) or inspect.isclass(obj)) else None
    if not doc:
        return f"(a value: `{_escape(type(obj).__name__)}`)" if not callable(obj) else ""
    first = doc.strip().split("\n\n")[0].replace("\n", " ")
    return _escape(first if len(first) <= 200 else first[:197] + "...")


def _signature(obj) -> str:
    if not callable(obj):
        return ""
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return ""
    empty = inspect.Parameter.empty  # (names and defaults; the annotations are on the object)
    sig = str(sig.replace(parameters=[p.replace(annotation=empty) for p in sig.parameters.values()],
                          return_annotation=empty))
    sig = re.sub(r" at 0x[0-9a-f]+>", ">", sig)  # a function default's address: not stable
    return sig if len(sig) <= 90 else sig[:87] + "..."


def write_index() -> int:
    """Write `INDEX`; return how many names it lists."""
    lines = ["# Index of the other public names", "",
             "The public names of `fgrad`, `fgrad.numpy`, `fgrad.lax`, `fgrad.scipy`, `fgrad.nn`,",
             "`fgrad.random` and `fgrad.torch` (and their submodules) that the other API pages do not",
             "render (most are functions generated from the op specs and re-exported, such as",
             "`fgrad.torch.sin` and `fgrad.numpy.sin`): each with its signature and the first line",
             "of its docstring (`help(name)` shows all of it, with a runnable example). Written by",
             "`python tools/make_api_index.py`; `tests/test_api_docs.py` checks that every public",
             "name is rendered by a page or listed here.", ""]
    count = 0
    for module_name, names in missing().items():
        lines += [f"## `{module_name}`", "", "| name | signature | summary |", "|---|---|---|"]
        for name, obj in sorted(names.items()):
            sig = _signature(obj)
            shown = f"`{_escape(sig)}`" if sig else ""
            lines.append(f"| `{module_name}.{name}` | {shown} | {_summary(obj)} |")
            count += 1
        lines.append("")
    INDEX.write_text("\n".join(lines), encoding="utf-8")
    return count


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    print(f"{write_index()} names written to {INDEX.relative_to(ROOT)}")
