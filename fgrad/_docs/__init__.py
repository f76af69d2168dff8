"""Runnable examples for fgrad's public functions, attached to their docstrings at import.

Most public functions are generated from the op specs (`fgrad.ops.specs`), so their
docstrings cannot be written by hand next to them.  Their examples live instead in one data
module per face (``torch_examples``, ``numpy_examples``, ``lax_examples``, ``jax_examples``),
written by ``tools/make_doc_examples.py``, which runs every example with the peer (PyTorch for
`fgrad.torch`, JAX for the rest) and stores the peer's printed output.  `attach` gives each
public function of a module that lacks a docstring the stored summary, and each one whose
docstring has no ``>>>`` example the stored ``Example::`` block; hand-written docstrings are
kept.  ``tests/test_doc_examples.py`` runs every stored example against fgrad (fgrad must
print what the peer printed) and fails for a public function without an example.

Example::

    >>> import fgrad.torch as torch
    >>> "torch.sin(torch.tensor([0.5, 1.0]))" in torch.sin.__doc__
    True
"""

from __future__ import annotations

import importlib
import inspect
import sys
import types

__all__ = ["MODULES", "DATA_MODULES", "namespace_object", "public_functions", "examples_of", "doctest_text",
           "attach", "attach_loaded"]

# the modules whose public functions must carry an example, and the import line that makes the
# names their examples use (the peer's module under the same name when the generator runs them)
MODULES: dict[str, str] = {
    "fgrad": "import fgrad",
    "fgrad.nn": "import fgrad",
    "fgrad.random": "import fgrad",
    "fgrad.numpy": "import fgrad.numpy as fnp",
    "fgrad.numpy.linalg": "import fgrad.numpy as fnp",
    "fgrad.numpy.fft": "import fgrad.numpy as fnp",
    "fgrad.lax": "from fgrad import lax; import fgrad.numpy as fnp",
    "fgrad.torch": "import fgrad.torch as torch",
    "fgrad.torch.nn.functional": "import fgrad.torch as torch",
    "fgrad.torch.linalg": "import fgrad.torch as torch",
    "fgrad.torch.special": "import fgrad.torch as torch",
    "fgrad.torch.func": "import fgrad.torch as torch",
    "fgrad.torch.autograd": "import fgrad.torch as torch",
    "fgrad.torch.Tensor": "import fgrad.torch as torch",  # the Tensor methods (method syntax)
}

# which data module holds the examples of a module's functions
DATA_MODULES: dict[str, str] = {m: ("torch_examples" if m.startswith("fgrad.torch") else
                                    "numpy_examples" if m.startswith("fgrad.numpy") else
                                    "lax_examples" if m == "fgrad.lax" else "jax_examples")
                                for m in MODULES}


def namespace_object(module_name: str):
    """The loaded module ``module_name`` (the class ``fgrad.torch.Tensor`` for that name), or None.

    >>> namespace_object("fgrad.torch.Tensor").__name__
    'Tensor'
    """
    if module_name == "fgrad.torch.Tensor":
        return getattr(sys.modules.get("fgrad.torch"), "Tensor", None)
    return sys.modules.get(module_name)


def public_functions(module: types.ModuleType | type) -> dict[str, object]:
    """The public functions of ``module``: names without a leading underscore bound to a
    callable that is neither a class nor a module (nor a ``typing`` alias); of a class, its
    plain functions (methods).

    >>> import fgrad.torch as torch
    >>> "sin" in public_functions(torch), "Tensor" in public_functions(torch)
    (True, False)
    """
    out = {}
    for name in dir(module):
        if name.startswith("_"):
            continue
        obj = getattr(module, name, None)
        if (obj is None or not callable(obj) or inspect.isclass(obj) or inspect.ismodule(obj)
                or getattr(obj, "__module__", None) == "typing"):
            continue
        if inspect.isclass(module) and not inspect.isfunction(obj):
            continue
        out[name] = obj
    return out


def examples_of(module_name: str) -> dict:
    """The stored examples of ``module_name``'s functions: ``{name: (summary, ((source,
    want[, peer's source]), ...), skip)}`` (``skip``: fgrad's output is known to differ from
    the peer's).

    >>> examples_of("fgrad.torch")["sin"][1][0][:2]
    ('torch.sin(torch.tensor([0.5, 1.0]))', 'tensor([0.4794, 0.8415])')
    """
    try:
        data = importlib.import_module(f"{__name__}.{DATA_MODULES[module_name]}")
    except ImportError:  # not generated yet (tools/make_doc_examples.py writes it)
        return {}
    return data.EXAMPLES.get(module_name, {})


def doctest_text(module_name: str, steps, skip: bool = False) -> str:
    """An ``Example::`` block in doctest form for ``steps`` (``((source, want), ...)``; a third
    item, the peer's spelling of the line, is ignored here).

    >>> doctest_text("fgrad.torch", (("torch.tensor([1.0]) + 1", "tensor([2.])"),)).splitlines()[2:]
    ['    >>> import fgrad.torch as torch', '    >>> torch.tensor([1.0]) + 1', '    tensor([2.])']
    """
    lines = ["Example::", "", f"    >>> {MODULES[module_name]}"]
    for source, want, *_peer_spelling in steps:
        first, *rest = source.split("\n")
        lines.append(f"    >>> {first}" + ("  # doctest: +SKIP" if skip else ""))
        lines.extend(f"    ... {r}" for r in rest)
        lines.extend(f"    {w}" if w.strip() else "    <BLANKLINE>" for w in want.split("\n") if want)
    return "\n".join(lines)


def _set_doc(fn, doc: str) -> bool:
    try:
        fn.__doc__ = doc
    except (AttributeError, TypeError):
        return False
    return fn.__doc__ == doc


def attach(module_name: str) -> None:
    """Give each public function of ``module_name`` without a docstring the stored summary,
    and each one without a ``>>>`` example the stored example.  A function object bound to
    several names gets the example of the name it was defined under (``__name__``) first."""
    module = namespace_object(module_name)
    if module is None:
        return
    stored = examples_of(module_name)
    fns = public_functions(module)
    own_name_first = sorted(fns, key=lambda n: getattr(fns[n], "__name__", None) != n)
    for name in own_name_first:
        entry = stored.get(name)
        if entry is None:
            continue
        fn = fns[name]
        doc = fn.__doc__
        if doc and ">>>" in doc:
            continue  # a hand-written example (cheap test first: some docstrings are long)
        summary, steps, skip = entry
        doc = inspect.cleandoc(doc or "") or summary
        if steps:
            doc = doc + "\n\n" + doctest_text(module_name, steps, skip)
        if doc != fn.__doc__ and _set_doc(fn, doc):
            try:
                fn.__fgrad_doc_example__ = module_name + "." + name  # the generator regenerates these
            except (AttributeError, TypeError):
                pass


def attach_loaded(prefix: str) -> None:
    """`attach` for every module of `MODULES` under ``prefix`` that is imported already."""
    for module_name in MODULES:
        if module_name == prefix or module_name.startswith(prefix + "."):
            attach(module_name)
