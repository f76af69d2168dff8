"""Every public function has a docstring with a runnable example, and fgrad prints what the peer printed.

The examples of functions without a hand-written one live in ``fgrad/_docs/*_examples.py``,
written by ``tools/make_doc_examples.py`` from the peers' output (PyTorch for `fgrad.torch`,
JAX with x64 for the functional face) and attached to the docstrings at import.  Here each one
runs as a doctest against fgrad: a failure is a difference between fgrad and its peer.  The
known differences (``KNOWN_DIFFERENCES`` of each data module) run as strict expected failures,
so fixing one fails the test until the data module is regenerated.  With the peer installed,
the stored outputs are compared with the peer's live output too (a sample here; all of them
with ``-m slow``).
"""

from __future__ import annotations

import contextlib
import doctest
import importlib
import io
import sys
import warnings
from pathlib import Path

import pytest

import fgrad
import fgrad.nn  # noqa: F401  (loads and attaches)
import fgrad.random  # noqa: F401
import fgrad.torch  # noqa: F401
from fgrad import _docs

HOW_TO_ADD = (
    "Give it an example: add `\"{qualified}\": [\"<example line>\", ...]` to CURATED in "
    "tools/make_doc_examples.py if the generic candidates do not fit, then run "
    "`python tools/make_doc_examples.py --report` (needs torch and jax) and commit the rewritten "
    "fgrad/_docs/*_examples.py; or write a docstring with a `>>>` example by hand.")

# public names without an example: helpers imported into a public namespace without an
# underscore (not API: they should get one).  Keep it short.
NOT_API = {
    "fgrad.torch": {"check_device", "check_fill_value", "getitem", "setitem",
                    "like_index",
                    "new_view_node_rename", "to_device", "to_device_buf", "to_dtype", "result_dtype",
                    "ones_like_t", "is_grad_enabled_"},
    "fgrad.torch.nn.functional": {"buf", "defop", "is_concrete", "window_view", "wrap"},
    "fgrad.torch.special": {"apply_op"},
    "fgrad.torch.func": {"from_array", "to_array", "wrap"},
    "fgrad.lax": {"DotDimensionNumbers"},  # a type alias (tuple[...]), callable only as tuple is
}


def _stored():
    rows = []
    for module_name in _docs.MODULES:
        data = importlib.import_module(f"fgrad._docs.{_docs.DATA_MODULES[module_name]}")
        for name, (_summary, steps, skip) in sorted(_docs.examples_of(module_name).items()):
            qualified = f"{module_name}.{name}"
            assert skip == (qualified in data.KNOWN_DIFFERENCES)
            marks = (pytest.mark.xfail(strict=True, reason="known difference from the peer: "
                                       "fix it, then regenerate the examples"),) if skip else ()
            rows.append(pytest.param(module_name, name, steps, id=qualified, marks=marks))
    return rows


STORED = _stored()


def _run_doctest(module_name: str, name: str, steps) -> tuple[int, str]:
    text = _docs.doctest_text(module_name, steps)
    test = doctest.DocTestParser().get_doctest(text, {}, f"{module_name}.{name}", None, 0)
    out = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    with fgrad.default_device("cpu"), warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        runner.run(test, out=out.write)
    return runner.failures, out.getvalue()


@pytest.mark.parametrize("module_name,name,steps", STORED)
def test_fgrad_prints_the_peers_output(module_name, name, steps):
    failures, report = _run_doctest(module_name, name, steps)
    assert failures == 0, f"fgrad differs from the peer in the example of {module_name}.{name}:\n{report}"


def test_every_public_function_has_an_example():
    missing = []
    for module_name in _docs.MODULES:
        if module_name == "fgrad.torch.Tensor":
            continue  # test_tensor_methods_mirroring_a_function_have_an_example
        module = importlib.import_module(module_name)
        for name, fn in sorted(_docs.public_functions(module).items()):
            if name in NOT_API.get(module_name, ()):
                continue
            if ">>>" not in (fn.__doc__ or ""):
                missing.append(f"{module_name}.{name}")
    assert not missing, (f"{len(missing)} public function(s) without a docstring example: "
                         f"{', '.join(missing)}.\n" + HOW_TO_ADD.format(qualified=missing[0]))


