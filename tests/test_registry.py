"""The primitive registry: every primitive carries all of its rules, and is tested.

Walks `fgrad.core.primitive.PRIMITIVES` after importing every fgrad module, and fails for
any primitive without a jvp rule, a batching rule, or (for primitives marked ``linear``) a
transpose rule; then checks that every primitive is reached by at least one op-table row
(forward, jvp, vjp or vmap of the row's example) or is listed in `TESTED_ELSEWHERE`.
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
EXEMPT = {
    ("custom_lin", "jvp"): "custom_lin only lives in linear (tangent) programs of custom_vjp functions; "
                           "forward mode over custom_vjp is an error, as in JAX",
}

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
        f"primitive '{name}' (family {p.family}) is missing rule(s): {', '.join(missing)}. Define "
        f"them next to the primitive (p.jvp / p.batch / p.transpose), written with fgrad ops."
    )
    for rule in ("jvp", "batch", "transpose"):
        r = getattr(p, rule)
        assert r is None or callable(r), f"primitive '{name}': {rule} rule is not callable"


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
        f"Add a row to the family module in fgrad/testing/op_table/. (rows that failed to run: {errors})"
    )


def _tested_elsewhere(name: str) -> bool:
    path = TESTED_ELSEWHERE.get(name)
    if path is None or not (REPO / path).exists():
        return False
    return name in (REPO / path).read_text()
