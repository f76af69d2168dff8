"""No hand-written forwards (issue 11): every differentiable shim op is applied by the
dispatcher (`fgrad.torch._dispatch.apply_op`) with its fgrad definition only, and the forward
is that definition run through its cached per-signature program.

The dispatcher's entry points take no forward function (``multi``/``edges`` are keyword-only,
so a fifth positional argument -- the old ``fwd`` slot -- cannot come back unnoticed), and the
few places that compute a result themselves and record it with ``autograd.graph.record`` are
listed below with their reason; the list may only shrink."""

from __future__ import annotations

import ast
import inspect
import pathlib

import pytest

import fgrad.torch as ft
from fgrad.torch import _dispatch
from fgrad.torch._faces import composite_unary
from fgrad.torch.nn._defop import defop

ROOT = pathlib.Path(ft.__file__).parent
ENTRY_POINTS = {"apply_op", "_apply_op", "defop"}  # (name, key, fn, args, *, multi, edges)

# (module, function) that compute an op's value themselves and record it with G.record
RECORDS_ITSELF = {
    # single-primitive faces: the value is the primitive's own implementation (its ufunc),
    # which is exactly the program its definition (``prim.bind``) stages to
    ("_faces.py", "op"),
    ("_faces.py", "__call__"),
    ("_faces.py", "_slow"),
    # ``x ** c``: ``pow_p``'s implementation (NumPy's power), called directly
    ("_ops.py", "_pow_scalar_exp"),
    # views: no computation, the result shares the input's memory
    ("_ops_shape.py", "_make_view"),
    ("_ops_shape.py", "_multi_view"),
}


def _calls(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            yield node, (f.id if isinstance(f, ast.Name) else getattr(f, "attr", None))


def _extra_positional(source: str) -> list[int]:
    """Lines where a dispatcher entry point gets more than (name, key, fn, args) positionally."""
    return [n.lineno for n, name in _calls(ast.parse(source)) if name in ENTRY_POINTS and len(n.args) > 4]


def _self_recording(source: str) -> set[str]:
    """Functions of ``source`` (the innermost enclosing one) that call ``G.record`` themselves."""
    found = set()

    def visit(node, fn_name):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            fn_name = node.name
        if (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "record"
            and getattr(node.func.value, "id", None) == "G"
        ):
            found.add(fn_name)
        for child in ast.iter_child_nodes(node):
            visit(child, fn_name)

    visit(ast.parse(source), None)
    return found


def _shim_sources():
    for p in sorted(ROOT.rglob("*.py")):
        rel = p.relative_to(ROOT)
        if rel.parts[0] == "autograd" or rel.name == "_dispatch.py":
            continue  # the engine itself
        yield rel, p.read_text()


def test_entry_points_take_no_forward():
    for f in (_dispatch.apply_op, defop):
        params = inspect.signature(f).parameters
        assert list(params)[:4] in (["name", "key", "fn", "args"],), f
        extra = {n: p.kind for n, p in params.items() if n not in ("name", "key", "fn", "args")}
        assert all(k is inspect.Parameter.KEYWORD_ONLY for k in extra.values()), (f, extra)
        assert set(extra) <= {"multi", "edges"}, (f, extra)
    assert list(inspect.signature(composite_unary).parameters) == ["name", "gname", "make_fn", "to_float"]


def test_no_call_passes_a_forward():
    bad = [f"{rel}:{line}" for rel, src in _shim_sources() for line in _extra_positional(src)]
    assert not bad, f"a hand-written forward is passed to the dispatcher at {bad}"


def test_ops_recording_their_own_value_are_the_listed_ones():
    found = {(rel.name, fn) for rel, src in _shim_sources() for fn in _self_recording(src)}
    assert found <= RECORDS_ITSELF, f"new op(s) computing their own forward: {sorted(found - RECORDS_ITSELF)}"
    gone = sorted(RECORDS_ITSELF - found)
    assert not gone, f"no longer computing their own forward (shrink the list): {gone}"


def test_the_checks_see_a_forward():
    src = (
        "def op(x):\n"
        "    return apply_op('AbsBackward0', ('abs',), fn, (x,), lambda b: abs(b))\n"
        "def op2(x):\n"
        "    r = result_tensor(abs(x._buf))\n"
        "    G.record('AbsBackward0', ('abs',), fn, (x,), (r,))\n"
        "    return r\n"
    )
    assert _extra_positional(src) == [2]
    assert _self_recording(src) == {"op2"}
    with pytest.raises(TypeError):
        _dispatch.apply_op("AbsBackward0", ("abs",), abs, (ft.ones(2),), lambda b: b)
