"""The primitive registry: every primitive carries all of its rules, and is tested.

Walks `fgrad.core.primitive.PRIMITIVES` after importing every fgrad module, and fails for
any primitive without a jvp rule, a batching rule, or (for primitives marked ``linear``) a
transpose rule; for a rule not declared through the helpers of `fgrad.core.rules`
(``defjvp``, ``deflinear`` ...: assigned as ``p.jvp = ...`` instead, or reassigned after);
for a ``linear`` flag that disagrees with the transpose rule; then checks that every
primitive is reached by at least one op-table row (forward, jvp, vjp or vmap of the row's
example) or is listed in `TESTED_ELSEWHERE`.
"""

from __future__ import annotations

import importlib
import pathlib
import pkgutil

import pytest

import fgrad
from fgrad.core.primitive import PRIMITIVES, Primitive
from fgrad.testing import op_table as T


def _import_all_modules() -> None:
    for m in pkgutil.walk_packages(fgrad.__path__, "fgrad."):
        if "cupy" in m.name:  # needs a GPU stack
            continue
        try:
            importlib.import_module(m.name)
        except ImportError:  # optional dependency (cupy, torch, ...) missing
            pass


_import_all_modules()

# (primitive, rule) -> why the rule is deliberately absent.
EXEMPT: dict = {}

# Primitives exercised by dedicated test files rather than op-table rows (the file must
# exist and mention the primitive).
TESTED_ELSEWHERE = {
    "custom_lin": "tests/test_transforms.py",   # custom_vjp under grad / vmap / nesting
}

REPO = pathlib.Path(__file__).resolve().parent.parent


def _prims():
    return [pytest.param(n, id=n) for n in sorted(PRIMITIVES)]


def _is_throwaway(name: str) -> bool:
    # tests may register temporary primitives (e.g. test_errors); they clean up after themselves
    return name.startswith("_test_")


@pytest.mark.parametrize("name", _prims())
def test_primitive_has_rules(name):
    p = PRIMITIVES[name]
    assert isinstance(p, Primitive) and p.name == name
    assert callable(p.impl), f"primitive '{name}' has no impl"
    assert callable(p.abstract_eval), f"primitive '{name}' has no abstract_eval (shape/dtype rule)"
    missing = []
    for rule in ("jvp", "batch"):
        if getattr(p, rule) is None and (name, rule) not in EXEMPT:
            missing.append(rule)
    if p.linear and p.transpose is None and (name, "transpose") not in EXEMPT:
        missing.append("transpose (it is marked linear)")
    assert not missing, (
        f"primitive '{name}' (family {p.family}) is missing rule(s): {', '.join(missing)}. Declare "
        f"them next to the primitive with the helpers of fgrad.core.rules (defjvp, deflinear, "
        f"defbatch ...), written with fgrad ops."
    )
    for rule in ("jvp", "batch", "transpose"):
        r = getattr(p, rule)
        assert r is None or callable(r), f"primitive '{name}': {rule} rule is not callable"


def _undeclared_rules(p: Primitive) -> list[str]:
    """The rules of ``p`` not set through `fgrad.core.rules` (or replaced after)."""
    bad = []
    for rule in ("jvp", "batch", "transpose"):
        r = getattr(p, rule)
        if r is not None and p.declared.get(rule) is not r:
            bad.append(rule)
    return bad


def _linearity_problem(p: Primitive) -> str | None:
    """How ``p.linear`` disagrees with its transpose rule (None: they agree)."""
    kind = p.declared.get("kind")
    if p.linear and p.transpose is None:
        return "is marked linear but has no transpose rule"
    if p.linear != (kind == "linear"):
        return (f"has linear={p.linear} but its transpose was declared as {kind!r} "
                "(deflinear sets both; defbilinear / deflinear_in leave linear False)")
    if p.transpose is not None and kind not in ("linear", "bilinear", "partly linear"):
        return "has a transpose rule not declared by deflinear / defbilinear / deflinear_in"
    if kind is not None and p.transpose is None:
        return f"was declared {kind} but has no transpose rule"
    return None


@pytest.mark.parametrize("name", _prims())
def test_rules_are_declared(name):
    """Every rule comes from a helper of fgrad.core.rules, and linear agrees with transpose."""
    p = PRIMITIVES[name]
    if _is_throwaway(name):
        return
    bad = _undeclared_rules(p)
    assert not bad, (
        f"primitive '{name}': rule(s) {bad} were assigned directly (p.{bad[0]} = ...), not declared "
        f"with fgrad.core.rules (defjvp / defjvp2 / deflinear / defbilinear / defzero / defbatch ...)")
    problem = _linearity_problem(p)
    assert problem is None, f"primitive '{name}' {problem}"


def test_registry_checks_catch_drift():
    """The two checks above fail on the defects they guard against."""
    from fgrad.core.array import ShapedArray
    from fgrad.core.rules import defjvp, deflinear, defvectorized

    def impl(xp, x):
        return x

    def aval(a):
        return ShapedArray(a.shape, a.dtype)

    try:
        p = Primitive("_test_registry_drift", impl, aval)
        defjvp(p, lambda t, x: t)
        defvectorized(p)
        assert _undeclared_rules(p) == [] and _linearity_problem(p) is None
        p.jvp = lambda primals, tangents: (primals[0], tangents[0])  # assigned, not declared
        assert _undeclared_rules(p) == ["jvp"]
        p.linear = True  # a flag out of step with the (missing) transpose rule
        assert _linearity_problem(p) is not None
        q = Primitive("_test_registry_drift2", impl, aval)
        deflinear(q, lambda ct, x: (ct,))
        defvectorized(q)
        assert _linearity_problem(q) is None
        q.linear = False  # drifted from the transpose rule
        assert _linearity_problem(q) is not None
        q.linear = True
        q.transpose = lambda ct, x: (ct,)  # a transpose swapped in by hand
        assert _undeclared_rules(q) == ["transpose"]
    finally:
        PRIMITIVES.pop("_test_registry_drift", None)
        PRIMITIVES.pop("_test_registry_drift2", None)


def test_exemptions_are_current():
    for name, rule in EXEMPT:
        if name in PRIMITIVES:
            assert getattr(PRIMITIVES[name], rule) is None, f"{name}.{rule} exists now; drop the exemption"


@pytest.fixture(scope="module")
def primitives_reached_by_rows():
    reached: dict[str, str] = {}
    errors = {}
    for row in T.ROWS:
        if row.missing:
            continue
        try:
            names = T.row_primitives(row)
        except Exception as e:  # a broken row is reported by test_op_table; note it here too
            errors[row.name] = f"{type(e).__name__}: {e}"
            continue
        for n in names:
            reached.setdefault(n, row.name)
    return reached, errors


def test_every_primitive_is_tested(primitives_reached_by_rows):
    reached, errors = primitives_reached_by_rows
    untested = [n for n in sorted(PRIMITIVES)
                if n not in reached and not _tested_elsewhere(n) and not _is_throwaway(n)]
    assert not untested, (
        f"primitives not reached by any op-table row nor listed in TESTED_ELSEWHERE: {untested}. "
        f"Add a row to fgrad/testing/op_table.py. (rows that failed to run: {errors})"
    )


def _tested_elsewhere(name: str) -> bool:
    path = TESTED_ELSEWHERE.get(name)
    if path is None or not (REPO / path).exists():
        return False
    return name in (REPO / path).read_text()