def test_tensor_methods_mirroring_a_function_have_an_example():
    """A Tensor method with the name of a `fgrad.torch` function has an example (method syntax)."""
    functions = _docs.public_functions(fgrad.torch)
    methods = _docs.public_functions(fgrad.torch.Tensor)
    exempt = NOT_API["fgrad.torch"]
    missing = sorted(f"fgrad.torch.Tensor.{n}" for n, fn in methods.items()
                     if n in functions and n not in exempt and ">>>" not in (fn.__doc__ or ""))
    assert not missing, (f"{len(missing)} Tensor method(s) without a docstring example: "
                         f"{', '.join(missing)}.\n" + HOW_TO_ADD.format(qualified=missing[0]))


def test_not_api_list_is_current():
    """The exemptions name functions that still exist and still lack an example."""
    stale = []
    for module_name, names in NOT_API.items():
        fns = _docs.public_functions(importlib.import_module(module_name))
        stale += [f"{module_name}.{n}" for n in names if n in fns and ">>>" in (fns[n].__doc__ or "")]
    assert not stale, f"remove from NOT_API (they have an example now): {stale}"


def test_attached_example_keeps_a_hand_written_summary():
    import fgrad.numpy as fnp

    doc = fnp.sin.__doc__
    assert doc.startswith("Elementwise ``sin``"), doc  # the hand-written line is kept
    assert ">>> fnp.sin(fnp.array([0.5, 1.0]))" in doc
    clip = fnp.clip.__doc__  # a hand-written example is left alone
    assert ">>> fnp.clip(" in clip and not getattr(fnp.clip, "__fgrad_doc_example__", None)


def test_an_attached_example_is_the_functions_own():
    """A function object bound to several names carries the example of the name it was
    defined under, never another name's."""
    wrong = []
    for module_name in _docs.MODULES:
        fns = _docs.public_functions(_docs.namespace_object(module_name))
        for name, fn in fns.items():
            owner = getattr(fn, "__fgrad_doc_example__", None)
            own = getattr(fn, "__name__", None)
            if owner is None or own != name or owner.rsplit(".", 1)[0] != module_name:
                continue
            if owner != f"{module_name}.{name}":
                wrong.append(f"{module_name}.{name} carries {owner}'s example")
    assert not wrong, wrong


def test_doctest_text_marks_known_differences_skipped():
    text = _docs.doctest_text("fgrad.torch", (("torch.zeros(1)", "tensor([0.])"),), skip=True)
    assert ">>> torch.zeros(1)  # doctest: +SKIP" in text
    assert ">>> import fgrad.torch as torch\n" in text


def _peer_outputs(rows):
    pytest.importorskip("torch")
    jax = pytest.importorskip("jax")
    x64 = jax.config.jax_enable_x64
    tools = str(Path(__file__).resolve().parents[1] / "tools")
    if tools not in sys.path:
        sys.path.append(tools)
    try:
        tool = importlib.import_module("make_doc_examples")  # enables x64, as fgrad's default
        jax.config.update("jax_enable_x64", True)
        wrong = []
        for row in rows:
            module_name, name, steps = row.values
            peer_ns, _, _, _ = tool.namespaces(module_name)
            with contextlib.redirect_stderr(io.StringIO()):
                got = tool.run_steps([s[-1] if len(s) == 3 else s[0] for s in steps], peer_ns, 0)
            if got != [s[1] for s in steps]:
                wrong.append(f"{module_name}.{name}: stored {[s[1] for s in steps]}, peer prints {got}")
    finally:
        jax.config.update("jax_enable_x64", x64)  # other tests compare with JAX's default precision
    assert not wrong, "stored outputs differ from the peer's; rerun tools/make_doc_examples.py:\n" + \
        "\n".join(wrong)


def test_stored_outputs_are_the_peers_sample():
    _peer_outputs(STORED[::40])


@pytest.mark.slow
def test_stored_outputs_are_the_peers_all():
    _peer_outputs(STORED)
