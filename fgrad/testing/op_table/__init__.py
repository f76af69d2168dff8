"""The op table: one row per public op (or per op configuration), shared by every per-op test.

A row (`OpRow`) says how to call the fgrad function, what NumPy function it must agree
with, which inputs are valid (domains, points to keep away from for gradients), which
shapes and static keyword arguments to try (as hypothesis strategies), which dtypes, the
tolerances, and whether the op is differentiable.  tests/test_op_table.py turns every row
into: forward vs NumPy (hypothesis over shapes, values and dtypes), gradients vs finite
differences (orders 1 and 2, forward and reverse mode), vmap vs a Python loop (several
in_axes, also of the op's jvp and vjp), and dtype preservation.  tests/test_registry.py
checks that every primitive is reached by some row.

The rows live in one module per family (`elementwise`, `reductions`, `shape`, `structural`,
`indexing`, `products`, `sorting`, `linalg`, `nn`, `lax`, `control_flow`, `transforms`,
`convolution`);
`ROWS` is their concatenation.  Ops declared in `fgrad.ops.specs` get their rows from the
spec (`spec_rows`); adding any other op is usually one line in its family module::

    ROWS += [unary("sin"), binary("hypot", valid=away_from_origin)]

or, for anything unusual, an explicit `OpRow(...)` with a ``make_args`` hook that builds
the inputs (structured matrices, index arrays that must fit another argument's shape, ...).

Conventions: ``fn(*arrays, **kwargs)`` and ``ref(*numpy_arrays, **kwargs)`` take the same
arguments; static arguments (axis, shapes, ...) are keyword arguments drawn by ``kwargs``
(a function of the drawn shapes returning a strategy of dicts).  Outputs may be pytrees
(tuples/lists) of arrays.
"""

from __future__ import annotations

from typing import Callable

from . import (
    control_flow, convolution, elementwise, fft, image, indexing, lax, lax_gather_scatter, linalg, nn,
    numpy_more, products, reductions,
    scipy_linalg_more, scipy_more, scipy_rows, shape, sorting, structural, transforms,
)
from ._base import (  # noqa: F401
    BOOL, F32, F64, FLOATS, INTS, Arg, MissingOp, OpRow, axis_kwargs, binary, broadcast_shapes_of,
    lookup, near_half_integer, near_integer, one_axis_kwargs, reduction, shapes_of, unary,
    valid_mod, valid_not_tied,
)
from ._record import example_args, record_primitives, row_primitives
from .not_rows import LEAKED_HELPERS, NOT_OPS

FAMILIES = (elementwise, reductions, shape, structural, indexing, products, sorting, linalg, nn, lax,
            control_flow, transforms, convolution, fft, scipy_rows, scipy_more, image, numpy_more,
            scipy_linalg_more, lax_gather_scatter)
ROWS: list[OpRow] = [row for family in FAMILIES for row in family.ROWS]


def rows_by_name() -> dict[str, OpRow]:
    out: dict[str, OpRow] = {}
    for r in ROWS:
        if r.name in out:
            raise ValueError(f"op table: duplicate row name {r.name!r}")
        out[r.name] = r
    return out


def covered_names() -> set[str]:
    return {n for r in ROWS for n in r.public_names}


def public_functions(namespace: str = "numpy") -> dict[str, Callable]:
    """Public functions of ``fgrad.<namespace>`` defined by fgrad (not re-exported numpy)."""
    import importlib

    mod = importlib.import_module(f"fgrad.{namespace}")
    out = {}
    for n in dir(mod):
        if n.startswith("_"):
            continue
        obj = getattr(mod, n)
        if isinstance(obj, type) or not callable(obj):
            continue
        if not (getattr(obj, "__module__", None) or "").startswith("fgrad"):
            continue
        out[n] = obj
    return out


def uncovered(namespace: str = "numpy") -> list[str]:
    """Public functions of ``fgrad.<namespace>`` without an op-table row (nor an entry in
    ``NOT_OPS[namespace]`` / ``LEAKED_HELPERS[namespace]``).  Aliases (``absolute`` is
    ``abs``) count as covered."""
    funcs = public_functions(namespace)
    covered = covered_names()
    covered_objs = {
        id(funcs[n.split(".")[-1]])
        for n in covered
        if n.rsplit(".", 1)[0] == namespace and n.split(".")[-1] in funcs
    }
    missing = []
    for n, f in sorted(funcs.items()):
        if f"{namespace}.{n}" in covered or id(f) in covered_objs:
            continue
        if n in NOT_OPS.get(namespace, {}) or n in LEAKED_HELPERS.get(namespace, set()):
            continue
        missing.append(n)
    return missing


__all__ = [
    "Arg",
    "OpRow",
    "ROWS",
    "NOT_OPS",
    "LEAKED_HELPERS",
    "unary",
    "binary",
    "reduction",
    "rows_by_name",
    "covered_names",
    "uncovered",
    "public_functions",
    "record_primitives",
    "row_primitives",
    "example_args",
    "shapes_of",
    "broadcast_shapes_of",
    "axis_kwargs",
    "one_axis_kwargs",
    "near_integer",
    "near_half_integer",
]
